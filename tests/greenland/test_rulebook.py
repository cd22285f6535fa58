"""Greenland's rulebook: the move checker and the audit (``tabletop check``) are one coding of
the rules.

For every invariant of the rulebook (an invariant without a case here fails
the test) a legal position, then the move that breaks it, submitted by hand
in advisory mode: the checker names the rule, and the audit of the table the
move leaves, and ``tabletop check FILE``, name the same rule for the same
pieces. The invariants a move cannot break (how many cubes and disks there
are, every piece in one place: ``moves=False``) are broken by another command
or not at all, and the audit alone reports them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rules_assist.greenland.rules import BOOK, rulebook_for
from rules_assist.greenland.turn import finish
from rules_assist.procedures import run_procedure
from tabletop.core import Command, Mode, Policy, actions
from tabletop.modules import find_module
from tabletop.modules.rules import game_of

from .tables import build, cli, revised_module


@dataclass(frozen=True)
class Case:
    position: str
    breaking: Callable[[Any], tuple[Command, str]]  # the game -> (the command, who makes it)
    rule: str
    prepare: Callable[[Any], None] | None = None  # legal steps before the breaking move
    changes: dict[str, dict[str, str]] | None = None  # a test revision of the deck
    on_file: bool = True  # ``tabletop check FILE`` can read the table


def cube(game: Any, colour: str, n: int = 0) -> str:
    return [p for p in game.state.places[f"hunters_{colour}"].contents if p.startswith("cube")][n]


def move(pid_of: Callable[[Any], str], place: str, colour: str, spot: str | None = None):
    def breaking(game: Any) -> tuple[Command, str]:
        return actions.move(game.state, pid_of(game), place, spot=spot), colour

    return breaking


def red_cube(game: Any) -> str:
    return cube(game, "red")


def yellow_cube(game: Any) -> str:
    return cube(game, "yellow")


def ban_maritime(game: Any) -> None:
    game.table.submit(actions.set_counter(game.state, "ban.maritime", 3), "test")


def first(place: str) -> Callable[[Any], str]:
    return lambda game: game.state.places[place].contents[0]


RED_MARINER = """
turn = 3
phase = "assignment"
[rows.north]
warm = ["Walrus", "Caribou"]
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 6
elders = {6 = 1}
"""

SUN_STONE = """
turn = 3
phase = "assignment"
[rows.north]
warm = ["Walrus", "Caribou"]
[cultures.yellow]
unassigned = 2
elders = {6 = 1}
tableau = ["Peepeelee", "Sun Stone trader"]
hunters = {Walrus = 4, Caribou = 1}
"""


def others_finish(game: Any) -> None:
    """Red and green finish assigning (the turn's finish): the Sun Stone may reassign (E6)."""
    for colour in ("red", "green"):
        run_procedure(game.table, colour, finish, name="greenland.finish", colour=colour)


CASES: dict[str, Case] = {
    # B4: a culture's cubes and disks
    "b4_cubes_a_culture_owns": Case(
        RED_MARINER,
        lambda game: (actions.remove_piece(game.state, red_cube(game)), "red"),
        "B4",
    ),
    "b4_own_bowls": Case(RED_MARINER, move(red_cube, "hunters_yellow", "red"), "B4"),
    "b4_woodpile": Case(  # a ninth disk from another culture (from the supply it is taken free)
        RED_MARINER.replace("elders = {6 = 1}", "elders = {6 = 1}\nenergy = 8")
        + "[cultures.yellow]\nenergy = 1\n",
        move(first("energy_yellow"), "energy_red", "red"),
        "B4",
    ),
    "b4_disks_of_their_kind": Case(
        RED_MARINER + "[cultures.yellow]\nivory = 1\n",
        move(first("ivory_yellow"), "energy_red", "red"),
        "B4",
    ),
    "b4_disk_supply": Case(
        RED_MARINER,
        lambda game: (actions.remove_piece(game.state, "energy-24"), "red"),
        "B4",
    ),
    "b_every_piece_in_one_place": Case(RED_MARINER, lambda game: (None, "red"), "B"),
    # B2: a hand over its size (a reminder)
    "b2_hand_size": Case(
        '[cultures.red]\nunassigned = 2\nelders = {3 = 1}\ntableau = []\nhand = ["Slit Goggles"]\n',
        move(lambda game: "toggle-head-harpoon", "hand_red", "red"),
        "B2",
    ),
    # E1: mariners
    "e1_mariners_outside_the_homeland": Case(
        RED_MARINER + "hunters = {Walrus = 4}\n", move(red_cube, "walrus", "red", "hunters"), "E1"
    ),
    # E4: a permanent cube taken back, by a culture that began the phase with six hunters
    "e4_taken_back_at_most_one": Case(
        RED_MARINER.replace("{6 = 1}", "{3 = 1, 6 = 1}"),
        move(lambda game: game.state.contents("elder-red", "rank3")[0], "hunters_red", "red"),
        "E4",
    ),
    # E6: a Sun Stone's fourth reassignment
    "e6_reassignments_at_most": Case(
        SUN_STONE,
        lambda game: (
            actions.build_sequence(
                game.state,
                "reassign four",
                [
                    lambda s, c=c: actions.move(s, c, "caribou", spot="hunters")
                    for c in game.state.contents("walrus", "hunters")
                ],
            ),
            "yellow",
        ),
        "E6",
        prepare=others_finish,
    ),
    # E3, E5: whose elders
    "e3_elders_on_their_own_card": Case(
        RED_MARINER, move(red_cube, "elder-yellow", "red", "rank3"), "E5"
    ),
    # E5: raids
    "e5_a_raid_needs_a_war_chief": Case(
        RED_MARINER + '[cultures.yellow]\ntableau = ["Peepeelee"]\n',
        move(red_cube, "peepeelee", "red", "hunters"),
        "E5",
    ),
    "e5_only_daughters_and_livestock_are_raided": Case(
        RED_MARINER.replace("{6 = 1}", "{4 = 1, 6 = 1}")
        + '[cultures.yellow]\ntableau = ["Sun Stone trader"]\n',
        move(red_cube, "sun-stone-ship", "red", "hunters"),
        "E5",
    ),
    "e5_no_cube_on_an_invention": Case(
        RED_MARINER + 'tableau = ["Slit Goggles"]\n',
        move(red_cube, "slit-goggles", "red", "hunters"),
        "E5",
    ),
    "e5_no_raid_cards": Case(
        RED_MARINER.replace("{6 = 1}", "{4 = 1, 6 = 1}")
        + '[cultures.yellow]\ntableau = ["Dogs"]\n',
        move(red_cube, "dogs", "red", "hunters"),
        "E5",
        changes={"dogs": {"abilities": "sled;no_raid"}},
        on_file=False,  # the shipped deck has no card marked 'no raid'
    ),
    # F1: one husband a daughter
    "f1_one_husband_a_daughter": Case(
        '[cultures.red]\nunassigned = 2\ntableau = ["Birgitta"]\n'
        "[cultures.yellow]\nunassigned = 4\nhusbands = {Birgitta = 1}\n",
        move(yellow_cube, "birgitta", "yellow", "exogamy"),
        "F1",
    ),
    # D7: the maritime ban
    "d7_no_maritime_hunting": Case(
        RED_MARINER, move(red_cube, "walrus", "red", "hunters"), "D7", prepare=ban_maritime
    ),
    # C2: the beginners' game
    "e_beginners_hunt_biomes_only": Case(
        'variant = "beginners"\nphase = "assignment"\n[cultures.red]\nunassigned = 2\ntableau = ["Cattle"]\n'
        "[cultures.yellow]\nunassigned = 3\nelders = {4 = 1, 6 = 1}\n",
        move(yellow_cube, "cattle-sheep", "yellow", "hunters"),
        "E",
    ),
    "c2_no_new_world": Case(
        'variant = "beginners"\n'
        + RED_MARINER.replace('warm = ["Walrus", "Caribou"]', 'warm = ["Markland", "Walrus"]'),
        move(red_cube, "markland", "red", "hunters"),
        "C2",
    ),
}


def _name(invariant: Any) -> str:
    return invariant.check.__name__


def findings_of(found: Any, rule: str) -> list[tuple[str, tuple[str, ...]]]:
    return sorted((f.message, tuple(sorted(f.pieces))) for f in found if f.rule == rule)


def cli_findings(capsys: Any, path: Path, rule: str) -> list[tuple[str, tuple[str, ...]]]:
    code, out, err = cli(capsys, "check", str(path), "--json")
    assert code in (0, 1), err
    found = json.loads(out)
    return sorted(
        (f["message"], tuple(sorted(f.get("pieces", ())))) for f in found if f["rule"] == rule
    )


@pytest.mark.parametrize("invariant", BOOK.invariants, ids=_name)
def test_each_invariant_the_checker_and_the_audit_agree(invariant, tmp_path, capsys) -> None:
    case = CASES.get(_name(invariant))
    assert case is not None, f"the invariant {_name(invariant)} ({invariant.section}) has no case"
    module = revised_module(tmp_path, case.changes) if case.changes else find_module("greenland")
    game = build(tmp_path, case.position, module=module, path=str(tmp_path / "game.jsonl"))
    rules = game_of(module)
    game.table.checker = rules.checker()
    game.table.policy = Policy(Mode.ADVISORY)
    if case.prepare is not None:
        case.prepare(game)
    assert rules.audit(game.state) == [], "the position is legal"
    command, actor = case.breaking(game)
    if command is None:  # no command breaks it: a table whose state is inconsistent
        state = game.state.copy()
        state.places["hunters_red"].contents.append(state.places["hunters_red"].contents[0])
        found = findings_of(rulebook_for(module).audit(state), case.rule)
        assert found and "lies in two places" in found[0][0]
        game.close()
        return
    change = game.table.submit(command, actor)
    checked = findings_of(change.findings, case.rule)
    audited = findings_of(rules.audit(game.state), case.rule)
    if invariant.moves:
        assert checked, f"the checker names {case.rule}"
        assert audited == checked  # the same rule, the same message, the same pieces
    else:
        assert checked == [] and audited  # not a move: the audit alone sees it
    game.close()
    if case.on_file:
        assert cli_findings(capsys, tmp_path / "game.jsonl", case.rule) == audited


# ---- the five positions the checker refused while tabletop check found them clean ----------
ISSUE = [
    ("a raid without a war chief", "e5_a_raid_needs_a_war_chief"),
    ("a cube on another culture's elder card", "e3_elders_on_their_own_card"),
    ("a cube on a maritime biome in the turn of the ban", "d7_no_maritime_hunting"),
    ("two husbands on one daughter", "f1_one_husband_a_daughter"),
]


@pytest.mark.parametrize("example,invariant", ISSUE, ids=[e for e, _i in ISSUE])
def test_the_issue_examples_are_reported_by_tabletop_check(
    example, invariant, tmp_path, capsys
) -> None:
    case = CASES[invariant]
    path = tmp_path / "game.jsonl"
    game = build(tmp_path, case.position, path=str(path))
    if case.prepare is not None:
        case.prepare(game)
    command, actor = case.breaking(game)
    game.table.submit(command, actor)  # no checker: the table as a file may hold anything
    game.close()
    found = cli_findings(capsys, path, case.rule)
    assert found, f"{example}: tabletop check names {case.rule}"


def test_transport_to_the_new_world_and_the_markland_ban_are_moves(tmp_path) -> None:
    """E2 and D9 are about a change: a colonist of an earlier turn and one arriving now look the
    same on the table, so the checker judges the move and the audit has nothing to say."""
    position = RED_MARINER.replace('warm = ["Shark"]', 'warm = ["Shark", "Vinland"]')
    position = position.replace('warm = ["Walrus", "Caribou"]', 'warm = ["Markland", "Walrus"]')
    game = build(tmp_path, position)
    rules = game_of(find_module("greenland"))
    game.table.checker = rules.checker()
    game.table.policy = Policy(Mode.ADVISORY)
    five = actions.build_sequence(
        game.state,
        "five colonists",
        [
            lambda s, c=c: actions.move(s, c, "vinland", spot="hunters")
            for c in [cube(game, "red", n) for n in range(5)]
        ],
    )
    change = game.table.submit(five, "red")
    assert [f.rule for f in change.findings] == ["E2"]
    assert "need 2 mariner(s)" in change.findings[0].message
    assert len(change.findings[0].pieces) == 5
    assert rules.audit(game.state) == []  # colonists: they may have come in earlier turns
    game.table.submit(actions.set_counter(game.state, "ban.markland", 3), "test")
    change = game.table.submit(
        actions.move(game.state, "alpha-red", "markland", spot="hunters"), "red"
    )
    assert "D9" in [f.rule for f in change.findings]
    assert "D9" not in [f.rule for f in rules.audit(game.state)]


def test_the_rulebook_names_each_rule_by_its_section() -> None:
    book = rulebook_for(find_module("greenland"))
    for rule in book.rules():
        name = rule.check.__name__
        assert name.startswith(rule.section.lower() + "_"), name
    assert {"B2", "B4", "D7", "D9", "E1", "E2", "E3", "E4", "E5", "E6", "F1"} <= set(
        book.sections()
    )


def test_b4_substitutes_stand_in_for_ivory_and_iron_never_for_energy(tmp_path) -> None:
    """B4: when the ivory or iron runs out a substitute may be added; energy is limited."""
    game = build(tmp_path, RED_MARINER)
    rules = game_of(find_module("greenland"))
    for kind in ("ivory", "iron", "energy"):
        record = {"id": f"{kind}-99", "kind": kind}
        game.table.submit(actions.add_piece(game.state, record, f"supply_{kind}"), "test")
    found = [(f.rule, f.message, f.pieces) for f in rules.audit(game.state)]
    assert found == [
        (
            "B4",
            "1 substitute energy disks: energy is limited to the 24 disks (only ivory and iron"
            " may be made up)",
            ("energy-99",),
        )
    ]


def test_e5_a_husband_s_culture_defends_his_wife_without_a_war_chief(tmp_path) -> None:
    """E5: hunters may defend a daughter their culture is married to; that is no raid."""
    position = (
        'phase = "assignment"\n[cultures.red]\nunassigned = 2\ntableau = ["Birgitta"]\n'
        "[cultures.yellow]\nunassigned = 4\nelders = {6 = 1}\nhusbands = {Birgitta = 1}\n"
    )
    game = build(tmp_path, position)
    rules = game_of(find_module("greenland"))
    game.table.checker = rules.checker()
    game.table.policy = Policy(Mode.ADVISORY)
    change = game.table.submit(
        actions.move(game.state, yellow_cube(game), "birgitta", spot="hunters"), "yellow"
    )
    assert change.findings == () and rules.audit(game.state) == []


WIVES = {
    # the Thule married to a Tunit daughter: one homeland, no war chief, no mariner (E1, E5)
    "thule-tunit": (
        '[cultures.green]\nunassigned = 2\ntableau = ["Meeka"]\n'
        "[cultures.yellow]\nunassigned = 4\nelders = {1 = 1}\nhusbands = {Meeka = 1}\n",
        "yellow",
        "meeka",
    ),
    # the Norse married to a Thule daughter: a mariner carries them north (E1), no war chief
    "norse-thule": (
        '[cultures.yellow]\nunassigned = 2\ntableau = ["Kirima"]\n'
        "[cultures.red]\nunassigned = 4\nelders = {6 = 1}\nhusbands = {Kirima = 1}\n",
        "red",
        "kirima",
    ),
}


@pytest.mark.parametrize("wife", list(WIVES))
def test_e5_defending_a_wife_the_checker_and_tabletop_check_agree(wife, tmp_path, capsys) -> None:
    """E5: cubes on a daughter their culture is married to defend her: the move checker, the
    audit and ``tabletop check FILE`` find nothing, in the assignment phase and after it."""
    position, colour, daughter = WIVES[wife]
    path = tmp_path / "game.jsonl"
    game = build(tmp_path, 'phase = "assignment"\n' + position, path=str(path))
    rules = game_of(find_module("greenland"))
    game.table.checker = rules.checker()
    game.table.policy = Policy(Mode.STRICT)  # refused if the checker named anything
    two = actions.build_sequence(
        game.state,
        "defend the wife",
        [
            lambda s, c=c: actions.move(s, c, daughter, spot="hunters")
            for c in (cube(game, colour, 0), cube(game, colour, 1))
        ],
    )
    change = game.table.submit(two, colour)
    assert change.findings == () and rules.audit(game.state) == []
    game.close()
    assert cli_findings(capsys, path, "E5") == [] and cli_findings(capsys, path, "E1") == []
    code, out, _err = cli(capsys, "check", str(path))
    assert code == 0 and "no findings" in out
