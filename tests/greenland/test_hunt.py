"""The hunt (G): the rulebook's examples with their dice, each test naming its section.

Every table is a position (a few lines of TOML); the dice are forced in the
order the hunt rolls them (the roll, then the re-rolls), and every forced die
must be rolled. Card values come from the shipped deck unless a test says
otherwise.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.hunt import hunt, hunt_card, hunt_order
from rules_assist.greenland.reading import read
from rules_assist.greenland.view import Greenland
from rules_assist.procedures import ChoiceNeeded, ProcedureError, run_procedure
from tabletop.modules import find_module, new_game
from tabletop.modules.revisions import with_revision


def play(module, tmp_path: Path, position: str, seed: int = 1):
    path = tmp_path / "position.toml"
    path.write_text(position)
    return new_game(module, seed=seed, position=str(path))


def roll(game, module, name: str, dice=(), choices=None, seat: str | None = None) -> str:
    """Hunt a card (every culture on it, or one seat) with forced dice; the log entry's text."""
    cards = Cards.of(module)
    pid = cards.by_name(name)[0]["card"]
    game.table.random.force_faces(list(dice))
    params = {"card": pid, "cards": cards}
    if seat is not None:
        change = run_procedure(
            game.table, seat, hunt, name="greenland.hunt", choices=choices, seat=seat, **params
        )
    else:
        change = run_procedure(
            game.table, "red", hunt_card, name="greenland.hunt", choices=choices, **params
        )
    assert game.table.random.forced_pending == 0, "every forced die is rolled"
    return change.entry.command.label


def culture(game, module, colour: str) -> dict:
    return read(game.state, Cards.of(module))["cultures"][colour]


def names(game, module, place: str) -> list[str]:
    view = Greenland(game.state, Cards.of(module))
    return [view.name(pid) for pid in game.state.places[place].contents]


# ---- G8: the hunt example ----------------------------------------------------------
WALRUS_COLD = """
phase = "hunt"
[rows.north]
cold = ["Walrus"]
[cultures.red]
unassigned = 1            # the Alpha stays home
elders = {6 = 2}          # two mariners reach North Greenland (G8)
hunters = {Walrus = 6}
energy = 3
ivory = 0
iron = 0
"""


def test_g8_walrus_on_the_cold_side_fails_and_the_3_kills(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, WALRUS_COLD)
    text = roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6])
    assert text == "Red hunts Walrus: 1 2 3 4 4 6 → 1 hit of 2; the 3 kills a hunter"
    red = culture(game, greenland, "red")
    assert red["unassigned"] == 1 + 5 and red["valhalla"] == 19 - 1 - 2 - 6 + 1
    assert red["hunters"] == {} and red["energy"] == 3
    assert names(game, greenland, "north_cold") == ["Walrus"]


def test_g8_kirima_as_a_wife_rerolls_both_4s(greenland, tmp_path) -> None:
    """G8 Wives: a husband on Kirima (yellow) shares her re-roll of 4s on maritime hunts (F1)."""
    game = play(greenland, tmp_path, WALRUS_COLD + "husbands = {Kirima = 1}\n")
    with pytest.raises(ChoiceNeeded) as asked:
        roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6])
    assert asked.value.key == "reroll" and asked.value.options == ["4"]
    assert asked.value.question.kind == "subset" and asked.value.question.high == 1
    game.table.random.clear_forced()
    text = roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6, 3, 1], {"reroll": [4]})
    # one of the 4s became a 1: success; the other a 3, a second death (G8)
    assert text == (
        "Red hunts Walrus: 1 2 3 4 4 6, re-rolls the 4s: 3 1 → 2 hits of 2: success; "
        "the 3 and 3 kill 2 hunters; 4 babies, 2 energy, 1 ivory"
    )
    red = culture(game, greenland, "red")
    assert red["unassigned"] == 1 + 4 + 4 and (red["energy"], red["ivory"]) == (5, 1)


def test_g8_toggle_head_harpoon_turns_the_3_into_a_1(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, WALRUS_COLD + 'tableau = ["Toggle-head Harpoon"]\n')
    with pytest.raises(ChoiceNeeded) as asked:
        roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6])
    assert asked.value.key == "modify"
    game.table.random.clear_forced()
    before = culture(game, greenland, "red")
    text = roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6], {"modify": "yes"})
    assert text == (
        "Red hunts Walrus: 1 2 3 4 4 6, the 3 becomes a 1 (Toggle-head Harpoon) "
        "→ 2 hits of 2: success; 4 babies, 2 energy, 1 ivory"
    )
    red = culture(game, greenland, "red")
    assert red["unassigned"] == 1 + 6 + 4, "the hunter who rolled the 3 lives, and 4 babies"
    assert red["valhalla"] == before["valhalla"] - 4
    assert (red["energy"], red["ivory"]) == (5, 1)
    assert names(game, greenland, "north_cold") == ["Walrus"], "no triples: it stays in the row"


# ---- G2, G3: re-rolls and modifications --------------------------------------------
def meeka_module(greenland, tmp_path: Path):
    """A copy of the module with a revision 'meeka': North biome 12, a fishing card, needs one hit.

    G2's example needs a fishing biome that one hit takes (a 2 succeeds on the
    warm side, fails on the cold) and no trophy or hand icon; the shipped
    deck's North biome 12 is a placeholder needing 3 hits with a trophy, so the
    revision changes those values only.
    """
    folder = tmp_path / "greenland"
    shutil.copytree(Path(greenland.decks["greenland"].path).parent.parent, folder)
    source = folder / "decks" / "reconstructed.csv"
    with source.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        if row["id"] == "north-biome-12":
            row.update(dice="1", trophy="", vp="")
    with (folder / "decks" / "meeka.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return with_revision(find_module(str(folder)), "meeka")


@pytest.mark.parametrize(("side", "success"), [("warm", True), ("cold", False)])
def test_g2_meeka_rerolls_the_4s_once(greenland, tmp_path, side: str, success: bool) -> None:
    module = meeka_module(greenland, tmp_path)
    game = play(
        module,
        tmp_path,
        f"""
[rows.north]
{side} = ["North biome 12"]
[cultures.green]
unassigned = 1
hunters = {{"North biome 12" = 4}}
energy = 0
ivory = 0
iron = 0
""",
    )
    assert game.state.counters["deck.name"] == "meeka"
    text = roll(game, module, "North biome 12", [3, 3, 4, 4, 2, 4], {"reroll": "4"})
    outcome = "1 hit of 1: success; 3 babies, 1 energy, 1 ivory" if success else "0 hits of 1"
    assert text == f"Green hunts North biome 12: 3 3 4 4, re-rolls the 4s: 2 4 → {outcome}"
    assert culture(game, module, "green")["unassigned"] == 1 + 4 + (3 if success else 0)


def test_g3_tracker_and_crossbow_on_elkhounds(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.south]
warm = ["Elkhounds"]
[cultures.red]
unassigned = 1
elders = {5 = 1}          # the tracker re-rolls 4s on land hunts
tableau = ["Crossbow trader"]  # the imported crossbow: 3s are 1s on land hunts
hunters = {Elkhounds = 1}
""",
    )
    text = roll(game, greenland, "Elkhounds", [4, 3], {"reroll": [4], "modify": "yes"})
    assert text == (
        "Red hunts Elkhounds: 4, re-rolls the 4: 3, the 3 becomes a 1 (Imported Crossbow) "
        "→ 1 hit of 1: success; 1 baby"
    )
    assert culture(game, greenland, "red")["unassigned"] == 3


# ---- G4: results of a successful hunt -------------------------------------------------
def test_g4_harbor_seal_three_1s_bring_one_baby(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.north]
warm = ["Harbor Seal"]
[cultures.yellow]
unassigned = 1
hunters = {"Harbor Seal" = 3}
energy = 0
""",
    )
    before = culture(game, greenland, "yellow")
    text = roll(game, greenland, "Harbor Seal", [1, 1, 1], {"take_trophy": "no"})
    assert "→ 3 hits of 2: success; 1 baby, 1 energy" in text
    yellow = culture(game, greenland, "yellow")
    assert yellow["valhalla"] == before["valhalla"] - 1 and yellow["unassigned"] == 1 + 3 + 1
    assert yellow["energy"] == 1


DOGS = """
first_player = "red"
[rows.north]
warm = ["Dogs"]
[cultures.yellow]
unassigned = 1
hunters = {Dogs = 2}
[cultures.green]
unassigned = 1
hunters = {Dogs = 3}
"""


def test_g4_dogs_the_thule_succeed_first_and_the_tunit_go_home(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, DOGS)
    view = Greenland(game.state, Cards.of(greenland))
    assert hunt_order(view, "dogs") == ["yellow", "green"]  # A4: least hunters first
    with pytest.raises(ProcedureError, match="A4"):
        roll(game, greenland, "Dogs", [], seat="green")
    text = roll(game, greenland, "Dogs", [1, 5])  # the Tunit roll no dice
    assert text == (
        "Yellow hunts Dogs: 1 5 → 1 hit of 1: success; 2 babies, 1 ivory; "
        "Green go home unsuccessful (G4)"
    )
    assert culture(game, greenland, "green")["unassigned"] == 4
    assert game.state.contents("dogs", "hunters") == []
    assert names(game, greenland, "north_warm") == ["Dogs"]


def test_a4_ties_go_in_player_order_and_a_failure_lets_the_next_roll(greenland, tmp_path) -> None:
    position = DOGS.replace('"red"', '"green"').replace("Dogs = 3", "Dogs = 2")
    game = play(greenland, tmp_path, position)
    view = Greenland(game.state, Cards.of(greenland))
    assert hunt_order(view, "dogs") == ["green", "yellow"]
    text = roll(game, greenland, "Dogs", [3, 5, 1, 3])
    assert text == (
        "Hunt on Dogs: Green hunts Dogs: 3 5 → 0 hits of 1; "
        "Yellow hunts Dogs: 1 3 → 1 hit of 1: success, 2 babies, 1 ivory"
    )


VINLAND = """
[rows.south]
warm = ["Vinland"]
[new_world]
Vinland = "hostile"
[cultures.green]
unassigned = 1
elders = {6 = 1}
colonists = {Vinland = 3}
energy = 0
iron = 0
"""


def test_g4_hostile_vinland_gains_colonists_and_the_originals_die(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, VINLAND)
    text = roll(game, greenland, "Vinland", [2, 2, 6], {"pay_iron": "no"})
    assert text == (
        "Green hunts Vinland: 2 2 6 → 2 hits of 1: success; the 2, 2 and 6 kill 3 colonists; "
        "2 colonists, 2 energy, 1 iron"
    )
    green = culture(game, greenland, "green")
    assert green["colonists"]["Vinland"] == 2 and (green["energy"], green["iron"]) == (2, 1)


def test_g4_example_the_imported_sword_rerolls_the_6_in_hostile_vinland(
    greenland, tmp_path
) -> None:
    """G4's New World example: three Tunit colonists in warm hostile Vinland roll 2, 2, 6; with
    the imported sword (the Sword trader's import) the 6 may be re-rolled. The sword re-rolls
    for the archer icon (F2), which is hostile Vinland's biome type (the raid type, B1)."""
    position = VINLAND.replace("iron = 0\n", 'iron = 0\ntableau = ["Sword trader"]\n')
    game = play(greenland, tmp_path, position)
    with pytest.raises(ChoiceNeeded) as asked:
        roll(game, greenland, "Vinland", [2, 2, 6])
    assert asked.value.key == "reroll" and asked.value.options == ["6"]
    assert "Imported Sword" in asked.value.text
    game.table.random.clear_forced()
    text = roll(game, greenland, "Vinland", [2, 2, 6, 1], {"reroll": [6], "pay_iron": "no"})
    assert text == (
        "Green hunts Vinland: 2 2 6, re-rolls the 6: 1 → 3 hits of 1: success; "
        "the 2 and 2 kill 2 colonists; 2 colonists, 2 energy, 1 iron"
    )
    green = culture(game, greenland, "green")
    assert green["colonists"]["Vinland"] == 1 + 2 and (green["energy"], green["iron"]) == (2, 1)


def test_g4_f4_hostile_vinland_the_new_iron_saves_the_colonists(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, VINLAND)
    with pytest.raises(ChoiceNeeded) as asked:  # the iron the hunt brings can pay (G4 example)
        roll(game, greenland, "Vinland", [2, 2, 6])
    assert asked.value.key == "pay_iron"
    game.table.random.clear_forced()
    text = roll(game, greenland, "Vinland", [2, 2, 6], {"pay_iron": "yes"})
    assert "an iron cancels the losses (F4); 2 colonists, 2 energy, 1 iron" in text
    green = culture(game, greenland, "green")
    assert green["colonists"]["Vinland"] == 5 and (green["energy"], green["iron"]) == (2, 0)


def test_f4_five_3s_in_markland_an_iron_keeps_the_colonists(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.north]
warm = ["Markland"]
[new_world]
Markland = "hostile"
[cultures.green]
unassigned = 1
colonists = {Markland = 5}
iron = 1
""",
    )
    text = roll(game, greenland, "Markland", [3, 3, 3, 3, 3], {"pay_iron": "yes"})
    assert text == (
        "Green hunts Markland: 3 3 3 3 3 → 0 hits of 1; the 3, 3, 3, 3 and 3 kill 5 colonists; "
        "an iron cancels the losses (F4)"
    )
    green = culture(game, greenland, "green")
    assert green["colonists"]["Markland"] == 5 and green["iron"] == 0


def test_g4_bog_iron_snowflake_paid_or_the_hunt_fails(greenland, tmp_path) -> None:
    position = """
[rows.south]
warm = ["Bog Iron"]
[cultures.red]
alpha = "Bog Iron"        # on metallurgy he rolls like any hunter (E7)
hunters = {"Bog Iron" = 3}
elders = {2 = 1, 6 = 1}
energy = 2
iron = 0
"""
    game = play(greenland, tmp_path, position)
    text = roll(game, greenland, "Bog Iron", [1, 1, 5], {"snowflake": "energy"})
    assert text == (
        "Red hunts Bog Iron: 1 1 5 → 2 hits of 2: success; pays the snowflake with 1 energy; 1 iron"
    )
    red = culture(game, greenland, "red")
    assert (red["energy"], red["iron"]) == (1, 1)

    game = play(greenland, tmp_path, position)
    text = roll(game, greenland, "Bog Iron", [1, 1, 5], {"snowflake": "none"})
    assert text.endswith("does not pay the snowflake: the hunt fails (G4)")
    assert culture(game, greenland, "red")["iron"] == 0

    game = play(greenland, tmp_path, position)
    with pytest.raises(ChoiceNeeded) as asked:  # elders on two ranks: which one dies (D3)
        roll(game, greenland, "Bog Iron", [1, 1, 5], {"snowflake": "elder"})
    assert asked.value.key == "snowflake_elder" and asked.value.options == ["rank2", "rank6"]
    game.table.random.clear_forced()
    roll(game, greenland, "Bog Iron", [1, 1, 5], {"snowflake": "elder", "snowflake_elder": "rank6"})
    red = culture(game, greenland, "red")
    assert red["elders"]["6"] == 0 and red["elders"]["2"] == 1 and red["iron"] == 1


def test_b4_woodpile_holds_8_energy(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.north]
warm = ["Walrus"]
[cultures.red]
unassigned = 1
hunters = {Walrus = 2}
energy = 7
""",
    )
    text = roll(game, greenland, "Walrus", [1, 1])
    assert "4 babies, 1 energy (1 lost: the woodpile holds 8, B4), 1 ivory" in text
    assert culture(game, greenland, "red")["energy"] == 8


def test_g4_babies_are_limited_by_valhalla(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.north]
warm = ["Walrus"]
[cultures.red]
unassigned = 11
elders = {6 = 4}
hunters = {Walrus = 2}
""",
    )
    assert culture(game, greenland, "red")["valhalla"] == 2
    text = roll(game, greenland, "Walrus", [1, 1])
    assert "2 babies of 4 (Valhalla holds no more)" in text
    red = culture(game, greenland, "red")
    assert red["valhalla"] == 0 and red["unassigned"] == 11 + 2 + 2


# ---- G5, G6, G7: trophies and hand cards ---------------------------------------------
def test_g5_walrus_triples_claim_the_trophy_without_success(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[rows.north]
warm = ["Caribou", "Walrus", "Harbor Seal"]
[cultures.yellow]
unassigned = 1
hunters = {Walrus = 4}    # Kirima, in the Thule tableau, re-rolls 4s on maritime hunts
""",
    )
    text = roll(game, greenland, "Walrus", [1, 4, 4, 4], {"reroll": "none", "take_trophy": "yes"})
    assert text == (
        "Yellow hunts Walrus: 1 4 4 4 → 1 hit of 2; "
        "takes Walrus as a trophy (G5); it is not replaced (G7)"
    )
    assert names(game, greenland, "trophies_yellow") == ["Walrus"]
    assert names(game, greenland, "north_warm") == ["Caribou", "Harbor Seal"]
    assert culture(game, greenland, "yellow")["unassigned"] == 5


MUSK_OXEN = """
[rows.north]
warm = ["Caribou", "Musk Oxen", "Harbor Seal"]
[cultures.yellow]
alpha = "Musk Oxen"
hunters = {"Musk Oxen" = 3}
energy = 0
"""


def test_g6_musk_oxen_triples_go_into_the_hand_and_are_replaced(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, MUSK_OXEN)
    top = game.state.places["north_deck"].contents[-1]
    text = roll(game, greenland, "Musk Oxen", [1, 1], {"alpha": "yes", "take_card": "yes"})
    view = Greenland(game.state, Cards.of(greenland))
    assert text == (
        "Yellow hunts Musk Oxen: the Alpha's 1 and 1 1 → 3 hits of 3: success; "
        f"2 babies, 1 energy; takes Musk Oxen into the hand (G6); {view.name(top)} replaces it (G7)"
    )
    assert game.state.places["hand_yellow"].contents == ["musk-oxen"]
    assert game.state.places["north_warm"].contents == ["caribou", top, "harbor-seal"]
    assert game.state.pieces[top].face_up
    yellow = culture(game, greenland, "yellow")
    assert yellow["unassigned"] == 3 + 2 and yellow["alpha"] == "unassigned"


def test_g7_others_may_hunt_the_replacement_after_a_failed_hunt(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        MUSK_OXEN + '[cultures.green]\nunassigned = 1\nhunters = {"Musk Oxen" = 4}\n',
    )
    top = game.state.places["north_deck"].contents[-1]
    replacement = Greenland(game.state, Cards.of(greenland)).name(top)
    green = {
        f"green.{k}": "no" for k in ("alpha", "take_trophy", "take_card", "pay_iron", "modify")
    }
    choices = {"alpha": "no", "take_card": "yes", "hunt_replacement": "yes", **green}
    choices |= {"green.reroll": "none", "green.snowflake": "none"}
    text = roll(game, greenland, "Musk Oxen", [4, 4, 4], choices)  # the Tunit's dice are not forced
    assert text.startswith(
        "Hunt on Musk Oxen: Yellow hunts Musk Oxen: 4 4 4 → 0 hits of 3, "
        f"takes Musk Oxen into the hand (G6); {replacement} replaces it (G7), "
        f"Green hunt {replacement}; Green hunts {replacement}: "
    )
    assert game.state.contents(top, "hunters") == []


# ---- C3: the survivalist Alpha ------------------------------------------------------
def test_c3_survivalist_alpha_auto_rolls_a_2_dies_and_is_reborn(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
variant = "survivalist"
[rows.north]
warm = ["Polar Bear"]
[cultures.yellow]
alpha = "Polar Bear"
hunters = {"Polar Bear" = 5}
iron = 2                  # no iron rule in the survivalist game
""",
    )
    with pytest.raises(ChoiceNeeded, match="automatic 2"):
        roll(game, greenland, "Polar Bear", [])
    text = roll(game, greenland, "Polar Bear", [1, 4, 5, 6], {"alpha": "yes"})
    assert text == (
        "Yellow hunts Polar Bear: the Alpha's 2 and 1 4 5 6 → 2 hits of 2: success; "
        "the 2 kills the Alpha; 4 babies, the Alpha reborn first (E7)"
    )
    yellow = culture(game, greenland, "yellow")
    assert yellow["alpha"] == "unassigned" and yellow["unassigned"] == 4 + 4
    assert yellow["iron"] == 2


# ---- G1: raids ------------------------------------------------------------------------
def test_g1_sabine_raid_one_dies_the_other_marries(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[cultures.red]
unassigned = 1
elders = {4 = 1}
hunters = {Kirima = 2}
iron = 0
[cultures.green]
unassigned = 1
husbands = {Kirima = 1}
""",
    )
    text = roll(game, greenland, "Kirima", [3, 5])
    assert text == (
        "Red raids Kirima: 3 5; the 3 kills a raider; "
        "the raid succeeds: a raider marries Kirima (G1, F1); Green's husband is killed"
    )
    view = Greenland(game.state, Cards.of(greenland))
    assert game.state.pieces[view.husband("kirima")].owner == "red"
    assert view.wives("red") == ["kirima"] and view.has("red", "reroll 4 maritime")
    assert culture(game, greenland, "green")["husbands"] == {}
    assert culture(game, greenland, "red")["unassigned"] == 1


LIVESTOCK = """
turn = 3
[cultures.yellow]
unassigned = 1
elders = {4 = 1, 6 = 1}
hunters = {Cattle = 2}
iron = 0
"""


def test_g1_livestock_raid_marks_the_card_raided_this_turn(greenland, tmp_path) -> None:
    game = play(greenland, tmp_path, LIVESTOCK)
    text = roll(game, greenland, "Cattle", [1, 6])
    assert (
        text
        == "Yellow raids Cattle: 1 6; the raid succeeds: Yellow takes Cattle's babies this turn (G1, H2)"
    )
    assert game.state.pieces["cattle-sheep"].props["raided"] == {"by": "yellow", "turn": 3}
    assert culture(game, greenland, "yellow")["unassigned"] == 3

    game = play(greenland, tmp_path, LIVESTOCK)
    text = roll(game, greenland, "Cattle", [3, 3])
    assert text.endswith("the 3 and 3 kill 2 raiders; the raid fails (no raider survives, G1)")
    assert "raided" not in game.state.pieces["cattle-sheep"].props


def test_e5_an_invention_cannot_be_raided(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        """
[cultures.red]
tableau = ["Slit Goggles"]
[cultures.yellow]
unassigned = 1
hunters = {"Slit Goggles" = 1}
""",
    )
    with pytest.raises(ProcedureError, match="E5"):
        roll(game, greenland, "Slit Goggles", [1])


# ---- choices and undo ------------------------------------------------------------------
def test_a4_several_cultures_are_asked_by_name_and_nothing_changes(greenland, tmp_path) -> None:
    game = play(
        greenland,
        tmp_path,
        DOGS.replace(
            "unassigned = 1\nhunters = {Dogs = 2}", 'alpha = "Dogs"\nhunters = {Dogs = 2}'
        ),
    )
    seq, digest = game.table.seq, game.state.digest()
    with pytest.raises(ChoiceNeeded) as asked:
        roll(game, greenland, "Dogs", [])
    assert asked.value.key == "yellow.alpha"
    assert (game.table.seq, game.state.digest()) == (seq, digest)
    text = roll(game, greenland, "Dogs", [1, 5], {"yellow.alpha": "no"})
    assert text.startswith("Yellow hunts Dogs: 1 5 → 1 hit of 1: success")


def test_undo_of_a_whole_hunt_restores_the_table(greenland, tmp_path) -> None:
    """One undo step: the card to the hand and its replacement, babies, disks, a new ivory (B4)."""
    game = play(greenland, tmp_path, MUSK_OXEN.replace("energy = 0", "ivory = 12"))
    digest = game.state.digest()
    roll(game, greenland, "Musk Oxen", [1, 1], {"alpha": "yes", "take_card": "yes"})
    assert game.state.digest() != digest
    game.table.undo("yellow")
    assert game.state.digest() == digest

    game = play(greenland, tmp_path, WALRUS_COLD.replace("ivory = 0", "ivory = 12"))
    digest, ivory = game.state.digest(), ivory_disks(game)
    assert game.state.places["supply_ivory"].contents == []
    text = roll(game, greenland, "Walrus", [1, 1, 1, 4, 5, 6], {"take_trophy": "no"})
    assert text.endswith("4 babies, 2 energy, 1 ivory")
    assert len(ivory_disks(game)) == len(ivory) + 1, "ivory is unlimited: a substitute disk (B4)"
    assert culture(game, greenland, "red")["ivory"] == 13
    game.table.undo("red")
    assert game.state.digest() == digest and ivory_disks(game) == ivory


def ivory_disks(game) -> set[str]:
    return {p.id for p in game.state.pieces.values() if p.kind == "ivory"}
