"""A seat's side of a live game: its view of the table, kept from its stream, and its
requests to the referee (tabletop/online/referee.py).

``Client(address)`` logs in with the seat's credentials (a spectator's address reads the
public stream and sends nothing) and ``poll()`` reads the stream from where it stopped
(XREAD from its last id): the header builds an empty table of the game's seats, each entry
is replayed onto it (``Table.replay``) and the digest of the table after it compared with
the entry's. A digest that differs, or an entry number out of order, is said (``problems``)
and the client reads its stream again from the start (``resyncs``). An entry it already has
is skipped, so nothing is applied twice. ``poll`` is ``take`` of what ``read_stream`` reads;
a client whose thread must not wait on the network (the window) has the stream read on
another thread (reader.py) and only applies the batches handed over (``take``).

``act``, ``moves``, ``undo``, ``redo`` and ``answer`` send requests; the referee's refusals
arrive as ``errors``, its questions as ``questions``.

``BotClient(address, bot)`` plays its seat with one of the game's bots acting on the
client's own view (the same turn driver as a local table, on the table the seat sees).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from rules_assist.driver import MOVES, TERMINAL, Action, Driver
from rules_assist.questions import Question
from tabletop.core import Command, Entry, Table, TableError, TableState
from tabletop.core.randomness import Contribute, draw_contribution
from tabletop.modules import ModuleError, find_module
from tabletop.modules.gamecode import game_of
from tabletop.modules.revisions import module_for_game
from tabletop.persist import Header
from tabletop.persist.seatview import ViewDigests

from .streams import (
    LOST,
    MOVING,
    Address,
    OnlineError,
    decode,
    encode,
    question_from_dict,
    request_key,
    view_key,
)

MOVING_S = 60.0  # how long a request waits for a cluster's slot to settle on a node
BATCH = 500  # messages read at most at once (``read_stream``)


def connect(
    address: Address,
    timeout: float | None = None,
    node: tuple[str, int] | None = None,
) -> redis.Redis:
    """A connection with the seat's credentials, to the address's server or ``node`` (the
    node of a cluster that serves the game's slot now: the seat's user is on every node).
    ``timeout`` (seconds): no command waits longer for its reply (a frozen server is then a
    lost connection, TimeoutError), and a failed command is not sent again on its own (an
    XADD whose reply was lost could otherwise add the request twice)."""
    host, port = node if node is not None else (address.host, address.port)
    options: dict[str, Any] = {}
    if timeout is not None:
        options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
        options["retry"] = Retry(NoBackoff(), 0)
    return redis.Redis(
        host=host,
        port=port,
        username=address.user,
        password=address.password,
        decode_responses=True,
        **options,
    )


class UnfairReferee(OnlineError):
    """The referee's committed chance is not what it showed this seat before it contributed:
    the client stops playing."""


class Client:
    """``timeout``: see ``connect`` (None: wait for Redis as long as it takes).
    ``contribute``: draw and send the seat's contribution to a fair game's dice when shown
    the referee's commitment."""

    def __init__(
        self,
        address: Address | str,
        block_ms: int = 200,
        timeout: float | None = None,
        contribute: bool = True,
    ) -> None:
        self.address = Address.parse(address) if isinstance(address, str) else address
        a = self.address
        self.timeout = timeout
        self.moving_s = MOVING_S  # how long a request waits for a moving slot (a cluster)
        self.redis = self._connect(a.host, a.port)
        try:
            self.redis.ping()
        except redis.exceptions.AuthenticationError:
            raise OnlineError(f"{a.host}:{a.port}: the seat's user or password is wrong") from None
        except LOST as exc:  # refused, or no answer within ``timeout``
            raise OnlineError(f"{a.host}:{a.port}: cannot connect ({exc})") from None
        self.seat = a.seat
        self.stream = view_key(a.game, a.seat)
        self.requests = request_key(a.game, a.seat) if a.seat is not None else None
        self.block_ms = block_ms
        self.game: Any = None
        self.header: Header | None = None
        self.table: Table | None = None
        self.questions: list[tuple[str, Question]] = []
        self.answered: set[str] = set()
        self.errors: list[tuple[str, str]] = []  # (request id, text)
        self.problems: list[str] = []
        self.resyncs = 0
        self.over = False
        self.listeners: list[Callable[[Entry], None]] = []
        self.on_resync: list[Callable[[], None]] = []  # told when the stream is read again
        # committed dice and shuffles (docs/fairness.md): what this seat was shown and gave
        self.contribute = contribute  # draw and send this seat's contribution when asked
        self.commitment: str | None = None  # the first commitment this client was shown
        self.committed_seats: list[str] = []
        self.contribution: str | None = None  # this seat's, drawn here (None: not sent)
        self.contribution_request: str | None = None
        self.contribution_refused: str | None = None
        self.contributed: dict[str, str] = {}  # seat -> its contribution, as the referee said
        self.unfair: str | None = None
        self._reset()

    def _connect(self, host: str, port: int) -> redis.Redis:
        """The seat's connection to ``host:port`` (the join address's, or the node of a
        cluster that serves the game's slot now: the seat's user is on every node)."""
        self.host, self.port = host, port
        return connect(self.address, self.timeout, (host, port))

    def _moving(self, error: Exception) -> None:
        """The game's slot is moving to another node of a cluster: follow a MOVED reply to
        the node it names; otherwise (its keys half moved) wait a moment."""
        if isinstance(error, redis.exceptions.MovedError):
            old, self.redis = self.redis, self._connect(error.host, error.port)
            old.close()
        else:
            time.sleep(0.05)

    def _reset(self) -> None:
        self.last_id = "0-0"
        self.read_to_end = False  # the last read reached the stream's end (nothing more said)
        self.upto = 0  # the last entry of the referee's latest round of entries read
        self.table = None
        self.digests = ViewDigests()
        self.questions = []

    # ---- reading ----------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return self.table.seq if self.table is not None else 0

    def poll(self, block_ms: int | None = None) -> int:
        """Read what the stream has past the last message read (waiting up to ``block_ms``);
        how many messages were read."""
        if self.unfair is not None:
            raise UnfairReferee(self.unfair)
        wait = self.block_ms if block_ms is None else block_ms
        try:
            found = read_stream(self.redis, self.stream, self.last_id, wait)
        except MOVING as error:  # nothing read: read again on the slot's node
            self._moving(error)
            return 0
        return self.take(found)

    def take(self, messages: Iterable[tuple[str, dict[str, Any]]]) -> int:
        """Apply messages read from the stream past ``last_id`` (its id and the decoded
        message, in the stream's order); how many were taken. A message that does not fit
        starts the stream again from the start (``resync``) and the rest are left."""
        read = 0
        if self.unfair is not None:
            raise UnfairReferee(self.unfair)
        batch = list(messages)
        for message_id, message in batch:
            read += 1
            self.last_id = message_id
            if not self._take(message):
                self.resync()
                return read
        self.read_to_end = len(batch) < BATCH
        if self.read_to_end:  # the end of the stream as it was read: all said is known
            self._contribute()
        return read

    @property
    def whole(self) -> bool:
        """The stream is read to its end and the table holds the referee's latest round of
        entries whole: a table the game can read (not a setup's first entries only)."""
        return self.table is not None and self.read_to_end and self.table.seq >= self.upto

    def resync(self) -> None:
        """Read the whole stream again, from the start, onto an empty table."""
        self.resyncs += 1
        self._reset()
        for listener in self.on_resync:
            listener()

    def _take(self, message: dict[str, Any]) -> bool:
        kind = message.get("type")
        if kind in ("header", "entry") and isinstance(message.get("upto"), int):
            self.upto = max(self.upto, message["upto"])
        if kind == "header":
            self.header = Header.from_dict(message["header"])
            self.table = Table(TableState(self.header.seats), policy=self.header.policy)
            if self.game is None:
                self.game = _game_of(self.header)
            if self.header.randomness is not None:
                self.committed_seats = [s.id for s in self.header.seats]
                self._committed(str(self.header.randomness.get("commitment")), "the game's header")
            return True
        if kind == "commitment":
            self.committed_seats = [str(s) for s in message.get("seats", [])]
            self._committed(str(message.get("commitment")), "the referee's commitment")
        elif kind == "contributed":
            self._contributed(str(message.get("seat")), str(message.get("contribution")))
        elif kind == "entry":
            return self._entry(message)
        if kind == "question":
            qid = str(message.get("qid"))
            if qid not in self.answered:
                self.questions.append((qid, question_from_dict(message["question"])))
        elif kind == "error":
            request, text = str(message.get("request")), str(message.get("text"))
            self.errors.append((request, text))
            if request == self.contribution_request:
                self.contribution, self.contribution_refused = None, text
        elif kind == "over":
            self.over = True
        return True

    def _entry(self, message: dict[str, Any]) -> bool:
        if self.table is None:
            self.problems.append("an entry came before the game's header")
            return False
        seq = int(message.get("seq", 0))
        if seq <= self.table.seq:
            return True  # already applied
        if seq != self.table.seq + 1:
            self.problems.append(f"entry {seq} came after entry {self.table.seq}")
            return False
        try:
            entry = Entry.from_dict(message["entry"])
            self.table.replay(entry)
        except (TableError, KeyError) as exc:
            self.problems.append(f"entry {seq} does not fit this seat's table: {exc}")
            return False
        if self.digests.after(self.table.state, entry.command) != message.get("digest"):
            self.problems.append(f"the table after entry {seq} is not the referee's view of it")
            return False
        if entry.kind == "chance" and isinstance(entry.command, Contribute):
            self._contributed(entry.command.seat, entry.command.contribution)
        elif entry.draws and self.contribution is not None and self.seat not in self.contributed:
            self._unfair(
                f"entry {seq} rolls or shuffles before this seat's contribution is in the log"
            )
        for listener in self.listeners:
            listener(entry)
        return True

    # ---- committed dice and shuffles ----------------------------------------------------
    def _unfair(self, text: str) -> None:
        self.unfair = f"the referee's dice and shuffles cannot be trusted: {text}; stop playing"
        raise UnfairReferee(self.unfair)

    def _committed(self, commitment: str, where: str) -> None:
        """A commitment shown: the first one is kept; any other afterwards is the referee's
        seed changed."""
        if self.commitment is None:
            self.commitment = commitment
        elif commitment != self.commitment:
            self._unfair(
                f"{where} commits to {commitment[:16]}…, but {self.commitment[:16]}… was shown"
                " before this seat contributed (the secret seed was changed)"
            )

    def _contributed(self, seat: str, contribution: str) -> None:
        if seat == self.seat and self.contribution not in (None, contribution):
            self._unfair(
                f"the log gives this seat's contribution as {contribution[:16]}…, but it sent"
                f" {str(self.contribution)[:16]}…"
            )
        self.contributed.setdefault(seat, contribution)

    @property
    def waiting_for(self) -> list[str]:
        """The seats whose contributions to the committed dice and shuffles are not in yet
        (empty for a game without them, and once all are in)."""
        if self.commitment is None:
            return []
        return [s for s in self.committed_seats if s not in self.contributed]

    def _contribute(self) -> None:
        """Draw this seat's contribution here and send it, once the commitment was shown and
        the game waits for it."""
        if (
            not self.contribute
            or self.seat is None
            or self.seat not in self.waiting_for
            or self.contribution is not None
            or self.contribution_refused is not None
        ):
            return
        contribution = draw_contribution()
        self.contribution_request = self.send_contribution(contribution)
        self.contribution = contribution

    # ---- requests ---------------------------------------------------------------------
    def _send(self, request: dict[str, Any]) -> str:
        if self.requests is None:
            raise OnlineError("a spectator sends no requests")
        message = encode({"seat": self.seat, **request})
        deadline = time.monotonic() + self.moving_s
        while True:
            try:
                return str(self.redis.xadd(self.requests, message))
            except MOVING as error:  # not added: add it on the slot's node
                if time.monotonic() > deadline:
                    raise OnlineError(
                        f"the game's slot did not settle in {self.moving_s:g} s"
                    ) from None
                self._moving(error)

    def act(self, action: Action) -> str:
        """Ask for one of the seat's actions, made on the table as it is after entry
        ``seq`` (refused if the table has moved on by the time the referee reads it)."""
        return self._send(
            # params as plain data (an action without any carries the driver's read-only {})
            {"kind": "action", "name": action.name, "params": dict(action.params), "at": self.seq}
        )

    def moves(self, commands: list[Command]) -> str:
        return self._send(
            {"kind": "moves", "moves": [c.to_dict() for c in commands], "at": self.seq}
        )

    def send_contribution(self, contribution: str) -> str:
        """Send a contribution to the committed dice and shuffles, made against the commitment
        shown (a client draws and sends its seat's own by itself: ``contribute``)."""
        return self._send(
            {"kind": "contribute", "contribution": contribution, "commitment": self.commitment}
        )

    def undo(self) -> str:
        """Ask to take back the table's last move (the referee's take-back policy decides:
        the seat's own last move at once, another's only if every other seat agrees)."""
        return self._send({"kind": "undo", "at": self.seq})

    def redo(self) -> str:
        """Ask to put back the seat's own move it has just taken back."""
        return self._send({"kind": "redo", "at": self.seq})

    def answer(self, qid: str, value: Any) -> str:
        self.answered.add(qid)
        self.questions = [(q, question) for q, question in self.questions if q != qid]
        return self._send({"kind": "answer", "qid": qid, "answer": value})

    def close(self) -> None:
        self.redis.close()


def read_stream(
    connection: redis.Redis, stream: str, after: str, block_ms: int = 0, count: int = BATCH
) -> list[tuple[str, dict[str, Any]]]:
    """The messages of ``stream`` past id ``after`` (waiting up to ``block_ms`` for one when
    there are none; 0: not waiting), each as its id and its decoded message."""
    found = connection.xread({stream: after}, block=block_ms or None, count=count)
    return [(mid, decode(fields)) for _key, messages in found or [] for mid, fields in messages]


def _game_of(header: Header) -> Any:
    try:
        module, _warnings = module_for_game(find_module(header.module), header.decks)
    except ModuleError as exc:
        raise OnlineError(f"the game's module {header.module!r} is not here: {exc}") from None
    return game_of(module)


class BotClient(Client):
    """A seat played by one of the game's bots on the client's view of the table."""

    def __init__(self, address: Address | str, bot: str = "random", seed: int = 0) -> None:
        super().__init__(address)
        if self.seat is None:
            raise OnlineError("a bot needs a seat's address, not a spectator's")
        self.bot_name, self.seed = bot, seed
        self.bot: Any = None
        self.sent: str | None = None  # the request waiting for its entries (or refusal)
        self.sent_at = 0
        self.failed: set[tuple[str, str]] = set()
        self.failed_at = -1
        # entry number seen -> when the request made on it left (time.monotonic(), one clock
        # for every process of the machine: the benchmark's parties each run in their own)
        self.sent_times: dict[int, float] = {}
        self.unready: str | None = None  # why the table as read so far cannot be played on

    def step(self) -> None:
        """Read the stream, then answer a question, or act when it is this seat's turn (only
        on the table as the stream has it to its end: a table half read, its setup's entries
        not all in, is not one to play on)."""
        self.poll()
        if self.table is None or self.game is None or not self.whole or not self.seq:
            return
        if self.bot is None:
            self.bot = self.game.bots[self.bot_name](self.seed)
        if self.questions:
            qid, question = self.questions[0]
            self.answer(qid, self.bot.answer(self.table.state, question))
            return
        if self.sent is not None:
            refused = [text for rid, text in self.errors if rid == self.sent]
            if self.seq == self.sent_at and not refused:
                return  # still waiting for the referee
            if refused and self.seq == self.sent_at:
                self.failed.add(self._sent_key)
            self.sent = None
        if self.over:
            return
        driver = Driver(self.game, self.table)
        try:
            to_move = driver.current_player()
        except TableError as exc:
            # The referee puts a move's entries on the stream one after another: read between
            # two of them (a setup laying out the places the game reads), the table is not yet
            # one the game can read. The next read brings the rest.
            self.unready = str(exc)
            return
        self.unready = None
        if to_move != self.seat:
            return
        if self.failed_at != self.seq:
            self.failed, self.failed_at = set(), self.seq
        actions = [a for a in driver.turn()[1] if _key(a) not in self.failed]
        if not actions:
            return
        action = self.bot.act(driver, self.seat, actions)
        self._sent_key = _key(action)
        leaving = time.monotonic()
        if action.kind == MOVES:
            self.table.checker = self.game.checker()
            try:
                commands = list(self.bot.moves(driver, self.seat))
            finally:
                self.table.checker = None
            if not commands:
                self.failed.add(self._sent_key)
                return
            self.sent = self.moves(commands)
        else:
            self.sent = self.act(action)
        self.sent_at = self.seq
        self.sent_times[self.seq] = leaving

    def play(self, timeout: float = 600.0, until: Callable[[], bool] | None = None) -> None:
        """Play until the game is over (or ``until()``); OnlineError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not self.over and (until is None or not until()):
            if time.monotonic() > deadline:
                why = f" (the table could not be read: {self.unready})" if self.unready else ""
                raise OnlineError(f"{self.seat}: the game did not end in {timeout:.0f} s{why}")
            try:
                self.step()
            except LOST:
                time.sleep(0.1)  # Redis is away (a restart): read on from the same place
        if self.table is not None and Driver(self.game, self.table).current_player() != TERMINAL:
            self.poll(0)


def _key(action: Action) -> tuple[str, str]:
    return (action.name or action.label, repr(sorted(action.params.items(), key=str)))
