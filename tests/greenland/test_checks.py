"""The rules assistant's checks, in advisory and strict modes (E1, E2, E3, E4, E5, D7, B4, F1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland.checks import audit, checker_for
from rules_assist.greenland.deck import Cards
from tabletop.core import Mode, Policy, Refused, actions
from tabletop.modules import new_game

POSITION = """
phase = "assignment"  # hunters are placed in the hunter assignment phase (E)
[rows.north]
warm = ["Walrus", "Harbor Seal", "Caribou", "Markland"]
[rows.south]
warm = ["Shark", "Vinland"]
[cultures.red]
unassigned = 10
elders = {6 = 1, 1 = 1}
energy = 8
[cultures.yellow]
unassigned = 6
elders = {4 = 1, 6 = 1}
husbands = {Birgitta = 1}
"""


@pytest.fixture
def game(greenland, tmp_path: Path):
    path = tmp_path / "position.toml"
    path.write_text(POSITION)
    game = new_game(greenland, seed=1, position=str(path))
    game.table.checker = checker_for(greenland)
    return game


def red_cubes(game, n: int) -> list[str]:
    return [p for p in game.state.places["hunters_red"].contents if p.startswith("cube")][:n]


def put(game, pids: list[str], card: str, spot: str = "hunters", **options):
    command = actions.build_sequence(
        game.state,
        f"put {len(pids)} on {card}",
        [lambda s, p=p: actions.move(s, p, card, spot=spot) for p in pids],
    )
    return game.table.submit(command, "red", **options)


def rules(change) -> list[str]:
    return [f.rule for f in change.findings]


def test_e1_five_cubes_behind_one_mariner_advisory(game) -> None:
    """E1: the Norse have one mariner; a mariner takes 4 cubes to one card outside the homeland."""
    game.table.policy = Policy(Mode.ADVISORY)
    change = put(game, red_cubes(game, 4), "walrus")
    assert rules(change) == []  # four cubes, one mariner: legal
    change = put(game, red_cubes(game, 1), "walrus")
    assert rules(change) == ["E1"]
    assert "need 2 mariner(s)" in change.findings[0].message
    assert (
        game.state.pieces[change.entry.command.commands[0].piece].place == "walrus"
    )  # advisory: the move stands


def test_e1_strict_refuses_and_a_reason_forces(game) -> None:
    game.table.policy = Policy(Mode.STRICT)
    put(game, red_cubes(game, 4), "walrus")
    before = game.state.digest()
    with pytest.raises(Refused) as refused:
        put(game, red_cubes(game, 1), "walrus")
    assert refused.value.findings[0].rule == "E1" and game.state.digest() == before
    change = put(game, red_cubes(game, 1), "walrus", force="a house rule: the sea was calm")
    assert change.entry.override == "a house rule: the sea was calm" and rules(change) == ["E1"]


def test_e1_homeland_needs_no_mariner_and_per_rule_modes(game) -> None:
    game.table.policy = Policy(Mode.STRICT, {"E1": Mode.OFF})
    assert rules(put(game, red_cubes(game, 6), "shark")) == []  # South Greenland is Norse homeland
    assert rules(put(game, red_cubes(game, 4), "walrus")) == []
    assert (
        rules(put(game, red_cubes(game, 2), "harbor-seal")) == []
    )  # E1 switched off: allowed silently


def test_e2_the_new_world_needs_mariners(game) -> None:
    """E2: colonists go by mariner, 4 to a mariner (transport is checked move by move)."""
    game.table.policy = Policy(Mode.ADVISORY)
    change = put(game, red_cubes(game, 5), "vinland")
    assert rules(change) == ["E2"]  # five need a second mariner (E2 names the New World)
    assert "need 2 mariner(s)" in change.findings[0].message
    game.table.undo("red")
    assert rules(put(game, red_cubes(game, 4), "vinland")) == []


def test_e1_hunters_at_home_need_no_mariner_until_they_go_out(game) -> None:
    """E1: four Norse hunters on a biome of South Greenland, their homeland, need no mariner;
    a fifth sent to a biome of the North is outside it, and so are four more there, where one
    mariner carries only 4 (moving hunters already placed is E6's, a Sun Stone's)."""
    game.table.policy = Policy(Mode.ADVISORY)
    cubes = red_cubes(game, 10)
    assert len(cubes) == 9  # and the Alpha
    assert rules(put(game, cubes[:4], "shark")) == []
    assert rules(put(game, cubes[4:5], "walrus")) == []  # the one mariner carries him
    change = put(game, cubes[5:], "walrus")
    assert rules(change) == ["E1"]
    assert "need 2 mariner(s)" in change.findings[0].message


def test_e1_a_card_moved_by_hand_takes_its_hunters_away_from_home(game, greenland) -> None:
    """E1: hunters on a biome of their homeland need no mariner; the card moved by hand to a
    row of the North takes them outside it, and the move checker finds what the audit finds
    of the table it makes (the card's riders are the seats the move touches)."""
    game.table.policy = Policy(Mode.ADVISORY)
    assert rules(put(game, red_cubes(game, 8), "shark")) == []
    row = game.state.pieces["walrus"].place
    change = game.table.submit(actions.move(game.state, "shark", row), "red")
    assert rules(change) == ["E1"]
    assert "need 2 mariner(s)" in change.findings[0].message
    found = audit(game.state, Cards.of(greenland))
    assert [f.describe() for f in change.findings] == [
        f.describe() for f in found if f.rule == "E1"
    ]


def test_e5_a_raid_without_a_war_chief(game) -> None:
    game.table.policy = Policy(Mode.STRICT)
    with pytest.raises(Refused) as refused:
        put(game, red_cubes(game, 1), "peepeelee")
    assert [f.rule for f in refused.value.findings] == ["E5"]
    assert "war chief" in refused.value.findings[0].message


def test_e5_yellow_with_a_war_chief_may_raid_the_norse(game) -> None:
    game.table.policy = Policy(Mode.ADVISORY)
    cube = game.state.places["hunters_yellow"].contents[1]
    command = actions.move(game.state, cube, "norse-daughter-2", spot="hunters")
    assert rules(game.table.submit(command, "yellow")) == []  # one mariner carries him south


def test_e5_a_war_chief_leaving_leaves_the_raid_without_one(game, greenland) -> None:
    """E5: the raid rules read the war chiefs as well as the tableaus' cards: a move off the
    rank 4 elder space touches no tableau and is judged by them, as the audit judges the table."""
    game.table.policy = Policy(Mode.ADVISORY)
    cube = game.state.places["hunters_yellow"].contents[1]
    raid = actions.move(game.state, cube, "norse-daughter-2", spot="hunters")
    assert rules(game.table.submit(raid, "yellow")) == []
    pieces = game.state.pieces
    chief = next(p for p in game.state.places["elder-yellow"].contents if pieces[p].spot == "rank4")
    change = game.table.submit(actions.move(game.state, chief, "hunters_yellow"), "yellow")
    assert [f.pieces for f in change.findings if "war chief" in f.message] == [(cube,)]
    found = audit(game.state, Cards.of(greenland))
    assert [f.pieces for f in found if "war chief" in f.message] == [(cube,)]


def test_d7_a_maritime_biome_during_the_ban(game) -> None:
    game.table.policy = Policy(Mode.STRICT)
    game.table.submit(
        actions.set_counter(game.state, "ban.maritime", game.state.counters["turn"]), "red"
    )
    with pytest.raises(Refused) as refused:
        put(game, red_cubes(game, 1), "walrus")
    assert "D7" in [f.rule for f in refused.value.findings]


def test_b4_a_ninth_energy_disk(game) -> None:
    game.table.policy = Policy(Mode.STRICT)
    disk = game.state.places["supply_energy"].contents[0]
    with pytest.raises(Refused) as refused:
        game.table.submit(actions.move(game.state, disk, "energy_red"), "red")
    found = [(f.rule, f.message) for f in refused.value.findings]
    assert any(rule == "B4" and "woodpile" in text for rule, text in found)
    assert any(rule == "B4" and "comes from the supply only" in text for rule, text in found)
    ivory = game.state.places["supply_ivory"].contents[0]
    with pytest.raises(Refused, match="cannot stand in for energy"):
        game.table.submit(actions.move(game.state, ivory, "energy_yellow"), "red")


def test_f1_a_cube_on_a_husband(game) -> None:
    game.table.policy = Policy(Mode.STRICT)
    with pytest.raises(Refused) as refused:
        put(game, red_cubes(game, 1), "birgitta", spot="exogamy")
    assert refused.value.findings[0].rule == "F1"


def test_e3_promotion_costs_energy_and_elders_stay(game) -> None:
    game.table.policy = Policy(Mode.ADVISORY)
    cube = red_cubes(game, 1)[0]
    change = game.table.submit(actions.move(game.state, cube, "elder-red", spot="rank3"), "red")
    assert rules(change) == ["E3"]
    cube2 = red_cubes(game, 1)[0]
    energy = game.state.places["energy_red"].contents[-1]
    paid = actions.build_sequence(
        game.state,
        "promote",
        [
            lambda s: actions.move(s, cube2, "elder-red", spot="rank2"),
            lambda s: actions.move(s, energy, "supply_energy"),
        ],
    )
    assert rules(game.table.submit(paid, "red")) == []
    change = game.table.submit(actions.move(game.state, cube2, "elder-red", spot="rank5"), "red")
    assert "E3" in rules(change)  # an elder cannot change rank
    change = game.table.submit(actions.move(game.state, cube2, "hunters_red"), "red")
    # promoted in this assignment phase: taking it back undoes the promotion; E4 counts the
    # elders the culture had when the phase began (test_e4_* below)
    assert "E4" not in rules(change)


def test_off_mode_asks_nothing(game) -> None:
    game.table.policy = Policy(Mode.OFF)
    assert rules(put(game, red_cubes(game, 9), "walrus")) == []


def test_procedures_are_not_checked(game) -> None:
    from tabletop.core import Compound

    game.table.policy = Policy(Mode.STRICT)
    steps = actions.build_sequence(
        game.state,
        "x",
        [lambda s, p=p: actions.move(s, p, "walrus", spot="hunters") for p in red_cubes(game, 9)],
    )
    game.table.submit(Compound("a procedure", steps.commands, "greenland.test"), "red")


def test_audit_of_a_whole_table(game, greenland) -> None:
    game.table.policy = Policy(Mode.OFF)
    put(game, red_cubes(game, 9), "walrus")
    found = audit(game.state, Cards.of(greenland))
    assert [f.rule for f in found] == ["E1"] and len(found[0].pieces) == 9


def test_a_promotion_dropped_by_hand_pays_its_energy(greenland, game) -> None:
    """E3: the window completes a hunter dropped on an elder rank with the energy it costs."""
    from rules_assist.greenland.assignment import complete_move

    game.table.policy = Policy(Mode.STRICT)
    cube = red_cubes(game, 1)[0]
    energy = len(game.state.places["energy_red"].contents)
    command = complete_move(
        game.state, actions.move(game.state, cube, "elder-red", spot="rank3"), greenland
    )
    change = game.table.submit(command, "red")
    assert rules(change) == [] and "paying 1 energy (E3)" in change.entry.command.describe()
    assert len(game.state.places["energy_red"].contents) == energy - 1
    game.table.undo("red")
    assert len(game.state.places["energy_red"].contents) == energy
    assert game.state.pieces[cube].place == "hunters_red"


E6 = """
phase = "assignment"
[rows.north]
warm = ["Walrus", "Caribou"]
[cultures.red]
unassigned = 3
elders = {4 = 1, 6 = 1}
[cultures.yellow]
unassigned = 2
elders = {6 = 1}
tableau = ["Peepeelee", "Musk Oxen", "Sun Stone trader"]
hunters = {Walrus = 1, Caribou = 1}
"""


def test_e6_the_sun_stone_example(greenland, tmp_path: Path) -> None:
    """E6: the Vikings raid the Thule musk oxen; the Thule reassign two hunters with their sun stone."""
    from rules_assist.greenland.turn import finish
    from rules_assist.procedures import run_procedure

    path = tmp_path / "e6.toml"
    path.write_text(E6)
    game = new_game(greenland, seed=1, position=str(path))
    table = game.table
    table.checker = checker_for(greenland)
    table.policy = Policy(Mode.STRICT)
    raider = [p for p in game.state.places["hunters_red"].contents if p.startswith("cube")][0]
    table.submit(
        actions.move(game.state, raider, "musk-oxen", spot="hunters"), "red"
    )  # a livestock raid (E5)
    walrus = game.state.contents("walrus", "hunters")[0]
    with pytest.raises(Refused, match="after everyone else"):
        table.submit(actions.move(game.state, walrus, "musk-oxen", spot="hunters"), "yellow")
    for colour in ("red", "green"):  # everyone else has assigned
        run_procedure(table, colour, finish, name="greenland.finish", colour=colour)
    caribou = game.state.contents("caribou", "hunters")[0]
    for hunter in (walrus, caribou):
        change = table.submit(
            actions.move(game.state, hunter, "musk-oxen", spot="hunters"), "yellow"
        )
        assert change.findings == ()
    owners = [game.state.pieces[c].owner for c in game.state.contents("musk-oxen", "hunters")]
    assert owners.count("yellow") == 2 and owners.count("red") == 1


def test_e6_without_a_sun_stone_hunters_stay(game) -> None:
    game.table.policy = Policy(Mode.ADVISORY)
    game.table.submit(actions.set_counter(game.state, "phase", "assignment"), "red")
    put(game, red_cubes(game, 2), "shark")
    cube = game.state.contents("shark", "hunters")[0]
    change = game.table.submit(actions.move(game.state, cube, "vinland", spot="hunters"), "red")
    assert "E6" in rules(change)


COLONY = """
[rows.north]
warm = ["Markland", "Walrus"]
[cultures.green]
unassigned = 2
elders = {6 = 1}
colonists = {Markland = 5}
"""


def test_e4_colony_abandonment(greenland, tmp_path: Path) -> None:
    """E4: colonists may go hunting in Greenland only if the whole colony leaves, by mariner."""
    path = tmp_path / "colony.toml"
    path.write_text(COLONY)
    game = new_game(greenland, seed=1, position=str(path))
    game.table.checker = checker_for(greenland)
    game.table.policy = Policy(Mode.ADVISORY)
    colonists = game.state.contents("markland", "hunters")
    one = actions.move(game.state, colonists[0], "walrus", spot="hunters")
    assert "E4" in rules(game.table.submit(one, "green"))  # four stay behind
    game.table.undo("green")
    four = actions.build_sequence(
        game.state,
        "evacuate",
        [lambda s, c=c: actions.move(s, c, "walrus", spot="hunters") for c in colonists[:4]],
    )
    assert "E4" in rules(game.table.submit(four, "green"))  # still one left in Markland
    game.table.undo("green")
    every = actions.build_sequence(
        game.state,
        "evacuate",
        [lambda s, c=c: actions.move(s, c, "walrus", spot="hunters") for c in colonists],
    )
    found = rules(game.table.submit(every, "green"))
    assert "E4" in found  # five colonists need two mariners; green has one


# ---- E4: one permanent cube back, judged on the hunters at the start of the phase ----------
FEW = """
turn = 2
phase = "event"
[rows.north]
warm = ["Walrus", "Caribou"]
[cultures.red]
unassigned = UNASSIGNED
elders = {1 = 1, 2 = 1, 6 = 1}
"""


def _assigning(greenland, tmp_path: Path, unassigned: int):
    """The phase procedure begins the assignment phase (E), recording the count E4 reads."""
    from rules_assist.greenland.turn import next_phase
    from rules_assist.procedures import run_procedure

    path = tmp_path / "few.toml"
    path.write_text(FEW.replace("UNASSIGNED", str(unassigned)))
    game = new_game(greenland, seed=1, position=str(path), path=str(tmp_path / "few.jsonl"))
    run_procedure(game.table, "test", next_phase, name="greenland.next-phase")
    assert game.state.counters["phase"] == "assignment"
    game.table.checker = checker_for(greenland)
    game.table.policy = Policy(Mode.ADVISORY)
    return game


def _elder(game, rank: int) -> str:
    return game.state.contents("elder-red", f"rank{rank}")[0]


def test_e4_one_elder_back_when_the_phase_began_with_one_hunter(greenland, tmp_path) -> None:
    """E4's exception: one or no unassigned hunters at the start of E: ONE permanent cube back."""
    game = _assigning(greenland, tmp_path, 1)
    change = game.table.submit(actions.move(game.state, _elder(game, 1), "hunters_red"), "red")
    assert rules(change) == []
    change = game.table.submit(actions.move(game.state, _elder(game, 2), "hunters_red"), "red")
    assert rules(change) == ["E4"] and "one at most may" in change.findings[0].message
    assert [f.rule for f in audit(game.state, Cards.of(greenland))] == ["E4"]


def test_e4_the_count_at_the_start_of_the_phase_not_now(greenland, tmp_path, capsys) -> None:
    """E4: three hunters at the start of E; placing two leaves one, which does not open the
    exception. The checker, the audit and ``tabletop check`` say so alike."""
    from .tables import cli

    game = _assigning(greenland, tmp_path, 3)
    put(game, red_cubes(game, 2), "caribou")
    assert len(game.state.places["hunters_red"].contents) == 1
    change = game.table.submit(actions.move(game.state, _elder(game, 1), "hunters_red"), "red")
    assert rules(change) == ["E4"]
    assert "began the assignment phase with 3 unassigned hunters" in change.findings[0].message
    audited = [(f.rule, f.message) for f in audit(game.state, Cards.of(greenland))]
    assert audited == [(f.rule, f.message) for f in change.findings]
    game.close()
    code, out, _err = cli(capsys, "check", str(tmp_path / "few.jsonl"))
    assert code == 0 and "E4 illegal: elders, colonists and husbands are assigned for good" in out


def test_e4_no_elder_comes_back_outside_the_assignment(greenland, tmp_path) -> None:
    """E4: in the hunt an elder is still assigned for good, whatever the hunters at home."""
    from rules_assist.greenland.turn import next_phase
    from rules_assist.procedures import run_procedure

    game = _assigning(greenland, tmp_path, 1)
    for _ in range(2):  # to the hunt
        run_procedure(game.table, "test", next_phase, name="greenland.next-phase")
    change = game.table.submit(actions.move(game.state, _elder(game, 1), "hunters_red"), "red")
    assert rules(change) == ["E4"]


# ---- E6: three reassignments, to cards where the culture has cubes or its own -------------
SUN_STONE = """
phase = "assignment"
[rows.north]
warm = ["Walrus", "Caribou", "Harbor Seal"]
[cultures.red]
unassigned = 3
elders = {4 = 1, 6 = 1}
tableau = ["Cattle", "Birgitta"]
[cultures.green]
unassigned = 2
husbands = {Birgitta = 1}
[cultures.yellow]
unassigned = 2
elders = {4 = 1, 6 = 2}
tableau = ["Peepeelee", "Musk Oxen", "Sun Stone trader"]
hunters = {Walrus = 4, Caribou = 1}
"""


def _sun_stone(greenland, tmp_path: Path, position: str = SUN_STONE):
    from rules_assist.greenland.turn import finish
    from rules_assist.procedures import run_procedure

    path = tmp_path / "e6.toml"
    path.write_text(position)
    game = new_game(greenland, seed=1, position=str(path))
    for colour in ("red", "green"):  # everyone else has assigned
        run_procedure(game.table, colour, finish, name="greenland.finish", colour=colour)
    game.table.checker = checker_for(greenland)
    game.table.policy = Policy(Mode.ADVISORY)
    return game


def _reassign(game, card: str, target: str, colour: str = "yellow"):
    cube = next(
        c for c in game.state.contents(card, "hunters") if game.state.pieces[c].owner == colour
    )
    return game.table.submit(actions.move(game.state, cube, target, spot="hunters"), colour)


def test_e6_three_reassignments_at_most(greenland, tmp_path) -> None:
    """E6: the Sun Stone reassigns three hunters; the fourth is refused, by the checker and
    the audit alike."""
    game = _sun_stone(greenland, tmp_path)
    for _ in range(3):
        assert rules(_reassign(game, "walrus", "musk-oxen")) == []
    change = _reassign(game, "walrus", "musk-oxen")
    assert rules(change) == ["E6"] and "3 hunters at most; 4" in change.findings[0].message
    assert [f.rule for f in audit(game.state, Cards.of(greenland))] == ["E6"]
    game.table.undo("yellow")
    # one moved on again is still one hunter reassigned
    assert rules(_reassign(game, "musk-oxen", "caribou")) == []
    assert audit(game.state, Cards.of(greenland)) == []


def test_e6_only_where_the_culture_has_cubes_or_its_own_cards(greenland, tmp_path) -> None:
    """E6: to a card where the culture has cubes (Caribou), to its own daughter or livestock
    (Peepeelee, Musk Oxen); not to a card where it has none (Harbor Seal), nor to another
    culture's D card it has no cubes on (the Norse cattle)."""
    game = _sun_stone(greenland, tmp_path)
    assert rules(_reassign(game, "walrus", "caribou")) == []
    assert rules(_reassign(game, "walrus", "peepeelee")) == []
    for target in ("harbor-seal", "cattle-sheep"):
        change = _reassign(game, "walrus", target)
        assert rules(change) == ["E6"], target
        assert "where the culture has cubes" in change.findings[0].message
        game.table.undo("yellow")


def test_e6_to_a_wife_where_a_husband_stands(greenland, tmp_path) -> None:
    """E6 with E5: a husband is a cube of his culture on his wife's card, so a Sun Stone may
    send a hunter there to defend her."""
    position = SUN_STONE.replace("husbands = {Birgitta = 1}\n", "").replace(
        "hunters = {Walrus = 4, Caribou = 1}",
        "hunters = {Walrus = 4, Caribou = 1}\nhusbands = {Birgitta = 1}",
    )
    game = _sun_stone(greenland, tmp_path, position)
    assert rules(_reassign(game, "walrus", "birgitta")) == []
    assert audit(game.state, Cards.of(greenland)) == []


def test_e6_regardless_of_the_mariners(greenland, tmp_path) -> None:
    """E6 with E1: one mariner carries two raiders to the Norse cattle; the Sun Stone adds three
    more there, five in all, without a second mariner."""
    position = SUN_STONE.replace("elders = {4 = 1, 6 = 2}", "elders = {4 = 1, 6 = 1}").replace(
        "hunters = {Walrus = 4, Caribou = 1}", "hunters = {Walrus = 4, Caribou = 1, Cattle = 2}"
    )
    game = _sun_stone(greenland, tmp_path, position)
    assert audit(game.state, Cards.of(greenland)) == []
    for _ in range(3):
        assert rules(_reassign(game, "walrus", "cattle-sheep")) == []
    assert len(game.state.contents("cattle-sheep", "hunters")) == 5
    assert audit(game.state, Cards.of(greenland)) == []


TRIED_IN_TURN = """
phase = "assignment"
[rows.north]
warm = ["Walrus", "Harbor Seal", "Caribou", "Markland", "Dogs"]
cold = ["Polar Bear", "Musk Oxen"]
[rows.south]
warm = ["Shark", "Vinland", "Bog Iron", "Elkhounds"]
[cultures.red]
unassigned = 8
elders = {1 = 1, 4 = 1, 6 = 1}
colonists = {Vinland = 3}
hunters = {Shark = 2, Walrus = 1}
energy = 6
[cultures.yellow]
unassigned = 9
elders = {2 = 1, 6 = 1}
hunters = {Walrus = 2, "Polar Bear" = 1}
[cultures.green]
unassigned = 7
elders = {3 = 1}
colonists = {Markland = 4}
husbands = {Birgitta = 1}
"""


def test_e1_moves_tried_in_turn_find_what_a_first_check_finds(greenland, tmp_path) -> None:
    """E1, E2, E4, D7 and the rest: on a table where hunter after hunter is tried on card after
    card (the checker then carries a culture's placement over from the table before each
    move), every check finds what the first check of that move on a fresh copy of the table
    finds."""
    path = tmp_path / "tried.toml"
    path.write_text(TRIED_IN_TURN)
    game = new_game(greenland, seed=3, position=str(path))
    state = game.state
    check = checker_for(greenland)
    cards = [
        pid
        for row in ("north_warm", "north_cold", "south_warm")
        for pid in state.places[row].contents
    ]
    tried = [
        (colour, cube, card)
        for colour in ("red", "yellow", "green")
        for cube in state.places[f"hunters_{colour}"].contents[:3]
        for card in cards
    ]
    seen = set()
    for _round in range(3):
        for colour, cube, card in tried:
            move = actions.move(state, cube, card, spot="hunters")
            found = check(state, move, colour)
            first = check(state.copy(), actions.move(state, cube, card, spot="hunters"), colour)
            assert found == first, (colour, cube, card)
            seen.update(f.rule for f in found)
    assert {"E1", "E2"} <= seen  # the moves reach the rules that read the placement
