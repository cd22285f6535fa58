"""Deck revisions: several versions of a module's deck side by side in its decks/ folder.

A revision is a CSV with the deck's columns, named by its file's stem
(``decks/reconstructed.csv`` is the revision ``reconstructed``). A game
records the revision's name and sha256. Importing a revision checks it row by
row (types, ranges and the module's own deck check) before anything is
written, and writes it atomically; an existing revision is never replaced.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from pathlib import Path

from tabletop.core.textsafe import quoted
from tabletop.persist import atomic_write_bytes

from .deck import read_deck
from .gamecode import deck_problems
from .manifest import Module
from .problems import ModuleError, Problem


@functools.cache
def _name() -> re.Pattern[str]:
    """A kept revision's name. Compiled when one is looked up, which a start never does."""
    return re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


def main_deck(module: Module) -> str:
    if not module.decks:
        raise ModuleError([Problem(module.id, None, "", "this module has no deck")])
    return next(iter(module.decks))


def revisions(module: Module, deck_id: str | None = None) -> list[str]:
    """The revisions there are of a deck (the CSV files beside the manifest's)."""
    deck = module.decks[deck_id or main_deck(module)]
    return sorted(p.stem for p in deck.path.parent.glob("*.csv"))


def with_revision(module: Module, name: str, deck_id: str | None = None) -> Module:
    """The module with another revision of its deck, checked like the manifest's own."""
    deck_id = deck_id or main_deck(module)
    deck = module.decks[deck_id]
    if name == deck.path.stem:
        return module
    path = deck.path.parent / f"{name}.csv"
    if not _name().match(name) or not path.is_file():
        known = ", ".join(revisions(module, deck_id))
        raise ModuleError(
            [
                Problem(
                    module.id,
                    None,
                    "deck",
                    f"there is no revision {quoted(name)} (revisions: {known})",
                )
            ]
        )
    return _load(module, deck_id, path, str(path))


def _load(module: Module, deck_id: str, path: Path, shown: str) -> Module:
    deck = module.decks[deck_id]
    loaded, problems = read_deck(deck_id, path, shown, list(deck.columns), deck.kind, deck.template)
    if loaded is None:
        raise ModuleError(problems)
    changed = dataclasses.replace(module, decks={**module.decks, deck_id: loaded})
    if module.game_path:
        problems = deck_problems(changed)
        if problems:
            raise ModuleError(problems)
    return changed


def with_file(module: Module, source: str | Path, deck_id: str | None = None) -> Module:
    """The module with a CSV file as its deck, checked like a revision being imported (nothing
    is written)."""
    deck_id = deck_id or main_deck(module)
    source = Path(source)
    if not source.is_file():
        raise ModuleError([Problem(str(source), None, "", "no such file")])
    return _load(module, deck_id, source, str(source))


def import_revision(
    module: Module, source: str | Path, name: str, deck_id: str | None = None
) -> Path:
    """Check a CSV as a revision of the module's deck, then copy it in as ``decks/<name>.csv``."""
    deck_id = deck_id or main_deck(module)
    if not _name().match(name):
        raise ModuleError(
            [Problem(str(source), None, "--name", "use letters, digits, '.', '-' and '_' only")]
        )
    target = module.decks[deck_id].path.parent / f"{name}.csv"
    if os.path.lexists(target):
        raise ModuleError(
            [
                Problem(
                    str(target),
                    None,
                    "",
                    "a revision of that name exists already; choose another name (nothing was changed)",
                )
            ]
        )
    source = Path(source)
    if not source.is_file():
        raise ModuleError([Problem(str(source), None, "", "no such file")])
    _load(module, deck_id, source, str(source))  # every row checked before anything is written
    try:
        atomic_write_bytes(target, source.read_bytes())
    except FileExistsError:  # made meanwhile: kept as it is
        raise ModuleError(
            [
                Problem(
                    str(target),
                    None,
                    "",
                    "a revision of that name exists already; choose another name (nothing was changed)",
                )
            ]
        ) from None
    return target


__all__ = ["import_revision", "main_deck", "revisions", "with_file", "with_revision"]


def module_for_game(module: Module, decks: list[dict[str, str]]) -> tuple[Module, list[str]]:
    """The module with the deck revisions a game recorded in its header, and warnings.

    A game records each deck's file and sha256; when the file is another
    revision than the manifest's, that revision is loaded; when its sha256
    differs from the recorded one, the deck has changed since the game began.
    """
    warnings: list[str] = []
    for recorded in decks:
        deck_id = recorded.get("id") or main_deck(module)
        if deck_id not in module.decks:
            continue
        stem = Path(recorded.get("file", "")).stem
        if stem and stem != module.decks[deck_id].path.stem:
            try:
                module = with_revision(module, stem, deck_id)
            except ModuleError as exc:
                warnings.append(
                    f"the game's deck revision {quoted(stem)} cannot be loaded ({exc}); the module's own deck is used"
                )
                continue
        if recorded.get("sha256") and module.decks[deck_id].sha256 != recorded["sha256"]:
            warnings.append(
                f"the deck {module.decks[deck_id].path.name} has changed since this game began (its sha256 differs)"
            )
    return module, warnings
