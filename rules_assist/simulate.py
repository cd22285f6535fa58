"""Whole games played by bots through the turn driver, for any game; many of them summed up.

``play(game, table, bots)`` goes round the driver until the game is over:
the player to move (a seat, or the table's own steps, taken by the first
bot) picks one of its legal actions; a procedure runs with every question
answered by the bot of the seat it belongs to (the question's ``owner``),
else by the bot that acts; hand moves go through ``table.submit`` with the
rules strict. A seat's moves and procedures are logged as its bot's
('bot:red'); the table's own steps as the game's. An action that the rules refuse, or that changes nothing, is
not offered again until the table changes.

``play_game(game, variant, bots, seed)`` sets a game up and plays it;
``simulate(game, variant, bot_names, games, seed)`` plays many and sums up
wins, survival and mean score per seat (``game.bots`` names the bots).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabletop.core import Mode, Policy, Refused, TableError, bot_actor
from tabletop.modules.results import record_result

from .driver import CHANCE, MOVES, TERMINAL, Action, Driver
from .procedures import ChoiceNeeded, ProcedureError

MAX_ACTIONS = 20_000
MAX_QUESTIONS = 400


class SimulationError(TableError):
    """A game the bots could not go on with (nobody had a move, or it ran too long)."""


def _answerer(bots: Mapping[str, Any], acting: Any) -> Callable[[ChoiceNeeded, Any], Any]:
    asked = [0]

    def answer(need: ChoiceNeeded, state: Any) -> Any:
        asked[0] += 1
        if asked[0] > MAX_QUESTIONS:
            raise ProcedureError(f"more than {MAX_QUESTIONS} questions in one procedure")
        bot = bots.get(need.question.owner or "", acting)
        return bot.answer(state, need.question)

    return answer


def play(
    game: Any,
    table: Any,
    bots: Mapping[str, Any],
    *,
    max_actions: int = MAX_ACTIONS,
    after_action: Callable[[], None] | None = None,
    until: Callable[[], bool] | None = None,
) -> int:
    """Let the bots play until the game is over (or, with ``until``, until it says so before an
    action); the number of actions taken."""
    driver = Driver(game, table)
    first = next(iter(bots.values()))
    failed: set[tuple[str, str, str | None]] = set()
    clock = None
    for taken in range(max_actions):
        player, actions = driver.turn()
        if player == TERMINAL or (until is not None and until()):
            return taken
        seat = None if player == CHANCE else player
        if table.state.version != clock:
            clock, failed = table.state.version, set()
        if failed:
            actions = [a for a in actions if _key(a) not in failed]
        if not actions:
            raise SimulationError(
                f"{game.id}: nobody can move ({'; '.join(driver.status().lines) or player})"
            )
        bot = bots.get(seat or "", first)
        action = bot.act(driver, seat, actions)
        if not _take(driver, bots, bot, seat, action):
            failed.add(_key(action))
        if after_action is not None:
            after_action()
    raise SimulationError(f"{game.id}: the game did not end in {max_actions} actions")


def _key(action: Action) -> tuple[str, str, str | None]:
    return (action.name or action.label, repr(sorted(action.params.items(), key=str)), action.actor)


def _take(
    driver: Driver, bots: Mapping[str, Any], bot: Any, seat: str | None, action: Action
) -> bool:
    """Take one action; True if the table changed."""
    table = driver.table
    owner = action.actor or seat
    if action.kind == MOVES:
        changed = False
        for command in bot.moves(driver, owner or ""):
            try:
                table.submit(command, bot_actor(owner) if owner else game_actor(driver))
            except Refused:
                break  # the plan went wrong: the rest stays where it is
            changed = True
        return changed
    try:
        who = bot_actor(action.actor) if action.actor else None
        return driver.apply(action, actor=who, answerer=_answerer(bots, bot)) is not None
    except ProcedureError:
        return False


def game_actor(driver: Driver) -> str:
    return str(driver.game.id)


def play_game(
    game: Any,
    variant: str,
    bots: Mapping[str, Any],
    seed: int,
    *,
    path: str | os.PathLike[str] | None = None,
    after_action: Callable[[Any], None] | None = None,
    options: Mapping[str, str] | None = None,
) -> Any:
    """Set a game up (its seats are the bots' keys) and let the bots play it; the open Game
    (close it when done). ``after_action(game)`` runs after the setup and every action."""
    from tabletop.modules import new_game

    checker = game.checker()
    session = new_game(
        game.module,
        seats=list(bots),
        variant=variant,
        seed=seed,
        path=path,
        options=options,
        policy=Policy(Mode.STRICT if checker is not None else Mode.ADVISORY),
    )  # the rules strict from the start, as the log's header says
    try:
        if checker is not None:
            session.table.checker = checker
        hook = (lambda: after_action(session)) if after_action is not None else None
        if hook is not None:
            hook()
        play(game, session.table, bots, after_action=hook)
        if path is not None:  # a game kept as a file keeps its result in its session record
            record_result(session.table, game, str(game.id))  # the table's step: the game's
    except BaseException:
        session.close()
        raise
    return session


def outcome(game: Any, state: Any) -> dict[str, Any]:
    """The result of a finished game: each seat's score (the flow's returns) and the winners."""
    returns = game.flow.returns(state)
    best = max(returns.values(), default=None)
    return {
        "scores": dict(returns),
        "winners": sorted(s for s, v in returns.items() if v == best),
        "over": bool(game.flow.is_terminal(state)),
    }


def simulate(
    game: Any,
    variant: str,
    bot_names: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    seats: Sequence[str],
    save_logs: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds seed, seed+1, ...) with the bots ``game.bots`` names, one a
    seat in seating order (one name: every seat); wins and mean scores per seat."""
    names = list(bot_names) * len(seats) if len(bot_names) == 1 else list(bot_names)
    if len(names) != len(seats):
        raise ValueError(f"the {variant} game has {len(seats)} seats: name {len(seats)} bots")
    factories = game.bots
    for name in names:
        if name not in factories:
            raise ValueError(f"no bot {name!r}: {', '.join(factories)}")
    totals = {s: {"wins": 0, "score": 0.0} for s in seats}
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        bots = {
            s: factories[n](game_seed * 10 + k)
            for k, (s, n) in enumerate(zip(seats, names, strict=True))
        }
        path = os.path.join(save_logs, f"game-{game_seed}.jsonl") if save_logs else None
        session = play_game(game, variant, bots, game_seed, path=path)
        try:
            result = outcome(game, session.state)
        finally:
            session.close()
        for s in seats:
            totals[s]["score"] += result["scores"].get(s, 0.0)
            totals[s]["wins"] += s in result["winners"]
        if progress is not None:
            progress(i + 1, games)
    elapsed = time.perf_counter() - start
    summary: dict[str, Any] = {
        "games": games,
        "variant": variant,
        "bots": dict(zip(seats, names, strict=True)),
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
    }
    for s, t in totals.items():
        summary[s] = {
            "wins": t["wins"],
            "mean_score": round(t["score"] / games, 2) if games else 0.0,
            "win_rate": round(t["wins"] / games, 3) if games else 0.0,
        }
    return summary
