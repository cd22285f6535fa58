"""The negotiation and attacks phase (F): the rulebook's examples with their dice, by section."""

from __future__ import annotations

import pytest

from rules_assist.driver import CHANCE, Driver
from rules_assist.greenland import events
from rules_assist.greenland.bots import GreedyBot, RandomBot
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.hunt import hunt_card
from rules_assist.greenland.negotiation import (
    agree_peace,
    attack,
    attackers,
    chief_order,
    divorce,
    leave,
    marry,
    negotiation_order,
    obligations,
    pacify,
    resolve_new_world,
)
from rules_assist.greenland.reading import read
from rules_assist.greenland.turn import finish, next_phase, status
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from rules_assist.simulate import play
from tabletop.core import Mode, Policy, actions
from tabletop.modules.rules import game_of

from .tables import SABINE, build, cli_run, game_file, opened, run, turn_status, view


def label(change) -> str:
    return change.entry.command.label


def culture(game, greenland, colour: str) -> dict:
    return read(game.state, Cards.of(greenland))["cultures"][colour]


def forced(game, faces) -> None:
    game.table.random.force_faces(list(faces))


# ---- F2: the Sabine raid example (tables.SABINE) ----------------------------------------


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
    assert label(change).endswith("Green loses a cube and the alpha")
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
    labels = [s.label for s in turn_status(game, greenland).actions]
    assert "Green must attack on Shark (A3)" in labels  # the negotiations there failed
    assert "Green proposes peace on Shark (A3)" in labels
    assert "Resolve the New World (F3)" in labels
    assert not any(lab.startswith("Red attacks") for lab in labels)  # no war chief


# ---- A3: the order of the attacks, and the war chiefs who must attack ----------------------
TIED = """
phase = "negotiation"
first_player = "FIRST"
[rows.north]
cold = ["Walrus"]
[cultures.yellow]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 2}
iron = 1
[cultures.green]
unassigned = 1
elders = {4 = 1}
hunters = {Walrus = 3}
iron = IRON
"""


def labels(game, greenland) -> list[str]:
    return [s.label for s in turn_status(game, greenland).actions]


def test_a3_most_iron_attacks_first_ties_in_player_order(greenland, tmp_path) -> None:
    # tied on iron, green first in player order (green, red, yellow): green attacks first
    game = build(tmp_path, TIED.replace("FIRST", "green").replace("IRON", "1"))
    assert chief_order(view(game), "walrus") == ["green", "yellow"]
    with pytest.raises(ProcedureError, match=r"Yellow cannot attack on Walrus yet: Green .*\(A3"):
        run(game, attack, {}, colour="yellow", card="walrus")
    assert labels(game, greenland)[:2] == [
        "Green must attack on Walrus (A3)",
        "Green proposes peace on Walrus (A3)",
    ]
    assert not any(lab.startswith("Yellow") for lab in labels(game, greenland))
    forced(game, [5, 5, 5])
    run(game, attack, {}, colour="green", card="walrus")
    assert labels(game, greenland)[0] == "Yellow must attack on Walrus (A3)"
    forced(game, [6, 6])
    change = run(game, attack, {}, colour="yellow", card="walrus")
    assert label(change) == "Yellow attacks on Walrus: 6 6 → 0 hits"
    # tied, yellow first in player order (yellow, green, red)
    game = build(tmp_path, TIED.replace("FIRST", "yellow").replace("IRON", "1"))
    with pytest.raises(ProcedureError, match="Green cannot attack on Walrus yet: Yellow"):
        run(game, attack, {}, colour="green", card="walrus")
    # more iron goes before player order
    game = build(tmp_path, TIED.replace("FIRST", "yellow").replace("IRON", "2"))
    assert chief_order(view(game), "walrus") == ["green", "yellow"]
    with pytest.raises(ProcedureError, match="Yellow cannot attack on Walrus yet: Green"):
        run(game, attack, {}, colour="yellow", card="walrus")


def test_a3_a_vengeful_defender_keeps_nobody_waiting(greenland, tmp_path) -> None:
    """F2, A3: a defender without a war chief and with more iron strikes first; it need not
    strike, so it keeps the war chief behind it waiting for nothing."""
    game = build(tmp_path, SABINE.replace("iron = 0", "iron = 3"))
    assert negotiation_order(view(game))[0] == "red"
    assert chief_order(view(game), "birgitta") == ["yellow"]
    assert obligations(view(game)) == [("yellow", "birgitta")]
    assert labels(game, greenland)[:2] == [
        "Red defends Birgitta (F2)",
        "Yellow must attack on Birgitta (A3)",
    ]
    change = run(game, attack, {"pay_iron_yellow": "no"}, colour="red", card="birgitta")
    assert label(change).startswith("Red defends Birgitta")


def test_f2_defenders_strike_in_most_iron_order(greenland, tmp_path) -> None:
    """F2's example, A3: the Thule raiders have more iron and roll first; the Norse defenders
    strike after them, not before (procedure, phase panel and command line alike)."""
    game = build(tmp_path, SABINE)
    assert attackers(view(game), "birgitta") == ["yellow", "red"]
    with pytest.raises(
        ProcedureError,
        match=r"Red cannot defend Birgitta yet: Yellow attacks there first \(A3, F2",
    ):
        run(game, attack, {}, colour="red", card="birgitta")
    assert not any(
        lab.startswith("Red") or lab.startswith("Norse") for lab in labels(game, greenland)
    )
    forced(game, [5, 6, 6])
    run(game, attack, {"reroll": "6"}, colour="yellow", card="birgitta")
    assert "Red defends Birgitta (F2)" in labels(game, greenland)
    change = run(game, attack, {"pay_iron_yellow": "no"}, colour="red", card="birgitta")
    assert label(change).startswith("Red defends Birgitta: 2 defenders strike automatically")


def test_cli_f2_a_defender_out_of_order(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, SABINE)
    code, _, err, out = cli_run(
        capsys, tmp_path, file, "attack", "--seat", "red", "--card", "Birgitta"
    )
    assert code != 0 and "Yellow attacks there first (A3, F2" in err
    assert not out.exists()


def test_f2_a_defender_with_more_iron_passes_once_the_raider_attacks(greenland, tmp_path) -> None:
    """A3, F2: the defender's turn comes first; when the war chief behind it attacks first,
    the defender has let its turn go by."""
    game = build(tmp_path, SABINE.replace("iron = 0", "iron = 3"))
    forced(game, [5, 6, 6])
    run(game, attack, {"reroll": "6", "pay_iron_red": "no"}, colour="yellow", card="birgitta")
    with pytest.raises(ProcedureError, match=r"Red has passed on Birgitta: Yellow, with less iron"):
        run(game, attack, {"pay_iron_yellow": "no"}, colour="red", card="birgitta")
    assert not any(lab.startswith("Red defends") for lab in labels(game, greenland))


def test_a3_failed_negotiations_block_the_next_phase(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0"))
    assert obligations(view(game)) == [("yellow", "dogs"), ("yellow", "walrus")]
    with pytest.raises(ProcedureError, match=r"Yellow must attack on Dogs \(A3\)"):
        run(game, next_phase)
    now = turn_status(game, greenland)
    assert (
        "Still to attack: Yellow must attack on Dogs (A3); Yellow must attack on Walrus (A3)"
        in (now.lines)
    )
    # a culture that has finished the phase still owes its attacks: its move
    for colour in ("yellow", "green", "red"):
        run(game, finish, colour=colour)
    assert status(view(game))["whose_move"] == "yellow"
    assert status(view(game))["text"] == "Yellow must attack on Dogs (A3)"
    forced(game, [6, 6, 6])
    run(game, attack, {}, colour="yellow", card="dogs")
    # the attacks there have begun: no peace on Dogs any more
    with pytest.raises(ProcedureError, match="negotiations there have failed"):
        run(game, agree_peace, {"consent_green": "yes"}, colour="yellow", card="dogs")
    with pytest.raises(ProcedureError, match=r"Yellow must attack on Walrus \(A3\)"):
        run(game, next_phase)
    forced(game, [6, 6, 6])
    run(game, attack, {}, colour="yellow", card="walrus")
    assert obligations(view(game)) == []
    run(game, next_phase)
    assert game.state.counters["phase"] == "hunt"


def test_a3_peace_lifts_the_obligation(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0"))
    with pytest.raises(ChoiceNeeded) as need:
        run(game, agree_peace, colour="yellow", card="walrus")
    assert need.value.key == "consent_green"
    entries = len(game.table.entries)
    with pytest.raises(ProcedureError, match="Green does not agree to peace on Walrus"):
        run(game, agree_peace, {"consent_green": "no"}, colour="yellow", card="walrus")
    assert len(game.table.entries) == entries
    change = run(game, agree_peace, {"consent_yellow": "yes"}, colour="green", card="walrus")
    assert label(change).startswith("Green and Yellow make peace on Walrus (A3)")
    assert obligations(view(game)) == [("yellow", "dogs")]
    with pytest.raises(ProcedureError, match="Walrus is at peace this turn"):
        run(game, attack, {}, colour="yellow", card="walrus")
    assert not any("Walrus" in lab for lab in labels(game, greenland))
    run(game, agree_peace, {"consent_green": "yes"}, colour="yellow", card="dogs")
    run(game, next_phase)
    assert game.state.counters["phase"] == "hunt"
    game.table.undo("test")
    game.table.undo("test")
    assert obligations(view(game)) == [("yellow", "dogs")]


def test_a3_peace_only_where_the_negotiations_fail(greenland, tmp_path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0").replace("elders = {4 = 1}", ""))
    with pytest.raises(ProcedureError, match="nothing to settle on Walrus"):
        run(game, agree_peace, {"consent_green": "yes"}, colour="yellow", card="walrus")
    run(game, next_phase)  # no war chief: nobody must attack


def test_a3_leaving_lifts_the_obligation(greenland, tmp_path) -> None:
    game = build(tmp_path, MARRIAGE)
    with pytest.raises(ProcedureError, match=r"Green must attack on Shark \(A3\)"):
        run(game, next_phase)
    run(game, leave, {"consent_green": "yes"}, colour="red", card="shark")
    assert obligations(view(game)) == []
    run(game, next_phase)
    assert game.state.counters["phase"] == "hunt"


@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_a3_bots_meet_their_obligations(greenland, tmp_path, kind) -> None:
    for seed in range(6):
        game = build(tmp_path, TIED.replace("FIRST", "green").replace("IRON", "1"), seed=seed)
        seats = ("red", "yellow", "green")
        bots = {
            c: GreedyBot() if kind == "greedy" else RandomBot(seed * 3 + i)
            for i, c in enumerate(seats)
        }
        driver = Driver(game_of(greenland), game.table)
        play(
            game_of(greenland),
            game.table,
            bots,
            until=lambda d=driver: d.current_player() == CHANCE,
        )
        assert obligations(view(game)) == [], seed
        run(game, next_phase)
        procedures = [getattr(e.command, "procedure", None) for e in game.table.entries]
        if kind == "greedy":  # the greedy bots do not attack: they make peace
            assert "greenland.peace" in procedures and "greenland.attack" not in procedures


def test_a3_several_victims_share_the_hits(greenland, tmp_path) -> None:
    """F2: the attacker splits its hits: a split among the victims, capped by their cubes."""
    three = TIED.replace("FIRST", "green").replace("IRON", "1") + (
        "[cultures.red]\nunassigned = 1\nhunters = {Walrus = 1}\n"
    )
    game = build(tmp_path, three)
    forced(game, [1, 1, 5])
    with pytest.raises(ChoiceNeeded) as need:
        run(game, attack, {"pay_iron_yellow": "no"}, colour="green", card="walrus")
    assert need.value.key == "targets"
    question = need.value.question
    assert question.kind == "split" and question.owner == "green" and question.total == 2
    assert question.groups == (("red", 1), ("yellow", 2))
    forced(game, [1, 1, 5])
    choices = {"targets": "red=1, yellow=1", "pay_iron_yellow": "no"}
    change = run(game, attack, choices, colour="green", card="walrus")
    assert label(change).endswith("2 hits; Red loses a cube; Yellow loses a cube")


# ---- the command line ------------------------------------------------------------------
def test_cli_attack_writes_out_and_a_missing_choice_exits_2(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, WALRUS.replace("IRON", "1"))
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "attack", "--seat", "yellow", "--card", "Walrus", "--dice", "1,1,6"
    )
    assert code == 2 and text == "" and "needs answers (nothing was written)" in err
    assert "choice 'pay_iron_green'" in err and "choice 'hits_green'" in err and not out.exists()
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
    assert text.strip() == (
        f"{out}: attack: Yellow attacks on Walrus: 1 1 6 → 2 hits; Green loses a cube and a cube"
    )
    game = opened(out)
    assert game.table.entries[-1].command.procedure == "greenland.attack"
    green = culture(game, greenland, "green")
    assert green["hunters"]["Walrus"] == 1 and green["alpha"] == "Walrus"


def test_cli_peace(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, WALRUS.replace("IRON", "0"))
    argv = ["--seat", "yellow", "--card", "Walrus"]
    code, text, err, out = cli_run(capsys, tmp_path, file, "peace", *argv)
    assert code == 2 and "consent_green" in err
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "peace", *argv, "--choice", "consent_green=yes"
    )
    assert code == 0, err
    assert text.startswith(f"{out}: peace: Yellow and Green make peace on Walrus (A3)")


def test_cli_new_world_leave_marry_divorce(greenland, tmp_path, capsys) -> None:
    (tmp_path / "a").mkdir()
    file = game_file(tmp_path / "a", NEW_WORLD.replace("COUNT", "3"))
    code, text, err, out = cli_run(capsys, tmp_path, file, "new-world")
    assert code == 0 and "turns hostile" in text, err
    file = game_file(tmp_path, MARRIAGE)
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "leave", "--seat", "red", "--card", "Shark"
    )
    assert code == 2 and "answer with --choice consent_green=VALUE" in err
    argv = ["--seat", "red", "--card", "Shark", "--daughter", "Kirima"]
    yes = ["--choice", "consent_green=yes", "--choice", "bride_yellow=yes"]
    code, text, err, out = cli_run(capsys, tmp_path, file, "marry", *argv, *yes)
    assert code == 0 and text.startswith(f"{out}: marry: Red marries Kirima"), err
    married = tmp_path / "married.jsonl"
    married.write_bytes(out.read_bytes())
    argv = ["--seat", "red", "--daughter", "kirima"]
    code, text, err, _ = cli_run(capsys, tmp_path, married, "divorce", *argv)
    assert code == 0 and "divorces Kirima" in text, err


def test_cli_marry_names_the_cube_or_the_card(greenland, tmp_path, capsys) -> None:
    """F1: --cube names the hunter that marries (--card one on a card); a daughter by name."""
    file = game_file(tmp_path, MARRIAGE)
    with opened(file) as game:
        cube = view(game).hunters_on("shark", "red")[0]
    yes = ["--choice", "consent_green=yes", "--choice", "bride_yellow=yes"]
    argv = ["--seat", "red", "--cube", cube, "--daughter", "Kirima", *yes]
    code, text, err, out = cli_run(capsys, tmp_path, file, "marry", *argv)
    assert code == 0 and text.startswith(f"{out}: marry: Red marries Kirima"), err
    assert view(opened(out)).husband("kirima") == cube
    code, _, err, _ = cli_run(capsys, tmp_path, file, "marry", "--seat", "red", "--daughter", "x")
    assert code == 2 and "--card/--cube" in err and err.count("\n") == 1
    code, _, err, _ = cli_run(capsys, tmp_path, file, "marry", "--card", "Shark", "--daughter", "x")
    assert code == 2 and err.endswith(
        "--seat: name the culture whose hunter marries (red, yellow, green)\n"
    )


# ---- D9: nobody leaves Markland in the turn of the ban ----------------------------------
MARKLAND_COLONY = """
phase = "negotiation"
turn = 3
[rows.north]
warm = ["Markland"]
[cultures.red]
unassigned = 1
elders = {6 = 2}
colonists = {Markland = 2}
[cultures.yellow]
unassigned = 1
"""


def test_d9_colonists_cannot_leave_markland_in_the_turn_of_the_ban(greenland, tmp_path) -> None:
    """D9 forbids moving from Markland as well as to it: leaving a card (F) and marrying off it
    (F1) are refused while the ban lasts, and allowed the turn after."""
    game = build(tmp_path, MARKLAND_COLONY)
    run(game, events.no_markland)
    with pytest.raises(ProcedureError, match=r"from Markland this turn.*\(D9\)"):
        run(game, leave, colour="red", card="markland")
    with pytest.raises(ProcedureError, match=r"\(D9\)"):
        run(
            game,
            marry,
            {"bride_yellow": "yes"},
            colour="red",
            cube_or_card="markland",
            daughter="kirima",
        )
    assert len(view(game).hunters_on("markland", "red")) == 2
    game = build(tmp_path, MARKLAND_COLONY.replace("turn = 3", "turn = 4"))
    game.table.submit(actions.set_counter(game.state, "ban.markland", 3), "test")  # last turn
    assert (
        label(run(game, leave, colour="red", card="markland"))
        == "Red leaves Markland: 2 unassigned"
    )


def test_d9_cli_leave_markland_in_the_turn_of_the_ban(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, MARKLAND_COLONY, lambda game: run(game, events.no_markland))
    code, _, err, out = cli_run(
        capsys, tmp_path, file, "leave", "--seat", "red", "--card", "Markland"
    )
    assert code == 2 and "(D9)" in err and err.count("\n") == 1
    assert not out.exists()


def test_d9_a_colonist_moved_off_markland_by_hand_is_refused(greenland, tmp_path) -> None:
    """D9 through Table.submit with the game's checker: a colonist taken off Markland by hand
    in the turn of the ban (E4's exception would allow it otherwise) is illegal under D9."""
    game = build(tmp_path, MARKLAND_COLONY.replace('"negotiation"', '"assignment"'))
    run(game, events.no_markland)
    game.table.checker = game_of(greenland).checker()
    game.table.policy = Policy(Mode.ADVISORY)
    colonist = view(game).hunters_on("markland", "red")[0]
    change = game.table.submit(actions.move(game.state, colonist, "hunters_red"), "red")
    assert "D9" in [f.rule for f in change.findings]


WIFE = """
phase = "assignment"
turn = 2
[cultures.green]
unassigned = 2
tableau = ["Meeka"]
iron = 0
[cultures.yellow]
unassigned = 3
elders = {1 = 1}
husbands = {Meeka = 1}
iron = 0
[cultures.red]
unassigned = 4
elders = {4 = 1, 6 = 1}
iron = 1
"""


def test_e5_f2_g1_a_husband_s_culture_defends_his_wife(greenland, tmp_path) -> None:
    """E5: the Thule, married to the Tunit's Meeka, defend her against a Norse raid without a
    war chief; F2: they strike after the Norse, who have more iron; G1: only the raider rolls."""
    from tabletop.core import Mode, Policy, actions

    game = build(tmp_path, WIFE)
    game.table.checker = game_of(greenland).checker()
    game.table.policy = Policy(Mode.STRICT)

    def to_meeka(colour: str, count: int) -> None:
        cubes = [c for c in game.state.places[f"hunters_{colour}"].contents if "cube" in c]
        command = actions.build_sequence(
            game.state,
            f"{colour} to Meeka",
            [lambda s, c=c: actions.move(s, c, "meeka", spot="hunters") for c in cubes[:count]],
        )
        assert game.table.submit(command, colour).findings == ()

    to_meeka("red", 3)  # the raid (E5)
    to_meeka("yellow", 1)  # the defence of a wife (E5)
    run(game, next_phase)
    assert attackers(view(game), "meeka") == ["red", "yellow"]
    assert obligations(view(game)) == [("red", "meeka")]
    forced(game, [6, 6, 6])
    run(game, attack, {}, colour="red", card="meeka")
    change = run(game, attack, {"pay_iron_red": "no"}, colour="yellow", card="meeka")
    assert label(change).startswith(  # the husband counts towards the defence (F1)
        "Yellow defends Meeka: 2 defenders strike automatically → 2 hits"
    )
    run(game, next_phase)
    forced(game, [4])
    change = run(game, hunt_card, {}, card="meeka")
    assert label(change) == "Red raids Meeka: 4; the raid fails (no raid face, G1)"
    assert view(game).husband("meeka") is not None
    assert game.state.pieces[view(game).husband("meeka")].owner == "yellow"
