"""The score dock (J): the totals of a position, projected, then final when the game is over."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from tabletop.core import actions
from tabletop.modules import find_module
from tests.greenland.tables import build
from tests.greenland.test_scoring import J_EXAMPLE


def test_the_score_dock_shows_the_totals_of_a_position(window, tmp_path: Path) -> None:  # noqa: ANN001
    game = build(tmp_path, J_EXAMPLE)
    window.show_game(game, find_module("greenland"))
    window.show()
    QApplication.processEvents()
    dock = window.docks["score"]
    panel = dock.widget()
    assert dock.windowTitle() == "Score"
    assert dock in window.tabifiedDockWidgets(window.docks["findings"])
    # the Thule's cube on the monotheist Tunit elder card is a representative (I5)
    assert panel.totals() == {"yellow": 26, "green": 24, "red": 16}
    assert not panel.final and panel.title.text().startswith("Projected")
    assert panel.table.item(0, 0).text() == window.session.seat_name("yellow")
    headers = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
    assert headers == ["Culture", "Total", "Trophy", "Resource", "Population", "Democratic"]
    assert panel.table.item(0, 1).text() == "26"  # the total first: a narrow dock shows it

    window.session.submit(actions.set_counter(window.session.state, "game_over", 10))
    QApplication.processEvents()
    assert panel.final and panel.title.text().startswith("Final score")
    window.undo()
    QApplication.processEvents()
    assert not panel.final


def test_a_module_without_scoring_has_no_score_dock(table) -> None:  # noqa: ANN001
    table.start(find_module("proto"))
    assert "score" not in table.window.docks
