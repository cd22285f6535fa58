"""What a live game keeps in Redis: its keys, its users, its messages and join addresses.

Every key of a game ``G`` carries the hash tag ``{G}`` (``tt:{G}:...``), so in a Redis
Cluster all of one game's keys lie in one slot and the games spread over the nodes:

- ``tt:{G}:public``: the game as a spectator sees it (tabletop/persist/seatview.py);
- ``tt:{G}:seat:<SEAT>``: the game as that seat sees it (its hand's cards, its peeks), and
  the questions and refusals meant for that seat;
- ``tt:{G}:req:<SEAT>``: the seat's requests (moves, procedures, answers) to the referee;
- ``tt:{G}:ref``: the referee's own bookkeeping (how far it has read each request stream).

A message is one field ``m`` holding JSON with a ``type``: ``header`` (the game's header as a
seat's copy has it, first in every stream), ``entry`` (``seq``, ``entry``: a view entry,
``digest``: the sha256 of the viewer's table after it), ``question`` (``qid``, ``question``),
``error`` (``text``, ``request``: the refused request's id), ``over`` (the game has ended).
A request is ``{"kind": "action" | "moves" | "answer", ...}`` from its seat's stream.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

import redis

from rules_assist.questions import Question
from tabletop.core import TableError

GAME_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SPECTATOR = "spectator"
FIELD = "m"
# Redis went away (a restart, a network cut): wait and go on from the same place
LOST = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# A Redis Cluster moving a game's slot to another node: MOVED (the command was not run; the
# error names the new node), ASK and TRYAGAIN (the slot's keys are half moved), CLUSTERDOWN
# (nobody serves the slot for a moment). Each means: not done, do it again (on the new node).
MOVING = (
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
)


class OnlineError(TableError):
    """A plain message: a bad address, a refused connection, a game that cannot be hosted."""


def check_name(name: str, what: str = "game name") -> str:
    if not GAME_NAME.match(name):
        raise OnlineError(f"{what} {name!r}: use letters, digits, '-' and '_' (at most 64)")
    return name


def public_key(game: str) -> str:
    return f"tt:{{{game}}}:public"


def seat_key(game: str, seat: str) -> str:
    return f"tt:{{{game}}}:seat:{seat}"


def request_key(game: str, seat: str) -> str:
    return f"tt:{{{game}}}:req:{seat}"


def referee_key(game: str) -> str:
    return f"tt:{{{game}}}:ref"


def view_key(game: str, viewer: str | None) -> str:
    """The stream a viewer (a seat, None for a spectator) reads."""
    return public_key(game) if viewer is None else seat_key(game, viewer)


def user_name(game: str, viewer: str | None) -> str:
    return f"{game}.{viewer if viewer is not None else SPECTATOR}"


def seat_rules(game: str, viewer: str | None, password: str) -> list[str]:
    """The ACL SETUSER rules of a seat's user (a spectator's with ``viewer`` None): read the
    public stream and its own, add requests to its own request stream, nothing else."""
    rules = ["reset", "on", f">{password}", f"%R~{public_key(game)}"]
    rules += ["resetchannels", "-@all", "+xread", "+xrange", "+xrevrange", "+ping"]
    if viewer is not None:
        rules += [f"%R~{seat_key(game, viewer)}", f"%W~{request_key(game, viewer)}", "+xadd"]
    return rules


def encode(message: dict[str, Any]) -> dict[str, str]:
    return {FIELD: json.dumps(message, separators=(",", ":"), sort_keys=True)}


def decode(fields: dict[Any, Any]) -> dict[str, Any]:
    raw = fields.get(FIELD, fields.get(FIELD.encode()))
    if isinstance(raw, bytes):
        raw = raw.decode()
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except (ValueError, RecursionError):  # a seat's request nested past reading: no request
        value = None
    return value if isinstance(value, dict) else {}


def question_to_dict(question: Question) -> dict[str, Any]:
    return asdict(question)


def question_from_dict(d: dict[str, Any]) -> Question:
    fields = dict(d)
    for name in ("options", "alternatives"):
        fields[name] = tuple(fields.get(name, ()))
    for name in ("groups", "labels"):
        fields[name] = tuple(tuple(pair) for pair in fields.get(name, ()))
    return Question(**fields)


@dataclass(frozen=True)
class Address:
    """Where a seat joins: the Redis server, the seat's user and password, the game, the seat
    (None: a spectator). Written ``redis://USER:PASSWORD@HOST:PORT/?game=G&seat=S``."""

    host: str
    port: int
    user: str
    password: str
    game: str
    seat: str | None

    def __str__(self) -> str:
        query = {"game": self.game, **({"seat": self.seat} if self.seat is not None else {})}
        return (
            f"redis://{quote(self.user, safe='')}:{quote(self.password, safe='')}"
            f"@{self.host}:{self.port}/?{urlencode(query)}"
        )

    @classmethod
    def parse(cls, text: str) -> Address:
        parts = urlsplit(text)
        query = parse_qs(parts.query)
        try:
            port = parts.port or 6379
        except ValueError:
            port = -1
        if parts.scheme != "redis" or not parts.hostname or port < 0 or "game" not in query:
            raise OnlineError(
                f"{text!r} is not a join address (redis://USER:PASSWORD@HOST:PORT/?game=G&seat=S)"
            )
        if parts.username is None or parts.password is None:
            raise OnlineError(f"{text!r}: the join address has no user and password")
        seat = query.get("seat", [None])[0]
        return cls(
            parts.hostname,
            port,
            unquote(parts.username),
            unquote(parts.password),
            check_name(query["game"][0]),
            seat,
        )


def server_of(url: str) -> tuple[str, int, str | None, str | None]:
    """Host, port, user and password of a ``redis://`` address."""
    parts = urlsplit(url)
    if parts.scheme != "redis" or not parts.hostname:
        raise OnlineError(f"{url!r} is not a Redis address (redis://USER:PASSWORD@HOST:PORT)")
    try:
        port = parts.port or 6379
    except ValueError:
        raise OnlineError(f"{url!r}: the port is not a number") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return parts.hostname, port, user, password
