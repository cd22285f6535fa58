"""Whole games of Greenland played by bots, through the turn driver, and what Greenland reads of them.

``play_game(module, variant, bots, seed)`` sets a game up (``new_game``),
attaches the checker in strict mode, and lets the bots play it through the
turn driver (rules_assist/simulate.py ``play``, flow.py's turn) until the
game ends (J). Every question a procedure asks goes to the bot of the seat
that owns it (``Question.owner``), else to the bot that acts. With ``path``
the log is written as the game goes and can be opened in the window.

``outcome(game)`` reads a finished game: each culture's score (scoring.py's),
who survived and who won. Many games are summed up by rules_assist/simulate.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from tabletop.core import Mode, Policy
from tabletop.modules import new_game
from tabletop.modules.rules import game_of

from ..simulate import play
from .deck import Cards
from .sequence import in_play
from .view import Greenland

SEATS = {"two-player": ("red", "green")}


# ---- a whole game -------------------------------------------------------------------------
def play_game(
    module: Any,
    variant: str,
    bots: Mapping[str, Any],
    seed: int,
    max_turns: int = 40,
    path: str | os.PathLike[str] | None = None,
    after_action: Callable[[Any], None] | None = None,
    wrap_checker: Callable[[Any], Any] | None = None,
) -> Any:
    """Set a game up and let the bots play it to the end (J), or to the end of ``max_turns``
    turns; the Game (close it when done).

    The game's log is at ``path`` when one is given. ``after_action(game)`` is
    called after the setup and after every action (for invariants);
    ``wrap_checker`` wraps the table's checker (for timing).
    """
    game = game_of(module)
    session = new_game(
        module, seats=list(bots), variant=variant, seed=seed, path=path, policy=Policy(Mode.STRICT)
    )  # strict from the start, as the log's header says
    try:
        checker = game.checker()
        session.table.checker = wrap_checker(checker) if wrap_checker else checker
        hook = (lambda: after_action(session)) if after_action is not None else None
        if hook is not None:
            hook()
        state = session.state
        play(
            game,
            session.table,
            bots,
            after_action=hook,
            until=lambda: int(state.counters.get("turn", 1) or 1) > max_turns,
        )
    except BaseException:
        session.close()
        raise
    return session


def seats_for(variant: str) -> tuple[str, ...]:
    return SEATS.get(variant, ("red", "yellow", "green"))


# ---- reading the result -------------------------------------------------------------------
def alive(view: Greenland, colour: str) -> int:
    return sum(1 for cube in view.cubes(colour) if not cube.place.startswith("valhalla_"))


def scores(state: Any, cards: Cards) -> dict[str, float]:
    """Each culture's victory points (J, scoring.py)."""
    view = Greenland(state, cards)
    from .scoring import score

    return {colour: float(entry["total"]) for colour, entry in score(view).items()}


def outcome(game: Any, cards: Cards) -> dict[str, Any]:
    """Scores, survivors, winners (every culture tied on the best score) and the turns played."""
    state = game.state
    view = Greenland(state, cards)
    points = scores(state, cards)
    surviving = set(in_play(view))
    best = max((points[c] for c in surviving), default=None)
    return {
        "scores": points,
        "survived": sorted(surviving),
        "winners": sorted(c for c in surviving if points[c] == best),
        "turns": int(state.counters.get("game_over") or state.counters.get("turn", 1) or 1),
        "over": state.counters.get("game_over") is not None or not surviving,
    }
