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


class Client:
    """``timeout``: see ``connect`` (None: wait for Redis as long as it takes)."""

    def __init__(
        self, address: Address | str, block_ms: int = 200, timeout: float | None = None
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
        for message_id, message in messages:
            read += 1
            self.last_id = message_id
            if not self._take(message):
                self.resync()
                return read
        return read

    def resync(self) -> None:
        """Read the whole stream again, from the start, onto an empty table."""
        self.resyncs += 1
        self._reset()
        for listener in self.on_resync:
            listener()

    def _take(self, message: dict[str, Any]) -> bool:
        kind = message.get("type")
        if kind == "header":
            self.header = Header.from_dict(message["header"])
            self.table = Table(TableState(self.header.seats), policy=self.header.policy)
            if self.game is None:
                self.game = _game_of(self.header)
            return True
        if kind == "entry":
            return self._entry(message)
        if kind == "question":
            qid = str(message.get("qid"))
            if qid not in self.answered:
                self.questions.append((qid, question_from_dict(message["question"])))
        elif kind == "error":
            self.errors.append((str(message.get("request")), str(message.get("text"))))
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
        for listener in self.listeners:
            listener(entry)
        return True

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
            {"kind": "action", "name": action.name, "params": action.params, "at": self.seq}
        )

    def moves(self, commands: list[Command]) -> str:
        return self._send(
            {"kind": "moves", "moves": [c.to_dict() for c in commands], "at": self.seq}
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
    connection: redis.Redis, stream: str, after: str, block_ms: int = 0, count: int = 500
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

    def step(self) -> None:
        """Read the stream, then answer a question, or act when it is this seat's turn."""
        self.poll()
        if self.table is None or self.game is None:
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
        if driver.current_player() != self.seat:
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
                raise OnlineError(f"{self.seat}: the game did not end in {timeout:.0f} s")
            try:
                self.step()
            except LOST:
                time.sleep(0.1)  # Redis is away (a restart): read on from the same place
        if self.table is not None and Driver(self.game, self.table).current_player() != TERMINAL:
            self.poll(0)


def _key(action: Action) -> tuple[str, str]:
    return (action.name or action.label, repr(sorted(action.params.items(), key=str)))
