"""Piles (``layout = { piles = true }``): pieces of one kind and owner lie on each other with
their count on the top one; seats' zones side by side (``zone_columns``); token views: a
token drawn from display roles (a hexagon, a picture, a number, a row of small pictures, a
used side), and a face that may not be seen gives the view nothing of its properties; slots
that say their ``spot_labels``."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from tabletop.core import Piece, actions
from tabletop.modules import find_module, new_game
from tabletop.ui.items import PlaceItem
from tabletop.ui.layout import TableLayout
from tabletop.ui.token_art import draw_token_view, seen_of
from tabletop.ui.units import PX_PER_MM


@pytest.fixture(scope="module")
def app() -> QApplication:
    return QApplication.instance() or QApplication([])


def size(_pid: str) -> tuple[float, float]:
    return 10 * PX_PER_MM, 10 * PX_PER_MM


def a_table_with(place: dict, pieces: list[dict]):  # noqa: ANN201
    """The proto module's table with one more place and pieces, through the table's commands."""
    game = new_game(find_module("proto"), seed=1)
    game.table.submit(actions.add_place(place), None)
    for record in pieces:
        spot = record.pop("spot", None)
        game.table.submit(actions.add_piece(game.state, record, place["id"], spot=spot), None)
    return game


def test_a_piling_bowl_lays_each_kind_on_one_pile_with_its_count() -> None:
    pieces = [{"id": f"a{n}", "kind": "a"} for n in range(5)]
    pieces += [{"id": f"b{n}", "kind": "b"} for n in range(3)]
    pieces += [{"id": "c0", "kind": "a", "owner": "red"}]
    place = {"id": "heap", "kind": "bowl", "layout": {"x": 0, "y": 300, "w": 80, "h": 30}}
    game = a_table_with({**place, "layout": {**place["layout"], "piles": True}}, pieces)
    layout = TableLayout(game.state, size)
    assert layout.piles("heap")
    tops = {pid: layout.pile_count(pid) for pid in game.state.place("heap").contents}
    assert tops == {"a0": 0, "a1": 0, "a2": 0, "a3": 0, "a4": 5, "b0": 0, "b1": 0, "b2": 3, "c0": 1}
    a = [layout.piece_pos(f"a{n}") for n in range(5)]
    b = layout.piece_pos("b2")
    assert max(abs(x - a[0][0]) for x, _ in a) <= 2 * PX_PER_MM  # one pile, edges showing
    assert abs(b[0] - a[-1][0]) >= 10 * PX_PER_MM  # another pile beside it
    assert layout.piece_pos("c0") not in a  # another owner, another pile
    plain = TableLayout(a_table_with(place, pieces).state, size)
    assert not plain.piles("heap") and plain.pile_count("a4") == 0


def test_a_piling_board_keeps_one_pile_per_space() -> None:
    board = {"shape": "grid", "cols": 2, "rows": 1}
    place = {"id": "plan", "kind": "board", "board": board}
    place["layout"] = {"x": 0, "y": 300, "w": 60, "h": 30, "piles": True}
    pieces = [{"id": f"h{n}", "kind": "house", "spot": "0,0"} for n in range(3)]
    pieces.append({"id": "v", "kind": "viking", "spot": "1,0"})
    layout = TableLayout(a_table_with(place, pieces).state, size)
    assert [layout.pile_count(p) for p in ("h0", "h1", "h2", "v")] == [0, 0, 3, 1]
    assert layout.spots("plan")["1,0"].contains(*_centre(layout, "v"))
    assert all(layout.spots("plan")["0,0"].contains(*_centre(layout, h)) for h in ("h0", "h2"))


def _centre(layout: TableLayout, pid: str) -> tuple[float, float]:
    x, y = layout.piece_pos(pid)
    return x + 5 * PX_PER_MM, y + 5 * PX_PER_MM


def test_zone_columns_put_the_seats_side_by_side() -> None:
    game = new_game(find_module("proto"), seed=1)
    for seat in ("red", "yellow"):
        spec = {"id": f"home_{seat}", "kind": "bowl", "owner": seat}
        spec["layout"] = {"w": 40, "h": 30, "zone_columns": True}
        game.table.submit(actions.add_place(spec), None)
    layout = TableLayout(game.state, size)
    zones = {z.seat: z.rect for z in layout.zones if z.seat in ("red", "yellow")}
    assert zones["red"].y == zones["yellow"].y and zones["red"].x != zones["yellow"].x


def _image(view: dict) -> QImage:
    image = QImage(120, 104, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    draw_token_view(painter, QRectF(0, 0, 120, 104), view, QColor("#3c6e2f"), lambda _: None)
    painter.end()
    return image


def test_a_token_view_draws_its_outline_number_and_used_side(app) -> None:  # noqa: ANN001
    hexagon = _image({"outline": "hex", "icon": "wood"})
    square = _image({"icon": "wood"})
    assert hexagon.pixelColor(2, 2).alpha() == 0  # a hexagon leaves its corners empty
    assert square.pixelColor(2, 30).alpha() > 0 and hexagon.pixelColor(2, 30).alpha() == 0
    numbered = _image({"outline": "hex", "number": 5, "number_colour": "#ffd700"})
    corner = numbered.pixelColor(96, 24)
    assert corner.red() > 200 and corner.green() > 150  # the number's disk, top right
    used = _image({"outline": "hex", "dim": True})
    fresh = _image({"outline": "hex"})
    assert used.pixelColor(60, 30).saturation() < fresh.pixelColor(60, 30).saturation()


def test_a_face_not_seen_gives_the_view_nothing_of_its_properties() -> None:
    piece = Piece("ship-1", "ship", props={"needs": ["a", "b"]}, value=3, face_up=False)
    assert seen_of(piece, visible=False) == {"kind": "ship", "face_up": False}
    seen = seen_of(piece, visible=True)
    assert seen["props"] == {"needs": ["a", "b"]} and seen["value"] == 3


def test_slots_say_their_spot_labels(app) -> None:  # noqa: ANN001
    spec = {"id": "powers", "kind": "slots", "spots": ["PlayAgain", "trophy"]}
    spec["layout"] = {"x": 0, "y": 300, "w": 40, "h": 20, "spot_labels": {"PlayAgain": "Again"}}
    game = new_game(find_module("proto"), seed=1)
    game.table.submit(actions.add_place(spec), None)
    layout = TableLayout(game.state, size)
    item = PlaceItem(
        game.state.places["powers"], layout.places["powers"], layout.spots("powers"), "Powers"
    )
    assert item.spot_label("PlayAgain") == "Again" and item.spot_label("trophy") == "trophy"
