"""The command line of a game's procedures, built from its table of procedures (any game).

``tabletop run FILE PROCEDURE [options] -o OUT`` runs one of the procedures
of FILE's game (its header names the module) on a copy of FILE written to
OUT; FILE is never changed, OUT never overwritten. ``tabletop run FILE
--list`` and ``tabletop procedures MODULE`` list the game's procedures with
their sections, phases, help and options. ``tabletop MODULE PROCEDURE FILE
...`` is a shorthand of ``tabletop run``.

Every procedure takes the same common options: ``-o/--output``, ``--dice``
(the next dice's faces, in the order rolled), ``--seat`` (the acting seat;
without it, the one the game's ``default_actor`` names) and ``--choice
KEY=VALUE`` (the answer to a question, repeatable); then the options its
``Parameter``s describe (rules_assist/game.py; read by
rules_assist/cli_options.py). A procedure stopped by questions nobody
answered lists every question it could see, one a line, with the option that
answers each, and nothing is written.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from tabletop.core import TableError, printable
from tabletop.modules import find_module, module_ids, not_laid_out, saved_module
from tabletop.modules.results import record_result
from tabletop.modules.revisions import module_for_game
from tabletop.modules.rules import game_of
from tabletop.persist import Game as SavedGame

from .cli_options import (
    CommandError,
    Parser,
    add_common,
    add_parameter,
    check_parameters,
    collect,
    hint,
    option_text,
    parameter_note,
    read_dice,
)
from .game import Game, ProcedureSpec
from .procedures import ChoiceNeeded
from .questions import Question


class AnswersNeeded(CommandError):
    """A procedure stopped by questions nobody answered: one line for each (``questions``:
    the questions themselves, the first the one it stopped at)."""

    def __init__(self, message: str, questions: Sequence[Question] = ()) -> None:
        super().__init__(message)
        self.questions = tuple(questions)


# ---- finding the game -----------------------------------------------------------------
def open_saved(path: str) -> SavedGame:
    """A game file, read only (a broken one is reported here, before anything is written)."""
    saved = SavedGame.open(path, writable=False)
    for warning in saved.warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    return saved


def game_of_saved(saved: SavedGame) -> Game:
    """The game interface of a saved game's module, with the deck revision it was set up with."""
    module, warnings = module_for_game(
        saved_module(saved.header.module, saved.path), saved.header.decks
    )
    for warning in warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    game = game_of(module)
    if game is None:
        raise CommandError(f"{module.name} has no rules assistant, so no procedures")
    return game


def game_with_procedures(module_id: str) -> Game:
    game = game_of(find_module(module_id))
    if game is None or not len(game.procedures):
        raise CommandError(f"{module_id} has no procedures to run")
    return game


# ---- listing ------------------------------------------------------------------------
def _applies(game: Game, rule: Any) -> list[str]:
    """The variants a rule is played in (``only_without``: only those that drop a section)."""
    only = getattr(rule, "only_without", ())
    return [
        v.id
        for v in game.variants.values()
        if not v.off(rule.section) and all(v.off(s) for s in only)
    ]


def _section_key(section: str) -> tuple[str, int]:
    digits = section.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return section[: len(section) - len(digits)], int(digits) if digits.isdigit() else -1


def rule_records(game: Game) -> list[dict[str, Any]]:
    """The game's rulebook as data, by section: what each rule says, who applies it (the move
    checker, ``tabletop check``) and the variants that play with it."""
    book = game.rulebook
    if book is None:
        return []
    records = []
    for rule in book.rules():
        if rule.kind == "invariant":
            used = ["move checker", "check"] if rule.moves else ["check"]
        else:
            used = ["move checker"]
        variants = _applies(game, rule)
        records.append(
            {
                "section": rule.section,
                "kind": rule.kind,
                "summary": rule.summary,
                "used_by": used,
                "variants": variants,
            }
        )
    return sorted(records, key=lambda r: _section_key(r["section"]))


def rule_lines(game: Game) -> list[str]:
    """The game's rulebook for people: a line a rule, by section, with who applies it."""
    lines = []
    for r in rule_records(game):
        where = " and ".join("tabletop check" if u == "check" else u for u in r["used_by"])
        left_out = [v for v in game.variants if v not in r["variants"]]
        if not left_out:
            only = ""
        elif len(left_out) <= len(r["variants"]):
            only = f"; not in {', '.join(left_out)}"
        else:
            only = f"; only in {', '.join(r['variants'])}"
        lines.append(f"{r['section']:<4} {r['summary']} ({r['kind']}: {where}{only})")
    return lines or [f"{game.id} has no rules to check"]


def procedure_lines(game: Game) -> list[str]:
    """The game's procedures for people: name, section, phases, help, then the options."""
    flow = game.flow
    lines: list[str] = []
    for spec in game.procedures:
        phases = ", ".join(flow.phase_label(p) if flow else p for p in spec.phases) or "any phase"
        section = f" ({spec.section})" if spec.section else ""
        lines.append(f"{spec.name}{section} [{phases}]: {spec.help}".rstrip(": "))
        for parameter in spec.parameters:
            lines.append(f"    {option_text(parameter)}{parameter_note(parameter)}")
        if spec.example:
            lines.append(f"    e.g. {spec.example}")
    return lines or [f"{game.id} has no procedures"]


def procedures_by_phase(game: Game) -> list[str]:
    """Every procedure of the game's table by name, a line a phase in the flow's order (one
    that belongs to several phases under each), those of any phase last."""
    flow = game.flow
    order = list(flow.phases) if flow else []
    order += [p for spec in game.procedures for p in spec.phases if p not in order]
    lines = []
    for phase in order:
        names = [spec.name for spec in game.procedures if phase in spec.phases]
        if names:
            label = flow.phase_label(phase) if flow else phase
            lines.append(f"{label}: {', '.join(names)}")
    anywhere = [spec.name for spec in game.procedures if not spec.phases]
    if anywhere:
        lines.append(f"any phase: {', '.join(anywhere)}")
    return lines


def procedures_overview() -> str:
    """The procedures of every module that has some, by phase (``tabletop --help``'s end)."""
    parts = []
    for module_id in module_ids():
        if not has_procedures(module_id):
            continue
        game = game_with_procedures(module_id)
        lines = [
            textwrap.fill(line, 79, initial_indent="    ", subsequent_indent="      ")
            for line in procedures_by_phase(game)
        ]
        parts.append(f"  {module_id} ({game.module.name}):\n" + "\n".join(lines))
    if not parts:
        return ""
    head = textwrap.fill(
        "The games' procedures, by phase ('tabletop MODULE PROCEDURE FILE ... -o OUT' runs one;"
        " 'tabletop procedures MODULE' gives their sections and options):",
        79,
    )
    return head + "\n" + "\n".join(parts)


# ---- building the parser ------------------------------------------------------------------
def add_procedures(sub: Any, game: Game, *, file_first: bool) -> None:
    """A subcommand for each of the game's procedures, its common options and its parameters;
    FILE comes after the procedure's name unless ``file_first`` (``tabletop run FILE ...``)."""
    for spec in game.procedures:
        p = sub.add_parser(
            spec.name,
            help=spec.help or spec.name,
            description=_description(spec),
            epilog=f"e.g. {spec.example}" if spec.example else None,
        )
        if not file_first:
            p.add_argument("file", help=f"a {game.module.name} game log (.jsonl)")
        add_common(p, next((q for q in spec.parameters if q.kind == "actor"), None))
        for parameter in spec.parameters:
            add_parameter(p, parameter)
        p.set_defaults(spec=spec)


def _description(spec: ProcedureSpec) -> str:
    section = f" ({spec.section})" if spec.section else ""
    return (
        f"{spec.help or spec.name}{section}. A question the options do not answer stops it"
        " with the list of questions; nothing is written."
    )


# ---- running ---------------------------------------------------------------------------------
def run_on_file(
    args: argparse.Namespace,
    saved: SavedGame,
    game: Game,
    answered: list[tuple[Question, str]] | None = None,
) -> str:
    """Copy FILE to OUT (through a fresh temporary file and a rename), run the procedure on the
    copy, say what happened. An existing OUT is refused, even one made while the procedure ran;
    on any error nothing is written. ``answered`` receives the questions answered by the
    choices given, each with its key (rules_assist/procedures.run_procedure)."""
    spec: ProcedureSpec = args.spec
    if os.path.lexists(args.output):
        raise CommandError(
            f"{args.output}: already exists; choose another name (nothing was changed)"
        )
    folder = os.path.dirname(args.output) or "."
    if not os.path.isdir(folder):
        raise CommandError(f"{args.output}: the folder {folder!r} does not exist")
    unready = not_laid_out(game.module, saved.state)
    if unready is not None:
        raise CommandError(f"{args.file}: {unready}; no procedure can run (nothing was written)")
    seats = [s.id for s in saved.state.seats]
    if args.seat is not None and args.seat not in seats:
        raise CommandError(f"--seat {args.seat!r}: there is no such seat ({', '.join(seats)})")
    with SavedGame.continued(args.file, args.output) as copy:
        table = copy.table
        table.random.force_faces(read_dice(args.dice, table.state))
        params, choices = collect(spec, args, table.state)
        prepared = check_parameters(game, spec, table.state, params)
        actor = args.seat or game.default_actor(table.state, spec, prepared)
        try:
            change = game.run(table, spec, actor, params, choices=choices, answered=answered)
        except ChoiceNeeded as need:
            lines = [f"  {q.describe()}: answer with {hint(spec, q.key)}" for q in need.questions]
            raise AnswersNeeded(
                f"{spec.name} needs answers (nothing was written):\n" + "\n".join(lines),
                need.questions,
            ) from None
        ended = record_result(table, game)  # the game is over: its result in the session record
    text = change.entry.command.label if change is not None else "nothing changed"
    if ended:
        text += " (the game is over: its result is in the session record, 'tabletop session')"
    return f"{args.output}: {spec.name}: {text}"


def run_command(argv: Sequence[str], answered: list[tuple[Question, str]] | None = None) -> str:
    """``tabletop run FILE PROCEDURE [options] -o OUT`` or ``tabletop run FILE --list``: the
    line to print (``answered``: see ``run_on_file``)."""
    argv = list(argv)
    usage = "tabletop run FILE PROCEDURE [options] -o OUT | tabletop run FILE --list"
    helper = Parser(prog="tabletop run", usage=usage, description=__doc__.split("\n\n")[1])
    if argv[:1] in (["-h"], ["--help"]):
        helper.print_help()
        return ""
    if not argv or argv[0].startswith("-"):
        helper.error("name a game file first: tabletop run FILE PROCEDURE [options] -o OUT")
    path, rest = argv[0], argv[1:]
    saved = open_saved(path)  # a broken FILE is reported before anything else
    game = game_of_saved(saved)
    if not rest:
        raise CommandError(
            f"{path}: name a procedure of {game.module.name} ('tabletop run {path} --list' lists them)"
        )
    if rest == ["--list"]:
        return "\n".join(procedure_lines(game))
    parser = Parser(prog=f"tabletop run {path}", usage=usage)
    sub = parser.add_subparsers(dest="procedure", metavar="PROCEDURE", parser_class=Parser)
    sub.required = True
    add_procedures(sub, game, file_first=True)
    args = parser.parse_args(rest)
    args.file = path
    return run_on_file(args, saved, game, answered)


def run_shorthand(module_id: str, argv: Sequence[str]) -> str:
    """``tabletop MODULE PROCEDURE FILE [options] -o OUT``: as ``tabletop run`` (FILE's game must
    be MODULE's)."""
    game = game_with_procedures(module_id)
    parser = Parser(prog=f"tabletop {module_id}", description=f"{game.module.name}'s procedures")
    sub = parser.add_subparsers(dest="procedure", metavar="PROCEDURE", parser_class=Parser)
    sub.required = True
    add_procedures(sub, game, file_first=False)
    args = parser.parse_args(list(argv))
    saved = open_saved(args.file)
    if saved.header.module != game.id:
        raise CommandError(f"{args.file}: a game of {saved.header.module}, not of {game.id}")
    return run_on_file(args, saved, game_of_saved(saved))


def has_procedures(word: str) -> bool:
    """``word`` is a module whose game has procedures (for the ``tabletop MODULE ...`` form)."""
    if word not in module_ids():
        return False
    try:
        game = game_of(find_module(word))
    except TableError:
        return False
    return game is not None and len(game.procedures) > 0
