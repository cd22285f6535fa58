"""The live game's figure for ``tabletop bench``: ``online_move_p95_ms``, how long a move
takes on loopback from the moment a client sends it until the other clients show it.

A two-player Greenland game is played whole by two bot clients through a referee on a
Redis started for it (server.py), with a spectator watching; each request's time of leaving
is matched with the time each other client replays the entry it made. The referee and the
clients run as threads of this one process (they share its interpreter lock, which the
figure includes)."""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.core import Entry, Mode, Policy
from tabletop.modules import find_module, new_game

from .client import BotClient, Client
from .referee import Referee
from .server import RedisServer, redis_server_binary

SEATS = ("red", "green")


def measure_move_latency(seed: int = 5) -> dict[str, Any]:
    """``online_move_p95_ms`` (and its median and count), or None without redis-server."""
    if redis_server_binary() is None:
        return {"online_move_p95_ms": None, "online_note": "redis-server is not installed"}
    with tempfile.TemporaryDirectory(prefix="tabletop-online-") as tmp:
        folder = Path(tmp)
        server = RedisServer(folder / "redis").start()
        try:
            return _play(server, folder / "game.jsonl", seed)
        finally:
            server.stop()


def _play(server: RedisServer, path: Path, seed: int) -> dict[str, Any]:
    module = find_module("greenland")
    policy = Policy(Mode.STRICT)
    new_game(
        module, seats=list(SEATS), variant="two-player", seed=seed, path=path, policy=policy
    ).close()
    referee = Referee(path, server.url, name="bench")
    addresses = referee.open_seats()
    players = {s: BotClient(addresses[s], seed=i) for i, s in enumerate(SEATS)}
    spectator = Client(addresses[None])
    shown: list[tuple[str, Entry, float]] = []  # who showed it, the entry, when

    def listen(name: str) -> Callable[[Entry], None]:
        return lambda entry: shown.append((name, entry, time.perf_counter()))

    for name, client in [*players.items(), ("spectator", spectator)]:
        client.listeners.append(listen(name))
    threads = [threading.Thread(target=referee.run, daemon=True)]
    threads += [
        threading.Thread(target=c.play, kwargs={"timeout": 300}, daemon=True)
        for c in players.values()
    ]
    for thread in threads:
        thread.start()
    while not spectator.over:
        spectator.poll()
    for thread in threads:
        thread.join(60)
    samples = []
    for seat, client in players.items():
        for name, entry, at in shown:
            sent = client.sent_times.get(entry.seq - 1)
            if name != seat and sent is not None and entry.actor == seat:
                samples.append((at - sent) * 1e3)
    for client in [*players.values(), spectator]:
        client.close()
    referee.close()
    samples.sort()
    if not samples:
        return {"online_move_p95_ms": None, "online_note": "no move was timed"}
    return {
        "online_move_p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 2),
        "online_move_median_ms": round(statistics.median(samples), 2),
        "online_moves_timed": len(samples),
    }
