"""Games of Looot for the tests: set up from a recorded layout and played by move codes, all
through the public paths (``start_from_layout``, ``play_code``)."""

from __future__ import annotations

from typing import Any

from rules_assist.looot.moves import legal_codes, looot_game, play_code
from rules_assist.looot.reading import Looot
from rules_assist.looot.setup import start_from_layout
from tabletop.core import Mode, Policy
from tests.looot.samples import layout_of, sample

SEATS = ("blue", "red", "grey", "yellow")


def start(name: str, variant: str = "standard", path: Any = None) -> Any:
    """A new game on a recorded game's layout, its rules strict."""
    game = looot_game()
    session = start_from_layout(layout_of(sample(name)), sample(name)["players"], variant, path)
    session.table.checker = game.checker()
    session.table.policy = Policy(Mode.STRICT)
    return session


def play(session: Any, *codes: str) -> Any:
    for code in codes:
        play_code(session, code)
    return Looot(session.state, looot_game())


def recorded(name: str, upto: int) -> list[str]:
    """The codes of a recorded game's moves 1 .. upto."""
    return [m["code"] for m in sample(name)["moves"] if m["n"] <= upto]


def legal(session: Any) -> list[str]:
    return legal_codes(session.state)
