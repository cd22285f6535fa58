"""The window's hold on a live game: a seat's client session (tabletop/online/client.py).

``OnlineSession`` is the window's ``TableSession`` for a seat of a game hosted on Redis. The
table on screen is the client's view of the game (the seat's projection replayed entry by
entry; a card the seat may not see is a back with a stand-in id), read from the seat's
stream by a timer on the Qt thread that never waits (XREAD without BLOCK). Nothing is
played on this table directly: a drag, a flip or a turn becomes a ``moves`` request to the
referee and a procedure's button an ``action`` request; the referee runs them and the
entries it appends come back on the stream like anyone else's. A refusal comes back as an
``error`` for the request: it is said in the status bar and the pieces moved go back where
the table has them. A question for the seat is put in the question dialog (``question``
signal) and its answer goes back as a request.

Undo, the dice tray, shuffles, the rules assistant's settings, notes and the session record
belong to the referee's full table and are not offered here.

A game whose dice and shuffles are committed (docs/fairness.md) takes each seat's random
contribution: the client draws this seat's on this machine and sends it as soon as it has
been shown the referee's commitment, and the status bar says so and that the game waits for
the other seats' contributions. If the referee's commitment changes afterwards, or this
seat's contribution is not in its log as it was sent, the window says so and stops reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Signal

from rules_assist.driver import MOVES, Action
from rules_assist.questions import Question
from tabletop.core import Annotate, Command, Policy, Record
from tabletop.core.commands import touched_by
from tabletop.modules import Module
from tabletop.online.client import Client, UnfairReferee
from tabletop.online.streams import LOST, OnlineError
from tabletop.persist import Game

from .session import TableSession

POLL_MS = 30  # how often the seat's stream is read (each read returns at once)
NOT_HERE = "{what} is the referee's, not a seat's, in a live game"
WAITING = "waiting for the other seats' contributions to the dice and shuffles"


def contribution_text(client: Client) -> str | None:
    """What the status bar says of the committed dice's contributions while the game waits
    for some (None once every seat's is in, or in a game without them)."""
    missing = client.waiting_for
    if not missing:
        return None
    others = [seat for seat in missing if seat != client.seat]
    seat = client.seat
    if seat is not None and (seat not in missing or client.contribution is not None):
        if not others:
            return "Your contribution was drawn here and sent: waiting for the referee to take it"
        return f"Your contribution was drawn here and sent: {WAITING} ({', '.join(others)})"
    return f"The game is {WAITING} ({', '.join(missing)})"


class OnlineSession(TableSession):
    """A seat's (or a spectator's) window on a live game: requests instead of commands."""

    remote = True
    question = Signal(str, object)  # (question id, Question) for the seat at the screen
    snap_back = Signal(object)  # the piece ids of a refused request: drawn where the table has them
    connection_changed = Signal(bool)  # the stream could (True) or could not (False) be read

    def __init__(self, client: Client, module: Module | None) -> None:
        if client.table is None or client.header is None:
            raise OnlineError(f"{client.address.game}: the game's header has not arrived yet")
        self.client = client
        super().__init__(Game(client.table, client.header), module, viewer=client.seat)
        self.connected = True
        self.answerer: Callable[[Question], Any] | None = None  # scripted answers (tests)
        self.pending: dict[str, list[str]] = {}  # request id -> the pieces it moves
        self._errors_seen = len(client.errors)
        self._asked: set[str] = set()
        self._contributions = contribution_text(client)  # what the game waits for, said
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self.timer.start()
        if self._contributions is not None:  # said once the window shows the game
            QTimer.singleShot(0, self._say_waiting)

    def _say_waiting(self) -> None:
        if self._contributions is not None:
            self.message.emit(self._contributions)

    # ---- what is shown ---------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        return self.history_seq is not None or self.client.seat is None

    @property
    def read_only_text(self) -> str:
        if self.client.seat is None and self.history_seq is None:
            return "A spectator watches: nothing is played from this window."
        return super().read_only_text

    def online_text(self) -> str:
        """The title's and the status bar's words: which game, as which seat, and the link."""
        a = self.client.address
        who = self.seat_name(a.seat) if a.seat is not None else "spectator"
        text = f"online: {a.game} as {who}"
        if not self.connected:
            text += " (CONNECTION LOST: trying again)"
        elif self.client.over:
            text += " (the game is over)"
        return text

    # ---- reading the stream ------------------------------------------------------------
    def poll(self) -> int:
        """Read what the seat's stream has now (never waiting); how many messages."""
        try:
            read = self.client.poll(0)
        except LOST:
            self._set_connected(False)
            return 0
        except UnfairReferee as exc:
            self.timer.stop()  # nothing more is read from this referee
            self.message.emit(f"{exc}: this window stopped following the game")
            return 0
        except OnlineError as exc:
            self.message.emit(str(exc))
            return 0
        self._set_connected(True)
        if self.client.table is not None and self.client.table is not self.game.table:
            self._adopt()  # read again from the start (a digest that differed): a new table
        self._refusals()
        self._questions()
        self._say_contributions()
        return read

    def _say_contributions(self) -> None:
        text = contribution_text(self.client)
        if text != self._contributions:
            if text is None:
                self.message.emit("Every seat has contributed to the dice and shuffles")
            else:
                self.message.emit(text)
            self._contributions = text

    def _set_connected(self, connected: bool) -> None:
        if connected != self.connected:
            self.connected = connected
            self.message.emit(self.online_text())
            self.connection_changed.emit(connected)

    def _adopt(self) -> None:
        table = self.client.table
        self.game.table.unsubscribe(self._on_change)
        self.game.table = table
        table.subscribe(self._on_change)
        self._log_reader = None
        self.pending.clear()
        self.message.emit(f"{self.online_text()}: read again from the start")
        self.reset.emit()

    def _refusals(self) -> None:
        errors = self.client.errors
        for request, text in errors[self._errors_seen :]:
            pids = self.pending.pop(request, None)
            self.message.emit(f"Refused by the referee: {text}")
            if pids:
                self.snap_back.emit(pids)
        self._errors_seen = len(errors)

    def _questions(self) -> None:
        for qid, question in list(self.client.questions):
            if qid in self._asked:
                continue
            self._asked.add(qid)
            if self.answerer is not None:
                self.answer(qid, self.answerer(question))
            else:
                self.question.emit(qid, question)

    def answer(self, qid: str, value: Any) -> bool:
        """Send the answer to question ``qid`` (None: not answered; it is put again at the
        seat's next move or button, which the referee would refuse while it waits)."""
        if value is None:
            self.message.emit(
                "The referee waits for your answer: it is asked again at your next move"
            )
            return False
        return self._send(lambda: self.client.answer(qid, value)) is not None

    def _question_first(self) -> bool:
        """A question the seat has left unanswered: put it again (True), instead of a request
        the referee would refuse while it waits."""
        waiting = [(q, question) for q, question in self.client.questions if q in self._asked]
        if not waiting:
            return False
        self.question.emit(*waiting[0])
        return True

    # ---- requests instead of commands -------------------------------------------------------
    def _send(self, send: Callable[[], str]) -> str | None:
        if self.client.seat is None:
            self.message.emit(self.read_only_text)
            return None
        try:
            return send()
        except LOST:
            self._set_connected(False)
            self.message.emit("Not sent: the connection to the game is lost")
            return None

    def submit(self, command: Command, force: str | None = None, actor: str | None = None) -> bool:
        """Ask the referee for ``command`` (as this seat); True once the request is sent. The
        table changes when the referee's entry arrives; a refusal puts the pieces back."""
        if self.read_only:
            self.message.emit(self.read_only_text)
            return False
        if force:
            self.message.emit("A live game's rules are the referee's: a move cannot be forced")
            return False
        if self._question_first():
            return False
        if self._complete is not None and self.table.policy.checking:
            command = self._complete(self.state, command)
        request = self._send(lambda: self.client.moves([command]))
        if request is None:
            return False
        self.pending[request] = sorted(touched_by(command).pieces)
        return True

    def request_action(self, action: Action) -> bool:
        """Ask the referee to run one of the seat's actions (a procedure's button)."""
        if self.read_only:
            self.message.emit(self.read_only_text)
            return False
        if action.kind == MOVES:
            self.message.emit(f"{action.label}: move the pieces by hand on the table")
            return False
        if self._question_first():
            return False
        if self._send(lambda: self.client.act(action)) is None:
            return False
        self.message.emit(f"{action.label}: asked of the referee")
        return True

    def _not_here(self, what: str) -> bool:
        self.message.emit(NOT_HERE.format(what=what))
        return False

    def undo(self) -> bool:
        return self._not_here("Undo")

    def redo(self) -> bool:
        return self._not_here("Redo")

    def roll(self, dice: list[str]) -> bool:
        return self._not_here("Rolling dice")

    def shuffle(self, place_id: str) -> bool:
        return self._not_here("Shuffling")

    def set_policy(self, policy: Policy) -> bool:
        return self._not_here("The rules assistant")

    def annotate(self, command: Annotate) -> bool:
        return self._not_here("Writing notes")

    def record(self, command: Record, actor: str = "table", *, quiet: bool = False) -> bool:
        return False if quiet else self._not_here("The session record")

    def set_viewer(self, seat: str | None) -> None:
        """The screen is the seat's own: its view holds only what the seat may see."""
        if seat == self.client.seat:
            super().set_viewer(seat)
        else:
            self.message.emit(
                f"This screen is {self.seat_name(self.client.seat)}'s in a live game:"
                " each player joins with their own seat's address"
            )

    def set_bot(self, seat: str, name: str | None) -> bool:
        return self._not_here("Giving a seat to a bot")

    def close(self) -> None:
        """Stop reading and let go of the connection."""
        self.timer.stop()
        self.client.close()


def joined(
    address: str,
    timeout: float = 10.0,
    waiting: Callable[[str], None] | None = None,
    patience: float = 24 * 3600.0,
) -> Client:
    """A client on the seat's stream once the game's header has arrived (OnlineError if it
    does not within ``timeout`` seconds: no such game on that server). A game set up only once
    every seat has contributed to its dice (``tabletop host --new ... --fair``) shows its
    commitment first: this seat's contribution is drawn and sent, ``waiting`` is told what
    the game waits for (after every read), and the header is awaited up to ``patience``."""
    client = Client(address)
    deadline = time.monotonic() + timeout
    try:
        while client.table is None:
            if client.commitment is not None:
                deadline = max(deadline, time.monotonic() + patience) if patience else deadline
                patience = 0.0
            if time.monotonic() > deadline:
                raise OnlineError(
                    f"game {client.address.game}: nothing on the server yet (is it hosted?)"
                )
            client.poll(100)
            text = contribution_text(client)
            if waiting is not None and text is not None:
                waiting(text)
    except LOST as exc:
        client.close()
        raise OnlineError(f"{client.address.host}:{client.address.port}: {exc}") from None
    except OnlineError:
        client.close()
        raise
    return client
