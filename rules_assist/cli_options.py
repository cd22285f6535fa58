"""A procedure's options on the command line: each ``Parameter`` (rules_assist/game.py) as an
argparse option, and the parsed options read back into the procedure's parameters and the
answers to its questions (``collect``). Used by rules_assist/cli.py."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Sequence
from typing import Any, NoReturn

from tabletop.core import TableError, TableState

from .game import Game, Parameter, ProcedureSpec


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2 (here, not in
    rules_assist/cli.py, so that the ``tabletop`` command's own parser is built without loading
    the procedures' command line)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


class CommandError(TableError):
    """A plain message for the person at the terminal; nothing was written."""


# ---- how an option is typed ------------------------------------------------------------
def option_text(parameter: Parameter) -> str:
    """How the parameter is typed: '--card NAME', '--alpha/--no-alpha', '--seat SEAT'."""
    if parameter.kind == "actor":
        return "--seat SEAT"
    spellings = "/".join((parameter.spelling, *parameter.aliases))
    if parameter.kind == "flag":
        return spellings + (f"/{parameter.negative}" if parameter.negative else "")
    return f"{spellings} {metavar_of(parameter)}"


def parameter_note(parameter: Parameter) -> str:
    notes = []
    if parameter.required:
        notes.append("required")
    if parameter.choices:
        notes.append("one of " + ", ".join(parameter.choices))
    if parameter.answers:
        notes.append(f"answers '{parameter.answers}'")
    note = f" ({'; '.join(notes)})" if notes else ""
    return f"{note}: {parameter.help}" if parameter.help else note


def metavar_of(parameter: Parameter) -> str:
    if parameter.metavar:
        return parameter.metavar
    if parameter.pairs:
        return "KEY=VALUE"
    return {"seat": "SEAT", "card": "NAME", "int": "N"}.get(parameter.kind, "VALUE")


# ---- adding the options ------------------------------------------------------------
def add_common(p: argparse.ArgumentParser, actor: Parameter | None = None) -> None:
    """The options every procedure takes; ``--seat`` described by the procedure's 'actor'
    parameter when it has one."""
    p.add_argument(
        "-o", "--output", required=True, help="the continued game's log (never overwritten)"
    )
    p.add_argument(
        "--dice", help="force the next dice, e.g. 1,2,3,4 (consumed in the order rolled)"
    )
    if actor is None:
        seat = "the seat acting (default: the one the game names)"
    else:
        seat = (actor.help or "the seat acting") + (" (required)" if actor.required else "")
    p.add_argument("--seat", help=seat)
    p.add_argument(
        "--choice",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="the answer to a question the procedure asks, by its key (repeatable)",
    )


def add_parameter(p: argparse.ArgumentParser, parameter: Parameter) -> None:
    """The parameter's option (an 'actor' is the common --seat and adds none)."""
    if parameter.kind == "actor":
        return
    names = [parameter.spelling, *parameter.aliases]
    dest = f"param_{parameter.name}"
    text = parameter.help or parameter.name
    if parameter.kind == "flag":
        if parameter.negative:
            group = p.add_mutually_exclusive_group()
            group.add_argument(*names, dest=dest, action="store_const", const=True, help=text)
            group.add_argument(
                parameter.negative, dest=dest, action="store_const", const=False, help="... or not"
            )
        else:
            p.add_argument(*names, dest=dest, action="store_const", const=True, help=text)
        p.set_defaults(**{dest: None})
        return
    kw: dict[str, Any] = {"dest": dest, "metavar": metavar_of(parameter), "help": text}
    if parameter.kind == "list":
        kw["action"] = "append"
    elif parameter.kind == "int":
        kw["type"] = int
    if parameter.choices and parameter.kind != "list":
        kw["choices"] = list(parameter.choices)
        kw.pop("metavar")
    p.add_argument(*names, required=parameter.required, **kw)


# ---- reading the options ------------------------------------------------------------------------
def collect(
    spec: ProcedureSpec, args: argparse.Namespace, state: TableState
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The procedure's parameters and the answers given, from the parsed options."""
    seats = [s.id for s in state.seats]
    params: dict[str, Any] = {}
    choices: dict[str, Any] = {}
    for parameter in spec.parameters:
        if parameter.kind == "actor":
            if args.seat:
                params[parameter.name] = args.seat
            elif parameter.required:
                who = parameter.help or "the seat acting"
                raise CommandError(f"--seat: name {who} ({', '.join(seats)})")
            continue
        value = getattr(args, f"param_{parameter.name}", None)
        if value is None:
            if parameter.default is not None and not parameter.answers:
                params[parameter.name] = parameter.default
            continue
        value = _read(parameter, value, seats)
        if not parameter.answers:
            params[parameter.name] = value
        elif parameter.pairs:
            for key, given in value.items():
                choices[parameter.answers.format(key=key)] = given
        elif parameter.kind == "flag":
            choices[parameter.answers] = "yes" if value else "no"
        else:
            choices[parameter.answers] = value
    choices.update(read_pairs(args.choice, "--choice"))
    return params, choices


def _read(parameter: Parameter, value: Any, seats: Sequence[str]) -> Any:
    spelling = parameter.spelling
    if parameter.kind == "seat" and value not in seats:
        raise CommandError(f"{spelling} {value!r}: there is no such seat ({', '.join(seats)})")
    if parameter.kind != "list":
        return value
    if parameter.pairs:
        pairs = read_pairs(value, spelling)
        if parameter.keys == "seat":
            strangers = [k for k in pairs if k not in seats]
            if strangers:
                raise CommandError(f"{spelling}: {', '.join(strangers)} is not at the table")
            if parameter.default is not None:
                pairs = {s: pairs.get(s, str(parameter.default)) for s in seats}
        return pairs
    items = [part.strip() for item in value for part in item.split(",") if part.strip()]
    if parameter.choices:
        wrong = [i for i in items if i not in parameter.choices]
        if wrong:
            raise CommandError(
                f"{spelling} {wrong[0]!r}: choose from {', '.join(parameter.choices)}"
            )
    return items


def read_pairs(items: Sequence[str] | None, spelling: str) -> dict[str, str]:
    """KEY=VALUE items as a dict; a malformed one is a CommandError."""
    pairs: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"{spelling} {item!r}: write it as KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


def read_dice(text: str | None, state: TableState) -> list[Any]:
    """The forced faces, each one a face of the table's dice."""
    if not text:
        return []
    faces = {str(f): f for p in state.pieces.values() for f in p.props.get("faces") or ()}
    parts = [part for part in text.replace(" ", "").split(",") if part]
    wrong = [part for part in parts if part not in faces]
    if wrong or not parts:
        shown = ", ".join(faces) or "none: there are no dice on the table"
        raise CommandError(f"--dice {text!r}: give the dice's faces separated by commas ({shown})")
    return [faces[part] for part in parts]


def check_parameters(
    game: Game, spec: ProcedureSpec, state: TableState, params: dict[str, Any]
) -> dict[str, Any]:
    """The parameters as the procedure takes them (the game's ``prepare``); a CommandError naming
    the procedure's parameters that no option gave (a procedure whose options are not all
    described yet), rather than a failure inside it."""
    prepared = game.prepare(state, spec, dict(params))
    wanted = list(inspect.signature(spec.function).parameters.values())[1:]  # after ctx
    missing = [
        p.name
        for p in wanted
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.name not in prepared
    ]
    if missing:
        raise CommandError(
            f"{spec.name} needs {', '.join(missing)}, which none of its options gives"
        )
    return prepared


def hint(spec: ProcedureSpec, key: str) -> str:
    """The option that answers the question ``key``, else ``--choice KEY=VALUE``."""
    for parameter in spec.parameters:
        template = parameter.answers
        if not template:
            continue
        if parameter.pairs and "{key}" in template:
            head, _, tail = template.partition("{key}")
            if key.startswith(head) and key.endswith(tail) and len(key) > len(head + tail):
                inner = key[len(head) : len(key) - len(tail)]
                return f"{parameter.spelling} {inner}=VALUE"
        elif template == key:
            return option_text(parameter)
    return f"--choice {key}=VALUE"
