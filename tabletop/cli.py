"""The ``tabletop`` command: set games up, inspect them, read and branch their logs, draw them, measure.

Every error a person can cause (a wrong argument, a missing or broken file)
is one line on stderr and exit code 2, never a traceback. The commands that
ask a game (check, score, simulate, run, procedures) are in tabletop/cli_games.py,
every command's options in tabletop/cli_parser.py; the procedures' options are
built from the game's table of procedures by rules_assist/cli.py.
"""

from __future__ import annotations

from tabletop import codecache

# before the imports below make the program's dataclasses (their methods' compiled code, kept)
codecache.install()

import argparse
import io
import json
import os
import random
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from tabletop.cli_errors import CliError
from tabletop.cli_parser import (
    EXPORT_COMMANDS,
    FAIR_COMMANDS,
    NOTE_COMMANDS,
    ONLINE_COMMANDS,
    RECORD_COMMANDS,
    REPORT_COMMANDS,
)
from tabletop.cli_parser import parser as build_parser
from tabletop.core import CommandError, Entry, Mode, Names, Policy, TableError, printable
from tabletop.core.randomness import ContributionsMissing
from tabletop.core.textsafe import TerminalText
from tabletop.inspection import (
    entry_text,
    inspect_state,
    inspect_text,
    mapping_lines,
    strictness_text,
)
from tabletop.log_view import LogReader, PieceWords
from tabletop.modules import (
    ModuleError,
    default_module,
    find_module,
    module_ids,
    name_module_folders,
    new_game,
)
from tabletop.modules.words import piece_words
from tabletop.persist import atomic_path
from tabletop.persist.seatview import copy_owner_text, seat_view_of

# Qt is imported only by the commands that draw (play, render), inside them, for start-up
# speed: the others start without it. So are play by email's code (its keys, envelopes and
# take-backs), the sessions' table and the decks' comparison, by their commands (and their
# options by tabletop/cli_parser.py when those commands are given): every other command, the
# window's start among them, would load them for nothing (some 15 ms). Likewise every command
# module (tabletop/cli_games.py with the procedures' command line, cli_export, cli_fair,
# cli_notes, cli_record, cli_report, tabletop/online/commands.py) and the decks' revisions
# load with the commands that use them, inside those commands: ``tabletop play`` uses none of
# them. Nothing imports this module, so nothing here dodges a cycle; the cheap imports the
# table, the modules and the window need anyway are at the top.


def cmd_new(args: argparse.Namespace) -> int:
    # only here (see the imports above)
    from tabletop.cli_fair import new_game_hint, new_game_options
    from tabletop.cli_games import check_output
    from tabletop.cli_record import named_seats, pairs, session_start
    from tabletop.modules.revisions import with_revision

    check_output(args.output)
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
    testers = {**named_seats(args.seats), **pairs(args.tester, "--tester")}
    fair = new_game_options(args)
    try:  # set up under a fresh temporary name: OUT appears whole, and is never replaced
        with atomic_path(args.output, create=False) as temp:
            game = new_game(
                module,
                seats=args.seats,
                variant=args.variant,
                seed=seed,
                notes=args.notes,
                path=temp,
                options=options,
                position=args.position,
                policy=Policy(Mode(args.rules)),
                session=session_start(testers, args.where),
                **fair,
            )
            game.close()
    except FileExistsError:
        raise CliError(
            f"{args.output}: already exists; choose another name (nothing was changed)"
        ) from None
    except TableError as exc:
        text = new_game_hint(exc) if fair else str(exc)
        if isinstance(exc, CommandError) and not isinstance(exc, ContributionsMissing):
            # a setup step the table refuses: the module's (or the position's) fault
            text = f"{args.position or args.module}: the table cannot be set up: {text}"
        elif args.position and args.position not in text:  # a position's table, refused
            text = f"{args.position}: {text}"
        raise CliError(text) from None
    game.path = args.output
    seats = ", ".join(s.name for s in game.header.seats)
    variant = f", variant {args.variant}" if args.variant else ""
    print(f"New game of {module.name} for {seats}{variant} (seed {seed}): {args.output}")
    if fair:
        print(f"Dice and shuffles committed: {fair['committed'].commitment}")
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
    from tabletop.cli_games import module_summary  # only here (see the imports above)

    lines = inspect_text(state, seat)
    summary = module_summary(game, state)
    if isinstance(summary, dict):
        lines += ["", *mapping_lines(summary)]
    elif summary:
        lines += ["", *summary]
    return lines


def cmd_inspect(args: argparse.Namespace) -> int:
    from tabletop.cli_games import module_summary, open_game  # only here (see the imports)

    game = open_game(args.file)
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
            "rules": strictness_text(table),
            **inspect_state(state, args.seat),
        }
        summary = module_summary(game, state)
        if isinstance(summary, dict):
            data.update(summary)  # a module's reading of the table stands beside the places
        elif summary is not None:
            data["summary"] = summary
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    header = game.header
    copy = seat_view_of(header)[0]
    print(
        f"{args.file}: {header.module} {header.module_version}, "
        + (copy_owner_text(header) if copy else f"seed {header.seed}")
        + (f", variant {header.variant}" if header.variant else "")
        + f", after entry {at} of {table.seq}"
    )
    if header.notes:
        print(f"Notes: {header.notes}")
    print(f"Rules: {strictness_text(table)}")
    for line in _inspect_lines(game, state, args.seat):
        print(line)
    return 0


def _log_text(seats: dict[str, str], undone: frozenset[int]) -> Callable[[Entry, Names], str]:
    """An entry's line in ``names``, its findings marked where its move was taken back."""
    return lambda entry, names: entry_text(entry, seats, undone=entry.seq in undone, names=names)


def cmd_log(args: argparse.Namespace) -> int:
    # only here (see the imports above)
    from tabletop.cli_games import game_module, open_game
    from tabletop.cli_notes import log_note_lines, notes_by_entry

    game = open_game(args.file)
    entries = game.table.entries
    if args.last is not None:
        if args.last < 0:
            raise CliError("--last must be a whole number of at least 0")
        entries = entries[len(entries) - args.last :] if args.last else []
    reader = args.seat is not None or args.spectator
    copy, copy_seat = seat_view_of(game.header)
    if copy and not reader:  # a seat's copy reads as its seat reads it
        args.seat, args.spectator, reader = copy_seat, copy_seat is None, not args.json
    if args.json:
        if reader:
            raise CliError("--json prints the entries as the file holds them: leave out --seat")
        for entry in entries:
            print(json.dumps(entry.to_dict(), ensure_ascii=False))
        return 0
    names = {s.id: s.name for s in game.header.seats}
    undone = game.table.undone()
    notes = notes_by_entry(game)  # shown under the entries they are tied to
    if not reader:  # the file's own lines: everything, hidden cards too
        try:
            words = piece_words(game_module(game))
        except ModuleError:  # without the module: the cards are not named, nothing is hidden
            words = PieceWords()
        everything = LogReader(game.table, names, words, text=_log_text(names, undone))
        for entry in entries:
            print(everything.text(entry))
            for line in log_note_lines(notes.get(entry.seq, []), names, lambda _s, t: t):
                print(line)
    else:
        if args.seat is not None and args.seat not in names:
            raise CliError(
                f"{args.file}: there is no seat {args.seat!r} (seats: {', '.join(names)})"
            )
        try:
            words = piece_words(game_module(game))
        except ModuleError as exc:  # without the cards' names a label could name a hidden card
            raise CliError(
                f"{args.file}: cannot read as a seat without the game's module: {exc}"
            ) from None
        reader_of = LogReader(game.table, names, words, text=_log_text(names, undone))
        for entry in entries:
            print(reader_of.line(entry, args.seat))
            redact = lambda seq, text: reader_of.redact(seq, text, args.seat)  # noqa: E731
            for line in log_note_lines(notes.get(entry.seq, []), names, redact):
                print(line)
    if args.last is None:  # the whole log: how it was refereed
        print(f"Rules: {strictness_text(game.table)}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from tabletop.cli_games import check_output, open_game  # only here (see the imports above)

    check_output(args.output)
    game = open_game(args.file)
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
    size = None
    if args.size is not None:
        width, sep, height = args.size.lower().partition("x")
        if not (width.isdigit() and height.isdigit() and sep and int(width) and int(height)):
            raise CliError(f"--size {args.size!r}: write it as WIDTHxHEIGHT, e.g. 1366x768")
        size = (int(width), int(height))
    return play(args.target, args.screenshot, args.seed, bots, size)


def cmd_join(args: argparse.Namespace) -> int:
    """A seat of a live game: in the window, or played by a bot here (--bot)."""
    if args.bot:
        return _online_command(args)
    from tabletop.ui.app import join  # here for start-up speed: Qt loads only for the window

    return join(args.address)


def _check_folder(path: str) -> None:
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def cmd_render(args: argparse.Namespace) -> int:
    # here for start-up speed: Qt loads only for the commands that draw
    from tabletop.cli_games import check_output, game_module, open_game
    from tabletop.export import FORMATS, ExportError, render_game
    from tabletop.export.snapshot import MAX_SCALE, MIN_SCALE

    check_output(args.output)
    if os.path.splitext(args.output)[1].lower() not in FORMATS:
        raise CliError(f"{args.output}: name the snapshot .png, .svg or .pdf (nothing was written)")
    if not MIN_SCALE <= args.scale <= MAX_SCALE:  # also refuses nan
        raise CliError(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {args.scale}")
    if args.log < 0:
        raise CliError("--log must be a whole number of at least 0")
    game = open_game(args.file)
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
        copy, copy_seat = seat_view_of(game.header)
        if copy and args.seat is None:  # a seat's copy is drawn as its seat sees it
            args.seat = copy_seat
        try:
            module = game_module(game)
        except ModuleError as exc:
            # without the cards' names the log band could name a hidden card: left out
            print(f"warning: pieces are drawn plainly, with no log band: {exc}", file=sys.stderr)
            module = None
        try:
            render_game(
                game,
                module,
                args.output,
                at=args.at,
                scale=args.scale,
                caption=args.caption,
                log_count=args.log if module is not None else 0,
                viewer=args.seat,
                region=args.region.split(",") if args.region is not None else None,
                crop=args.crop,
            )
        except ExportError as exc:  # e.g. a table too large to draw: say which game's
            text = str(exc)
            if args.file not in text and args.output not in text:
                text = f"{args.file}: {text}"
            raise CliError(text) from None
    finally:
        game.close()
    at = table.seq if args.at is None else args.at
    who = f"as {seats[args.seat]} sees it" if args.seat else "as a spectator sees it"
    part = f" ({args.region})" if args.region else f" (crop {args.crop})" if args.crop else ""
    print(f"{args.output}: the table{part} of {args.file} after entry {at} of {table.seq}, {who}")
    return 0


def cmd_pbem(args: argparse.Namespace) -> int:
    from tabletop.cli_pbem import cmd_pbem as run  # only here (see the imports above)

    return run(args)


def cmd_sessions(args: argparse.Namespace) -> int:
    from tabletop.cli_sessions import cmd_sessions as run  # only here (see the imports above)

    return run(args)


def cmd_deck(args: argparse.Namespace) -> int:
    # only here (see the imports above)
    from tabletop.modules.revisions import import_revision, revisions, with_revision

    if args.deck_command == "list":
        module = find_module(args.module)
        for name in revisions(module):
            deck = with_revision(module, name).decks[next(iter(module.decks))]
            print(f"{name:<20} {len(deck.cards)} rows  sha256 {deck.sha256[:16]}…")
        return 0
    if args.deck_command == "diff":
        from tabletop.modules import deck_diff  # only here (see the imports above)

        result = deck_diff.diff(args.a, args.b, args.module)
        if args.json:
            print(json.dumps(deck_diff.diff_json(result), indent=2))
        else:
            print("\n".join(deck_diff.diff_text(result)))
        return 0
    module = find_module(args.module or default_module())
    target = import_revision(module, args.file, args.name)
    print(f"{args.file}: every row checked; added as revision {args.name!r} ({target})")
    return 0


def _module_row(module: Any) -> dict[str, Any]:
    """A module for ``tabletop modules``: its players, variants and setup options."""
    return {
        "id": module.id,
        "name": module.name,
        "version": module.version,
        "seats": f"{module.min_seats}-{module.max_seats}",
        "variants": list(module.variants),
        "variant_details": [
            {
                "id": vid,
                "name": name,
                "description": module.variant_defs.get(vid, {}).get("description", ""),
                "seats": module.variant_defs.get(vid, {}).get(
                    "seats"
                ),  # None: any the module seats
            }
            for vid, name in module.variants.items()
        ],
        "options": [
            {
                "id": o.id,
                "label": o.label,
                "choices": list(o.choices),
                "default": o.default,
                "help": o.help,
            }
            for o in module.options.values()
        ],
        "notes": list(module.notes),
    }


def _option_text(option: dict[str, Any]) -> str:
    return f"{option['id']}={'|'.join(option['choices'])} (default {option['default']})"


def _module_lines(row: dict[str, Any]) -> list[str]:
    """One module in full: its variants with what each changes, its options with their values."""
    mid = row["id"]
    lines = [f"{row['name']} {row['version']} ({mid}): {row['seats']} players"]

    def item(name: str, text: str) -> None:
        lines.append(
            textwrap.fill(text, 79, initial_indent=f"  {name:<14}", subsequent_indent=" " * 16)
        )

    if row["variant_details"]:
        lines.append(f"Variants (tabletop new {mid} --variant V):")
        for v in row["variant_details"]:
            seats = f", {v['seats']} players" if v["seats"] else ""
            about = f": {v['description']}" if v["description"] else ""
            item(v["id"], f"{v['name']}{seats}{about}")
    if not row["options"]:
        lines.append("Options: none")
        return lines
    first = row["options"][0]
    lines.append(
        f"Options (tabletop new {mid} --option KEY=VALUE, or --KEY VALUE:"
        f" --{first['id'].replace('_', '-')} {first['choices'][-1]}):"
    )
    for o in row["options"]:
        item(o["id"], f"{o['label']}: {', '.join(o['choices'])}; default {o['default']}")
        if o["help"]:
            item("", o["help"])
    return lines


def cmd_modules(args: argparse.Namespace) -> int:
    if args.module:
        row = _module_row(find_module(args.module))
        if args.json:
            print(json.dumps(row, indent=2))
        else:
            print("\n".join(_module_lines(row)))
        return 0
    rows = []
    for module_id in module_ids():
        try:
            rows.append(_module_row(find_module(module_id)))
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
            for note in row["notes"]:
                print(f"note: {row['id']}: {note}", file=sys.stderr)
            print(
                f"{row['id']:<12} {row['name']} {row['version']} ({row['seats']} players{variants})"
            )
            if row["options"]:
                print(f"{'':<13}options: {', '.join(_option_text(o) for o in row['options'])}")
    print("(tabletop modules MODULE: its variants and options in full)")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    # imported here for start-up speed: the benchmark's own imports (subprocess, statistics,
    # platform) load only for ``tabletop bench``, not before every command and the window
    from tabletop import bench

    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    if args.sim_games < 0:
        raise CliError(f"--sim-games {args.sim_games}: give 0 (none) or more games")
    results = bench.run(progress, window=not args.no_window, sim_games=args.sim_games)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:<34} {value}")
    return 0


# The commands of the other command modules: each loads its module when it runs, and hands the
# arguments to the module's command of that name (tabletop/cli_parser.py names them).


def _games_command(args: argparse.Namespace) -> int:
    """check, move, procedures, rules, run, score and simulate: tabletop/cli_games.py's."""
    from tabletop import cli_games  # only here (see the imports above)

    return {
        "check": cli_games.cmd_check,
        "move": cli_games.cmd_move,
        "procedures": cli_games.cmd_procedures,
        "rules": cli_games.cmd_rules,
        "run": cli_games.cmd_run,
        "score": cli_games.cmd_score,
        "simulate": cli_games.cmd_simulate,
    }[args.command](args)


def _export_command(args: argparse.Namespace) -> int:
    from tabletop.cli_export import cmd_export as run  # only here (see the imports above)

    return run(args)


def _notes_command(args: argparse.Namespace) -> int:
    """note and notes."""
    from tabletop.cli_notes import cmd_note, cmd_notes  # only here (see the imports above)

    return {"note": cmd_note, "notes": cmd_notes}[args.command](args)


def _record_command(args: argparse.Namespace) -> int:
    """session and form."""
    from tabletop.cli_record import cmd_form, cmd_session  # only here (see the imports above)

    return {"session": cmd_session, "form": cmd_form}[args.command](args)


def _report_command(args: argparse.Namespace) -> int:
    from tabletop.cli_report import cmd_report as run  # only here (see the imports above)

    return run(args)


def _fair_command(args: argparse.Namespace) -> int:
    """contribute, reveal and verify."""
    from tabletop.cli_fair import COMMANDS as fair  # only here (see the imports above)

    return fair[args.command](args)


def _online_command(args: argparse.Namespace) -> int:
    """host, and join with --bot."""
    from tabletop.online.commands import COMMANDS as online  # only here (see the imports above)

    return online[args.command](args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": _games_command,
    "move": _games_command,
    "procedures": _games_command,
    "rules": _games_command,
    "run": _games_command,
    "new": cmd_new,
    "inspect": cmd_inspect,
    "log": cmd_log,
    **dict.fromkeys(EXPORT_COMMANDS, _export_command),
    "pbem": cmd_pbem,
    **dict.fromkeys(NOTE_COMMANDS, _notes_command),
    **dict.fromkeys(RECORD_COMMANDS, _record_command),
    "sessions": cmd_sessions,
    **dict.fromkeys(REPORT_COMMANDS, _report_command),
    "replay": cmd_replay,
    "play": cmd_play,
    "render": cmd_render,
    "deck": cmd_deck,
    "score": _games_command,
    "modules": cmd_modules,
    "bench": cmd_bench,
    "simulate": _games_command,
    **dict.fromkeys(FAIR_COMMANDS, _fair_command),
    **dict.fromkeys(ONLINE_COMMANDS, _online_command),
    "join": cmd_join,
}


def module_dirs(argv: list[str]) -> tuple[list[str], list[str]]:
    """The module folders the user names with ``--module-dir FOLDER`` (anywhere on the line,
    for every command), and the words left."""
    folders: list[str] = []
    rest: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--module-dir":
            folder = next(words, None)
            if folder is None:
                raise CliError("--module-dir needs a module folder")
            folders.append(folder)
        elif word.startswith("--module-dir="):
            folders.append(word.partition("=")[2])
        else:
            rest.append(word)
    return folders, rest


def _safe_streams() -> None:
    """Text the files hold may carry lone UTF-16 surrogates ('\\udc80', written in JSON as an
    escape) that no output encoding can write: printed as their escapes, never a crash. On a
    terminal, control characters (an escape sequence in a seat name) are printed escaped."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.isatty():
        sys.stdout = TerminalText(sys.stdout)  # type: ignore[assignment]


def _reader_stopped() -> int:
    """The reader of the output closed it early (``tabletop log FILE | head -1``): it chose to
    stop, so the command ends quietly and successfully. What is still buffered for the closed
    pipe goes nowhere (the interpreter would otherwise report it at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a file (captured, or already gone)
        pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    _safe_streams()
    try:
        code = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here for the last lines printed
    except BrokenPipeError:
        return _reader_stopped()
    return code


def _module_procedure(word: str) -> bool:
    """``word``, naming no command, is a module with procedures (``tabletop MODULE PROC ...``)."""
    from rules_assist.cli import has_procedures  # only here (see the imports above)

    return has_procedures(word)


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv else ""
    try:
        folders, argv = module_dirs(argv)
        name_module_folders(folders)  # a saved game's module: installed, or one of these
        command = argv[0] if argv else ""
        if command == "run":  # the procedure's options are built from FILE's game
            return _games_command(argparse.Namespace(command="run", procedure_args=argv[1:]))
        if command and command not in COMMANDS and _module_procedure(command):
            from tabletop.cli_games import cmd_module_procedure  # only here (see the imports above)

            return cmd_module_procedure(
                argparse.Namespace(command=command, module=command, procedure_args=argv[1:])
            )
        parser = build_parser(command if command in COMMANDS else None)
        args, extra = parser.parse_known_args(argv)
        command = args.command
        if extra and command != "new":  # only a new game takes its module's own options
            if command != "note" or any(word.startswith("-") for word in extra):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            # a note's TEXT after its options: argparse has given the optional positional away
            args.text = " ".join([*([args.text] if args.text else []), *extra])
        args.extra = extra
        return COMMANDS[command](args)
    except (CliError, TableError) as exc:
        print(printable(f"tabletop {command}: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # the reader stopped: main() ends quietly
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(printable(f"tabletop {command}: {where}{exc.strerror or exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tabletop: stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
