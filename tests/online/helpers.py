"""Whole Greenland games played live: a referee and bot clients on a real Redis, and the
checks every online test makes of them."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import redis

from tabletop.core import Mode, Policy
from tabletop.core.commands import touched_by
from tabletop.modules import find_module, new_game
from tabletop.online.client import BotClient, Client
from tabletop.online.referee import Referee
from tabletop.online.streams import Address, decode, view_key
from tabletop.persist import Game
from tabletop.persist.seatview import SeatView
from tabletop.visibility import can_see
from tests.persist.seatview_checks import steps

VARIANTS = {2: "two-player", 3: "standard"}


def new_greenland(path: Path, seats: list[str], seed: int) -> Path:
    module = find_module("greenland")
    variant = VARIANTS[len(seats)]
    new_game(
        module, seats=seats, variant=variant, seed=seed, path=path, policy=Policy(Mode.STRICT)
    ).close()
    return path


class Players:
    """Bot clients, each playing in a thread of its own until the game is over."""

    def __init__(self, addresses: dict[str | None, Address], seats: Iterable[str]) -> None:
        self.clients = {s: BotClient(addresses[s], seed=i) for i, s in enumerate(seats)}
        self.threads: dict[str, threading.Thread] = {}
        self.failures: list[BaseException] = []

    def start(self, seat: str, until: Callable[[], bool] | None = None) -> None:
        client = self.clients[seat]

        def play() -> None:
            try:
                client.play(timeout=240, until=until)
            except BaseException as exc:  # reported by join()
                self.failures.append(exc)

        thread = threading.Thread(target=play, daemon=True)
        self.threads[seat] = thread
        thread.start()

    def start_all(self) -> None:
        for seat in self.clients:
            self.start(seat)

    def join(self) -> None:
        for thread in self.threads.values():
            thread.join(300)
        assert not self.failures, self.failures
        for client in self.clients.values():
            client.close()


def run_referee(referee: Referee) -> tuple[threading.Thread, list[BaseException]]:
    failures: list[BaseException] = []

    def run() -> None:
        try:
            referee.run()
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, failures


def stream_messages(client: redis.Redis, key: str) -> list[dict[str, Any]]:
    return [decode(fields) for _id, fields in client.xrange(key)]


def check_game(path: Path, url: str, game: str, clients: Iterable[Client]) -> Game:
    """The game file replayed on its own is the table the referee ended with; every stream
    holds each entry exactly once, in order, with the digest of the viewer's table after it;
    each client's table is exactly its viewer's projection of the file."""
    full = Game.open(path, writable=False)
    entries = full.table.entries
    assert full.table.state.digest() == full.table.state_at(len(entries)).digest()
    referee = redis.Redis.from_url(url, decode_responses=True)
    names = {s.id: s.name for s in full.header.seats}
    for viewer in [*names, None]:
        projected = SeatView(full.table, viewer, names).follow()
        shown = [
            m for m in stream_messages(referee, view_key(game, viewer)) if m["type"] == "entry"
        ]
        numbers = [m["seq"] for m in shown]
        assert numbers == [e.seq for e in entries], (viewer, _odd(numbers, len(entries)))
        assert [m["digest"] for m in shown] == [d for _e, d in projected], viewer
    for client in clients:
        assert client.table is not None and client.table.seq == len(entries), client.seat
        view = SeatView(full.table, client.seat, names)
        view.follow()
        assert client.table.state.digest() == view.state.digest(), client.seat
    referee.close()
    return full


def _odd(numbers: list[int], count: int) -> tuple[list[int], list[int]]:
    """The entry numbers a stream has twice, and those it lacks."""
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    return twice, sorted(set(range(1, count + 1)) - set(numbers))


def seen_by(game: Game, secret: set[str], viewer: str | None) -> list[set[str]]:
    """After each entry, the secret pieces ``viewer`` had seen by then."""
    full = game.table.state_at(0)
    seen: set[str] = set()
    out: list[set[str]] = []
    for entry in game.table.entries:
        for step in steps(entry.command):
            before = touched_by(step).pieces & secret
            for pid in before:
                if pid in full.pieces and can_see(full, full.pieces[pid], viewer):
                    seen.add(pid)
            step.apply(full)
            touched = touched_by(step)
            near = set(touched.pieces)
            for place in touched.places:
                if place in full.places:
                    near.update(full.places[place].contents)
            for pid in near & secret:
                if pid in full.pieces and can_see(full, full.pieces[pid], viewer):
                    seen.add(pid)
        out.append(set(seen))
    return out


def tokens(words: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(words), key=len, reverse=True)
    return re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in ordered))


def readable(address: Address) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Everything the address's credentials may read: each readable stream, whole."""
    client = redis.Redis(
        host=address.host,
        port=address.port,
        username=address.user,
        password=address.password,
        decode_responses=True,
    )
    keys = [view_key(address.game, None)]
    if address.seat is not None:
        keys.append(view_key(address.game, address.seat))
    found = {key: [(i, decode(f)) for i, f in client.xrange(key)] for key in keys}
    client.close()
    return found


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)
