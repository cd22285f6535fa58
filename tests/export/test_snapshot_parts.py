"""Parts of the table (render --region, --crop) and the header every snapshot carries."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tabletop.cli import main
from tabletop.export import render_game, snapshot, table_source
from tabletop.modules import Module, find_module, new_game
from tabletop.persist import Game
from tabletop.ui.scene import TableScene
from tabletop.ui.session import TableSession

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.fixture
def proto(tmp_path: Path) -> str:
    game = new_game(find_module("proto"), seats=3, seed=1, path=tmp_path / "game.jsonl")
    game.close()
    return str(tmp_path / "game.jsonl")


def scene_of(path: str) -> TableScene:
    game = Game.open(path, writable=False)
    module = find_module(game.header.module)
    return TableScene(TableSession(game, module))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def size_of(path: Path) -> tuple[int, int]:
    img = QImage(str(path))
    assert not img.isNull()
    return img.width(), img.height()


def header_height(width: int) -> int:
    """The bands above the table of a snapshot without a caption: the header's two lines."""
    return snapshot.band_heights(width, 1.0, None, None, ["game", "viewer"])[0]


def test_render_region_is_the_bounds_of_the_places(
    qapp,  # noqa: ANN001
    proto: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "part.png"
    code, text, err = run(
        capsys, "render", proto, "-o", str(out), "--region", "hand_red,supply", "--log", "0"
    )
    assert code == 0 and err == "" and "(hand_red,supply)" in text
    scene = scene_of(proto)
    rects = [scene.layout.place_rect(p) for p in ("hand_red", "supply")]
    label, margin = 34, snapshot.REGION_MARGIN  # a place's name above it; a margin of felt
    left = min(r.x for r in rects) - margin
    right = max(r.x + r.w for r in rects) + margin
    top = min(r.y - label for r in rects) - margin
    bottom = max(r.y + r.h for r in rects) + margin
    for place in ("hand_red", "supply"):  # the pieces lie inside their places here
        for pid in scene.state.places[place].contents:
            box = scene.pieces[pid].sceneBoundingRect()
            assert left <= box.left() and box.right() <= right
    width, height = math.ceil(right - left), math.ceil(bottom - top)
    assert size_of(out) == (width, height + header_height(width))
    whole = table_source(scene)
    assert width < whole.width() and height < whole.height()

    seat = tmp_path / "seat.png"  # a seat's area: its zone on the table
    assert run(capsys, "render", proto, "-o", str(seat), "--region", "red", "--log", "0")[0] == 0
    zone = scene.zones["red"].sceneBoundingRect()
    assert size_of(seat)[0] == math.ceil(zone.width() + 2 * margin)


def test_render_crop_is_that_rectangle_of_the_table(
    qapp,  # noqa: ANN001
    proto: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "crop.png"
    code, _, err = run(
        capsys, "render", proto, "-o", str(out), "--crop", "100,50,400,301", "--log", "0"
    )
    assert code == 0 and err == ""
    assert size_of(out) == (400, 301 + header_height(400))
    half = tmp_path / "half.png"
    code, _, _ = run(
        capsys, "render", proto, "-o", str(half), "--crop", "100,50,400,301", "--log", "0",
        "--scale", "0.5",
    )  # fmt: skip
    assert code == 0 and size_of(half)[0] == 200


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--region", "nowhere"], "there is no place or seat 'nowhere'"),
        (["--region", "hand_red,nowhere"], "there is no place or seat 'nowhere'"),
        (["--region", ","], "name at least one place"),
        (["--crop", "1,2,3"], "write it as x,y,w,h"),
        (["--crop", "a,b,c,d"], "write it as x,y,w,h"),
        (["--crop", "0,0,0,10"], "the width and height more than 0"),
        (["--crop=-5,0,10,10"], "x and y must be 0 or more"),
        (["--crop", "0,0,10,nan"], "x and y must be 0 or more"),
        (["--crop", "0,0,99999,10"], "reaches past the table"),
        (["--crop", "0,0,10,10", "--region", "supply"], "not allowed with argument"),
    ],
)
def test_a_bad_region_or_crop_is_one_line_exit_2_and_no_file(
    qapp,  # noqa: ANN001
    proto: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    out = tmp_path / "out.png"
    code, text, err = run(capsys, "render", proto, "-o", str(out), *extra)
    assert code == 2 and text == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


# ---- the header ----------------------------------------------------------------------
def svg_desc(path: Path) -> str:
    return ET.parse(path).getroot().find("svg:desc", NS).text


def test_the_header_of_a_game_without_turns_says_what_it_has(
    qapp,  # noqa: ANN001
    proto: str,
    tmp_path: Path,
) -> None:
    game = Game.open(proto, writable=False)
    out = tmp_path / "proto.svg"
    render_game(game, find_module("proto"), out, viewer="red", log_count=0)
    lines = svg_desc(out).splitlines()
    sha = game.header.decks[0]["sha256"][:8] if game.header.decks else None
    assert lines[1].startswith("Prototype") and "after entry 18 of 18" in lines[1]
    assert (sha in lines[1]) if sha else "module version" in lines[1]
    assert "turn" not in lines[1] and "first player" not in lines[1]  # it has neither
    assert lines[2] == "as Red sees it (their hand shown)"


def test_e_a2_the_header_names_turn_phase_first_player_scores_and_viewer(
    qapp,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """The header's facts are the game's own: its turn and phase, its first player (A2),
    its score; the viewer is named, a spectator's snapshot says so."""
    module: Module = find_module("greenland")
    game = new_game(module, seats=3, seed=4, path=tmp_path / "g.jsonl")
    try:
        session = TableSession(game, module)
        rules = session.rules
        status = rules.flow.status(game.state)
        first = rules.first_player(game.state)
        scores = rules.score(game.state)
        seat = game.header.seats[1]
        render_game(game, module, tmp_path / "seat.svg", viewer=seat.id, log_count=0)
        render_game(game, module, tmp_path / "spectator.svg", log_count=0)
    finally:
        game.close()
    facts, people = svg_desc(tmp_path / "seat.svg").splitlines()[1:3]
    assert facts.startswith("Greenland") and "deck reconstructed" in facts
    assert f"turn {status.turn}" in facts and status.phase_label in facts
    assert first in {s.id for s in game.header.seats}
    assert f"first player {session.seat_name(first)}" in facts
    for row in scores:
        assert f"{session.seat_name(row['seat'])} {row['total']}" in people
    assert people.endswith(f"as {seat.name} sees it (their hand shown)")
    assert svg_desc(tmp_path / "spectator.svg").splitlines()[2].endswith("as a spectator sees it")


def test_a_looot_header_names_the_start_player_and_the_turn(
    qapp,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """Looot's first player is the seat that starts (the module README's setup); its turns
    count one seat's turn each, so the header names the start player at every turn."""
    module: Module = find_module("looot")
    game = new_game(module, seats=3, seed=5, path=tmp_path / "l.jsonl")
    try:
        session = TableSession(game, module)
        start = game.header.seats[0]
        assert session.rules.first_player(game.state) == start.id
        status = session.rules.flow.status(game.state)
        render_game(game, module, tmp_path / "looot.svg", log_count=0)
    finally:
        game.close()
    facts = svg_desc(tmp_path / "looot.svg").splitlines()[1]
    assert facts.startswith("Looot") and f"turn {status.turn}" in facts
    assert f"first player {session.seat_name(start.id)}" in facts
