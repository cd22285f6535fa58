"""Greenland's card faces drawn from card_view: every row, backs by deck, the turned import, icons.

The module is a minimal manifest written here around a copy of the deck and
the icons, so these tests do not lean on resources/greenland/module.toml.
"""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from rules_assist.greenland.card_view import ICONS, card_view, icon_names, placeholder_count
from tabletop.core import Piece
from tabletop.modules import Module
from tabletop.modules.manifest import read_manifest
from tabletop.ui.card_layouts import draw_face
from tabletop.ui.faces import FaceArt
from tabletop.ui.layout import Rect, _grid_cells, _region_area, region_cells, strip_area

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "resources" / "greenland"
ICON_DIR = SOURCE / "icons"
MANIFEST = """
[module]
id = "greenland-art"
name = "Greenland card art"
version = "0"
game = "rules_assist.greenland.game:GreenlandGame"

[[seats]]
id = "red"
colour = "#c0392b"

[[kinds]]
id = "biome"
shape = "card"
size = [63, 88]
regions = ["hunters"]
template = "plain"
back = "Greenland"

[[kinds]]
id = "elder"
shape = "card"
size = [63, 88]
regions = ["rank1", "rank2", "rank3", "rank4", "rank5", "rank6"]
template = "plain"
back = "Elders"

[[kinds]]
id = "daughter"
shape = "card"
size = [63, 88]
regions = ["exogamy", "hunters"]
template = "plain"
back = "Daughter"

[[templates]]
id = "plain"
title = "name"
subtitle = "type"
corner = "climax"

[[decks]]
id = "greenland"
file = "decks/reconstructed.csv"
kind = "biome"
template = "plain"

[decks.columns]
id = "text"
card = "text"
side = "text"
other_side = "text"
name = { type = "text", required = true }
type = "text"
colour = "text"
homeland = "text"
biome_type = "text"
climax = "int"
dice = "int"
infinite = "bool"
attrition = "int_list"
babies = "int"
energy = "int"
ivory = "int"
iron = "int"
trophy = "text"
vp = "int"
hand = "text"
hand_dice = "text"
raid_faces = "int_list"
value_ivory = "int"
value_iron = "int"
value_energy = "int"
hay = "int"
event_icons = "list"
import = "text"
abilities = "list"
provenance = "text"

[[places]]
id = "table"
kind = "area"
"""
KINDS = {"elder": "elder", "daughter": "daughter"}


@pytest.fixture(scope="module")
def app() -> QApplication:
    return QApplication.instance() or QApplication([])


def write_module(folder: Path, manifest: str = MANIFEST) -> Path:
    (folder / "decks").mkdir(parents=True)
    shutil.copy(SOURCE / "decks" / "reconstructed.csv", folder / "decks" / "reconstructed.csv")
    shutil.copytree(ICON_DIR, folder / "icons")
    (folder / "module.toml").write_text(manifest, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def module(tmp_path_factory) -> Module:
    # only the cards' manifest: read, not loaded as a playable game (it lacks the places and
    # kinds Greenland's code needs, which loading checks)
    return read_manifest(write_module(tmp_path_factory.mktemp("greenland-art")))


@pytest.fixture(scope="module")
def art(app, module) -> FaceArt:
    return FaceArt(module, module.seats)


@pytest.fixture(scope="module")
def rows(module) -> dict[str, dict]:
    return {row["id"]: row for row in module.decks["greenland"].cards}


def card(row: dict) -> Piece:
    kind = KINDS.get(row["type"], "biome")
    return Piece(row["id"], kind, props={"deck": "greenland", "card": row["id"]})


def render(art: FaceArt, piece: Piece, visible: bool = True) -> QImage:
    size = art.size(piece)
    image = QImage(math.ceil(size.width()), math.ceil(size.height()), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    art.paint(painter, QRectF(0, 0, size.width(), size.height()), piece, visible)
    painter.end()
    return image


def draw_view(art: FaceArt, view: dict, strip: str | None = None) -> QImage:
    image = QImage(252, 352, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    draw_face(painter, QRectF(0, 0, 252, 352), view, art._icon, "x", False, strip)
    painter.end()
    return image


def colours(image: QImage, step: int = 3) -> set[int]:
    return {
        image.pixel(x, y)
        for y in range(0, image.height(), step)
        for x in range(0, image.width(), step)
    }


def differing(a: QImage, b: QImage, top: int, bottom: int) -> int:
    return sum(
        1
        for y in range(top, bottom, 2)
        for x in range(0, a.width(), 2)
        if a.pixel(x, y) != b.pixel(x, y)
    )


def is_amber(c: QColor) -> bool:
    return c.red() > 200 and 130 < c.green() < 200 and c.blue() < 80


def test_every_row_renders_face_up_and_unlike_its_back(art, rows):
    assert len(rows) == 67
    for row in rows.values():
        piece = card(row)
        assert art.views.view("greenland", row) is not None, row["id"]
        face = render(art, piece)
        back = render(art, piece, visible=False)
        assert len(colours(face)) > 40, row["id"]  # drawn, not a blank card
        assert face != back, row["id"]


def test_two_north_biomes_have_the_same_back_and_south_another(art, rows):
    walrus, seal, shark = card(rows["walrus"]), card(rows["harbor-seal"]), card(rows["shark"])
    assert render(art, walrus, visible=False) == render(art, seal, visible=False)
    assert art.key(walrus, False) == art.key(seal, False)
    assert "walrus" not in repr(art.key(walrus, False))
    assert render(art, walrus, visible=False) != render(art, shark, visible=False)
    event = card(rows["syphilis"])
    assert render(art, event, visible=False) != render(art, shark, visible=False)


def test_a_face_down_card_shows_the_back_its_view_names_without_making_the_view(app, module):
    """A back is what the card's view names (card_back), and a face-down card's look asks
    nothing more of the game: its face's data is not read to draw its back."""
    art = FaceArt(module, module.seats, store=False)
    pieces = [card(row) for row in module.decks["greenland"].cards]
    keys = [art.key(piece, False) for piece in pieces]
    assert not art.views._views  # noqa: SLF001 - no card's whole view was made for its back
    for piece, key in zip(pieces, keys, strict=True):
        view = art.views.view("greenland", art._row("greenland", piece.id))  # noqa: SLF001
        back = (view["back_key"], view["back_label"], view["back_colour"])
        assert key[-1] == back == art.views.back("greenland", art._row("greenland", piece.id))  # noqa: SLF001


def test_the_import_is_drawn_turned_at_the_bottom(art, rows):
    view = card_view(rows["sword-ship"])
    assert view["upside_down"]["title"] == "Imported Sword"
    with_import = draw_view(art, view)
    without = draw_view(art, {**view, "upside_down": None})
    assert differing(with_import, without, 264, 340) > 500
    assert differing(with_import, without, 0, 80) == 0  # the title and the first player unchanged
    # turned: the import's title band lies along the card's bottom edge
    purple = with_import.pixelColor(126, 330)
    assert purple.blue() > purple.green() + 30 and purple.red() > purple.green()


def test_the_corner_icon_takes_the_homelands_colour(art, rows):
    north = render(art, card(rows["walrus"]))
    south = render(art, card(rows["shark"]))
    spot = (180, 44)  # inside the corner disk, left of the icon
    n, s = north.pixelColor(*spot), south.pixelColor(*spot)
    assert n.green() > n.red() + 40
    assert s.red() > s.green() + 60
    new_world = render(art, card(rows["markland-peaceful"])).pixelColor(*spot)
    assert min(new_world.red(), new_world.green(), new_world.blue()) > 200


def test_the_placeholder_mark_follows_placeholder_count(art, rows):
    corner = (246, 30)  # in the dog-ear, clear of its '≈'
    walrus = rows["walrus"]
    invented = render(art, card(walrus))
    assert placeholder_count(walrus) > 0 and is_amber(invented.pixelColor(*corner))
    clean = walrus if placeholder_count(walrus) == 0 else rows["elder-red-polytheist"]
    assert placeholder_count(clean) == 0
    assert not is_amber(render(art, card(clean)).pixelColor(*corner))


def test_rank_bands_lie_where_the_table_puts_the_ranks(art, rows):
    image = render(art, card(rows["elder-green-polytheist"]))
    names = tuple(f"rank{i}" for i in range(1, 7))
    cells = _grid_cells(names, _region_area(Rect(0, 0, 252, 352)), prefer_rows=True)
    assert cells["rank1"].x < cells["rank4"].x and cells["rank1"].y < cells["rank2"].y
    face = QColor("#fbf7ee")
    for name, cell in cells.items():
        disk = image.pixelColor(round(cell.x + 10), round(cell.y + 16))  # the rank's number disk
        assert disk.green() > disk.red() + 30, name
        inside = image.pixelColor(round(cell.x + cell.w / 2), round(cell.y + cell.h / 2))
        assert inside != face and inside.green() > inside.blue(), name
    between = image.pixelColor(126, round(cells["rank2"].y + cells["rank2"].h / 2))
    assert abs(between.red() - face.red()) < 12  # the gap between the columns is the card


def test_the_daughters_exogamy_box_is_the_exogamy_region(art, rows):
    image = render(art, card(rows["meeka"]))
    cells = _grid_cells(("exogamy", "hunters"), _region_area(Rect(0, 0, 252, 352)), True)
    exo, hunters = cells["exogamy"], cells["hunters"]
    assert exo.y < hunters.y and exo.x == hunters.x
    inside = image.pixelColor(round(exo.x + exo.w / 2), round(exo.y + exo.h / 2))
    assert (
        inside != QColor("#fbf7ee") and inside.green() > inside.red()
    )  # the green daughter's tint
    assert image.pixelColor(round(hunters.x + hunters.w / 2), round(hunters.y + 30)) == QColor(
        "#fbf7ee"
    )


def test_a_broken_card_view_falls_back_to_the_template(app, tmp_path, rows):
    module = read_manifest(write_module(tmp_path / "m", MANIFEST))
    art = FaceArt(module, module.seats)

    def broken(row):
        raise KeyError("no such column")

    art.views._function = broken  # a game's card_view that fails on a row
    face = render(art, card(rows["walrus"]))
    assert len(colours(face)) > 20
    assert art.views.view("greenland", rows["walrus"]) is None


def test_card_view_imports_without_qt():
    script = r"""
import csv, importlib.abc, sys

class NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6"):
            raise ImportError("no Qt here: " + name)

sys.meta_path.insert(0, NoQt())
from rules_assist.greenland.card_view import card_view
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    views = [card_view(row) for row in csv.DictReader(f)]
assert len(views) == 67
assert not [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6")]
print("ok")
"""
    deck = SOURCE / "decks" / "reconstructed.csv"
    result = subprocess.run(
        [sys.executable, "-c", script, str(deck)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_every_icon_is_a_small_valid_svg(app):
    files = sorted(ICON_DIR.glob("*.svg"))
    assert len(files) >= len(ICONS)
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert QSvgRenderer(str(path)).isValid(), path.name
        assert 'viewBox="0 0 64 64"' in text, path.name
        assert "href" not in text and "url(" not in text, path.name  # nothing outside the file
        assert len(text.encode("utf-8")) < 2048, path.name


def test_every_icon_card_view_names_is_a_file(rows):
    files = {p.stem for p in ICON_DIR.glob("*.svg")}
    assert set(ICONS) <= files
    with (SOURCE / "decks" / "reconstructed.csv").open(encoding="utf-8-sig", newline="") as f:
        raw = list(csv.DictReader(f))
    for row in [*rows.values(), *raw]:
        assert icon_names(card_view(row)) <= files, row["id"]


def test_a_face_that_draws_its_regions_gets_no_outlines(art, rows):
    elder, daughter = card(rows["elder-red-polytheist"]), card(rows["kirima"])
    assert art.draws_regions(elder, True) and art.draws_regions(daughter, True)
    assert not art.draws_regions(elder, False)  # face down: the table outlines the ranks
    # a biome's lone hunters region is the face's own strip at the bottom edge
    assert art.draws_regions(card(rows["walrus"]), True)
    assert art.strip(card(rows["walrus"])) == "hunters"
    assert art.strip(card(rows["elder-red-polytheist"])) is None


def test_hunters_lie_in_a_strip_under_every_printed_line(art, rows):
    """Cubes on a biome (the hunters of E) lie in the bottom strip: its trophy line, its text
    and its other lines are printed above the strip, where no piece lies."""
    strip = strip_area(Rect(0, 0, 252, 352))
    assert region_cells(("hunters",), Rect(0, 0, 252, 352)) == {"hunters": strip}
    assert strip.y > 352 * 0.8
    for name in ("walrus", "dogs", "caribou"):
        view = card_view(rows[name])
        assert not view["regions"]
        printed = draw_view(art, view, "hunters")
        bare = draw_view(art, {**view, "icon_rows": [], "row_captions": [], "text": ""}, "hunters")
        top, bottom = int(strip.y) - 2, int(strip.bottom) + 1
        assert differing(printed, bare, top, bottom) == 0, name  # nothing printed in the strip
        assert differing(printed, bare, 0, top) > 50, name  # and the lines are printed above it
