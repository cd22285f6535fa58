"""The window's hold on a live game: a seat's client session (tabletop/online/client.py).

``OnlineSession`` is the window's ``TableSession`` for a seat of a game hosted on Redis. The
table on screen is the client's view of the game (the seat's projection replayed entry by
entry; a card the seat may not see is a back with a stand-in id). The seat's stream is read
on a thread of its own (``StreamThread``, tabletop/online/reader.py: XREAD BLOCK from its
cursor, with its own connection) that hands each batch of decoded messages to the Qt thread
by a queued signal; the Qt thread applies them to the client's table (``Client.take``) and
the scene repaints, so the table is only ever touched on the Qt thread, and a slow or lost
Redis never holds the window up. Nothing is played on this table directly: a drag, a flip
or a turn becomes a ``moves`` request to the referee and a procedure's button an
``action`` request; the referee runs them and the entries it appends come back on the
stream like anyone else's. A refusal comes back as an
``error`` for the request: it is said in the status bar and the pieces moved go back where
the table has them. A question for the seat is put in the question dialog (``question``
signal) and its answer goes back as a request.

Requests are sent from the Qt thread on the client's own connection: an XADD is one short
round trip made on a player's gesture (never periodically), its reply (the request's id) is
needed at once to put the pieces back if the referee refuses it, and the connection gives up
after ``REQUEST_TIMEOUT`` (no request is sent while the reader knows Redis is away; a
cluster's slot that is still moving after that long leaves it unsent too), so a frozen
server holds a gesture up for at most that long.

Edit > Undo and Redo are requests too: the referee takes a move back under the take-back
policy of tabletop/persist/takeback.py (the seat's own last move at once, another's only
with every other seat's yes). The dice tray, shuffles, the rules assistant's settings,
notes and the session record belong to the referee's full table and are not offered here.

A game whose dice and shuffles are committed (docs/fairness.md) takes each seat's random
contribution: the client draws this seat's on this machine and sends it as soon as it has
been shown the referee's commitment, and the status bar says so and that the game waits for
the other seats' contributions. If the referee's commitment changes afterwards, or this
seat's contribution is not in its log as it was sent, the window says so and stops reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from rules_assist.driver import MOVES, Action
from rules_assist.questions import Question
from tabletop.core import Annotate, Command, Policy, Record
from tabletop.core.commands import touched_by
from tabletop.modules import Module
from tabletop.online.client import Client, UnfairReferee
from tabletop.online.reader import Batch, StreamReader
from tabletop.online.streams import LOST, OnlineError
from tabletop.persist import Game

from .session import TableSession

REQUEST_TIMEOUT = 1.0  # seconds a request (an XADD from the Qt thread) may wait for Redis
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


class StreamThread(QThread):
    """Runs a ``StreamReader`` on its own thread; its signals reach the Qt thread queued."""

    batch = Signal(int, object)  # (generation, [(message id, message), ...])
    connection = Signal(bool, str)  # the stream could (True) or could not (False, why) be read

    def __init__(self, reader: StreamReader, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reader = reader
        self.setObjectName(f"reader {reader.stream}")

    def run(self) -> None:
        try:
            self.reader.run(self.batch.emit, self.connection.emit)
        except Exception as exc:  # noqa: BLE001 - said in the window, not lost with the thread
            self.connection.emit(False, f"the stream's reader stopped: {exc}")

    def stop(self) -> None:
        """Stop reading and wait for the thread to end (within one block time)."""
        self.reader.stop()
        self.wait()


def _stop_reading(thread: StreamThread, *_: object) -> None:
    """Stop a session's reader and join its thread (the session is being destroyed)."""
    thread.stop()


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
        self.generation = 0  # batches read before the last "read again" are dropped
        self.reader = StreamReader(
            client.address, client.stream, client.last_id, node=(client.host, client.port)
        )
        client.on_resync.append(self._read_again)
        self.reader_thread = StreamThread(self.reader, self)
        self.reader_thread.batch.connect(self._take)
        self.reader_thread.connection.connect(self._connection)
        # A session let go without close() (an error between opening and showing it, a test
        # dropping it) would take its running thread down with it, which ends the program:
        # Qt deletes a QObject's children after saying it is destroyed, so stop and join the
        # thread then. The slot holds the thread and the reader, not the session.
        self.destroyed.connect(partial(_stop_reading, self.reader_thread))
        self.reader_thread.start()
        # what joining read already (a question waiting for the seat, what the game waits
        # for), once the window showing this session has connected to it
        QTimer.singleShot(0, self, self._take_read)
        if self._contributions is not None:
            QTimer.singleShot(0, self, self._say_waiting)

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
            text += " (CONNECTION LOST, retrying)"
        elif self.client.over:
            text += " (the game is over)"
        return text

    # ---- reading the stream (the reader's batches, on the Qt thread) -------------------
    def _take(self, generation: int, batch: Batch) -> None:
        """Apply a batch the reader read: entries onto the client's table (the scene follows
        its changes), then refusals and questions."""
        if generation != self.generation or self.reader.stopping:
            return  # read before the stream was started again, or after closing
        try:
            self.client.take(batch)
        except UnfairReferee as exc:
            self.reader.stop()  # nothing more is read from this referee
            self.message.emit(f"{exc}: this window stopped following the game")
            return
        except OnlineError as exc:
            self.message.emit(str(exc))
            return
        if self.client.table is not None and self.client.table is not self.game.table:
            self._adopt()  # read again from the start (a digest that differed): a new table
        self._take_read()

    def _take_read(self) -> None:
        """Say what the client has read and not yet said: refusals, questions, what the game
        waits for."""
        if not self.reader.stopping:
            self._refusals()
            self._questions()
            self._say_contributions()

    def _say_contributions(self) -> None:
        text = contribution_text(self.client)
        if text != self._contributions:
            if text is None:
                self.message.emit("Every seat has contributed to the dice and shuffles")
            else:
                self.message.emit(text)
            self._contributions = text

    def _read_again(self) -> None:
        """The client reads its stream again from the start: so does the reader."""
        self.generation += 1
        self.reader.restart(self.client.last_id, self.generation)

    def _connection(self, readable: bool, why: str) -> None:
        self._set_connected(readable, why)

    def _set_connected(self, connected: bool, why: str = "") -> None:
        if connected != self.connected:
            self.connected = connected
            text = self.online_text()
            self.message.emit(f"{text}: {why}" if why else text)
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
        if not self.connected:
            self.message.emit("Not sent: the connection to the game is lost (retrying)")
            return None
        try:
            return send()
        except LOST:
            self._set_connected(False)
            self.reader.recheck()  # the reader says when Redis can be reached again
            # the reply is what is missing: the request itself may have reached Redis
            self.message.emit(
                "No reply from the game's server: the request may still reach the referee"
                " (connection lost, retrying)"
            )
            return None
        except OnlineError as exc:  # a cluster's slot still moving: the request was not added
            self.message.emit(f"Not sent: {exc}")
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
        """Ask the referee to take back the table's last move (Edit > Undo, Ctrl+Z): the
        seat's own last move is taken back at once, another's only if every other seat says
        yes; a refusal comes back to the status bar."""
        return self._take_back("undo", self.client.undo)

    def redo(self) -> bool:
        """Ask the referee to put back the seat's own move it has just taken back."""
        return self._take_back("redo", self.client.redo)

    def _take_back(self, what: str, send: Callable[[], str]) -> bool:
        if self.read_only:
            self.message.emit(self.read_only_text)
            return False
        if self._question_first():
            return False
        if self._send(send) is None:
            return False
        self.message.emit(f"{what.capitalize()}: asked of the referee")
        return True

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
        """Stop the reader (its thread is joined) and let go of the connection."""
        self.reader_thread.stop()
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
    client = Client(address, timeout=REQUEST_TIMEOUT)
    client.moving_s = REQUEST_TIMEOUT  # a gesture never waits long on a cluster's moving slot
    deadline = time.monotonic() + timeout
    try:
        # the table with the referee's latest round of entries whole: a game's setup is
        # several entries, and a table shown before they are all in is not one it can read
        while not client.whole:
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
