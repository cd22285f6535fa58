"""Strict means strict: what the table refused nowhere before, now refused in strict and flagged
in advisory, each with its section (or 'table'), through the game's own checker.

- E: a hunter placed outside the hunter assignment phase (A1, E);
- E: the assignment phase ended ("Next", next-phase) before every culture has placed (A2, E);
- B4: a disk taken from the supply by hand, free;
- table: one seat moving another culture's cubes;

and the log names who acted: a bot as a bot ("Norse (bot)" in ``tabletop log``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.simulate import play_game
from tabletop.cli import main
from tabletop.core import Mode, Policy, Refused, actions
from tabletop.modules import find_module
from tabletop.modules.rules import game_of

from .tables import build

POSITION = """
turn = 2
phase = "{phase}"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 3
energy = 2
[cultures.yellow]
unassigned = 3
[cultures.green]
unassigned = 3
"""


@pytest.fixture(scope="module")
def greenland_game():
    return game_of(find_module("greenland"))


def table_in(tmp_path: Path, game, phase: str, mode: Mode = Mode.STRICT):  # noqa: ANN001, ANN201
    session = build(tmp_path, POSITION.format(phase=phase))
    session.table.checker = game.checker()
    session.table.policy = Policy(mode)
    return session


def cube(session, colour: str) -> str:  # noqa: ANN001
    return next(p for p in session.state.places[f"hunters_{colour}"].contents if "cube" in p)


def test_e_no_hunter_is_placed_in_the_event_phase(tmp_path, greenland_game) -> None:
    session = table_in(tmp_path, greenland_game, "event")
    hunter = cube(session, "red")
    move = actions.move(session.state, hunter, "shark", spot="hunters")
    before = session.state.digest()
    with pytest.raises(Refused) as refused:
        session.table.submit(move, "red")
    (found,) = refused.value.findings
    assert found.rule == "E" and found.pieces == (hunter,)
    assert found.message == (
        "hunters are placed in the hunter assignment phase (A1, E); this is the event phase (D)"
    )
    assert session.state.digest() == before
    session.table.policy = Policy(Mode.ADVISORY)
    change = session.table.submit(move, "red")
    assert [f.rule for f in change.findings] == ["E"]
    assert session.state.pieces[hunter].place == "shark"  # advisory: it stands, flagged


@pytest.mark.parametrize("phase", ["negotiation", "hunt", "elders"])
def test_e_nor_in_the_phases_after_the_assignment(tmp_path, greenland_game, phase) -> None:
    session = table_in(tmp_path, greenland_game, phase)
    move = actions.move(session.state, cube(session, "red"), "shark", spot="hunters")
    assert [f.rule for f in session.table.check(move, "red")] == ["E"]


def test_e_in_the_assignment_phase_the_hunter_goes_out(tmp_path, greenland_game) -> None:
    session = table_in(tmp_path, greenland_game, "assignment")
    hunter = cube(session, "red")
    change = session.table.submit(
        actions.move(session.state, hunter, "shark", spot="hunters"), "red"
    )
    assert change.findings == () and session.state.pieces[hunter].place == "shark"
    home = actions.move(session.state, cube(session, "red"), "valhalla_red")
    assert session.table.check(home, "red") == []  # to no card: not an assignment


def test_table_one_seat_does_not_move_another_cultures_cubes(tmp_path, greenland_game) -> None:
    session = table_in(tmp_path, greenland_game, "assignment")
    thule = cube(session, "yellow")
    move = actions.move(session.state, thule, "shark", spot="hunters")
    for actor in ("red", "bot:red"):
        with pytest.raises(Refused) as refused:
            session.table.submit(move, actor)
        assert ("table", f"only the owner moves their pieces: {thule} is yellow's, not red's") in [
            (f.rule, f.message) for f in refused.value.findings
        ]
    # yellow itself: only E1 (Shark is not the Thule homeland), nothing of the table's
    assert [f.rule for f in session.table.check(move, "bot:yellow")] == ["E1"]
    session.table.policy = Policy(Mode.ADVISORY)
    change = session.table.submit(move, "red")
    assert change.entry.actor == "red" and [f.rule for f in change.findings] == ["table", "E1"]


def test_b4_energy_is_not_taken_free_from_the_supply(tmp_path, greenland_game) -> None:
    session = table_in(tmp_path, greenland_game, "assignment")
    disk = session.state.places["supply_energy"].contents[0]
    with pytest.raises(Refused) as refused:
        session.table.submit(actions.move(session.state, disk, "energy_red"), "red")
    (found,) = refused.value.findings
    assert found.rule == "B4" and found.pieces == (disk,)
    assert found.message.startswith("energy comes from the supply only by what earns or pays")
    # paying energy back to the supply by hand (a promotion's price, E3) is no such thing
    hunter = cube(session, "red")
    promote = greenland_game.complete_move(
        session.state, actions.move(session.state, hunter, "elder-red", spot="rank2")
    )
    assert session.table.submit(promote, "red").findings == ()
    assert len(session.state.places["energy_red"].contents) == 1


def test_e_next_is_refused_until_every_culture_has_placed(tmp_path, greenland_game) -> None:
    """E, in player order (A2): "Next" ends the assignment once all three said they are done."""
    session = table_in(tmp_path, greenland_game, "assignment")
    table = session.table
    order = greenland_game.flow.status(session.state).lines[1]
    assert order.startswith("Order: ")
    seats = order.removeprefix("Order: ").split(" (")[0].split(", ")
    before, draws = session.state.digest(), table.random.draws
    with pytest.raises(Refused) as refused:
        greenland_game.run(table, "next-phase", "table")
    (found,) = refused.value.findings
    assert found.rule == "E" and f"{', '.join(seats)} have not finished placing" in found.message
    assert session.state.digest() == before and table.random.draws == draws
    greenland_game.run(table, "finish", seats[0], {"colour": seats[0]})
    greenland_game.run(table, "finish", seats[1], {"colour": seats[1]})
    with pytest.raises(Refused, match=f"{seats[2]} has not finished placing hunters"):
        greenland_game.run(table, "next-phase", "table")
    table.policy = Policy(Mode.ADVISORY)  # flagged, and the phase moves on
    change = greenland_game.run(table, "next-phase", "table")
    assert [f.rule for f in change.findings] == ["E"]
    assert session.state.counters["phase"] == "negotiation"
    table.undo("table")
    table.policy = Policy(Mode.STRICT)
    greenland_game.run(table, "finish", seats[2], {"colour": seats[2]})
    change = greenland_game.run(table, "next-phase", "table")
    assert change.findings == () and session.state.counters["phase"] == "negotiation"
    # the other procedures stay trusted: a finish is not judged by the checker
    assert table.check(change.entry.command, "table") == []


def test_bots_play_a_strict_game_and_are_named_as_bots(tmp_path, greenland_game, capsys) -> None:
    """A whole game of bots under the strict checker (the simulation's way): every hand move and
    procedure of a seat is its bot's ('bot:red'), the table's steps the game's; ``tabletop log``
    shows "Norse (bot)", and an old log's plain seat reads as before."""
    seats = ("red", "yellow", "green")
    bots = {s: greenland_game.bots["greedy"](i) for i, s in enumerate(seats)}
    path = tmp_path / "bots.jsonl"
    session = play_game(greenland_game, "standard", bots, seed=4, path=path)
    try:
        assert session.state.counters.get("game_over") is not None
        actors = {e.actor for e in session.table.entries}
        assert all(e.override is None for e in session.table.entries)
    finally:
        session.close()
    assert actors == {"setup", "greenland", "bot:red", "bot:yellow", "bot:green"}
    capsys.readouterr()
    assert main(["log", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Norse (bot)" in text and "Thule (bot)" in text and "Tunit (bot)" in text
    lines = path.read_text().splitlines()
    old = [json.loads(line) for line in lines]
    for record in old:
        if record.get("actor", "").startswith("bot:"):
            record["actor"] = record["actor"][4:]  # a log from before bots were named
    path.write_text("\n".join(json.dumps(r) for r in old) + "\n")
    assert main(["log", str(path), "--last", "3"]) == 0
    assert "(bot)" not in capsys.readouterr().out
