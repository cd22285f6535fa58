"""Where modules live: ``resources/<game>/`` beside the packages, or any folder named by path,
and loading one: its manifest read (manifest.py), then its decks checked by its game code
(gamecode.py)."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from tabletop.persist.logfile import MODULE_ID

from .gamecode import deck_problems, game_class, need_problems
from .manifest import Module, read_manifest
from .problems import ModuleError, Problem

DEFAULT_MODULE = "proto"


def resources_dir() -> Path:
    """The resources folder: where TABLETOP_RESOURCES points; in a frozen (PyInstaller) build
    the bundled one; in an installed program (pip, pipx) the package's data,
    ``tabletop/resources/`` (setup.py puts it there); in a checkout ``resources/`` beside the
    packages."""
    override = os.environ.get("TABLETOP_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    package = Path(__file__).resolve().parent.parent
    installed = package / "resources"
    if installed.is_dir():
        return installed
    return package.parent / "resources"


def module_ids() -> list[str]:
    """The ids of the modules in the resources folder."""
    root = resources_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "module.toml").is_file())


def default_module() -> str:
    """The module a new game starts with: the one ``resources/catalogue.toml`` names
    (``default = "..."``) when it is there, else the prototyping module."""
    path = resources_dir() / "catalogue.toml"
    try:
        named = tomllib.loads(path.read_text(encoding="utf-8")).get("default")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        named = None
    return named if isinstance(named, str) and named in module_ids() else DEFAULT_MODULE


def load_module(folder: str | Path) -> Module:
    """Load and check ``folder/module.toml`` with its decks, then the game's own check of its
    decks (when the manifest names game code). Raises ModuleError listing every problem."""
    module = read_manifest(folder)
    if module.game_path:
        problems = need_problems(module, game_class(module))  # checked before it runs
        if problems:
            raise ModuleError(problems)
        problems = deck_problems(module)
        if problems:
            raise ModuleError(problems)
    return module


_cache: dict[Path, tuple[float, Module]] = {}
# The module folders the user named (the command line's --module-dir): a saved game's module
# may come from one of them, never from a folder the game's own file names.
_named_folders: list[Path] = []
MODULE_DIR_HINT = (
    "to open a game of a module that is not installed, name its folder: --module-dir FOLDER"
)


def name_module_folders(folders: list[str | Path]) -> None:
    """The module folders the user named (replacing those named before)."""
    _named_folders[:] = [Path(f) for f in folders]


def saved_module(module_id: str, source: str | os.PathLike[str] | None = None) -> Module:
    """The module a saved game (a log's header, a position) names by its id: one of the folders
    the user named (name_module_folders) whose manifest has that id, else the installed module
    of that id. The file never chooses a folder: an id that is a path is refused, so opening a
    received game never reads a manifest, decks or game code from a place the file picks.
    ``source`` is the file that names the module, for the message."""
    shown = str(source) if source else "the game"
    if not isinstance(module_id, str) or not MODULE_ID.fullmatch(module_id):
        raise ModuleError(
            [
                Problem(
                    shown,
                    None,
                    "module",
                    f"names its module by a path, not by an id ({_show(module_id)});"
                    f" {MODULE_DIR_HINT}",
                )
            ]
        )
    for folder in _named_folders:
        module = find_module(str(folder))
        if module.id == module_id:
            return module
    folder = resources_dir() / module_id
    if not (folder / "module.toml").is_file():
        named = ", ".join(str(f) for f in _named_folders)
        where = f"neither installed nor in {named}" if named else "not installed"
        raise ModuleError(
            [
                Problem(
                    shown,
                    None,
                    "module",
                    f"the module {module_id!r} is {where}; {MODULE_DIR_HINT}",
                )
            ]
        )
    return _load_cached(folder)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def find_module(name: str) -> Module:
    """Load a module by id (from resources/) or by the path of its folder (or of its module.toml)."""
    candidate = Path(name)
    if candidate.name == "module.toml":
        candidate = candidate.parent
    if (candidate / "module.toml").is_file() and (
        os.sep in name or name.startswith(".") or not (resources_dir() / name).is_dir()
    ):
        folder = candidate
    else:
        folder = resources_dir() / name
        if not (folder / "module.toml").is_file():
            known = ", ".join(module_ids()) or "none found"
            raise ModuleError(
                [Problem(name, None, "", f"there is no such module (modules: {known})")]
            )
    return _load_cached(folder)


def _load_cached(folder: Path) -> Module:
    folder = folder.resolve()
    stamp = max((p.stat().st_mtime for p in folder.rglob("*") if p.is_file()), default=0.0)
    cached = _cache.get(folder)
    if cached and cached[0] == stamp:
        return cached[1]
    module = load_module(folder)
    _cache[folder] = (stamp, module)
    return module
