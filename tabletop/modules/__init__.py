"""Game modules: manifests (TOML), decks (CSV) and card templates in resources/<game>/."""

from .catalogue import default_module, find_module, load_module, module_ids, resources_dir
from .deck import Column, Deck
from .manifest import KindDef, Module, PlaceDef
from .problems import ModuleError, Problem
from .setup import SetupContext, SetupError, new_game, not_laid_out, resolve_seats

__all__ = [
    "Column",
    "Deck",
    "KindDef",
    "Module",
    "ModuleError",
    "PlaceDef",
    "Problem",
    "SetupContext",
    "SetupError",
    "default_module",
    "find_module",
    "load_module",
    "module_ids",
    "new_game",
    "not_laid_out",
    "resolve_seats",
    "resources_dir",
]
