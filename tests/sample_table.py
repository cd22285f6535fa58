"""A sample table shared by the core and persist tests: every kind of place, ~30 pieces.

``setup_commands()`` returns the commands that lay it out (as a game's setup);
``sample_state()`` applies them to a fresh state; ``sample_table()`` submits them
as setup entries of a live table.
"""

from __future__ import annotations

from tabletop.core import AddPiece, AddPlace, Command, Seat, Table, TableState, Where
from tabletop.persist import Header

SEATS = (Seat("red", "Red", "#cc0000"), Seat("blue", "Blue", "#0000cc"))

D6 = [1, 2, 3, 4, 5, 6]

PLACES = [
    {"id": "table", "kind": "area"},
    {"id": "display", "kind": "slots", "spots": ["s1", "s2", "s3"], "capacity": 1},
    {"id": "track", "kind": "slots", "spots": ["t0", "t1", "t2", "t3"]},
    {"id": "row", "kind": "row", "capacity": 6},
    {"id": "stack", "kind": "stack"},
    {"id": "deck", "kind": "deck"},
    {"id": "discard", "kind": "stack"},
    {"id": "hand-red", "kind": "hand", "owner": "red"},
    {"id": "hand-blue", "kind": "hand", "owner": "blue"},
    {"id": "supply", "kind": "bowl"},
    {
        "id": "map",
        "kind": "board",
        "capacity": 2,
        "board": {
            "shape": "hex",
            "cols": 4,
            "rows": 3,
            "remove": ["3,2"],
            "node_attrs": {"0,0": {"terrain": "lake"}},
        },
    },
    {
        "id": "isles",
        "kind": "board",
        "board": {
            "shape": "graph",
            "nodes": ["north", "south", {"id": "east", "port": True}],
            "edges": [{"a": "north", "b": "south"}, {"a": "south", "b": "east", "river": True}],
        },
    },
]

REGION_SPOTS = ["rank1", "rank2", "rank3"]


def _add(record: dict, place: str, index: int, spot=None, x=None, y=None) -> AddPiece:
    return AddPiece(record, Where(place, index, spot, x, y))


def setup_commands() -> list[Command]:
    """Places, then pieces: cards in the deck, cubes and disks in the supply, dice on the table,
    two cards that carry regions (one in the free area, one in the row), and a few on boards."""
    commands: list[Command] = [AddPlace(dict(spec)) for spec in PLACES]
    for i in range(10):
        commands.append(
            _add({"id": f"card{i}", "kind": "card", "face_up": False, "props": {"n": i}}, "deck", i)
        )
    for i, owner in enumerate(["red"] * 5 + ["blue"] * 5):
        commands.append(_add({"id": f"cube{i}", "kind": "cube", "owner": owner}, "supply", i))
    for i, owner in enumerate(["red", "red", "blue"]):
        commands.append(_add({"id": f"disk{i}", "kind": "disk", "owner": owner}, "stack", i))
    commands.append(
        _add({"id": "die0", "kind": "die", "props": {"faces": D6}}, "table", 0, x=1, y=1)
    )
    commands.append(
        _add(
            {"id": "die1", "kind": "die", "value": 6, "props": {"faces": D6}}, "table", 1, x=2, y=1
        )
    )
    commands.append(
        _add(
            {"id": "die2", "kind": "die", "value": "hunt", "props": {"faces": ["hunt", "miss"]}},
            "table",
            2,
            x=3,
            y=1,
        )
    )
    commands.append(_add({"id": "elder", "kind": "card"}, "table", 3, x=10, y=10))
    commands.append(
        AddPlace(
            {
                "id": "elder",
                "kind": "regions",
                "parent": "elder",
                "spots": REGION_SPOTS,
                "capacity": 2,
            }
        )
    )
    commands.append(_add({"id": "scout", "kind": "card", "owner": "blue"}, "row", 0))
    commands.append(
        AddPlace({"id": "scout", "kind": "regions", "parent": "scout", "spots": REGION_SPOTS})
    )
    commands.append(_add({"id": "token0", "kind": "token"}, "elder", 0, spot="rank1"))
    commands.append(_add({"id": "token1", "kind": "token", "owner": "red"}, "map", 0, spot="1,1"))
    commands.append(_add({"id": "token2", "kind": "token"}, "isles", 0, spot="north"))
    commands.append(
        _add({"id": "token3", "kind": "token", "owner": "blue"}, "display", 0, spot="s2")
    )
    return commands


def sample_state() -> TableState:
    state = TableState(SEATS)
    for command in setup_commands():
        command.apply(state)
    return state


def sample_table(**options) -> Table:
    table = Table(TableState(SEATS), **options)
    for command in setup_commands():
        table.submit(command, "setup", undoable=False)
    return table


def sample_header(seed: int = 7) -> Header:
    return Header(module="sample", module_version="1.0", seed=seed, seats=list(SEATS))
