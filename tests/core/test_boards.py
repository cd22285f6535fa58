"""Board specs (tabletop/core/boards.py): axial hex boards, even and odd offset grids, styles."""

from __future__ import annotations

import pytest

from tabletop.core import AddPlace, CommandError, FormatError, Place, Table, hexes
from tabletop.core import actions as act
from tabletop.core.boards import BoardSpec, BoardSpecError, build_graph

# the personal board of a hex game: 7 x 7 even-q with 12 cells cut out
FJORD_CUT = ["0,0", "1,0", "2,0", "1,1", "5,0", "6,0", "0,6", "2,6", "4,6", "5,6", "6,5", "6,6"]


def test_an_axial_board_joins_the_spaces_that_touch():
    spaces = ["0,0", "1,0", "1,-1", "0,1", "3,-2", "-1,1"]
    spec = BoardSpec({"shape": "hex", "coords": "axial", "orientation": "flat", "spaces": spaces})
    assert list(spec.nodes) == spaces
    assert spec.nodes["3,-2"] == {"q": 3, "r": -2}
    g = spec.graph()
    assert set(g.neighbors("0,0")) == {"1,0", "1,-1", "0,1", "-1,1"}
    assert g.degree("3,-2") == 0  # an island of one hex
    for a, b in g.edges:
        assert hexes.distance(hexes.parse(a), hexes.parse(b)) == 1
    assert spec.axial("1,-1") == (1, -1)


def test_an_axial_board_takes_removals_attributes_and_a_style():
    spec = BoardSpec(
        {
            "shape": "hex",
            "coords": "axial",
            "spaces": ["0,0", "1,0", "2,0"],
            "remove": ["1,0"],
            "node_attrs": {"0,0": {"terrain": "wood", "label": "Port"}},
            "style": {"attr": "terrain", "colours": {"wood": "#3c6e2f"}, "letters": {"wood": "W"}},
        }
    )
    assert set(spec.nodes) == {"0,0", "2,0"} and not spec.edges
    assert spec.nodes["0,0"] == {"q": 0, "r": 0, "terrain": "wood", "label": "Port"}
    assert spec.style["colours"]["wood"] == "#3c6e2f"


def test_even_q_fjord_board_has_the_printed_neighbours():
    spec = BoardSpec(
        {
            "shape": "hex",
            "cols": 7,
            "rows": 7,
            "orientation": "flat",
            "offset": "even",
            "remove": FJORD_CUT,
        }
    )
    g = spec.graph()
    assert (g.number_of_nodes(), g.number_of_edges()) == (37, 88)
    assert set(g.neighbors("5,1")) == {"4,0", "4,1", "5,2", "6,1"}
    assert set(g.neighbors("1,2")) == {"0,1", "0,2", "1,3", "2,1", "2,2"}
    assert set(g.neighbors("4,4")) == {"3,4", "3,5", "4,3", "4,5", "5,4", "5,5"}
    assert spec.axial("3,2") == (3, 0) and spec.axial("4,0") == (4, -2)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_odd_offset_is_the_default_and_unchanged(orientation):
    plain = build_graph({"shape": "hex", "cols": 6, "rows": 5, "orientation": orientation})
    odd = build_graph(
        {"shape": "hex", "cols": 6, "rows": 5, "orientation": orientation, "offset": "odd"}
    )
    assert set(map(frozenset, plain.edges)) == set(map(frozenset, odd.edges))
    even = build_graph(
        {"shape": "hex", "cols": 6, "rows": 5, "orientation": orientation, "offset": "even"}
    )
    assert set(map(frozenset, plain.edges)) != set(map(frozenset, even.edges))
    if orientation == "flat":  # odd columns shoved down: (1,1) touches (0,1) and (0,2)
        assert set(plain.neighbors("1,1")) == {"1,0", "1,2", "0,1", "0,2", "2,1", "2,2"}
        assert set(even.neighbors("1,1")) == {"1,0", "1,2", "0,0", "0,1", "2,0", "2,1"}


BAD = [
    ({"shape": "hex", "coords": "cube", "spaces": ["0,0"]}, "coords", "'coords' must be"),
    ({"shape": "hex", "coords": "axial"}, "spaces", "needs a non-empty list 'spaces'"),
    ({"shape": "hex", "coords": "axial", "spaces": ["0,0", "x"]}, "spaces", "'x' is not"),
    ({"shape": "hex", "coords": "axial", "spaces": ["0,0", "0,0"]}, "spaces", "listed twice"),
    ({"shape": "hex", "coords": "axial", "spaces": ["0,0"], "cols": 3}, "cols", "offset grids"),
    ({"shape": "hex", "coords": "axial", "spaces": ["0,0"], "offset": "even"}, "offset", "offset"),
    ({"shape": "hex", "cols": 2, "rows": 2, "spaces": ["0,0"]}, "spaces", "axial board"),
    ({"shape": "hex", "cols": 2, "rows": 2, "offset": "left"}, "offset", "'odd' or 'even'"),
    ({"shape": "grid", "cols": 2, "rows": 2, "node_attrs": ["0,0"]}, "node_attrs", "table"),
    ({"shape": "grid", "cols": 2, "rows": 2, "node_attrs": {"0,0": 3}}, "node_attrs.0,0", "table"),
    ({"shape": "grid", "cols": 2, "rows": 2, "style": "green"}, "style", "must be a table"),
    (
        {"shape": "grid", "cols": 2, "rows": 2, "style": {"colours": {}}},
        "style.attr",
        "name a node",
    ),
    (
        {"shape": "grid", "cols": 2, "rows": 2, "style": {"attr": "t", "colour": {}}},
        "style.colour",
        "no field 'colour'",
    ),
    (
        {"shape": "grid", "cols": 2, "rows": 2, "style": {"attr": "t", "colours": {"a": "green"}}},
        "style.colours.a",
        "a colour like",
    ),
    (
        {"shape": "grid", "cols": 2, "rows": 2, "style": {"attr": "t", "letters": {"a": "wood"}}},
        "style.letters.a",
        "at most 3 letters",
    ),
    (
        {"shape": "grid", "cols": 2, "rows": 2, "style": {"attr": "t", "icons": {"a": "../x"}}},
        "style.icons.a",
        "an icon's name",
    ),
]


@pytest.mark.parametrize(("spec", "field", "message"), BAD, ids=[b[1] for b in BAD])
def test_bad_hex_and_style_fields_are_named(spec, field, message):
    with pytest.raises(BoardSpecError, match=message) as caught:
        BoardSpec(spec)
    assert ".".join(caught.value.field) == field
    assert str(caught.value).startswith("board spec: ")
    assert isinstance(caught.value, FormatError)


def test_a_board_added_by_a_command_is_checked_and_comes_back_from_its_spec():
    spec = {
        "id": "landscape",
        "kind": "board",
        "board": {
            "shape": "hex",
            "coords": "axial",
            "orientation": "flat",
            "spaces": ["0,0", "1,-1", "1,0"],
            "node_attrs": {"1,0": {"terrain": "water"}},
            "style": {"attr": "terrain", "colours": {"water": "#2b6ca3"}},
        },
    }
    table = Table()
    table.submit(AddPlace(spec), "setup", undoable=False)
    place = table.state.place("landscape")
    assert place.spots == ("0,0", "1,-1", "1,0")
    again = Place.from_spec(place.spec())
    assert again.spaces.style == place.spaces.style and again.spots == place.spots
    bad = dict(spec, id="other", board=dict(spec["board"], spaces=["0,0", "0;1"]))
    with pytest.raises(CommandError, match="'0;1' is not"):
        table.submit(act.add_place(bad), "setup", undoable=False)
    assert "other" not in table.state.places
