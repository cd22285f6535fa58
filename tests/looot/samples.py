"""Games played by Game Park's engine, in the neutral notation (test data: their setups and
moves, with the lists of legal moves left out)."""

from __future__ import annotations

import json
from pathlib import Path

from rules_assist.looot.layout import Layout, build_layout

FOLDER = Path(__file__).parent / "samples"
NAMES = ("gamepark-2p-seed1", "gamepark-3p-seed2", "gamepark-4p-seed1")


def sample(name: str) -> dict:
    return json.loads((FOLDER / f"{name}.json").read_text())


def layout_of(game: dict) -> Layout:
    """The Layout of a transcript's setup."""
    setup = game["setup"]
    ocean = sorted(setup["ocean"], key=lambda o: o["space"])
    return build_layout(
        [(b["board"], tuple(b["origin"]), b["rotation"]) for b in setup["boards"]],
        [o["longship"] for o in ocean],
        setup["bag"],
        [(s["port"], s["altar"], s["palace"]) for s in setup["sites"]],
    )
