"""Looot's figures for ``tabletop bench``: whole games a second, and how that compares with
Game Park's engine measured on the same machine in the same run.

- ``looot_sim_games_per_s``: three-player standard games, random bots at every seat, played
  whole through the turn driver (``rules_assist.simulate``: setup, every move through its
  procedure with the rules strict, the result) in this one Python process;
- ``looot_oracle_games_per_s``: Game Park's engine packed for Node playing random three-player
  games (``node looot-oracle.cjs random --players 3 --games G --seed S --legal-lists 0``),
  timed from start to exit;
- ``looot_vs_oracle_speed``: the first over the second. Both are measured in turns, one after
  the other, and each figure is the median of its turns, so a machine busy with other work
  weighs on both alike.

The engine is found through the environment variable ``LOOOT_ORACLE`` (the ``.cjs`` file),
else as ``shared/looot-oracle/looot-oracle.cjs`` beside the repository (or beside its main
checkout). Without Node or without the engine the comparison is null and
``looot_vs_oracle_why`` says why: the game itself never needs Node.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules_assist.simulate import simulate

ORACLE_ENV = "LOOOT_ORACLE"
ORACLE_FILE = Path("shared") / "looot-oracle" / "looot-oracle.cjs"
REPOSITORY = Path(__file__).resolve().parents[2]
SEATS = ("blue", "red", "grey")
GAMES = 30  # our games a turn
ORACLE_GAMES = 40  # the engine's games a turn (about two seconds, so Node's start weighs little)
TURNS = 3
SEED = 1


def _main_checkout(root: Path) -> Path:
    """The main checkout a linked worktree belongs to (its ``.git`` file names it), else
    ``root`` itself."""
    marker = root / ".git"
    if marker.is_file():
        text = marker.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.split(":", 1)[1].strip())
            if gitdir.parent.name == "worktrees" and gitdir.parent.parent.name == ".git":
                return gitdir.parent.parent.parent
    return root


def oracle() -> tuple[list[str] | None, str]:
    """The command that runs Game Park's engine (Node and the ``.cjs`` file), or None and why
    it cannot run here."""
    node = shutil.which("node")
    if node is None:
        return None, "node is not installed"
    named = os.environ.get(ORACLE_ENV)
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            return None, f"{ORACLE_ENV}={named} is not a file"
        return [node, str(path)], ""
    for root in (REPOSITORY, _main_checkout(REPOSITORY)):
        path = root.parent / ORACLE_FILE
        if path.is_file():
            return [node, str(path)], ""
    return None, f"Game Park's engine is not beside the repository; set {ORACLE_ENV} to its .cjs"


def our_games_per_s(game: Any, games: int = GAMES, seed: int = SEED) -> float:
    """Three-player standard games a second, random bots, through the turn driver."""
    start = time.perf_counter()
    simulate(game, "standard", ["random"], games, seed, seats=SEATS)
    return games / (time.perf_counter() - start)


def oracle_games_per_s(command: list[str], games: int = ORACLE_GAMES, seed: int = SEED) -> float:
    """Game Park's engine's three-player random games a second, from start to exit."""
    args = ["random", "--players", "3", "--games", str(games), "--seed", str(seed)]
    start = time.perf_counter()
    subprocess.run(
        [*command, *args, "--legal-lists", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=True,
    )
    return games / (time.perf_counter() - start)


def run(
    game: Any,
    say: Callable[[str], None],
    turns: int | None = None,
    games: int | None = None,
    oracle_games: int | None = None,
) -> dict[str, Any]:
    """The figures (see the module's docstring): ``turns`` turns of ``games`` of ours and
    ``oracle_games`` of the engine's (by default TURNS, GAMES and ORACLE_GAMES)."""
    turns = TURNS if turns is None else turns
    games = GAMES if games is None else games
    oracle_games = ORACLE_GAMES if oracle_games is None else oracle_games
    command, why = oracle()
    say("Looot: whole three-player games played by random bots")
    simulate(game, "standard", ["random"], 3, 10_000, seats=SEATS)  # warm up
    ours: list[float] = []
    theirs: list[float] = []
    for turn in range(turns):
        ours.append(our_games_per_s(game, games, seed=SEED + turn * games))
        if command is not None:
            if turn == 0:
                say("Looot: the same on Game Park's engine (Node), in turns with ours")
            try:
                seed = SEED + turn * oracle_games
                theirs.append(oracle_games_per_s(command, oracle_games, seed))
            except (OSError, subprocess.CalledProcessError) as error:
                detail = getattr(error, "stderr", b"") or b""
                text = detail.decode(errors="replace").strip() or str(error)
                command, why = None, f"Game Park's engine failed: {text.splitlines()[-1]}"
                theirs = []
    results: dict[str, Any] = {"looot_sim_games_per_s": round(statistics.median(ours), 2)}
    if theirs:
        results["looot_oracle_games_per_s"] = round(statistics.median(theirs), 2)
        ratio = statistics.median(ours) / statistics.median(theirs)
        results["looot_vs_oracle_speed"] = round(ratio, 2)
    else:
        results["looot_oracle_games_per_s"] = None
        results["looot_vs_oracle_speed"] = None
        results["looot_vs_oracle_why"] = why
    return results
