"""The ``tabletop`` command: set games up, inspect them, read and branch their logs, draw them, measure.

Every error a person can cause (a wrong argument, a missing or broken file)
is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import Any

from rules_assist import cli as procedures_cli
from rules_assist.cli import Parser as _Parser
from rules_assist.simulate import simulate
from tabletop import __version__
from tabletop.core import TableError
from tabletop.inspection import entry_text, inspect_state, inspect_text, mapping_lines
from tabletop.modules import (
    ModuleError,
    default_module,
    find_module,
    module_ids,
    new_game,
)
from tabletop.modules.revisions import (
    import_revision,
    module_for_game,
    revisions,
    with_revision,
)
from tabletop.modules.rules import finding_dict, game_of
from tabletop.persist import Game

# Qt is imported only by the commands that draw (play, render), inside them, for start-up
# speed: the others start without it. Nothing imports this module, so nothing here dodges a
# cycle; the cheap imports the table, the modules and the procedures need are at the top.


class CliError(Exception):
    """A plain message for the person at the terminal."""


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tabletop", description="A digital tabletop for playtesting board games.")
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("new", help="set a new game up and write its log")
    p.add_argument(
        "module", help="a module id (see 'tabletop modules') or the path of a module folder"
    )
    p.add_argument(
        "-o", "--output", required=True, help="the new game's log file (.jsonl); never overwritten"
    )
    p.add_argument(
        "--seats", help="how many players, or which seats: '3', 'red,green', 'red=Ann,green=Bo'"
    )
    p.add_argument("--variant", default="", help="a variant of the module")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setup choice of the module (see 'tabletop modules')",
    )
    p.add_argument(
        "--random-colours", action="store_true", help="deal the players' colours at random"
    )
    p.add_argument(
        "--deck",
        metavar="REVISION",
        help="a revision of the module's deck (see 'tabletop deck list')",
    )
    p.add_argument(
        "--position",
        metavar="FILE",
        help="build the table a position file describes (for rules questions)",
    )
    p.add_argument(
        "--seed", type=int, help="the seed of the game's dice and shuffles (random if left out)"
    )
    p.add_argument("--notes", default="", help="free text kept in the log, e.g. the testers' names")
    p.add_argument(
        "--inspect", action="store_true", help="print the new table, as 'tabletop inspect' does"
    )

    p = sub.add_parser("inspect", help="every place of a game and what lies in it")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--at", type=int, help="show the table as it was after entry N")
    p.add_argument("--seat", help="show only what this seat may see")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("check", help="the rules' findings on a game's current table")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--at", type=int, help="check the table as it was after entry N")
    p.add_argument("--json", action="store_true", help="print a JSON list of findings")

    p = sub.add_parser("log", help="a game's log as readable lines")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--last", type=int, help="only the last N entries")
    p.add_argument("--json", action="store_true", help="print the entries as JSON lines")

    p = sub.add_parser("replay", help="write a new log that ends at entry N (a branch)")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--to", type=int, required=True, help="the last entry to keep")
    p.add_argument("-o", "--output", required=True, help="the new log; never overwritten")
    p.add_argument("--notes", help="notes for the branch (the original's are kept otherwise)")

    p = sub.add_parser("play", help="open the table window")
    p.add_argument(
        "target", nargs="?", help="a module id or folder (a new game), or a game log to open"
    )
    p.add_argument(
        "--screenshot", metavar="PNG", help="open, grab the window into this PNG, and quit"
    )
    p.add_argument("--seed", type=int, help="the seed of a new game")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SEAT=BOT",
        help="give a seat to one of the module's bots, e.g. --bot yellow=greedy (repeatable)",
    )

    p = sub.add_parser("render", help="draw a game's table into a PNG, SVG or PDF snapshot")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="the snapshot: .png, .svg or .pdf (the name says which); never overwritten",
    )
    p.add_argument("--at", type=int, help="draw the table as it was after entry N")
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="pixels (or points) per scene unit; 1 is 4 to the millimetre (default 1)",
    )
    p.add_argument("--caption", help="a title above the table")
    p.add_argument(
        "--log",
        type=int,
        default=8,
        metavar="N",
        help="the last N log entries under the table (default 8, 0 for none)",
    )
    p.add_argument(
        "--seat", help="draw what this seat sees (its own hand too); a spectator's view otherwise"
    )

    p = sub.add_parser("deck", help="revisions of a module's deck: list them, import one")
    deck_sub = p.add_subparsers(dest="deck_command", metavar="ACTION", parser_class=_Parser)
    deck_sub.required = True
    q = deck_sub.add_parser("list", help="the revisions of a module's deck")
    q.add_argument("module", help="a module id or folder")
    q = deck_sub.add_parser("import", help="check a CSV row by row and add it as a revision")
    q.add_argument("file", help="the CSV (the deck's columns)")
    q.add_argument("--name", required=True, help="the revision's name")
    q.add_argument(
        "--module", help="the module, an id or folder (default: the one 'tabletop play' opens)"
    )

    # A procedure's options depend on the game in FILE: rules_assist/cli.py builds them once
    # it has read FILE's header (so only this line is parsed here).
    p = sub.add_parser(
        "run",
        help="run a procedure of a game on a game file: 'tabletop run FILE PROCEDURE [options] -o OUT'"
        " ('tabletop run FILE --list' lists them; 'tabletop MODULE PROCEDURE FILE ...' is the same)",
        add_help=False,
    )
    p.add_argument("procedure_args", nargs=argparse.REMAINDER)

    p = sub.add_parser("procedures", help="a module's procedures: sections, phases, options")
    p.add_argument("module", help="a module id or folder")

    p = sub.add_parser("score", help="each seat's score as the game reads it, projected or final")
    p.add_argument("file", help="a game log")
    p.add_argument("--json", action="store_true", help="print one JSON object, by seat")

    p = sub.add_parser("simulate", help="bots play whole games of a module; wins and mean scores")
    p.add_argument("module", help="a module with a turn flow and bots")
    p.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed; then +1 a game")
    p.add_argument("--variant", default="standard", help="the variant (default standard)")
    p.add_argument("--deck", help="the deck revision to play with")
    p.add_argument(
        "--bots",
        default="random",
        help="one bot a seat in seating order, e.g. random,greedy,random; one name: every seat"
        " of the module's usual number",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--save-logs", metavar="DIR", help="write every game's log into this folder")

    p = sub.add_parser("modules", help="the game modules there are")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("bench", help="measure the table engine on this machine")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-window", action="store_true", help="only the table engine, not the window")
    return parser


def _open(path: str, writable: bool = False) -> Any:
    game = Game.open(path, writable=writable)
    for warning in game.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return game


def _check_output(path: str) -> None:
    if os.path.exists(path):
        raise CliError(f"{path}: already exists; choose another name (nothing was changed)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def _game_module(game: Any) -> Any:
    """The game's module with the deck revision it was set up with (warnings on stderr)."""
    module, warnings = module_for_game(find_module(game.header.module), game.header.decks)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return module


def _game_of(game: Any) -> Any:
    """The game interface of a saved game's module (rules_assist/game.py), or None when its
    module cannot be loaded or has no game."""
    try:
        return game_of(_game_module(game))
    except ModuleError:
        return None


def _module_summary(game: Any, state: Any) -> Any:
    """The game's own reading of the table (lines or a dict), where it has one."""
    rules = _game_of(game)
    return rules.summary(state) if rules is not None else None


def cmd_new(args: argparse.Namespace) -> int:
    _check_output(args.output)
    module = find_module(args.module)
    if args.deck:
        module = with_revision(module, args.deck)
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--option {item!r}: write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    options.update(_setup_options(module, args.extra))
    if args.random_colours:
        options["colours"] = "random"
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = new_game(
        module,
        seats=args.seats,
        variant=args.variant,
        seed=seed,
        notes=args.notes,
        path=args.output,
        options=options,
        position=args.position,
    )
    game.close()
    seats = ", ".join(s.name for s in game.header.seats)
    variant = f", variant {args.variant}" if args.variant else ""
    print(f"New game of {module.name} for {seats}{variant} (seed {seed}): {args.output}")
    if args.inspect:
        print()
        for line in _inspect_lines(game, game.state):
            print(line)
    return 0


def _setup_options(module: Any, extra: Sequence[str]) -> dict[str, str]:
    """The module's setup options given as ``--NAME VALUE`` (or ``--NAME=VALUE``): the same as
    ``--option NAME=VALUE``, e.g. ``--colours random``."""
    options: dict[str, str] = {}
    items = list(extra)
    while items:
        item = items.pop(0)
        name, sep, value = item.partition("=")
        key = name[2:].replace("-", "_") if name.startswith("--") else ""
        if key not in module.options:
            known = ", ".join(f"--{k.replace('_', '-')}" for k in module.options) or "none"
            raise CliError(f"unrecognized argument {item!r} ({module.name}'s options: {known})")
        if not sep:
            if not items or items[0].startswith("-"):
                raise CliError(f"{name}: give a value, e.g. {name} VALUE")
            value = items.pop(0)
        options[key] = value.strip()
    return options


def _inspect_lines(game: Any, state: Any, seat: str | None = None) -> list[str]:
    lines = inspect_text(state, seat)
    summary = _module_summary(game, state)
    if isinstance(summary, dict):
        lines += ["", *mapping_lines(summary)]
    elif summary:
        lines += ["", *summary]
    return lines


def cmd_inspect(args: argparse.Namespace) -> int:
    game = _open(args.file)
    table = game.table
    at = table.seq if args.at is None else args.at
    if not 0 <= at <= table.seq:
        raise CliError(f"{args.file}: there is no entry {at}; the log holds 0 to {table.seq}")
    state = table.state if at == table.seq else table.state_at(at)
    if args.seat is not None and args.seat not in {s.id for s in state.seats}:
        raise CliError(
            f"{args.file}: there is no seat {args.seat!r} (seats: {', '.join(s.id for s in state.seats)})"
        )
    if args.json:
        data = {
            "file": args.file,
            "module": game.header.module,
            "at": at,
            "of": table.seq,
            **inspect_state(state, args.seat),
        }
        summary = _module_summary(game, state)
        if isinstance(summary, dict):
            data.update(summary)  # a module's reading of the table stands beside the places
        elif summary is not None:
            data["summary"] = summary
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    header = game.header
    print(
        f"{args.file}: {header.module} {header.module_version}, seed {header.seed}"
        + (f", variant {header.variant}" if header.variant else "")
        + f", after entry {at} of {table.seq}"
    )
    if header.notes:
        print(f"Notes: {header.notes}")
    for line in _inspect_lines(game, state, args.seat):
        print(line)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    game = _open(args.file)
    table = game.table
    at = table.seq if args.at is None else args.at
    if not 0 <= at <= table.seq:
        raise CliError(f"{args.file}: there is no entry {at}; the log holds 0 to {table.seq}")
    try:
        module = _game_module(game)
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


def cmd_log(args: argparse.Namespace) -> int:
    game = _open(args.file)
    entries = game.table.entries
    if args.last is not None:
        if args.last < 0:
            raise CliError("--last must be a whole number of at least 0")
        entries = entries[len(entries) - args.last :] if args.last else []
    if args.json:
        for entry in entries:
            print(json.dumps(entry.to_dict(), ensure_ascii=False))
        return 0
    names = {s.id: s.name for s in game.header.seats}
    for entry in entries:
        print(entry_text(entry, names))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    _check_output(args.output)
    game = _open(args.file)
    if not 0 <= args.to <= game.table.seq:
        raise CliError(
            f"{args.file}: there is no entry {args.to}; the log holds 0 to {game.table.seq}"
        )
    game.branch(args.to, args.output, notes=args.notes)
    print(f"{args.output}: a new game holding entries 1 to {args.to} of {args.file}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from tabletop.ui.app import play  # here for start-up speed: Qt loads only for the window

    if args.screenshot is not None:
        _check_folder(args.screenshot)
    bots: dict[str, str] = {}
    for text in args.bot:
        seat, sep, kind = text.partition("=")
        if not sep or not seat.strip() or not kind.strip():
            raise CliError(f"--bot {text!r}: write it as SEAT=BOT, e.g. --bot yellow=greedy")
        bots[seat.strip()] = kind.strip()
    return play(args.target, args.screenshot, args.seed, bots)


def _check_folder(path: str) -> None:
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def cmd_render(args: argparse.Namespace) -> int:
    # here for start-up speed: Qt loads only for the commands that draw
    from tabletop.export import FORMATS, render_game
    from tabletop.export.snapshot import MAX_SCALE, MIN_SCALE

    _check_output(args.output)
    if os.path.splitext(args.output)[1].lower() not in FORMATS:
        raise CliError(f"{args.output}: name the snapshot .png, .svg or .pdf (nothing was written)")
    if not MIN_SCALE <= args.scale <= MAX_SCALE:  # also refuses nan
        raise CliError(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {args.scale}")
    if args.log < 0:
        raise CliError("--log must be a whole number of at least 0")
    game = _open(args.file)
    try:
        table = game.table
        if args.at is not None and not 0 <= args.at <= table.seq:
            raise CliError(
                f"{args.file}: there is no entry {args.at}; the log holds 0 to {table.seq}"
            )
        seats = {s.id: s.name for s in game.header.seats}
        if args.seat is not None and args.seat not in seats:
            raise CliError(
                f"{args.file}: there is no seat {args.seat!r} (seats: {', '.join(seats)})"
            )
        try:
            module = _game_module(game)
        except ModuleError as exc:
            print(f"warning: pieces are drawn plainly: {exc}", file=sys.stderr)
            module = None
        render_game(
            game,
            module,
            args.output,
            at=args.at,
            scale=args.scale,
            caption=args.caption,
            log_count=args.log,
            viewer=args.seat,
        )
    finally:
        game.close()
    at = table.seq if args.at is None else args.at
    who = f"as {seats[args.seat]} sees it" if args.seat else "as a spectator sees it"
    print(f"{args.output}: the table of {args.file} after entry {at} of {table.seq}, {who}")
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    if args.deck_command == "list":
        module = find_module(args.module)
        for name in revisions(module):
            deck = with_revision(module, name).decks[next(iter(module.decks))]
            print(f"{name:<20} {len(deck.cards)} rows  sha256 {deck.sha256[:16]}…")
        return 0
    module = find_module(args.module or default_module())
    target = import_revision(module, args.file, args.name)
    print(f"{args.file}: every row checked; added as revision {args.name!r} ({target})")
    return 0


def cmd_modules(args: argparse.Namespace) -> int:
    rows = []
    for module_id in module_ids():
        try:
            module = find_module(module_id)
            rows.append(
                {
                    "id": module.id,
                    "name": module.name,
                    "version": module.version,
                    "seats": f"{module.min_seats}-{module.max_seats}",
                    "variants": list(module.variants),
                }
            )
        except ModuleError as exc:
            rows.append({"id": module_id, "error": str(exc)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        if "error" in row:
            print(f"{row['id']:<12} cannot be loaded: {row['error']}")
        else:
            variants = f"; variants: {', '.join(row['variants'])}" if row["variants"] else ""
            print(
                f"{row['id']:<12} {row['name']} {row['version']} ({row['seats']} players{variants})"
            )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    # imported here for start-up speed: the benchmark's own imports (subprocess, statistics,
    # platform) load only for ``tabletop bench``, not before every command and the window
    from tabletop import bench

    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    results = bench.run(progress, window=not args.no_window)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:<34} {value}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """The game's score: one row per seat; projected during the game, final after it.

    A row is a dict: the seat (``seat``, or ``colour`` as the score panel reads it), whole
    numbers (one column each), ``final`` and ``ending`` when the game is over, and any other
    flag that is true shown after the numbers (``extinct``)."""
    game = _open(args.file)
    try:
        module = _game_module(game)
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


def cmd_module_procedure(args: argparse.Namespace) -> int:
    """``tabletop MODULE PROCEDURE FILE ...``: the shorthand of ``tabletop run``."""
    print(procedures_cli.run_shorthand(args.module, args.procedure_args))
    return 0


COMMANDS = {
    "check": cmd_check,
    "procedures": cmd_procedures,
    "run": cmd_run,
    "new": cmd_new,
    "inspect": cmd_inspect,
    "log": cmd_log,
    "replay": cmd_replay,
    "play": cmd_play,
    "render": cmd_render,
    "deck": cmd_deck,
    "score": cmd_score,
    "modules": cmd_modules,
    "bench": cmd_bench,
    "simulate": cmd_simulate,
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv else ""
    try:
        if command == "run":  # the procedure's options are built from FILE's game
            return cmd_run(argparse.Namespace(command="run", procedure_args=argv[1:]))
        if command and command not in COMMANDS and procedures_cli.has_procedures(command):
            return cmd_module_procedure(
                argparse.Namespace(command=command, module=command, procedure_args=argv[1:])
            )
        parser = _parser()
        args, extra = parser.parse_known_args(argv)
        command = args.command
        if extra and command != "new":  # only a new game takes its module's own options
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.extra = extra
        return COMMANDS[command](args)
    except (CliError, TableError) as exc:
        print(f"tabletop {command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tabletop {command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tabletop: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
