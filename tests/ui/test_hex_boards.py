"""Hex boards on the table: a map added by a game's setup (axial spaces, a style), an even-q
board with cut-out cells; laid out as touching hexes, dragged onto, saved, reopened, drawn
in their colours on the table, in the overview and by ``tabletop render``.

The module is tests/hexmap: its setup adds the board ``map`` (its shape depends on the seed).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.core import Place, hexes
from tabletop.modules import Module, load_module
from tabletop.persist import Game
from tabletop.ui.layout import BOARD_CELL, DEFAULT_PLACE, place_size
from tabletop.ui.units import PX_PER_MM

HEXMAP = Path(__file__).resolve().parent.parent / "hexmap"
WOOD, WATER = QColor("#3c6e2f"), QColor("#2b6ca3")


@pytest.fixture
def hexmap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Module:
    """The hex map module, also found by its id (a reopened game looks its module up)."""
    resources = tmp_path / "resources"
    resources.mkdir()
    (resources / "hexmap").symlink_to(HEXMAP, target_is_directory=True)
    monkeypatch.setenv("TABLETOP_RESOURCES", str(resources))
    return load_module(HEXMAP)


def close(a: QColor, b: QColor, tolerance: int = 14) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def scene_image(scene, rect: QRectF) -> QImage:  # noqa: ANN001
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    return image


def a_space_of(state, terrain: str) -> str:  # noqa: ANN001
    return next(
        n for n, d in state.places["map"].spaces.nodes.items() if d.get("terrain") == terrain
    )


def test_a_map_added_at_setup_is_laid_out_as_touching_hexes(table, hexmap) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    place = table.state.places["map"]
    assert place.spaces.coords == "axial" and place.layout == {}
    spots = table.layout.spots("map")
    assert set(spots) == set(place.spots)
    size = next(iter(spots.values())).w / 2  # centre to corner, flat tops
    assert size * 2 == pytest.approx(BOARD_CELL * PX_PER_MM)  # sized from its spaces
    for a, b in place.spaces.edges:  # neighbours touch: centres √3 apart
        (ax, ay), (bx, by) = spots[a].centre, spots[b].centre
        assert math.hypot(ax - bx, ay - by) == pytest.approx(size * math.sqrt(3))
    first = place.spots[0]
    fx, fy = hexes.centre(hexes.parse(first), "flat", size)
    for name, cell in spots.items():  # every centre is the axial one, moved and scaled
        x, y = hexes.centre(hexes.parse(name), "flat", size)
        assert cell.centre == pytest.approx(
            (spots[first].centre[0] + x - fx, spots[first].centre[1] + y - fy)
        )
    rect = table.layout.place_rect("map")
    assert (rect.w, rect.h) == pytest.approx(place_size(place))
    for cell in spots.values():  # the board's rectangle holds all its hexes
        assert rect.x - 0.01 <= cell.x and cell.right <= rect.right + 0.01


def test_drag_a_worker_onto_a_hex_of_the_setup_map_then_save_reopen_and_drag_again(
    table, hexmap, tmp_path
) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    target = a_space_of(table.state, "wood")
    before = len(table.live.entries)
    table.drag(table.piece_point("worker-red-1"), table.spot_point("map", target))
    worker = table.state.pieces["worker-red-1"]
    assert (worker.place, worker.spot) == ("map", target), table.status()
    assert len(table.live.entries) == before + 1
    item = table.scene.pieces["worker-red-1"]
    centre = item.sceneBoundingRect().center()
    assert (centre.x(), centre.y()) == pytest.approx(table.layout.spots("map")[target].centre)

    copy = str(tmp_path / "copy.jsonl")
    assert table.window.save_as(copy)
    assert table.window.open_path(copy) is not None, table.status()
    QApplication.processEvents()
    state = table.state
    assert table.window.session.game.path == copy
    assert (state.pieces["worker-red-1"].place, state.pieces["worker-red-1"].spot) == (
        "map",
        target,
    )
    assert table.window.session.module is not None  # found by its id: icons and all
    assert table.scene.places["map"].style["attr"] == "terrain"
    table.show()
    water = a_space_of(table.state, "water")
    table.drag(table.piece_point("worker-blue-2"), table.spot_point("map", water))
    moved = table.state.pieces["worker-blue-2"]
    assert (moved.place, moved.spot) == ("map", water), table.status()
    reopened = Game.open(copy)
    try:
        assert reopened.table.state.pieces["worker-blue-2"].spot == water
        assert reopened.table.state.places["map"].spots == table.state.places["map"].spots
    finally:
        reopened.close()


def test_a_drop_near_a_corner_lands_on_the_hex_under_the_pointer(table, hexmap) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    spots = table.layout.spots("map")
    place = table.state.places["map"]
    # a point inside one hex but inside the box of its neighbour up and to the left too
    name = next(
        n
        for n in place.spots
        if hexes.name(hexes.neighbours(hexes.parse(n))[4]) in spots  # (q, r-1): straight up
        and hexes.name((hexes.parse(n)[0] - 1, hexes.parse(n)[1])) in spots  # up-left
    )
    cell = spots[name]
    size = cell.w / 2
    cx, cy = cell.centre
    x, y = cx - size * 0.55, cy - size * 0.5  # inside this hex, near its upper-left side
    up_left = hexes.name((hexes.parse(name)[0] - 1, hexes.parse(name)[1]))
    assert spots[up_left].contains(x, y)  # the neighbour's box holds the point as well
    assert table.layout.spot_at("map", x, y) == name
    table.drag(table.piece_point("worker-red-3"), table.to_view(x, y))
    worker = table.state.pieces["worker-red-3"]
    assert (worker.place, worker.spot) == ("map", name), table.status()


def test_several_pieces_on_one_hex_stay_inside_it_side_by_side(table, hexmap) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    layout = table.layout
    cell = layout.spots("map")["1,2"]
    size = cell.w / 2
    pieces = table.state.contents("map", "1,2")
    assert len(pieces) == 2
    boxes = [table.scene.pieces[p].sceneBoundingRect().adjusted(6, 6, -6, -6) for p in pieces]
    assert boxes[0].right() <= boxes[1].left() + 0.01  # side by side, not on top of each other
    cx, cy = cell.centre
    for box in boxes:
        for corner in (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight()):
            assert hexes.nearest(corner.x() - cx, corner.y() - cy, "flat", size) == (0, 0)
    middle = (boxes[0].center() + boxes[1].center()) / 2
    assert (middle.x(), middle.y()) == pytest.approx((cx, cy), abs=0.5)  # centred as a group


def test_hexes_are_filled_with_their_terrain_colour_and_cut_out_cells_are_not_drawn(
    table, hexmap
) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    spots = table.layout.spots("map")
    rect = table.layout.place_rect("map")
    image = scene_image(table.scene, QRectF(rect.x, rect.y, rect.w, rect.h))
    for terrain, colour in (("wood", WOOD), ("water", WATER)):
        for name in [
            n
            for n, d in table.state.places["map"].spaces.nodes.items()
            if d.get("terrain") == terrain
        ]:
            if table.state.contents("map", name):
                continue
            cx, cy = spots[name].centre
            size = spots[name].w / 2
            pixel = image.pixelColor(int(cx - size * 0.7 - rect.x), int(cy - rect.y))
            assert close(pixel, colour), (name, pixel.name())
    # the even-q home board: its cut-out cell (0,0) is bare table, its printed site coloured
    home = table.layout.spots("home_red")
    assert "0,0" not in home and "5,1" in home
    hrect = table.layout.place_rect("home_red")
    image = scene_image(table.scene, QRectF(hrect.x, hrect.y, hrect.w, hrect.h))
    harbour = home["5,1"]
    px = image.pixelColor(
        int(harbour.centre[0] - harbour.w * 0.3 - hrect.x), int(harbour.centre[1] - hrect.y)
    )
    assert close(px, QColor("#2b6ca3")), px.name()
    cell = home["3,3"]  # an unstyled space, for comparison
    plain = image.pixelColor(int(cell.centre[0] - hrect.x), int(cell.centre[1] - hrect.y))
    assert plain.lightness() > 150
    x0 = home["0,1"].centre[0]
    y0 = home["0,1"].centre[1] - home["0,1"].h  # where (0,0) would be: nothing drawn
    assert image.pixelColor(int(x0 - hrect.x), int(y0 - hrect.y)).lightness() < 110


def test_the_even_q_home_board_is_laid_out_as_its_offset_says(table, hexmap) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    spots = table.layout.spots("home_red")
    place = table.state.places["home_red"]
    size = spots["3,3"].w / 2
    assert size * 2 == pytest.approx(16 * PX_PER_MM)  # its layout's cell
    for a, b in place.spaces.edges:
        (ax, ay), (bx, by) = spots[a].centre, spots[b].centre
        assert math.hypot(ax - bx, ay - by) == pytest.approx(size * math.sqrt(3))
    # even-q: an odd column sits half a hex higher than the even ones beside it
    assert spots["3,2"].centre[1] < spots["2,2"].centre[1] == spots["4,2"].centre[1]


def test_the_overview_shows_the_map_in_its_colours(table, hexmap) -> None:  # noqa: ANN001
    table.window.actions_by_name["overview"].setChecked(True)
    table.start(hexmap, seed=3)
    overview = table.view.overview
    assert overview is not None
    overview.setVisible(True)
    QApplication.processEvents()
    image = overview.grab().toImage()
    colours = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    }
    shown = QColor(255, 213, 74)  # the whole table is in view: under the frame's yellow tint

    def tinted(colour: QColor) -> QColor:
        k = 40 / 255
        return QColor(
            *(
                round(a * (1 - k) + b * k)
                for a, b in zip(colour.getRgb()[:3], shown.getRgb()[:3], strict=True)
            )
        )

    assert any(close(QColor(c), tinted(WOOD), 3) for c in colours)
    assert any(close(QColor(c), tinted(WATER), 3) for c in colours)


def test_tabletop_render_draws_the_setup_map(hexmap, tmp_path, capsys) -> None:  # noqa: ANN001
    game_file = tmp_path / "map.jsonl"
    assert main(["new", "hexmap", "--seed", "3", "-o", str(game_file)]) == 0
    png = tmp_path / "map.png"
    assert main(["render", str(game_file), "-o", str(png), "--scale", "0.5"]) == 0
    image = QImage(str(png))
    assert not image.isNull()
    counts = {"wood": 0, "water": 0}
    for x in range(0, image.width(), 3):
        for y in range(0, image.height(), 3):
            pixel = image.pixelColor(x, y)
            counts["wood"] += close(pixel, WOOD, 6)
            counts["water"] += close(pixel, WATER, 6)
    assert counts["wood"] > 200 and counts["water"] > 50, counts


def test_a_printed_label_is_written_small_at_the_top_of_its_space(table, hexmap) -> None:  # noqa: ANN001
    table.start(hexmap, seed=3)
    nodes = table.state.places["map"].spaces.nodes
    assert nodes["3,-1"]["label"] == "Lookout" and nodes["3,-1"]["terrain"] == "tower"
    assert nodes["2,2"]["terrain"] == "tower" and "label" not in nodes["2,2"]

    def dark_in_top_band(name: str) -> int:
        cell = table.layout.spots("map")[name]
        band = QRectF(cell.x + cell.w * 0.25, cell.y + cell.h * 0.1, cell.w * 0.5, cell.h * 0.2)
        image = scene_image(table.scene, band)
        return sum(
            image.pixelColor(x, y).lightness() < 90
            for x in range(image.width())
            for y in range(image.height())
        )

    assert dark_in_top_band("3,-1") > 20
    assert dark_in_top_band("2,2") == 0


def test_a_board_is_sized_from_its_spaces_only_when_its_shape_is_not_fixed() -> None:
    axial = {"shape": "hex", "coords": "axial", "orientation": "flat", "spaces": ["0,0", "1,0"]}
    # two flat hexes side by side: 3.5 sizes wide, 1.5 √3 sizes high
    w, h = place_size(Place("m", "board", board=axial))
    size = BOARD_CELL * PX_PER_MM / 2
    assert (w, h) == pytest.approx((3.5 * size, 1.5 * math.sqrt(3) * size))
    w2, h2 = place_size(Place("m", "board", board=axial, layout={"w": 70}))
    assert w2 == 70 * PX_PER_MM and w2 / h2 == pytest.approx(w / h)
    w3, _ = place_size(Place("m", "board", board=axial, layout={"cell": 10}))
    assert w3 == pytest.approx(3.5 * 5 * PX_PER_MM)
    grid = {"shape": "hex", "cols": 6, "rows": 5, "orientation": "flat"}
    assert place_size(Place("v", "board", board=grid)) == DEFAULT_PLACE  # as it always was
    assert place_size(Place("v", "board", board=grid, layout={"w": 50, "h": 40})) == (200, 160)
