"""The live game's figures for ``tabletop bench``: ``online_move_p95_ms``, how long a move
takes on loopback from the moment a client sends it until the other clients show it, and the
load figures (``measure_load``: many games on one Redis at once).

A two-player game of the default module (its variant for two, if it names one) is played
whole by two bot clients through a referee on a
Redis started for it (server.py), with a spectator watching; each request's time of leaving
is matched with the time each other client replays the entry it made. The referee and each
client run as processes of their own (bench_party.py), as on the players' machines, all on
this machine's loopback; the load figures run every game's parties as threads of one process."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tabletop.core import Mode, Policy
from tabletop.modules import Module, default_module, find_module, new_game

from .client import BotClient, Client
from .referee import Referee
from .server import RedisServer, redis_server_binary
from .streams import decode, view_key


def _duel(module: Module) -> tuple[list[str], str]:
    """The module's first two seats and its variant for two players (its own game when it
    names none)."""
    variant = next((v for v, spec in module.variant_defs.items() if spec.get("seats") == 2), "")
    return [seat.id for seat in module.seats[:2]], variant


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
    module = find_module(default_module())
    seats, variant = _duel(module)
    policy = Policy(Mode.STRICT)
    new_game(module, seats=seats, variant=variant, seed=seed, path=path, policy=policy).close()
    folder = path.parent
    addresses = folder / "addresses.json"
    party = [sys.executable, "-m", "tabletop.online.bench_party"]
    processes = [subprocess.Popen([*party, "referee", str(path), server.url, str(addresses)])]
    try:
        deadline = time.monotonic() + 120
        while not addresses.exists():
            if processes[0].poll() is not None or time.monotonic() > deadline:
                return {"online_move_p95_ms": None, "online_note": "the referee did not start"}
            time.sleep(0.05)
        joins = json.loads(addresses.read_text())
        outs = {s: folder / f"{s}.json" for s in [*seats, "spectator"]}
        for i, seat in enumerate(seats):
            processes.append(
                subprocess.Popen([*party, "seat", joins[seat], str(i), str(outs[seat])])
            )
        processes.append(subprocess.Popen([*party, "watch", joins[""], str(outs["spectator"])]))
        for process in processes:
            process.wait(timeout=900)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    if any(process.returncode != 0 for process in processes) or not all(
        out.exists() for out in outs.values()
    ):
        return {"online_move_p95_ms": None, "online_note": "a party of the game failed"}
    records = {name: json.loads(out.read_text()) for name, out in outs.items()}
    samples = []
    for seat in seats:
        sent = {int(seq): at for seq, at in records[seat]["sent"]}
        for name, record in records.items():
            if name == seat:
                continue
            for seq, actor, at in record["shown"]:
                left = sent.get(seq - 1)
                if left is not None and actor == seat:
                    samples.append((at - left) * 1e3)
    samples.sort()
    if not samples:
        return {"online_move_p95_ms": None, "online_note": "no move was timed"}
    return {
        "online_move_p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 2),
        "online_move_median_ms": round(statistics.median(samples), 2),
        "online_moves_timed": len(samples),
    }


def measure_load(games: int = 50, seconds: float = 60.0, seed: int = 1) -> dict[str, Any]:
    """Many games at once on one Redis: ``games`` three-player games, each a referee, three
    bot clients and a spectator (4 clients), all threads of this process, played for
    ``seconds``; the entries the referees made a second over all games in that time, and how
    many entries any stream lacks or holds twice once all have stopped (``online_load_lost``,
    to be 0)."""
    if redis_server_binary() is None:
        return {"online_load_games": None, "online_note": "redis-server is not installed"}
    module = find_module(default_module())
    seats = [seat.id for seat in module.seats[: module.default_seats]]
    with tempfile.TemporaryDirectory(prefix="tabletop-load-") as tmp:
        folder = Path(tmp)
        server = RedisServer(folder / "redis").start()
        stop = threading.Event()
        referees: list[Referee] = []
        clients: list[Client] = []
        threads: list[threading.Thread] = []
        try:
            for n in range(games):
                path = folder / f"game-{n}.jsonl"
                new_game(
                    module, seats=list(seats), seed=seed + n, path=path, policy=Policy(Mode.STRICT)
                ).close()
                referee = Referee(path, server.url, name=f"load-{n}")
                addresses = referee.open_seats()
                referees.append(referee)
                mine: list[Client] = [
                    BotClient(addresses[s], seed=n * 10 + i) for i, s in enumerate(seats)
                ]
                watcher = Client(addresses[None])
                clients += [*mine, watcher]
                threads.append(threading.Thread(target=_watch, args=(watcher, stop), daemon=True))
                threads.append(
                    threading.Thread(target=referee.run, args=(stop.is_set,), daemon=True)
                )
                threads += [
                    threading.Thread(
                        target=c.play,
                        kwargs={"timeout": seconds * 10, "until": stop.is_set},
                        daemon=True,
                    )
                    for c in mine
                ]
            start_entries = sum(len(r.table.entries) for r in referees)
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            made = sum(len(r.table.entries) for r in referees) - start_entries
            elapsed = time.perf_counter() - started
            stop.set()
            for thread in threads:
                thread.join(120)
            lost = sum(_lost(referee) for referee in referees)
        finally:
            stop.set()
            for client in clients:
                client.close()
            for referee in referees:
                referee.close()
            server.stop()
    return {
        "online_load_games": games,
        "online_load_clients_per_game": len(seats) + 1,
        "online_load_seconds": round(elapsed, 1),
        "online_load_moves_per_s": round(made / elapsed, 1),
        "online_load_lost": lost,
    }


def _watch(client: Client, stop: threading.Event) -> None:
    while not stop.is_set() and not client.over:
        client.poll()


def _lost(referee: Referee) -> int:
    """Entries of the referee's file that a stream lacks, and entries a stream holds twice."""
    referee.publish()
    count, lost = len(referee.table.entries), 0
    for viewer in referee.viewers:
        numbers = [
            m["seq"]
            for _id, fields in referee.redis.xrange(view_key(referee.name, viewer))
            if (m := decode(fields)).get("type") == "entry"
        ]
        lost += count - len(set(numbers)) + (len(numbers) - len(set(numbers)))
    return lost
