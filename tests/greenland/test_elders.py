"""Elder actions (I1–I7): the rulebook's examples and the limits, on positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import elders
from rules_assist.greenland.assignment import complete_move
from rules_assist.greenland.turn import finish
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from tabletop.core import actions
from tabletop.modules import find_module

from .tables import build, cli_run, contents, game_file, opened, owned, run, take, turn_status, view


def set_turn(game, turn: int) -> None:
    game.table.submit(actions.set_counter(game.state, "turn", turn), "test")


def finished(game, *colours: str) -> None:
    """These cultures finish their elder actions (A5: the next in order acts)."""
    for colour in colours:
        run(game, finish, colour=colour)


def disks(game, kind: str, colour: str) -> int:
    return len(contents(game, f"{kind}_{colour}"))


# ---- I1 domestication ---------------------------------------------------------------------
SHAMAN = """
turn = 3
phase = "elders"
[cultures.red]
elders = {2 = 1}
energy = 2
tableau = []
hand = ["Dogs", "Elkhounds"]
"""


def test_i1_domestication_plays_a_d_card_for_one_energy(tmp_path: Path) -> None:
    game = build(tmp_path, SHAMAN)
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.domesticate, colour="red")
    assert asked.value.key == "card" and asked.value.options == ["dogs", "elkhounds"]
    change = run(game, elders.domesticate, {"card": "Dogs"}, colour="red")
    dogs = game.state.pieces["dogs"]
    assert dogs.place == "tableau_red" and dogs.face_up and dogs.rotation == 2  # I1: turned 180°
    assert disks(game, "energy", "red") == 1
    assert "plays Dogs into the tableau" in change.entry.command.label
    (shaman,) = contents(game, "elder-red", "rank2")
    assert game.state.pieces[shaman].props["acted"] == 3
    game.table.undo("test")  # one entry, one undo
    assert game.state.pieces["dogs"].place == "hand_red"


def test_i_each_elder_acts_once_a_turn(tmp_path: Path) -> None:
    """I: "Each cube can perform one action per turn"; a second shaman may act, and next turn again."""
    game = build(tmp_path, SHAMAN)
    run(game, elders.domesticate, {"card": "dogs"}, colour="red")
    with pytest.raises(ProcedureError, match="has not acted this turn"):
        run(game, elders.domesticate, {"card": "elkhounds"}, colour="red")
    with pytest.raises(ProcedureError, match="has not acted"):
        run(game, elders.banish, {"target": "elder:2"}, colour="red")
    set_turn(game, 4)
    run(game, elders.domesticate, {"card": "elkhounds"}, colour="red")
    assert game.state.pieces["elkhounds"].place == "tableau_red"


def test_i1_wrong_religion_is_refused(tmp_path: Path) -> None:
    """I1: once monotheist, a culture can no longer domesticate; I3 is for monotheists only."""
    game = build(
        tmp_path, SHAMAN.replace("[cultures.red]", '[cultures.red]\nreligion = "monotheist"')
    )
    with pytest.raises(ProcedureError, match="needs a polytheist culture; red is monotheist"):
        run(game, elders.domesticate, {"card": "dogs"}, colour="red")
    game = build(tmp_path, SHAMAN)
    with pytest.raises(ProcedureError, match="needs a monotheist culture"):
        run(game, elders.witch_burn, {"target": "elder:2"}, colour="red")


def test_elder_actions_only_in_the_elder_phase(tmp_path: Path) -> None:
    game = build(tmp_path, SHAMAN.replace('phase = "elders"', 'phase = "hunt"'))
    with pytest.raises(ProcedureError, match="the phase is hunt"):
        run(game, elders.domesticate, {"card": "dogs"}, colour="red")


# ---- I4 tool-maker --------------------------------------------------------------------
def test_i4_slit_goggles_example(tmp_path: Path) -> None:
    """I4 example: promote a hunter to rank 3 (1 energy, E3), then play the goggles for 1 iron."""
    module = find_module("greenland")
    game = build(
        tmp_path,
        """
turn = 2
phase = "elders"
[cultures.red]
unassigned = 2
energy = 3
iron = 1
tableau = []
hand = ["Slit Goggles"]
""",
    )
    hunter = next(p for p in contents(game, "hunters_red") if p.startswith("cube-"))
    move = actions.move(game.state, hunter, "elder-red", spot="rank3")
    game.table.submit(complete_move(game.state, move, module), "test")
    assert disks(game, "energy", "red") == 2
    change = run(game, elders.tool_maker, colour="red")
    goggles = game.state.pieces["slit-goggles"]
    assert goggles.place == "tableau_red" and goggles.rotation == 2
    assert disks(game, "iron", "red") == 0 and disks(game, "energy", "red") == 2
    assert "modify 3->1 land" in view(game).abilities("red")  # its ability now counts
    assert "pays 1 iron and plays Slit Goggles" in change.entry.command.label


def test_i4_the_tunit_ivory_carver_may_pay_ivory(tmp_path: Path) -> None:
    position = """
phase = "elders"
first_player = "green"
[cultures.green]
elders = {3 = 1}
iron = 1
ivory = 1
tableau = []
hand = ["Slit Goggles"]
"""
    game = build(tmp_path, position)
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.tool_maker, colour="green")
    assert asked.value.key == "pay" and asked.value.options == ["iron", "ivory"]
    run(game, elders.tool_maker, {"pay": "ivory"}, colour="green")
    assert disks(game, "ivory", "green") == 0 and disks(game, "iron", "green") == 1
    red = build(tmp_path, position.replace("green", "red").replace("iron = 1", "iron = 0"))
    with pytest.raises(ProcedureError, match="costs one iron; red has none"):
        run(red, elders.tool_maker, colour="red")


# ---- I2 banishment, I5 emissary, I6 proselytize: the rulebook's examples --------------------
PREACHING = """
turn = 3
phase = "elders"
[cultures.yellow]
religion = "monotheist"
elders = {2 = 3, 5 = 2}
energy = 5
tableau = ["Peepeelee"]
[cultures.green]
elders = {2 = 1, 3 = 2}
energy = 2
tableau = []
"""


def test_i6_proselytize_example(tmp_path: Path) -> None:
    """I6 example: two acolytes go as missionaries; next turn the polytheist's shaman banishes
    one with a Martyr Roll of 1 and 2 (I2); then the bishops preach with the survivor, one die
    each (Hand Size 1), until a 1 converts him."""
    game = build(tmp_path, PREACHING)
    finished(game, "red", "green")  # A5: the polytheists first
    assert elders.max_hand_size(view(game), "yellow") == 1  # Peepeelee (B2)
    assert elders.max_hand_size(view(game), "green") == 2  # two rank-3 elders (B2)
    for _ in range(2):
        run(game, elders.emissary, colour="yellow", target="green")
    assert owned(game, "elder-green", "yellow", "rank1") == 2  # I5: the first rank
    assert disks(game, "energy", "yellow") == 3
    with pytest.raises(ProcedureError, match="has not acted"):
        run(game, elders.emissary, colour="yellow", target="green")
    with pytest.raises(ProcedureError, match="since the start of the turn"):
        run(game, elders.proselytize, colour="yellow")  # I6 limits: placed this turn

    set_turn(game, 4)
    game.table.random.force_faces([1, 2])
    change = run(game, elders.banish, {"target": "martyr"}, colour="green")
    assert owned(game, "elder-green", "yellow", "rank1") == 1
    assert owned(game, "valhalla_yellow", "yellow") >= 1
    assert "rolls 1, 2 (Martyr Roll): a yellow missionary dies" in change.entry.command.label
    assert disks(game, "energy", "green") == 1

    game.table.random.force_faces([4])
    change = run(game, elders.proselytize, colour="yellow")
    assert "stays polytheist" in change.entry.command.label
    game.table.random.force_faces([1])
    change = run(game, elders.proselytize, colour="yellow")
    assert "green turns monotheist" in change.entry.command.label
    assert view(game).religion("green") == "monotheist"
    assert owned(game, "elder-green", "yellow", "rank1") == 1  # now a representative
    assert owned(game, "elder-green", "green", "rank3") == 2  # elders keep their ranks
    with pytest.raises(ProcedureError, match="no missionary on a polytheist"):
        run(game, elders.proselytize, colour="yellow")
    assert disks(game, "energy", "yellow") == 1


def test_i2_martyr_roll_shares_out_the_ones(tmp_path: Path) -> None:
    """I2: each 1 kills a missionary or a husband; the player names whom when there is a choice."""
    position = PREACHING.replace("tableau = []", 'tableau = ["Meeka"]').replace(
        "elders = {2 = 3, 5 = 2}", "elders = {2 = 3, 5 = 2}\nunassigned = 2\nhusbands = {Meeka = 1}"
    )
    game = build(tmp_path, position)
    finished(game, "red", "green")  # A5: the polytheists first
    run(game, elders.emissary, colour="yellow", target="green")
    set_turn(game, 4)
    (husband,) = contents(game, "meeka", "exogamy")
    game.table.random.force_faces([1, 3])
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.banish, {"target": "martyr"}, colour="green")
    assert asked.value.key == "kill"
    assert asked.value.options == ["husband:meeka", "missionary:yellow"]
    game.table.random.force_faces([1, 3])
    run(game, elders.banish, {"target": "martyr", "kill": "husband:meeka"}, colour="green")
    assert game.state.pieces[husband].place == "valhalla_yellow"
    assert owned(game, "elder-green", "yellow", "rank1") == 1


def test_i2_banishment_example_then_baptism(tmp_path: Path) -> None:
    """I2 example: the last elder (rank 2) banishes himself for 1 energy; then baptism (I7)."""
    game = build(
        tmp_path, 'phase = "elders"\n[cultures.red]\nelders = {2 = 1}\nenergy = 1\nunassigned = 3\n'
    )
    with pytest.raises(ProcedureError, match="still has 1 elder"):
        run(game, elders.baptize, colour="red")
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.banish, colour="red")
    assert asked.value.options == ["elder:2"]  # no missionaries or husbands: no Martyr Roll
    run(game, elders.banish, {"target": "elder:2"}, colour="red")
    assert contents(game, "elder-red", "rank2") == [] and disks(game, "energy", "red") == 0
    labels = [label for label, _, _ in elders.available_actions(view(game), "red")]
    assert labels == ["Baptism (I7): turn monotheist"]
    change = run(game, elders.baptize, colour="red")
    assert view(game).religion("red") == "monotheist"
    assert game.state.pieces["elder-red"].props["card"] == "elder-red-monotheist"
    assert "Baptism (I7) of red" in change.entry.command.label
    with pytest.raises(ProcedureError, match="already monotheist"):
        run(game, elders.baptize, colour="red")


# ---- I3 witch-burn and I5 representatives ---------------------------------------------
def test_i5_emissary_to_a_monotheist_becomes_a_representative_and_i3_burns_it(
    tmp_path: Path,
) -> None:
    game = build(
        tmp_path,
        """
phase = "elders"
[cultures.yellow]
religion = "monotheist"
elders = {5 = 1}
energy = 1
[cultures.red]
religion = "monotheist"
elders = {2 = 1}
energy = 1
husbands = {Peepeelee = 1}
""",
    )
    finished(game, "green", "red")  # A5: the polytheist, then the monotheists in player order
    change = run(game, elders.emissary, {"target": "red"}, colour="yellow")
    assert "becomes a representative on rank 1 of red's elder card" in change.entry.command.label
    assert owned(game, "elder-red", "yellow", "rank1") == 1
    # I3: the Norse husband on Peepeelee is immune; red may burn yellow's representative
    yellow = build(
        tmp_path,
        'phase = "elders"\n[cultures.yellow]\nreligion = "monotheist"\n'
        'elders = {2 = 1}\nenergy = 1\ntableau = ["Peepeelee"]\n'
        "[cultures.red]\nhusbands = {Peepeelee = 1}\n",
    )
    finished(yellow, "red", "green")
    with pytest.raises(ChoiceNeeded) as asked:
        run(yellow, elders.witch_burn, colour="yellow")
    assert asked.value.options == ["elder:2"]
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.witch_burn, colour="red")
    assert asked.value.options == ["elder:2", "representative:yellow"]
    run(game, elders.witch_burn, {"target": "representative:yellow"}, colour="red")
    assert owned(game, "elder-red", "yellow") == 0
    assert disks(game, "energy", "red") == 0


def test_i5_emissary_needs_a_monotheist(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "elders"\n[cultures.yellow]\nelders = {5 = 1}\nenergy = 1\n')
    with pytest.raises(ProcedureError, match="needs a monotheist culture; yellow is polytheist"):
        run(game, elders.emissary, {"target": "red"}, colour="yellow")


# ---- the phase panel ------------------------------------------------------------------
def test_available_actions_and_the_phase_panel(tmp_path: Path) -> None:
    game = build(tmp_path, 'first_player = "yellow"\n' + PREACHING)
    labels = [label for label, _, _ in elders.available_actions(view(game), "yellow")]
    assert "Emissary (I5): an acolyte to green's elder card" in labels
    assert not any(label.startswith("Proselytize") for label in labels)
    green = [label for label, _, _ in elders.available_actions(view(game), "green")]
    assert green == ["Banishment (I2): kill an elder or roll the Martyr Roll"]
    panel = turn_status(game)
    offered = [a.label for a in panel.actions]
    assert panel.to_move == "green"  # A5: polytheists first
    assert "Tunit: done with elder actions (I)" in offered
    assert "Banishment (I2): kill an elder or roll the Martyr Roll" in offered
    done = next(a for a in panel.actions if a.label == "Tunit: done with elder actions (I)")
    take(game, done)
    panel = turn_status(game)
    assert panel.to_move == "red"  # the other polytheist
    done = next(a for a in panel.actions if a.label == "Norse: done with elder actions (I)")
    take(game, done)
    panel = turn_status(game)
    assert panel.to_move == "yellow"
    emissary = next(a for a in panel.actions if a.label.endswith("to green's elder card"))
    assert emissary.actor == "yellow" and emissary.params["target"] == "green"
    take(game, emissary)
    assert owned(game, "elder-green", "yellow", "rank1") == 1


# ---- the command line -------------------------------------------------------------------
def test_cli_elder(tmp_path: Path, capsys) -> None:
    file = game_file(tmp_path, SHAMAN)
    code, _, err, out = cli_run(
        capsys, tmp_path, file, "elder", "--action", "domesticate", "--seat", "red"
    )
    assert code == 2 and "choice 'card'" in err and "answer with --card NAME" in err
    assert not out.exists()
    code, text, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "elder",
        "--action",
        "domesticate",
        "--seat",
        "red",
        "--card",
        "Elkhounds",
    )
    assert code == 0, err
    assert "Domestication (I1) by red" in text
    state = opened(out).state
    assert state.pieces["elkhounds"].place == "tableau_red"
    code, _, err, out = cli_run(
        capsys, tmp_path, file, "elder", "--action", "convert", "--seat", "red"
    )
    assert code == 2 and err.count("\n") == 1 and "still has 1 elder" in err
    code, _, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "elder",
        "--action",
        "banish",
        "--seat",
        "red",
        "--choice",
        "target=elder:2",
    )
    assert code == 0, err
    assert opened(out).state.contents("elder-red", "rank2") == []


# ---- A5: polytheists first, then monotheists, each in player order ------------------------
def test_a5_a_monotheist_waits_for_the_polytheists(tmp_path: Path) -> None:
    """A5: the elder procedure refuses a monotheist acting before the polytheists finish."""
    game = build(tmp_path, 'first_player = "yellow"\n' + PREACHING)
    with pytest.raises(ProcedureError, match=r"yellow acts after green: .*\(A5\)"):
        run(game, elders.emissary, colour="yellow", target="green")
    assert owned(game, "elder-green", "yellow", "rank1") == 0
    finished(game, "green")
    with pytest.raises(ProcedureError, match=r"yellow acts after red: .*\(A5\)"):
        run(game, elders.emissary, colour="yellow", target="green")
    finished(game, "red")
    run(game, elders.emissary, colour="yellow", target="green")
    assert owned(game, "elder-green", "yellow", "rank1") == 1


def test_a5_polytheists_in_player_order(tmp_path: Path) -> None:
    """A5: among the polytheists, player order: red first, then green (first player red)."""
    position = 'first_player = "red"\n' + PREACHING.replace(
        "[cultures.green]", "[cultures.red]\nelders = {2 = 1}\nenergy = 1\n[cultures.green]"
    )
    game = build(tmp_path, position)
    with pytest.raises(ProcedureError, match=r"green acts after red: .*\(A5\)"):
        run(game, elders.banish, {"target": "elder:2"}, colour="green")
    assert turn_status(game).to_move == "red"
    run(game, elders.banish, {"target": "elder:2"}, colour="red")  # red's turn
    finished(game, "red")
    assert turn_status(game).to_move == "green"
    run(game, elders.banish, {"target": "elder:2"}, colour="green")


def test_a5_the_checker_flags_a_hand_elder_action_out_of_turn(tmp_path: Path) -> None:
    """A5: a card played into the tableau by hand before the cultures ahead have finished."""
    from tabletop.core import Mode, Policy
    from tabletop.modules.rules import game_of

    position = (
        'first_player = "red"\nphase = "elders"\n[cultures.yellow]\nreligion = "monotheist"\n'
        'elders = {3 = 1}\niron = 1\ntableau = []\nhand = ["Slit Goggles"]\n'
    )
    game = build(tmp_path, position)
    game.table.checker = game_of(find_module("greenland")).checker()
    game.table.policy = Policy(Mode.ADVISORY)
    change = game.table.submit(actions.move(game.state, "slit-goggles", "tableau_yellow"), "yellow")
    assert [f.rule for f in change.findings] == ["A5"]
    assert "yellow acts after red" in change.findings[0].message
    game.table.undo("yellow")
    finished(game, "red", "green")
    change = game.table.submit(actions.move(game.state, "slit-goggles", "tableau_yellow"), "yellow")
    assert [f.rule for f in change.findings] == []


def test_cli_a5_elder_out_of_turn(tmp_path: Path, capsys) -> None:
    file = game_file(tmp_path, 'first_player = "yellow"\n' + PREACHING)
    code, _, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "elder",
        "--action",
        "emissary",
        "--seat",
        "yellow",
        "--target",
        "green",
    )
    assert code != 0 and "(A5)" in err and "yellow acts after green" in err
    assert not out.exists()
