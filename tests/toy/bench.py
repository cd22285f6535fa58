"""How many whole games of Race random bots play in a second (``toy_sim_games_per_s``).

``games_per_s()`` loads the module, plays a few games to warm up, then times
``rules_assist.simulate.simulate`` over ``games`` three-player games of the
standard variant (setup, play through the turn driver with the rules strict,
the result) and returns its games per second. From the repository's root:

    TABLETOP_GAME_PACKAGES=tests python -m tests.toy.bench
"""

from __future__ import annotations

import os
import time
from pathlib import Path

FOLDER = Path(__file__).parent
SEATS = ("red", "blue", "green")


def games_per_s(games: int = 100, seed: int = 0) -> float:
    """Race games played a second by random bots (``simulate``, three seats, standard)."""
    packages = os.environ.get("TABLETOP_GAME_PACKAGES", "")
    if "tests" not in packages.split(","):  # Race's code lives in the tests package
        os.environ["TABLETOP_GAME_PACKAGES"] = ",".join(p for p in (packages, "tests") if p)
    from rules_assist.simulate import simulate
    from tabletop.modules import load_module
    from tabletop.modules.rules import game_of

    game = game_of(load_module(FOLDER))
    simulate(game, "standard", ["random"], 5, seed + 10_000, seats=SEATS)  # warm up
    start = time.perf_counter()
    simulate(game, "standard", ["random"], games, seed, seats=SEATS)
    return round(games / (time.perf_counter() - start), 1)


if __name__ == "__main__":
    print(f"toy_sim_games_per_s: {games_per_s()}")
