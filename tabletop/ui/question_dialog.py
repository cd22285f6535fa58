"""The dialog that asks a procedure's typed question (rules_assist/questions.py), one made per kind.

- ``one_of``: radio buttons with the options' labels (a list when there are many);
- ``yes_no``: Yes and No buttons, the safe answer (``Question.safe``: No unless the question
  says Yes) the default button, and no button takes Enter for itself when focused, so Enter never
  picks the other;
- ``subset``: a check box per option and a counter ("2 of 2 chosen"); OK only when the
  number chosen is within the question's limits;
- ``split``: a spin box per group, capped at the group's cap, and a running total
  ("3 of 3 shared"); OK only when the whole number is shared;
- ``payment``: a spin box per means, capped at what is available, a running "paid 2 of 2",
  and each alternative as a button of its own ("Slaughter instead").

The dialog says whose question it is (the owner, by the seat's name when given a name
function) and the rulebook's section. The answer is the question's canonical value
(``Question.parse``); ``ask`` returns None when the person cancels. Enter accepts when the
answer fits, Esc cancels; a '&' in a label shows as itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# PySide6 makes a class (and its enums' Python types) when it is first asked for:
# the button box's class is read from QtWidgets when a question is asked
# (the window's start uses none of them).
from PySide6 import QtWidgets
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from rules_assist.questions import (
    ONE_OF,
    PAYMENT,
    SPLIT,
    SUBSET,
    YES_NO,
    AnswerError,
    Question,
)

NameOf = Callable[[str], str]
MANY_OPTIONS = 7  # more than this and a one_of question is a list, not radio buttons
ROWS_SHOWN = 9  # rows of check boxes or spin boxes before the body scrolls
QUIET = "color: #6b6b6b;"  # the section, a group's limit, a count still short
WRONG = "color: #b03030;"  # a count past the limit


def plain(text: str) -> str:
    """Text for a button or check box: a '&' shows as itself, not as a shortcut key."""
    return text.replace("&", "&&")


class QuestionDialog(QDialog):
    """Asks one question; ``answer`` holds the canonical value once accepted."""

    def __init__(
        self,
        question: Question,
        parent: QWidget | None = None,
        name: NameOf | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.question = question
        self.name = name
        self.answer: Any = None
        self.setWindowTitle(title or "A question")
        self.setMinimumWidth(380)
        self.setSizeGripEnabled(False)

        self.owner_label = QLabel(self._owner_text())
        self.owner_label.setTextFormat(Qt.TextFormat.PlainText)
        self.owner_label.setStyleSheet("font-weight: bold;")
        self.owner_label.setToolTip("Whose decision this is")
        self.section_label = QLabel(f"Rulebook {question.section}" if question.section else "")
        self.section_label.setTextFormat(Qt.TextFormat.PlainText)
        self.section_label.setStyleSheet(QUIET)
        self.section_label.setToolTip("The rulebook's section this question comes from")
        self.section_label.setVisible(bool(question.section))
        head = QHBoxLayout()
        head.addWidget(self.owner_label, 1)
        head.addWidget(self.section_label, 0, Qt.AlignmentFlag.AlignRight)

        self.text_label = QLabel(question.text)
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.counter = QLabel()  # "2 of 2 chosen", "3 of 3 shared", "paid 2 of 2"
        self.counter.setTextFormat(Qt.TextFormat.PlainText)
        self.counter.setAlignment(Qt.AlignmentFlag.AlignRight)

        self.buttons = QtWidgets.QDialogButtonBox()
        self.ok: QPushButton | None = None
        self.choices: list[QAbstractButton] = []  # radio buttons or check boxes, in option order
        self.list: QListWidget | None = None  # a long one_of question
        self.spins: dict[str, QSpinBox] = {}  # split and payment, by group
        self.group_labels: dict[str, QLabel] = {}
        self.alternatives: dict[str, QPushButton] = {}  # payment: answers instead of paying
        self.yes: QPushButton | None = None
        self.no: QPushButton | None = None

        layout = QVBoxLayout(self)
        layout.setSpacing(8)
        layout.addLayout(head)
        layout.addWidget(self.text_label)
        body = self._body()
        if body is not None:
            layout.addWidget(body, 1)
        layout.addWidget(self.counter)
        layout.addWidget(self.buttons)
        self.buttons.rejected.connect(self.reject)
        self._update()

    # ---- who and what ------------------------------------------------------------------
    def _owner_text(self) -> str:
        owner = self.question.owner
        return "For the whole table" if owner is None else f"For {self.seat(owner)}"

    def seat(self, seat: str) -> str:
        """A seat as the window names it: 'Thule (yellow)'; the id itself without a name."""
        named = self.name(seat) if self.name is not None else None
        return f"{named} ({seat})" if named and named != seat else seat

    def shown(self, option: str) -> str:
        """How an option or group reads: a seat by its name (as the owner is shown), else
        the question's label for it."""
        seat = self.seat(option)
        return seat if seat != option else self.question.label(option)

    # ---- the body, per kind --------------------------------------------------------------
    def _body(self) -> QWidget | None:
        kind = self.question.kind
        if kind == YES_NO:
            self.yes = self.buttons.addButton("Yes", QtWidgets.QDialogButtonBox.ButtonRole.YesRole)
            self.no = self.buttons.addButton("No", QtWidgets.QDialogButtonBox.ButtonRole.NoRole)
            self.yes.clicked.connect(lambda: self._finish(True))
            self.no.clicked.connect(lambda: self._finish(False))
            cancel = self.buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Cancel)
            safe = self.yes if self.question.safe_answer() else self.no
            for button in (self.yes, self.no, cancel):
                button.setAutoDefault(False)  # a focused button does not become the default
            safe.setDefault(True)
            self.counter.hide()
            return None
        self.ok = self.buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Ok)
        self.ok.setDefault(True)
        self.ok.clicked.connect(self._accept_chosen)
        if kind == PAYMENT:
            for alternative in self.question.alternatives:
                text = self.question.label(alternative)
                button = QPushButton(plain(f"{text[:1].upper()}{text[1:]} instead"))
                button.setAutoDefault(False)
                button.setToolTip(f"Do not pay: answer '{alternative}' instead")
                button.clicked.connect(lambda _c=False, a=alternative: self._finish(a))
                self.buttons.addButton(button, QtWidgets.QDialogButtonBox.ButtonRole.ActionRole)
                self.alternatives[alternative] = button
        self.buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        if kind == ONE_OF:
            self.counter.hide()
            return self._one_of()
        if kind == SUBSET:
            return self._subset()
        return self._shares()

    def _one_of(self) -> QWidget:
        options = self.question.options
        if len(options) > MANY_OPTIONS:
            self.list = QListWidget()
            for option in options:
                item = QListWidgetItem(self.shown(option))
                item.setData(Qt.ItemDataRole.UserRole, option)
                item.setToolTip(option)
                self.list.addItem(item)
            self.list.setCurrentRow(0)
            self.list.itemDoubleClicked.connect(lambda _item: self._accept_chosen())
            self.list.currentRowChanged.connect(lambda _row: self._update())
            rows = min(len(options), ROWS_SHOWN)
            self.list.setMinimumHeight(rows * self.list.sizeHintForRow(0) + 8)
            return self.list
        group = QButtonGroup(self)
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(4, 0, 4, 0)
        for i, option in enumerate(options):
            radio = QRadioButton(plain(self.shown(option)))
            radio.setToolTip(option)
            radio.setChecked(i == 0)
            group.addButton(radio, i)
            column.addWidget(radio)
            self.choices.append(radio)
        group.buttonToggled.connect(lambda *_: self._update())
        return box

    def _subset(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(4, 0, 4, 0)
        for option in self.question.options:
            check = QCheckBox(plain(self.shown(option)))
            check.setToolTip(option)
            check.toggled.connect(lambda _on: self._update())
            column.addWidget(check)
            self.choices.append(check)
        column.addStretch(1)
        return self._scrolling(box, len(self.question.options))

    def _shares(self) -> QWidget:
        q = self.question
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(4, 0, 4, 0)
        grid.setColumnStretch(0, 1)
        for row, (group, cap) in enumerate(q.groups):
            label = QLabel(self.shown(group))
            label.setTextFormat(Qt.TextFormat.PlainText)
            spin = QSpinBox()
            spin.setRange(0, max(0, min(cap, q.total)))
            spin.setMinimumWidth(64)
            spin.setAlignment(Qt.AlignmentFlag.AlignRight)
            limit = (
                f"takes at most {cap}" if q.kind == SPLIT else f"{cap} available"
            )  # as the rules give it
            spin.setToolTip(f"{self.shown(group)}: {limit}")
            spin.valueChanged.connect(lambda _v: self._update())
            label.setBuddy(spin)
            note = QLabel(f"at most {cap}" if q.kind == SPLIT else f"{cap} available")
            note.setStyleSheet(QUIET)
            grid.addWidget(label, row, 0)
            grid.addWidget(spin, row, 1)
            grid.addWidget(note, row, 2)
            self.spins[group] = spin
            self.group_labels[group] = label
        grid.setRowStretch(len(q.groups), 1)
        return self._scrolling(box, len(q.groups))

    def _scrolling(self, box: QWidget, rows: int) -> QWidget:
        if rows <= ROWS_SHOWN:
            return box
        area = QScrollArea()
        area.setWidget(box)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setMinimumHeight(ROWS_SHOWN * box.sizeHint().height() // rows)
        return area

    # ---- the answer as it stands ------------------------------------------------------------
    def chosen(self) -> Any:
        """What the widgets say now, before parsing (None when nothing is chosen)."""
        q = self.question
        if q.kind == ONE_OF:
            if self.list is not None:
                item = self.list.currentItem()
                return None if item is None else item.data(Qt.ItemDataRole.UserRole)
            return next(
                (o for o, b in zip(q.options, self.choices, strict=True) if b.isChecked()), None
            )
        if q.kind == SUBSET:
            return tuple(o for o, b in zip(q.options, self.choices, strict=True) if b.isChecked())
        if q.kind in (SPLIT, PAYMENT):
            return {g: spin.value() for g, spin in self.spins.items() if spin.value()}
        return None

    def valid(self) -> bool:
        """The answer as it stands fits the question."""
        value = self.chosen()
        if value is None:
            return False
        try:
            self.question.parse(value)
        except AnswerError:
            return False
        return True

    def _update(self) -> None:
        q = self.question
        if q.kind == SUBSET:
            n = len(self.chosen())
            want = str(q.low) if q.low == q.high else f"{q.low} to {q.high}"
            self.counter.setText(f"{n} of {want} chosen")
            if n > q.high:
                self.counter.setToolTip(f"Too many: uncheck {n - q.high}")
            elif n < q.low:
                self.counter.setToolTip(f"Check {q.low - n} more")
            else:
                self.counter.setToolTip("")
        elif q.kind in (SPLIT, PAYMENT):
            n = sum(self.chosen().values())
            if q.kind == SPLIT:
                self.counter.setText(f"{n} of {q.total} shared")
            else:
                self.counter.setText(f"paid {n} of {q.total}")
            self.counter.setToolTip(
                ""
                if n == q.total
                else f"{q.total - n} still to go"
                if n < q.total
                else f"{n - q.total} too many"
            )
        ok = self.valid()
        self.counter.setStyleSheet("" if ok else WRONG if self._over() else QUIET)
        if self.ok is not None:
            self.ok.setEnabled(ok)
            self.ok.setToolTip("" if ok else self.counter.toolTip() or "Choose an answer first")

    def _over(self) -> bool:
        """More chosen or shared than the question takes."""
        q = self.question
        if q.kind == SUBSET:
            return len(self.chosen()) > q.high
        if q.kind in (SPLIT, PAYMENT):
            return sum(self.chosen().values()) > q.total
        return False

    # ---- finishing ---------------------------------------------------------------------------
    def _accept_chosen(self) -> None:
        if self.valid():
            self._finish(self.chosen())

    def _finish(self, value: Any) -> None:
        try:
            self.answer = self.question.parse(value)
        except AnswerError:
            return
        self.accept()

    def keyPressEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.question.kind not in (
            YES_NO,
        ):
            self._accept_chosen()  # only when the answer fits; never a half answer
            return
        super().keyPressEvent(event)


def ask(
    parent: QWidget | None,
    question: Question,
    name: NameOf | None = None,
    title: str | None = None,
) -> Any:
    """Ask ``question`` in a modal dialog: its canonical answer, or None when cancelled."""
    dialog = QuestionDialog(question, parent, name=name, title=title)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.answer
    finally:
        dialog.deleteLater()
