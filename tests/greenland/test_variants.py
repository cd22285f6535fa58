"""The beginners' game skips the advanced rules (C2), rule by rule: off there, on in the standard game.

The list of advanced rules is the one C2 of the 2014 Danish edition gives
(rules_assist/greenland/variants.py). Each test builds the same position in
both variants and shows the rule at work in the standard game and skipped in
the beginners' game: not offered by the procedures, refused when asked for,
and no finding of the checker under it (the move judged by the basic rules).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import animals, elders, events, negotiation
from rules_assist.greenland.checks import check
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.flow import negotiation_actions
from rules_assist.greenland.hunt import hunt_card
from rules_assist.greenland.variants import (
    ADVANCED_RULES,
    BEGINNERS,
    advanced_off,
    off_rules,
    variant_of,
)
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from tabletop.core import Severity, actions
from tabletop.modules import find_module

from .tables import build, contents, put, run, view

VARIANTS = ("standard", BEGINNERS)


def game_in(tmp_path: Path, variant: str, position: str):
    return build(tmp_path, f'variant = "{variant}"\n' + position)


def card(name: str) -> str:
    return Cards.of(find_module("greenland")).by_name(name)[0]["card"]


def findings(game, pid: str, place: str, spot: str = "hunters", colour: str | None = None):
    """The checker's findings for one cube moved by hand (nothing is played)."""
    move = actions.move(game.state, pid, place, spot=spot)
    owner = colour or game.state.pieces[pid].owner
    return check(game.state, move, owner, Cards.of(find_module("greenland")))


def illegal(found) -> list[str]:
    return [f.rule for f in found if f.severity is Severity.ILLEGAL]


def small_cube(game, colour: str) -> str:
    return next(p for p in contents(game, f"hunters_{colour}") if p.startswith("cube-"))


# ---- the list (C2) -------------------------------------------------------------------------
def test_c2_the_advanced_rules_are_the_2014_list() -> None:
    by_part = {"D": [9], "E": [2, 5], "F": [1, 2, 3, 4], "G": [1, 6], "H": [1, 2], "I": [1, 4]}
    assert tuple(f"{part}{n}" for part, ns in by_part.items() for n in ns) == ADVANCED_RULES


@pytest.mark.parametrize("rule", ADVANCED_RULES)
def test_c2_each_advanced_rule_is_off_in_beginners_and_on_in_standard(tmp_path, rule) -> None:
    for variant in ("standard", "survivalist", BEGINNERS):
        game = game_in(tmp_path, variant, "")
        assert variant_of(view(game)) == variant
        off = variant == BEGINNERS or (variant == "survivalist" and rule == "F4")  # C3: no F4
        assert advanced_off(view(game), rule) is off
        assert advanced_off(game.state, rule) is off
    assert off_rules(game.state) == ADVANCED_RULES
    assert not advanced_off(game.state, "E1")  # a basic rule stays


# ---- D9: Markland closed ------------------------------------------------------------------
MARKLAND = """
turn = 3
phase = "assignment"
[rows.north]
warm = ["Markland", "Walrus"]
[cultures.red]
unassigned = 3
elders = {6 = 1}
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_d9_the_markland_ban(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, MARKLAND)
    if variant == "standard":
        run(game, events.no_markland)
        assert game.state.counters["ban.markland"] == 3
        assert "D9" in illegal(findings(game, small_cube(game, "red"), "markland"))
        return
    with pytest.raises(ProcedureError, match=r"Markland ban \(D9, C2\)"):
        run(game, events.no_markland)
    game.table.submit(actions.set_counter(game.state, "ban.markland", 3), "test")
    assert "D9" not in illegal(findings(game, small_cube(game, "red"), "markland"))


def test_d9_the_event_icon_is_skipped_in_beginners(tmp_path) -> None:
    """Event 10 shows the slashed lumberjack (D9): the beginners' game resolves the rest."""
    for variant in VARIANTS:
        game = game_in(tmp_path, variant, "turn = 3\n")
        put(game, "event-10", "event_current")
        pay = {f"snowflake_{c}": "energy" for c in ("red", "yellow", "green")}
        change = run(game, events.resolve_event, pay)
        banned = game.state.counters.get("ban.markland") == 3
        assert banned is (variant == "standard")
        assert ("(D9, C2)" in change.entry.command.label) is (variant == BEGINNERS)


# ---- E2: the New World ------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_e2_the_new_world(tmp_path, variant) -> None:
    """A mariner takes a colonist to Markland in the standard game; in the beginners' game
    Markland is out of the game (C2) and nobody hunts there."""
    game = game_in(tmp_path, variant, MARKLAND)
    rules = illegal(findings(game, small_cube(game, "red"), "markland"))
    assert rules == ([] if variant == "standard" else ["C2"])
    game.table.submit(
        actions.move(game.state, small_cube(game, "red"), "markland", spot="hunters"), "test"
    )
    game.table.submit(actions.set_counter(game.state, "phase", "hunt"), "test")
    if variant == "standard":
        game.table.random.force_faces([6])
        assert run(game, hunt_card, card="markland") is not None
    else:
        with pytest.raises(ProcedureError, match=r"New World \(E2, C2\)"):
            run(game, hunt_card, card="markland")


# ---- E5: raids and defence ----------------------------------------------------------------
RAID = """
phase = "assignment"
[cultures.red]
unassigned = 2
tableau = ["Birgitta", "Cattle"]
[cultures.yellow]
unassigned = 3
elders = {4 = 1, 6 = 1}
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_e5_raids_and_defence(tmp_path, variant) -> None:
    """E5 lets a war chief's hunters raid a daughter or livestock and the owner defend them; the
    beginners' game judges those moves by E alone: hunters go on biomes, so they are illegal."""
    game = game_in(tmp_path, variant, RAID)
    raid = findings(game, small_cube(game, "yellow"), "birgitta")
    defence = findings(game, small_cube(game, "red"), card("Cattle"))
    marriage = findings(game, small_cube(game, "yellow"), "birgitta", spot="exogamy")
    elder = findings(game, small_cube(game, "yellow"), "elder-red", spot="rank1")
    if variant == "standard":
        assert illegal(raid) == [] and illegal(defence) == []
        assert illegal(elder) == ["E5"]
    else:
        assert illegal(raid) == ["E"] and illegal(defence) == ["E"] and illegal(marriage) == ["E"]
        assert "C2" in raid[0].message
        assert illegal(elder) == ["E3"]
        assert not [f for f in raid + defence + marriage + elder if f.rule in ADVANCED_RULES]


# ---- F1: exogamy ---------------------------------------------------------------------------
EXOGAMY = """
phase = "negotiation"
[rows.north]
warm = ["Walrus"]
[cultures.red]
unassigned = 1
tableau = ["Birgitta"]
[cultures.yellow]
unassigned = 1
hunters = {Walrus = 2}
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_f1_exogamy(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, EXOGAMY)
    yes = {"bride_red": "yes"}
    wedding = {"colour": "yellow", "cube_or_card": "walrus", "daughter": "birgitta"}
    if variant == "standard":
        run(game, negotiation.marry, yes, **wedding)
        assert view(game).husband("birgitta") is not None
        return
    with pytest.raises(ProcedureError, match=r"exogamy \(F1, C2\)"):
        run(game, negotiation.marry, yes, **wedding)
    with pytest.raises(ProcedureError, match=r"\(F1, C2\)"):
        run(game, negotiation.leave, yes, colour="yellow", card="walrus", daughter="birgitta")
    run(game, negotiation.leave, colour="yellow", card="walrus")  # leaving itself is basic (F)
    assert contents(game, "walrus") == []


# ---- F2: attacks, F3: the New World turns hostile ---------------------------------------------
ATTACK = """
phase = "negotiation"
[rows.north]
warm = ["Walrus", "Markland"]
[cultures.yellow]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 2}
iron = 0
[cultures.green]
unassigned = 1
hunters = {Walrus = 2}
colonists = {Markland = 7}
iron = 0
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_f2_attacks(tmp_path, variant, greenland) -> None:
    game = game_in(tmp_path, variant, ATTACK)
    v = view(game)
    if variant == "standard":
        assert negotiation.attackers(v, "walrus") == ["yellow"]
        assert any(a.name == "attack" for a in negotiation_actions(v))
        game.table.random.force_faces([1, 1])
        run(game, negotiation.attack, colour="yellow", card="walrus")
        assert len(view(game).hunters_on("walrus", "green")) == 0
        return
    assert negotiation.attackers(v, "walrus") == []
    assert negotiation_actions(v) == []
    with pytest.raises(ProcedureError, match=r"attacks \(F2, C2\)"):
        run(game, negotiation.attack, colour="yellow", card="walrus")


@pytest.mark.parametrize("variant", VARIANTS)
def test_f3_the_new_world_turns_hostile(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, ATTACK)
    change = run(game, negotiation.resolve_new_world)
    side = game.state.pieces["markland"].props["card"]
    if variant == "standard":
        assert side == "markland-hostile" and "turns hostile" in change.entry.command.label
        return
    assert change is None and side == "markland-peaceful"  # nothing happens (C2)
    with pytest.raises(ProcedureError, match=r"\(F3, C2\)"):
        run(game, negotiation.pacify, colour="green", card="markland")


# ---- F4: the iron rule ---------------------------------------------------------------------
IRON = """
phase = "hunt"
[rows.north]
warm = ["Walrus"]
[cultures.yellow]
unassigned = 1
hunters = {Walrus = 2}
tableau = []
iron = 1
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_f4_the_iron_rule(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, IRON)
    game.table.random.force_faces([3, 5])
    if variant == "standard":
        with pytest.raises(ChoiceNeeded) as asked:
            run(game, hunt_card, card="walrus")
        assert asked.value.key == "pay_iron"
        return
    change = run(game, hunt_card, card="walrus")  # nobody is asked about iron
    assert "the 3 kills a hunter" in change.entry.command.label
    assert len(contents(game, "iron_yellow")) == 1


# ---- G1: raids -------------------------------------------------------------------------------
LIVESTOCK = """
phase = "hunt"
turn = 3
[cultures.red]
unassigned = 1
tableau = ["Cattle"]
[cultures.yellow]
unassigned = 1
elders = {4 = 1}
hunters = {Cattle = 2}
iron = 0
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_g1_raids(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, LIVESTOCK)
    cattle = card("Cattle")
    game.table.random.force_faces([1, 6])
    if variant == "standard":
        change = run(game, hunt_card, card=cattle)
        assert "the raid succeeds" in change.entry.command.label
        return
    with pytest.raises(ProcedureError, match=r"raids \(G1, C2\)"):
        run(game, hunt_card, card=cattle)


# ---- G6: cards into the hand ------------------------------------------------------------------
MUSK_OXEN = """
phase = "hunt"
[rows.north]
warm = ["Caribou", "Musk Oxen"]
[cultures.yellow]
alpha = "Musk Oxen"
hunters = {"Musk Oxen" = 3}
tableau = []
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_g6_taking_cards_into_the_hand(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, MUSK_OXEN)
    oxen = card("Musk Oxen")
    game.table.random.force_faces([1, 1])
    if variant == "standard":
        with pytest.raises(ChoiceNeeded) as asked:
            run(game, hunt_card, {"alpha": "yes"}, card=oxen)
        assert asked.value.key == "take_card"
        return
    change = run(game, hunt_card, {"alpha": "yes"}, card=oxen)  # triples, yet no question
    assert "success" in change.entry.command.label and "G6" not in change.entry.command.label
    assert game.state.pieces[oxen].place == "north_warm"
    assert contents(game, "hand_yellow") == []


# ---- H1, H2: domestic animals ------------------------------------------------------------------
ANIMALS = """
turn = 3
phase = "animals"
[cultures.red]
unassigned = 2
elders = {6 = 1}
energy = 5
tableau = ["Cattle"]
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_h1_h2_domestic_animals(tmp_path, variant) -> None:
    game = game_in(tmp_path, variant, ANIMALS)
    if variant == "standard":
        change = run(game, animals.feed_animals, {"hay_cattle": "energy"})
        assert "red feeds Cattle" in change.entry.command.label
        return
    with pytest.raises(ProcedureError, match=r"no hay \(H1\), no babies \(H2\); C2"):
        run(game, animals.feed_animals, {"hay_cattle": "energy"})


# ---- I1, I4: playing hand cards -----------------------------------------------------------------
ELDERS = """
turn = 3
phase = "elders"
[cultures.red]
elders = {2 = 1, 3 = 1}
energy = 2
iron = 1
tableau = []
hand = ["Dogs", "Slit Goggles"]
"""


@pytest.mark.parametrize(
    "variant,rule,procedure,label",
    [(v, "I1", elders.domesticate, "Domestication") for v in VARIANTS]
    + [(v, "I4", elders.tool_maker, "Tool-maker") for v in VARIANTS],
)
def test_i1_i4_hand_cards_into_the_tableau(tmp_path, variant, rule, procedure, label) -> None:
    game = game_in(tmp_path, variant, ELDERS)
    offered = [text for text, _proc, _params in elders.available_actions(view(game), "red")]
    if variant == "standard":
        assert any(text.startswith(label) for text in offered)
        assert run(game, procedure, colour="red") is not None
        return
    assert not any(text.startswith(label) for text in offered)
    assert any(text.startswith("Banishment") for text in offered)  # I2 is basic
    with pytest.raises(ProcedureError, match=rf"\({rule}, C2\)"):
        run(game, procedure, colour="red")


# ---- the variants as data (module.toml) ------------------------------------------------------
def test_the_variants_rules_off_and_params_are_the_modules_data() -> None:
    from rules_assist.greenland.variants import variant_in

    module = find_module("greenland")
    assert variant_in(module, BEGINNERS).rules_off == ADVANCED_RULES  # C2, as the 2014 list
    assert variant_in(module, "survivalist").rules_off == ("F4", "G7")  # C3
    assert variant_in(module, "two-player").param("row_cards") == 5  # C1
    assert variant_in(module, None).id == "standard"
    assert Cards.of(module).constants.woodpile == 8  # B4, from [constants]


@pytest.mark.parametrize(
    "variant,face,cooperates,turns",
    [("standard", 1, False, None), ("survivalist", 2, False, None), ("solitaire", 1, True, 16)],
)
def test_the_variant_a_game_records_reads_its_params(tmp_path, variant, face, cooperates, turns):
    from rules_assist.greenland.variants import alpha_face, cooperative, param

    game = game_in(tmp_path, variant, "")
    for table in (view(game), game.state):
        assert alpha_face(table) == face  # E7; C3
        assert cooperative(table) is cooperates  # K
        assert param(table, "turns") == turns  # K: the game ends after the 16th turn
