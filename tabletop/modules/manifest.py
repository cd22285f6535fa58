"""Module manifests: ``resources/<game>/module.toml``, read safely and checked field by field.

A module names its seats, variants, piece kinds, decks (CSV), card templates,
places (the table layout) and setup. Game code (a setup function, a summary
for ``tabletop inspect``) is named by a dotted path into ``rules_assist``; the
manifest only records the names, and gamecode.py imports them from the installed
package; nothing in the data folder is executed. ``read_manifest`` reads no game
code: ``load_module`` (catalogue.py) adds the game's own check of its decks.
The manifest format is documented in docs/modules.md.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.core import Seat
from tabletop.core.boards import FIELDS as BOARD_FIELDS
from tabletop.core.boards import BoardSpec, BoardSpecError
from tabletop.core.errors import FormatError
from tabletop.core.limits import (
    LAYOUT_BOUND_TEXT,
    MAX_MODULE_BYTES,
    MAX_PIECES,
    MAX_PLACES,
    layout_number,
    size_text,
)
from tabletop.core.places import KINDS as PLACE_KINDS
from tabletop.core.places import SPOTTED_KINDS
from tabletop.core.textsafe import quoted
from tabletop.persist.logfile import MODULE_ID

from .deck import COLUMN_TYPES, Column, Deck, read_deck
from .problems import LineFinder, ModuleError, Problem

SHAPES = ("card", "cube", "disk", "die", "token", "marker", "board")
# Game code a module may name, each a dotted path into a game package (rules_assist, or one
# named in TABLETOP_GAME_PACKAGES):
#   game(module) -> the game interface (rules_assist/game.py), which gives everything below;
#   setup(context), summary(state, module) -> lines or a dict,
#   deck_check(deck) -> [(line, column, message)], card_view(row) -> display roles,
#   checker(module) -> the table's checker, audit(state, module) -> findings on a whole table,
#   score(state, module) -> plain rows (dicts) for the window's score panel,
#   complete_move(state, command, module) -> the command with what the rules make follow from it.
# The window's phase panel and bot seats read the game object's ``flow`` and ``bots``.
HOOKS = (
    "game",
    "setup",
    "summary",
    "deck_check",
    "card_view",
    "checker",
    "audit",
    "score",
    "complete_move",
)
# Entries older manifests have that are no longer read: each loads with a note, not a problem.
RETIRED = {
    "phases": "the phase panel follows the game object's flow (the 'game' entry)",
    "bots": "the bot seats are the game object's bots (the 'game' entry)",
}


def game_packages() -> tuple[str, ...]:
    """The packages game code may be imported from: rules_assist, and those named in the
    environment variable TABLETOP_GAME_PACKAGES (comma-separated), for games written outside
    the project's tree."""
    extra = os.environ.get("TABLETOP_GAME_PACKAGES", "")
    return ("rules_assist", *(p.strip() for p in extra.split(",") if p.strip()))


def own_packages(module_id: str) -> list[str]:
    """Where the code of a module that names no game class lies: the package (or Python
    module) named after the module's id in each game package (``rules_assist.mygame`` for
    'mygame')."""
    name = module_id.replace("-", "_")
    return [f"{package}.{name}" for package in game_packages()]


def code_home(dotted: str) -> str | None:
    """The game a hook's code belongs to: the package right under a game package that holds
    it (``rules_assist.mygame`` for 'rules_assist.mygame.game:MyGame'); None
    outside the game packages."""
    where = dotted.partition(":")[0]
    for package in game_packages():
        if where.startswith(package + "."):
            return f"{package}.{where[len(package) + 1 :].split('.')[0]}"
    return None


def own_code(dotted: str, homes: list[str]) -> bool:
    """``dotted`` ('package.module:name') lies in one of ``homes``: every hook of a module
    is code of the one game the module plays, never another game's (or the program's)."""
    where = dotted.partition(":")[0]
    return any(where == own or where.startswith(own + ".") for own in homes)


def module_homes(module_id: str, game_dotted: str | None) -> list[str]:
    """Where a module's hooks may lie: the package of the game class it names (a copy of a
    module under another id, a revision for playtests, keeps its game's code), else the
    packages named after its id."""
    home = code_home(game_dotted) if game_dotted else None
    return [home] if home else own_packages(module_id)


_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+:[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class KindDef:
    """A kind of piece: what it looks like and what it is."""

    id: str
    shape: str
    label: str = ""
    size: tuple[float, float] = (20.0, 20.0)
    colour: str = "seat"
    faces: tuple[Any, ...] = ()
    regions: tuple[str, ...] = ()
    region_capacity: int | None = None
    back: str = ""
    template: str | None = None
    props: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlaceDef:
    """A place of the table layout; with ``per_seat`` one is made for each seat ({seat} in id and label).

    ``short`` is the label's short form, drawn when the full one does not fit the place's
    width (the full label stays in the tooltip, the overview and the log); it reaches the
    table as the place's ``layout`` entry ``short``.
    """

    id: str
    kind: str
    label: str = ""
    short: str = ""
    per_seat: bool = False
    capacity: int | None = None
    spots: tuple[str, ...] = ()
    board: dict[str, Any] | None = None
    layout: dict[str, Any] = field(default_factory=dict)
    props: dict[str, Any] = field(default_factory=dict)

    def spec_for(self, seat: Seat | None) -> dict[str, Any]:
        """The core place spec, with {seat} filled in."""

        def fill(text: str) -> str:
            if seat is None:
                return text
            return text.replace("{seat}", seat.id).replace("{seat_name}", seat.name or seat.id)

        spec: dict[str, Any] = {"id": fill(self.id), "kind": self.kind}
        if self.label:
            spec["label"] = fill(self.label)
        if seat is not None:
            spec["owner"] = seat.id
        if self.capacity is not None:
            spec["capacity"] = self.capacity
        if self.spots:
            spec["spots"] = list(self.spots)
        if self.board is not None:
            spec["board"] = self.board
        layout = dict(self.layout)
        if seat is not None and "seat_offset" in layout:
            layout.pop("seat_offset")
        if self.short:
            layout["short"] = fill(self.short)
        if layout:
            spec["layout"] = layout
        if self.props:
            spec["props"] = dict(self.props)
        return spec


@dataclass(frozen=True)
class OptionDef:
    """A choice a module's setup takes (a seat's starting animal, say): given on the command line or in the new-game dialog."""

    id: str
    label: str
    choices: tuple[str, ...]
    default: str
    help: str = ""


@dataclass
class Module:
    """A loaded, checked game module."""

    id: str
    name: str
    version: str
    folder: Path
    description: str = ""
    seats: list[Seat] = field(default_factory=list)
    min_seats: int = 1
    max_seats: int = 1
    default_seats: int = 1
    variants: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, KindDef] = field(default_factory=dict)
    decks: dict[str, Deck] = field(default_factory=dict)
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    places: list[PlaceDef] = field(default_factory=list)
    setup_steps: list[dict[str, Any]] = field(default_factory=list)
    setup_path: str | None = None
    summary_path: str | None = None
    deck_check_path: str | None = None
    card_view_path: str | None = None
    checker_path: str | None = None
    audit_path: str | None = None
    score_path: str | None = None
    complete_move_path: str | None = None
    game_path: str | None = None
    variant_defs: dict[str, dict[str, Any]] = field(default_factory=dict)
    constants: dict[str, Any] = field(default_factory=dict)  # the rules' numbers, as data
    game_object: Any = field(default=None, repr=False, compare=False)  # made on first use
    options: dict[str, OptionDef] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # entries the manifest has that are not read

    def card(self, deck_id: str, card_id: str) -> dict[str, Any]:
        return self.decks[deck_id].card(card_id)


@dataclass(frozen=True)
class Kind:
    """What a manifest field may hold: a test, and its name for a message ("text")."""

    name: str
    test: Callable[[Any], bool]


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | bool) or layout_number(value) or _is_whole(value)


TEXT = Kind("text", lambda v: isinstance(v, str))
FLAG = Kind("true or false", lambda v: isinstance(v, bool))
WHOLE = Kind("a whole number of at least 0", lambda v: _is_whole(v) and v >= 0)
COUNT = Kind(
    f"a whole number from 0 to {MAX_PIECES:,}", lambda v: _is_whole(v) and 0 <= v <= MAX_PIECES
)
NUMBER = Kind("a number", lambda v: _is_whole(v) or layout_number(v))
POSITION = Kind(LAYOUT_BOUND_TEXT, layout_number)
SCALAR = Kind("text, a number or true/false", _is_scalar)
TEXTS = Kind("a list of text", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))
SCALARS = Kind(
    "a list of text or numbers", lambda v: isinstance(v, list) and all(_is_scalar(x) for x in v)
)
TABLE = Kind("a table", lambda v: isinstance(v, dict))


class _Reader:
    """Reads typed fields out of parsed TOML, collecting a Problem for each wrong one."""

    def __init__(self, file: str, finder: LineFinder) -> None:
        self.file = file
        self.finder = finder
        self.problems: list[Problem] = []
        self.failed_decks: set[str] = set()
        self.failed_places: set[str] = set()

    def fail(self, path: tuple, message: str) -> None:
        self.problems.append(
            Problem(self.file, self.finder.line(*path), _field_name(path), message)
        )

    def get(
        self,
        table: dict[str, Any],
        path: tuple,
        key: str,
        kind: type | tuple | Kind,
        *,
        required: bool = False,
        default: Any = None,
    ) -> Any:
        if key not in table:
            if required:
                self.fail(path, f"the field '{key}' is missing")
            return default
        value = table[key]
        if isinstance(kind, Kind):
            ok, name = kind.test(value), kind.name
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            ok = (
                False if isinstance(value, bool) and bool not in kinds else isinstance(value, kinds)
            )
            name = _type_name(kinds)
        if not ok:
            self.fail((*path, key), f"must be {name}, not {_show(value)}")
            return default
        return value

    def typed(self, table: dict[str, Any], path: tuple, kinds: dict[str, Kind]) -> dict[str, Any]:
        """The fields of ``table`` that hold what ``kinds`` says (a problem for each that does
        not); fields ``kinds`` does not name are left out."""
        out: dict[str, Any] = {}
        for key, kind in kinds.items():
            if key in table:
                value = self.get(table, path, key, kind, default=_MISSING)
                if value is not _MISSING:
                    out[key] = value
        return out

    def unknown(self, table: dict[str, Any], path: tuple, allowed: set[str]) -> None:
        for key in table:
            if key not in allowed:
                self.fail(
                    (*path, key),
                    f"is not a field here (known fields: {', '.join(sorted(allowed))})",
                )


_MISSING = object()


def _field_name(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _type_name(kinds: tuple) -> str:
    names = {
        str: "text",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        list: "a list",
        dict: "a table",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _show(value: Any) -> str:
    return quoted(value, 40)


def read_manifest(folder: str | Path) -> Module:
    """Read and check ``folder/module.toml`` with its decks, running no game code (the game's
    own check of its decks is ``load_module``'s, in catalogue.py). Raises ModuleError listing
    every problem."""
    folder = Path(folder)
    manifest = folder / "module.toml"
    shown = str(manifest)
    try:
        if manifest.stat().st_size > MAX_MODULE_BYTES:
            raise ModuleError(
                [
                    Problem(
                        shown,
                        None,
                        "",
                        f"is larger than the limit of {size_text(MAX_MODULE_BYTES)} for a module.toml",
                    )
                ]
            )
        text = manifest.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModuleError(
            [Problem(shown, None, "", "no such file: a module folder needs a module.toml")]
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModuleError([Problem(shown, None, "", f"cannot be read ({exc})")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(match.group(1)) if match else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ModuleError([Problem(shown, line, "", f"is not valid TOML: {message}")]) from None
    except RecursionError:
        raise ModuleError([Problem(shown, None, "", "is nested too deeply to read")]) from None
    r = _Reader(shown, LineFinder(text))
    module = _read(r, data, folder)
    if r.problems:
        raise ModuleError(r.problems)
    return module


def _read(r: _Reader, data: dict[str, Any], folder: Path) -> Module:
    r.unknown(
        data,
        (),
        {
            "module",
            "seats",
            "variants",
            "options",
            "kinds",
            "decks",
            "templates",
            "places",
            "setup",
            "constants",
        },
    )
    head = r.get(data, (), "module", dict, required=True, default={})
    path = ("module",)
    r.unknown(
        head,
        path,
        {"id", "name", "version", "description", "min_seats", "max_seats", "default_seats"}
        | set(HOOKS)
        | set(RETIRED),
    )
    module = Module(
        id=r.get(head, path, "id", str, required=True, default=""),
        name=r.get(head, path, "name", str, required=True, default=""),
        version=r.get(head, path, "version", str, required=True, default=""),
        folder=folder,
        description=r.get(head, path, "description", str, default=""),
        raw=data,
    )
    if module.id and not MODULE_ID.fullmatch(module.id):
        r.fail((*path, "id"), "use lower-case letters, digits, '-' and '_' only")
    named_game = head.get("game") if isinstance(head.get("game"), str) else None
    homes = module_homes(
        module.id, named_game if named_game and _DOTTED.match(named_game) else None
    )
    for key in HOOKS:
        dotted = r.get(head, path, key, str)
        if dotted is not None and (
            not _DOTTED.match(dotted) or dotted.split(".")[0] not in game_packages()
        ):
            r.fail(
                (*path, key),
                f"must name a function in a game package ({', '.join(game_packages())}),"
                " as 'rules_assist.game.module:function'",
            )
            dotted = None
        elif dotted is not None and module.id and not own_code(dotted, homes):
            r.fail(
                (*path, key),
                f"must name code of the module's own game ({' or '.join(homes)}),"
                f" not {_show(dotted)}",
            )
            dotted = None
        setattr(module, f"{key}_path", dotted)
    for key, why in RETIRED.items():
        if key in head:
            module.notes.append(f"module.{key} is no longer read: {why}")

    _read_seats(r, data, head, module)
    _read_variants(r, data, module)
    _read_options(r, data, module)
    _read_kinds(r, data, module)
    _read_templates(r, data, module)
    _read_decks(r, data, module, folder)
    _read_places(r, data, module)
    _read_setup(r, data, module)
    module.constants = dict(r.get(data, (), "constants", dict, default={}))
    return module


def _read_seats(r: _Reader, data: dict[str, Any], head: dict[str, Any], module: Module) -> None:
    seats = r.get(data, (), "seats", list, required=True, default=[])
    ids: set[str] = set()
    for i, seat in enumerate(seats):
        path = ("seats", i)
        if not isinstance(seat, dict):
            r.fail(path, "each seat must be a table with id, name and colour")
            continue
        r.unknown(seat, path, {"id", "name", "colour"})
        sid = r.get(seat, path, "id", str, required=True, default="")
        colour = r.get(seat, path, "colour", str, default="#888888")
        if not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
            r.fail((*path, "colour"), f"must be a colour like '#c0392b', not {_show(colour)}")
        if sid in ids:
            r.fail((*path, "id"), f"the seat {sid!r} is named twice")
        ids.add(sid)
        module.seats.append(Seat(sid, r.get(seat, path, "name", str, default=sid), colour))
    n = len(module.seats)
    path = ("module",)
    module.min_seats = r.get(head, path, "min_seats", int, default=1)
    module.max_seats = r.get(head, path, "max_seats", int, default=max(n, 1))
    module.default_seats = r.get(head, path, "default_seats", int, default=module.max_seats)
    if n and not 1 <= module.min_seats <= module.default_seats <= module.max_seats <= n:
        r.fail(
            (*path, "min_seats"),
            f"need 1 <= min_seats <= default_seats <= max_seats <= {n} (the seats listed)",
        )


def _read_variants(r: _Reader, data: dict[str, Any], module: Module) -> None:
    for i, variant in enumerate(r.get(data, (), "variants", list, default=[])):
        path = ("variants", i)
        if not isinstance(variant, dict):
            r.fail(path, "each variant must be a table with id and name")
            continue
        r.unknown(
            variant,
            path,
            {"id", "name", "description", "rules_off", "params", "seats", "random_seats"},
        )
        vid = r.get(variant, path, "id", str, required=True, default="")
        module.variants[vid] = r.get(variant, path, "name", str, default=vid)
        rules_off = r.get(variant, path, "rules_off", list, default=[])
        if not all(isinstance(rule, str) for rule in rules_off):
            r.fail((*path, "rules_off"), "must be a list of rule sections, e.g. ['E2', 'F1']")
            rules_off = []
        seats = r.get(variant, path, "seats", int, default=0)
        if seats and not module.min_seats <= seats <= module.max_seats:
            r.fail(
                (*path, "seats"),
                f"must be between min_seats and max_seats ({module.min_seats} to"
                f" {module.max_seats}), not {seats}",
            )
            seats = 0
        module.variant_defs[vid] = {
            "name": module.variants[vid],
            "description": r.get(variant, path, "description", str, default=""),
            "rules_off": list(rules_off),
            "params": dict(r.get(variant, path, "params", dict, default={})),
            "seats": seats or None,  # how many the variant seats (None: the module's default)
            "random_seats": r.get(variant, path, "random_seats", bool, default=False),
        }


def _read_options(r: _Reader, data: dict[str, Any], module: Module) -> None:
    for i, option in enumerate(r.get(data, (), "options", list, default=[])):
        path = ("options", i)
        if not isinstance(option, dict):
            r.fail(path, "each option must be a table with id, choices and default")
            continue
        r.unknown(option, path, {"id", "label", "choices", "default", "help"})
        oid = r.get(option, path, "id", str, required=True, default="")
        choices = r.get(option, path, "choices", list, required=True, default=[])
        if not choices or not all(isinstance(c, str) for c in choices):
            r.fail((*path, "choices"), "must be a non-empty list of names")
            continue
        default = r.get(option, path, "default", str, default=choices[0])
        if default not in choices:
            r.fail((*path, "default"), f"must be one of the choices, not {_show(default)}")
        module.options[oid] = OptionDef(
            oid,
            r.get(option, path, "label", str, default=oid),
            tuple(choices),
            default,
            r.get(option, path, "help", str, default=""),
        )


def _read_kinds(r: _Reader, data: dict[str, Any], module: Module) -> None:
    allowed = {
        "id",
        "shape",
        "label",
        "size",
        "colour",
        "faces",
        "regions",
        "region_capacity",
        "back",
        "template",
        "props",
    }
    for i, kind in enumerate(r.get(data, (), "kinds", list, required=True, default=[])):
        path = ("kinds", i)
        if not isinstance(kind, dict):
            r.fail(path, "each kind must be a table")
            continue
        r.unknown(kind, path, allowed)
        kid = r.get(kind, path, "id", str, required=True, default="")
        shape = r.get(kind, path, "shape", str, required=True, default="token")
        if shape not in SHAPES:
            r.fail((*path, "shape"), f"must be one of {', '.join(SHAPES)}, not {_show(shape)}")
        size = r.get(kind, path, "size", list, default=[20, 20])
        if len(size) != 2 or not all(layout_number(v) and v > 0 for v in size):
            r.fail(
                (*path, "size"),
                f"must be [width, height] in millimetres, each {LAYOUT_BOUND_TEXT} above 0",
            )
            size = [20, 20]
        faces = r.get(kind, path, "faces", SCALARS, default=[])
        if shape == "die" and len(faces) < 2 and SCALARS.test(kind.get("faces", [])):
            r.fail((*path, "faces"), "a die needs a list of at least two faces")
        regions = r.get(kind, path, "regions", list, default=[])
        if not all(isinstance(x, str) for x in regions) or len(set(regions)) != len(regions):
            r.fail((*path, "regions"), "must be a list of distinct names")
            regions = []
        if kid in module.kinds:
            r.fail((*path, "id"), f"the kind {kid!r} is defined twice")
        module.kinds[kid] = KindDef(
            id=kid,
            shape=shape,
            label=r.get(kind, path, "label", str, default=kid),
            size=(float(size[0]), float(size[1])),
            colour=r.get(kind, path, "colour", str, default="seat"),
            faces=tuple(faces),
            regions=tuple(regions),
            region_capacity=r.get(kind, path, "region_capacity", WHOLE),
            back=r.get(kind, path, "back", str, default=""),
            template=r.get(kind, path, "template", str),
            props=r.get(kind, path, "props", dict, default={}),
        )


def _read_templates(r: _Reader, data: dict[str, Any], module: Module) -> None:
    for i, template in enumerate(r.get(data, (), "templates", list, default=[])):
        path = ("templates", i)
        if not isinstance(template, dict):
            r.fail(path, "each template must be a table")
            continue
        tid = r.get(template, path, "id", str, required=True, default="")
        for key, value in template.items():
            if key != "id" and not isinstance(value, str | list | int | float | dict):
                r.fail((*path, key), "must be a column name, a list of column names or a setting")
        module.templates[tid] = dict(template)


def _read_decks(r: _Reader, data: dict[str, Any], module: Module, folder: Path) -> None:
    card_ids: dict[str, str] = {}
    for i, deck in enumerate(r.get(data, (), "decks", list, default=[])):
        path = ("decks", i)
        if not isinstance(deck, dict):
            r.fail(path, "each deck must be a table")
            continue
        r.unknown(deck, path, {"id", "file", "kind", "template", "columns"})
        did = r.get(deck, path, "id", str, required=True, default="")
        file = r.get(deck, path, "file", str, required=True, default="")
        kind = r.get(deck, path, "kind", str, required=True, default="")
        template = r.get(deck, path, "template", str)
        if kind and kind not in module.kinds:
            r.fail((*path, "kind"), f"names no kind of this module ({_show(kind)})")
        elif kind and module.kinds[kind].shape != "card":
            r.fail(
                (*path, "kind"), f"the kind {kind!r} is a {module.kinds[kind].shape}, not a card"
            )
        if template is not None and template not in module.templates:
            r.fail((*path, "template"), f"names no template of this module ({_show(template)})")
        columns = _read_columns(
            r, r.get(deck, path, "columns", dict, default={}), (*path, "columns")
        )
        if not file:
            continue
        target = (folder / file).resolve()
        if folder.resolve() not in target.parents:
            r.fail((*path, "file"), "must be a path inside the module folder")
            r.failed_decks.add(did)
            continue
        loaded, problems = read_deck(did, target, str(folder / file), columns, kind, template)
        r.problems.extend(problems)
        if loaded is None:
            r.failed_decks.add(did)
            continue
        for card in loaded.cards:
            other = card_ids.get(card["id"])
            if other is not None:
                r.fail((*path, "file"), f"the card id {card['id']!r} is used by deck {other!r} too")
            card_ids[card["id"]] = did
        module.decks[did] = loaded


def _read_columns(r: _Reader, table: dict[str, Any], path: tuple) -> list[Column]:
    columns: list[Column] = []
    for name, spec in table.items():
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict):
            r.fail((*path, name), "must be a type name or a table with 'type'")
            continue
        where = (*path, name)
        r.unknown(spec, where, {"type", "required", "min", "max", "choices", "default"})
        ctype = spec.get("type", "text")
        if ctype not in COLUMN_TYPES:
            r.fail(
                (*where, "type"),
                f"the type must be one of {', '.join(COLUMN_TYPES)}, not {_show(ctype)}",
            )
            continue
        fields = r.typed(
            spec,
            where,
            {
                "required": FLAG,
                "min": NUMBER,
                "max": NUMBER,
                "choices": SCALARS,
                "default": _COLUMN_DEFAULTS[ctype],
            },
        )
        columns.append(
            Column(
                name,
                ctype,
                fields.get("required", name == "id"),
                fields.get("min"),
                fields.get("max"),
                tuple(str(c) for c in fields.get("choices", [])),
                fields.get("default"),
            )
        )
    return columns


# What a column's default may be, by the column's type.
_COLUMN_DEFAULTS = {
    "text": TEXT,
    "int": Kind("a whole number", _is_whole),
    "float": NUMBER,
    "bool": FLAG,
    "list": TEXTS,
    "int_list": Kind(
        "a list of whole numbers", lambda v: isinstance(v, list) and all(_is_whole(x) for x in v)
    ),
}


def _read_places(r: _Reader, data: dict[str, Any], module: Module) -> None:
    allowed = {
        "id",
        "kind",
        "label",
        "short",
        "per_seat",
        "capacity",
        "spots",
        "board",
        "layout",
        "props",
    }
    ids: set[str] = set()
    places = r.get(data, (), "places", list, required=True, default=[])
    if len(places) > MAX_PLACES:
        r.fail(("places",), f"lists {len(places):,} places, more than the limit of {MAX_PLACES:,}")
        return
    for i, place in enumerate(places):
        path = ("places", i)
        if not isinstance(place, dict):
            r.fail(path, "each place must be a table")
            continue
        r.unknown(place, path, allowed)
        pid = r.get(place, path, "id", str, required=True, default="")
        kind = r.get(place, path, "kind", str, required=True, default="bowl")
        per_seat = r.get(place, path, "per_seat", bool, default=False)
        if kind not in PLACE_KINDS or kind == "regions":
            r.failed_places.add(pid)
            r.fail(
                (*path, "kind"),
                f"must be one of {', '.join(k for k in PLACE_KINDS if k != 'regions')}, not {_show(kind)}",
            )
            continue
        if per_seat and "{seat}" not in pid:
            r.fail((*path, "id"), "a per-seat place needs {seat} in its id, e.g. 'hand_{seat}'")
        if pid in ids:
            r.fail((*path, "id"), f"the place {pid!r} is defined twice")
        ids.add(pid)
        spots = r.get(place, path, "spots", TEXTS, default=[])
        board = r.get(place, path, "board", dict)
        if kind == "slots" and not spots and TEXTS.test(place.get("spots", [])):
            r.fail((*path, "spots"), "a slots place needs a list of slot names")
        if spots and kind not in SPOTTED_KINDS:
            r.fail((*path, "spots"), f"a {kind} place has no spots")
        if kind == "board":
            if board is None:
                r.fail(
                    (*path, "board"),
                    "a board place needs a board table (shape = 'hex', 'grid' or 'graph')",
                )
            else:
                _check_board(r, board, (*path, "board"), module.folder)
        layout = r.get(place, path, "layout", dict, default={})
        for key in ("x", "y", "w", "h", "cell"):
            if key in layout and not layout_number(layout[key]):
                r.fail(
                    (*path, "layout", key), f"must be {LAYOUT_BOUND_TEXT}, not {_show(layout[key])}"
                )
        module.places.append(
            PlaceDef(
                id=pid,
                kind=kind,
                label=r.get(place, path, "label", str, default=""),
                short=r.get(place, path, "short", str, default=""),
                per_seat=per_seat,
                capacity=r.get(place, path, "capacity", WHOLE),
                spots=tuple(spots),
                board=board,
                layout=layout,
                props=r.get(place, path, "props", dict, default={}),
            )
        )


def _check_board(r: _Reader, board: dict[str, Any], path: tuple, folder: Path) -> None:
    """A board table: known fields, a spec the core accepts, and the icons its style names."""
    r.unknown(board, path, set(BOARD_FIELDS))
    try:
        spec = BoardSpec({k: v for k, v in board.items() if k in BOARD_FIELDS})
    except BoardSpecError as exc:
        r.fail((*path, *exc.field), exc.message)
        return
    except FormatError as exc:
        r.fail(path, str(exc).removeprefix("board spec: "))
        return
    for value, icon in ((spec.style or {}).get("icons") or {}).items():
        if not (folder / "icons" / f"{icon}.svg").is_file():
            r.fail(
                (*path, "style", "icons", value),
                f"names no picture of this module (icons/{icon}.svg)",
            )


def place_ids(module: Module) -> set[str]:
    """Every place id pattern of the layout ({seat} left in)."""
    return {p.id for p in module.places}


# What each field of a setup step holds.
_STEP_FIELDS = {
    "deck": TEXT,
    "place": TEXT,
    "from": TEXT,
    "to": TEXT,
    "kind": TEXT,
    "id": TEXT,
    "owner": TEXT,
    "spot": TEXT,
    "name": TEXT,
    "variant": TEXT,
    "unless_variant": TEXT,
    "count": COUNT,
    "face_up": FLAG,
    "shuffle": FLAG,
    "per_seat": FLAG,
    "value": SCALAR,
    "x": POSITION,
    "y": POSITION,
}


def _read_setup(r: _Reader, data: dict[str, Any], module: Module) -> None:
    places = place_ids(module) | r.failed_places
    fields = {
        "deck": ({"deck", "place"}, {"face_up", "shuffle", "spot"}),
        "pieces": (
            {"kind", "place", "count"},
            {"spot", "face_up", "value", "id", "owner", "x", "y"},
        ),
        "piece": ({"kind", "place", "id"}, {"spot", "face_up", "value", "owner", "x", "y"}),
        "deal": ({"from", "to", "count"}, {"face_up"}),
        "fill": ({"from", "to"}, {"face_up"}),
        "shuffle": ({"place"}, set()),
        "counter": ({"name", "value"}, set()),
        "flip": ({"place"}, {"count", "face_up"}),
    }
    pieces = 0  # how many pieces the steps put out at most
    for i, raw in enumerate(r.get(data, (), "setup", list, default=[])):
        path = ("setup", i)
        if not isinstance(raw, dict):
            r.fail(path, "each setup step must be a table with 'do'")
            continue
        do = raw.get("do")
        if not isinstance(do, str) or do not in fields:
            r.fail((*path, "do"), f"must be one of {', '.join(fields)}, not {_show(do)}")
            continue
        required, optional = fields[do]
        r.unknown(raw, path, required | optional | {"do", "per_seat", "variant", "unless_variant"})
        for key in sorted(required):
            if key not in raw:
                r.fail(path, f"a '{do}' step needs '{key}'")
        step = {"do": do} | r.typed(raw, path, _STEP_FIELDS)
        if do in ("pieces", "piece"):
            seats = module.max_seats if step.get("per_seat") else 1
            before, pieces = pieces, pieces + step.get("count", 1) * seats
            if before <= MAX_PIECES < pieces:  # said once, at the step that goes over
                r.fail(
                    (*path, "count"),
                    f"the setup puts out more than the limit of {MAX_PIECES:,} pieces",
                )
        for key in ("place", "from", "to"):
            if key in step and step[key] not in places:
                r.fail((*path, key), f"names no place of the layout ({_show(step[key])})")
        if (
            "deck" in step
            and step["deck"] not in module.decks
            and step["deck"] not in r.failed_decks
        ):
            r.fail((*path, "deck"), f"names no deck of this module ({_show(step['deck'])})")
        if "kind" in step and step["kind"] not in module.kinds:
            r.fail((*path, "kind"), f"names no kind of this module ({_show(step['kind'])})")
        for key in ("variant", "unless_variant"):
            if key in step and step[key] not in module.variants:
                r.fail((*path, key), f"names no variant of this module ({_show(step[key])})")
        module.setup_steps.append(dict(step))
