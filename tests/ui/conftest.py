"""The table window under test: real windows, real mouse and key events, nothing of the user's touched.

Each test gets a MainWindow with its own settings file and games folder (in
tmp_path), shown at a fixed size. ``Table`` starts a game in it and maps
pieces, places and spots to viewport points, so tests press, drag and click
where a player would.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from tabletop.modules import Module, find_module, load_module
from tabletop.ui.window import MainWindow

FIXTURE_MODULES = Path(__file__).resolve().parent.parent / "fixtures" / "modules"
WINDOW_SIZE = (1400, 900)

NoButton = Qt.MouseButton.NoButton
Left = Qt.MouseButton.LeftButton
NoModifier = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return tmp_path / "settings.ini"


@pytest.fixture
def settings(settings_path: Path) -> QSettings:
    return QSettings(str(settings_path), QSettings.Format.IniFormat)


@pytest.fixture
def games_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "games"
    monkeypatch.setenv("TABLETOP_GAMES", str(folder))
    return folder


@pytest.fixture
def window(qtbot, settings: QSettings, games_dir: Path) -> MainWindow:  # noqa: ANN001
    """A main window that asks nothing and keeps its settings in tmp_path."""
    main = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(main)
    main.resize(*WINDOW_SIZE)
    return main


@pytest.fixture
def boards_module() -> Module:
    """The test module: hex, graph and grid boards, an elder card with six ranks, cubes."""
    return load_module(FIXTURE_MODULES / "boards")


@pytest.fixture
def proto_module() -> Module:
    return find_module("proto")


@pytest.fixture
def table(qtbot, window: MainWindow) -> Table:  # noqa: ANN001
    return Table(qtbot, window)


class Table:
    """Drives a window like a player: start a game, find things on screen, press, drag, type."""

    def __init__(self, qtbot, window: MainWindow) -> None:  # noqa: ANN001
        self.qtbot = qtbot
        self.window = window

    # ---- a game on screen ----------------------------------------------------
    def start(self, module: Module, seats=None, seed: int = 1, zoom: float | None = None):  # noqa: ANN001, ANN201
        """Start a new game of ``module``, show the window and fit the table (or zoom)."""
        game = self.window.start_new(module, seats=seats, seed=seed)
        assert game is not None, self.window.statusBar().currentMessage()
        self.show(zoom)
        return game

    def show(self, zoom: float | None = None) -> None:
        window = self.window
        if not window.isVisible():
            window.show()
            self.qtbot.waitExposed(window)
        window.resize(*WINDOW_SIZE)
        QApplication.processEvents()  # the fit queued by show_game runs here
        self.view.fit_table()
        if zoom is not None:
            self.view.set_zoom(zoom)
        QApplication.processEvents()

    @property
    def view(self):  # noqa: ANN201
        return self.window.view

    @property
    def viewport(self):  # noqa: ANN201
        return self.window.view.viewport()

    @property
    def scene(self):  # noqa: ANN201
        return self.window.scene

    @property
    def session(self):  # noqa: ANN201
        return self.window.session

    @property
    def state(self):  # noqa: ANN201
        return self.window.session.state

    @property
    def live(self):  # noqa: ANN201
        """The live table (not an earlier state shown read-only)."""
        return self.window.session.table

    @property
    def layout(self):  # noqa: ANN201
        return self.window.scene.layout

    def status(self) -> str:
        return self.window.statusBar().currentMessage()

    # ---- where things are on screen --------------------------------------------
    def to_view(self, x: float, y: float) -> QPoint:
        return self.view.mapFromScene(QPointF(x, y))

    def piece_point(self, pid: str) -> QPoint:
        """The centre of a piece as the layout puts it, in viewport pixels."""
        x, y = self.layout.piece_pos(pid)
        w, h = self.scene.size_of(pid)
        return self.to_view(x + w / 2, y + h / 2)

    def item_point(self, pid: str) -> QPoint:
        """The centre of a piece's item where it is drawn now."""
        return self.view.mapFromScene(self.scene.pieces[pid].sceneBoundingRect().center())

    def place_point(self, place: str, fx: float = 0.5, fy: float = 0.5) -> QPoint:
        """A point inside a place's rectangle (fractions of its width and height)."""
        rect = self.layout.place_rect(place)
        return self.to_view(rect.x + rect.w * fx, rect.y + rect.h * fy)

    def spot_point(self, place: str, spot: str) -> QPoint:
        x, y = self.layout.spots(place)[spot].centre
        return self.to_view(x, y)

    def handle_point(self, place: str) -> QPoint:
        """The middle of a deck's or stack's ⠿ tab."""
        return self.view.mapFromScene(self.scene.places[place].handle_rect().center())

    def piece_pixels(self, pid: str) -> float:
        """How wide a piece is drawn, in pixels."""
        return self.scene.size_of(pid)[0] * self.view.zoom

    # ---- gestures ------------------------------------------------------------------
    def _mouse(self, kind: QEvent.Type, pos: QPoint, button, buttons, modifiers) -> None:  # noqa: ANN001
        local = QPointF(pos)
        glob = QPointF(self.viewport.mapToGlobal(pos))
        event = QMouseEvent(kind, local, glob, button, buttons, modifiers)
        QApplication.sendEvent(self.viewport, event)

    def press(self, pos: QPoint, modifiers=NoModifier) -> None:  # noqa: ANN001
        self.qtbot.mousePress(self.viewport, Left, modifiers, pos)

    def move(self, pos: QPoint, held: bool = True, modifiers=NoModifier) -> None:  # noqa: ANN001
        """Move the pointer; with ``held`` the left button is down (QTest's own moves carry none)."""
        self._mouse(QEvent.Type.MouseMove, pos, NoButton, Left if held else NoButton, modifiers)

    def release(self, pos: QPoint, modifiers=NoModifier) -> None:  # noqa: ANN001
        self.qtbot.mouseRelease(self.viewport, Left, modifiers, pos)

    def drag(self, start: QPoint, end: QPoint, modifiers=NoModifier, steps: int = 4) -> None:  # noqa: ANN001
        """Press at ``start``, move there in ``steps`` with the button held, release at ``end``."""
        self.press(start, modifiers)
        for i in range(1, steps + 1):
            t = i / steps
            point = QPoint(
                round(start.x() + (end.x() - start.x()) * t),
                round(start.y() + (end.y() - start.y()) * t),
            )
            self.move(point, modifiers=modifiers)
        self.release(end, modifiers)
        QApplication.processEvents()

    def double_click(self, pos: QPoint) -> None:
        self.qtbot.mouseDClick(self.viewport, Left, NoModifier, pos)
        QApplication.processEvents()

    def click(self, pos: QPoint, modifiers=NoModifier) -> None:  # noqa: ANN001
        self.qtbot.mouseClick(self.viewport, Left, modifiers, pos)
        QApplication.processEvents()

    def hover(self, pos: QPoint) -> None:
        self.move(pos, held=False)

    def key(self, key, modifiers=NoModifier) -> None:  # noqa: ANN001
        """Type a key as the player would, into the view (the window's shortcuts answer)."""
        self.window.activateWindow()
        self.view.setFocus()
        self.qtbot.keyClick(self.view, key, modifiers)
        QApplication.processEvents()
