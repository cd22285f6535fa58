"""The overview map and the docks never cover or crop the table.

The overview map lives in its own dock (View > Overview map, key M), hidden until asked
for and remembered in the settings; a dock that grows beside the table leaves what was in
view still in view (the view is fitted again, or zooms out just enough).
Played with a three-player Greenland game at a laptop's and a desktop's screen size.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.modules import find_module
from tabletop.ui.window import MainWindow

SIZES = [(1366, 768), (1920, 1080)]
ELDERS = ("elder_red", "elder_yellow", "elder_green")  # the Tunit's are elder_green


def _start(table, size: tuple[int, int]) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=4)
    assert len(table.session.game.header.seats) == 3
    table.window.resize(*size)
    QApplication.processEvents()
    table.view.fit_table()
    QApplication.processEvents()


def _global(widget) -> QRect:  # noqa: ANN001
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def _place_on_screen(table, place: str) -> QRect:  # noqa: ANN001
    rect = table.scene.places[place].sceneBoundingRect()
    return table.view.mapFromScene(rect).boundingRect()


def _fully_visible(table, places) -> set[str]:  # noqa: ANN001
    port = table.viewport.rect()
    return {p for p in places if port.contains(_place_on_screen(table, p))}


@pytest.mark.parametrize("size", SIZES)
def test_overview_map_is_hidden_at_first_and_never_over_the_table(table, size) -> None:  # noqa: ANN001
    _start(table, size)
    window = table.window
    dock = window.docks["overview"]
    assert not dock.isVisible() and not window.actions_by_name["overview"].isChecked()
    table.key(Qt.Key.Key_M)  # the View menu's key shows it, in its dock beside the table
    QApplication.processEvents()
    assert dock.isVisible() and window.actions_by_name["overview"].isChecked()
    overview = table.view.overview
    assert overview.isVisible() and overview.width() >= 160
    assert not _global(overview).intersects(_global(table.viewport))
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    # a click in the map looks at that part of the table
    table.view.set_zoom(1.0)
    before = table.view.visible_scene_rect().center()
    table.qtbot.mouseClick(overview, Qt.MouseButton.LeftButton, pos=QPoint(8, 8))
    assert table.view.visible_scene_rect().center() != before
    table.key(Qt.Key.Key_M)
    QApplication.processEvents()
    assert not dock.isVisible()


def test_overview_map_choice_is_remembered(qtbot, table, settings_path) -> None:  # noqa: ANN001
    _start(table, SIZES[0])
    table.key(Qt.Key.Key_M)
    QApplication.processEvents()
    table.window.close()
    again = MainWindow(QSettings(str(settings_path), QSettings.Format.IniFormat), ask=False)
    qtbot.addWidget(again)
    assert again.actions_by_name["overview"].isChecked()
    again.start_new(find_module("greenland"), seed=4)
    again.show()
    qtbot.waitExposed(again)
    assert again.docks["overview"].isVisible()
    # closed by its own button: the menu's tick follows, and is remembered
    again.docks["overview"].toggleViewAction().trigger()
    assert not again.actions_by_name["overview"].isChecked()
    assert str(again.settings.value("view/overview")) == "false"


@pytest.mark.parametrize("size", SIZES)
def test_a_growing_phase_dock_keeps_the_elders_in_view(table, size) -> None:  # noqa: ANN001
    _start(table, size)
    shown = _fully_visible(table, ELDERS)
    assert "elder_green" in shown  # the Tunit row is in view when fitted
    port = table.viewport.size()
    panel = table.window.phase_panel  # a longer phase title widens the dock (no wrapping)
    panel.title.setText(panel.title.text() + " — and a much longer name for the phase shown")
    panel.detail.setText(" ".join(["A long explanation of the phase, line after line."] * 20))
    # the dock grows into the table's room (its layout settles over a few events)
    table.qtbot.waitUntil(lambda: table.viewport.size() != port)
    QApplication.processEvents()
    assert _fully_visible(table, ELDERS) >= shown


@pytest.mark.parametrize("size", SIZES)
def test_a_zoomed_view_keeps_what_was_in_view_when_the_room_shrinks(table, size) -> None:  # noqa: ANN001
    _start(table, size)
    window = table.window
    elders = table.scene.places["elder_red"].sceneBoundingRect()
    for place in ELDERS:  # a column of cards down the table's left side
        elders = elders.united(table.scene.places[place].sceneBoundingRect())
    table.view.fitInView(elders, Qt.AspectRatioMode.KeepAspectRatio)  # the elders fill the view
    table.view.set_zoom(table.view.zoom * 0.97)  # the user zoomed: not the fitted table
    QApplication.processEvents()
    assert not table.view.fitted
    shown = _fully_visible(table, ELDERS)
    assert shown == set(ELDERS)
    zoom = table.view.zoom
    dock = window.docks["log"]
    window.resizeDocks([dock], [dock.width() + 250], Qt.Orientation.Horizontal)
    window.resize(size[0], size[1] - 160)  # and the window is made lower
    table.qtbot.waitUntil(lambda: table.viewport.height() < size[1] - 160)
    QApplication.processEvents()
    assert _fully_visible(table, ELDERS) == shown
    assert table.view.zoom < zoom  # zoomed out as far as needed
    # the room given back: the zoom stays (never zoomed in), the same places in view
    window.resize(*size)
    QApplication.processEvents()
    assert _fully_visible(table, ELDERS) == shown
    assert table.view.zoom < zoom


def test_play_screenshot_at_a_given_window_size(tmp_path: Path, monkeypatch, capsys) -> None:  # noqa: ANN001
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    shot = tmp_path / "laptop.png"
    argv = ["play", "greenland", "--seed", "4", "--screenshot", str(shot)]
    assert main([*argv, "--size", "1366x768"]) == 0
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1366, 768)
    for bad in ("1366", "0x768", "wide x tall"):
        capsys.readouterr()
        assert main([*argv, "--size", bad]) == 2
        err = capsys.readouterr().err
        assert "write it as WIDTHxHEIGHT" in err and "Traceback" not in err
