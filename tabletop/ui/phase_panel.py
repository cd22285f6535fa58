"""The phase panel: where the game stands, read from the turn driver, and a button for each step.

The game's turn driver (rules_assist/driver.py ``Driver``: the game's ``flow``)
says the turn, the phase, who is to move (a seat, the table's own step, or
nobody when the game is over), lines for people and the actions open now. A
procedure's action is a button (the first the main "next" one, unless its procedure kills,
takes or attacks: then the first that does not) that runs the
procedure as one undoable entry; a seat's hand moves (an action of kind MOVES,
such as placing hunters) are made on the table, so the panel says what to do
instead of offering a button. When a procedure needs players' decisions (which
elder dies, which cards to discard, how the hits fall), the panel asks each
typed question in the dialog made for its kind (question_dialog.py) and runs
it again with the answers: nothing is decided silently for a person. A question
whose owner is a seat given to a bot is answered by that bot; "Let the bots
play" lets the seat to move play while it is a bot's (the game's bots:
``act``, ``moves`` and ``answer``, rules_assist/bots.py); with ``auto_bots``
(the Game menu's "Bots play by themselves") they play as soon as their turn
comes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from rules_assist.driver import CHANCE, MOVES, TERMINAL, Action, Driver, Status
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from rules_assist.questions import AnswerError, Question
from tabletop.core import Refused, TableError, TableState, bot_actor

from .question_dialog import ask
from .session import TableSession

MAX_BOT_ACTIONS = 64  # a bot seat's actions in one go, never forever


class PhasePanel(QWidget):
    def __init__(self, session: TableSession, ask: bool = True) -> None:
        super().__init__()
        self.session = session
        self.ask = ask
        self.answers: dict[str, str] = {}  # answers given ahead (tests and scripted turns)
        self.answerer = (
            None  # a function (ChoiceNeeded) -> answer, for scripted turns; people get a dialog
        )
        game = session.rules
        self.driver = (
            Driver(game, session.table)
            if game is not None and getattr(game, "flow", None) is not None
            else None
        )
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold; font-size: 15px;")
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.guidance = QLabel()  # what is done by hand on the table now (MOVES actions)
        self.guidance.setWordWrap(True)
        self.guidance.setTextFormat(Qt.TextFormat.PlainText)
        self.guidance.setStyleSheet(
            "background: palette(alternate-base); border: 1px solid palette(mid);"
            " border-radius: 3px; padding: 4px;"
        )
        self.guidance.hide()
        self.buttons = QVBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.guidance)
        layout.addLayout(self.buttons)
        layout.addStretch(1)
        session.changed.connect(lambda _change: self.refresh())
        session.reset.connect(self.refresh)
        session.bots_changed.connect(self.refresh)
        self.status: Status | None = None
        self.offered: tuple[Action, ...] = ()  # the actions shown as buttons, the main one first
        self.auto_bots = False  # the bot seats play by themselves when their turn comes
        self._playing = False
        self._held = False  # after an undo or redo the bots wait for a person's next move
        self._ready: list[str] = []  # the bot seats with something to play, as last refreshed
        session.changed.connect(self._after_change)
        session.bots_changed.connect(self.schedule_bots)
        session.reset.connect(self.schedule_bots)  # back to the live table from the history
        self.refresh()

    # ---- what is shown -----------------------------------------------------------------
    def read_status(self) -> Status | None:
        """The driver's status of the table on screen (an earlier one while looking back)."""
        if self.driver is None:
            return None
        if self.driver.table is not self.session.table:  # a live game's view read anew
            self.driver = Driver(self.driver.game, self.session.table)
        if self.session.read_only:
            return self.driver.flow.status(self.session.state)
        return self.driver.status()

    def who(self, to_move: str | None) -> str:
        """Who is to move, in words: a seat's name (and its bot), the table, or nobody."""
        if to_move == TERMINAL:
            return "nobody: the game is over"
        if not to_move or to_move == CHANCE:
            return "the table's step (anyone may take it)"
        who = self.session.seat_name(to_move)
        if to_move in self.session.bot_seats:
            who += f" (bot: {self.session.bot_seats[to_move]})"
        return who

    def tooltip(self, action: Action) -> str:
        """An action's help, and the rulebook section of its procedure."""
        spec = None
        if self.driver is not None and action.name:
            try:
                spec = self.driver.game.procedures.get(action.name)
            except ProcedureError:
                spec = None
        text = action.help or (spec.help if spec is not None else "")
        section = spec.section if spec is not None else ""
        if not section or text == section or f"({section})" in text:
            return text  # the help names the section already
        return f"{text}\nRulebook {section}" if text else f"Rulebook {section}"

    def destructive(self, action: Action) -> bool:
        """The action's procedure kills, takes or attacks with these parameters (its spec's
        ``destructive``): its button is never the default one."""
        if self.driver is None or not action.name:
            return False
        try:
            spec = self.driver.game.procedures.get(action.name)
        except ProcedureError:
            return False
        return spec is not None and spec.is_destructive(action.params)

    def refresh(self) -> None:
        while self.buttons.count():
            widget = self.buttons.takeAt(0).widget()
            if widget is not None:
                widget.hide()  # gone at once, not only when the event loop deletes it
                widget.deleteLater()
        status = self.read_status()
        self.status = status
        if status is None:
            self.title.setText("No phases")
            self.detail.setText(
                "This module has no rules assistant to lead the turn; play by hand."
            )
            self.guidance.hide()
            self.offered = ()
            self._ready = []
            return
        turn = f"Turn {status.turn} · " if status.turn is not None else ""
        self.title.setText(f"{turn}{status.phase_label}")
        self.detail.setText("\n".join([f"To move: {self.who(status.to_move)}", *status.lines]))
        by_hand = [a for a in status.actions if a.kind == MOVES]
        self.offered = tuple(a for a in status.actions if a.kind != MOVES)
        if by_hand:
            self.guidance.setText("\n".join(self.hand_text(a) for a in by_hand))
        self.guidance.setVisible(bool(by_hand))
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
        main = None if bots else next((a for a in self.offered if not self.destructive(a)), None)
        for action in self.offered:
            button = QPushButton(action.label.replace("&", "&&"))  # a '&' is not a shortcut key
            button.setToolTip(self.tooltip(action))
            if action is main:  # the main "next" one; never one that kills or attacks
                button.setDefault(True)
                button.setStyleSheet("font-weight: bold;")
            button.setEnabled(not self.session.read_only)
            button.clicked.connect(lambda _checked=False, a=action: self.run(a))
            self.buttons.addWidget(button)

    def hand_text(self, action: Action) -> str:
        """A seat's hand moves, as guidance: who, what, and how (on the table, by hand)."""
        who = f"{self.session.seat_name(action.actor)}: " if action.actor else ""
        how = f" — {action.help}" if action.help else ""
        return f"{who}{action.label}{how}. Move the pieces on the table; the rules check each move."

    # ---- bot seats ---------------------------------------------------------------------
    def bots_to_play(self) -> list[str]:
        """The bot seat to move now, if the seat to move is a bot's (the driver's to_move)."""
        session = self.session
        if not session.bot_seats or self.status is None:
            return []
        seat = self.status.to_move
        return [seat] if seat in session.bot_seats else []

    def play_bots(self) -> int:
        """Let the bot seats play their moves while one is to move; how many turns played."""
        session = self.session
        if session.read_only or self.driver is None or self._playing:
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
                    changed = self.bot_turn(seat, session.bot_of(seat))
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

    def bot_turn(self, seat: str, bot: Any) -> bool:
        """``bot`` plays ``seat``'s legal actions through the driver while the seat is to move;
        True if the table changed.

        Hand moves (MOVES) are the bot's ``moves``, each submitted as the seat's bot
        ('bot:red', a refused one ends the plan); a procedure runs as a button would (``run``),
        as the bot, so each question goes to the seat it belongs to. An action that changes
        nothing is not tried again until the table changes.
        """
        driver = self.driver
        if driver is None or bot is None:
            return False
        failed: set[tuple[str, str]] = set()
        changed = False
        for _ in range(MAX_BOT_ACTIONS):
            if driver.current_player() != seat:
                break
            actions = [a for a in driver.legal_actions() if _key(a) not in failed]
            if not actions:
                break
            action = bot.act(driver, seat, actions)
            if action.kind == MOVES:
                done = False
                for command in bot.moves(driver, seat):
                    try:
                        driver.table.submit(command, bot_actor(seat))
                    except Refused:
                        break
                    done = True
            else:
                done = self.run(action, actor=bot_actor(seat))
            if done:
                changed = True
                failed = set()
            else:
                failed.add(_key(action))
        return changed

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

    # ---- running an action -----------------------------------------------------------------
    def _bot_answer(self, action: Action, question: Question, state: TableState) -> Any:
        """The answer of the bot playing the question's owner (a question for the whole table:
        the seat whose action it is), or None when a person answers."""
        bot = self.session.bot_of(question.owner or action.actor)
        return None if bot is None else bot.answer(state, question)

    def _person_answer(self, action: Action, need: ChoiceNeeded) -> Any:
        """A person's answer: the scripted answerer's, or the one given in the question's
        dialog; None when there is none (the person cancelled, or the panel may not ask)."""
        if self.answerer is not None:
            return self.answerer(need)
        if not self.ask:
            self.session.message.emit(f"{action.label}: {need.question.describe()}")
            return None
        return ask(self, need.question, name=self.session.seat_name, title=action.label)

    def run(self, action: Action, actor: str | None = None) -> bool:
        """Run an action's procedure through the driver, asking each choice it needs; True if
        it changed the table. Hand moves (MOVES) are made on the table, not here.

        It runs as ``actor`` (a bot), else as the seat a player said they are (``acting_as``),
        else as the seat it runs for, else as the table.

        The procedure asks its questions as it goes: a bot answers its seat's at once, on the
        table as the procedure has made it so far; a person's question stops the run (nothing
        changes), is asked in its dialog, and the procedure runs again with the answer. The
        people's questions thus come one after another, each as it stands after the answers
        before it (the loss of two cubes, not of the one a stand-in answer would have made); an
        answer is used only for the question exactly as it was put.
        """
        session = self.session
        if self.driver is None:
            return False
        if session.read_only:
            session.message.emit(session.read_only_text)
            return False
        if session.remote:  # a live game: the referee runs it and asks the seat's questions
            return session.request_action(action)
        if action.kind == MOVES:
            session.message.emit(f"{action.label}: move the pieces by hand on the table")
            return False
        given: dict[str, tuple[Question, Any]] = {}  # the people's answers, with their questions
        loose: dict[str, Any] = {}  # scripted answers only the procedure reads (its generous way)
        for _ in range(64):  # each round puts one more question; never forever

            def answerer(need: ChoiceNeeded, state: TableState) -> Any:
                question = need.question
                put = given.get(question.key)
                if put is not None and put[0] == question:
                    return put[1]
                answer = self._bot_answer(action, question, state)
                if answer is None:  # a person's, not yet put to them as it now stands
                    raise ChoiceNeeded(question)
                return answer

            try:
                change = self.driver.apply(
                    action,
                    actor=actor or session.acting_as or action.actor or session.actor,
                    choices={**self.answers, **loose},
                    answerer=answerer,
                )
            except ChoiceNeeded as need:
                answer = self._person_answer(action, need)
                if answer is None:
                    if self.ask and self.answerer is None:
                        session.message.emit(f"{action.label}: stopped; nothing changed")
                    return False
                try:
                    given[need.key] = (need.question, need.question.parse(answer))
                except AnswerError:  # a scripted answer in a form the procedure itself reads
                    loose[need.key] = answer
                continue
            except TableError as exc:
                session.message.emit(f"{action.label}: {exc}")
                return False
            if change is not None:
                entry = change.entry
                session.message.emit(
                    session.entry_words(entry.seq, session.log_reader.describe(entry.command))
                )
            self.refresh()
            return change is not None
        session.message.emit(f"{action.label}: its questions keep changing; nothing changed")
        return False


def _key(action: Action) -> tuple[str, str]:
    """An action told apart from the others by its label and parameters."""
    return (action.label, repr(sorted(action.params.items(), key=str)))
