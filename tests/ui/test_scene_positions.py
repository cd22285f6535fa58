"""The table's items lie where the layout puts them after every change made in the window.

The layout keeps what it has worked out of the pieces' positions (a card's position,
read again for each piece on it; the cells of its regions) and the piece art keeps each
kind's size; both must be worked out anew when a piece moves, flips, turns, changes a
property, or a place grows. Each test drives the window as a player would, then checks every
item against a layout worked out afresh on a copy of the table (which has no memo at all).
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from tabletop.core import actions
from tabletop.modules import find_module, new_game
from tabletop.ui.faces import FaceArt
from tabletop.ui.layout import TableLayout

Ctrl = Qt.KeyboardModifier.ControlModifier
Shift = Qt.KeyboardModifier.ShiftModifier


def _drawn_as_laid_out(table) -> None:  # noqa: ANN001 - the window under test
    """Every piece's item where, how high and how turned a fresh layout of the table says."""
    state = table.state
    fresh = TableLayout(state.copy(), table.scene.size_of)
    assert fresh.places == table.layout.places
    for pid, item in table.scene.pieces.items():
        piece = state.pieces[pid]
        assert item.pos().toTuple() == fresh.piece_pos(pid), pid
        assert item.zValue() == fresh.piece_z(pid), pid
        assert item.count == fresh.pile_count(pid), pid
        assert item.rotation() == piece.rotation * 90, pid
        regions = state.regions_of(pid)
        if regions is not None:
            x, y = fresh.piece_pos(pid)
            cells = [
                (name, (cell.x - x, cell.y - y, cell.w, cell.h))
                for name, cell in fresh.spots(regions.id).items()
            ]
            assert [(name, rect.getRect()) for name, rect in item.regions] == cells, pid


def test_items_follow_cubes_onto_a_card_and_the_card_with_them(table, boards_module) -> None:  # noqa: ANN001
    table.start(boards_module)
    _drawn_as_laid_out(table)
    bowl = table.state.places["reserve_red"]
    left_in_bowl = bowl.contents[2]
    before = table.scene.pieces[left_in_bowl].pos().toTuple()
    table.drag(table.piece_point("cube-red-1"), table.spot_point("elder-red", "rank3"))
    table.drag(table.piece_point("cube-red-2"), table.spot_point("elder-red", "rank1"))
    assert table.state.pieces["cube-red-2"].spot == "rank1", table.status()
    _drawn_as_laid_out(table)
    # the bowl packs what is left anew
    assert table.scene.pieces[left_in_bowl].pos().toTuple() != before
    on_card = table.scene.pieces["cube-red-1"].pos().toTuple()
    # the card goes to Blue's reserve, and what lies on it with it
    table.drag(
        table.place_point("elder-red", 0.5, 0.12), table.place_point("reserve_blue", 0.5, 0.7)
    )
    assert table.state.pieces["elder-red"].place == "reserve_blue", table.status()
    assert table.scene.pieces["cube-red-1"].pos().toTuple() != on_card
    _drawn_as_laid_out(table)
    table.key(Qt.Key.Key_Z, Ctrl)  # the card comes back, the cubes on it
    assert table.state.pieces["elder-red"].place == "tableau_red"
    assert table.scene.pieces["cube-red-1"].pos().toTuple() == on_card
    _drawn_as_laid_out(table)
    table.key(Qt.Key.Key_Z, Ctrl | Shift)
    assert table.state.pieces["elder-red"].place == "reserve_blue"
    _drawn_as_laid_out(table)


def test_items_follow_a_card_flipped_and_turned(table, proto_module) -> None:  # noqa: ANN001
    table.start(proto_module, seats=3)
    card = table.state.places["market"].contents[1]
    table.double_click(table.piece_point(card))
    assert table.state.pieces[card].face_up is False
    assert table.scene.pieces[card].visible_face is False
    _drawn_as_laid_out(table)
    table.click(table.piece_point(card))
    table.key(Qt.Key.Key_R)
    assert table.scene.pieces[card].rotation() == 90
    _drawn_as_laid_out(table)
    table.key(Qt.Key.Key_Z, Ctrl)  # turned back: the item turns back too
    assert table.state.pieces[card].rotation == 0
    assert table.scene.pieces[card].rotation() == 0
    _drawn_as_laid_out(table)
    # a card drawn from the deck into a hand (its line laid out anew), one onto the free area
    table.drag(table.place_point("deck", 0.4, 0.6), table.place_point("hand_red", 0.9, 0.5))
    assert len(table.state.places["hand_red"].contents) >= 1, table.status()
    _drawn_as_laid_out(table)
    second = table.state.places["deck"].contents[-1]
    table.drag(table.piece_point(second), table.place_point("table", 0.5, 0.4))
    assert table.state.pieces[second].place == "table", table.status()
    _drawn_as_laid_out(table)


def test_a_big_cube_is_laid_out_at_its_new_size(table, boards_module) -> None:  # noqa: ANN001
    """A property that sizes a piece (``big``) is read anew when it changes."""
    table.start(boards_module)
    w, h = table.scene.size_of("cube-red-3")
    assert table.session.submit(actions.set_property(table.state, "cube-red-3", "big", True))
    big_w, big_h = table.scene.size_of("cube-red-3")
    assert big_w > w and big_h > h
    assert table.scene.size_of("cube-red-4") == (w, h)  # its neighbours keep theirs
    _drawn_as_laid_out(table)


def test_items_follow_a_growing_row_of_greenland(table) -> None:  # noqa: ANN001
    """Cards moved onto an empty cold side (a row that grows, G-phase tableaux): the table is
    laid out anew and every piece lies where the new layout says."""
    table.start(find_module("greenland"), seed=3)
    _drawn_as_laid_out(table)
    for _ in range(2):
        card = table.state.places["north_warm"].contents[0]
        assert table.session.submit(actions.move(table.state, card, "north_cold"))
        _drawn_as_laid_out(table)


def test_a_layout_reads_the_table_taken_back_to_a_mark() -> None:
    """A table taken back to a mark (what the rules do when they try a move) and then moved
    another way: the layout does not keep what it read of the move it was taken back from."""
    module = find_module("greenland")
    state = new_game(module, seed=1).table.state
    art = FaceArt(module, state.seats, store=False)

    def size(pid: str) -> tuple[float, float]:
        return art.size_wh(state.pieces[pid])

    layout = TableLayout(state, size)
    card = state.places["north_warm"].contents[0]
    other = state.places["north_warm"].contents[1]
    at_first = layout.piece_pos(other)
    mark = state.mark()
    tried = actions.move(state, card, "north_cold")
    tried.apply(state)
    moved_up = layout.piece_pos(other)  # the next card took the first one's place
    assert moved_up != at_first
    tried.take_back(state)
    state.back_to(mark)
    # another card goes instead: the one read lies where it lay at first (its index is kept,
    # and this layout's rectangles are its own), not where the try put it
    third = state.places["north_warm"].contents[2]
    actions.move(state, third, "north_cold").apply(state)
    assert layout.piece_pos(other) == at_first
