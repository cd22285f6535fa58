"""The domestic animals phase (H): hay (H1), milk and skyr (H2), the woodpile (B4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import animals
from rules_assist.greenland.hunt import hunt_card
from rules_assist.greenland.turn import next_phase
from rules_assist.procedures import ChoiceNeeded, ProcedureError

from .tables import build, cli_run, contents, game_file, opened, owned, run, view

CATTLE = """
turn = 3
phase = "animals"
[cultures.red]
unassigned = 2
elders = {3 = 1, 6 = 1}
energy = 5
"""


def test_h1_cattle_needs_two_snowflakes(tmp_path: Path) -> None:
    """H1, H2: 'with two snowflake icons, the cow is high maintenance': two energy or elders."""
    game = build(tmp_path, CATTLE)
    v = view(game)
    assert v.row("cattle-sheep")["name"] == "Cattle" and v.row("cattle-sheep")["hay"] == 2
    with pytest.raises(ChoiceNeeded) as need:
        run(game, animals.feed_animals)
    assert need.value.key == "hay_cattle"
    assert need.value.options == ["energy", "elder:3", "elder:6", "slaughter"]
    babies = v.row("cattle-sheep")["babies"]
    change = run(game, animals.feed_animals, {"hay_cattle": "energy,elder:3"})
    assert len(contents(game, "energy_red")) == 4
    assert owned(game, "elder-red", "red", "rank3") == 0
    assert len(contents(game, "hunters_red")) == 2 + babies
    assert "red feeds Cattle with 1 energy, the rank-3 elder" in change.entry.command.label


def test_h1_one_unit_for_every_snowflake(tmp_path: Path) -> None:
    game = build(tmp_path, CATTLE)
    run(game, animals.feed_animals, {"hay_cattle": "energy"})
    assert len(contents(game, "energy_red")) == 3
    with pytest.raises(ProcedureError, match="at most 1"):
        run(build(tmp_path, CATTLE), animals.feed_animals, {"hay_cattle": "elder:6"})


def test_h1_slaughter_gains_the_value_within_the_woodpile(tmp_path: Path) -> None:
    """H1, B3, B4: a slaughtered animal is exchanged for its Value; never more than 8 energy."""
    game = build(tmp_path, CATTLE.replace("energy = 5", "energy = 8"))
    value = view(game).row("cattle-sheep")["value_energy"]
    assert value >= 1
    supply = len(contents(game, "supply_energy"))
    change = run(game, animals.feed_animals, {"hay_cattle": "slaughter"})
    assert game.state.pieces["cattle-sheep"].place == "out_of_game"
    assert len(contents(game, "energy_red")) == 8  # woodpile rot: the disks stay in the supply
    assert len(contents(game, "supply_energy")) == supply
    assert len(contents(game, "hunters_red")) == 2  # no babies from a slaughtered animal
    assert "red slaughters Cattle: gains nothing" in change.entry.command.label


def test_h1_a_culture_that_cannot_pay_slaughters(tmp_path: Path) -> None:
    game = build(
        tmp_path, CATTLE.replace("elders = {3 = 1, 6 = 1}", "").replace("energy = 5", "energy = 1")
    )
    value = view(game).row("cattle-sheep")["value_energy"]
    change = run(game, animals.feed_animals)
    assert game.state.pieces["cattle-sheep"].place == "out_of_game"
    assert len(contents(game, "energy_red")) == 1 + value
    assert "(red cannot pay 2)" in change.entry.command.label


SHEEP = """
turn = 3
phase = "animals"
[cultures.red]
unassigned = 1
energy = 2
ivory = 0
"""


@pytest.mark.parametrize("wool", ["baby", "ivory"])
def test_h2_sheep_give_a_baby_or_ivory(tmp_path: Path, wool: str) -> None:
    """H2: sheep give babies or, as the player chooses, ivory (Icelandic wool)."""
    game = build(tmp_path, SHEEP, options={"norse_animal": "sheep"})
    v = view(game)
    assert v.row("cattle-sheep")["name"] == "Sheep"
    count = v.row("cattle-sheep")["babies"]
    with pytest.raises(ChoiceNeeded) as need:
        run(game, animals.feed_animals, {"hay_sheep": "energy"})
    assert need.value.key == "sheep_red" and need.value.options == ["baby", "ivory"]
    run(game, animals.feed_animals, {"hay_sheep": "energy", "sheep_red": wool})
    assert len(contents(game, "energy_red")) == 2 - v.row("cattle-sheep")["hay"]
    if wool == "ivory":
        assert len(contents(game, "ivory_red")) == count
        assert len(contents(game, "hunters_red")) == 1
    else:
        assert len(contents(game, "ivory_red")) == 0
        assert len(contents(game, "hunters_red")) == 1 + count


RAIDED = """
turn = 3
phase = "hunt"
[cultures.red]
unassigned = 1
energy = 2
ivory = 0
[cultures.yellow]
unassigned = 1
elders = {4 = 1, 6 = 1}   # a war chief raids (E5), a mariner reaches the Norse tableau (E1)
hunters = {NAME = 2}
ivory = 0
iron = 0
"""


def _raid(tmp_path: Path, animal: str, dice: list[int]):
    """Yellow raids red's Norse animal in the hunt (G1), then the phase moves on to H."""
    game = build(
        tmp_path,
        RAIDED.replace("NAME", animal.capitalize()),
        options={"norse_animal": animal},
    )
    game.table.random.force_faces(dice)
    change = run(game, hunt_card, {"pay_iron": "no"}, card="cattle-sheep")
    assert game.table.random.forced_pending == 0
    run(game, next_phase)
    assert game.state.counters["phase"] == "animals"
    return game, change.entry.command.label


def test_h2_g1_the_raider_takes_the_babies_and_the_owner_pays_the_hay(tmp_path: Path) -> None:
    """G1, H1, H2: a successful livestock raid: the raider gets the babies, the owner the hay."""
    game, text = _raid(tmp_path, "cattle", [1, 6])
    assert text.endswith("the raid succeeds: Yellow takes Cattle's babies this turn (G1, H2)")
    yellow_before = len(contents(game, "hunters_yellow"))
    count = view(game).row("cattle-sheep")["babies"]
    assert count >= 1
    change = run(game, animals.feed_animals, {"hay_cattle": "energy"})
    assert len(contents(game, "energy_red")) == 0  # two snowflakes: two energy (H1)
    assert len(contents(game, "hunters_red")) == 1  # no babies for the owner
    assert len(contents(game, "hunters_yellow")) == yellow_before + count
    assert (
        f"red's Cattle, raided by yellow (G1), gives {count} "
        f"{'baby' if count == 1 else 'babies'} to yellow" in change.entry.command.label
    )


def test_h2_g1_a_failed_raid_leaves_the_babies_to_the_owner(tmp_path: Path) -> None:
    game, text = _raid(tmp_path, "cattle", [5, 6])
    assert text.endswith("the raid fails (no raid face, G1)")
    count = view(game).row("cattle-sheep")["babies"]
    yellow_before = len(contents(game, "hunters_yellow"))
    run(game, animals.feed_animals, {"hay_cattle": "energy"})
    assert len(contents(game, "hunters_red")) == 1 + count
    assert len(contents(game, "hunters_yellow")) == yellow_before


@pytest.mark.parametrize("wool", ["baby", "ivory"])
def test_h2_g1_the_sheep_raider_may_take_ivory_instead(tmp_path: Path, wool: str) -> None:
    """G1: raiding sheep, the raider may steal an ivory instead of a baby; the owner pays hay."""
    game, _text = _raid(tmp_path, "sheep", [1, 4])
    count = view(game).row("cattle-sheep")["babies"]
    with pytest.raises(ChoiceNeeded) as need:
        run(game, animals.feed_animals, {"hay_sheep": "energy"})
    assert need.value.key == "sheep_yellow" and need.value.question.owner == "yellow"
    yellow_before = len(contents(game, "hunters_yellow"))
    run(game, animals.feed_animals, {"hay_sheep": "energy", "sheep_yellow": wool})
    assert len(contents(game, "energy_red")) == 2 - view(game).row("cattle-sheep")["hay"]
    assert len(contents(game, "hunters_red")) == 1 and len(contents(game, "ivory_red")) == 0
    if wool == "ivory":
        assert len(contents(game, "ivory_yellow")) == count
        assert len(contents(game, "hunters_yellow")) == yellow_before
    else:
        assert len(contents(game, "ivory_yellow")) == 0
        assert len(contents(game, "hunters_yellow")) == yellow_before + count


def test_h1_b3_a_raided_animal_slaughtered_gives_nothing(tmp_path: Path) -> None:
    """H1, B3, G1: the owner may slaughter a raided card, but it is not exchanged for its
    Value while raided, and no babies come of it for anyone."""
    game, _text = _raid(tmp_path, "cattle", [1, 6])
    yellow_before = len(contents(game, "hunters_yellow"))
    change = run(game, animals.feed_animals, {"hay_cattle": "slaughter"})
    assert game.state.pieces["cattle-sheep"].place == "out_of_game"
    assert len(contents(game, "energy_red")) == 2
    assert len(contents(game, "hunters_yellow")) == yellow_before
    assert "red slaughters Cattle: gains nothing, the card was raided by yellow" in (
        change.entry.command.label
    )


def test_cli_h2_g1_raid_then_animals(tmp_path: Path, capsys) -> None:
    """G1, H2 through the command line: the raid rolled, then the animals fed."""

    def raided(game) -> None:
        game.table.random.force_faces([1, 6])
        run(game, hunt_card, {"pay_iron": "no"}, card="cattle-sheep")
        run(game, next_phase)

    file = game_file(tmp_path, RAIDED.replace("NAME", "Cattle"), raided)
    count = view(opened(file)).row("cattle-sheep")["babies"]
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "animals", "--choice", "hay_cattle=energy"
    )
    assert code == 0, err
    assert "raided by yellow (G1)" in text
    state = opened(out).state
    assert len(state.places["hunters_red"].contents) == 1
    assert len(state.places["hunters_yellow"].contents) == 1 + 2 + count


def test_h2_the_alpha_comes_back_first(tmp_path: Path) -> None:
    """H2, G4: babies come from Valhalla; a dead Alpha is resurrected as the first of them."""
    game = build(
        tmp_path,
        CATTLE.replace("unassigned = 2", 'unassigned = 2\nalpha = "valhalla"'),
    )
    run(game, animals.feed_animals, {"hay_cattle": "energy"})
    assert "alpha-red" in contents(game, "hunters_red")


# ---- the command line -------------------------------------------------------------------
def test_cli_animals(tmp_path: Path, capsys) -> None:
    file = game_file(tmp_path, CATTLE)
    code, _, err, out = cli_run(capsys, tmp_path, file, "animals")
    assert (
        code == 2 and "needs answers (nothing was written)" in err and "choice 'hay_cattle'" in err
    )
    assert not out.exists()
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "animals", "--choice", "hay_cattle=energy,elder:6"
    )
    assert code == 0, err
    assert "red feeds Cattle with 1 energy, the rank-6 elder" in text
    state = opened(out).state
    assert len(state.places["energy_red"].contents) == 4
    assert state.contents("elder-red", "rank6") == []
    code, _, err, _ = cli_run(capsys, tmp_path, file, "animals", "--choice", "hay_cattle")
    assert code == 2 and "KEY=VALUE" in err
