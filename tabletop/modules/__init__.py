"""Game modules: manifests (TOML), decks (CSV) and card templates in resources/<game>/."""

from .catalogue import (
    MODULE_DIR_HINT,
    default_module,
    find_module,
    load_module,
    module_ids,
    name_module_folders,
    resources_dir,
    saved_module,
)
from .deck import Column, Deck
from .manifest import KindDef, Module, PlaceDef
from .problems import ModuleError, Problem
from .setup import SetupContext, SetupError, new_game, resolve_seats

__all__ = [
    "MODULE_DIR_HINT",
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
    "name_module_folders",
    "new_game",
    "resolve_seats",
    "resources_dir",
    "saved_module",
]
