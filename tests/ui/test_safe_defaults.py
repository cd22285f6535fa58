"""The window never offers a destructive or irreversible choice as its default button: Enter
or a quick click on the bold button must not kill, take or attack."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from tabletop.core.actions import where_is
from tabletop.core.notes import Annotate
from tabletop.modules import find_module
from tabletop.modules.rules import game_of


def buttons(panel) -> list[QPushButton]:  # noqa: ANN001
    layout = panel.buttons
    return [layout.itemAt(i).widget() for i in range(layout.count())]


def step_named(panel, start: str):  # noqa: ANN001, ANN201
    return next(s for s in panel.offered if s.label.startswith(start))


def _to_the_elder_phase(table, seed: int):  # noqa: ANN001, ANN202
    """A new game played by the panel's buttons (scripted answers) to the elder phase (A1)."""
    table.start(find_module("greenland"), seed=seed)
    panel = table.window.phase_panel
    panel.answerer = lambda need: need.options[0]
    assert panel.run(step_named(panel, "Reveal"))
    for _ in range(8):
        if panel.status.phase == "elders":
            return panel
        steps = [s for s in panel.offered if s.label.startswith(("Hunt ", "Feed"))]
        assert panel.run(steps[0] if steps else step_named(panel, "Next"))
    raise AssertionError(f"no elder phase: {panel.status.phase}")


def test_i2_banishment_is_never_the_default_button(table, qtbot) -> None:  # noqa: ANN001
    """I2 kills an elder (or rolls the Martyr Roll): offered first in the elder phase, it is a
    plain button; the bold default is the culture's 'done', and clicking it kills nobody."""
    panel = _to_the_elder_phase(table, seed=5)
    shown = buttons(panel)
    banish = next(b for b in shown if b.text().startswith("Banishment (I2)"))
    assert shown[0] is banish  # the flow offers it first
    assert not banish.isDefault() and "bold" not in banish.styleSheet()
    defaults = [b for b in shown if b.isDefault()]
    assert [b.text() for b in defaults] == ["Norse: done with elder actions (I)"]
    assert "bold" in defaults[0].styleSheet()
    cubes = sorted(p for p in table.state.pieces if p.startswith("cube-"))
    places = {p: where_is(table.state, p) for p in cubes}
    qtbot.mouseClick(defaults[0], Qt.MouseButton.LeftButton)
    assert table.live.entries[-1].command.procedure == "greenland.finish"
    assert {p: where_is(table.state, p) for p in cubes} == places  # nobody died or moved
    assert not [b for b in buttons(panel) if b.text().startswith("Norse: done")]


def test_f2_i3_i6_the_killing_procedures_are_marked() -> None:
    """Attacks (F2), witch-burning (I3) and proselytizing (I6) are marked as the panel reads
    them; a tool-maker (I4) or the table's Next (A1) is not."""
    game = game_of(find_module("greenland"))
    procedures = game.procedures
    assert procedures.get("attack").is_destructive({"colour": "red", "card": "Walrus"})
    for action, harms in (
        ("banish", True),
        ("witch-burn", True),
        ("proselytize", True),
        ("tool-maker", False),
        ("domesticate", False),
    ):
        params = {"colour": "red", "action": action}
        assert procedures.get("elder").is_destructive(params) is harms, action
    assert not procedures.get("next-phase").is_destructive({})


def test_removing_a_note_asks_with_keep_as_the_default(table, qtbot) -> None:  # noqa: ANN001
    """Delete on a note in the dock asks first; Enter answers No and the note stays (table)."""
    table.start(find_module("proto"), seats=3)
    window, live = table.window, table.live
    note = Annotate("add", tag="typo", text="Cube colour hard to see", at=live.seq)
    assert table.session.annotate(note)  # as the note dialog writes it
    window.ask = True  # the test window asks nothing unless told
    seen: list[str] = []

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            return
        default = box.defaultButton()
        seen.append(default.text().replace("&", "") if default is not None else "(none)")
        qtbot.keyClick(box, Qt.Key.Key_Return)
        if box.isVisible():  # Enter did nothing: close it so the test goes on to fail
            box.done(0)

    window.docks["notes"].raise_()
    QApplication.processEvents()
    notes = window.docks["notes"].widget().list
    point = notes.visualItemRect(notes.item(0)).center()
    qtbot.mouseClick(notes.viewport(), Qt.MouseButton.LeftButton, pos=point)
    QTimer.singleShot(0, press_enter)
    qtbot.keyClick(notes, Qt.Key.Key_Delete)
    assert seen == ["No"]
    assert len(live.notes()) == 1 and notes.count() == 1
