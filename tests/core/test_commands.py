"""Every command kind: apply, exact inverse, serialization, and refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from tabletop.core import (
    AddPiece,
    AddPlace,
    CommandError,
    Compound,
    Flip,
    FormatError,
    Move,
    Note,
    Peek,
    RemovePiece,
    RemovePlace,
    Roll,
    Rotate,
    SetCounter,
    SetOwner,
    SetProperty,
    Shuffle,
    Where,
    command_from_dict,
)
from tabletop.core import actions as act
from tabletop.core.commands import touched_by
from tests.sample_table import sample_state


@pytest.fixture
def state():
    return sample_state()


def roundtrip(command):
    """Through JSON text and back, as the log does it."""
    return command_from_dict(json.loads(json.dumps(command.to_dict())))


# ---- every kind applies and its inverse restores the exact state ------------------------

DOING = {
    "move deck to hand": lambda s: act.move(s, "card9", "hand-red"),
    "move within the deck": lambda s: act.move(s, "card9", "deck", index=0),
    "move to the bottom of a stack": lambda s: act.move(s, "card9", "stack", index=0),
    "move in the free area": lambda s: act.move(s, "die0", "table", x=5.5, y=-2),
    "move from area to a slot": lambda s: act.move(s, "die0", "display", spot="s1"),
    "move to another slot": lambda s: act.move(s, "token3", "display", spot="s3"),
    "move to a board space": lambda s: act.move(s, "cube0", "map", spot="2,1"),
    "move across a graph board": lambda s: act.move(s, "token2", "isles", spot="east"),
    "move into regions": lambda s: act.move(s, "cube5", "elder", spot="rank3"),
    "move out of regions": lambda s: act.move(s, "token0", "supply"),
    "move a card that carries regions": lambda s: act.move(s, "elder", "discard"),
    "move to the front of the row": lambda s: act.move(s, "card9", "row", index=0),
    "add a piece": lambda s: act.add_piece(s, {"id": "new", "kind": "cube"}, "supply", index=2),
    "add a piece to a spot": lambda s: act.add_piece(
        s, {"id": "n", "kind": "t"}, "map", spot="0,0"
    ),
    "add a piece at x, y": lambda s: act.add_piece(s, {"id": "n", "kind": "t"}, "table", x=1, y=2),
    "remove a piece": lambda s: act.remove_piece(s, "cube3"),
    "remove a card with its regions": lambda s: act.remove_piece(s, "elder"),
    "add a place": lambda s: act.add_place({"id": "tableau", "kind": "row", "owner": "red"}),
    "add a board": lambda s: act.add_place(
        {"id": "valley", "kind": "board", "board": {"shape": "grid", "cols": 2, "rows": 2}}
    ),
    "add regions to a card": lambda s: act.add_place(
        {"id": "card0", "kind": "regions", "parent": "card0", "spots": ["a", "b"]}
    ),
    "remove an empty place": lambda s: act.remove_place(s, "hand-blue"),
    "flip": lambda s: act.flip(s, "card9"),
    "flip to a side": lambda s: act.flip(s, "elder", face_up=False),
    "rotate": lambda s: act.rotate(s, "elder"),
    "rotate back past zero": lambda s: act.rotate(s, "elder", -1),
    "roll": lambda s: Roll(("die0", "die1", "die2"), (None, 6, "hunt"), (3, 1, "miss")),
    "roll forced": lambda s: Roll(("die1",), (6,), (2,), (True,)),
    "shuffle": lambda s: Shuffle(
        "deck", tuple(s.contents("deck")), tuple(reversed(s.contents("deck")))
    ),
    "shuffle in a forced order": lambda s: Shuffle(
        "stack", ("disk0", "disk1", "disk2"), ("disk2", "disk0", "disk1"), True
    ),
    "set a property": lambda s: act.set_property(s, "card3", "n", 99),
    "add a property": lambda s: act.set_property(s, "cube0", "wounded", True),
    "unset a property": lambda s: act.set_property(s, "card3", "n", None),
    "set a place property": lambda s: act.set_place_property(s, "row", "season", "winter"),
    "set owner": lambda s: act.set_owner(s, "cube0", "blue"),
    "set owner to nobody": lambda s: act.set_owner(s, "cube0", None),
    "set a counter": lambda s: act.set_counter(s, "round", 1),
    "compound": lambda s: act.build_sequence(
        s,
        "a turn",
        [
            lambda t: act.move(t, "card9", "hand-red"),
            lambda t: act.flip(t, "card9"),
            lambda t: act.set_counter(t, "turn", 2),
            lambda t: act.move(t, "cube0", "elder", spot="rank2"),
        ],
        procedure="turn",
    ),
    "nested compound": lambda s: Compound(
        "outer",
        (
            Compound("inner", (Flip("card9", False, True), Rotate("card9", 0, 2))),
            Move("card9", Where("deck", 9), Where("discard", 0)),
            Compound("empty", ()),
        ),
    ),
    "draw": lambda s: act.draw(s, "deck", "hand-blue", 3, face_up=True),
    "deal": lambda s: act.deal(s, "deck", ["hand-red", "hand-blue"], 2),
    "move many": lambda s: act.move_many(s, ["cube0", "cube1", "cube2"], "track", spot="t1"),
}

STILL = {
    "peek": lambda s: act.peek(s, "red", "deck", 2),
    "note": lambda s: Note("ruling: the river blocks"),
}


@pytest.mark.parametrize("name", sorted(DOING))
def test_apply_then_inverse_restores_the_exact_state(state, name):
    before = state.digest()
    tally = state.tally()
    command = DOING[name](state)
    command.apply(state)
    assert state.consistency_problem() is None
    assert state.digest() != before
    command.inverse().apply(state)
    assert state.digest() == before
    assert state.tally() == tally
    assert state.consistency_problem() is None


@pytest.mark.parametrize("name", sorted(STILL))
def test_peek_and_note_change_nothing(state, name):
    before = state.digest()
    command = STILL[name](state)
    command.apply(state)
    assert state.digest() == before
    assert command.inverse() == command
    touched = touched_by(command)
    assert not (touched.pieces or touched.places or touched.counters)


@pytest.mark.parametrize("name", sorted(DOING) + sorted(STILL))
def test_serialization_round_trips(state, name):
    command = {**DOING, **STILL}[name](state)
    again = roundtrip(command)
    assert type(again) is type(command)
    assert again == command
    assert again.to_dict() == command.to_dict()
    assert again.inverse().to_dict() == command.inverse().to_dict()
    assert isinstance(command.describe(), str) and command.describe()
    # the rebuilt command does the same thing
    other = sample_state()
    command.apply(state)
    again.apply(other)
    assert other.digest() == state.digest()


def test_inverse_of_inverse_is_the_command(state):
    for name, build in DOING.items():
        command = build(sample_state())
        assert command.inverse().inverse().to_dict() == command.to_dict(), name


def test_compound_nesting_survives_serialization(state):
    inner = Compound("inner", (Flip("card9", False, True), Note("x")), procedure="hunt")
    outer = Compound("outer", (inner, Compound("deeper", (inner, SetCounter("c", None, 1)))))
    d = outer.to_dict()
    assert d["commands"][1]["commands"][0]["procedure"] == "hunt"
    again = roundtrip(outer)
    assert again == outer
    assert isinstance(again.commands[1].commands[0], Compound)
    assert again.commands[1].commands[0].procedure == "hunt"
    # the inverse of a nested compound runs backwards at every level
    inv = outer.inverse()
    assert inv.commands[0].label == "deeper"
    assert isinstance(inv.commands[0].commands[0], SetCounter)


def test_compound_is_random_when_a_step_is():
    roll = Roll(("die0",), (None,), (2,))
    assert Compound("c", (Note("a"), roll)).random
    assert not Compound("c", (Note("a"),)).random
    assert roll.random and Shuffle("deck", (), ()).random
    assert not Flip("x", True, False).random


def test_roll_forced_is_serialized_only_when_forced():
    assert "forced" not in Roll(("d",), (1,), (2,), (False,)).to_dict()
    d = Roll(("d", "e"), (1, 1), (2, 3), (True, False)).to_dict()
    assert d["forced"] == [True, False]
    assert "(forced)" in Roll(("d", "e"), (1, 1), (2, 3), (True, False)).describe()
    assert Shuffle("deck", ("a",), ("a",), True).to_dict()["forced"] is True


# ---- what a command touches ------------------------------------------------------------


def test_touched_names_the_pieces_and_places(state):
    t = touched_by(act.move(state, "card9", "hand-red"))
    assert t.pieces == {"card9"} and t.places == {"deck", "hand-red"} and not t.counters
    t = touched_by(act.flip(state, "card9"))
    assert t.pieces == {"card9"} and not t.places
    t = touched_by(act.set_counter(state, "round", 2))
    assert t.counters == {"round"} and not t.pieces
    t = touched_by(act.set_place_property(state, "row", "k", 1))
    assert t.places == {"row"} and not t.pieces
    t = touched_by(Shuffle("stack", ("disk0", "disk1", "disk2"), ("disk2", "disk1", "disk0")))
    assert t.places == {"stack"} and t.pieces == {"disk0", "disk1", "disk2"}
    t = touched_by(act.draw(state, "deck", "hand-red", 2, face_up=True))
    assert t.pieces == {"card9", "card8"} and t.places == {"deck", "hand-red"}
    t = touched_by(act.add_place({"id": "p", "kind": "bowl"}))
    assert t.places == {"p"}


# ---- refusals leave the table untouched ------------------------------------------------


def fill(state, moves):
    """Apply moves (piece, place, spot) that fit, to fill a place before a refused one."""
    for pid, place, spot in moves:
        act.move(state, pid, place, spot=spot).apply(state)


REFUSED = {
    "stale flip": lambda s: Flip("card9", True, False),
    "stale rotation": lambda s: Rotate("elder", 2, 3),
    "rotation out of range": lambda s: Rotate("elder", 0, 4),
    "flip of an unknown piece": lambda s: Flip("ghost", True, False),
    "move of an unknown piece": lambda s: Move("ghost", Where("deck", 0), Where("discard", 0)),
    "move to an unknown place": lambda s: Move("card9", Where("deck", 9), Where("nowhere", 0)),
    "move from the wrong index": lambda s: Move("card9", Where("deck", 3), Where("discard", 0)),
    "move from the wrong place": lambda s: Move("card9", Where("stack", 9), Where("discard", 0)),
    "move from a stale spot": lambda s: Move(
        "token3", Where("display", 0, "s1"), Where("display", 0, "s3")
    ),
    "move from a stale x, y": lambda s: Move(
        "die0", Where("table", 0, None, 9, 9), Where("table", 0, None, 1, 1)
    ),
    "move to an index past the end": lambda s: Move("card9", Where("deck", 9), Where("discard", 1)),
    "move to a negative index": lambda s: Move("card9", Where("deck", 9), Where("discard", -1)),
    "move within past the end": lambda s: Move("card9", Where("deck", 9), Where("deck", 10)),
    "full slot": lambda s: act.move(s, "cube0", "display", spot="s2"),
    "full row": lambda s: (
        fill(s, [(f"card{i}", "row", None) for i in range(5)]) or act.move(s, "card9", "row")
    ),
    "full board space": lambda s: (
        fill(s, [("cube1", "map", "1,1")]) or act.move(s, "cube0", "map", spot="1,1")
    ),
    "full region": lambda s: (
        fill(s, [("cube1", "elder", "rank1")]) or act.move(s, "cube0", "elder", spot="rank1")
    ),
    "slot without a spot": lambda s: act.move(s, "cube0", "display"),
    "board without a spot": lambda s: act.move(s, "cube0", "map"),
    "regions without a spot": lambda s: act.move(s, "cube0", "elder"),
    "unknown slot": lambda s: act.move(s, "cube0", "display", spot="s9"),
    "removed board space": lambda s: act.move(s, "cube0", "map", spot="3,2"),
    "spot on a bowl": lambda s: act.move(s, "cube0", "stack", spot="s1"),
    "x, y on a row": lambda s: act.move(s, "card9", "deck", x=1, y=1),
    "x, y on a slot": lambda s: act.move(s, "cube0", "display", spot="s1", x=1, y=1),
    "card onto its own regions": lambda s: act.move(s, "elder", "elder", spot="rank2"),
    "add a duplicate piece": lambda s: act.add_piece(s, {"id": "cube0", "kind": "cube"}, "supply"),
    "add a piece to a full slot": lambda s: act.add_piece(
        s, {"id": "n", "kind": "t"}, "display", spot="s2"
    ),
    "add a piece without a spot": lambda s: act.add_piece(s, {"id": "n", "kind": "t"}, "map"),
    "add a piece to an unknown place": lambda s: AddPiece(
        {"id": "n", "kind": "t"}, Where("nowhere", 0)
    ),
    "remove a changed piece": lambda s: RemovePiece(
        {"id": "card9", "kind": "card"}, act.where_is(s, "card9")
    ),
    "remove a piece at the wrong place": lambda s: RemovePiece(
        s.piece("card9").record(), Where("deck", 0)
    ),
    "remove a card that carries regions": lambda s: RemovePiece(
        s.piece("elder").record(), act.where_is(s, "elder")
    ),
    "add a duplicate place": lambda s: AddPlace({"id": "deck", "kind": "deck"}),
    "add a place named like a piece": lambda s: AddPlace({"id": "cube0", "kind": "bowl"}),
    "add regions of an unknown piece": lambda s: AddPlace(
        {"id": "ghost", "kind": "regions", "parent": "ghost", "spots": ["a"]}
    ),
    "add regions under another id": lambda s: AddPlace(
        {"id": "r", "kind": "regions", "parent": "card0", "spots": ["a"]}
    ),
    "add a place of an unknown kind": lambda s: AddPlace({"id": "p", "kind": "pile"}),
    "add a slots place without spots": lambda s: AddPlace({"id": "p", "kind": "slots"}),
    "add a board with a bad spec": lambda s: AddPlace(
        {"id": "p", "kind": "board", "board": {"shape": "hex", "cols": 0, "rows": 2}}
    ),
    "remove a place that is not empty": lambda s: act.remove_place(s, "deck"),
    "remove a place that has changed": lambda s: RemovePlace({"id": "hand-blue", "kind": "bowl"}),
    "remove an unknown place": lambda s: RemovePlace({"id": "nowhere", "kind": "bowl"}),
    "stale roll": lambda s: Roll(("die1",), (3,), (4,)),
    "roll to a face not on the die": lambda s: Roll(("die1",), (6,), (7,)),
    "roll of an unknown die": lambda s: Roll(("ghost",), (None,), (1,)),
    "roll with missing faces": lambda s: Roll(("die0", "die1"), (None, 6), (1,)),
    "shuffle in a stale order": lambda s: Shuffle(
        "stack", ("disk1", "disk0", "disk2"), ("disk0", "disk1", "disk2")
    ),
    "shuffle that loses a piece": lambda s: Shuffle(
        "stack", ("disk0", "disk1", "disk2"), ("disk0", "disk1", "disk1")
    ),
    "shuffle of an unknown place": lambda s: Shuffle("nowhere", (), ()),
    "stale property": lambda s: SetProperty("card3", "n", 4, 5),
    "stale place property": lambda s: SetProperty("row", "k", 1, 2, on_place=True),
    "property of an unknown place": lambda s: SetProperty("ghost", "k", None, 2, on_place=True),
    "stale owner": lambda s: SetOwner("cube0", "blue", "red"),
    "stale counter": lambda s: SetCounter("round", 3, 4),
    "peek at a piece elsewhere": lambda s: Peek("red", "deck", ("cube0",)),
    "peek at an unknown piece": lambda s: Peek("red", "deck", ("ghost",)),
    "peek into an unknown place": lambda s: Peek("red", "nowhere", ()),
    "compound failing at the last step": lambda s: Compound(
        "turn",
        (
            act.move(s, "card9", "hand-red"),
            Flip("card9", False, True),
            SetCounter("turn", None, 1),
            Flip("card9", False, True),  # stale: the second step turned it up
        ),
    ),
    "compound with a failing nested compound": lambda s: Compound(
        "outer",
        (
            act.move(s, "cube0", "track", spot="t0"),
            Compound("inner", (act.flip(s, "elder"), Rotate("elder", 3, 0))),
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_commands_leave_the_state_unchanged(state, name):
    command = REFUSED[name](state)  # may first fill a place, with commands that fit
    before = state.digest()
    with pytest.raises(CommandError) as info:
        command.apply(state)
    assert str(info.value)  # a sentence for a person
    assert state.digest() == before
    assert state.consistency_problem() is None


def test_compound_error_names_the_failing_step(state):
    with pytest.raises(CommandError, match=r"turn: step 4"):
        REFUSED["compound failing at the last step"](state).apply(state)


def test_card_cannot_go_onto_what_it_carries(state):
    # scout lies in elder's regions; elder may not go onto scout's regions
    act.move(state, "scout", "elder", spot="rank2").apply(state)
    before = state.digest()
    assert state.ancestors("scout") == ["scout", "elder"]
    with pytest.raises(CommandError, match="onto itself or onto what it carries"):
        act.move(state, "elder", "scout", spot="rank1").apply(state)
    assert state.digest() == before
    # but another piece may
    act.move(state, "card9", "scout", spot="rank1").apply(state)
    assert state.ancestors("scout") == ["scout", "elder"]


def test_move_within_a_full_place_is_allowed(state):
    # the row holds 1 of 6; fill it, then reorder inside it
    for i in range(5):
        act.move(state, f"card{9 - i}", "row").apply(state)
    assert len(state.contents("row")) == 6
    before = state.contents("row")
    act.move(state, "scout", "row", index=-1).apply(state)
    assert state.contents("row") == before[1:] + ["scout"]
    # a piece in a full slot may move to another spot and back
    act.move(state, "token3", "display", spot="s1").apply(state)
    act.move(state, "token3", "display", spot="s2").apply(state)


def test_move_positions(state):
    act.move(state, "card9", "deck", index=0).apply(state)
    assert state.contents("deck")[0] == "card9"
    assert state.top("deck") == "card8"
    act.move(state, "card8", "discard").apply(state)
    act.move(state, "card7", "discard").apply(state)
    act.move(state, "card6", "discard", index=1).apply(state)
    assert state.contents("discard") == ["card8", "card6", "card7"]
    act.move(state, "card5", "discard", index=-2).apply(state)
    assert state.contents("discard") == ["card8", "card6", "card5", "card7"]


def test_area_move_keeps_coordinates_and_other_moves_drop_them(state):
    act.move(state, "die0", "table", x=4.25, y=-1).apply(state)
    die = state.piece("die0")
    assert (die.place, die.x, die.y, die.spot) == ("table", 4.25, -1, None)
    act.move(state, "die0", "map", spot="2,0").apply(state)
    assert (die.place, die.x, die.y, die.spot) == ("map", None, None, "2,0")
    assert state.contents("map", "2,0") == ["die0"]


# ---- pieces carried in regions -------------------------------------------------------


def test_pieces_in_regions_travel_with_the_card(state):
    act.move(state, "cube0", "elder", spot="rank2").apply(state)
    act.move(state, "scout", "elder", spot="rank3").apply(state)
    act.move(state, "cube6", "scout", spot="rank1").apply(state)
    carried = {pid: (state.piece(pid).place, state.piece(pid).spot) for pid in ("token0", "cube0")}
    before = state.digest()

    move = act.move(state, "elder", "hand-red")
    move.apply(state)
    assert state.piece("elder").place == "hand-red"
    assert "elder" in state.contents("hand-red")
    assert state.regions_of("elder") is not None
    for pid, (place, spot) in carried.items():
        assert (state.piece(pid).place, state.piece(pid).spot) == (place, spot)
    assert state.piece("cube6").place == "scout"
    assert state.ancestors("scout") == ["scout", "elder"]
    assert state.ancestors("elder") == ["elder"]
    assert state.consistency_problem() is None

    move.inverse().apply(state)
    assert state.digest() == before


def test_removing_a_carrying_card_removes_what_it_carries(state):
    act.move(state, "scout", "elder", spot="rank3").apply(state)
    act.move(state, "cube6", "scout", spot="rank1").apply(state)
    before = state.digest()
    tally = state.tally()
    command = act.remove_piece(state, "elder")
    assert isinstance(command, Compound)
    command.apply(state)
    for gone in ("elder", "token0", "scout", "cube6"):
        assert gone not in state.pieces
    assert "elder" not in state.places and "scout" not in state.places
    assert state.consistency_problem() is None
    roundtrip(command).inverse().apply(state)
    assert state.digest() == before
    assert state.tally() == tally


def test_regions_place_needs_a_parent():
    from tabletop.core import Place

    with pytest.raises(FormatError):
        Place("r", "regions", spots=["a"])


# ---- parsing refuses malformed records ---------------------------------------------------

MALFORMED = [
    None,
    [],
    "move",
    {},
    {"op": "teleport"},
    {"op": 3},
    {"op": "move", "piece": "a"},
    {
        "op": "move",
        "piece": 1,
        "from": {"place": "a", "index": 0},
        "to": {"place": "b", "index": 0},
    },
    {"op": "move", "piece": "a", "from": {"place": "a"}, "to": {"place": "b", "index": 0}},
    {
        "op": "move",
        "piece": "a",
        "from": {"place": "a", "index": True},
        "to": {"place": "b", "index": 0},
    },
    {
        "op": "move",
        "piece": "a",
        "from": {"place": "a", "index": 0, "x": 1},
        "to": {"place": "b", "index": 0},
    },
    {
        "op": "move",
        "piece": "a",
        "from": {"place": "a", "index": 0, "spot": 2},
        "to": {"place": "b", "index": 0},
    },
    {
        "op": "move",
        "piece": "a",
        "from": {"place": "a", "index": 0, "x": "1", "y": 2},
        "to": {"place": "b", "index": 0},
    },
    {"op": "move", "piece": "a", "from": [], "to": {"place": "b", "index": 0}},
    {"op": "add", "piece": {"id": "a"}, "at": {"place": "b", "index": 0}},
    {"op": "add", "piece": "a", "at": {"place": "b", "index": 0}},
    {"op": "remove", "piece": {"id": "a", "kind": "k"}},
    {"op": "add_place", "place": {"kind": "bowl"}},
    {"op": "remove_place", "place": "bowl"},
    {"op": "flip", "piece": "a", "old": 1, "new": 0},
    {"op": "flip", "piece": "a", "old": True},
    {"op": "rotate", "piece": "a", "old": 0, "new": 1.5},
    {"op": "rotate", "piece": "a", "old": False, "new": 1},
    {"op": "roll", "pieces": "d", "old": [1], "new": [2]},
    {"op": "roll", "pieces": ["d"], "old": [1], "new": [2], "forced": [1]},
    {"op": "roll", "pieces": ["d"], "old": [1]},
    {"op": "shuffle", "place": "deck", "old": "ab", "new": ["a", "b"]},
    {"op": "shuffle", "old": [], "new": []},
    {"op": "set", "target": "a", "key": 5},
    {"op": "owner", "piece": "a", "old": 5, "new": None},
    {"op": "counter", "name": None},
    {"op": "peek", "seat": "red", "place": "deck", "pieces": "abc"},
    {"op": "note", "text": 12},
    {"op": "compound", "label": "x", "commands": {}},
    {"op": "compound", "label": "x", "commands": [{"op": "teleport"}]},
    {"op": "compound", "label": "x", "commands": [{"op": "note", "text": "a"}], "procedure": 3},
    {"op": "compound", "commands": []},
]


@pytest.mark.parametrize("record", MALFORMED, ids=[repr(m)[:50] for m in MALFORMED])
def test_malformed_commands_raise_format_error(record):
    with pytest.raises(FormatError):
        command_from_dict(record)


def test_unknown_command_is_named():
    with pytest.raises(FormatError, match="teleport"):
        command_from_dict({"op": "teleport"})


def test_where_round_trips_and_describes():
    for where in (Where("a", 0), Where("b", 2, "s1"), Where("t", 1, None, 1.5, -2)):
        assert Where.from_dict(where.to_dict(), "w") == where
    assert Where("b", 2, "s1").describe() == "b/s1"
    assert "(1.5, -2)" in Where("t", 1, None, 1.5, -2).describe()
