"""Whole games of Greenland played by bots, through the turn driver, and what Greenland reads of them.

``play_game(module, variant, bots, seed)`` sets a game up (``new_game``),
attaches the checker in strict mode, and lets the bots play it through the
turn driver (rules_assist/simulate.py ``play``, flow.py's turn) until the
game ends (J). Every question a procedure asks goes to the bot of the seat
that owns it (``Question.owner``), else to the bot that acts. With ``path``
the log is written as the game goes and can be opened in the window.

``outcome(game)`` reads a finished game: each culture's score (scoring.py's),
who survived and who won; ``simulate`` sums many games up per culture.
"""

from __future__ import annotations

import os
from collections import Counter
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
    session = new_game(module, seats=list(bots), variant=variant, seed=seed, path=path)
    try:
        checker = game.checker()
        session.table.checker = wrap_checker(checker) if wrap_checker else checker
        session.table.policy = Policy(Mode.STRICT)
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


# ---- invariants --------------------------------------------------------------------------
SMALL_CUBES = 18
DISK_SUPPLY = {"energy": 24, "ivory": 12, "iron": 12}


def invariant_problems(state: Any, cards: Cards) -> list[str]:
    """What breaks the physical limits on this table (empty when all is well).

    18 small cubes and an Alpha a colour, on the table; every disk of the set
    (24 energy, 12 ivory, 12 iron) still there, substitutes beside them only
    for ivory and iron (B4: energy is limited, ivory and iron are not); at most
    8 energy a culture; at most one husband a daughter (F1); every hand within
    its hand size (B2); every piece in one place. One look at each piece, so
    it can run after every entry of a game.
    """
    from .hands import excess, hand, hand_size

    view = Greenland(state, cards)
    problems = []
    problem = state.consistency_problem()
    if problem:
        problems.append(problem)
    cubes: Counter[tuple[str | None, str]] = Counter()
    disks: dict[str, set[str]] = {kind: set() for kind in DISK_SUPPLY}
    rows = cards.rows
    for pid, piece in state.pieces.items():
        kind = piece.kind
        if kind in ("cube", "alpha"):
            cubes[(piece.owner, kind)] += 1
        elif kind in disks:
            disks[kind].add(pid)
        elif pid in state.places and rows.get(piece.props.get("card", ""), {}).get("type") == (
            "daughter"
        ):
            husbands = sum(
                1 for c in state.places[pid].contents if state.pieces[c].spot == "exogamy"
            )
            if husbands > 1:
                problems.append(f"{view.name(pid)} has {husbands} husbands (F1: one)")
    for colour in view.seats():
        small, alphas = cubes[(colour, "cube")], cubes[(colour, "alpha")]
        if (small, alphas) != (SMALL_CUBES, 1):
            problems.append(f"{colour} has {small} cubes and {alphas} Alpha, not 18 and 1")
        if view.disks(colour, "energy") > 8:
            problems.append(f"{colour} holds {view.disks(colour, 'energy')} energy (B4: 8 at most)")
        held = hand(view, colour)
        if held and excess(view, hand_size(view, colour), held):
            problems.append(f"{colour} holds {len(held)} hand cards, more than its hand size (B2)")
    for kind, count in DISK_SUPPLY.items():
        ids = disks[kind]
        standard = {f"{kind}-{n}" for n in range(1, count + 1)}
        missing = standard - ids
        if missing:
            problems.append(f"{len(missing)} {kind} disks are gone from the table")
        substitutes = len(ids) - (count - len(missing))
        if substitutes and kind == "energy":  # B4: energy is limited to the 24 disks
            problems.append(f"{substitutes} substitute energy disks (B4: energy is limited)")
    return problems


# ---- many games ---------------------------------------------------------------------------
def simulate(
    module: Any,
    variant: str,
    bot_names: list[str],
    games: int,
    seed: int = 0,
    *,
    max_turns: int = 40,
    save_logs: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds seed, seed+1, ...) and sum them up per culture.

    ``bot_names`` gives one bot a seat in seating order (one name: every seat).
    With ``save_logs`` each game's log is written there as game-<seed>.jsonl.
    """
    import time

    from .bots import bot_named

    seats = seats_for(variant)
    if len(bot_names) == 1:
        bot_names = bot_names * len(seats)
    if len(bot_names) != len(seats):
        raise ValueError(f"the {variant} game has {len(seats)} cultures: name {len(seats)} bots")
    cards = Cards.of(module)
    totals = {c: {"wins": 0, "survived": 0, "vp": 0.0} for c in seats}
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        bots = {
            c: bot_named(n, game_seed * 10 + k)
            for k, (c, n) in enumerate(zip(seats, bot_names, strict=True))
        }
        path = None
        if save_logs is not None:
            path = os.path.join(save_logs, f"game-{game_seed}.jsonl")
        game = play_game(module, variant, bots, game_seed, max_turns=max_turns, path=path)
        try:
            result = outcome(game, cards)
        finally:
            game.close()
        turns += result["turns"]
        for colour in seats:
            totals[colour]["vp"] += result["scores"][colour]
            totals[colour]["survived"] += colour in result["survived"]
            totals[colour]["wins"] += colour in result["winners"]
        if progress is not None:
            progress(i + 1, games)
    elapsed = time.perf_counter() - start
    summary: dict[str, Any] = {
        "games": games,
        "variant": variant,
        "bots": dict(zip(seats, bot_names, strict=True)),
        "mean_turns": round(turns / games, 2) if games else 0.0,
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
        "scoring": "victory points (J)",
    }
    for colour, t in totals.items():
        summary[colour] = {
            "wins": t["wins"],
            "survived": t["survived"],
            "mean_vp": round(t["vp"] / games, 2) if games else 0.0,
            "win_rate": round(t["wins"] / games, 3) if games else 0.0,
            "survival_rate": round(t["survived"] / games, 3) if games else 0.0,
        }
    return summary
