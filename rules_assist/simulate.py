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
``simulate(game, variant, bot_names, games, seed, jobs=N)`` plays many, in N
worker processes (fresh interpreters: nothing of a window goes with them),
and sums them up in seed order, so the same seeds give the same summary on
any number of cores: per seat its wins and win rate with a Wilson 95%
interval, its mean score with a 95% interval (normal approximation), and a
row per game (``summary_of``; ``write_summary`` writes it whole or not at all).
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import multiprocessing
import os
import queue
import signal
import statistics
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from tabletop.core import Mode, Policy, Refused, TableError, bot_actor
from tabletop.modules import load_module
from tabletop.modules.gamecode import game_of
from tabletop.modules.results import record_result
from tabletop.modules.revisions import with_revision
from tabletop.persist import atomic_path, atomic_write_text, leftovers

from .driver import CHANCE, MOVES, TERMINAL, Action, Driver
from .procedures import ChoiceNeeded, ProcedureError

MAX_ACTIONS = 20_000
MAX_QUESTIONS = 400


class SimulationError(TableError):
    """A game the bots could not go on with (nobody had a move, or it ran too long); ``seed``
    names the game when it is known."""

    def __init__(self, message: str, seed: int | None = None) -> None:
        super().__init__(message)
        self.seed = seed


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
    clock = None  # the table's version the failed actions were tried on
    for taken in range(max_actions):
        player, actions = driver.turn()
        if player == TERMINAL or (until is not None and until()):
            return taken
        seat = None if player == CHANCE else player
        if failed:
            if table.state.version != clock:
                failed = set()  # the table has changed: every action may be tried again
            else:
                actions = [a for a in actions if _key(a) not in failed]
        if not actions:
            raise SimulationError(
                f"{game.id}: nobody can move ({'; '.join(driver.status().lines) or player})"
            )
        bot = bots.get(seat or "", first)
        action = bot.act(driver, seat, actions)
        version = table.state.version
        if not _take(driver, bots, bot, seat, action):
            clock = version
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


# ---- many games: on one core or on many ---------------------------------------------------
Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: two-sided 95%
CHUNK = 8  # seeds handed to a worker at a time


def default_jobs() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with the default ``z``); (0, 1) for no game."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    scale = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends
    return (low, 1.0 if wins == games else min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A 95% interval of a mean by the normal approximation: mean +- z * s / sqrt(n), with s the
    sample standard deviation; one value gives the value itself."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return (mean - half, mean + half)


def _seat_bots(
    variant: str, seats: Sequence[str], bot_names: Sequence[str], factories: Any
) -> list[str]:
    names = list(bot_names) * len(seats) if len(bot_names) == 1 else list(bot_names)
    if len(names) != len(seats):
        raise ValueError(f"the {variant} game has {len(seats)} seats: name {len(seats)} bots")
    for name in names:
        if name not in factories:
            raise ValueError(f"no bot {name!r}: {', '.join(factories)}")
    return names


def log_name(seed: int) -> str:
    """The name of a simulated game's log in ``--save-logs``' folder."""
    return f"game-{seed}.jsonl"


def play_seed(
    game: Any,
    variant: str,
    seats: Sequence[str],
    names: Sequence[str],
    seed: int,
    save_logs: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """One game of a simulation, its bots seeded from ``seed``: its row (seed, who sat where
    with which bot, scores and winners, the first seat to move, turns and actions)."""
    factories = game.bots
    bots = {
        s: factories[n](seed * 10 + k) for k, (s, n) in enumerate(zip(seats, names, strict=True))
    }
    seen = {"actions": -1, "first": None}  # the hook runs once after the setup, then per action

    def watch(session: Any) -> None:
        seen["actions"] += 1
        if seen["first"] is None:
            to_move = game.flow.status(session.state).to_move
            if to_move in bots:
                seen["first"] = to_move

    def played(path: str | None) -> tuple[dict[str, Any], int]:
        session = play_game(game, variant, bots, seed, path=path, after_action=watch)
        try:
            return outcome(game, session.state), game.flow.status(session.state).turn
        finally:
            session.close()

    if save_logs:
        # written under a fresh temporary name, renamed when the game is over; a file of that
        # name made meanwhile is kept (FileExistsError)
        target = os.path.join(save_logs, log_name(seed))
        try:
            with atomic_path(target, create=False) as partial:
                result, turns = played(str(partial))
        except FileExistsError:
            raise SimulationError(f"{target} already exists; it is kept as it was") from None
    else:
        result, turns = played(None)
    return {
        "seed": seed,
        "first": seen["first"],
        "turns": turns,
        "actions": seen["actions"],
        "seats": [
            {
                "seat": s,
                "bot": n,
                "score": result["scores"].get(s, 0.0),
                "winner": s in result["winners"],
            }
            for s, n in zip(seats, names, strict=True)
        ],
    }


def _kept(folder: str, seeds: Sequence[int]) -> list[str]:
    """The logs a stopped run left in its ``--save-logs`` folder (of the games that ended)."""
    return [log_name(s) for s in seeds if os.path.lexists(os.path.join(folder, log_name(s)))]


def _failure(seed: int, exc: BaseException) -> str:
    return f"the game of seed {seed} failed: {str(exc) or type(exc).__name__}"


def _recipe(game: Any) -> tuple[str, tuple[tuple[str, str, str], ...]]:
    """What a worker process needs to make the same game: the module's folder and each deck's
    revision (its file's name and sha256)."""
    module = game.module
    decks = tuple((d, deck.path.stem, deck.sha256) for d, deck in module.decks.items())
    return str(module.folder), decks


def _game_from(recipe: tuple[str, tuple[tuple[str, str, str], ...]]) -> Any:
    folder, decks = recipe
    module = load_module(folder)
    for deck_id, name, _sha in decks:
        if deck_id in module.decks and module.decks[deck_id].path.stem != name:
            module = with_revision(module, name, deck_id)
    for deck_id, name, sha in decks:
        if deck_id not in module.decks or module.decks[deck_id].sha256 != sha:
            raise SimulationError(f"the deck {name!r} changed while the games were played")
    return game_of(module)


def _worker(
    recipe: tuple[str, tuple[tuple[str, str, str], ...]],
    variant: str,
    seats: Sequence[str],
    names: Sequence[str],
    save_logs: str | None,
    tasks: Any,
    results: Any,
) -> None:
    """A worker process: takes chunks of seeds until it is told to stop (None), and sends back
    ("row", seed, row) a game, or ("error", seed, message) and stops. Ctrl+C is its parent's to
    handle: the parent ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    game = None
    while True:
        chunk = tasks.get()
        if chunk is None:
            return
        for seed in chunk:
            try:
                if game is None:
                    game = _game_from(recipe)
                    gc.collect()
                    gc.freeze()  # the module and its game: kept, out of the cycle collector's way
                results.put(("row", seed, play_seed(game, variant, seats, names, seed, save_logs)))
            except Exception as exc:
                results.put(("error", seed, _failure(seed, exc)))
                return


@contextlib.contextmanager
def _starting_workers() -> Iterator[None]:
    """While worker processes start: this process's main script hidden (a new interpreter
    would run it again, and with it whatever it imports, Qt for a window; the workers need
    only this module), and Ctrl+C ignored so that they start ignoring it too (a new
    interpreter keeps an ignored SIGINT ignored; only in the main thread, where signals are
    handled)."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    before = None
    if threading.current_thread() is threading.main_thread():
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
        if main is not None:
            sys.modules["__main__"] = main


def _in_workers(
    game: Any,
    variant: str,
    seats: Sequence[str],
    names: Sequence[str],
    seeds: Sequence[int],
    save_logs: str | None,
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> list[dict[str, Any]]:
    """The games played by ``jobs`` worker processes (started fresh: no window or Qt of this
    process goes with them), each taking chunks of seeds as it is free; rows as they finish."""
    context = multiprocessing.get_context("spawn")
    tasks, results = context.Queue(), context.Queue()
    for i in range(0, len(seeds), CHUNK):
        tasks.put(list(seeds[i : i + CHUNK]))
    for _ in range(jobs):
        tasks.put(None)
    args = (_recipe(game), variant, list(seats), list(names), save_logs, tasks, results)
    workers = [context.Process(target=_worker, args=args, daemon=True) for _ in range(jobs)]
    rows: list[dict[str, Any]] = []
    finished = False
    try:
        with _starting_workers():
            for worker in workers:
                worker.start()
        while len(rows) < len(seeds):
            try:
                kind, seed, payload = results.get(timeout=1.0)
            except queue.Empty:
                stopped = [w.exitcode for w in workers if w.exitcode not in (None, 0)]
                if stopped:
                    raise SimulationError(
                        f"a worker process stopped (exit code {stopped[0]}) with"
                        f" {len(seeds) - len(rows)} games unplayed"
                    ) from None
                continue
            if kind == "error":
                raise SimulationError(payload, seed)
            rows.append(payload)
            if progress is not None:
                progress(len(rows), len(seeds))
        finished = True
    finally:
        for worker in workers:
            if not finished and worker.is_alive():
                worker.terminate()
            worker.join()
        for channel in (tasks, results):
            channel.cancel_join_thread()
            channel.close()
    return rows


def summary_of(
    game: Any,
    variant: str,
    seats: Sequence[str],
    names: Sequence[str],
    rows: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """What a simulation found, from its games' rows taken in seed order (so the same seeds give
    the same summary however the games were shared out): per seat its wins, win rate with a
    Wilson 95% interval and mean score with a 95% interval (normal approximation); the module,
    its deck revisions, the variant, the bots, the seeds and every game's row."""
    rows = sorted(rows, key=lambda row: row["seed"])
    games = len(rows)
    module = game.module
    summary: dict[str, Any] = {
        "games": games,
        "variant": variant,
        "bots": dict(zip(seats, names, strict=True)),
    }
    for k, seat in enumerate(seats):
        scores = [float(row["seats"][k]["score"]) for row in rows]
        wins = sum(1 for row in rows if row["seats"][k]["winner"])
        low, high = wilson_interval(wins, games)
        mean_low, mean_high = mean_interval(scores)
        summary[seat] = {
            "wins": wins,
            "mean_score": round(math.fsum(scores) / games, 2) if games else 0.0,
            "win_rate": round(wins / games, 3) if games else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_score_ci95": [round(mean_low, 3), round(mean_high, 3)],
            "score_sd": round(statistics.stdev(scores), 3) if games > 1 else 0.0,
        }
    summary["intervals"] = {
        "win_rate_ci95": "Wilson score interval, 95%",
        "mean_score_ci95": "normal approximation, mean +- 1.96 sample sd / sqrt(games)",
    }
    summary["module"] = {"id": module.id, "name": module.name, "version": module.version}
    summary["revision"] = {
        deck_id: {"deck": deck.path.stem, "file": deck.path.name, "sha256": deck.sha256}
        for deck_id, deck in module.decks.items()
    }
    seeds = [row["seed"] for row in rows]
    summary["seeds"] = {"first": seeds[0], "last": seeds[-1]} if seeds else {}
    summary["rows"] = rows
    return summary


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
    jobs: int | None = 1,
) -> dict[str, Any]:
    """Play ``games`` games (seeds seed, seed+1, ...) with the bots ``game.bots`` names, one a
    seat in seating order (one name: every seat); the summary (``summary_of``) with the run's
    pace (``games_per_s``; ``run``: jobs and seconds).

    ``jobs`` worker processes play the games (None: one a core; 1: this process, no worker);
    the summary is the same for any ``jobs``. ``progress(done, games)`` hears each finished
    game. A game that fails stops the run with a SimulationError naming its seed; with
    ``save_logs``, each finished game's log is there as ``game-SEED.jsonl`` and no log of an
    unfinished game is left behind."""
    names = _seat_bots(variant, seats, bot_names, game.bots)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    jobs = max(1, min(jobs, games))
    seeds = list(range(seed, seed + games))
    folder = os.fspath(save_logs) if save_logs else None
    start = time.perf_counter()
    try:
        if jobs == 1:
            rows = []
            for game_seed in seeds:
                try:
                    rows.append(play_seed(game, variant, seats, names, game_seed, folder))
                except Exception as exc:
                    raise SimulationError(_failure(game_seed, exc), game_seed) from exc
                if progress is not None:
                    progress(len(rows), games)
        else:
            rows = _in_workers(game, variant, seats, names, seeds, folder, jobs, progress)
    except BaseException as exc:
        if folder is not None:  # a worker ended mid-game leaves its log unfinished
            for game_seed in seeds:
                for leftover in leftovers(os.path.join(folder, log_name(game_seed)), age=0):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(leftover)
            if isinstance(exc, SimulationError):
                kept = _kept(folder, [s for s in seeds if s != exc.seed])
                if kept:
                    raise SimulationError(
                        f"{exc}; the logs of the games that ended are in {folder}: "
                        + ", ".join(kept),
                        exc.seed,
                    ) from exc
        raise
    elapsed = time.perf_counter() - start
    found = summary_of(game, variant, seats, names, rows)
    rate = round(games / elapsed, 2) if elapsed else 0.0
    summary = {k: found[k] for k in ("games", "variant", "bots")}
    summary["games_per_s"] = rate
    summary.update({k: v for k, v in found.items() if k not in summary})
    summary["run"] = {"jobs": jobs, "seconds": round(elapsed, 3), "games_per_s": rate}
    return summary


def write_summary(summary: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """The summary as JSON in ``path``, written whole or not at all (a temporary file renamed);
    FileExistsError if ``path`` exists, even if it was made while the games were played."""
    atomic_write_text(path, json.dumps(summary, indent=2) + "\n")
