"""Hunter assignment as procedures (E): ``assign`` and ``promote`` judge a move by the same rules
as the window's hand move and ``tabletop move``; and a rules question set up and answered on the
command line alone."""

from __future__ import annotations

import json

import pytest

from rules_assist.procedures import ProcedureError
from tabletop.core import Mode, Policy, Refused, actions
from tabletop.modules.rules import game_of

from .tables import build, cli, cli_run, contents, game_file, opened, owned

# turn 2, hunter assignment: red (a mariner, 3 energy) and yellow (no mariner, no energy)
ASSIGNING = """
phase = "assignment"
turn = 2
first_player = "red"
[rows.north]
warm = ["Walrus"]
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 4
elders = {6 = 1}
energy = 3
[cultures.yellow]
unassigned = 3
energy = 0
"""


def run(game, greenland, name, colour, **params):
    return game_of(greenland).run(game.table, name, colour, {"colour": colour, **params})


def test_e1_assign_places_hunters_the_alpha_last(greenland, tmp_path) -> None:
    game = build(
        tmp_path, ASSIGNING.replace("unassigned = 4", 'unassigned = 3\nalpha = "unassigned"')
    )
    change = run(game, greenland, "assign", "red", card="shark", count=3)
    assert owned(game, "shark", "red", "hunters") == 3
    assert "alpha-red" in contents(game, "shark")  # the three were two small cubes and the Alpha
    assert change.entry.command.label == "Red assigns 3 hunters (the Alpha among them) to Shark (E)"
    assert change.entry.command.procedure == "greenland.assign" and change.entry.actor == "red"


def test_e1_assign_is_refused_where_the_strict_checker_refuses(greenland, tmp_path) -> None:
    """Yellow has no mariner: a hunter outside its homeland (Shark, South Greenland) is refused
    by E1, with the checker's own words, and nothing changes."""
    game = build(tmp_path, ASSIGNING)
    before = game.state.digest()
    with pytest.raises(ProcedureError, match=r"^E1: yellow's hunters outside the homeland") as e:
        run(game, greenland, "assign", "yellow", card="shark")
    assert "\n" not in str(e.value) and game.state.digest() == before
    # the same move by hand, under the strict policy, is refused for the same finding
    table = game.table
    table.checker = game_of(greenland).checker()
    table.policy = Policy(Mode.STRICT)
    with pytest.raises(Refused) as refused:
        table.submit(actions.move(game.state, "cube-yellow-1", "shark", spot="hunters"), "yellow")
    assert f"{refused.value.findings[0].rule}: {refused.value.findings[0].message}" == str(e.value)


def test_e3_promote_pays_one_energy(greenland, tmp_path) -> None:
    game = build(tmp_path, ASSIGNING)
    change = run(game, greenland, "promote", "red", rank="4")
    assert owned(game, "elder-red", "red", "rank4") == 1
    assert len(contents(game, "energy_red")) == 2
    assert change.entry.command.label == "Red promotes a hunter to rank 4, paying 1 energy (E3)"


def test_e3_promote_without_energy_is_refused(greenland, tmp_path) -> None:
    game = build(tmp_path, ASSIGNING)
    with pytest.raises(ProcedureError, match=r"^E3: promoting a hunter to rank2 costs 1 energy"):
        run(game, greenland, "promote", "yellow", rank="2")
    assert owned(game, "elder-yellow", "yellow", "rank2") == 0


@pytest.mark.parametrize("name", ["assign", "promote"])
def test_e_assignment_only_in_its_phase(greenland, tmp_path, name) -> None:
    game = build(tmp_path, ASSIGNING.replace('"assignment"', '"hunt"'))
    with pytest.raises(ProcedureError, match=rf"^{name} \(E3?\) belongs to the Hunter assignment"):
        run(game, greenland, name, "red", card="shark", rank="1")


def test_e_assign_and_promote_on_the_command_line(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, ASSIGNING)
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "assign", "--seat", "red", "--card", "Walrus", "--count", "2"
    )
    assert code == 0, err
    assert text.strip() == f"{out}: assign: Red assigns 2 hunters to Walrus (E)"
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "promote", "--seat", "red", "--rank", "6"
    )
    assert code == 0, err
    assert text.strip() == f"{out}: promote: Red promotes a hunter to rank 6, paying 1 energy (E3)"
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "assign", "--seat", "yellow", "--card", "Shark"
    )
    assert code == 2 and err.startswith("tabletop greenland: E1: ") and err.count("\n") == 1
    assert not out.exists()


def test_e1_a_rules_question_set_up_and_answered_by_the_command_line_alone(
    tmp_path, capsys
) -> None:
    """E1: may the Thule, with no mariner, send a hunter to Shark in South Greenland? Set up with
    a position, asked three ways (the procedure, a strict hand move, an advisory hand move and
    the audit): each answers no, with E1 and the same words."""
    position = tmp_path / "question.toml"
    position.write_text(ASSIGNING)
    start = tmp_path / "start.jsonl"
    code, _, err = cli(
        capsys, "new", "greenland", "--position", str(position), "--seed", "4", "-o", str(start)
    )
    assert code == 0, err
    code, _, assigned = cli(
        capsys,
        "greenland",
        "assign",
        str(start),
        "--seat",
        "yellow",
        "--card",
        "Shark",
        "-o",
        str(tmp_path / "a.jsonl"),
    )
    reason = assigned.removeprefix("tabletop greenland: E1: ").strip()
    assert code == 2 and reason.startswith("yellow's hunters outside the homeland")
    code, printed, err = cli(
        capsys,
        "move",
        str(start),
        "--piece",
        "cube-yellow-1",
        "--to",
        "shark:hunters",
        "--mode",
        "strict",
        "-o",
        str(tmp_path / "b.jsonl"),
    )
    assert code == 2 and printed.startswith(f"E1 illegal: {reason}")
    advisory = tmp_path / "c.jsonl"
    code, printed, err = cli(
        capsys,
        "move",
        str(start),
        "--piece",
        "cube-yellow-1",
        "--to",
        "shark:hunters",
        "-o",
        str(advisory),
    )
    assert code == 0 and "(by yellow, rules advisory)" in printed and reason in printed
    code, printed, err = cli(capsys, "check", str(advisory), "--json")
    assert code == 0
    assert {"rule": "E1", "message": reason} in [
        {"rule": f["rule"], "message": f["message"]} for f in json.loads(printed)
    ]
    # and the legal way: red's mariner takes it there; the checker and the audit are content
    legal = tmp_path / "d.jsonl"
    code, printed, err = cli(
        capsys,
        "move",
        str(start),
        "--piece",
        "cube-red-1",
        "--to",
        "walrus:hunters",
        "--mode",
        "strict",
        "-o",
        str(legal),
    )
    assert code == 0, err
    assert opened(legal).table.entries[-1].actor == "red"
    code, printed, err = cli(capsys, "check", str(legal))
    assert (
        code == 0
        and printed.strip()
        == f"{legal}: no findings after entry {len(opened(legal).table.entries)}"
    )
