"""Rendered faces kept on disk between runs (tabletop/ui/face_store.py): a stored face is the
drawn one pixel for pixel, anything that changes the pixels names another file, a damaged file
is drawn again, and the window's picture is the same with the store, from it, and without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from tabletop.modules.manifest import read_manifest
from tabletop.ui import face_store
from tabletop.ui.face_store import FaceStore
from tabletop.ui.faces import FaceArt

from .test_greenland_faces import card, write_module

ROOT = Path(__file__).resolve().parents[2]
SCALE = 0.4  # the zoom of the default window's first picture


@pytest.fixture(scope="module")
def app() -> QApplication:
    return QApplication.instance() or QApplication([])


def faces(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{face_store.SUFFIX}"))


def drawn(module, piece, visible: bool = True) -> QImage:  # noqa: ANN001
    """The face as drawn now, with no store."""
    return FaceArt(module, module.seats, store=False).pixmap(piece, visible, SCALE).toImage()


def test_a_stored_face_is_the_drawn_one_pixel_for_pixel(app, tmp_path: Path) -> None:  # noqa: ANN001
    module = read_manifest(write_module(tmp_path / "greenland"))
    store = tmp_path / "faces"
    rows = {row["id"]: row for row in module.decks["greenland"].cards}
    pieces = [card(rows["harbor-seal"]), card(rows["walrus"])]
    first = FaceArt(module, module.seats, store=FaceStore(store))
    for piece in pieces:
        for visible in (True, False):
            first.pixmap(piece, visible, SCALE)
    # two faces and one back shared by both cards (a back shows nothing of its card)
    assert len(faces(store)) == 3

    second = FaceArt(module, module.seats, store=FaceStore(store))
    second._render = None  # noqa: SLF001 - anything not in the store would fail to draw
    for piece in pieces:
        for visible in (True, False):
            stored = second.pixmap(piece, visible, SCALE)
            assert stored.devicePixelRatio() == 0.5
            assert stored.toImage() == drawn(module, piece, visible)


def test_a_changed_card_value_misses_the_store(app, tmp_path: Path) -> None:  # noqa: ANN001
    folder = write_module(tmp_path / "greenland")
    store = tmp_path / "faces"
    module = read_manifest(folder)
    rows = {row["id"]: row for row in module.decks["greenland"].cards}
    before = FaceArt(module, module.seats, store=FaceStore(store)).pixmap(
        card(rows["harbor-seal"]), True, SCALE
    )
    deck = folder / "decks" / "reconstructed.csv"
    text = deck.read_text(encoding="utf-8")
    assert "Harbor Seal,north,,north,maritime,6,2" in text
    deck.write_text(
        text.replace(
            "Harbor Seal,north,,north,maritime,6,2", "Harbor Seal,north,,north,maritime,9,2"
        ),
        encoding="utf-8",
    )
    edited = read_manifest(folder)
    rows = {row["id"]: row for row in edited.decks["greenland"].cards}
    after = FaceArt(edited, edited.seats, store=FaceStore(store)).pixmap(
        card(rows["harbor-seal"]), True, SCALE
    )
    assert len(faces(store)) == 2
    assert after.toImage() != before.toImage()
    assert after.toImage() == drawn(edited, card(rows["harbor-seal"]))


def test_a_changed_drawing_code_or_icon_names_other_files(app, tmp_path: Path) -> None:  # noqa: ANN001
    source = tmp_path / "drawing.py"
    source.write_text("A = 1\n", encoding="utf-8")
    old = face_store.run_identity([str(source)])
    assert face_store.run_identity([str(source)]) == old
    source.write_text("A = 2\n", encoding="utf-8")
    assert face_store.run_identity([str(source)]) != old

    folder = write_module(tmp_path / "greenland")
    module = read_manifest(folder)
    row = module.decks["greenland"].cards[0]
    art = FaceArt(module, module.seats, store=FaceStore(tmp_path / "faces"))
    key = art._stored_key(card(row), True, 0.5, 126, 176)  # noqa: SLF001
    icon = next((folder / "icons").glob("*.svg"))
    icon.write_text(icon.read_text(encoding="utf-8") + "\n<!-- redrawn -->\n", encoding="utf-8")
    art.clear_cache()
    assert art._stored_key(card(row), True, 0.5, 126, 176) != key  # noqa: SLF001


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short (a killed write, a full disk)
        lambda data: data[:-10] + bytes(10),  # pixels changed: the checksum does not match
        lambda data: b"not a face",
        lambda data: b"",
    ],
)
def test_a_damaged_stored_face_is_drawn_again(app, tmp_path: Path, damage) -> None:  # noqa: ANN001
    module = read_manifest(write_module(tmp_path / "greenland"))
    store = tmp_path / "faces"
    piece = card(module.decks["greenland"].cards[0])
    FaceArt(module, module.seats, store=FaceStore(store)).pixmap(piece, True, SCALE)
    (path,) = faces(store)
    good = path.read_bytes()
    path.write_bytes(damage(good))
    again = FaceArt(module, module.seats, store=FaceStore(store)).pixmap(piece, True, SCALE)
    assert again.toImage() == drawn(module, piece)
    assert path.read_bytes() == good  # written again, whole


def test_an_unwritable_store_is_passed_over(app, tmp_path: Path) -> None:  # noqa: ANN001
    module = read_manifest(write_module(tmp_path / "greenland"))
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    piece = card(module.decks["greenland"].cards[0])
    art = FaceArt(module, module.seats, store=FaceStore(blocked / "faces"))
    assert art.pixmap(piece, True, SCALE).toImage() == drawn(module, piece)


def test_the_store_keeps_under_its_limit_dropping_the_oldest(app, tmp_path: Path) -> None:  # noqa: ANN001
    module = read_manifest(write_module(tmp_path / "greenland"))
    folder = tmp_path / "faces"
    cards = module.decks["greenland"].cards[:4]
    FaceArt(module, module.seats, store=FaceStore(folder)).pixmap(card(cards[0]), True, SCALE)
    (oldest,) = faces(folder)
    os.utime(oldest, (1, 1))
    size = oldest.stat().st_size
    art = FaceArt(module, module.seats, store=FaceStore(folder, limit_bytes=int(size * 2.5)))
    for row in cards[1:]:
        art.pixmap(card(row), True, SCALE)  # the first write prunes: four files were too many
    art.store.prune()
    left = faces(folder)
    assert oldest not in left
    assert sum(p.stat().st_size for p in left) <= size * 2.5


def test_the_store_is_turned_off_by_its_switch(
    app,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(face_store.SWITCH, raising=False)
    assert face_store.cache_folder() == tmp_path / "tabletop" / "faces"
    for off in ("off", "0", "no", "false", "OFF"):
        monkeypatch.setenv(face_store.SWITCH, off)
        assert FaceStore.from_env() is None
        assert FaceArt(None, []).store is None


def _screenshot(path: Path, env: dict[str, str]) -> QImage:
    subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "play", "greenland", "--seed", "1"]
        + ["--size", "1366x768", "--screenshot", str(path)],
        env=env,
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    return QImage(str(path))


def test_the_window_picture_is_the_same_with_the_store_from_it_and_without(
    app,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), TABLETOP_GAMES=str(tmp_path))
    env.pop(face_store.SWITCH, None)
    filled = _screenshot(tmp_path / "filled.png", env)
    store = tmp_path / "cache" / "tabletop" / "faces"
    stored = faces(store)
    assert len(stored) > 20  # the start's cards, backs, cubes, disks and dice
    before = {p: p.stat().st_mtime_ns for p in stored}
    again = _screenshot(tmp_path / "again.png", env)
    assert {p: p.stat().st_mtime_ns for p in faces(store)} == before  # all read, none drawn
    off = _screenshot(tmp_path / "off.png", dict(env, **{face_store.SWITCH: "off"}))
    assert not filled.isNull()
    assert filled == again == off


def test_a_killed_writes_leftover_goes_with_the_pruning(app, tmp_path: Path) -> None:  # noqa: ANN001
    folder = tmp_path / "faces"
    folder.mkdir()
    name = f"abc{face_store.SUFFIX}"
    old = folder / f".{name}{face_store.TEMP_MARK}0123456789abcdef"
    new = folder / f".{name}{face_store.TEMP_MARK}fedcba9876543210"
    for leftover in (old, new):
        leftover.write_bytes(b"half a face")
    os.utime(old, (1, 1))
    FaceStore(folder).prune()
    assert not old.exists()
    assert new.exists()  # perhaps a write still going on


def test_a_face_drawn_far_zoomed_in_is_not_kept(app, tmp_path: Path) -> None:  # noqa: ANN001
    module = read_manifest(write_module(tmp_path / "greenland"))
    folder = tmp_path / "faces"
    piece = card(module.decks["greenland"].cards[0])
    art = FaceArt(module, module.seats, store=FaceStore(folder))
    assert art.pixmap(piece, True, 4.0).width() == 4 * 252
    assert faces(folder) == []
    art.pixmap(piece, True, 2.0)  # 504 x 704 pixels: kept
    assert len(faces(folder)) == 1
