"""The question dialog: every kind of typed question answered with real clicks and keys, and the
phase panel asking a real Greenland game's questions through it (the B2 discard of two cards,
the hits of an attack shared among two cultures)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStyle,
    QStyleOptionSpinBox,
)

from rules_assist.driver import Action
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.view import Greenland
from rules_assist.questions import Question
from tabletop.modules import find_module, new_game
from tabletop.ui.question_dialog import QuestionDialog, ask

Left = Qt.MouseButton.LeftButton
NAMES = {"red": "Norse", "yellow": "Thule", "green": "Dorset"}


# ---- driving a dialog as a person would ---------------------------------------------------------
def shown(qtbot, question: Question, **kw: Any) -> QuestionDialog:  # noqa: ANN001
    dialog = QuestionDialog(question, None, **kw)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def tick(box: QCheckBox | QRadioButton) -> None:
    """Click a check box or radio button on its indicator, where a person aims."""
    side = box.height() // 2
    QTest.mouseClick(box, Left, Qt.KeyboardModifier.NoModifier, QPoint(side, side))


def click(button: QPushButton) -> None:
    QTest.mouseClick(button, Left)


def arrow(spin: QSpinBox, up: bool = True, times: int = 1) -> None:
    """Click a spin box's up (or down) arrow."""
    option = QStyleOptionSpinBox()
    spin.initStyleOption(option)
    part = QStyle.SubControl.SC_SpinBoxUp if up else QStyle.SubControl.SC_SpinBoxDown
    rect = spin.style().subControlRect(QStyle.ComplexControl.CC_SpinBox, option, part, spin)
    for _ in range(times):
        QTest.mouseClick(spin, Left, Qt.KeyboardModifier.NoModifier, rect.center())


def key(qtbot, widget, name) -> None:  # noqa: ANN001
    qtbot.keyClick(widget, name)


# ---- every kind ------------------------------------------------------------------------------
def test_one_of_radio_buttons_with_labels(qtbot) -> None:  # noqa: ANN001
    question = Question.one_of(
        "target",
        "Banishment: kill an elder, or roll the Martyr Roll",
        ["elder:2", "elder:3", "martyr"],
        owner="red",
        labels=(("elder:2", "Elder of rank 2"), ("martyr", "Martyr Roll & more")),
        section="I2",
    )
    dialog = shown(qtbot, question, name=NAMES.get)
    assert dialog.owner_label.text() == "For Norse (red)"
    assert dialog.section_label.text() == "Rulebook I2"
    assert dialog.text_label.text() == question.text
    radios = dialog.choices
    assert [r.text() for r in radios] == ["Elder of rank 2", "elder:3", "Martyr Roll && more"]
    assert radios[0].isChecked() and dialog.ok.isEnabled()
    tick(radios[2])
    assert radios[2].isChecked() and not radios[0].isChecked()
    click(dialog.ok)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer == "martyr"


def test_one_of_a_long_list_and_the_enter_key(qtbot) -> None:  # noqa: ANN001
    question = Question.one_of("order", "Which first?", [f"event {i}" for i in range(12)])
    dialog = shown(qtbot, question)
    assert dialog.owner_label.text() == "For the whole table"
    assert not dialog.section_label.isVisible()
    assert dialog.list is not None and dialog.list.count() == 12
    dialog.list.setFocus()
    for _ in range(3):
        key(qtbot, dialog.list, Qt.Key.Key_Down)
    key(qtbot, dialog.list, Qt.Key.Key_Return)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer == "event 3"


@pytest.mark.parametrize(("button", "expected"), [("yes", True), ("no", False)])
def test_yes_no_buttons(qtbot, button: str, expected: bool) -> None:  # noqa: ANN001
    question = Question.yes_no("alpha", "Use the Alpha die?", owner="yellow", section="G2")
    dialog = shown(qtbot, question, name=NAMES.get)
    assert dialog.owner_label.text() == "For Thule (yellow)"
    assert dialog.ok is None and not dialog.counter.isVisible()
    click(getattr(dialog, button))
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer is expected


def test_yes_no_the_safe_answer_is_the_default_button(qtbot) -> None:  # noqa: ANN001
    """Issue 14: the default button is No (taking nothing, spending nothing) and Enter answers
    No, even with the focus moved onto Yes; Yes is never the default."""
    question = Question.yes_no("pay_iron", "Pay an iron to cancel the losses (F4)?", "red")
    dialog = shown(qtbot, question)
    assert dialog.no.isDefault() and not dialog.yes.isDefault()
    assert not dialog.yes.autoDefault()
    dialog.yes.setFocus()
    key(qtbot, dialog.yes, Qt.Key.Key_Return)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer is False


def test_yes_no_enter_takes_yes_where_the_question_says_yes_is_safe(qtbot) -> None:  # noqa: ANN001
    question = Question.yes_no("keep", "Keep the card?", "red", safe=True)
    assert question.safe == "yes" and question.default() is True
    dialog = shown(qtbot, question)
    assert dialog.yes.isDefault() and not dialog.no.isDefault()
    key(qtbot, dialog, Qt.Key.Key_Enter)
    assert dialog.answer is True


def test_yes_no_the_plainest_answer_is_the_safe_one() -> None:
    assert Question.yes_no("alpha", "Use the Alpha die?").default() is False
    assert Question.yes_no("stay", "Stay?", safe=True).default() is True


DISCARD = Question.subset(
    "discard_yellow",
    "yellow holds 4 cards, hand size 2: name 2 to discard (B2)",
    ["goggles", "harpoon", "dogs", "kayak"],
    count=2,
    owner="yellow",
    labels=(("goggles", "Slit Goggles"), ("harpoon", "Toggle-head Harpoon"), ("dogs", "Dogs")),
    section="B2",
)


def test_subset_ok_only_with_exactly_its_size(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, DISCARD, name=NAMES.get)
    boxes = dialog.choices
    assert [b.text() for b in boxes] == ["Slit Goggles", "Toggle-head Harpoon", "Dogs", "kayak"]
    assert dialog.counter.text() == "0 of 2 chosen" and not dialog.ok.isEnabled()
    tick(boxes[1])
    assert dialog.counter.text() == "1 of 2 chosen" and not dialog.ok.isEnabled()
    key(qtbot, dialog, Qt.Key.Key_Return)  # Enter does nothing while the answer is short
    assert dialog.isVisible() and dialog.answer is None
    tick(boxes[3])
    assert dialog.counter.text() == "2 of 2 chosen" and dialog.ok.isEnabled()
    tick(boxes[0])
    assert dialog.counter.text() == "3 of 2 chosen" and not dialog.ok.isEnabled()
    assert "uncheck 1" in dialog.counter.toolTip()
    tick(boxes[1])
    assert boxes[0].isChecked() and not boxes[1].isChecked() and boxes[3].isChecked()
    click(dialog.ok)
    assert dialog.answer == ("goggles", "kayak")  # canonical: in the options' order


def test_subset_between_limits_by_keyboard(qtbot) -> None:  # noqa: ANN001
    question = Question.subset("reroll", "Re-roll which dice?", ["1", "3", "5"], low=0, high=2)
    dialog = shown(qtbot, question)
    assert dialog.counter.text() == "0 of 0 to 2 chosen" and dialog.ok.isEnabled()
    dialog.choices[2].setFocus()
    key(qtbot, dialog.choices[2], Qt.Key.Key_Space)
    assert dialog.choices[2].isChecked()
    key(qtbot, dialog.choices[2], Qt.Key.Key_Enter)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted and dialog.answer == ("5",)


SPLIT = Question.split(
    "targets", "How do the 3 hits fall (F2)?", 3, [("yellow", 2), ("green", 3)], owner="red"
)


def test_split_ok_only_when_the_total_is_shared(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, SPLIT, name=NAMES.get)
    yellow, green = dialog.spins["yellow"], dialog.spins["green"]
    assert (yellow.maximum(), green.maximum()) == (2, 3)  # capped at each culture's cubes
    assert dialog.counter.text() == "0 of 3 shared" and not dialog.ok.isEnabled()
    arrow(yellow, times=3)  # the third click stops at the cap
    assert yellow.value() == 2 and dialog.counter.text() == "2 of 3 shared"
    assert not dialog.ok.isEnabled()
    arrow(green, times=2)
    assert dialog.counter.text() == "4 of 3 shared" and not dialog.ok.isEnabled()
    arrow(green, up=False)
    assert dialog.counter.text() == "3 of 3 shared" and dialog.ok.isEnabled()
    click(dialog.ok)
    assert dialog.answer == {"yellow": 2, "green": 1}


def test_split_typed_and_accepted_with_enter(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, SPLIT)
    green = dialog.spins["green"]
    green.setFocus()
    green.selectAll()
    qtbot.keyClicks(green, "3")
    assert dialog.counter.text() == "3 of 3 shared"
    key(qtbot, green, Qt.Key.Key_Return)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer == {"green": 3}


PAYMENT = Question.payment(
    "feed",
    "Feed the Caribou: 2 owed (H1)",
    2,
    [("energy", 1), ("elder", 3)],
    alternatives=["slaughter"],
    owner="green",
    section="H1",
)


def test_payment_mixing_means(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, PAYMENT, name=NAMES.get)
    assert dialog.spins["energy"].maximum() == 1 and dialog.spins["elder"].maximum() == 2
    assert dialog.counter.text() == "paid 0 of 2" and not dialog.ok.isEnabled()
    arrow(dialog.spins["energy"], times=2)
    assert dialog.counter.text() == "paid 1 of 2" and not dialog.ok.isEnabled()
    arrow(dialog.spins["elder"])
    assert dialog.counter.text() == "paid 2 of 2" and dialog.ok.isEnabled()
    click(dialog.ok)
    assert dialog.answer == {"energy": 1, "elder": 1}


def test_payment_alternative_button(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, PAYMENT)
    button = dialog.alternatives["slaughter"]
    assert button.text() == "Slaughter instead" and button.isEnabled()
    click(button)
    assert dialog.result() == QuestionDialog.DialogCode.Accepted
    assert dialog.answer == "slaughter"


def test_escape_cancels(qtbot) -> None:  # noqa: ANN001
    dialog = shown(qtbot, SPLIT)
    arrow(dialog.spins["green"], times=3)
    key(qtbot, dialog.spins["green"], Qt.Key.Key_Escape)
    assert dialog.result() == QuestionDialog.DialogCode.Rejected and dialog.answer is None


# ---- the modal dialog, answered by a scripted person ----------------------------------------
class Person:
    """Answers the modal question dialogs as they open, one script each; a dialog the script
    fails on, or one nobody expected, is cancelled so that no test waits forever."""

    def __init__(self, *scripts: Callable[[QuestionDialog], None], limit: float = 10.0) -> None:
        self.scripts = list(scripts)
        self.seen: list[Question] = []
        self.errors: list[BaseException] = []
        self.ticks = int(limit * 1000 / 20)
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def _look(self) -> None:
        self.ticks -= 1
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QuestionDialog) or dialog.property("answered"):
            if self.ticks <= 0 and dialog is not None:
                self.errors.append(AssertionError("a dialog was left open"))
                dialog.reject()
            return
        dialog.setProperty("answered", True)
        self.seen.append(dialog.question)
        if not self.scripts:
            self.errors.append(AssertionError(f"not expected: {dialog.question.describe()}"))
            dialog.reject()
            return
        try:
            self.scripts.pop(0)(dialog)
        except BaseException as exc:  # noqa: BLE001 - reported by done()
            self.errors.append(exc)
        if dialog.isVisible():
            dialog.reject()

    def done(self) -> None:
        self.timer.stop()
        if self.errors:
            raise self.errors[0]
        assert not self.scripts, "a question expected was never asked"


def test_ask_returns_the_canonical_answer_or_none(qtbot) -> None:  # noqa: ANN001
    def choose(dialog: QuestionDialog) -> None:
        tick(dialog.choices[0])
        tick(dialog.choices[2])
        click(dialog.ok)

    person = Person(choose, lambda dialog: click(dialog.buttons.buttons()[-1]))
    assert ask(None, DISCARD) == ("goggles", "dogs")
    assert ask(None, DISCARD) is None  # cancelled
    person.done()


# ---- through the phase panel, on a real Greenland game ------------------------------------------
def greenland_window(table, tmp_path: Path, position: str):  # noqa: ANN001, ANN201
    """The window showing a Greenland game whose table is the position (TOML text)."""
    path = tmp_path / "position.toml"
    path.write_text(position)
    game = new_game(find_module("greenland"), seed=1, position=str(path))
    table.window.show_game(game)
    table.show()
    panel = table.window.phase_panel
    panel.auto_bots = False
    panel.ask = True  # the test window asks nothing of its own; the panel asks the questions
    return table.window, panel


OVER_BY_TWO = """
[cultures.yellow]
unassigned = 3
elders = {3 = 1}
hand = ["Slit Goggles", "Toggle-head Harpoon", "Caribou"]
"""


def test_panel_b2_discard_of_two_cards_through_the_subset_dialog(table, tmp_path) -> None:  # noqa: ANN001
    window, panel = greenland_window(table, tmp_path, OVER_BY_TWO)
    state = table.live.state
    held = list(state.places["hand_yellow"].contents)
    assert len(held) == 3

    def discard(dialog: QuestionDialog) -> None:
        q = dialog.question
        assert q.kind == "subset" and q.low == q.high == 2 and q.owner == "yellow"
        assert dialog.owner_label.text() == "For Thule (yellow)"
        assert dialog.section_label.text() == "Rulebook B2"
        names = [b.text() for b in dialog.choices]
        assert "Slit Goggles" in names and "Toggle-head Harpoon" in names
        assert not dialog.ok.isEnabled()
        tick(dialog.choices[names.index("Slit Goggles")])
        assert not dialog.ok.isEnabled()
        tick(dialog.choices[names.index("Toggle-head Harpoon")])
        assert dialog.counter.text() == "2 of 2 chosen" and dialog.ok.isEnabled()
        click(dialog.ok)

    person = Person(discard)
    step = Action("Thule discards down", "discard", {"colour": "yellow"})
    ran = panel.run(step)
    person.done()
    assert ran, table.status()
    assert state.places["hand_yellow"].contents == [
        p for p in held if "goggles" not in p and "harpoon" not in p
    ]
    assert state.pieces["slit-goggles"].place == "out_of_game"
    assert (
        "yellow discards Slit Goggles, Toggle-head Harpoon" in table.live.entries[-1].command.label
    )


def test_panel_cancelled_changes_nothing(table, tmp_path) -> None:  # noqa: ANN001
    window, panel = greenland_window(table, tmp_path, OVER_BY_TWO)
    seq = table.live.seq
    person = Person(lambda dialog: qtbot_escape(dialog))
    step = Action("Thule discards down", "discard", {"colour": "yellow"})
    assert not panel.run(step)
    person.done()
    assert table.live.seq == seq
    assert "stopped; nothing changed" in table.status()


def qtbot_escape(dialog: QuestionDialog) -> None:
    QTest.keyClick(dialog, Qt.Key.Key_Escape)


# F2: three cultures on Walrus; green (most iron, first in order) must attack, two victims
WALRUS = """
phase = "negotiation"
first_player = "green"
[rows.north]
cold = ["Walrus"]
[cultures.yellow]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 2}
iron = 1
[cultures.green]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 3}
iron = 1
[cultures.red]
unassigned = 1
hunters = {Walrus = 1}
"""


def step_named(panel, start: str) -> Action:  # noqa: ANN001
    for step in panel.offered:
        if step.label.startswith(start):
            return step
    raise AssertionError(f"no step {start!r} in {[s.label for s in panel.offered]}")


def cubes_on_walrus(state, colour: str) -> int:  # noqa: ANN001
    return len(Greenland(state, Cards.of(find_module("greenland"))).hunters_on("walrus", colour))


def test_panel_the_hits_of_an_attack_through_the_split_dialog(table, tmp_path) -> None:  # noqa: ANN001
    window, panel = greenland_window(table, tmp_path, WALRUS)
    state = table.live.state
    before = {c: cubes_on_walrus(state, c) for c in ("red", "yellow")}
    assert before == {"red": 1, "yellow": 2}
    asked: list[str] = []

    def share(dialog: QuestionDialog) -> None:
        q = dialog.question
        asked.append(q.text)
        assert q.key == "targets" and q.kind == "split" and q.owner == "green"
        assert dialog.owner_label.text() == "For Tunit (green)"
        assert dialog.counter.text() == "0 of 2 shared" and not dialog.ok.isEnabled()
        assert dialog.spins["red"].maximum() == 1 and dialog.spins["yellow"].maximum() == 2
        labels = {g: label.text() for g, label in dialog.group_labels.items()}
        assert labels == {"red": "Norse (red)", "yellow": "Thule (yellow)"}  # as seats are shown
        arrow(dialog.spins["yellow"])
        assert not dialog.ok.isEnabled()
        arrow(dialog.spins["yellow"])
        assert dialog.counter.text() == "2 of 2 shared" and dialog.ok.isEnabled()
        QTest.keyClick(dialog.spins["yellow"], Qt.Key.Key_Return)  # Enter accepts

    def keep_the_iron(dialog: QuestionDialog) -> None:
        q = dialog.question
        asked.append(q.text)
        assert q.key == "pay_iron_yellow" and q.kind == "yes_no" and q.owner == "yellow"
        click(dialog.no)

    # the loss of yellow's cubes was first seen with a stand-in split (one hit each); the
    # person is asked it as the split given makes it: two cubes
    person = Person(share, keep_the_iron)
    table.live.random.force_faces([1, 1, 5])
    ran = panel.run(step_named(panel, "Green must attack on Walrus"))
    person.done()
    assert ran, table.status()
    assert "loss of 2 cubes" in asked[-1]
    assert cubes_on_walrus(state, "yellow") == before["yellow"] - 2
    assert cubes_on_walrus(state, "red") == before["red"]
    assert table.live.entries[-1].command.label.endswith("2 hits; Yellow loses a cube and a cube")
