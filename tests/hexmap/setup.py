"""The hex map's setup: two printed faces laid side by side, the second turned by the seed,
added to the table as one board of axial spaces; workers in the supplies, a few on the map."""

from __future__ import annotations

import random

from tabletop.core import AddPlace, Command, Compound, hexes
from tabletop.modules import SetupContext

# Two printed faces in even-q offset cells (columns left to right, rows top to bottom);
# W wood, S sheep, G gold, A axe, T tower, ~ water, . no hex.
FACES = (
    (
        "..WGS..",
        "..ATG..",
        ".SGWAW.",
        "A~TAWSW",
        "WSSAAWS",
    ),
    (
        "..GSW..",
        "..WTW..",
        ".A~AAS.",
        "SAAWTSW",
        "~SWGSAG",
    ),
)
TERRAIN = {"W": "wood", "S": "sheep", "G": "gold", "A": "axe", "T": "tower", "~": "water"}
STYLE = {
    "attr": "terrain",
    "colours": {
        "wood": "#3c6e2f",
        "sheep": "#a8c95a",
        "gold": "#8c8c8c",
        "axe": "#b5523b",
        "tower": "#d8c8a0",
        "water": "#2b6ca3",
    },
    "letters": {"sheep": "S", "gold": "G", "axe": "A", "water": "~"},
    "icons": {"wood": "tree", "tower": "tower"},
}
MAP = "map"


def face_cells(face: tuple[str, ...]) -> dict[tuple[int, int], str]:
    """The cells of a printed face: (col, row) -> terrain."""
    return {
        (col, row): TERRAIN[mark]
        for row, line in enumerate(face)
        for col, mark in enumerate(line)
        if mark != "."
    }


def map_spec(seed: int) -> dict:
    """The map's board spec: face 1 at the origin, face 2 to its right turned by the seed."""
    turn = random.Random(f"{seed}/map").randrange(6)
    terrain: dict[tuple[int, int], str] = {}
    first = face_cells(FACES[0])
    for cell, h in hexes.place_face(first, (0, 0), 0).items():
        terrain[h] = first[cell]
    second = face_cells(FACES[1])
    placed = hexes.place_face(second, (0, 0), turn)
    # the second face to the right of the first: the first place where it touches without overlapping
    for shift in range(-6, 20):
        moved = {cell: (q + shift, r - 3) for cell, (q, r) in placed.items()}
        hexes_there = set(moved.values())
        touching = any(n in terrain for h in hexes_there for n in hexes.neighbours(h))
        if touching and not hexes_there & set(terrain) and min(q for q, _ in hexes_there) > 0:
            break
    for cell, h in moved.items():
        terrain[h] = second[cell]
    spaces = [hexes.name(h) for h in sorted(terrain)]
    attrs: dict[str, dict] = {hexes.name(h): {"terrain": t} for h, t in sorted(terrain.items())}
    attrs[hexes.name((3, -1))]["label"] = "Lookout"
    return {
        "shape": "hex",
        "coords": "axial",
        "orientation": "flat",
        "spaces": spaces,
        "node_attrs": attrs,
        "style": STYLE,
    }


def setup(context: SetupContext) -> None:
    board = map_spec(context.table.random.seed)
    context.submit(AddPlace({"id": MAP, "kind": "board", "label": "Map", "board": board}))
    steps: list[Command] = []
    for seat in context.seats:
        for n in range(1, 6):
            steps += context.piece_commands(
                "worker", f"worker-{seat.id}-{n}", f"supply_{seat.id}", owner=seat.id, index=n - 1
            )
    context.submit(Compound("workers in the supplies", tuple(steps)))
    # three tiles on one hex, a tile and a worker on another
    crowded = [
        *context.piece_commands("tile", "tile-1", MAP, spot="3,0", index=0),
        *context.piece_commands("tile", "tile-2", MAP, spot="3,0", index=1),
        *context.piece_commands("tile", "tile-3", MAP, spot="3,0", index=2),
        *context.piece_commands("tile", "tile-4", MAP, spot="1,2", index=3),
    ]
    crowded += context.piece_commands(
        "worker", "worker-guest", MAP, spot="1,2", owner=context.seats[0].id, index=4
    )
    context.submit(Compound("tiles on the map", tuple(crowded)))
