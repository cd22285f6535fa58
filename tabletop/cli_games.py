"""The ``tabletop`` commands that ask a game (rules_assist/game.py, through
``tabletop.modules.rules.game_of``): check, score, simulate, and the procedures (run, procedures,
``tabletop MODULE PROCEDURE FILE``); and how a saved game's module and game are found."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rules_assist import cli as procedures_cli
from rules_assist.simulate import simulate
from tabletop.modules import ModuleError, find_module
from tabletop.modules.revisions import module_for_game, with_revision
from tabletop.modules.rules import finding_dict, game_of
from tabletop.persist import Game


class CliError(Exception):
    """A plain message for the person at the terminal."""


def open_game(path: str, writable: bool = False) -> Any:
    game = Game.open(path, writable=writable)
    for warning in game.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return game


def check_output(path: str) -> None:
    if os.path.exists(path):
        raise CliError(f"{path}: already exists; choose another name (nothing was changed)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def game_module(game: Any) -> Any:
    """The game's module with the deck revision it was set up with (warnings on stderr)."""
    module, warnings = module_for_game(find_module(game.header.module), game.header.decks)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return module


def game_of_saved(game: Any) -> Any:
    """The game interface of a saved game's module (rules_assist/game.py), or None when its
    module cannot be loaded or has no game."""
    try:
        return game_of(game_module(game))
    except ModuleError:
        return None


def module_summary(game: Any, state: Any) -> Any:
    """The game's own reading of the table (lines or a dict), where it has one."""
    rules = game_of_saved(game)
    return rules.summary(state) if rules is not None else None


def cmd_check(args: argparse.Namespace) -> int:
    game = open_game(args.file)
    table = game.table
    at = table.seq if args.at is None else args.at
    if not 0 <= at <= table.seq:
        raise CliError(f"{args.file}: there is no entry {at}; the log holds 0 to {table.seq}")
    try:
        module = game_module(game)
    except ModuleError as exc:
        raise CliError(
            f"{args.file}: its module cannot be loaded, so its rules cannot be checked ({exc})"
        ) from None
    rules = game_of(module)
    findings = (
        rules.audit(table.state if at == table.seq else table.state_at(at)) if rules else None
    )
    if findings is None:
        raise CliError(f"{module.name} has no rules assistant to check with")
    if args.json:
        print(json.dumps([finding_dict(f) for f in findings], indent=2, ensure_ascii=False))
        return 0
    if not findings:
        print(f"{args.file}: no findings after entry {at}")
    for f in findings:
        pieces = f" [{', '.join(f.pieces)}]" if f.pieces else ""
        print(f"{f.rule} {f.severity.value}: {f.message}{pieces}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """The game's score: one row per seat; projected during the game, final after it.

    A row is a dict: the seat (``seat``, or ``colour`` as the score panel reads it), whole
    numbers (one column each), ``final`` and ``ending`` when the game is over, and any other
    flag that is true shown after the numbers (``extinct``)."""
    game = open_game(args.file)
    try:
        module = game_module(game)
    except ModuleError as exc:
        raise CliError(
            f"{args.file}: its module cannot be loaded, so it cannot be scored ({exc})"
        ) from None
    rules = game_of(module)
    rows = rules.score(game.table.state) if rules is not None else None
    if rows is None:
        raise CliError(f"{args.file}: {module.name} has no scoring in the rules assistant")
    names = {s.id: s.name for s in game.header.seats}

    def seat(row: dict[str, Any]) -> str:
        return str(row.get("seat", row.get("colour", "")))

    def points(row: dict[str, Any]) -> dict[str, Any]:
        found = {k: v for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool)}
        return {**found, **{k: True for k, v in row.items() if v is True and k != "final"}}

    def marks(row: dict[str, Any]) -> list[str]:
        return [k for k, v in row.items() if v is True and k != "final"]

    if args.json:
        print(json.dumps({seat(row): points(row) for row in rows}, indent=2))
        return 0
    final = any(row.get("final") for row in rows)
    ending = next((row.get("ending") for row in rows if row.get("ending")), None)
    print(
        f"{args.file}: "
        + (
            f"final score{f' ({ending})' if ending else ''}"
            if final
            else "projected score (the game goes on)"
        )
    )
    kinds = [k for k in (points(rows[0]) if rows else {}) if k not in marks(rows[0])]
    word = rules.seat_word.lower()
    print(f"{word:<16}" + "".join(f"{k:>12}" for k in kinds))
    for row in rows:
        name = f"{seat(row)} ({names[seat(row)]})" if seat(row) in names else seat(row)
        mark = "".join(f"  {m}" for m in marks(row))
        print(f"{name:<16}" + "".join(f"{row.get(k, 0):>12}" for k in kinds) + mark)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bots play whole games through the game's turn flow (rules_assist/simulate.py)."""
    module = find_module(args.module)
    if args.deck:
        module = with_revision(module, args.deck)
    game = game_of(module)
    factories = game.bots if game is not None else {}
    if not factories:
        raise CliError(f"{module.id}: {module.name} has no bots to play it")
    if args.variant not in module.variants:
        raise CliError(
            f"{module.name} has no variant {args.variant!r} ({', '.join(module.variants)})"
        )
    if args.games < 1:
        raise CliError("--games must be 1 or more")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names or any(n not in factories for n in names):
        raise CliError(f"--bots {args.bots!r}: each bot is {' or '.join(factories)}")
    if game.flow is None:
        raise CliError(f"{module.id}: {module.name} has no turn flow for bots to play through")
    count = len(names) if len(names) > 1 else module.default_seats
    if not module.min_seats <= count <= module.max_seats:
        raise CliError(
            f"--bots: {module.name} seats {module.min_seats} to {module.max_seats} players,"
            f" not {count}"
        )
    seats = [s.id for s in module.seats[:count]]
    if args.save_logs:
        os.makedirs(args.save_logs, exist_ok=True)
        taken = [
            f"game-{args.seed + i}.jsonl"
            for i in range(args.games)
            if os.path.exists(os.path.join(args.save_logs, f"game-{args.seed + i}.jsonl"))
        ]
        if taken:
            raise CliError(f"{args.save_logs}: {taken[0]} already exists (nothing was changed)")

    live = sys.stderr.isatty()

    def bar(done: int, total: int) -> None:
        """A bar redrawn in place on a terminal; into a file or a pipe, a line every tenth."""
        filled = round(20 * done / total)
        text = f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{total}"
        if live:
            print(f"\r{text}", end="\n" if done == total else "", file=sys.stderr, flush=True)
        elif done == total or done * 10 // total != (done - 1) * 10 // total:
            print(text, file=sys.stderr, flush=True)

    try:
        summary = simulate(
            game,
            args.variant,
            names,
            args.games,
            args.seed,
            seats=seats,
            save_logs=args.save_logs,
            progress=bar,
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    bots = ", ".join(f"{s}={b}" for s, b in summary["bots"].items())
    print(
        f"{args.games} games of {module.name} ({args.variant}),"
        f" seeds {args.seed}-{args.seed + args.games - 1}; bots {bots}"
    )
    word = game.seat_word.lower()
    print(f"{word:<12} {'wins':>6} {'win %':>6} {'mean score':>11}")
    for seat in seats:
        row = summary[seat]
        print(
            f"{seat:<12} {row['wins']:>6} {100 * row['win_rate']:>6.1f} {row['mean_score']:>11.2f}"
        )
    print(f"{summary['games_per_s']} games/s; the highest score wins, ties all win")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """``tabletop run FILE PROCEDURE ...`` (rules_assist/cli.py builds the procedure's options)."""
    text = procedures_cli.run_command(args.procedure_args)
    if text:
        print(text)
    return 0


def cmd_procedures(args: argparse.Namespace) -> int:
    game = game_of(find_module(args.module))
    if game is None:
        raise CliError(f"{args.module}: its module has no rules assistant, so no procedures")
    for line in procedures_cli.procedure_lines(game):
        print(line)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """``tabletop rules MODULE``: the rules the game's assistant checks, by section."""
    game = game_of(find_module(args.module))
    if game is None or game.rulebook is None:
        raise CliError(f"{args.module}: its module has no rules assistant, so no rules to check")
    if args.json:
        print(json.dumps(procedures_cli.rule_records(game), indent=2))
    else:
        for line in procedures_cli.rule_lines(game):
            print(line)
    return 0


def cmd_module_procedure(args: argparse.Namespace) -> int:
    """``tabletop MODULE PROCEDURE FILE ...``: the shorthand of ``tabletop run``."""
    print(procedures_cli.run_shorthand(args.module, args.procedure_args))
    return 0
