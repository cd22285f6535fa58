"""``tabletop greenland PROCEDURE FILE ... -o OUT``: run one of Greenland's procedures on a game file.

The game in FILE is copied to OUT and the procedure's compound entry is
appended there; FILE is never changed. ``--dice 1,3,3,6`` forces the next
dice, consumed in the order the procedure rolls them (first the hunt roll,
then any re-rolls). The players' choices are options; a choice left out stops
the procedure with a message naming it, and nothing is written.

Each procedure module adds its subcommand with ``add_cli(subparsers)``; the
subcommand's function ``run(game, args) -> str`` runs it and returns a line
saying what happened.
"""

from __future__ import annotations

import argparse
import os
import shutil
from collections.abc import Callable
from typing import Any

from tabletop.core import TableError
from tabletop.persist import Game

# Modules that add subcommands (each has add_cli(subparsers)); imported when the command line is built.
PROCEDURE_MODULES = (
    "rules_assist.greenland.hunt",
    "rules_assist.greenland.events",
    "rules_assist.greenland.animals",
    "rules_assist.greenland.sequence",
    "rules_assist.greenland.negotiation",
    "rules_assist.greenland.hands",
    "rules_assist.greenland.elders",
    "rules_assist.greenland.solitaire",
)


def add_parser(sub: Any, parser_class: type) -> None:
    import importlib

    p = sub.add_parser(
        "greenland", help="run a Greenland procedure on a game file (a hunt, an event, ...)"
    )
    procedures = p.add_subparsers(dest="procedure", metavar="PROCEDURE", parser_class=parser_class)
    procedures.required = True
    for name in PROCEDURE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue  # not written yet
        module.add_cli(procedures)


def common(p: argparse.ArgumentParser) -> None:
    """The arguments every procedure takes."""
    p.add_argument("file", help="a Greenland game log")
    p.add_argument(
        "-o", "--output", required=True, help="the continued game's log (never overwritten)"
    )
    p.add_argument(
        "--dice", help="force the next dice, e.g. 1,2,3,4 (consumed in the order rolled)"
    )
    p.add_argument("--seat", help="the colour acting (default: the one the procedure concerns)")


def parse_dice(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        faces = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise TableError(
            f"--dice {text!r}: give faces 1 to 6 separated by commas, e.g. 1,3,3,6"
        ) from None
    if any(not 1 <= f <= 6 for f in faces):
        raise TableError(f"--dice {text!r}: faces are 1 to 6")
    return faces


def run(args: argparse.Namespace, runner: Callable[[Game, argparse.Namespace], str]) -> str:
    """Copy FILE to OUT, run the procedure on OUT's game, and say what happened."""
    if os.path.exists(args.output):
        raise TableError(
            f"{args.output}: already exists; choose another name (nothing was changed)"
        )
    Game.open(args.file, writable=False)  # a broken FILE is reported before anything is written
    tmp = f"{args.output}.part"
    shutil.copyfile(args.file, tmp)
    try:
        game = Game.open(tmp)
        try:
            game.table.random.force_faces(parse_dice(args.dice))
            text = runner(game, args)
        finally:
            game.close()
        os.replace(tmp, args.output)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return text
