"""Greenland's figures for ``tabletop bench``: checking moves on a mid-game table."""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tabletop.core import Mode, Policy, actions
from tabletop.modules import find_module, new_game

from .checks import checker_for

MID_GAME = """
turn = 5
phase = "assignment"
first_player = "yellow"
[rows.north]
warm = ["Walrus", "Harbor Seal", "Caribou", "Markland", "Dogs"]
cold = ["Polar Bear", "Musk Oxen"]
[rows.south]
warm = ["Shark", "Vinland", "Bog Iron", "Elkhounds"]
cold = ["South biome 4"]
[cultures.red]
unassigned = 8
elders = {1 = 1, 4 = 1, 6 = 2}
colonists = {Vinland = 3}
energy = 6
ivory = 2
iron = 1
[cultures.yellow]
unassigned = 9
elders = {2 = 1, 4 = 1, 6 = 1}
hunters = {Walrus = 2}
energy = 4
[cultures.green]
unassigned = 7
elders = {3 = 1, 6 = 1}
colonists = {Markland = 4}
husbands = {Birgitta = 1}
energy = 3
"""

TARGETS = (
    "walrus",
    "harbor-seal",
    "caribou",
    "shark",
    "elkhounds",
    "polar-bear",
    "dogs",
    "vinland",
    "markland",
)


def run(say: Any = print) -> dict[str, float]:
    say("checking moves on a mid-game Greenland table")
    module = find_module("greenland")
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-greenland-") as tmp:
        position = Path(tmp) / "mid-game.toml"
        position.write_text(MID_GAME)
        # a game as it is played: its log written and flushed with every move
        game = new_game(module, seed=11, position=str(position), path=Path(tmp) / "mid-game.jsonl")
        try:
            return _measure(game, module)
        finally:
            game.close()


def _measure(game: Any, module: Any) -> dict[str, float]:
    table = game.table
    table.checker = checker_for(module)
    table.policy = Policy(Mode.ADVISORY)
    state = table.state
    rng = random.Random(2)
    tried = [
        (pid, rng.choice(TARGETS))
        for colour in ("red", "yellow", "green")
        for pid in state.places[f"hunters_{colour}"].contents[:4]
    ]
    moves = [actions.move(state, pid, target, spot="hunters") for pid, target in tried]
    # each check a command of its own: the checker keeps its findings for a command it has
    # seen on this table, and this measures the rules' work
    rounds = [
        [actions.move(state, pid, target, spot="hunters") for pid, target in tried]
        for _ in range(40)
    ]
    samples = []
    for fresh in rounds:
        for move in fresh:
            t0 = time.perf_counter()
            table.check(move, "red")
            samples.append(time.perf_counter() - t0)

    def submit_round_trips(mode: Mode) -> float:
        table.policy = Policy(mode)
        t0 = time.perf_counter()
        for _ in range(30):
            for move in moves:
                table.submit(move, "red")
                table.submit(move.inverse(), "red")
        return time.perf_counter() - t0

    submit_round_trips(Mode.OFF)  # warm
    unchecked = statistics.median(submit_round_trips(Mode.OFF) for _ in range(3))
    checked = statistics.median(submit_round_trips(Mode.ADVISORY) for _ in range(3))
    return {
        "check_move_us": round(statistics.median(samples) * 1e6, 1),
        "apply_checked_vs_unchecked": round(checked / unchecked, 2),
    }


def sim_run(say: Any = print, games: int = 12) -> dict[str, float]:
    """Whole three-player standard games with random bots on one core: games a second, and the
    share of the time spent in the table's checker (hand moves) and in the bots' candidate checks.

    What the process made before (the other figures' tables and windows) is
    frozen out of the cycle collector's way, as if the games ran on their own
    (``tabletop simulate`` runs in a process of its own).
    """
    from . import bots
    from .selfplay import play_game

    say("simulating Greenland games with random bots")
    module = find_module("greenland")
    spent = {"table": 0.0, "candidates": 0.0}

    def timed(checker: Any) -> Any:
        def wrapped(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return checker(*args)
            finally:
                spent["table"] += time.perf_counter() - t0

        wrapped.trusts_procedures = getattr(checker, "trusts_procedures", False)  # type: ignore[attr-defined]
        wrapped.checks_procedures = getattr(checker, "checks_procedures", ())  # type: ignore[attr-defined]
        return wrapped

    plain = bots.check

    def candidate(*args: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return plain(*args)
        finally:
            spent["candidates"] += time.perf_counter() - t0

    play_game(module, "standard", _random_bots(100), 100).close()  # warm the caches
    spent.update(table=0.0, candidates=0.0)
    bots.check = candidate
    gc.collect()
    gc.freeze()
    try:
        t0 = time.perf_counter()
        for seed in range(games):
            play_game(module, "standard", _random_bots(seed), seed, wrap_checker=timed).close()
        elapsed = time.perf_counter() - t0
    finally:
        bots.check = plain
        gc.unfreeze()
    return {
        "sim_games_per_s": round(games / elapsed, 2),
        "sim_check_share": round(spent["table"] / elapsed, 3),
        "sim_candidate_check_share": round(spent["candidates"] / elapsed, 3),
    }


def _random_bots(seed: int) -> dict[str, Any]:
    from .bots import RandomBot

    return {c: RandomBot(seed * 10 + i) for i, c in enumerate(("red", "yellow", "green"))}
