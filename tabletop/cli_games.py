"""The ``tabletop`` commands that ask a game (rules_assist/game.py, through
``tabletop.modules.rules.game_of``): check, score, simulate, a hand move (move), and the
procedures (run, procedures, ``tabletop MODULE PROCEDURE FILE``); and how a saved game's module
and game are found."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from rules_assist import cli as procedures_cli
from tabletop.cli_errors import CliError
from tabletop.core import (
    Finding,
    Mode,
    Policy,
    Refused,
    TableError,
    TableState,
    actions,
    printable,
)
from tabletop.core.commands import touched_by
from tabletop.core.places import SPOTTED_KINDS
from tabletop.core.textsafe import quoted
from tabletop.inspection import HIDDEN
from tabletop.modules import ModuleError, find_module, not_laid_out, saved_module
from tabletop.modules.revisions import module_for_game, with_revision
from tabletop.modules.rules import finding_dict, game_of
from tabletop.persist import Game
from tabletop.persist.seatview import check_copy, seat_view_of
from tabletop.visibility import can_see


def open_game(path: str, writable: bool = False) -> Any:
    game = Game.open(path, writable=writable)
    if seat_view_of(game.header)[0]:  # a seat's copy: each entry checked against its digest
        check_copy(game)
    for warning in game.warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    return game


def check_output(path: str) -> None:
    if os.path.lexists(path):  # a link counts, even one that leads nowhere
        raise CliError(f"{path}: already exists; choose another name (nothing was changed)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def game_module(game: Any) -> Any:
    """The game's module with the deck revision it was set up with (warnings on stderr)."""
    module, warnings = module_for_game(
        saved_module(game.header.module, game.path), game.header.decks
    )
    for warning in warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    return module


def game_of_saved(game: Any) -> Any:
    """The game interface of a saved game's module (rules_assist/game.py), or None when its
    module cannot be loaded or has no game."""
    try:
        return game_of(game_module(game))
    except ModuleError:
        return None


# What a game's reading, audit or scoring raises on a table its own procedures never make (a
# received log edited by hand: a piece without a property the game gives every piece of its
# kind). Such a file is refused in one line naming it, like any other broken file.
UNREADABLE = (TableError, KeyError, IndexError, TypeError, ValueError, AttributeError)


def unreadable(exc: BaseException) -> str:
    """What the game could not read, in one short line."""
    if isinstance(exc, TableError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"it holds nothing named {quoted(exc.args[0] if exc.args else '')} where the game needs it"
    return f"{type(exc).__name__}: {quoted(str(exc))}"


def module_summary(game: Any, state: Any) -> Any:
    """The game's own reading of the table (lines or a dict), where it has one; before the
    table is laid out, a line saying so."""
    rules = game_of_saved(game)
    if rules is None:
        return None
    unready = not_laid_out(rules.module, state)
    if unready is not None:
        return [f"{game.header.module}: {unready}"]
    try:
        return rules.summary(state)
    except UNREADABLE as exc:  # a table the module cannot read (an edited log)
        raise CliError(f"{game.path}: the game cannot read its table: {unreadable(exc)}") from None


def refuse_unless_laid_out(path: str, module: Any, state: TableState, doing: str) -> None:
    """A table not laid out yet has nothing the game can check or score: one line."""
    unready = not_laid_out(module, state)
    if unready is not None:
        raise CliError(f"{path}: {unready}; there is nothing to {doing}")


# ---- what one seat may read ------------------------------------------------------------
def hidden_words(state: TableState, seat: str, module: Any = None) -> dict[str, list[str]]:
    """The words naming each piece ``seat`` may not see (tabletop/visibility.py): its id, its
    card (deck row id) and, for a card, the title of each side in the module's decks (the
    template's title column, else 'name'). {piece id: words}."""
    rows: dict[str, list[tuple[dict[str, Any], str]]] = {}  # id or card: (row, title column)
    for deck in (getattr(module, "decks", None) or {}).values():
        template = (getattr(module, "templates", None) or {}).get(deck.template or "") or {}
        title = str(template.get("title") or "name")
        for row in deck.cards:
            for key in {str(row.get("id", "")), str(row.get("card", "") or "")} - {""}:
                rows.setdefault(key, []).append((row, title))
    found: dict[str, list[str]] = {}
    for pid, piece in state.pieces.items():
        if can_see(state, piece, seat):
            continue
        words = {pid}
        card = piece.props.get("card")
        if isinstance(card, str) and card:
            words.add(card)
        for key in list(words):
            for row, column in rows.get(key, ()):
                words.add(str(row.get("id", "")))
                title = row.get(column)
                if isinstance(title, str):
                    words.add(title)
        found[pid] = sorted((w for w in words if w), key=len, reverse=True)
    return found


def seat_filter(state: TableState, seat: str | None, module: Any = None) -> Any:
    """A function taking text to what ``seat`` may read: every word naming a piece hidden from
    it becomes '(hidden)'. Without a seat, the text as it is (the referee's view)."""
    if seat is None:
        return lambda text: text
    words = sorted(
        {w for found in hidden_words(state, seat, module).values() for w in found},
        key=len,
        reverse=True,
    )
    if not words:
        return lambda text: text
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])", re.IGNORECASE
    )
    return lambda text: pattern.sub(HIDDEN, text) if isinstance(text, str) else text


def _seat_of(args: argparse.Namespace, state: TableState) -> str | None:
    seat = getattr(args, "seat", None)
    seats = [s.id for s in state.seats]
    if seat is not None and seat not in seats:
        raise CliError(f"{args.file}: there is no seat {seat!r} (seats: {', '.join(seats)})")
    return seat


def seat_findings(
    findings: list[Finding], state: TableState, seat: str | None, module: Any = None
) -> list[Finding]:
    """The findings as ``seat`` may read them: hidden pieces left unnamed in the pieces and the
    message (``seat_filter``)."""
    if seat is None:
        return list(findings)
    scrub = seat_filter(state, seat, module)
    hidden = set(hidden_words(state, seat, module))
    return [
        Finding(
            f.rule,
            scrub(f.message),
            f.severity,
            tuple(HIDDEN if pid in hidden else scrub(pid) for pid in f.pieces),
        )
        for f in findings
    ]


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
    state = table.state if at == table.seq else table.state_at(at)
    refuse_unless_laid_out(args.file, module, state, "check")
    seat = _seat_of(args, state)
    try:
        findings = rules.audit(state) if rules else None
    except UNREADABLE as exc:  # a table the module's rules cannot read (an edited log)
        raise CliError(f"{args.file}: cannot be checked: {unreadable(exc)}") from None
    if findings is None:
        raise CliError(f"{args.file}: {module.name} has no rules assistant to check with")
    findings = seat_findings(findings, state, seat, module)
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
    state = game.table.state
    refuse_unless_laid_out(args.file, module, state, "score")
    seat_id = _seat_of(args, state)
    try:
        rows = rules.score(state) if rules is not None else None
    except UNREADABLE as exc:  # a table the module's scoring cannot read (an edited log)
        raise CliError(f"{args.file}: cannot be scored: {unreadable(exc)}") from None
    if rows is None:
        raise CliError(f"{args.file}: {module.name} has no scoring in the rules assistant")
    scrub = seat_filter(state, seat_id, module)
    rows = [{k: scrub(v) for k, v in row.items()} for row in rows]
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
    # here for start-up speed: the window (``tabletop play``) needs no worker processes
    from rules_assist.simulate import log_name, simulate, write_summary

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
    if args.jobs is not None and args.jobs < 1:
        raise CliError(f"--jobs {args.jobs}: give 1 or more worker processes")
    if args.summary:
        check_output(args.summary)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names or any(n not in factories for n in names):
        raise CliError(f"--bots {args.bots!r}: each bot is {' or '.join(factories)}")
    if game.flow is None:
        raise CliError(f"{module.id}: {module.name} has no turn flow for bots to play through")
    variant = game.variants.get(args.variant)
    count = len(names) if len(names) > 1 else (variant and variant.seats) or module.default_seats
    if not module.min_seats <= count <= module.max_seats:
        raise CliError(
            f"--bots: {module.name} seats {module.min_seats} to {module.max_seats} players,"
            f" not {count}"
        )
    seats = [s.id for s in module.seats[:count]]
    if args.save_logs:
        os.makedirs(args.save_logs, exist_ok=True)
        taken = [
            log_name(args.seed + i)
            for i in range(args.games)
            if os.path.lexists(os.path.join(args.save_logs, log_name(args.seed + i)))
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
            jobs=args.jobs,
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.summary:
        write_summary(summary, args.summary)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    bots = ", ".join(f"{s}={b}" for s, b in summary["bots"].items())
    print(
        f"{args.games} games of {module.name} ({args.variant}),"
        f" seeds {args.seed}-{args.seed + args.games - 1}; bots {bots}"
    )
    word = game.seat_word.lower()
    print(
        f"{word:<12} {'wins':>6} {'win %':>6} {'95% interval':>14} {'mean score':>11} {'95% interval':>16}"
    )
    for seat in seats:
        row = summary[seat]
        low, high = (100 * v for v in row["win_rate_ci95"])
        mean_low, mean_high = row["mean_score_ci95"]
        print(
            f"{seat:<12} {row['wins']:>6} {100 * row['win_rate']:>6.1f} {f'{low:.1f}-{high:.1f}':>14}"
            f" {row['mean_score']:>11.2f} {f'{mean_low:.2f} to {mean_high:.2f}':>16}"
        )
    run = summary["run"]
    print(
        f"win intervals: Wilson; mean score intervals: normal approximation."
        f" {summary['games_per_s']} games/s on {run['jobs']} process{'es' if run['jobs'] > 1 else ''};"
        " the highest score wins, ties all win"
    )
    if args.summary:
        print(f"summary: {args.summary}")
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


# ---- a hand move from the command line -------------------------------------------------
def acting_seat(state: TableState, command: Any, rules: Any = None) -> str:
    """Who makes a hand move when nobody is named: the game's ``who_acted`` (the owner of what
    moves, else the seat to move), else the owner of the piece or of the place it lies in,
    else the table ("table")."""
    if rules is not None:
        seat = rules.who_acted(state, command)
        if seat is not None:
            return str(seat)
    seats = {s.id for s in state.seats}
    for piece_id in sorted(touched_by(command).pieces):
        piece = state.pieces[piece_id]
        if piece.owner in seats:
            return str(piece.owner)
        place = state.places.get(piece.place)
        if place is not None and place.owner in seats:
            return str(place.owner)
    return "table"


def _target(state: TableState, text: str) -> tuple[str, str | None]:
    """``--to PLACE[:SPOT]`` read against the table: (place, spot), or CliError in one line."""
    if text in state.places:
        place_id, spot = text, None
    else:
        place_id, sep, spot_text = text.rpartition(":")
        if not sep or place_id not in state.places:
            name = place_id if sep else text
            raise CliError(f"--to {text!r}: there is no place {name!r} on the table")
        spot = spot_text
    place = state.places[place_id]
    spots = ", ".join(place.spots[:12]) + (" ..." if len(place.spots) > 12 else "")
    if place.kind in SPOTTED_KINDS and spot is None:
        raise CliError(
            f"--to {text!r}: name a spot of {place_id}, e.g. {place_id}:{place.spots[0]}"
            f" (spots: {spots})"
        )
    if place.kind not in SPOTTED_KINDS and spot is not None:
        raise CliError(f"--to {text!r}: {place_id} is a {place.kind} and has no spots")
    if not place.has_spot(spot):
        raise CliError(f"--to {text!r}: {place_id} has no spot {spot!r} (spots: {spots})")
    return place_id, spot


def _finding_line(finding: Finding) -> str:
    pieces = f" [{', '.join(finding.pieces)}]" if finding.pieces else ""
    return f"{finding.rule} {finding.severity.value}: {finding.message}{pieces}"


def cmd_move(args: argparse.Namespace) -> int:
    """A hand move through the table's one pipeline, as the window makes it: completed by the
    game's rules (a promotion's price), checked by its checker under the policy ``--mode``,
    refused in strict mode unless forced with ``--reason``; FILE is never changed and OUT is
    written whole or not at all."""
    check_output(args.output)
    saved = open_game(args.file)
    state = saved.table.state
    if args.piece not in state.pieces:
        raise CliError(f"{args.file}: there is no piece {args.piece!r} on the table")
    place_id, spot = _target(state, args.to)
    piece = state.pieces[args.piece]
    if (piece.place, piece.spot) == (place_id, spot):
        raise CliError(f"--to {args.to!r}: {args.piece} lies there already; nothing to move")
    seats = [s.id for s in state.seats]
    if args.seat is not None and args.seat not in seats:
        raise CliError(f"--seat {args.seat!r}: there is no such seat ({', '.join(seats)})")
    try:
        module = game_module(saved)
    except ModuleError as exc:
        raise CliError(f"{args.file}: its module cannot be loaded ({exc})") from None
    rules = game_of(module)
    checker = rules.checker() if rules is not None else None
    with Game.continued(
        args.file, args.output, checker=checker, policy=Policy(Mode.ADVISORY)
    ) as copy:
        table = copy.table
        command = actions.move(table.state, args.piece, place_id, spot=spot)
        actor = args.seat or acting_seat(table.state, command, rules)
        if args.mode is not None and Mode(args.mode) is not table.policy.mode:
            # another mode for this move: a switch of the rules, logged like any other
            table.set_policy(Policy(Mode(args.mode), dict(table.policy.per_rule)), actor)
        policy = table.policy
        if rules is not None and rules.has_complete_move and policy.checking:
            command = rules.complete_move(table.state, command)
        try:
            change = table.submit(command, actor, force=args.reason)
        except Refused as refusal:
            for finding in refusal.findings:
                print(_finding_line(finding))
            raise CliError(
                "refused by the rules in strict mode (nothing was written);"
                " give --reason TEXT to force it"
            ) from None
    entry = change.entry
    print(f"{args.output}: {entry.command.describe()} (by {actor}, rules {policy.mode.value})")
    for finding in entry.findings:
        print(_finding_line(finding))
    if entry.override:
        print(f"forced: {entry.override}")
    return 0
