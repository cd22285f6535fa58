"""Looot's table at the start (spec 1.7): the landscape assembled from the seed (or read from a
layout file), the building stacks, longships, trophies, each seat's Vikings, shields and
sites, the resource supply; and ``start_from_layout``, a new game from a given Layout.

A layout file (``tabletop new looot --position FILE``) is JSON: a layout's ``boards``,
``ocean``, ``bag`` and ``sites`` in the neutral notation (``{"board", "origin", "rotation"}``,
``{"space", "hex", "longship"}``, draw order, ``{"port", "altar", "palace"}`` per seat), or a
whole recorded game holding them under ``setup``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

from tabletop.core import Command, Compound, actions
from tabletop.modules import SetupContext, load_module, new_game
from tabletop.modules.catalogue import resources_dir
from tabletop.modules.rules import game_of
from tabletop.modules.setup import SetupError
from tabletop.persist import Game as Session

from .layout import (
    RESOURCES,
    SHIELDS,
    SITE_TYPES,
    DataError,
    Layout,
    assemble,
    build_layout,
    key,
    load_data,
)
from .reading import BAG, LANDSCAPE, SUPPLY, VIKINGS, fjord, shields, supply_of


# ---- layout files ---------------------------------------------------------------------------
def layout_to_json(layout: Layout) -> dict[str, Any]:
    """A layout in the neutral notation (what ``read_layout`` reads back)."""
    return {
        "boards": [{"board": b, "origin": list(o), "rotation": k} for b, o, k in layout.boards],
        "ocean": [
            {"space": i, "hex": list(h), "longship": ship}
            for i, (h, ship) in enumerate(layout.ocean)
        ],
        "bag": list(layout.bag),
        "sites": [
            {"player": i + 1, "port": p, "altar": a, "palace": j}
            for i, (p, a, j) in enumerate(layout.sites)
        ],
    }


def layout_from_json(data: Any, where: str = "the layout") -> Layout:
    """A Layout from its neutral notation (or a recorded game holding it under ``setup``)."""
    if isinstance(data, dict) and isinstance(data.get("setup"), dict):
        data = data["setup"]
    try:
        ocean = sorted(data["ocean"], key=lambda o: o["space"])
        return build_layout(
            [(b["board"], tuple(b["origin"]), int(b["rotation"])) for b in data["boards"]],
            [o["longship"] for o in ocean],
            [int(n) for n in data["bag"]],
            [(s["port"], s["altar"], s["palace"]) for s in data["sites"]],
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, DataError):
            raise SetupError(f"{where}: {error}") from None
        raise SetupError(
            f"{where}: needs boards, ocean, bag and sites in the neutral notation ({error!r})"
        ) from None


def read_layout(path: str | os.PathLike[str]) -> Layout:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise SetupError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SetupError(f"{path}, line {error.lineno}: not JSON ({error.msg})") from None
    except RecursionError:
        raise SetupError(f"{path}: nested too deeply to read") from None
    return layout_from_json(data, str(path))


# ---- the table at the start ------------------------------------------------------------------
TERRAIN_STYLE = {
    "attr": "terrain",
    "colours": {
        "wood": "#3c6e2f",
        "sheep": "#a8d08d",
        "gold": "#d4a017",
        "axe": "#9b4a3c",
        "house": "#c9a26b",
        "watchtower": "#8e8e8e",
        "castle": "#5d4e75",
        "water": "#2b6ca3",
        "trophy": "#f5d76e",
    },
    "icons": {
        "wood": "wood",
        "sheep": "sheep",
        "gold": "gold",
        "axe": "axe",
        "house": "house",
        "watchtower": "watchtower",
        "castle": "castle",
        "water": "water",
        "trophy": "trophy",
    },
}


def landscape_spec(layout: Layout) -> dict[str, Any]:
    """The board place of the landscape: axial spaces with their terrain, board and cell."""
    cells = sorted(layout.hexes.items())
    return {
        "id": LANDSCAPE,
        "kind": "board",
        "label": "Landscape",
        "board": {
            "shape": "hex",
            "coords": "axial",
            "orientation": "flat",
            "spaces": [key(cell) for cell, _ in cells],
            "node_attrs": {
                key(cell): {
                    "terrain": found.terrain,
                    "board": found.board,
                    "local": f"{found.local[0]},{found.local[1]}",
                }
                for cell, found in cells
            },
            "style": TERRAIN_STYLE,
        },
        "layout": {"x": 70, "y": 20, "cell": 30, "piles": True},
    }


def setup(context: SetupContext) -> None:
    """Spec 1.7: the landscape from the seed (or the position file), then the pieces."""
    if context.position:
        layout = read_layout(context.position)
        if len(layout.sites) != len(context.seats):
            raise SetupError(
                f"{context.position}: the layout is for {len(layout.sites)} players, "
                f"not {len(context.seats)}"
            )
    else:
        seed = context.table.random.seed
        layout = assemble(len(context.seats), random.Random(f"{seed}/looot-layout"))
    lay_out(context, layout)


def lay_out(context: SetupContext, layout: Layout) -> None:
    game = game_of(context.module)
    variant = game.variants[context.variant or "standard"]
    data = load_data()
    context.submit(actions.add_place(landscape_spec(layout)))
    steps: list[Command] = []
    count = {t: 0 for t in data.tiles}
    for (q, r), (building, tiles) in sorted(layout.stacks.items()):
        for _ in range(tiles):
            count[building] += 1
            steps += context.piece_commands(
                building,
                f"{building}-{count[building]}",
                LANDSCAPE,
                spot=key((q, r)),
                index=len(steps),
            )
    for axes, cell in layout.trophies:
        steps += context.piece_commands(
            "trophy",
            f"trophy-{axes}",
            LANDSCAPE,
            spot=key(cell),
            index=len(steps),
            props={"axes": axes, "points": data.trophies[axes]},
        )
    for cell, ship in layout.ocean:
        if ship is not None:
            steps += context.piece_commands(
                "longship",
                f"longship-{ship}",
                LANDSCAPE,
                spot=key(cell),
                index=len(steps),
                props=_ship_props(ship),
            )
    context.submit(Compound("the landscape: stacks, trophies, the ocean", tuple(steps)))
    steps = []
    for index, ship in enumerate(reversed(layout.bag)):  # the next draw on top
        steps += context.piece_commands(
            "longship",
            f"longship-{ship}",
            BAG,
            face_up=False,
            index=index,
            props=_ship_props(ship),
        )
    supply = int(game.number(variant, "supply"))
    for index, (tile, n) in enumerate((t, n) for t in RESOURCES for n in range(1, supply + 1)):
        steps += context.piece_commands(tile, f"{tile}-{n}", SUPPLY, index=index)
    context.submit(Compound("the longships in the bag, the resource tiles", tuple(steps)))
    vikings = int(game.number(variant, "vikings"))
    for seat, sites in zip(context.seats, layout.sites, strict=True):
        steps = []
        for n in range(1, vikings + 1):
            steps += context.piece_commands(
                "viking",
                f"viking-{seat.id}-{n}",
                supply_of(seat.id),
                owner=seat.id,
                index=n - 1,
            )
        for index, name in enumerate(SHIELDS):
            steps += context.piece_commands(
                "shield",
                f"shield-{seat.id}-{name}",
                shields(seat.id),
                spot=name,
                owner=seat.id,
                value=name,
                index=index,
            )
        for index, (kind, site) in enumerate(zip(SITE_TYPES, sites, strict=True)):
            col, row = data.fjord_sites[kind]
            steps += context.piece_commands(
                "site",
                f"site-{site}",
                fjord(seat.id),
                spot=f"{col},{row}",
                owner=seat.id,
                value=site,
                index=index,
                props={"site": site, "type": kind, "value": data.sites[site].value},
            )
        context.submit(Compound(f"{seat.id}: Vikings, shields, sites", tuple(steps)))
    first = context.seats[0].id
    for name, value in (
        ("variant", variant.id),
        ("seat", first),
        ("phase", VIKINGS),
        ("turn", 1),
        ("left", 1),
        ("armed", ""),
        ("longship", ""),
    ):
        context.submit(actions.set_counter(context.state, name, value))


def _ship_props(ship: int) -> dict[str, Any]:
    found = load_data().longships[ship]
    return {"longship": ship, "type": found.type, "bonus": found.bonus, "needs": list(found.needs)}


# ---- a new game from a layout -----------------------------------------------------------------
SEATS = ("blue", "red", "grey", "yellow")


def start_from_layout(
    layout: Layout,
    seats: int,
    variant: str = "standard",
    path: str | os.PathLike[str] | None = None,
    seed: int = 0,
) -> Session:
    """A new game of Looot set up from ``layout`` for the first ``seats`` seats, through the
    generic new-game path (the layout goes in as the setup's position file)."""
    if len(layout.sites) != seats:
        raise SetupError(f"the layout is for {len(layout.sites)} players, not {seats}")
    module = load_module(resources_dir() / "looot")
    with tempfile.TemporaryDirectory() as folder:
        position = Path(folder) / "layout.json"
        position.write_text(json.dumps(layout_to_json(layout)), encoding="utf-8")
        return new_game(
            module,
            seats=",".join(SEATS[:seats]),
            variant=variant,
            seed=seed,
            path=path,
            position=str(position),
        )
