"""A fitted three-player Greenland table is legible at ordinary screens (issue 14).

"Fit the table" at 1920 x 1080 shows every card's title at 11 px or more and the
numbers printed on it at 8 px or more; at 1366 x 768 the titles at 9 px or more.
On-screen size = the font's pixel size in scene units (as the card's face draws
it, FaceArt.text_sizes) x the view's scale after fitting.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.modules import find_module
from tabletop.ui.layout import TableLayout


def _fit_at(table, size: tuple[int, int]) -> float:  # noqa: ANN001
    table.window.resize(*size)
    QApplication.processEvents()
    table.view.fit_table()
    QApplication.processEvents()
    return table.view.transform().m11()


def _face_up_cards(table) -> list[str]:  # noqa: ANN001
    art = table.scene.art
    return [
        pid
        for pid, item in table.scene.pieces.items()
        if art.shape_kind(table.state.pieces[pid]) == "card" and item.visible_face
    ]


SCREENS = pytest.mark.parametrize(
    ("size", "title_px", "number_px"),
    [((1920, 1080), 11.0, 8.0), ((1366, 768), 9.0, None)],
    ids=["1920x1080", "1366x768"],
)


@SCREENS
def test_a_fitted_greenland_table_shows_every_title_and_number_large_enough(
    table,  # noqa: ANN001
    size: tuple[int, int],
    title_px: float,
    number_px: float | None,
) -> None:
    table.start(find_module("greenland"), seed=3)
    _assert_legible(table, size, title_px, number_px)


@SCREENS
def test_a_finished_bot_game_is_as_legible(
    table,  # noqa: ANN001
    tmp_path: Path,
    size: tuple[int, int],
    title_px: float,
    number_px: float | None,
) -> None:
    """At the end of a game the tableaux are full, the events out, the cold sides grown."""
    logs = tmp_path / "logs"
    args = ["simulate", "greenland", "--games", "1", "--seed", "5", "--bots", "greedy"]
    assert main([*args, "--save-logs", str(logs), "--jobs", "1"]) == 0
    window = table.window
    window.resize(*size)  # opened at this size (docks laid out for it, as `play --size` does)
    assert window.open_path(str(logs / "game-5.jsonl")) is not None
    window.show()
    table.qtbot.waitExposed(window)
    assert len(table.state.places["tableau_yellow"].contents) > 3
    _assert_legible(table, size, title_px, number_px)


def _assert_legible(
    table,  # noqa: ANN001
    size: tuple[int, int],
    title_px: float,
    number_px: float | None,
) -> None:
    scale = _fit_at(table, size)
    cards = _face_up_cards(table)
    assert len(cards) >= 20  # both rows, the elders, the tableaux
    art = table.scene.art
    smallest_title, smallest_number = [], []
    for pid in cards:
        sizes = art.text_sizes(table.state.pieces[pid])
        assert "title" in sizes, pid
        smallest_title.append((sizes["title"] * scale, pid))
        if "number" in sizes:
            smallest_number.append((sizes["number"] * scale, pid))
    assert min(smallest_title)[0] >= title_px, (min(smallest_title), scale)
    assert smallest_number, "no card printed a number"
    if number_px is not None:
        assert min(smallest_number)[0] >= number_px, (min(smallest_number), scale)


def test_empty_places_stay_narrow_and_rows_grow_with_their_cards(table) -> None:  # noqa: ANN001
    """The cold sides start empty and narrow; a card moved there widens the side, the deck and
    the warm side beside it move along, and a fitted view is fitted again."""
    from tabletop.core import actions

    table.start(find_module("greenland"), seed=3)
    layout = table.scene.layout
    cold, warm = layout.places["north_cold"], layout.places["north_warm"]
    card_w = table.scene.size_of(table.state.places["north_warm"].contents[0])[0]
    assert cold.w < card_w  # empty: narrower than one card
    assert warm.w >= card_w * len(table.state.places["north_warm"].contents)
    deck_x = layout.places["north_deck"].x
    card = table.state.places["north_warm"].contents[0]
    assert table.session.submit(actions.move(table.state, card, "north_cold"))
    QApplication.processEvents()
    grown = table.scene.layout
    assert grown is not layout and grown.places["north_cold"].w >= card_w
    assert grown.places["north_deck"].x > deck_x  # the deck moved along
    assert grown.places["south_deck"].x == grown.places["north_deck"].x  # the rows stay aligned
    x, y = grown.piece_pos(card)
    assert grown.places["north_cold"].contains(x + 1, y + 1)
    assert table.view.fitted
    assert TableLayout(table.state, table.scene.size_of).places == grown.places


def test_pieces_stay_selected_when_a_growing_place_redraws_the_table(table) -> None:  # noqa: ANN001
    """A card moved onto an empty cold side widens it and the table is drawn anew: the pieces
    the player had selected are still selected."""
    from tabletop.core import actions

    table.start(find_module("greenland"), seed=3)
    warm = table.state.places["north_warm"].contents
    kept, moved = warm[1], warm[0]
    table.scene.pieces[kept].setSelected(True)
    layout = table.scene.layout
    assert table.session.submit(actions.move(table.state, moved, "north_cold"))
    QApplication.processEvents()
    assert table.scene.layout is not layout  # drawn anew
    assert [pid for pid, item in table.scene.pieces.items() if item.isSelected()] == [kept]
