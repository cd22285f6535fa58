"""Game code a module names: imported by name from a game package, never from the data folder.

``module.toml`` names its game object (``game = "rules_assist.<game>.game:<Game>"``);
the manifest (manifest.py) only records the name. ``game_of(module)`` makes the game object
once per module, on first use, so reading a manifest or opening the window does not import
game code that is not needed yet; ``deck_problems(module)`` runs the game's own check of its
decks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tabletop.core.textsafe import quoted

from .manifest import Module, code_home, game_packages
from .problems import ModuleError, Problem


def import_function(dotted: str, what: str) -> Callable[..., Any]:
    """Import ``rules_assist.pkg.mod:function``; only the game packages are reached (rules_assist,
    and those named in TABLETOP_GAME_PACKAGES)."""
    module_name, _, name = dotted.partition(":")
    if module_name.split(".")[0] not in game_packages():
        raise ModuleError(
            [
                Problem(
                    "module.toml",
                    None,
                    what,
                    f"must name a function in a game package ({', '.join(game_packages())})",
                )
            ]
        )
    try:
        function = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as exc:
        raise ModuleError(
            [Problem("module.toml", None, what, f"{dotted} cannot be found ({exc})")]
        ) from None
    if not callable(function):
        raise ModuleError([Problem("module.toml", None, what, f"{dotted} is not a function")])
    return function


# The game interface every module's game object is made from (rules_assist/game.py), named
# rather than imported: the module layer sits below the rules layer.
GAME_INTERFACE = ("rules_assist.game", "Game")


def game_class(module: Module) -> type:
    """The class ``game`` in module.toml names, checked before anything of it runs: it must
    lie in the module's own game package (manifest.own_code) and be a kind of the game
    interface, ``rules_assist.game.Game``; anything else is a ModuleError naming the entry."""
    dotted = module.game_path or ""
    shown = str(module.folder / "module.toml")
    if code_home(dotted) is None:
        raise ModuleError(
            [Problem(shown, None, "module.game", f"{dotted} is not this module's own game code")]
        )
    found = import_function(dotted, "module.game")
    if not isinstance(found, type) or not any(
        (base.__module__, base.__name__) == GAME_INTERFACE for base in found.__mro__[1:]
    ):
        raise ModuleError(
            [
                Problem(
                    shown,
                    None,
                    "module.game",
                    f"{dotted} is not a game (a kind of {'.'.join(GAME_INTERFACE)})",
                )
            ]
        )
    return found


def need_problems(module: Module, game: type) -> list[Problem]:
    """What the game's code names that the module lacks (the game's ``module_needs``: decks,
    kinds, places and variants), a problem each; checked before any of the game's code runs."""
    needs = getattr(game, "module_needs", None) or {}
    have = {
        "decks": set(module.decks),
        "kinds": set(module.kinds),
        "places": {place.id for place in module.places},
        "variants": set(module.variants),
    }
    shown = str(module.folder / "module.toml")
    return [
        Problem(shown, None, what, f"the game's code needs {what[:-1]} {name!r}, which is missing")
        for what, names in needs.items()
        for name in names
        if name not in have.get(what, set())
    ]


def game_of(module: Module | None) -> Any | None:
    """The module's game interface (``game`` in module.toml), made with this module once, on
    first use; None for a module without game code."""
    if module is None or not module.game_path:
        return None
    game = module.game_object
    if game is None or getattr(game, "module", None) is not module:  # a copy with another deck
        game = module.game_object = game_class(module)(module)
    return game


def deck_problems(module: Module) -> list[Problem]:
    """The module's own check of its decks' rows (a vocabulary of abilities, counts of cards):
    a problem for each row it refuses; none for a module without game code."""
    game = game_of(module)
    check = game.deck_check if game is not None else None
    if check is None:
        return []
    return [
        Problem(deck.file, line, f"column {quoted(column)}" if column else "", message)
        for deck in module.decks.values()
        for line, column, message in check(deck)
    ]
