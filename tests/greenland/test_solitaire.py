"""The solitaire or cooperative game (K): each rule on a position with variant = "solitaire"."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import animals, events, scoring, sequence, turn
from rules_assist.greenland.solitaire import solitaire_swap
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from tabletop.core import Compound, Mode, Policy, actions
from tabletop.modules.rules import game_of

from .tables import build, cli_run, contents, game_file, opened, owned, run, view

CULTURES = """
[cultures.red]
unassigned = 4
elders = {2 = 1}
energy = 2
ivory = 1
iron = 1
[cultures.yellow]
unassigned = 4
elders = {3 = 1}
energy = 2
ivory = 1
iron = 1
[cultures.green]
unassigned = 4
elders = {5 = 1}
energy = 2
ivory = 1
iron = 1
"""


def position(
    variant: str = "solitaire", turn: int = 3, phase: str = "event", extra: str = ""
) -> str:
    return f"""
variant = "{variant}"
turn = {turn}
phase = "{phase}"
first_player = "red"
[rows.north]
warm = ["Walrus", "Markland"]
cold = []
[rows.south]
warm = ["Shark", "Vinland"]
cold = []
{CULTURES}
{extra}
"""


# ---- K: the sunspot icon ------------------------------------------------------------------
def test_k_cooling_on_the_first_turn_is_ignored(tmp_path: Path) -> None:
    """K: a Global Cooling on turn 1 of the solitaire game does nothing."""
    game = build(tmp_path, position(turn=1))
    before = game.state.digest()
    change = run(game, events.cool)
    assert change is None  # nothing changed
    assert game.state.digest() == before


def test_k_cooling_decimates_all_three_cultures(tmp_path: Path) -> None:
    """K: after turn 1 a cooling moves the cards (D4) and decimates every culture (D2)."""
    game = build(tmp_path, position(turn=3))
    change = run(game, events.cool)
    assert contents(game, "north_cold") == ["markland"]
    assert contents(game, "south_cold") == ["vinland"]
    for colour in ("red", "yellow", "green"):
        assert len(contents(game, f"hunters_{colour}")) == 2  # half of 4 (D2)
        assert view(game).elders(colour, {"red": 2, "yellow": 3, "green": 5}[colour]) == 0
    assert "global cooling (K)" in change.entry.command.label


def test_k_a_second_cooling_in_a_turn_counts_as_none(tmp_path: Path) -> None:
    """K: two coolings in one turn are treated as one."""
    game = build(tmp_path, position(turn=3))
    run(game, events.cool)
    before = game.state.digest()
    assert run(game, events.cool) is None
    assert game.state.digest() == before
    assert contents(game, "north_warm") == ["walrus"]


def test_k_cooling_in_other_variants_decimates_nobody(tmp_path: Path) -> None:
    """D4 alone outside K: the cards move, nobody is decimated, even on turn 1."""
    game = build(tmp_path, position(variant="standard", turn=1))
    run(game, events.cool)
    assert contents(game, "north_cold") == ["markland"]
    assert len(contents(game, "hunters_red")) == 4


def test_k_cooling_event_asks_the_decimated_elder(tmp_path: Path) -> None:
    """K with D2: a culture with several elders names the one the cooling's decimation takes."""
    game = build(tmp_path, position(turn=4).replace("elders = {2 = 1}", "elders = {2 = 1, 4 = 1}"))
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.cool)
    assert need.value.key == "elder_red"
    run(game, events.cool, {"elder_red": "4"})
    assert view(game).war_chiefs("red") == 0 and view(game).elders("red", 2) == 1


# ---- K: game length -----------------------------------------------------------------------
def test_k_the_game_ends_after_the_16th_turn(tmp_path: Path) -> None:
    """K: the solitaire game ends at the end of turn 16 (events may remain)."""
    game = build(tmp_path, position(turn=16, phase="elders"))
    assert contents(game, "event_deck")  # events left: J alone would go on
    assert sequence.game_ends(view(game)) == "the 16th turn is over (K)"
    change = run(game, turn.next_phase)
    assert game.state.counters["game_over"] == 16
    assert "16th turn" in change.entry.command.label


def test_k_the_game_goes_on_before_turn_16(tmp_path: Path) -> None:
    game = build(tmp_path, position(turn=15, phase="elders"))
    assert sequence.game_ends(view(game)) is None
    run(game, turn.next_phase)
    assert game.state.counters["turn"] == 16
    assert game.state.counters.get("game_over") is None


def test_k_the_game_length_is_the_variants_turns(tmp_path: Path) -> None:
    """The last turn is the variant's ``turns`` in module.toml (16 shipped), not a number in the
    code: a module whose solitaire game lasts 12 turns ends after the 12th."""
    import shutil

    from tabletop.modules import find_module
    from tabletop.modules.rules import game_of

    from .tables import RESOURCES

    folder = tmp_path / "greenland"
    shutil.copytree(RESOURCES, folder)
    manifest = folder / "module.toml"
    text = manifest.read_text(encoding="utf-8")
    assert "turns = 16" in text
    manifest.write_text(text.replace("turns = 16", "turns = 12"), encoding="utf-8")
    module = find_module(str(folder))
    game = build(tmp_path, position(turn=12, phase="elders"), module=module)
    assert sequence.game_ends(view(game, module)) == "the 12th turn is over (K)"
    game_of(module).run(game.table, "next-phase", "test")
    assert game.state.counters["game_over"] == 12
    game = build(tmp_path, position(turn=12, phase="elders"))  # the shipped module: 16 turns
    assert sequence.game_ends(view(game)) is None


def test_k_the_game_ends_when_both_rows_are_empty(tmp_path: Path) -> None:
    """K: both rows empty end the solitaire game (as J)."""
    text = position(turn=5, phase="elders")
    text = text.replace('warm = ["Walrus", "Markland"]', "warm = []").replace(
        'warm = ["Shark", "Vinland"]', "warm = []"
    )
    game = build(tmp_path, text)
    assert sequence.game_ends(view(game)) == "no cards remain in either row"


# ---- K: black and white disks as energy ---------------------------------------------------
def test_k_ivory_may_pay_a_snowflake(tmp_path: Path) -> None:
    """K with D3: ivory and iron are offered beside energy and elders, never taken unasked."""
    game = build(tmp_path, position(turn=3))
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.snowflake, n=1)
    assert need.value.key == "snowflake_red"
    assert {"energy", "elder:2", "ivory", "iron"} <= set(need.value.options)
    answers = {f"snowflake_{c}": "ivory" for c in ("red", "yellow", "green")}
    change = run(game, events.snowflake, answers, n=1)
    for colour in ("red", "yellow"):
        assert view(game).disks(colour, "ivory") == 0
        assert view(game).disks(colour, "energy") == 2
    assert view(game).disks("green", "ivory") == 1  # Saila: snowflake -1 (D3)
    assert "1 ivory as energy (K)" in change.entry.command.label


def test_k_substitutes_are_asked_even_when_they_are_all_there_is(tmp_path: Path) -> None:
    """K: with no energy, a snowflake is still asked when iron could pay; 'none' keeps it."""
    text = position(turn=3).replace("energy = 2", "energy = 0").replace("ivory = 1", "ivory = 0")
    text = text.replace("elders = {2 = 1}", "elders = {}", 1)
    game = build(tmp_path, text)
    with pytest.raises(ChoiceNeeded) as need:  # red's Cattle or its iron: asked, not taken
        run(game, events.snowflake, n=1)
    assert need.value.options == ["discard:cattle", "iron"]
    answers = {"snowflake_red": "iron", "snowflake_yellow": "elder:3", "snowflake_green": "iron"}
    run(game, events.snowflake, answers, n=1)
    assert view(game).disks("red", "iron") == 0 and "cattle-sheep" in view(game).tableau("red")
    assert view(game).disks("green", "iron") == 1  # Saila: green owes nothing (D3)
    assert view(game).disks("yellow", "iron") == 1 and view(game).elders("yellow", 3) == 0


def test_k_standard_game_never_offers_ivory(tmp_path: Path) -> None:
    """B4 outside K: no disk stands in for another."""
    game = build(tmp_path, position(variant="standard"))
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.snowflake, n=1)
    assert "ivory" not in need.value.options and "iron" not in need.value.options


def test_k_iron_may_pay_hay(tmp_path: Path) -> None:
    """K with H1: iron pays the hay of a D card when its owner says so."""
    text = position(turn=3, phase="animals").replace(
        "[cultures.yellow]", 'tableau = ["Birgitta", "Dogs"]\n[cultures.yellow]'
    )
    game = build(tmp_path, text)
    with pytest.raises(ChoiceNeeded) as need:
        run(game, animals.feed_animals)
    assert need.value.key == "hay_dogs" and "iron" in need.value.options
    run(game, animals.feed_animals, {"hay_dogs": "iron"})
    assert view(game).disks("red", "iron") == 0 and view(game).disks("red", "energy") == 2


# ---- K: the negotiation swap --------------------------------------------------------------
def test_k_swap_disks_between_cultures(tmp_path: Path) -> None:
    """K: one disk from a culture for one disk of another."""
    game = build(tmp_path, position(phase="negotiation"))
    change = run(game, solitaire_swap, give="red:iron", take="yellow:energy")
    v = view(game)
    assert (v.disks("red", "iron"), v.disks("red", "energy")) == (0, 3)
    assert (v.disks("yellow", "iron"), v.disks("yellow", "energy")) == (2, 1)
    assert "red gives an iron to yellow for an energy (K)" in change.entry.command.label


def test_k_swap_once_a_turn_each(tmp_path: Path) -> None:
    """K: one item from each culture a turn."""
    game = build(tmp_path, position(phase="negotiation"))
    run(game, solitaire_swap, give="red:iron", take="yellow:energy")
    with pytest.raises(ProcedureError, match="this turn"):
        run(game, solitaire_swap, give="green:ivory", take="red:ivory")


def test_k_swap_a_husband_for_an_i_card(tmp_path: Path) -> None:
    """K: a husband (his marriage) for an I card in a tableau; no population changes hands."""
    extra = """
[cultures.red.husbands]
Kirima = 1
"""
    text = position(phase="negotiation").replace(
        "elders = {5 = 1}", 'elders = {5 = 1}\ntableau = ["Meeka", "Saila", "Slit Goggles"]'
    )
    game = build(tmp_path, text + extra)
    alive = {c: 19 - owned(game, f"valhalla_{c}", c) for c in ("red", "green")}
    run(game, solitaire_swap, give="red:husband:Kirima", take="green:Slit Goggles")
    v = view(game)
    assert game.state.pieces[v.husband("kirima")].owner == "green"
    assert "slit-goggles" in v.tableau("red")
    assert {c: 19 - owned(game, f"valhalla_{c}", c) for c in ("red", "green")} == alive


@pytest.mark.parametrize(
    ("give", "why"),
    [
        ("red:Cattle", "not an I card"),  # D card (K)
        ("red:cube-red-1", "not a disk"),  # population (K)
        ("red:red", "not a disk"),
    ],
)
def test_k_no_population_or_d_cards(tmp_path: Path, give: str, why: str) -> None:
    text = position(phase="negotiation").replace(
        "[cultures.yellow]", 'tableau = ["Birgitta", "Cattle"]\n[cultures.yellow]'
    )
    game = build(tmp_path, text)
    with pytest.raises(ProcedureError, match=why):
        run(game, solitaire_swap, give=give, take="yellow:energy")


def test_k_swap_only_in_solitaire_and_in_negotiation(tmp_path: Path) -> None:
    game = build(tmp_path, position(variant="standard", phase="negotiation"))
    with pytest.raises(ProcedureError, match="solitaire"):
        run(game, solitaire_swap, give="red:iron", take="yellow:energy")
    game = build(tmp_path, position(phase="hunt"))
    with pytest.raises(ProcedureError, match="negotiation phase"):
        run(game, solitaire_swap, give="red:iron", take="yellow:energy")


def test_k_swap_on_the_command_line(tmp_path: Path, capsys) -> None:
    """K: ``tabletop greenland swap FILE --give red:iron --take green:ivory -o OUT``."""
    file = game_file(tmp_path, position(phase="negotiation"))
    code, out, err, result = cli_run(
        capsys, tmp_path, file, "swap", "--give", "red:iron", "--take", "green:ivory"
    )
    assert code == 0, err
    assert "Swap between red and green (K)" in out
    with opened(result) as game:
        assert view(game).disks("red", "ivory") == 2 and view(game).disks("green", "iron") == 2
    code, out, err, _ = cli_run(
        capsys, tmp_path, file, "swap", "--give", "red:Cattle", "--take", "green:ivory"
    )
    assert code != 0 and "K" in err


# ---- K: shared victory --------------------------------------------------------------------
def _ended(tmp_path: Path, text: str):
    game = build(tmp_path, text)
    run(game, turn.next_phase)
    assert game.state.counters["game_over"] == 16
    return game


def test_k_shared_victory_when_all_three_survive_with_hunters(tmp_path: Path) -> None:
    """K: all three cultures with unassigned hunters or colonists at the end win together."""
    game = _ended(tmp_path, position(turn=16, phase="elders"))
    points = scoring.score(view(game))
    assert all(entry["shared_victory"] is True for entry in points.values())
    assert set(points["red"]) >= {*scoring.KINDS, "total"}


def test_k_colonists_count_for_the_shared_victory(tmp_path: Path) -> None:
    """K: a culture whose only cubes outside its elders are colonists still counts."""
    text = position(turn=16, phase="elders").replace(
        "unassigned = 4\nelders = {5 = 1}",
        'unassigned = 0\nalpha = "valhalla"\nelders = {5 = 1}\ncolonists = {Markland = 2}',
    )
    game = _ended(tmp_path, text)
    assert scoring.shared_victory(view(game)) is True


def test_k_no_shared_victory_with_only_elders_left(tmp_path: Path) -> None:
    """K: a culture with elders but no unassigned hunters or colonists loses it for all."""
    text = position(turn=16, phase="elders").replace(
        "unassigned = 4\nelders = {3 = 1}", 'unassigned = 0\nalpha = "valhalla"\nelders = {3 = 1}'
    )
    game = _ended(tmp_path, text)
    assert all(e["shared_victory"] is False for e in scoring.score(view(game)).values())


def test_k_no_shared_victory_before_the_end(tmp_path: Path) -> None:
    game = build(tmp_path, position(turn=7, phase="hunt"))
    assert all(e["shared_victory"] is False for e in scoring.score(view(game)).values())


def test_k_shared_victory_only_in_solitaire(tmp_path: Path) -> None:
    game = build(tmp_path, position(variant="standard", turn=7))
    assert all("shared_victory" not in e for e in scoring.score(view(game)).values())


# ---- K with E3: ivory and iron pay a promotion -------------------------------------------
NO_ENERGY = """
variant = "VARIANT"
turn = 3
phase = "assignment"
[cultures.red]
unassigned = 4
elders = {2 = 1}
energy = 0
ivory = 1
iron = 1
"""


def _promote(game, module, rank: str):
    """A hunter dropped on an elder rank, completed as the window completes it, submitted to the
    game's checker."""
    rules = game_of(module)
    cube = next(p for p in contents(game, "hunters_red") if p.startswith("cube-"))
    move = actions.move(game.state, cube, "elder-red", spot=rank)
    return game.table.submit(rules.complete_move(game.state, move), "red")


def test_k_e3_ivory_then_iron_pay_a_promotion_in_solitaire(greenland, tmp_path: Path) -> None:
    """K: black and white disks are spent as if orange, so a culture without energy promotes
    a hunter (E3) paying an ivory, then an iron; with neither the promotion is refused."""
    game = build(tmp_path, NO_ENERGY.replace("VARIANT", "solitaire"))
    game.table.checker = game_of(greenland).checker()
    game.table.policy = Policy(Mode.ADVISORY)
    change = _promote(game, greenland, "rank6")
    assert not change.findings and "paying 1 ivory as energy (K) (E3)" in change.entry.command.label
    assert contents(game, "ivory_red") == [] and len(contents(game, "iron_red")) == 1
    change = _promote(game, greenland, "rank4")
    assert not change.findings and "1 iron as energy (K)" in change.entry.command.label
    assert contents(game, "iron_red") == [] and len(contents(game, "elder-red")) == 3
    change = _promote(game, greenland, "rank5")
    assert [f.rule for f in change.findings] == ["E3"]
    assert "or an ivory or iron as energy, K" in change.findings[0].message


def test_k_e3_ivory_pays_no_promotion_outside_solitaire(greenland, tmp_path: Path) -> None:
    """E3 outside K: only energy pays a promotion; an ivory paid beside it is refused."""
    game = build(tmp_path, NO_ENERGY.replace("VARIANT", "standard"))
    game.table.checker = game_of(greenland).checker()
    game.table.policy = Policy(Mode.ADVISORY)
    cube = next(p for p in contents(game, "hunters_red") if p.startswith("cube-"))
    ivory = contents(game, "ivory_red")[0]
    command = Compound(
        "promote, paying an ivory",
        (
            actions.move(game.state, cube, "elder-red", spot="rank6"),
            actions.move(game.state, ivory, "supply_ivory"),
        ),
    )
    change = game.table.submit(command, "red")
    assert [f.rule for f in change.findings] == ["E3"]
    assert "costs 1 energy:" in change.findings[0].message
    game.table.undo("red")
    assert [f.rule for f in _promote(game, greenland, "rank6").findings] == ["E3"]
