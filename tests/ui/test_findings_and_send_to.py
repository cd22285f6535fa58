"""New findings are announced (the status bar names the rule, the findings tab counts them as
new until looked at, a long finding wraps), and the context menu's "Send to" is grouped by
owner and reaches a card's regions (E1: five Norse cubes behind one mariner; E3: a hunter
sent to a biome card's hunters; E5/elders: an elder card's ranks)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu, QTabBar

from tabletop.modules import find_module

from .test_policy_window import to_assignment


def findings_tab_texts(window) -> list[str]:  # noqa: ANN001
    """The texts of the dock tabs that hold the findings tab."""
    return [
        bar.tabText(i)
        for bar in window.findChildren(QTabBar)
        for i in range(bar.count())
        if "Rules findings" in bar.tabText(i)
    ]


def send_by_menu(table, pos: QPoint, path: list[str]) -> list[str]:  # noqa: ANN001
    """Right-click at ``pos``, follow ``Send to`` then ``path`` through the submenus and
    trigger the last entry; the texts of each menu passed through."""
    seen: list[str] = []

    def follow() -> None:
        top = QApplication.activePopupWidget()
        if not isinstance(top, QMenu):
            return
        menu = top
        for text in ["Send to", *path]:
            action = next((a for a in menu.actions() if a.text().replace("&", "") == text), None)
            seen.append(" | ".join(a.text() for a in menu.actions() if a.text()))
            if action is None:
                break
            if action.menu() is not None:
                menu = action.menu()
            else:
                action.trigger()
                break
        top.close()

    QTimer.singleShot(50, follow)
    viewport = table.viewport
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse,
        pos,
        viewport.mapToGlobal(pos),
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, event)
    QApplication.processEvents()
    return seen


def test_e1_a_new_finding_is_announced_until_looked_at(table) -> None:  # noqa: ANN001
    north, fifth = to_assignment(table)
    window = table.window
    dock = window.docks["findings"]
    assert dock.windowTitle() == "Rules findings"
    table.drag(table.piece_point(fifth), table.piece_point(north))  # advisory: made, and flagged
    assert table.state.pieces[fifth].place == north
    finding = table.live.entries[-1].findings[0]
    assert finding.rule == "E1"
    message = window.statusBar().currentMessage()
    assert message.startswith("E1: ") and finding.message in message
    assert dock.windowTitle() == "Rules findings (1 new)"
    assert findings_tab_texts(window) == ["Rules findings (1 new)"]
    findings = dock.widget().list
    assert findings.wordWrap() and findings.textElideMode() == Qt.TextElideMode.ElideNone
    assert finding.message in findings.item(0).text()
    assert finding.message in findings.item(0).toolTip()
    findings.resize(160, 400)  # a narrow dock: the finding wraps onto more lines, not cut
    QApplication.processEvents()
    line = findings.fontMetrics().height()
    assert findings.visualItemRect(findings.item(0)).height() >= 2 * line
    dock.raise_()  # the player looks at the tab
    QApplication.processEvents()
    assert dock.windowTitle() == "Rules findings"
    assert findings_tab_texts(window) == ["Rules findings"]


def test_e1_a_finding_seen_in_its_open_tab_is_not_counted_new(table) -> None:  # noqa: ANN001
    north, fifth = to_assignment(table)
    window = table.window
    dock = window.docks["findings"]
    dock.raise_()
    QApplication.processEvents()
    table.drag(table.piece_point(fifth), table.piece_point(north))
    assert window.statusBar().currentMessage().startswith("E1: ")
    assert dock.windowTitle() == "Rules findings"


def test_e3_send_to_a_biome_cards_hunters_through_the_table_submenu(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    state = table.state
    cube = next(p for p in state.places["hunters_yellow"].contents if p.startswith("cube"))
    before = table.live.seq
    seen = send_by_menu(table, table.piece_point(cube), ["Table", "Walrus · hunters"])
    groups = seen[1].split(" | ")
    assert groups == ["Norse", "Thule", "Tunit", "Table"]  # the seats as players call them
    assert "Walrus · hunters" in seen[2] and "North · warm side" in seen[2]
    assert "Thule elders (polytheist) · rank 1" not in seen[2]  # a seat's card: its own group
    hidden = set(state.places["north_deck"].contents) | set(state.places["south_deck"].contents)
    offered = {t.place for g in table.window.send_groups([cube]) for t in g.targets}
    assert hidden and not hidden & offered  # a face-down card's regions would name it
    piece = table.state.pieces[cube]
    assert (piece.place, piece.spot) == ("walrus", "hunters")
    assert table.live.seq == before + 1
    line = table.window.log_panel.list.item(table.live.seq - 1).text()
    assert "send Thule cube to Walrus · hunters" in line and cube not in line


def test_elder_ranks_are_reached_from_the_seats_submenu(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    state = table.state
    elder = next(
        p for p in state.places["elder-yellow"].contents if state.pieces[p].spot == "rank1"
    )
    table.show()
    seen = send_by_menu(
        table, table.piece_point(elder), ["Thule", "Thule elders (polytheist) · rank 6"]
    )
    assert "Thule tableau" in seen[2] and "Peepeelee · hunters" in seen[2]
    assert "Thule elders (polytheist) · rank 1" not in seen[2]  # where it lies already
    piece = table.state.pieces[elder]
    assert (piece.place, piece.spot) == ("elder-yellow", "rank6")
    line = table.window.log_panel.list.item(table.live.seq - 1).text()
    assert "send Thule cube to Thule elders (polytheist) · rank 6" in line  # the rank marker
    assert elder not in line and "elder-yellow" not in line
