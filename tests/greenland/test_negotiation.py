"""The negotiation and attacks phase (F): the rulebook's examples with their dice, by section."""

from __future__ import annotations

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.hunt import hunt_card
from rules_assist.greenland.negotiation import (
    attack,
    attackers,
    divorce,
    leave,
    marry,
    negotiation_order,
    pacify,
    resolve_new_world,
)
from rules_assist.greenland.reading import read
from rules_assist.greenland.sequence import next_phase, phase_status
from rules_assist.procedures import ChoiceNeeded, ProcedureError

from .tables import build, cli_run, game_file, opened, run, view


def label(change) -> str:
    return change.entry.command.label


def culture(game, greenland, colour: str) -> dict:
    return read(game.state, Cards.of(greenland))["cultures"][colour]


def forced(game, faces) -> None:
    game.table.random.force_faces(list(faces))


# ---- F2: the Sabine raid example -------------------------------------------------------
SABINE = """
phase = "negotiation"
turn = 2
[cultures.red]
unassigned = 1
hunters = {Birgitta = 2}
iron = 0
[cultures.yellow]
unassigned = 1
elders = {4 = 1, 6 = 1}
hunters = {Birgitta = 2}
iron = 2
tableau = ["Sword trader"]
"""


def test_f2_example_sabine_raid_spoiled(greenland, tmp_path) -> None:
    """F2's example, then the raid roll of G1 (hunt.hunt_card, raid.py) in phase 4.

    The attacks are this module's procedures; the raid is the hunt's raid roll,
    run after next_phase: the attack decides who is left, the raid roll the rest.
    """
    game = build(tmp_path, SABINE)
    v = view(game)
    # A3: the Thule have more iron and roll first; the Norse defend without a war chief
    assert negotiation_order(v)[0] == "yellow"
    assert attackers(v, "birgitta") == ["yellow", "red"]
    # the Thule roll 5 and 6; the imported sword re-rolls the 6: a 1, one hit
    forced(game, [5, 6, 1])
    change = run(game, attack, {"reroll": "6"}, colour="yellow", card="birgitta")
    assert game.table.random.forced_pending == 0
    assert label(change) == (
        "Yellow attacks on Birgitta: 5 6, re-rolls the 6: 1 (Imported Sword) → 1 hit; "
        "Red loses a cube"
    )
    assert culture(game, greenland, "red")["hunters"] == {"Birgitta": 1}
    # the Norse defender kills a Thule automatically; the Thule keep their iron
    change = run(game, attack, {"pay_iron_yellow": "no"}, colour="red", card="birgitta")
    assert label(change) == (
        "Red defends Birgitta: 1 defender strikes automatically → 1 hit; Yellow loses a cube; "
        "the surviving defenders go home (F2)"
    )
    yellow = culture(game, greenland, "yellow")
    assert yellow["hunters"] == {"Birgitta": 1} and yellow["iron"] == 2
    assert culture(game, greenland, "red")["hunters"] == {}
    with pytest.raises(ProcedureError, match="one round each"):
        run(game, attack, {}, colour="yellow", card="birgitta")
    # phase 4: the surviving Thule rolls a 3, which kills him and spoils the raid (G1)
    run(game, next_phase)
    forced(game, [3])
    change = run(game, hunt_card, {"pay_iron": "no"}, card="birgitta")
    assert label(change).endswith("the raid fails (no raider survives, G1)")
    assert view(game).husband("birgitta") is None
    assert culture(game, greenland, "yellow")["hunters"] == {}


def test_f2_attack_needs_a_war_chief(greenland, tmp_path) -> None:
    game = build(tmp_path, SABINE.replace("elders = {4 = 1, 6 = 1}", "elders = {6 = 1}"))
    with pytest.raises(ProcedureError, match="war chief"):
        run(game, attack, {}, colour="yellow", card="birgitta")
    assert attackers(view(game), "birgitta") == ["red"]


# ---- F2: the cold side, F4: the iron rule ------------------------------------------------
WALRUS = """
phase = "negotiation"
[rows.north]
cold = ["Walrus"]
warm = ["Dogs"]
[cultures.yellow]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 3, Dogs = 3}
iron = 0
[cultures.green]
unassigned = 1
alpha = "Walrus"
hunters = {Walrus = 3, Dogs = 2}
iron = IRON
"""


def test_f2_cold_side_hits_on_1_only(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0"))
    forced(game, [1, 2, 2])
    change = run(game, attack, {"hits_green": "hunter"}, colour="yellow", card="walrus")
    assert label(change) == "Yellow attacks on Walrus: 1 2 2 → 1 hit; Green loses a cube"
    green = culture(game, greenland, "green")
    assert green["hunters"]["Walrus"] == 2 and green["alpha"] == "Walrus"
    # on the warm side the 2s hit too; the victim has one kind there: no question
    forced(game, [1, 2, 5])
    change = run(game, attack, {}, colour="yellow", card="dogs")
    assert label(change).endswith("1 2 5 → 2 hits; Green loses a cube and a cube")
    assert "Dogs" not in culture(game, greenland, "green")["hunters"]


def test_f2_the_victim_chooses_when_the_alpha_is_there(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0"))
    forced(game, [1, 1, 4])
    with pytest.raises(ChoiceNeeded) as need:
        run(game, attack, {}, colour="yellow", card="walrus")
    assert need.value.key == "hits_green"
    forced(game, [1, 1, 4])
    change = run(game, attack, {"hits_green": "alpha,hunter"}, colour="yellow", card="walrus")
    assert label(change).endswith("Green loses the alpha and a cube")
    assert culture(game, greenland, "green")["alpha"] == "valhalla"


def test_f4_iron_rule_cancels_attack_losses(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "1"))
    forced(game, [1, 1, 1])
    with pytest.raises(ChoiceNeeded) as need:
        run(game, attack, {}, colour="yellow", card="walrus")
    assert need.value.key == "pay_iron_green"
    forced(game, [1, 1, 1])
    change = run(game, attack, {"pay_iron_green": "yes"}, colour="yellow", card="walrus")
    assert label(change).endswith("Green pays an iron to cancel the losses (F4)")
    green = culture(game, greenland, "green")
    assert green["iron"] == 0 and green["hunters"]["Walrus"] == 3


# ---- F3: the New World turns hostile, pacification -----------------------------------------
NEW_WORLD = """
phase = "negotiation"
turn = 3
[rows.north]
warm = ["Markland"]
[cultures.red]
elders = {6 = 2}
colonists = {Markland = 4}
ivory = 1
[cultures.yellow]
elders = {6 = 1}
colonists = {Markland = COUNT}
"""


def test_f3_more_than_6_turns_hostile_and_pacify(greenland, tmp_path) -> None:
    game = build(tmp_path, NEW_WORLD.replace("COUNT", "2"))
    change = run(game, resolve_new_world)
    assert label(change).endswith("no New World card turns hostile")
    assert game.state.pieces["markland"].props["card"] == "markland-peaceful"

    game = build(tmp_path, NEW_WORLD.replace("COUNT", "3"))
    with pytest.raises(ProcedureError, match="peaceful already"):
        run(game, pacify, colour="red", card="markland")
    change = run(game, resolve_new_world)
    assert "Markland has 7 cubes and turns hostile" in label(change)
    assert game.state.pieces["markland"].props["card"] == "markland-hostile"
    assert len(game.state.places["markland"].contents) == 7  # the colonists stay
    with pytest.raises(ProcedureError, match="no ivory"):
        run(game, pacify, colour="yellow", card="markland")
    change = run(game, pacify, colour="red", card="markland")
    assert label(change) == "Red pays an ivory: Markland is peaceful again (F3)"
    assert game.state.pieces["markland"].props["card"] == "markland-peaceful"
    assert culture(game, greenland, "red")["ivory"] == 0
    game.table.undo("test")
    assert game.state.pieces["markland"].props["card"] == "markland-hostile"


def test_f3_pacify_comes_after_resolving(greenland, tmp_path) -> None:
    game = build(tmp_path, NEW_WORLD.replace("COUNT", "1") + '[new_world]\nMarkland = "hostile"\n')
    with pytest.raises(ProcedureError, match="resolve the New World first"):
        run(game, pacify, colour="red", card="markland")


# ---- F1: exogamy, monogamy, divorce; F: leaving ------------------------------------------
MARRIAGE = """
phase = "negotiation"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 1
hunters = {Shark = 2}
[cultures.green]
unassigned = 1
elders = {4 = 1}
hunters = {Shark = 1}
"""


def test_f1_monogamy_and_divorce(greenland, tmp_path) -> None:
    game = build(tmp_path, MARRIAGE)
    choices = {"consent_green": "yes", "bride_yellow": "yes"}
    change = run(game, marry, choices, colour="red", cube_or_card="shark", daughter="kirima")
    assert label(change) == (
        "Red marries Kirima (F1): everyone present agrees (F); a hunter marries Kirima (F1)"
    )
    v = view(game)
    assert game.state.pieces[v.husband("kirima")].owner == "red"
    assert v.has("red", "reroll 4 maritime")  # her abilities at once (F1)
    with pytest.raises(ProcedureError, match="one husband a daughter"):
        run(game, marry, choices, colour="red", cube_or_card="shark", daughter="kirima")
    with pytest.raises(ProcedureError, match="own tableau"):
        run(game, marry, {}, colour="red", cube_or_card="shark", daughter="birgitta")
    with pytest.raises(ProcedureError, match="no husband"):
        run(game, divorce, colour="green", daughter="kirima")
    change = run(game, divorce, colour="red", daughter="kirima")
    assert label(change) == "Red divorces Kirima: the husband is unassigned (F)"
    assert view(game).husband("kirima") is None
    assert culture(game, greenland, "red")["unassigned"] == 2


def test_f_leaving_without_consent_is_refused(greenland, tmp_path) -> None:
    game = build(tmp_path, MARRIAGE)
    with pytest.raises(ChoiceNeeded) as need:
        run(game, leave, colour="red", card="shark")
    assert need.value.key == "consent_green"
    entries = len(game.table.entries)
    with pytest.raises(ProcedureError, match="consent of everyone present"):
        run(game, leave, {"consent_green": "no"}, colour="red", card="shark")
    assert len(game.table.entries) == entries
    assert culture(game, greenland, "red")["hunters"] == {"Shark": 2}
    change = run(game, leave, {"consent_green": "yes"}, colour="red", card="shark")
    assert label(change).endswith("2 unassigned")
    assert culture(game, greenland, "red")["unassigned"] == 3
    # the bride's owner must agree too
    game = build(tmp_path, MARRIAGE)
    choices = {"consent_green": "yes", "bride_yellow": "no"}
    with pytest.raises(ProcedureError, match="does not give Kirima"):
        run(game, leave, choices, colour="red", card="shark", daughter="kirima")


def test_negotiation_phase_only(greenland, tmp_path) -> None:
    game = build(tmp_path, MARRIAGE.replace('phase = "negotiation"', 'phase = "hunt"'))
    with pytest.raises(ProcedureError, match="negotiation phase"):
        run(game, leave, {"consent_green": "yes"}, colour="red", card="shark")


def test_a3_phase_panel_offers_attacks_and_the_new_world(greenland, tmp_path) -> None:
    game = build(tmp_path, MARRIAGE)
    labels = [s.label for s in phase_status(game.state, greenland).steps]
    assert "Green attacks on Shark (F2)" in labels
    assert "Resolve the New World (F3)" in labels
    assert not any(lab.startswith("Red attacks") for lab in labels)  # no war chief


# ---- the command line ------------------------------------------------------------------
def test_cli_attack_writes_out_and_a_missing_choice_exits_2(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, WALRUS.replace("IRON", "1"))
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "attack", "--seat", "yellow", "--card", "Walrus", "--dice", "1,1,6"
    )
    assert code == 2 and text == "" and err.count("\n") == 1
    assert "choice 'pay_iron_green'" in err and not out.exists()
    code, text, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "attack",
        "--seat",
        "yellow",
        "--card",
        "walrus",
        "--dice",
        "1,1,6",
        "--choice",
        "pay_iron_green=no",
        "--choice",
        "hits_green=hunter,hunter",
    )
    assert code == 0, err
    assert text.strip() == "Yellow attacks on Walrus: 1 1 6 → 2 hits; Green loses a cube and a cube"
    game = opened(out)
    assert game.table.entries[-1].command.procedure == "greenland.attack"
    green = culture(game, greenland, "green")
    assert green["hunters"]["Walrus"] == 1 and green["alpha"] == "Walrus"


def test_cli_new_world_leave_marry_divorce(greenland, tmp_path, capsys) -> None:
    (tmp_path / "a").mkdir()
    file = game_file(tmp_path / "a", NEW_WORLD.replace("COUNT", "3"))
    code, text, err, out = cli_run(capsys, tmp_path, file, "new-world")
    assert code == 0 and "turns hostile" in text, err
    file = game_file(tmp_path, MARRIAGE)
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "leave", "--seat", "red", "--card", "Shark"
    )
    assert code == 2 and "consent_green" in err and err.count("\n") == 1
    argv = ["--seat", "red", "--card", "Shark", "--daughter", "Kirima"]
    yes = ["--choice", "consent_green=yes", "--choice", "bride_yellow=yes"]
    code, text, err, out = cli_run(capsys, tmp_path, file, "marry", *argv, *yes)
    assert code == 0 and text.startswith("Red marries Kirima"), err
    married = tmp_path / "married.jsonl"
    married.write_bytes(out.read_bytes())
    argv = ["--seat", "red", "--daughter", "kirima"]
    code, text, err, _ = cli_run(capsys, tmp_path, married, "divorce", *argv)
    assert code == 0 and "divorces Kirima" in text, err
