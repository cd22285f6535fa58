"""Snapshots: sizes, formats, tiles, privacy, history, the render command and atomic writes."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QRectF, QSettings, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from tabletop.cli import main
from tabletop.core import actions
from tabletop.export import (
    ExportError,
    export_scene,
    render_game,
    snapshot,
    snapshot_size,
    table_source,
)
from tabletop.modules import Module, find_module, new_game
from tabletop.persist import Game
from tabletop.ui.export_dialog import ExportDialog
from tabletop.ui.scene import TableScene
from tabletop.ui.session import TableSession
from tabletop.ui.view import TableView
from tabletop.ui.window import MainWindow
from tabletop.visibility import REFEREE

HANDS = ("hand_red", "hand_yellow", "hand_green")


@pytest.fixture
def module() -> Module:
    return find_module("proto")


@pytest.fixture
def game(tmp_path: Path, module: Module) -> Game:
    made = new_game(module, seats=3, seed=1, path=tmp_path / "game.jsonl")
    yield made
    made.close()


def scene_of(game: Game, module: Module, viewer: str | None = None) -> TableScene:
    session = TableSession(game, module)
    session.set_viewer(viewer)
    return TableScene(session)


@pytest.fixture
def scene(qapp, game: Game, module: Module) -> TableScene:  # noqa: ANN001
    return scene_of(game, module)


def image(path: Path) -> QImage:
    loaded = QImage(str(path))
    assert not loaded.isNull(), f"{path} is not an image"
    return loaded.convertToFormat(QImage.Format.Format_RGB32)


def pixels(img: QImage, rect: QRect | None = None) -> bytes:
    part = img.copy(rect) if rect is not None else img
    return bytes(part.constBits())


def top_band(img: QImage, scene: TableScene, scale: float) -> int:
    """The height of the bands above the table (caption, header) in a whole-table snapshot
    without a log band."""
    return img.height() - math.ceil(table_source(scene).height() * scale - 1e-6)


def table_part(img: QImage, scene: TableScene, scale: float) -> QRect:
    """The table in a whole-table snapshot without a log band: the bands above left out."""
    top = top_band(img, scene, scale)
    return QRect(0, top, img.width(), img.height() - top)


def region(scene: TableScene, place: str, scale: float, top: int = 0) -> QRect:
    """A place (with its label) in the pixels of a whole-table snapshot whose table starts
    ``top`` pixels down (below the caption and header)."""
    source = table_source(scene)
    r = scene.layout.place_rect(place)
    return QRect(
        math.floor((r.x - source.x()) * scale) - 2,
        top + math.floor((r.y - 34 - source.y()) * scale) - 2,
        math.ceil(r.w * scale) + 4,
        math.ceil((r.h + 34) * scale) + 4,
    )


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---- sizes and formats ------------------------------------------------------------
def test_png_has_the_size_of_the_source_times_the_scale(scene: TableScene, tmp_path: Path) -> None:
    out = tmp_path / "part.png"
    export_scene(scene, out, scale=1.5, source=QRectF(10, 20, 300, 201))
    img = image(out)
    assert (img.width(), img.height()) == (450, 302)  # 201 * 1.5 = 301.5: whole pixels, up

    whole = tmp_path / "whole.png"
    export_scene(scene, whole, scale=0.5)
    source = table_source(scene)
    assert source.contains(scene.itemsBoundingRect())
    expected = (math.ceil(source.width() * 0.5), math.ceil(source.height() * 0.5))
    assert (image(whole).width(), image(whole).height()) == expected


def test_caption_and_log_bands_add_to_the_height(scene: TableScene, tmp_path: Path) -> None:
    source = QRectF(0, 0, 400, 300)
    sizes = []
    for n, (caption, lines) in enumerate(
        [(None, None), ("Is this legal?", None), ("Is this legal?", ["a", "b"]), (None, ["a"] * 6)]
    ):
        out = tmp_path / f"s{n}.png"
        export_scene(scene, out, source=source, caption=caption, log_lines=lines)
        img = image(out)
        top, bottom = snapshot.band_heights(400, 1.0, caption, lines)
        assert (img.width(), img.height()) == (400, 300 + top + bottom)
        assert (img.width(), img.height()) == snapshot_size(source, 1.0, caption, lines)
        sizes.append(img.height())
    assert sizes[0] < sizes[1] < sizes[2]
    assert sizes[3] > sizes[0]
    # an entry of several lines (a finding under it) takes a band line each
    assert snapshot.band_heights(400, 1.0, None, ["1 a\n    ! b"]) == snapshot.band_heights(
        400, 1.0, None, ["1 a", "  ! b"]
    )
    # an empty caption is no caption
    assert snapshot.band_heights(400, 1.0, "  ", []) == (0, 0)


def test_png_in_many_tiles_equals_one_tile(
    scene: TableScene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, int]] = []
    export_scene(scene, tmp_path / "one.png", scale=0.3, caption="Tiles", log_lines=["1 x"])
    monkeypatch.setattr(snapshot, "TILE_SIZE", 128)
    export_scene(
        scene,
        tmp_path / "many.png",
        scale=0.3,
        caption="Tiles",
        log_lines=["1 x"],
        progress=lambda done, total: calls.append((done, total)),
    )
    one, many = image(tmp_path / "one.png"), image(tmp_path / "many.png")
    assert one.size() == many.size()
    total = math.ceil(one.width() / 128) * math.ceil(
        (one.height() - sum(snapshot.band_heights(one.width(), 0.3, "Tiles", ["1 x"]))) / 128
    )
    assert total > 20
    assert calls == [(i, total) for i in range(total + 1)]
    a, b = pixels(one), pixels(many)
    if a != b:  # nearly: Qt's smooth scaling of a piece cut by a tile's edge may differ a little
        differing = [i for i in range(0, len(a), 4) if a[i : i + 4] != b[i : i + 4]]
        assert len(differing) <= len(a) // 4 // 100
        assert max(abs(a[i + k] - b[i + k]) for i in differing for k in range(3)) <= 4


def test_svg_has_the_asked_size_and_a_title(scene: TableScene, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    calls: list[tuple[int, int]] = []
    lines = ["1 setup lay out the table", "2 red  moved a cube"]
    export_scene(
        scene,
        out,
        scale=0.5,
        caption="Rule 4.2 & the market",
        log_lines=lines,
        progress=lambda d, t: calls.append((d, t)),
    )
    root = ET.parse(out).getroot()
    w, h = snapshot_size(table_source(scene), 0.5, "Rule 4.2 & the market", lines)
    assert (root.get("width"), root.get("height")) == (str(w), str(h))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert root.find("svg:title", ns).text == "Rule 4.2 & the market"
    assert "moved a cube" in root.find("svg:desc", ns).text
    assert calls[-1] == (1, 1)


def test_pdf_page_has_the_asked_size(scene: TableScene, tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    export_scene(scene, out, scale=0.5, caption="PDF", log_lines=["1 a", "2 b"])
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    w, h = snapshot_size(table_source(scene), 0.5, "PDF", ["1 a", "2 b"])
    boxes = re.findall(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert len(boxes) == 1
    assert [float(v) for v in boxes[0]] == [0, 0, w, h]


def test_too_large_a_png_is_refused_with_a_scale_that_fits(
    scene: TableScene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "MAX_PNG_SIDE", 600)
    out = tmp_path / "big.png"
    with pytest.raises(ExportError, match="larger than the 600 x 600") as caught:
        export_scene(scene, out, caption="Big")
    assert not out.exists() and files_in(tmp_path) == ["game.jsonl"]
    fits = float(re.search(r"a scale of ([\d.]+) or less fits", str(caught.value)).group(1))
    export_scene(scene, out, scale=fits, caption="Big")
    img = image(out)
    assert max(img.width(), img.height()) <= 600
    assert max(img.width(), img.height()) > 500  # and it is not much smaller than it may be


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("board.gif", {}, "not a snapshot format"),
        ("board", {}, "name the file .png, .svg or .pdf"),
        ("nowhere/board.png", {}, "does not exist"),
        ("board.png", {"scale": 0}, "scale must be between"),
        ("board.png", {"scale": float("nan")}, "scale must be between"),
        ("board.png", {"source": QRectF()}, "nothing to export"),
    ],
)
def test_bad_requests_write_nothing(
    scene: TableScene, tmp_path: Path, name: str, options: dict, message: str
) -> None:
    with pytest.raises(ExportError, match=message):
        export_scene(scene, tmp_path / name, **options)
    assert files_in(tmp_path) == ["game.jsonl"]


# ---- privacy -----------------------------------------------------------------------
def test_a_face_down_card_is_not_in_a_snapshot_but_a_face_up_one_is(
    qapp,
    game: Game,
    module: Module,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    helper = scene_of(game, module)
    state = game.state
    top = state.places["deck"].contents[-1]
    other = next(pid for pid in state.pieces if pid.startswith("festival"))
    assert not state.pieces[top].face_up
    assert state.pieces[top].props["card"] != state.pieces[other].props["card"]

    render_game(game, module, tmp_path / "before.png", log_count=0)
    game.table.submit(
        actions.set_property(state, top, "card", state.pieces[other].props["card"]), "red"
    )
    render_game(game, module, tmp_path / "swapped.png", log_count=0)
    before, swapped = image(tmp_path / "before.png"), image(tmp_path / "swapped.png")
    top = top_band(before, helper, 1.0)
    deck = region(helper, "deck", 1.0, top)
    assert pixels(before, deck) == pixels(swapped, deck)
    # nothing on the table gives the swap away (the header counts the entry, no more)
    assert pixels(before, table_part(before, helper, 1.0)) == pixels(
        swapped, table_part(swapped, helper, 1.0)
    )

    market_card = game.state.places["market"].contents[0]
    assert game.state.pieces[market_card].face_up
    game.table.submit(
        actions.set_property(game.state, market_card, "card", state.pieces[other].props["card"]),
        "red",
    )
    render_game(game, module, tmp_path / "market.png", log_count=0)
    changed = image(tmp_path / "market.png")
    market = region(helper, "market", 1.0, top)
    assert pixels(swapped, market) != pixels(changed, market)
    assert pixels(swapped, deck) == pixels(changed, deck)


def test_every_hand_shows_backs_to_a_spectator(
    qapp,
    game: Game,
    module: Module,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    helper = scene_of(game, module)
    render_game(game, module, tmp_path / "spectator.png", log_count=0)
    render_game(game, module, tmp_path / "red.png", log_count=0, viewer="red")
    # give every hand card another card's data: a spectator sees no difference
    state = game.state
    deck = state.places["deck"].contents
    hand_cards = [pid for hand in HANDS for pid in state.places[hand].contents]
    for pid, source in zip(hand_cards, deck * 2, strict=False):
        game.table.submit(
            actions.set_property(game.state, pid, "card", state.pieces[source].props["card"]),
            "red",
        )
    render_game(game, module, tmp_path / "spectator2.png", log_count=0)
    render_game(game, module, tmp_path / "red2.png", log_count=0, viewer="red")
    spectator, spectator2 = image(tmp_path / "spectator.png"), image(tmp_path / "spectator2.png")
    red, red2 = image(tmp_path / "red.png"), image(tmp_path / "red2.png")
    table = table_part(spectator, helper, 1.0)
    assert pixels(spectator, table) == pixels(spectator2, table)
    top = top_band(red, helper, 1.0)
    assert top == table.top()  # the header has as many lines for a seat as for a spectator
    hand_red = region(helper, "hand_red", 1.0, top)
    assert pixels(red, hand_red) != pixels(red2, hand_red)  # red sees its own hand
    assert pixels(red, hand_red) != pixels(spectator, hand_red)
    for hand in ("hand_yellow", "hand_green"):  # and no other
        there = region(helper, hand, 1.0, top)
        assert pixels(red, there) == pixels(red2, there)


def test_a_scene_shows_only_what_its_seat_may_see(
    qapp,
    game: Game,
    module: Module,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    seat = scene_of(game, module, "red")
    referee = scene_of(game, module, REFEREE)
    spectator = scene_of(game, module, None)
    for name, scene, options in (
        ("seat", seat, {}),
        ("hidden", seat, {"as_spectator": True}),
        ("referee", referee, {}),
        ("spectator", spectator, {}),
    ):
        export_scene(scene, tmp_path / f"{name}.png", scale=0.5, **options)
    shots = {n: pixels(image(tmp_path / f"{n}.png")) for n in ("seat", "hidden", "referee")}
    shots["spectator"] = pixels(image(tmp_path / "spectator.png"))
    assert shots["seat"] != shots["spectator"]
    assert shots["hidden"] == shots["spectator"]
    assert shots["referee"] == shots["spectator"]  # the referee is not a seat: a spectator's view
    # and the scenes on screen are as they were
    hand_card = game.state.places["hand_red"].contents[0]
    assert seat.pieces[hand_card].visible_face and referee.pieces[hand_card].visible_face
    assert seat.zones["red"].active


# ---- history and the command ----------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_render_at_an_earlier_entry(
    qapp,
    game: Game,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # noqa: ANN001
) -> None:
    game.close()
    path = str(tmp_path / "game.jsonl")
    code, out, err = run(
        capsys, "render", path, "-o", str(tmp_path / "now.png"), "--scale", "0.5", "--log", "0"
    )
    assert code == 0 and err == "" and "after entry 18 of 18" in out
    code, out, _ = run(
        capsys,
        "render",
        path,
        "-o",
        str(tmp_path / "then.png"),
        "--at",
        "5",
        "--scale",
        "0.5",
        "--log",
        "0",
    )
    assert code == 0 and "after entry 5 of 18, as a spectator sees it" in out
    now, then = image(tmp_path / "now.png"), image(tmp_path / "then.png")
    assert now.size() == then.size() and pixels(now) != pixels(then)
    # entry 5 put the coins in the supply; the hands were dealt later
    helper = scene_of(Game.open(path, writable=False), find_module("proto"))
    top = top_band(now, helper, 0.5)
    assert top == top_band(then, helper, 0.5) > 0  # the header above the table
    supply, hand = region(helper, "supply", 0.5, top), region(helper, "hand_red", 0.5, top)
    assert pixels(now, supply) == pixels(then, supply)
    assert pixels(now, hand) != pixels(then, hand)
    for suffix in ("svg", "pdf"):
        code, _, err = run(
            capsys, "render", path, "-o", str(tmp_path / f"b.{suffix}"), "--seat", "red"
        )
        assert code == 0 and err == ""
    assert (tmp_path / "b.svg").read_bytes().startswith(b"<?xml")
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-o", "{tmp}/exists.png"], "already exists"),
        (["-o", "{tmp}/out.png", "--at", "19"], "there is no entry 19"),
        (["-o", "{tmp}/out.png", "--at", "-1"], "there is no entry -1"),
        (["-o", "{tmp}/out.png", "--seat", "blue"], "there is no seat 'blue'"),
        (["-o", "{tmp}/out.png", "--scale", "0"], "--scale must be between"),
        (["-o", "{tmp}/out.png", "--scale", "nan"], "--scale must be between"),
        (["-o", "{tmp}/out.png", "--scale", "two"], "invalid float value"),
        (["-o", "{tmp}/out.png", "--log", "-2"], "--log must be"),
        (["-o", "{tmp}/out.bmp"], "name the snapshot .png, .svg or .pdf"),
        (["-o", "{tmp}/none/out.png"], "does not exist"),
    ],
)
def test_render_errors_are_one_line_and_write_nothing(
    qapp,  # noqa: ANN001
    game: Game,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    game.close()
    (tmp_path / "exists.png").write_bytes(b"mine")
    before = files_in(tmp_path)
    argv = ["render", str(tmp_path / "game.jsonl"), *(a.format(tmp=tmp_path) for a in extra)]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err
    assert files_in(tmp_path) == before
    assert (tmp_path / "exists.png").read_bytes() == b"mine"


def test_render_refuses_a_broken_game_file(
    qapp,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # noqa: ANN001
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format": "tabletop-log"\nnot json\n')
    for target in (broken, tmp_path / "missing.jsonl"):
        code, out, err = run(capsys, "render", str(target), "-o", str(tmp_path / "out.png"))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert str(target.name) in err and "Traceback" not in err
    assert files_in(tmp_path) == ["broken.jsonl"]


# ---- nothing half-written ------------------------------------------------------------------
def test_a_failed_png_leaves_nothing_and_keeps_the_old_file(
    scene: TableScene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "board.png"
    monkeypatch.setattr(QImage, "save", lambda *args, **kwargs: False)
    with pytest.raises(ExportError, match="could not be written"):
        export_scene(scene, target, scale=0.25)
    assert files_in(tmp_path) == ["game.jsonl"]
    target.write_bytes(b"the old snapshot")
    with pytest.raises(ExportError):
        export_scene(scene, target, scale=0.25)
    assert target.read_bytes() == b"the old snapshot"
    assert files_in(tmp_path) == ["board.png", "game.jsonl"]


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_an_export_failing_midway_leaves_nothing(
    scene: TableScene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    target = tmp_path / f"board{suffix}"
    target.write_bytes(b"the old snapshot")

    def broken(*args: object) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(snapshot, "_paint_bands", broken)
    with pytest.raises(RuntimeError):
        export_scene(scene, target, scale=0.25, caption="x", replace=True)
    assert target.read_bytes() == b"the old snapshot"
    assert files_in(tmp_path) == [target.name, "game.jsonl"]
    monkeypatch.undo()
    export_scene(scene, target, scale=0.25, caption="x", replace=True)  # as the user asked
    assert target.read_bytes() != b"the old snapshot"
    assert files_in(tmp_path) == [target.name, "game.jsonl"]


def _svg_log(path: Path) -> str:
    """The log band's lines, as an SVG snapshot's description holds them."""
    desc = ET.parse(path).getroot().find("svg:desc", {"svg": "http://www.w3.org/2000/svg"})
    return desc.text.split("The log up to this moment:", 1)[1]


def _face_name(line: str, card: str) -> str:
    """The name a log line gives the card drawn into Red's hand: the name on its face (not its
    id, not its back)."""
    found = re.search(r"moved (.+) from Draw deck to Red's hand", line)
    assert found, line
    name = found.group(1)
    assert name not in (card, "a Prototype card"), line
    return name


def test_the_log_band_follows_the_snapshots_viewer(
    qapp,
    game: Game,
    module: Module,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    """A card drawn face down into Red's hand is named in Red's snapshot band only."""
    top = game.state.places["deck"].contents[-1]
    game.table.submit(actions.move(game.state, top, "hand_red"), "red")
    render_game(game, module, tmp_path / "red.svg", log_count=3, viewer="red")
    assert _face_name(_svg_log(tmp_path / "red.svg").splitlines()[-1], top)
    render_game(game, module, tmp_path / "spectator.svg", log_count=3)
    band = _svg_log(tmp_path / "spectator.svg")
    assert top not in band and "moved a Prototype card from Draw deck to Red's hand" in band
    game.close()
    out = tmp_path / "yellow.svg"
    assert main(["render", game.path, "-o", str(out), "--seat", "yellow", "--log", "2"]) == 0
    band = _svg_log(out)
    assert top not in band and "Red        moved a Prototype card" in band


# ---- the dialog ---------------------------------------------------------------------------
@pytest.fixture
def on_screen(qtbot, game: Game, module: Module, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001, ANN201
    """A scene seen by red in a view 700 x 500, zoomed to 1; the games folder in tmp_path."""
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    scene = scene_of(game, module, "red")
    view = TableView(scene)
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    view.set_zoom(1.0)
    view.centerOn(scene.pieces[game.state.places["market"].contents[0]])
    return scene, view


def test_the_dialog_exports_the_part_in_view(on_screen, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    scene, view = on_screen
    dialog = ExportDialog(None, scene, view)
    qtbot.addWidget(dialog)
    default = Path(dialog.file_edit.text())
    assert default.parent == tmp_path / "games" and default.name == "game-entry18.png"
    assert dialog.log_box.value() == 8
    # PNG's scale 2, lowered so the whole table is at most 4096 pixels wide
    proposed = dialog.scale_box.value()
    assert 1 < proposed < 2
    size = snapshot_size(
        table_source(scene),
        proposed,
        dialog.caption_edit.text(),
        dialog.log_lines(),
        dialog.header(),
    )
    assert 4000 < size[0] <= 4096
    assert "after entry 18 of 18" in dialog.caption_edit.text()
    assert not dialog.show_hand.isHidden() and not dialog.show_hand.isChecked()

    dialog.visible.setChecked(True)
    dialog.scale_box.setValue(1.0)
    dialog.caption_edit.setText("What may Red buy?")
    dialog.log_box.setValue(3)
    out = tmp_path / "visible.png"
    dialog.file_edit.setText(str(out))
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    expected = snapshot_size(visible, 1.0, "What may Red buy?", dialog.log_lines(), dialog.header())
    assert dialog.size_label.text().startswith(f"{expected[0]:,} x {expected[1]:,} pixels")
    assert dialog.export() and dialog.result() == ExportDialog.DialogCode.Accepted
    img = image(out)
    assert (img.width(), img.height()) == expected
    assert len(dialog.log_lines()) == 3 and dialog.log_lines()[-1].lstrip().startswith("18")
    assert dialog.progress.value() == dialog.progress.maximum() == 1
    whole = snapshot_size(table_source(scene), 1.0, "What may Red buy?", dialog.log_lines())
    assert img.width() < whole[0] and img.height() < whole[1]


def test_the_dialogs_log_band_names_a_hand_card_only_with_the_hand_shown(
    on_screen,
    qtbot,
    game: Game,  # noqa: ANN001
) -> None:
    scene, view = on_screen
    top = game.state.places["deck"].contents[-1]
    game.table.submit(actions.move(game.state, top, "hand_red"), "red")
    dialog = ExportDialog(None, scene, view)
    qtbot.addWidget(dialog)
    assert not dialog.show_hand.isChecked()  # a spectator's snapshot, band and all
    assert top not in dialog.log_lines()[-1] and "a Prototype card" in dialog.log_lines()[-1]
    dialog.show_hand.setChecked(True)  # what Red sees: Red's own card too
    assert _face_name(dialog.log_lines()[-1], top)


def test_the_dialog_shows_errors_and_writes_nothing(on_screen, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    scene, view = on_screen
    dialog = ExportDialog(None, scene, view)
    qtbot.addWidget(dialog)
    before = files_in(tmp_path)
    dialog.file_edit.setText(str(tmp_path / "board.gif"))
    assert not dialog.export()
    assert ".png, .svg or .pdf" in dialog.error.text() and dialog.result() == 0
    (tmp_path / "mine.png").write_bytes(b"mine")
    dialog.file_edit.setText(str(tmp_path / "mine.png"))
    assert not dialog.export() and "already exists" in dialog.error.text()
    assert (tmp_path / "mine.png").read_bytes() == b"mine"
    dialog.file_edit.setText(str(tmp_path / "board.pdf"))  # the scale follows the format
    assert dialog.scale_box.value() == 1.0
    dialog.scale_box.setValue(8.0)
    dialog.file_edit.setText(str(tmp_path / "board.png"))
    assert dialog.scale_box.value() == 8.0  # unless it was chosen
    assert "too large" in dialog.size_label.text()
    assert not dialog.export() and "a scale of" in dialog.error.text()
    assert files_in(tmp_path) == sorted([*before, "mine.png"])


def test_the_file_chooser_may_replace_a_file(
    on_screen,
    qtbot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    scene, view = on_screen
    target = tmp_path / "old.svg"
    target.write_bytes(b"old")
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), "SVG drawing (*.svg)")
    )
    dialog = ExportDialog(None, scene, view)
    qtbot.addWidget(dialog)
    dialog.choose_file()  # the chooser asks before replacing a file; the dialog does not again
    assert dialog.file_edit.text() == str(target) and dialog.scale_box.value() == 1.0
    assert dialog.export()
    assert ET.parse(target).getroot().get("width") is not None


def test_the_window_opens_the_dialog(qtbot, module: Module, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    window = MainWindow(
        QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), ask=False
    )
    qtbot.addWidget(window)
    window.start_new(module, seats=3, seed=1)
    window.show()
    qtbot.waitExposed(window)
    out = tmp_path / "from-window.pdf"
    seen: list[ExportDialog] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ExportDialog)
        seen.append(dialog)
        dialog.file_edit.setText(str(out))
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, answer)
    window.actions_by_name["export"].trigger()
    assert seen and out.read_bytes().startswith(b"%PDF")
    assert "Snapshot saved" in window.statusBar().currentMessage()
    window.close()
