"""``tabletop bench``: figures for the table engine, measured on this machine.

Each figure is a median over repeats, measured in one run. Nothing here is a
test: the suite never asserts on time.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules_assist.simulate import default_jobs, simulate
from tabletop.core import AddPiece, AddPlace, Compound, Place, Seat, Table, Where, actions
from tabletop.modules import ModuleError, default_module, find_module, load_module, module_ids
from tabletop.modules.rules import game_of
from tabletop.online.bench import measure_load, measure_move_latency
from tabletop.persist import Game, Header

PIECES = 1000
LOG_COMMANDS = 10_000
SIM_GAMES = 10_000  # sim_10k_games_s


def _place(pid: str, kind: str, x: float, y: float, w: float, h: float, **more: Any) -> AddPlace:
    """A bench table's place at (x, y), w by h; ``more`` adds to its record (a board)."""
    return AddPlace({"id": pid, "kind": kind, **more, "layout": {"x": x, "y": y, "w": w, "h": h}})


def _hands() -> list[AddPlace]:
    return [
        AddPlace({"id": f"hand_{s}", "kind": "hand", "owner": s})
        for s in ("red", "yellow", "green")
    ]


def _setup_commands(pieces: int = PIECES) -> list[Any]:
    """A 1,000-piece table: a free area, bowls, a deck, a hex board, dice."""
    places = [
        _place("table", "area", 0, 0, 420, 330),
        _place("deck", "deck", 430, 0, 70, 95),
        _place("discard", "stack", 510, 0, 70, 95),
        _place("supply", "bowl", 430, 110, 300, 220),
        _place("map", "board", 740, 0, 300, 220, board={"shape": "hex", "cols": 10, "rows": 8}),
        _place("tray", "area", 740, 230, 300, 100),
        *_hands(),
    ]
    adds: list[Any] = []
    counts = {"table": 0, "deck": 0, "supply": 0, "tray": 0}
    for i in range(pieces):
        if i < 6:
            record = {
                "id": f"die-{i}",
                "kind": "d6",
                "value": 1,
                "props": {"faces": [1, 2, 3, 4, 5, 6]},
            }
            place = "tray"
        elif i < 300:
            record = {
                "id": f"card-{i}",
                "kind": "card",
                "face_up": False,
                "props": {"deck": "cards", "card": f"c{i}"},
            }
            place = "deck"
        elif i < 700:
            record = {"id": f"cube-{i}", "kind": "cube", "owner": ("red", "yellow", "green")[i % 3]}
            place = "supply"
        else:
            record = {"id": f"disk-{i}", "kind": "disk", "owner": ("red", "yellow", "green")[i % 3]}
            place = "table"
        xy = (
            (float(i % 40) * 10, float(i // 40) * 10)
            if place in ("table", "tray")
            else (None, None)
        )
        adds.append(AddPiece(record, Where(place, counts[place], None, *xy)))
        counts[place] += 1
    return [
        Compound("lay out the table", tuple(places)),
        Compound("put out the pieces", tuple(adds)),
    ]


BIG_PIECES = 10_000  # drag_step_p95_ms_10k: the counter count of a large wargame module


def _big_setup_commands(pieces: int = BIG_PIECES) -> list[Any]:
    """A wargame-sized table: counters stacked on a 40 x 30 hex board (about half the
    pieces), cards spread face up on a free area and in a deck, counters in stacks beside the
    board, and disks on a free area where the drag is measured (as on the 1,000-piece table,
    the dragged disk lies inside the area, so the drag's circle stays in it). ``pieces`` counts them all (a smaller table for tests)."""
    board = {"shape": "hex", "cols": 40, "rows": 30}
    places = [
        _place("table", "area", 0, 0, 420, 330),
        _place("deck", "deck", 430, 0, 70, 95),
        _place("cards", "area", 0, 340, 1040, 700),
        _place("map", "board", 1060, 0, 1600, 1040, board=board),
        *(
            _place(f"stack_{n}", "stack", 510 + 60 * (n % 8), 110 + 110 * (n // 8), 50, 50)
            for n in range(16)
        ),
        *_hands(),
    ]
    spots = _board_spots(board)
    adds: list[Any] = []
    counts: dict[str, int] = {}
    owners = ("red", "yellow", "green")
    for i in range(pieces):
        share = i / pieces
        spot = x = y = None
        if share < 0.05:
            record = {"id": f"disk-{i}", "kind": "disk", "owner": owners[i % 3]}
            place, x, y = "table", float((i + 20) % 40) * 10, float((i // 40 + 17) % 33) * 10
        elif share < 0.15:
            record = {
                "id": f"card-{i}",
                "kind": "card",
                "face_up": False,
                "props": {"deck": "cards", "card": f"c{i}"},
            }
            place = "deck"
        elif share < 0.25:
            record = {
                "id": f"card-{i}",
                "kind": "card",
                "face_up": True,
                "props": {"deck": "cards", "card": f"c{i}"},
            }
            place, x, y = "cards", float(i % 97) * 10, float(i // 97 % 65) * 10
        elif share < 0.35:
            record = {"id": f"counter-{i}", "kind": "cube", "owner": owners[i % 3]}
            place = f"stack_{i % 16}"
        else:
            record = {"id": f"counter-{i}", "kind": "cube", "owner": owners[i % 3]}
            place, spot = "map", spots[i % len(spots)]
        adds.append(AddPiece(record, Where(place, counts.get(place, 0), spot, x, y)))
        counts[place] = counts.get(place, 0) + 1
    return [
        Compound("lay out the table", tuple(places)),
        Compound("put out the pieces", tuple(adds)),
    ]


def _board_spots(board: dict[str, Any]) -> tuple[str, ...]:
    return Place("map", "board", board=board).spots


def _header() -> Header:
    return Header("bench", seats=[Seat("red"), Seat("yellow"), Seat("green")], seed=7)


def _random_command(table: Table, rng: random.Random) -> None:
    """One random everyday move on the bench table, submitted."""
    state = table.state
    roll = rng.random()
    if roll < 0.05 and table.can_undo:
        table.undo("red")
        return
    if roll < 0.08 and table.can_redo:
        table.redo("red")
        return
    if roll < 0.14:
        table.roll([f"die-{n}" for n in rng.sample(range(6), rng.randint(1, 3))], "red")
        return
    pid = rng.choice(list(state.pieces))
    if roll < 0.22:
        table.submit(actions.flip(state, pid), "red")
    elif roll < 0.28:
        table.submit(actions.rotate(state, pid), "red")
    else:
        target = rng.choice(("table", "supply", "discard", "map", "hand_red", "deck"))
        if target == "table":
            command = actions.move(
                state, pid, "table", x=rng.uniform(0, 400), y=rng.uniform(0, 300)
            )
        elif target == "map":
            command = actions.move(state, pid, "map", spot=rng.choice(state.places["map"].spots))
        else:
            command = actions.move(state, pid, target)
        table.submit(command, "red")


def _median_us(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e6, 2)


def measure_apply_move(workdir: Path) -> dict[str, float]:
    game = Game.create(_header(), _setup_commands(), workdir / "apply.jsonl")
    table, state = game.table, game.table.state
    rng = random.Random(1)
    movable = [pid for pid in state.pieces if pid.startswith(("cube", "disk"))]
    submit_times, built_times = [], []
    for _ in range(5000):
        pid = rng.choice(movable)
        target = rng.choice(("table", "supply", "discard"))
        t0 = time.perf_counter()
        if target == "table":
            command = actions.move(
                state, pid, "table", x=rng.uniform(0, 400), y=rng.uniform(0, 300)
            )
        else:
            command = actions.move(state, pid, target)
        t1 = time.perf_counter()
        table.submit(command, "red")
        t2 = time.perf_counter()
        submit_times.append(t2 - t1)
        built_times.append(t2 - t0)
    game.close()
    return {
        "apply_move_us": _median_us(submit_times),
        "build_and_apply_move_us": _median_us(built_times),
    }


def measure_undo_redo(workdir: Path) -> dict[str, float]:
    game = Game.create(_header(), _setup_commands(), workdir / "undo.jsonl")
    table = game.table
    cubes = [pid for pid in table.state.pieces if pid.startswith("cube")][:20]
    compound = actions.move_many(table.state, cubes, "discard")
    table.submit(compound, "red")
    samples = []
    for _ in range(500):
        t0 = time.perf_counter()
        table.undo("red")
        table.redo("red")
        samples.append(time.perf_counter() - t0)
    game.close()
    return {"undo_redo_compound_us": _median_us(samples)}


def write_bench_log(path: Path, commands: int = LOG_COMMANDS, seed: int = 3) -> Game:
    game = Game.create(_header(), _setup_commands(), path)
    rng = random.Random(seed)
    setup_entries = game.table.seq
    while game.table.seq < setup_entries + commands:
        _random_command(game.table, rng)
    return game


def _timed(function: Callable[[], Any], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        function()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def measure_replay_and_jump(workdir: Path) -> dict[str, float]:
    path = workdir / "replay.jsonl"
    live = write_bench_log(path)
    final_digest = live.table.state.digest()
    live.close()
    lines = path.read_bytes().split(b"\n")

    def decode() -> None:
        for line in path.read_bytes().split(b"\n"):
            if line:
                json.loads(line)

    def rebuild() -> Game:
        return Game.open(path, writable=False)

    t_json = _timed(decode, 5)
    t_full = _timed(rebuild, 5)
    t_fast = _timed(lambda: Game.open(path, writable=False, verify=False), 5)
    opened = rebuild()
    if opened.table.state.digest() != final_digest:
        raise RuntimeError("the rebuilt table differs from the live one")
    table = opened.table
    rng = random.Random(5)
    jumps = []
    for _ in range(60):
        n = rng.randint(0, table.seq)
        t0 = time.perf_counter()
        table.state_at(n)
        jumps.append(time.perf_counter() - t0)
    return {
        "replay_10k_vs_json_decode": round(t_full / t_json, 2),
        "replay_10k_ms": round(t_full * 1e3, 1),
        "resume_10k_from_checkpoint_ms": round(t_fast * 1e3, 1),
        "json_decode_10k_ms": round(t_json * 1e3, 1),
        "log_10k_lines": len([line for line in lines if line]),
        "log_10k_mb": round(path.stat().st_size / 2**20, 2),
        "jump_10k_ms": round(statistics.median(jumps) * 1e3, 2),
        "jump_10k_max_ms": round(max(jumps) * 1e3, 2),
    }


_RSS_SCRIPT = """
import sys
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
base = rss()
from tabletop.bench import _setup_commands, _header
from tabletop.core import Table, TableState
table = Table(TableState(_header().seats))
for command in _setup_commands():
    table.submit(command, 'setup', undoable=False)
assert len(table.state.pieces) == 1000
print(base, rss())
"""


def measure_rss() -> dict[str, float]:
    if not Path("/proc/self/status").exists():
        return {}
    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT], capture_output=True, text=True, check=True
    ).stdout
    base, loaded = (float(v) for v in out.split())
    return {"table_1000_rss_mb": round(loaded, 1), "python_baseline_rss_mb": round(base, 1)}


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": platform.system(),
    }


def games_figures(say: Callable[[str], None]) -> dict[str, Any]:
    """Each module's game's own figures (``Game.bench``: checking moves, whole games played by
    bots), in the modules' order, then ``<id>_sim_games_per_s`` for each module folder named
    in TABLETOP_BENCH_MODULES (comma-separated: games written outside resources/, such as the
    tests' example game); a module that cannot be loaded is passed over."""
    results: dict[str, Any] = {}
    for module_id in module_ids():
        try:
            game = game_of(find_module(module_id))
        except ModuleError as exc:
            say(f"{module_id}: cannot be loaded ({exc})")
            continue
        if game is not None:
            results.update(game.bench(say))
    for folder in filter(None, os.environ.get("TABLETOP_BENCH_MODULES", "").split(",")):
        try:
            game = game_of(load_module(folder.strip()))
        except ModuleError as exc:
            say(f"{folder}: cannot be loaded ({exc})")
            continue
        if game is not None and game.flow is not None and game.bots:
            say(f"{game.id}: whole games played by random bots")
            results[f"{game.id}_sim_games_per_s"] = sim_games_per_s(game)
    return results


def sim_games_per_s(game: Any, games: int = 100, seed: int = 0) -> float:
    """Whole games a second: random bots at every seat of the standard variant (the module's
    default seat count), after a few games to warm up."""
    seats = [s.id for s in game.module.seats][: game.module.default_seats]
    bot = "random" if "random" in game.bots else next(iter(game.bots))
    simulate(game, "standard", [bot], 5, seed + 10_000, seats=seats)
    start = time.perf_counter()
    simulate(game, "standard", [bot], games, seed, seats=seats)
    return round(games / (time.perf_counter() - start), 2)


def sim_10k_games(
    say: Callable[[str], None], games: int = SIM_GAMES, jobs: int | None = None
) -> dict[str, Any]:
    """``sim_10k_games_s``: wall seconds for 10,000 games of the default module (Greenland) in
    its standard variant, the module's usual number of seats, random bots at every seat, played
    on every core (``simulate`` with ``jobs``; None: one worker a core), worker start-up
    included. With fewer ``games`` the time is scaled to 10,000, and
    ``sim_10k_games_measured_games`` says how many were played. ``sim_10k_games_cpu_s`` is
    the CPU time they took (the workers' and this process's), which depends less on what else
    the machine is doing; the load average when the games ended goes with them."""
    module = find_module(default_module())
    game = game_of(module)
    seats = [s.id for s in module.seats][: module.default_seats]
    bot = "random" if "random" in game.bots else next(iter(game.bots))
    jobs = default_jobs() if jobs is None else jobs
    say(f"{games} {module.name} games by {bot} bots on {jobs} processes (sim_10k_games_s)")

    def tenth(done: int, total: int) -> None:
        if done == total or done * 10 // total != (done - 1) * 10 // total:
            say(f"{done}/{total} games")

    def cpu() -> float:  # this process and its finished workers, user and system
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    start, cpu_start = time.perf_counter(), cpu()
    simulate(game, "standard", [bot], games, 0, seats=seats, progress=tenth, jobs=jobs)
    seconds, cpu_seconds = time.perf_counter() - start, cpu() - cpu_start
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "sim_10k_games_s": round(seconds * SIM_GAMES / games, 1),
        "sim_10k_games_cpu_s": round(cpu_seconds * SIM_GAMES / games, 1),
        "sim_10k_games_measured_games": games,
        "sim_10k_games_measured_s": round(seconds, 1),
        "sim_10k_games_jobs": jobs,
        "sim_10k_games_module": module.id,
        "sim_10k_games_seats": len(seats),
        "sim_10k_games_load_average": [round(v, 2) for v in load] if load else None,
    }


def run(
    progress: Callable[[str], None] | None = None,
    window: bool = True,
    sim_games: int = SIM_GAMES,
) -> dict[str, Any]:
    """Measure every figure (the window's too, unless ``window`` is False; ``sim_10k_games_s``
    from ``sim_games`` games, none for 0); ``progress`` hears each step."""
    say = progress or (lambda _text: None)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as tmp:
        work = Path(tmp)
        say("submitting moves on a 1,000-piece table")
        results.update(measure_apply_move(work))
        say("undoing and redoing a 20-command compound")
        results.update(measure_undo_redo(work))
        say("writing, replaying and jumping in a 10,000-command log")
        results.update(measure_replay_and_jump(work))
    say("measuring the memory of a 1,000-piece table")
    results.update(measure_rss())
    if window:  # first: the window's start-up is timed best before the long simulation runs
        # imported here: Qt loads only when the window is measured (``--no-window`` runs without)
        from tabletop.ui import bench_ui

        results.update(bench_ui.run(say))
    results.update(games_figures(say))
    say("a live two-player game on a local Redis: a move from one client to the others")
    results.update(measure_move_latency())
    results["online_load_average"] = round(os.getloadavg()[0], 2)
    say("50 live games at once on one Redis, 4 clients each, for a minute")
    results.update(measure_load())
    results["online_load_load_average"] = round(os.getloadavg()[0], 2)
    if sim_games > 0:
        results.update(sim_10k_games(say, sim_games))
    results["machine"] = machine()
    return results
