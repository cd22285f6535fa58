"""Flip is offered only for pieces with two faces (a cube has one), and after a move forced past
the strict rules the status bar says it was made, not that it was refused (E1, five Norse cubes
behind one mariner)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMenu

from tabletop.modules import find_module

from .test_policy_window import to_assignment


def context_menu_texts(table, pos: QPoint) -> list[str]:  # noqa: ANN001
    """Right-click at ``pos`` on the table: the texts of the menu that opens (then closed)."""
    texts: list[str] = []

    def read() -> None:
        menu = QApplication.activePopupWidget()
        if isinstance(menu, QMenu):
            texts.extend(a.text().replace("&", "") for a in menu.actions() if a.text())
            menu.close()

    QTimer.singleShot(50, read)
    viewport = table.viewport
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse,
        pos,
        viewport.mapToGlobal(pos),
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, event)
    QApplication.processEvents()
    return texts


def test_a_cube_offers_no_flip_a_card_does(table, qtbot) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    state = table.state
    cube = next(p for p in state.places["hunters_red"].contents if p.startswith("cube"))
    texts = context_menu_texts(table, table.piece_point(cube))
    assert "Rotate" in " ".join(texts) and "Flip" not in texts
    entries = len(table.live.entries)
    table.double_click(table.piece_point(cube))  # nothing to turn over: nothing logged
    assert len(table.live.entries) == entries
    card = state.places["north_warm"].contents[1]
    assert "Flip" in context_menu_texts(table, table.piece_point(card))


def test_e1_a_forced_move_is_reported_as_made(table, qtbot) -> None:  # noqa: ANN001
    table.window.settings.setValue("rules/greenland", "strict")
    north, fifth = to_assignment(table)
    window = table.window
    window.ask = True  # the refusal offers to force the move
    asked: list[str] = []

    def give_reason() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            return
        asked.append(dialog.labelText())
        field = dialog.findChild(QLineEdit)
        qtbot.keyClicks(field, "testing a second mariner")
        qtbot.keyClick(field, Qt.Key.Key_Return)

    QTimer.singleShot(50, give_reason)
    table.drag(table.piece_point(fifth), table.piece_point(north))
    assert asked and "E1" in asked[0]
    assert table.state.pieces[fifth].place == north
    assert table.live.entries[-1].override is not None
    message = window.statusBar().currentMessage()
    assert "refused" not in message.lower(), message
    assert "forced" in message and "testing a second mariner" in message
