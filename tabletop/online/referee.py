"""The referee of a live game: the only holder of the whole table and the only writer of its
log, on Redis Streams (tabletop/online/streams.py names the keys and messages).

``Referee(path, url)`` opens the game's file (the full log) with its game's checker and
rules policy, makes the seats' and a spectator's ACL users (fresh random passwords, kept
beside the game file so a restarted referee can print the addresses again), and ``run()``
plays the game:

- the table's own steps (the game's chance steps) and the seats given to bots on the
  referee are taken here, as a local table takes them (rules_assist/simulate.py);
- every other seat's requests are read with XREAD BLOCK from the seat's request stream and
  run through the same pipeline as at a local table: a procedure through the game interface
  (``Driver.apply``, refused outside its phase, only the seat's own actions), hand moves
  through ``Table.submit`` under the game's policy. A question goes to the seat that owns
  it as a ``question`` message; its answer comes back as a request. An undo or redo
  request is run by the table's own undo under the take-back policy
  (tabletop/persist/takeback.py), asking the other seats where it needs their yes. A
  request the rules refuse, or one for another seat, is answered by an ``error`` message
  to its sender;
- every entry goes into the game file first (the table's writer), then, projected for each
  viewer (``SeatView``), onto that viewer's stream with its entry number and its view's
  digest.

Restart: the file is the truth. A restarted referee rebuilds the table from it, finds each
stream's last entry number and appends what is missing, and reads on from the request
positions it wrote down (``FILE.online``, written before each request is run, together with
how many entries the file had: a request whose entries reached the file is not run again).
The same positions go to ``tt:{G}:ref`` in Redis with each batch of stream entries.
Each stream is caught up on its own (no MULTI: Redis 7.0 drops, on reloading its AOF, the
transactions written after an ACL change).
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from rules_assist.driver import CHANCE, MOVES, TERMINAL, Action, Driver
from rules_assist.procedures import ChoiceNeeded
from rules_assist.questions import AnswerError, Question
from tabletop.core import CommandError, TableError, bot_actor, command_from_dict
from tabletop.core.randomness import CommittedDerivation, Contribute, Reveal, draw_contribution
from tabletop.modules import ModuleError, find_module
from tabletop.modules.gamecode import game_of
from tabletop.modules.revisions import module_for_game
from tabletop.modules.words import piece_words
from tabletop.persist import Game, atomic_write_text
from tabletop.persist.seatview import SeatView, seat_header, seat_view_of
from tabletop.persist.takeback import ASK, take_back_verdict

from .streams import (
    LOST,
    MOVING,
    Address,
    OnlineError,
    check_name,
    decode,
    encode,
    public_key,
    question_to_dict,
    referee_key,
    request_key,
    seat_rules,
    server_of,
    user_name,
    view_key,
)

BLOCK_MS = 500
REFEREE = "referee"  # who writes the reveal
RECONNECT_S = 120.0  # how long the referee waits for a Redis that went away
AWAY = LOST + MOVING


def connect(
    url: str, host: str | None = None, port: int | None = None, **options: Any
) -> redis.Redis:
    """The referee's connection (to ``host:port`` instead of the address's, with the same
    user: a cluster's other node). It never sends a command twice on its own (redis-py's
    retries could append an entry twice when a reply is lost): ``Referee._retry`` reads the
    streams' ends again and goes on from there."""
    url_host, url_port, user, password = server_of(url)
    return redis.Redis(
        host=host or url_host,
        port=port or url_port,
        username=user,
        password=password,
        retry=Retry(NoBackoff(), 0),
        **options,
    )


def cluster_nodes(connection: redis.Redis) -> list[tuple[str, int]] | None:
    """Every node (host, port) of the Redis Cluster ``connection`` is on, masters and replicas,
    as the cluster announces them (CLUSTER SHARDS); None when it is one Redis, not a cluster
    (INFO cluster says ``cluster_enabled:0``)."""
    if not int(connection.info("cluster").get("cluster_enabled", 0)):
        return None
    nodes: list[tuple[str, int]] = []
    for shard in connection.execute_command("CLUSTER", "SHARDS"):
        for node in _pairs(shard).get("nodes", []):
            fields = _pairs(node)
            if fields.get("health", "online") == "online":
                host = fields.get("endpoint") or fields.get("ip")
                if host and host != "?":
                    nodes.append((str(host), int(fields["port"])))
    return nodes


def slot_owner(connection: redis.Redis, game: str) -> tuple[int, str, int]:
    """The slot of ``game``'s keys (CLUSTER KEYSLOT, the same for all of them: the hash tag)
    and the master that serves it (CLUSTER SHARDS)."""
    slot = int(connection.execute_command("CLUSTER", "KEYSLOT", public_key(game)))
    for shard in connection.execute_command("CLUSTER", "SHARDS"):
        fields = _pairs(shard)
        ranges = [int(n) for n in fields.get("slots", [])]
        if any(lo <= slot <= hi for lo, hi in zip(ranges[::2], ranges[1::2], strict=True)):
            for node in fields.get("nodes", []):
                info = _pairs(node)
                if info.get("role") == "master" and info.get("health", "online") == "online":
                    return slot, str(info.get("endpoint") or info["ip"]), int(info["port"])
    raise OnlineError(f"game {game}: no node of the cluster serves its slot {slot}")


def _pairs(value: Any) -> dict[str, Any]:
    """A CLUSTER SHARDS record as a dict (redis-py gives a dict, or a flat list of pairs)."""
    if isinstance(value, dict):
        return {str(k.decode() if isinstance(k, bytes) else k): v for k, v in value.items()}
    items = list(value)
    return {
        str(k.decode() if isinstance(k, bytes) else k): v
        for k, v in zip(items[::2], items[1::2], strict=True)
    }


class Referee:
    def __init__(
        self,
        path: str | os.PathLike[str],
        url: str,
        name: str | None = None,
        bots: Iterable[str] = (),
        bot_name: str | None = None,
        seed: int = 0,
        say: Callable[[str], None] = print,
        reveal: bool = False,
    ) -> None:
        self.path = Path(path)
        self.say = say
        self.reveal = reveal
        probe = Game.open(self.path, writable=False)
        header = probe.header
        probe.close()
        if seat_view_of(header)[0]:
            raise OnlineError(f"{path}: this is a seat's copy; host the full game")
        try:
            module, _warnings = module_for_game(find_module(header.module), header.decks)
        except ModuleError as exc:
            raise OnlineError(f"{path}: the game's module cannot be loaded: {exc}") from None
        self.game = game_of(module)
        if self.game is None or self.game.flow is None:
            raise OnlineError(f"{path}: {header.module} has no turn flow to referee")
        self.session = Game.open(self.path, writable=True, checker=self.game.checker())
        self.table = self.session.table
        self.header = self.session.header
        self.seats = [s.id for s in self.header.seats]
        self.driver = Driver(self.game, self.table)
        self.sidecar = sidecar_of(self.path)
        saved = read_sidecar(self.sidecar)
        self.name = check_name(name or saved.get("game") or _default_name(self.path))
        if saved.get("game") not in (None, self.name):
            raise OnlineError(f"{path} is hosted as {saved['game']!r}; give that --name")
        unknown = [s for s in bots if s not in self.seats]
        if unknown:
            raise OnlineError(f"no seat {', '.join(unknown)} (seats: {', '.join(self.seats)})")
        factories = self.game.bots
        chosen = bot_name or next(iter(factories))
        if chosen not in factories:
            raise OnlineError(f"no bot {chosen!r} (bots: {', '.join(factories)})")
        self.bots = {s: factories[chosen](seed + i) for i, s in enumerate(self.seats) if s in bots}
        self.table_bot = factories[chosen](seed + 99)  # the table's own steps
        self.url = url
        self.redis = connect(url, decode_responses=True)
        self.host, self.port, _user, _password = server_of(url)
        # A cluster (any node's address): the game lives on the node that owns its slot
        self.nodes = cluster_nodes(self.redis)
        self.slot: int | None = None
        if self.nodes is not None:
            self.slot, host, port = slot_owner(self.redis, self.name)
            self._connect(host, port)
        self.passwords: dict[str, str] = dict(saved.get("passwords", {}))
        self.cursors: dict[str, str] = {s: "0-0" for s in self.seats}
        self.cursors.update(_restart_cursors(saved, len(self.table.entries)))
        words = piece_words(module)
        names = {s.id: s.name for s in self.header.seats}
        self.viewers: list[str | None] = [*self.seats, None]
        self.views = {v: SeatView(self.table, v, names, words) for v in self.viewers}
        self.published: dict[str | None, int] = {}
        self.questions = 0
        self._until: Callable[[], bool] | None = None

    # ---- bookkeeping beside the file ---------------------------------------------------
    def _write_sidecar(self, pending: tuple[str, str] | None) -> None:
        record = {
            "game": self.name,
            "passwords": self.passwords,
            "cursors": self.cursors,
            "entries": len(self.table.entries),
            "pending": list(pending) if pending else None,
        }
        # The game's log syncs at its checkpoints, not at every entry: this record, written
        # before every request, is kept as durable as the log and no more (the rename is left
        # to the system's write-back), so a move costs one sync of it rather than two.
        write_sidecar(self.sidecar, record, sync_folder=False)

    def _connect(self, host: str, port: int) -> None:
        """Do the game's work on ``host:port`` from now on (a cluster's node)."""
        old = self.redis
        self.redis = connect(self.url, host, port, decode_responses=True)
        self.host, self.port = host, port
        old.close()

    def _recover(self, error: Exception) -> None:
        """After a command that was not done: follow the game's slot to its new node (MOVED),
        or wait a moment (a migration half done, Redis away); the streams' ends are read
        again before anything more is written."""
        self.published.clear()
        if isinstance(error, redis.exceptions.MovedError):
            self.slot = error.slot_id
            self._connect(error.host, error.port)
            self.say(
                f"game {self.name}: its slot {error.slot_id} is now on {error.host}:{error.port}"
            )
        else:
            time.sleep(0.05 if isinstance(error, MOVING) else 0.1)

    # ---- users and addresses -----------------------------------------------------------
    def open_seats(self) -> dict[str | None, Address]:
        """Make (or keep) each viewer's ACL user; the join address of each. On a cluster the
        users are made on every node (ACL users are each node's own), so the seats can log
        in wherever the game's slot is served later (a failover, a slot moved)."""
        addresses = open_users(
            self.redis,
            self.url,
            self.name,
            self.viewers,
            self.passwords,
            (self.host, self.port),
            self.nodes,
        )
        self._write_sidecar(None)
        return addresses

    # ---- publishing --------------------------------------------------------------------
    def _last_published(self, viewer: str | None) -> int:
        """The last entry number on the viewer's stream; -1 when it has no header yet."""
        stream, top = view_key(self.name, viewer), "+"
        while True:
            page = self.redis.xrevrange(stream, max=top, count=100)
            for message_id, fields in page:
                message = decode(fields)
                if message.get("type") == "entry":
                    return int(message["seq"])
                if message.get("type") == "header":
                    return 0
                top = f"({message_id}"
            if len(page) < 100:
                return -1

    def publish(self) -> int:
        """Put every entry not yet on the streams there, as each viewer sees it (and the
        request positions); how many entries were new."""
        # One round trip, but no MULTI: Redis 7.0 refuses, when it reloads its AOF, every
        # transaction that was written after an ACL change (NOPERM), and it loses them. Each
        # stream is caught up on its own after a crash, so none is needed.
        pipe = self.redis.pipeline(transaction=False)
        new = 0
        # Every message of this round says how far it goes (``upto``): another client's read
        # may come between two of its messages, and a client shows (and a bot plays on) only
        # a table holding a round whole (a setup's several entries, not the first of them).
        upto = len(self.table.entries)
        for viewer in self.viewers:
            view = self.views[viewer]
            if viewer not in self.published:
                self.published[viewer] = self._last_published(viewer)
                if self.published[viewer] < 0:
                    header = seat_header(self.header, viewer, 0).to_dict()
                    pipe.xadd(
                        view_key(self.name, viewer),
                        encode({"type": "header", "header": header, "upto": upto}),
                    )
                    self.published[viewer] = 0
            view.follow()
            for entry, digest in view.entries[self.published[viewer] :]:
                message = {
                    "type": "entry",
                    "seq": entry.seq,
                    "entry": entry.to_dict(),
                    "digest": digest,
                    "upto": upto,
                }
                pipe.xadd(view_key(self.name, viewer), encode(message))
                self.published[viewer] = entry.seq
                new += 1
        pipe.hset(referee_key(self.name), mapping={f"req:{s}": c for s, c in self.cursors.items()})
        pipe.execute()
        return new

    def tell(self, seat: str, message: dict[str, Any]) -> None:
        self._retry(lambda: self.redis.xadd(view_key(self.name, seat), encode(message)))

    def refuse(self, seat: str, request_id: str, text: str) -> None:
        self.tell(seat, {"type": "error", "request": request_id, "text": text})

    # ---- the game ----------------------------------------------------------------------
    def over(self) -> bool:
        return self.driver.current_player() == TERMINAL

    def run(self, until: Callable[[], bool] | None = None, stop_when_over: bool = True) -> None:
        """Referee the game: until it is over (``stop_when_over``) or ``until()`` says so (a
        question waiting for its answer then is dropped with its request, run again later)."""
        self._until = until
        self._retry(self.publish)
        self._bots_contribute()
        failed: set[tuple[str, str]] = set()
        version = None
        while until is None or not until():
            player = self.driver.current_player()
            if self.table.state.version != version:
                version, failed = self.table.state.version, set()
            try:
                if player == TERMINAL:
                    self._reveal()
                    self._announce_over()
                    if stop_when_over:
                        return
                    time.sleep(BLOCK_MS / 1000)
                elif self.contributions_missing():
                    self._serve_requests()  # nothing is drawn before every seat's is in
                elif player == CHANCE or player in self.bots:
                    self._local_turn(player, failed)
                    self.publish()
                else:
                    self._serve_requests()
            except _Stopped:
                return
            except AWAY as error:
                self._recover(error)
                self._retry(self.publish)  # the file has it all: the streams catch up

    def _retry(self, call: Callable[[], Any]) -> Any:
        """``call()``, again and again while Redis is away (a restart) or the game's slot moves
        (a cluster), for a while."""
        deadline = time.monotonic() + RECONNECT_S
        while True:
            try:
                return call()
            except AWAY as error:
                if time.monotonic() > deadline:
                    raise
                self._recover(error)  # the streams' ends are read again

    # ---- committed dice and shuffles (docs/fairness.md) -----------------------------------
    def _committed(self) -> CommittedDerivation | None:
        derivation = self.table.random.derivation
        return derivation if isinstance(derivation, CommittedDerivation) else None

    def contributions_missing(self) -> list[str]:
        """The seats whose contributions to the committed dice and shuffles are not in yet."""
        derivation = self._committed()
        if derivation is None or derivation.revealed_at is not None:
            return []
        return derivation.missing

    def revealed(self) -> int | None:
        """The entry that revealed the secret seed, or None."""
        derivation = self._committed()
        return derivation.revealed_at if derivation is not None else None

    def _bots_contribute(self) -> None:
        """The referee's bots' seats contribute: drawn here, as the seats' clients draw theirs."""
        for seat in self.contributions_missing():
            if seat in self.bots:
                self.table.chance(Contribute(seat, draw_contribution()), seat)
        self._retry(self.publish)

    def _contribute(self, seat: str, request_id: str, request: dict[str, Any]) -> None:
        """A seat's contribution, sent by its client: the same 'contribute' entry as
        ``tabletop contribute`` writes; refused (a repeated or late one, one of the wrong size)
        with the table's own reason."""
        derivation = self._committed()
        shown = request.get("commitment")
        if derivation is not None and shown is not None and shown != derivation.commitment:
            self.refuse(seat, request_id, "contribution refused: made against another commitment")
            return
        try:
            self.table.chance(Contribute(seat, request.get("contribution")), seat)  # type: ignore[arg-type]
        except CommandError as exc:
            self.refuse(seat, request_id, f"contribution refused: {exc}")

    def _reveal(self) -> None:
        """With ``reveal``, at the end: the secret seed, as ``tabletop reveal`` writes it."""
        derivation = self._committed()
        if not self.reveal or derivation is None or derivation.secret is None:
            return
        if derivation.revealed_at is None:
            self.table.chance(Reveal(derivation.secret.hex()), REFEREE)
            self._retry(self.publish)

    def _announce_over(self) -> None:
        for viewer in self.viewers:
            stream = view_key(self.name, viewer)
            last = self.redis.xrevrange(stream, count=1)
            if not last or decode(last[0][1]).get("type") != "over":
                self.redis.xadd(stream, encode({"type": "over", "seq": len(self.table.entries)}))

    def _local_turn(self, player: str, failed: set[tuple[str, str]]) -> None:
        """A chance step or a referee bot's action, as a local table takes it."""
        seat = None if player == CHANCE else player
        actions = [a for a in self.driver.turn()[1] if _key(a) not in failed]
        if not actions:
            raise OnlineError(f"{self.name}: nobody can move ({player})")
        bot = self.bots.get(seat or "", self.table_bot)
        action = bot.act(self.driver, seat, actions)
        owner = action.actor or seat
        changed = False
        try:
            if action.kind == MOVES:
                for command in bot.moves(self.driver, owner or ""):
                    self.table.submit(command, bot_actor(owner) if owner else str(self.game.id))
                    changed = True
            else:
                who = bot_actor(action.actor) if action.actor else None
                changed = (
                    self.driver.apply(action, actor=who, answerer=self._answerer(bot)) is not None
                )
        except TableError:
            pass
        if not changed:
            failed.add(_key(action))

    def _answerer(self, acting: Any) -> Callable[[ChoiceNeeded, Any], Any]:
        def answer(need: ChoiceNeeded, state: Any) -> Any:
            owner = need.question.owner
            if owner in self.bots or owner not in self.seats:
                return self.bots.get(owner or "", acting).answer(state, need.question)
            return self._ask(owner, need)

        return answer

    def _ask(self, seat: str, need: ChoiceNeeded) -> Any:
        """Send the question to its seat; wait for its answer (other requests meanwhile are
        refused: the question comes first)."""
        self.questions += 1
        qid = f"{len(self.table.entries)}.{self.questions}"
        self.tell(
            seat, {"type": "question", "qid": qid, "question": question_to_dict(need.question)}
        )
        while True:
            if self._until is not None and self._until():
                raise _Stopped
            for request_id, request in self._read({seat: self.cursors[seat]}):
                self.cursors[seat] = request_id
                if request.get("kind") == "answer" and request.get("qid") == qid:
                    return request.get("answer")
                if request.get("kind") == "contribute":
                    self._contribute(seat, request_id, request)  # a late one: refused
                elif request.get("kind") != "answer":
                    self.refuse(seat, request_id, "a question is waiting for your answer first")

    def _read(self, positions: Mapping[str, str]) -> list[tuple[str, dict[str, Any]]]:
        streams = {request_key(self.name, s): pos for s, pos in positions.items()}
        found = self._retry(lambda: self.redis.xread(streams, block=BLOCK_MS, count=16)) or []
        return [(rid, decode(fields)) for _key_, messages in found for rid, fields in messages]

    def _serve_requests(self) -> None:
        remote = [s for s in self.seats if s not in self.bots]
        streams = {request_key(self.name, s): self.cursors[s] for s in remote}
        found = self.redis.xread(streams, block=BLOCK_MS, count=1) or []
        for key, messages in found:
            seat = key.rsplit(":", 1)[1]
            for request_id, fields in messages:
                self._serve(seat, request_id, decode(fields))
                return  # one request, then look at the turn again

    def _serve(self, seat: str, request_id: str, request: dict[str, Any]) -> None:
        self._write_sidecar((seat, request_id))
        before, cursors, asked = len(self.table.entries), dict(self.cursors), self.questions
        try:
            self._run_request(seat, request_id, request)
        except _Stopped:
            self.cursors = cursors  # not run: read again when the referee goes on
            self._write_sidecar(None)
            raise
        self.cursors[seat] = max(self.cursors[seat], request_id, key=_stream_id)
        if len(self.table.entries) == before or self.questions != asked:
            # Written down now: a request that made no entry (a restart would run it again)
            # or one that read other requests while its questions waited. A request whose
            # entries reached the file needs nothing more: the record written before it
            # says so with the file's length (_restart_cursors).
            self._write_sidecar(None)
        if len(self.table.entries) != before:
            self._retry(self.publish)
        else:
            key, cursor = referee_key(self.name), self.cursors[seat]
            self._retry(lambda: self.redis.hset(key, f"req:{seat}", cursor))

    def _run_request(self, seat: str, request_id: str, request: dict[str, Any]) -> None:
        kind = request.get("kind")
        if request.get("seat", seat) != seat:
            self.refuse(seat, request_id, f"a request for {request.get('seat')!r} from {seat!r}")
            return
        if kind == "answer":
            return  # an answer to a question no longer asked
        if kind == "contribute":
            self._contribute(seat, request_id, request)
            return
        missing = self.contributions_missing()
        if missing:
            self.refuse(
                seat,
                request_id,
                "the game waits for every seat's contribution to the dice and shuffles first"
                f" (missing: {', '.join(missing)})",
            )
            return
        at = request.get("at")
        if at is not None and at != len(self.table.entries):
            self.refuse(seat, request_id, f"the table moved on since entry {at}: look again")
            return
        if kind in ("undo", "redo"):
            self._take_back(seat, request_id, kind)
            return
        real = self.views[seat].real_ids()
        if kind == "moves":
            commands = request.get("moves")
            if not isinstance(commands, list) or not commands:
                self.refuse(seat, request_id, "a moves request needs a list of moves")
                return
            try:
                for cmd in commands:
                    self.table.submit(command_from_dict(_real(cmd, real)), seat)
            except TableError as exc:
                self.refuse(seat, request_id, str(exc))
            return
        if kind != "action":
            self.refuse(seat, request_id, f"unknown request {kind!r}")
            return
        name, params = request.get("name"), _real(request.get("params") or {}, real)
        mine = [a for a in self.driver.turn(seat)[1] if a.name == name and a.params == params]
        if not mine:
            self.refuse(seat, request_id, f"{name!r} is not one of {seat}'s actions now")
            return
        action = mine[0]
        if action.kind == MOVES:
            self.refuse(seat, request_id, f"{action.label}: send the moves themselves")
            return
        try:
            changed = self.driver.apply(action, actor=seat, answerer=self._answerer(None))
        except TableError as exc:
            self.refuse(seat, request_id, str(exc))
            return
        if changed is None:
            self.refuse(seat, request_id, f"{action.label}: nothing changed")

    def _take_back(self, seat: str, request_id: str, kind: str) -> None:
        """An undo or redo asked for by ``seat``, under the one take-back policy
        (tabletop/persist/takeback.py): its own last move alone; another's with every other
        seat's yes (a question to each, no unless answered yes); a move that showed it
        something, never."""
        names = {s.id: s.name for s in self.header.seats}
        verdict = take_back_verdict(kind, self.table, seat, self.views[seat], names.get(seat))
        if verdict.refused:
            self.refuse(seat, request_id, f"not taken back: {verdict.text}")
            return
        answerer = self._answerer(None)
        for other in verdict.ask if verdict.verdict == ASK else ():
            line = self.views[other].words(verdict.seq) if verdict.seq else ""
            question = Question.yes_no(
                "take_back",
                f"{names.get(seat, seat)} asks to take back entry {verdict.seq} ({line}). Agree?",
                owner=other,
                section="table",
            )
            try:
                agreed = question.parse(answerer(ChoiceNeeded(question), self.table.state))
            except AnswerError:
                agreed = False
            if not agreed:
                self.refuse(
                    seat,
                    request_id,
                    f"not taken back: {verdict.text}, and {names.get(other, other)} said no",
                )
                return
        (self.table.undo if kind == "undo" else self.table.redo)(seat)

    def close(self) -> None:
        self.session.close()
        self.redis.close()


class _Stopped(Exception):
    """The referee was told to stop while a question waited for its answer."""


def _key(action: Action) -> tuple[str, str]:
    return (action.name or action.label, repr(sorted(action.params.items(), key=str)))


def _stream_id(stream_id: str) -> tuple[int, int]:
    ms, _, n = stream_id.partition("-")
    return int(ms), int(n or 0)


def _real(value: Any, real: Mapping[str, str]) -> Any:
    """A request's words with the viewer's ids read as the pieces they stand for."""
    if isinstance(value, str):
        return real.get(value, value)
    if isinstance(value, list):
        return [_real(v, real) for v in value]
    if isinstance(value, dict):
        return {k: _real(v, real) for k, v in value.items()}
    return value


def _restart_cursors(saved: Mapping[str, Any], entries: int) -> dict[str, str]:
    """Where to read each request stream from: the positions written before the last request
    was run, and past that request when its entries reached the file."""
    cursors = dict(saved.get("cursors", {}))
    pending = saved.get("pending")
    if pending and entries > int(saved.get("entries", entries)):
        seat, request_id = pending
        cursors[seat] = request_id
    return cursors


def sidecar_of(path: str | os.PathLike[str]) -> Path:
    """The referee's bookkeeping beside a game's file (``FILE.online``)."""
    path = Path(path)
    return path.with_name(path.name + ".online")


def read_sidecar(sidecar: Path) -> dict[str, Any]:
    if not sidecar.exists():
        return {}
    try:
        value = json.loads(sidecar.read_text())
    except (ValueError, RecursionError):
        raise OnlineError(f"{sidecar}: not the referee's bookkeeping") from None
    return value if isinstance(value, dict) else {}


def write_sidecar(sidecar: Path, record: Mapping[str, Any], *, sync_folder: bool = True) -> None:
    """Write the bookkeeping whole or not at all, readable by its owner only (a new file is
    made so, empty, before anything is written into it)."""
    if not sidecar.exists():
        atomic_write_text(sidecar, "{}\n")
        sidecar.chmod(0o600)
    atomic_write_text(
        sidecar, json.dumps(record, indent=1) + "\n", replace=True, sync_folder=sync_folder
    )
    sidecar.chmod(0o600)


def open_users(
    client: redis.Redis,
    url: str,
    name: str,
    viewers: Iterable[str | None],
    passwords: dict[str, str],
    where: tuple[str, int],
    nodes: list[tuple[str, int]] | None = None,
) -> dict[str | None, Address]:
    """Make (or keep) each viewer's ACL user, with a fresh password the first time (kept in
    ``passwords``), on ``client`` (at ``where``) and on every other node of a cluster; the
    join address of each."""
    host, port = where
    addresses: dict[str | None, Address] = {}
    rules: dict[str, list[str]] = {}
    for viewer in viewers:
        user = user_name(name, viewer)
        password = passwords.get(user)
        if password is None:
            password = passwords[user] = secrets.token_urlsafe(18)
        rules[user] = seat_rules(name, viewer, password)
        addresses[viewer] = Address(host, port, user, password, name, viewer)
    for node_host, node_port in nodes or [where]:
        if (node_host, node_port) == where:
            node = client
        else:
            node = connect(url, node_host, node_port, decode_responses=True)
        try:
            for user, user_rules in rules.items():
                node.execute_command("ACL", "SETUSER", user, *user_rules)
            node.execute_command("ACL", "SAVE")
        finally:
            if node is not client:
                node.close()
    return addresses


def _default_name(path: Path) -> str:
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in path.stem)[:40] or "game"
    return f"{stem}-{secrets.token_hex(3)}"


def wait_for(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
