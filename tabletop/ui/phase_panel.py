"""The phase panel: where the game stands and one button for the next procedure.

The module's ``phases`` hook says the turn, the phase, whose move it is and
which procedures come next. A button runs its procedure as one undoable
entry; when the procedure needs players' decisions (which elder dies, which
cards to discard, how the hits fall), the panel asks each typed question in
the dialog made for its kind (question_dialog.py) and runs it again with the
answers: nothing is decided silently for a person. A question whose owner is a
seat given to a bot is answered by that bot; "Let the bots play" plays the
bot seats' own moves (the module's ``bot_turn``) while one of them has
something to play; with ``auto_bots`` (the Game menu's "Bots play by
themselves") they play as soon as their turn comes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from rules_assist.phases import PhaseStatus, Step
from rules_assist.procedures import ChoiceNeeded, run_procedure
from rules_assist.questions import AnswerError, Question
from tabletop.core import TableError, TableState
from tabletop.modules.gamecode import import_function

from .question_dialog import ask
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
        session.bots_changed.connect(self.refresh)
        self.status: PhaseStatus | None = None
        self.auto_bots = False  # the bot seats play by themselves when their turn comes
        self._playing = False
        self._held = False  # after an undo or redo the bots wait for a person's next move
        self._ready: list[str] = []  # the bot seats with something to play, as last refreshed
        session.changed.connect(self._after_change)
        session.bots_changed.connect(self.schedule_bots)
        session.reset.connect(self.schedule_bots)  # back to the live table from the history
        self.refresh()

    def refresh(self) -> None:
        while self.buttons.count():
            widget = self.buttons.takeAt(0).widget()
            if widget is not None:
                widget.hide()  # gone at once, not only when the event loop deletes it
                widget.deleteLater()
        if self._status_of is None:
            self.title.setText("No phases")
            self.detail.setText(
                "This module has no rules assistant to lead the turn; play by hand."
            )
            self.status = None
            self._ready = []
            return
        status = self._status_of(self.session.state, self.session.module)
        self.status = status
        who = self.session.seat_name(status.to_move) if status.to_move else "everyone"
        self.title.setText(f"Turn {status.turn} · {status.phase_label}")
        if status.to_move in self.session.bot_seats:
            who += f" (bot: {self.session.bot_seats[status.to_move]})"
        self.detail.setText("\n".join([f"To move: {who}", *status.lines]))
        bots = self._ready = self.bots_to_play()
        if bots:
            names = ", ".join(self.session.seat_name(seat) for seat in bots)
            button = QPushButton(f"Let the bots play ({names})".replace("&", "&&"))
            button.setToolTip("The seats given to bots play their moves now")
            button.setDefault(True)
            button.setStyleSheet("font-weight: bold;")
            button.setEnabled(not self.session.read_only)
            button.clicked.connect(lambda _checked=False: self.play_bots())
            self.buttons.addWidget(button)
        for i, step in enumerate(status.steps):
            button = QPushButton(step.label.replace("&", "&&"))  # a '&' is not a shortcut key
            button.setToolTip(step.help)
            if i == 0 and not bots:
                button.setDefault(True)
                button.setStyleSheet("font-weight: bold;")
            button.setEnabled(not self.session.read_only)
            button.clicked.connect(lambda _checked=False, s=step: self.run(s))
            self.buttons.addWidget(button)

    # ---- bot seats ---------------------------------------------------------------------
    def bots_to_play(self) -> list[str]:
        """The bot seats with moves of their own to play now, the one to move first."""
        session = self.session
        if not session.bot_seats or self.status is None or session.bot_hook("bot_turn") is None:
            return []
        waiting = session.bot_hook("bot_waiting")
        seats = [s.id for s in session.game.header.seats]
        first = self.status.to_move
        if first in seats:
            start = seats.index(first)
            seats = seats[start:] + seats[:start]
        found = []
        for seat in seats:
            if seat not in session.bot_seats:
                continue
            if waiting is not None:
                if waiting(session.state, session.module, seat):
                    found.append(seat)
            elif seat == first:
                found.append(seat)
        return found

    def play_bots(self) -> int:
        """Let the bot seats play their moves while one has something to play; how many played."""
        session = self.session
        turn = session.bot_hook("bot_turn")
        if session.read_only or turn is None or self._playing:
            return 0
        played = 0
        self._playing = True
        self._held = False  # asked to play: an undo's hold is over
        try:
            for _ in range(4 * max(1, len(session.bot_seats))):  # each plays once a phase
                self.refresh()
                seats = self.bots_to_play()
                if not seats:
                    break
                seat = seats[0]
                try:
                    changed = turn(
                        session.table, session.module, seat, session.bot_of(seat), self.run
                    )
                except TableError as exc:
                    session.message.emit(f"{session.seat_name(seat)} (bot): {exc}")
                    break
                if not changed:
                    break
                played += 1
                session.message.emit(f"{session.seat_name(seat)} (bot) has played")
        finally:
            self._playing = False
        self.refresh()
        return played

    def _after_change(self, change: object) -> None:
        kind = getattr(getattr(change, "entry", None), "kind", "do")
        if kind in ("undo", "redo"):
            # else a bot would play again at once what was just undone; the panel's
            # "Let the bots play" (Ctrl+B) or a person's next move lets them go on
            self._held = True
            return
        if not self._playing:
            self._held = False
        self.schedule_bots()

    def schedule_bots(self) -> None:
        """With ``auto_bots``: when a bot seat's turn comes, let it play once the event loop is
        free (after the change that brought its turn has been drawn). Not after an undo or a
        redo until a person moves again."""
        ready = (
            self.auto_bots and not self._playing and not self._held and not self.session.read_only
        )
        if ready and self._ready:  # as the last refresh found them (it runs first on a change)
            QTimer.singleShot(0, self, self._play_by_themselves)

    def _play_by_themselves(self) -> None:
        if self.auto_bots and not self._held and self.play_bots():
            self.schedule_bots()

    def _bot_answer(self, step: Step, question: Question, state: TableState) -> Any:
        """The answer of the bot playing the question's owner (a question for the whole table:
        the seat whose step it is), or None when a person answers."""
        bot = self.session.bot_of(question.owner or step.actor)
        return None if bot is None else bot.answer(state, question)

    def _person_answer(self, step: Step, need: ChoiceNeeded) -> Any:
        """A person's answer: the scripted answerer's, or the one given in the question's
        dialog; None when there is none (the person cancelled, or the panel may not ask)."""
        if self.answerer is not None:
            return self.answerer(need)
        if not self.ask:
            self.session.message.emit(f"{step.label}: {need.question.describe()}")
            return None
        return ask(self, need.question, name=self.session.seat_name, title=step.label)

    def _run(self, step: Step, choices: dict[str, Any], answerer: Any = None) -> Any:
        session = self.session
        return run_procedure(
            session.table,
            step.actor or session.actor,
            step.procedure,
            name=step.name,
            choices=choices,
            answerer=answerer,
            **step.params,
        )

    def run(self, step: Step) -> bool:
        """Run a step's procedure, asking each choice it needs; True if it changed the table.

        The procedure asks its questions as it goes: a bot answers its seat's at once, on the
        table as the procedure has made it so far; a person's question stops the run (nothing
        changes), is asked in its dialog, and the procedure runs again with the answer. The
        people's questions thus come one after another, each as it stands after the answers
        before it (the loss of two cubes, not of the one a stand-in answer would have made); an
        answer is used only for the question exactly as it was put.
        """
        session = self.session
        given: dict[str, tuple[Question, Any]] = {}  # the people's answers, with their questions
        loose: dict[str, Any] = {}  # scripted answers only the procedure reads (its generous way)
        for _ in range(64):  # each round puts one more question; never forever

            def answerer(need: ChoiceNeeded, state: TableState) -> Any:
                question = need.question
                put = given.get(question.key)
                if put is not None and put[0] == question:
                    return put[1]
                answer = self._bot_answer(step, question, state)
                if answer is None:  # a person's, not yet put to them as it now stands
                    raise ChoiceNeeded(question)
                return answer

            try:
                change = self._run(step, {**self.answers, **loose}, answerer)
            except ChoiceNeeded as need:
                answer = self._person_answer(step, need)
                if answer is None:
                    if self.ask and self.answerer is None:
                        session.message.emit(f"{step.label}: stopped; nothing changed")
                    return False
                try:
                    given[need.key] = (need.question, need.question.parse(answer))
                except AnswerError:  # a scripted answer in a form the procedure itself reads
                    loose[need.key] = answer
                continue
            except TableError as exc:
                session.message.emit(f"{step.label}: {exc}")
                return False
            if change is not None:
                session.message.emit(change.entry.command.describe())
            self.refresh()
            return change is not None
        session.message.emit(f"{step.label}: its questions keep changing; nothing changed")
        return False
