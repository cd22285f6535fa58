"""Game files read as playtest sessions: one plain row per game (``tabletop sessions``), read
from its log (the session record, tabletop/persist/record.py; the result from the game's own
scoring, tabletop/modules/results.py).

A log is read once and the table resumes from its last good checkpoint rather than being
replayed from the start. Nothing here needs Qt or knows a game: the game's interface comes
from the module its header names, with the deck revision it was played with.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tabletop.core import NOTE_TAGS, RATINGS, TableError, printable
from tabletop.core.textsafe import without_surrogates
from tabletop.modules import ModuleError, saved_module
from tabletop.modules.gamecode import game_of
from tabletop.modules.results import game_result
from tabletop.modules.revisions import module_for_game
from tabletop.persist import Game
from tabletop.persist.record import session_record

SHA_SHORT = 12


def game_files(paths: list[str]) -> tuple[list[str], list[str]]:
    """The game files named or found (recursively) under ``paths``, and the problems (a path
    that is neither)."""
    found: list[str] = []
    problems: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found.extend(str(p) for p in sorted(Path(path).rglob("*.jsonl")) if p.is_file())
        elif os.path.isfile(path):
            found.append(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return list(dict.fromkeys(found)), problems


class GameRules:
    """Each module's game interface, loaded once per module and deck revision (None for a
    module that cannot be loaded or has no game)."""

    def __init__(self) -> None:
        self.loaded: dict[str, Any] = {}

    def of(self, game: Game) -> Any:
        key = json.dumps([game.header.module, game.header.decks], sort_keys=True, default=str)
        if key not in self.loaded:
            try:
                module, warnings = module_for_game(
                    saved_module(game.header.module, game.path), game.header.decks
                )
                for warning in warnings:
                    print(printable(f"warning: {warning}"), file=sys.stderr)
                self.loaded[key] = game_of(module)
            except ModuleError:
                self.loaded[key] = None
        return self.loaded[key]


def session_row(game: Game, rules: Any) -> dict[str, Any]:
    """One game's row as plain data (JSON's object; the CSV flattens it)."""
    table = game.table
    result = None
    turns = None
    if rules is not None and table.entries:  # a log of its header alone: nothing set up yet
        if table.session_parts().result is None:
            result, _why = game_result(rules, table.state)
        if rules.flow is not None:
            turns = rules.flow.status(table.state).turn
    record = session_record(game, result=result)
    undone = table.undone()
    standing = [e for e in table.entries if e.seq not in undone]
    notes = table.notes()
    by_tag = {tag: sum(1 for n in notes if n.tag == tag) for tag in NOTE_TAGS}
    # here, not at the top: this module is loaded with the command line's parsers for every run
    # of ``tabletop`` (the window's start too), and statistics brings decimal and fractions
    from statistics import mean

    forms = record["forms"]
    means = {}
    for key in RATINGS:
        values = [f[key] for f in forms.values() if f.get(key) is not None]
        means[key] = round(mean(values), 2) if values else None
    outcome = record["result"] or {}
    return {
        "file": record["file"],
        "module": record["module"]["id"],
        "version": record["module"]["version"],
        "deck": "+".join(d["name"] for d in record["revision"]),
        "deck_sha256": "+".join(d["sha256"][:SHA_SHORT] for d in record["revision"]),
        "variant": record["variant"],
        "seed": record["seed"],
        "testers": record["testers"],
        "where": record["where"],
        "started": record["start"],
        "ended": record["end"],
        "minutes": round(record["playing_time"]["seconds"] / 60, 1),
        "entries": record["entries"],
        "turns": turns,
        "finished": record["finished"],
        "winners": list(outcome.get("winners", [])),
        "scores": dict(outcome.get("scores", {})),
        "forms": len(forms),
        "form_means": means,
        "notes": len(notes),
        "notes_by_tag": by_tag,
        "findings": sum(len(e.findings) for e in standing),
        "overrides": sum(1 for e in standing if e.override),
        "policy": record["rules"]["strictness"],
    }


def read_games(files: list[str], problems: list[str]) -> Iterator[tuple[Game, Any]]:
    """Each file that is a game, opened to read, with its game interface; a file that is not
    adds one line to ``problems``."""
    rules = GameRules()
    for path in files:
        try:
            game = Game.open(path, writable=False)  # received files: replayed in full
        except (TableError, OSError, UnicodeDecodeError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            problems.append(f"{path}: not a game that can be read: {why}")
            continue
        for warning in game.warnings:
            print(printable(f"warning: {warning}"), file=sys.stderr)
        yield game, rules.of(game)


def read_rows(files: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of the files that are games, and one line for each that is not."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for game, rules in read_games(files, problems):
        try:
            rows.append(without_surrogates(session_row(game, rules)))
        except (TableError, ValueError, KeyError) as exc:
            problems.append(f"{game.path}: its session record cannot be read: {exc}")
    return rows, problems
