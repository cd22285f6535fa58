"""Looot's components as data, and the landscape as one value (``Layout``).

The data files live in the module folder (``resources/looot/data/*.csv``), each row with a
``source`` column saying where the fact comes from (the module's README lists the sources).
``load_data`` reads and checks them; a bad file gives one plain line naming the file, the
line and the column.

Coordinates: the landscape is in **axial** ``(q, r)`` for flat-topped hexes. A board's own
cells are given in **even-q offset** ``(col, row)`` (even columns shoved down half a hex); a
board lies on the map at an ``origin`` and a rotation ``k`` (k x 60 degrees): its cell
``(c, r)`` is converted to axial, turned ``k`` times by ``(q, r) -> (-r, q + r)`` and moved by
the origin. The fjord boards stay in even-q ``col,row``.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from tabletop.core import hexes
from tabletop.modules.catalogue import resources_dir

Axial = tuple[int, int]

RESOURCES = ("wood", "sheep", "gold", "axe")
BUILDINGS = ("house", "watchtower", "castle")
TILES = RESOURCES + BUILDINGS
TERRAINS = TILES + ("water", "trophy")
LETTERS = {
    "W": "wood",
    "S": "sheep",
    "G": "gold",
    "X": "axe",
    "H": "house",
    "T": "watchtower",
    "C": "castle",
}
SITE_TYPES = ("port", "altar", "palace")
SHIELDS = ("PlayAgain", "DoubleGain", "PlaceOnOccupiedSpace")
FACES = tuple(f"face{n}" for n in range(1, 9))
OCEANS = ("ocean1", "ocean2")
TROPHY_BOARDS = ("trophy1", "trophy2")
WATER_SPACES = 5


@dataclass(frozen=True)
class Hex:
    """One hex of the landscape: its terrain, the board it belongs to, its cell there."""

    terrain: str
    board: str
    local: tuple[int, int]


@dataclass(frozen=True)
class Layout:
    """The landscape and what lies on it at the start, drawn once by ``assemble``."""

    boards: tuple[tuple[str, tuple[int, int], int], ...]  # (board, origin (q,r), rotation k)
    hexes: Mapping[tuple[int, int], Hex]  # every hex of the map, axial
    ocean: tuple[tuple[tuple[int, int], int | None], ...]  # water spaces 0..4: (hex, longship)
    bag: tuple[int, ...]  # longships left, in draw order
    trophies: tuple[tuple[int, tuple[int, int]], ...]  # (axes needed 2..6, hex)
    stacks: Mapping[tuple[int, int], tuple[str, int]]  # hex -> (building, tiles)
    sites: tuple[tuple[str, str, str], ...]  # per seat in order: (port, altar, palace)


# ---- hex geometry (tabletop.core.hexes, with Looot's even-q boards) -------------------------
def offset_to_axial(col: int, row: int) -> Axial:
    """Even-q offset to axial (flat tops, even columns shoved down)."""
    return hexes.offset_to_axial((col, row), "even")


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """Axial to even-q offset."""
    return hexes.axial_to_offset((q, r), "even")


def rotate(cell: Axial, k: int) -> Axial:
    """An axial cell turned ``k`` times 60 degrees about the origin: (q, r) -> (-r, q + r)."""
    return hexes.rotate(cell, k)


def neighbours(cell: Axial) -> list[Axial]:
    return hexes.neighbours(cell)


def offset_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The six even-q neighbours of a cell (some may be off the board)."""
    return hexes.offset_neighbours((col, row), "even")


def place_cells(cells: Iterable[tuple[int, int]], origin: Axial, k: int) -> dict:
    """Each local even-q cell -> its axial hex once the board lies at ``origin``, turned k."""
    return hexes.place_face(cells, origin, k)


def key(cell: Axial) -> str:
    """A hex's space name on a board place: ``"q,r"``."""
    return hexes.name(cell)


def cell_of(space: str) -> tuple[int, int]:
    """``"q,r"`` (or ``"col,row"``) back to a pair; a plain error for anything else."""
    try:
        a, b = space.split(",")
        return int(a), int(b)
    except ValueError:
        raise ValueError(
            f"'{space}' is not a space: write it as two whole numbers, 'q,r'"
        ) from None


# ---- the data files ------------------------------------------------------------------------
class DataError(ValueError):
    """A data file that does not fit: one line naming the file, the line and the column."""


@dataclass(frozen=True)
class Site:
    id: str
    type: str
    needs: tuple[str, ...]
    value: int


@dataclass(frozen=True)
class Longship:
    id: int
    type: str
    bonus: int
    needs: tuple[str, ...]


@dataclass(frozen=True)
class TileType:
    tile: str
    group: str  # resource | building
    base: int  # value per tile before longship bonuses (LO-R21)
    stack: int  # tiles on a building space at setup (0 for resources)
    box: int | None  # tiles in the box; None where no source gives it


@dataclass(frozen=True)
class LoootData:
    boards: Mapping[str, Mapping[tuple[int, int], str]]  # board -> local cell -> terrain
    physical: Mapping[str, int]  # face -> the physical board (1..4) it is a side of
    fjord_cut: frozenset[tuple[int, int]]  # cells of the 7x7 grid that are no tile space
    fjord_slots: Mapping[str, tuple[tuple[int, int], ...]]  # shield/trophy -> printed cells
    fjord_sites: Mapping[str, tuple[int, int]]  # port/altar/palace -> printed cell
    sites: Mapping[str, Site]
    longships: Mapping[int, Longship]
    trophies: Mapping[int, int]  # axes needed -> points
    tiles: Mapping[str, TileType]

    @property
    def fjord_spaces(self) -> tuple[tuple[int, int], ...]:
        """The 37 spaces of a fjord board (the 34 free ones and the 3 printed sites)."""
        return tuple((c, r) for r in range(7) for c in range(7) if (c, r) not in self.fjord_cut)

    @property
    def fjord_free(self) -> tuple[tuple[int, int], ...]:
        """The 34 spaces a tile or a longship may go on."""
        printed = set(self.fjord_sites.values())
        return tuple(s for s in self.fjord_spaces if s not in printed)


def data_folder() -> Path:
    return resources_dir() / "looot" / "data"


def _rows(folder: Path, name: str, columns: Sequence[str]) -> list[tuple[int, dict]]:
    path = folder / name
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            header = reader.fieldnames or []
            missing = [c for c in (*columns, "source") if c not in header]
            if missing:
                raise DataError(f"{path}, line 1: missing column(s) {', '.join(missing)}")
            rows = []
            for row in reader:
                line = reader.line_num
                if not (row.get("source") or "").strip():
                    raise DataError(f"{path}, line {line}: column 'source' is empty")
                rows.append((line, row))
            return rows
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None


def _int(path: str, line: int, column: str, text: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise DataError(
            f"{path}, line {line}: column '{column}': '{text}' is not a whole number"
        ) from None


def _choice(path: str, line: int, column: str, text: str, choices: Sequence[str]) -> str:
    if text not in choices:
        raise DataError(
            f"{path}, line {line}: column '{column}': '{text}' is not one of {', '.join(choices)}"
        )
    return text


@cache
def load_data(folder: Path | None = None) -> LoootData:
    """Every data file of the module, read and checked (``DataError`` names what is wrong)."""
    folder = Path(folder) if folder else data_folder()
    boards: dict[str, dict[tuple[int, int], str]] = {}
    physical: dict[str, int] = {}
    name = "faces.csv"
    for line, row in _rows(folder, name, ("face", "board", "row", "cells")):
        face = _choice(name, line, "face", row["face"], FACES)
        physical[face] = _int(name, line, "board", row["board"])
        r = _int(name, line, "row", row["row"])
        cells = row["cells"].strip()
        for c, letter in enumerate(cells):
            if letter == ".":
                continue
            if letter not in LETTERS:
                raise DataError(
                    f"{name}, line {line}: column 'cells': '{letter}' is not one of "
                    f"{''.join(LETTERS)} or '.'"
                )
            boards.setdefault(face, {})[(c, r)] = LETTERS[letter]
    name = "boards.csv"
    for line, row in _rows(folder, name, ("board", "col", "row", "terrain")):
        board = _choice(name, line, "board", row["board"], OCEANS + TROPHY_BOARDS)
        cell = (_int(name, line, "col", row["col"]), _int(name, line, "row", row["row"]))
        boards.setdefault(board, {})[cell] = _choice(
            name, line, "terrain", row["terrain"], TERRAINS
        )
    cut: set[tuple[int, int]] = set()
    slots: dict[str, list[tuple[int, int]]] = {}
    printed: dict[str, tuple[int, int]] = {}
    name = "fjord.csv"
    for line, row in _rows(folder, name, ("col", "row", "use")):
        cell = (_int(name, line, "col", row["col"]), _int(name, line, "row", row["row"]))
        use = _choice(name, line, "use", row["use"], ("cut", "shield", "trophy", *SITE_TYPES))
        if use in SITE_TYPES:
            printed[use] = cell
        else:
            cut.add(cell)
            if use != "cut":
                slots.setdefault(use, []).append(cell)
    sites: dict[str, Site] = {}
    name = "sites.csv"
    for line, row in _rows(folder, name, ("id", "type", "needs", "value")):
        kind = _choice(name, line, "type", row["type"], SITE_TYPES)
        needs = tuple(
            _choice(name, line, "needs", n.strip(), TILES) for n in row["needs"].split(";")
        )
        sites[row["id"]] = Site(row["id"], kind, needs, _int(name, line, "value", row["value"]))
    longships: dict[int, Longship] = {}
    name = "longships.csv"
    for line, row in _rows(folder, name, ("id", "type", "bonus", "needs")):
        ident = _int(name, line, "id", row["id"])
        kind = _choice(
            name,
            line,
            "type",
            row["type"],
            ("castle", "gold", "watchtower") + ("sheep", "wood", "house"),
        )
        needs = tuple(
            _choice(name, line, "needs", n.strip(), RESOURCES) for n in row["needs"].split(";")
        )
        if ident in longships:
            raise DataError(f"{name}, line {line}: column 'id': {ident} comes twice")
        longships[ident] = Longship(ident, kind, _int(name, line, "bonus", row["bonus"]), needs)
    trophies: dict[int, int] = {}
    name = "trophies.csv"
    for line, row in _rows(folder, name, ("axes", "points")):
        trophies[_int(name, line, "axes", row["axes"])] = _int(name, line, "points", row["points"])
    tiles: dict[str, TileType] = {}
    name = "tiles.csv"
    for line, row in _rows(folder, name, ("tile", "group", "base", "stack", "box")):
        tile = _choice(name, line, "tile", row["tile"], TILES)
        box = row["box"].strip()
        tiles[tile] = TileType(
            tile,
            _choice(name, line, "group", row["group"], ("resource", "building")),
            _int(name, line, "base", row["base"]),
            _int(name, line, "stack", row["stack"]),
            _int(name, line, "box", box) if box else None,
        )
    data = LoootData(
        boards={b: MappingProxyType(cells) for b, cells in boards.items()},
        physical=physical,
        fjord_cut=frozenset(cut),
        fjord_slots={use: tuple(cells) for use, cells in slots.items()},
        fjord_sites=printed,
        sites=sites,
        longships=longships,
        trophies=trophies,
        tiles=tiles,
    )
    _check(data)
    return data


def _check(data: LoootData) -> None:
    """The counts the sources agree on (spec 1.1 to 1.6)."""
    problems = []
    for board in FACES + OCEANS + TROPHY_BOARDS:
        want = 25 if board in FACES else 7
        got = len(data.boards.get(board, {}))
        if got != want:
            problems.append(f"{board} has {got} hexes, not {want}")
    if len(data.fjord_spaces) != 37 or len(data.fjord_free) != 34:
        problems.append(
            f"the fjord has {len(data.fjord_spaces)} spaces and {len(data.fjord_free)} free, "
            "not 37 and 34"
        )
    if sorted(data.fjord_sites) != sorted(SITE_TYPES):
        problems.append("the fjord needs one printed port, altar and palace")
    for kind in SITE_TYPES:
        count = sum(s.type == kind for s in data.sites.values())
        if count != 5:
            problems.append(f"{count} {kind} sites, not 5")
    if len(data.longships) != 30:
        problems.append(f"{len(data.longships)} longships, not 30")
    if any(len(ship.needs) != 3 for ship in data.longships.values()):
        problems.append("every longship needs exactly 3 resources")
    if sorted(data.trophies) != [2, 3, 4, 5, 6]:
        problems.append("the trophies need 2 to 6 axes")
    if sorted(data.tiles) != sorted(TILES):
        problems.append(f"tiles.csv lists {', '.join(sorted(data.tiles))}")
    if problems:
        raise DataError("resources/looot/data: " + "; ".join(problems))


# ---- a layout from boards placed on the map ------------------------------------------------
def board_hexes(board: str, origin: Axial, k: int, data: LoootData | None = None) -> dict:
    """The hexes one board covers when it lies at ``origin`` turned ``k``: axial -> Hex."""
    data = data or load_data()
    cells = data.boards[board]
    return {
        hexa: Hex(cells[cell], board, cell) for cell, hexa in place_cells(cells, origin, k).items()
    }


def build_layout(
    boards: Sequence[tuple[str, Axial, int]],
    ocean: Sequence[int | None],
    bag: Sequence[int],
    sites: Sequence[tuple[str, str, str]],
    data: LoootData | None = None,
) -> Layout:
    """A Layout from the boards placed (face, ocean and trophy boards), the longships on the
    five water spaces in order and the rest of the bag: the hexes, water spaces, trophy
    spaces (the trophy needing 2 axes on the board's cell 0) and building stacks follow."""
    data = data or load_data()
    hexes: dict[Axial, Hex] = {}
    for board, origin, k in boards:
        for hexa, found in board_hexes(board, tuple(origin), k, data).items():
            if hexa in hexes:
                raise DataError(f"{board} overlaps {hexes[hexa].board} at {key(hexa)}")
            hexes[hexa] = found
    water = sorted((h.local[0], hexa) for hexa, h in hexes.items() if h.terrain == "water")
    spaces = sorted((h.local[0], hexa) for hexa, h in hexes.items() if h.terrain == "trophy")
    if len(water) != WATER_SPACES or len(ocean) != WATER_SPACES or len(spaces) != 5:
        raise DataError("a layout needs one ocean board, one trophy board and 5 longships")
    stacks = {
        hexa: (h.terrain, data.tiles[h.terrain].stack)
        for hexa, h in sorted(hexes.items())
        if h.terrain in BUILDINGS
    }
    return Layout(
        boards=tuple((b, (o[0], o[1]), k) for b, o, k in boards),
        hexes=MappingProxyType(dict(sorted(hexes.items()))),
        ocean=tuple((hexa, ship) for (_, hexa), ship in zip(water, ocean, strict=True)),
        bag=tuple(bag),
        trophies=tuple(
            (axes, hexa) for axes, (_, hexa) in zip(sorted(data.trophies), spaces, strict=True)
        ),
        stacks=MappingProxyType(stacks),
        sites=tuple(tuple(s) for s in sites),  # type: ignore[misc]
    )


# ---- assembling a new landscape (spec 1.2, 1.7) --------------------------------------------
FACE_CONTACT = 11  # edges a new face shares with the map: one whole side of it against the map
SIDE_BOARD_CONTACT = 6  # edges an ocean or trophy board's land side shares with the map


def _edge_counts(taken: Iterable[Axial]) -> dict[Axial, int]:
    """Each hex -> the edges it shares with ``taken`` (a cell's contact with it, read at once)."""
    found: dict[Axial, int] = {}
    for q, r in taken:
        for dq, dr in hexes.DIRECTIONS:
            found[q + dq, r + dr] = found.get((q + dq, r + dr), 0) + 1
    return found


# A hex as one whole number, q * _W + r: sums and differences of hexes are those of their
# numbers, and the numbers sort as the (q, r) pairs do (the map is far smaller than _W).
_W = 1 << 16


def _number(h: Axial) -> int:
    return h[0] * _W + h[1]


def _hex(n: int) -> Axial:
    q = (n + _W // 2) // _W
    return q, n - q * _W


_STEPS = tuple(_number(d) for d in hexes.DIRECTIONS)


def _placements(
    cells: Sequence[tuple[int, int]],
    taken: Mapping[Axial, Hex],
    touching: Sequence[int],
    least: int,
    against: Mapping[Axial, Hex] | None = None,
) -> list[tuple[Axial, int]]:
    """Every way to lay a board's cells beside the map without overlap, (origin, k), where the
    cells at the indices ``touching`` share at least ``least`` edges with the map (or with
    the part of it ``against``)."""
    filled = {_number(h) for h in taken}
    # each hex off the map -> the edges it shares with the map (or with ``against``); as
    # adjacency is symmetric, a cell's contact is read here once instead of six tests a cell
    edges: dict[int, int] = {}
    for h in filled if against is None else {_number(h) for h in against}:
        for step in _STEPS:
            n = h + step
            if n not in filled:
                edges[n] = edges.get(n, 0) + 1
    border = {h + step for h in filled for step in _STEPS} - filled
    found = []
    for k in range(6):
        turned = [_number(rotate(offset_to_axial(*cell), k)) for cell in cells]
        ends = [turned[i] for i in touching]
        overlapping = {h - t for h in filled for t in turned}
        origins = sorted({b - t for b in border for t in turned} - overlapping)
        # the edges the touching cells share with the map, for every origin at once
        contact: dict[int, int] = {}
        for h, count in edges.items():
            for t in ends:
                contact[h - t] = contact.get(h - t, 0) + count
        found += [(_hex(o), k) for o in origins if contact.get(o, 0) >= least]
    return found


def assemble(players: int, rng: random.Random, data: LoootData | None = None) -> Layout:
    """A new landscape for ``players`` (2 to 4), drawn with ``rng`` (spec 1.2 and 1.7).

    One face of each of ``players`` physical boards drawn at random; the first lies at the
    origin unturned; each further face is laid with one whole side against the map, at a
    random one of the placements that allow it; then the trophy board and the ocean board,
    each on a random side, laid with their land side (row 1) against the faces and touching
    neither each other (so every water space is reached from the faces' side). The 30
    longships are shuffled: five go onto the water spaces, the rest stay in the bag in draw
    order. Each site type is shuffled and player k gets the k-th of each.
    """
    data = data or load_data()
    if not 2 <= players <= 4:
        raise DataError(f"Looot seats 2 to 4 players, not {players}")
    chosen = rng.sample(sorted(set(data.physical.values())), players)
    faces = [rng.choice(sorted(f for f, b in data.physical.items() if b == n)) for n in chosen]
    taken: dict[Axial, Hex] = {}
    boards: list[tuple[str, Axial, int]] = []
    for face in faces:
        cells = sorted(data.boards[face])
        if taken:
            everything = range(len(cells))
            origin, k = rng.choice(_placements(cells, taken, everything, FACE_CONTACT))
        else:
            origin, k = (0, 0), 0
        placed = place_cells(cells, origin, k)
        boards.append((face, origin, k))
        taken.update({hexa: Hex(data.boards[face][c], face, c) for c, hexa in placed.items()})
    faces_only = dict(taken)
    for board in (rng.choice(TROPHY_BOARDS), rng.choice(OCEANS)):
        cells = sorted(data.boards[board])
        land = [i for i, c in enumerate(cells) if c[1] == 1]
        others = {hexa for hexa in taken if hexa not in faces_only}  # the board laid before
        to_faces, to_others = _edge_counts(faces_only), _edge_counts(others)
        options = []
        for option in _placements(cells, taken, land, 2, faces_only):
            where = place_cells(cells, *option)
            placed = where.values()
            if (
                sum(to_faces.get(h, 0) for h in placed) >= SIDE_BOARD_CONTACT
                and all(to_faces.get(where[cells[i]]) for i in land)
                and not any(to_others.get(h) for h in placed)
            ):
                options.append(option)
        origin, k = rng.choice(options)
        placed = place_cells(cells, origin, k)
        boards.append((board, origin, k))
        taken.update({hexa: Hex(data.boards[board][c], board, c) for c, hexa in placed.items()})
    ships = sorted(data.longships)
    rng.shuffle(ships)
    sites_by_type = {}
    for kind in SITE_TYPES:
        names = sorted(s.id for s in data.sites.values() if s.type == kind)
        rng.shuffle(names)
        sites_by_type[kind] = names
    sites = [tuple(sites_by_type[kind][p] for kind in SITE_TYPES) for p in range(players)]
    return build_layout(boards, ships[:WATER_SPACES], ships[WATER_SPACES:], sites, data)
