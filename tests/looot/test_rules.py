"""Looot's rules by the German text's line (DE:n) and rule id (LO-Rn), played through the
public paths: move codes (``play_code``, the game's procedures), ``Table.submit`` under the
strict policy, and the command line. The positions are Game Park's recorded layouts."""

from __future__ import annotations

import pytest

from rules_assist.looot.moves import looot_game
from rules_assist.looot.reading import Looot
from rules_assist.looot.rules.legal import viking_spaces
from rules_assist.looot.scoring import winners
from rules_assist.procedures import ProcedureError
from tabletop.core import Refused, actions
from tests.looot.play import legal, play, recorded, start

GAME = "gamepark-2p-seed1"


def vikings(codes: list[str]) -> list[str]:
    return [c.split()[1] for c in codes if c.startswith("viking ")]


def test_de20_viking_needs_neighbour_or_longship():
    session = start(GAME)
    assert vikings(legal(session)) == ["1,1", "2,1", "3,0", "4,0"]  # next to the longships
    with pytest.raises(ProcedureError, match="'0,0' is not one of 1,1, 2,1, 3,0, 4,0"):
        play(session, "viking 0,0")
    far = actions.move(session.state, "viking-blue-13", "landscape", spot="0,0")
    with pytest.raises(Refused) as refused:
        session.table.submit(far, "blue")
    assert [f.rule for f in refused.value.findings] == ["LO-R3"]
    lo = play(session, "viking 4,0", "place sheep 0,2", "pass")
    assert "4,-1" in vikings(legal(session))  # next to blue's Viking, for red too
    assert "4,0" not in vikings(legal(session))  # taken (LO-R2)
    assert lo.to_move == "red"


def test_de20_a_viking_goes_on_a_resource_hex_only():
    session = start(GAME)
    lo = Looot(session.state, looot_game())
    buildings = [s for s, t in lo.terrain.items() if t in ("house", "water", "trophy")]
    assert not set(buildings) & set(viking_spaces(lo, "blue"))
    house = next(s for s, t in lo.terrain.items() if t == "house")
    session.table.submit(
        actions.move(session.state, "viking-blue-13", "landscape", spot=house),
        "blue",
        force="a Viking dropped on a house",
    )
    assert {f.rule for f in looot_game().audit(session.state)} == {"LO-R1"}


def test_de20_a_tile_laid_on_the_fjord_never_moves_again():
    session = start(GAME)
    play(session, "viking 4,0")
    assert legal(session)[0] == "place sheep 0,1" and len(legal(session)) == 34
    play(session, "place sheep 0,2")
    (tile,) = [p for p in session.state.place("fjord_blue").contents if p.startswith("sheep")]
    with pytest.raises(Refused) as refused:
        session.table.submit(actions.move(session.state, tile, "fjord_blue", spot="3,3"), "blue")
    assert [f.rule for f in refused.value.findings] == ["LO-R6"]
    lo = play(session, "pass", "viking 4,-1", "place sheep 0,2")  # red's own fjord
    assert lo.fjord_pieces("red")["0,2"].startswith("sheep")


def test_de26_a_viking_next_to_a_house_takes_a_house_tile():
    session = start(GAME)
    lo = play(session, *recorded(GAME, 4))  # DoubleGain, PlayAgain, 4,0, then 1,1
    pieces = session.state.pieces
    gained = [(pieces[p].kind, pieces[p].props.get("from")) for p in lo.gained("blue")]
    assert sorted(gained) == [("axe", None), ("house", "0,1"), ("sheep", None), ("sheep", None)]
    assert len(lo.stack("0,1")) == 1  # a stack of two, one left (LO-R10)
    assert "place house 6,1 from 0,1" in legal(session)


def test_de27_a_route_of_own_vikings_between_two_watchtowers_gives_one_tile_of_each():
    session = start(GAME)
    lo = play(session, *recorded(GAME, 38))
    pieces = session.state.pieces
    towers = sorted(pieces[p].props["from"] for p in lo.gained("blue") if p.startswith("watch"))
    assert towers == ["0,-2", "1,0"]
    assert lo.pairs("blue") == ["0,-2|1,0"]
    play(session, *[c for c in recorded(GAME, 54)[38:]])
    lo = Looot(session.state, looot_game())
    assert lo.pairs("blue") == ["0,-2|1,0", "0,-2|3,-4", "1,0|3,-4"]  # a tower in two pairs


def test_de28_four_own_vikings_in_a_group_next_to_a_castle_take_a_castle_tile():
    session = start(GAME)
    lo = play(session, *recorded(GAME, 50))
    assert lo.castles("red") == {"4,-3": 1}
    group = lo.group_of("red", "3,0")
    assert len(group) >= 4 and "4,-3" in lo.touching(group, "castle")
    assert len(lo.stack("4,-3")) == 2


def test_de32_a_site_surrounded_by_its_requirements_completes():
    name = "gamepark-3p-seed3"
    session = start(name, "gamepark")
    lo = play(session, *recorded(name, 137))
    seat = lo.to_move
    (site,) = [p for p in lo.sites(seat) if lo.complete(p)]
    assert site == "site-Port3"
    assert looot_game().breakdown(session.state, seat)["sites"]["port"]["points"] == 5


def test_de36_a_longship_taken_next_to_its_resources_completes_at_once():
    name = "gamepark-2p-seed15"
    session = start(name, "gamepark")
    lo = play(session, *recorded(name, 97))
    assert lo.complete("longship-511")
    row = looot_game().breakdown(session.state, "blue")
    assert row["longships"] == {"completed": [511], "incomplete": [421, 512], "penalty": -10}
    assert row["tiles"]["wood"]["value"] == 2  # wood +1


def test_de36_one_longship_a_turn_then_the_ocean_is_refilled_from_the_bag():
    session = start(GAME)
    lo = play(session, *recorded(GAME, 15))
    assert legal(session) == ["pass"]
    with pytest.raises(ProcedureError, match="took one this turn"):
        play(session, "longship 413 3,3")
    assert lo.bag()[0] == "longship-510"
    lo = play(session, "pass")
    assert lo.ship_on("4,1") == "longship-510" and session.state.pieces["longship-510"].face_up
    assert looot_game().breakdown(session.state, "red")["categories"]["longshipPenalty"] == -5


def test_de40_each_shield_once_a_game():
    session = start(GAME)
    play(session, "shield DoubleGain")
    assert "shield DoubleGain" not in legal(session)
    with pytest.raises(ProcedureError, match="'DoubleGain' is not one of PlayAgain"):
        play(session, "shield DoubleGain")
    assert not session.state.pieces["shield-blue-DoubleGain"].face_up


def test_de42_play_again_places_two_vikings_in_one_turn():
    session = start(GAME)
    lo = play(session, "shield PlayAgain", "viking 4,0")
    assert lo.phase == "vikings" and lo.placements_left == 1
    lo = play(session, "viking 1,1")
    assert lo.phase == "tiles" and len(lo.vikings_left("blue")) == 11


def test_de43_the_occupied_space_shield_needs_an_opponents_viking():
    moves = recorded(GAME, 16) + ["shield PlaceOnOccupiedSpace"]
    standard = start(GAME)
    play(standard, *moves)
    assert vikings(legal(standard)) == ["2,0", "4,-1"]  # red's Vikings
    gamepark = start(GAME, "gamepark")
    play(gamepark, *moves)
    assert vikings(legal(gamepark)) == ["1,1", "2,0", "4,-1", "4,0"]  # any Viking (D2)
    lo = play(standard, "viking 2,0")
    assert lo.owners_on("2,0") == {"blue", "red"}
    assert looot_game().audit(standard.state) == []


def test_de44_double_gain_gives_two_tiles():
    session = start(GAME)
    lo = play(session, "shield DoubleGain", "viking 4,0")
    assert [session.state.pieces[p].kind for p in lo.gained("blue")] == ["sheep", "sheep"]


def test_de48_one_trophy_a_game_with_enough_axes():
    session = start(GAME)
    lo = play(session, *recorded(GAME, 31))
    assert [c for c in legal(session) if c.startswith("trophy")] == ["trophy 2"]
    with pytest.raises(ProcedureError, match="'3' is not one of 2"):
        play(session, "trophy 3")
    lo = play(session, "trophy 2")
    assert lo.trophy_of("blue") == 2
    assert not [c for c in legal(session) if c.startswith("trophy")]
    assert looot_game().breakdown(session.state, "blue")["trophy"] == {"trophy": 2, "points": 3}


def test_de52_equal_scores_without_trophies_share_the_win():
    session = start(GAME)
    lo = Looot(session.state, looot_game())
    assert winners(lo) == ["blue", "red"]


def test_d1_an_empty_water_space_counts_only_in_the_gamepark_variant():
    found = {}
    for variant in ("standard", "gamepark"):
        session = start(GAME, variant)
        session.table.submit(
            actions.move(session.state, "longship-412", "discard"), "blue", force="bag empty"
        )
        found[variant] = vikings(legal(session))
    assert found == {"standard": ["2,1", "3,0", "4,0"], "gamepark": ["1,1", "2,1", "3,0", "4,0"]}


def test_the_command_line_runs_a_move(tmp_path, capsys):
    from tabletop.cli import main

    path = tmp_path / "game.jsonl"
    session = start(GAME, path=path)
    session.close()
    out = tmp_path / "next.jsonl"
    assert main(["run", str(path), "viking", "--hex", "4,0", "-o", str(out)]) == 0
    assert main(["run", str(path), "viking", "--hex", "0,0", "-o", str(tmp_path / "x")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("'0,0' is not one of 1,1, 2,1, 3,0, 4,0")
    assert not (tmp_path / "x").exists()


def _finish_turn(session):
    """Lay the gained tiles on the first free spaces and pass."""
    lo = Looot(session.state, looot_game())
    seat = lo.to_move
    while lo.to_move == seat and lo.phase != "over":
        codes = legal(session)
        lo = play(session, "pass" if "pass" in codes else codes[0])


def _route(session, seat, spaces):
    """The seat's Vikings put on ``spaces`` by hand (forced), the last one by the procedure."""
    lo = Looot(session.state, looot_game())
    for space in spaces[:-1]:
        viking = lo.vikings_left(seat)[-1]
        move = actions.move(session.state, viking, "landscape", spot=space)
        session.table.submit(move, seat, force="a route laid out for the example")
        lo = Looot(session.state, looot_game())
    return play(session, f"viking {spaces[-1]}")


@pytest.mark.parametrize("variant, again", [("standard", []), ("gamepark", ["0,-2", "3,-4"])])
def test_de27_a_pair_of_watchtowers_pays_once_even_over_a_second_route(variant, again):
    """DE:27: a second route between the same two towers gives nothing; Game Park pays a
    pair once per group joining the two (D3)."""
    name = "gamepark-3p-seed2"
    session = start(name, variant)
    lo = _route(session, "blue", ["1,-2", "2,-3"])
    pieces = session.state.pieces
    first = sorted(pieces[p].props["from"] for p in lo.gained("blue") if p.startswith("watch"))
    assert first == ["0,-2", "3,-4"] and lo.pairs("blue") == ["0,-2|3,-4"]
    for _ in range(3):
        _finish_turn(session)
        if Looot(session.state, looot_game()).to_move != "blue":
            play(session, legal(session)[-1])
    lo = _route(session, "blue", ["0,-3", "1,-4", "2,-5", "3,-5"])
    second = sorted(pieces[p].props["from"] for p in lo.gained("blue") if p.startswith("watch"))
    assert second == again


def test_de36_a_longship_taken_by_hand_only_at_the_end_of_the_turn():
    session = start(GAME)
    early = actions.move(session.state, "longship-413", "fjord_blue", spot="3,3")
    with pytest.raises(Refused) as refused:
        session.table.submit(early, "blue")
    assert [f.rule for f in refused.value.findings] == ["LO-R13"]
    play(session, "viking 4,0", "place sheep 0,2")
    take = actions.move(session.state, "longship-413", "fjord_blue", spot="3,3")
    session.table.submit(looot_game().complete_move(session.state, take), "blue")
    assert legal(session) == ["pass"]
    lo = play(session, "pass")
    assert lo.ship_on("5,0") == "longship-510"  # the bag's next, onto the emptied space


def test_de48_a_trophy_taken_by_hand_needs_its_axes():
    session = start(GAME)
    play(session, "viking 4,0", "place sheep 0,2")
    grab = actions.move(session.state, "trophy-2", "shields_blue", spot="trophy")
    with pytest.raises(Refused) as refused:
        session.table.submit(grab, "blue")
    assert {f.rule for f in refused.value.findings} == {"LO-R19"}
    assert "blue may claim no trophy" in str(refused.value)


def test_d7_tiles_with_no_empty_fjord_space_are_out_of_the_game():
    """The German text is silent (DE:20); like Game Park, the tiles left when the fjord is full
    go out of the game, with a note in the log."""
    session = start(GAME)
    lo = Looot(session.state, looot_game())
    free = lo.free_spaces("blue")
    supply = session.state.place("supply").contents
    for space, tile in zip(free[:-1], supply, strict=False):
        session.table.submit(actions.move(session.state, tile, "fjord_blue", spot=space), "blue")
    lo = play(session, "shield DoubleGain", "viking 4,0")
    assert lo.free_spaces("blue") == [free[-1]] and len(lo.gained("blue")) == 2
    lo = play(session, f"place sheep {free[-1]}")
    assert lo.phase == "end" and lo.gained("blue") == []
    assert [session.state.pieces[p].kind for p in session.state.place("discard").contents] == [
        "sheep"
    ]
    assert "out of the game" in session.table.entries[-1].command.label


def test_de43_the_occupied_space_shield_is_offered_only_with_a_target():
    """With only the player's own Viking on the map, the German text leaves no target; Game
    Park offers the shield once any Viking stands on the map (D2)."""
    offered = {}
    for variant in ("standard", "gamepark"):
        session = start(GAME, variant)
        assert "shield PlaceOnOccupiedSpace" not in legal(session)  # no Viking yet
        play(session, "shield PlayAgain", "viking 4,0")
        offered[variant] = "shield PlaceOnOccupiedSpace" in legal(session)
    assert offered == {"standard": False, "gamepark": True}


def test_de32_a_site_completed_by_hand_is_reported_until_turned():
    session = start(GAME)
    lo = Looot(session.state, looot_game())
    assert session.state.pieces["site-Port2"].owner == "blue"  # house, house, wood
    houses = [p for s in sorted(lo.terrain) for p in lo.stack(s) if p.startswith("house")][:2]
    wood = next(p for p in session.state.place("supply").contents if p.startswith("wood"))
    for tile, space in zip([*houses, wood], ["4,1", "5,2", "6,1"], strict=True):
        session.table.submit(actions.move(session.state, tile, "fjord_blue", spot=space), "blue")
    (finding,) = looot_game().audit(session.state)
    assert (finding.rule, finding.severity.value) == ("LO-R11", "warning")
    assert finding.message == "site-Port2 has its requirements around it: turn it (DE:32)"
    session.table.submit(
        actions.set_property(session.state, "site-Port2", "complete", True), "blue"
    )
    assert looot_game().audit(session.state) == []
    assert looot_game().breakdown(session.state, "blue")["categories"]["sites"] == 5


def test_de20_a_viking_put_by_hand_gains_as_the_procedure_does():
    """A Viking dragged onto a legal hex brings its gains with it (the game's complete_move);
    the table is the same as after the ``viking`` procedure."""
    by_hand = start(GAME)
    digest = by_hand.state.digest()
    drop = actions.move(by_hand.state, "viking-blue-13", "landscape", spot="1,1")
    completed = looot_game().complete_move(by_hand.state, drop)
    assert by_hand.state.digest() == digest  # nothing changed yet
    by_hand.table.submit(completed, "blue")
    by_procedure = start(GAME)
    play(by_procedure, "viking 1,1")
    assert by_hand.state.digest() == by_procedure.state.digest()
    lo = Looot(by_hand.state, looot_game())
    assert lo.phase == "tiles" and len(lo.gained("blue")) == 2  # axe and a house from 0,1
