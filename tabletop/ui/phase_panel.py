"""The phase panel: where the game stands and one button for the next procedure.

The module's ``phases`` hook says the turn, the phase, whose move it is and
which procedures come next. A button runs its procedure as one undoable
entry; when the procedure needs a player's decision (which elder dies,
whether to re-roll), the panel asks it in a dialog and runs it again with the
answer: nothing is decided silently for a person.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLabel, QPushButton, QVBoxLayout, QWidget

from rules_assist.phases import PhaseStatus, Step
from rules_assist.procedures import ChoiceNeeded, run_procedure
from tabletop.core import TableError
from tabletop.modules.setup import import_function

from .session import TableSession


class PhasePanel(QWidget):
    def __init__(self, session: TableSession, ask: bool = True) -> None:
        super().__init__()
        self.session = session
        self.ask = ask
        self.answers: dict[str, str] = {}  # answers given ahead (tests and scripted turns)
        self.answerer = (
            None  # a function (ChoiceNeeded) -> answer, for scripted turns; people get a dialog
        )
        module = session.module
        self._status_of = (
            import_function(module.phases_path, "module.phases")
            if module and module.phases_path
            else None
        )
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold; font-size: 15px;")
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QVBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addLayout(self.buttons)
        layout.addStretch(1)
        session.changed.connect(lambda _change: self.refresh())
        session.reset.connect(self.refresh)
        self.status: PhaseStatus | None = None
        self.refresh()

    def refresh(self) -> None:
        while self.buttons.count():
            widget = self.buttons.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        if self._status_of is None:
            self.title.setText("No phases")
            self.detail.setText(
                "This module has no rules assistant to lead the turn; play by hand."
            )
            self.status = None
            return
        status = self._status_of(self.session.state, self.session.module)
        self.status = status
        who = self.session.seat_name(status.to_move) if status.to_move else "everyone"
        self.title.setText(f"Turn {status.turn} · {status.phase_label}")
        self.detail.setText("\n".join([f"To move: {who}", *status.lines]))
        for i, step in enumerate(status.steps):
            button = QPushButton(step.label)
            button.setToolTip(step.help)
            if i == 0:
                button.setDefault(True)
                button.setStyleSheet("font-weight: bold;")
            button.setEnabled(not self.session.read_only)
            button.clicked.connect(lambda _checked=False, s=step: self.run(s))
            self.buttons.addWidget(button)

    def run(self, step: Step) -> bool:
        """Run a step's procedure, asking each choice it needs; True if it changed the table."""
        session = self.session
        choices = dict(self.answers)
        while True:
            try:
                change = run_procedure(
                    session.table,
                    step.actor or session.actor,
                    step.procedure,
                    name=step.name,
                    choices=choices,
                    **step.params,
                )
            except ChoiceNeeded as need:
                if self.answerer is not None:
                    choices[need.key] = self.answerer(need)
                    continue
                if not self.ask:
                    session.message.emit(f"{step.label}: {need.question}")
                    return False
                answer, ok = QInputDialog.getItem(
                    self, step.label, need.question, need.options, 0, False
                )
                if not ok:
                    session.message.emit(f"{step.label}: stopped; nothing changed")
                    return False
                choices[need.key] = answer
                continue
            except TableError as exc:
                session.message.emit(f"{step.label}: {exc}")
                return False
            if change is not None:
                session.message.emit(change.entry.command.describe())
            self.refresh()
            return change is not None
