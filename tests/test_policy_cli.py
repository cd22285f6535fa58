"""The command line tells how a game was refereed: the rules' switches in ``tabletop log``, the
verdict 'strict throughout' in ``log`` and ``inspect``, and findings of moves taken back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.core import Mode, Policy, actions
from tabletop.modules import find_module, new_game
from tabletop.modules.rules import attach_checker
from tabletop.persist import Game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def strict_proto(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.jsonl"
    code, _, _ = run(
        capsys, "new", "proto", "--seats", "red=Ann,blue=Bo", "--seed", "4", "--rules", "strict",
        "-o", str(path),
    )  # fmt: skip
    assert code == 0
    return path


def flip_a_coin(game: Game, actor: str) -> int:
    coin = next(p for p in game.state.pieces if p.startswith("coin"))
    return game.table.submit(actions.flip(game.state, coin), actor).seq


def test_table_log_shows_the_switches_and_a_game_strict_throughout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = strict_proto(tmp_path, capsys)
    with Game.open(path) as game:
        assert game.header.policy == Policy(Mode.STRICT)
        flip_a_coin(game, "red")
        game.table.set_policy(Policy(Mode.STRICT, {"E1": Mode.STRICT}), "blue")
        flip_a_coin(game, "blue")
    code, out, _ = run(capsys, "log", str(path))
    lines = out.splitlines()
    assert code == 0
    assert "Bo" in lines[-3] and "rules assistant: strict (house rules: E1 strict)" in lines[-3]
    assert lines[-1] == "Rules: strict throughout: yes"
    _, out, _ = run(capsys, "inspect", str(path))
    assert "Rules: strict throughout: yes" in out.splitlines()[:3]
    _, out, _ = run(capsys, "log", str(path), "--last", "2")
    assert len(out.splitlines()) == 2  # a part of the log: no verdict on the whole


def test_table_a_game_switched_off_and_back_is_not_strict_throughout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = strict_proto(tmp_path, capsys)
    with Game.open(path) as game:
        flip_a_coin(game, "red")
        off = game.table.set_policy(Policy(Mode.OFF), "red").seq
        move = flip_a_coin(game, "red")
        back = game.table.set_policy(Policy(Mode.STRICT), "red").seq
        advisory = game.table.set_policy(Policy(Mode.ADVISORY), "blue").seq
        flip_a_coin(game, "blue")
        last = flip_a_coin(game, "red")
    code, out, _ = run(capsys, "log", str(path))
    lines = out.splitlines()
    assert code == 0
    switches = [line for line in lines if "rules assistant:" in line]
    assert [line.split()[0] for line in switches] == [str(off), str(back), str(advisory)]
    assert "Ann" in switches[0] and switches[0].endswith("rules assistant: off")
    assert switches[1].endswith("rules assistant: strict")
    assert lines[-1] == (
        f"Rules: strict throughout: no: off at entry {move}; "
        f"advisory from entry {advisory + 1} to {last}"
    )
    _, out, _ = run(capsys, "inspect", str(path))
    assert f"Rules: strict throughout: no: off at entry {move}" in out
    _, out, _ = run(capsys, "inspect", str(path), "--json")
    assert json.loads(out)["rules"].startswith(f"strict throughout: no: off at entry {move};")


def test_e1_log_marks_the_finding_of_a_move_taken_back_as_undone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """E1: a fifth Norse cube behind the one mariner is flagged; undone, the finding is stale."""
    greenland = find_module("greenland")
    position = tmp_path / "position.toml"
    position.write_text(
        'phase = "assignment"\n[rows.north]\nwarm = ["Walrus"]\n[cultures.red]\nunassigned = 10\n'
    )
    path = tmp_path / "game.jsonl"
    game = new_game(greenland, seed=1, position=str(position), path=path)
    assert attach_checker(game.table, greenland)
    cubes = [p for p in game.state.places["hunters_red"].contents if p.startswith("cube")]

    def put(pids: list[str]) -> None:
        command = actions.build_sequence(
            game.state,
            f"put {len(pids)} on walrus",
            [lambda s, p=p: actions.move(s, p, "walrus", spot="hunters") for p in pids],
        )
        game.table.submit(command, "red")

    put(cubes[:4])
    put(cubes[4:5])
    flagged = game.table.seq
    assert [f.rule for f in game.table.entries[-1].findings] == ["E1"]
    game.table.undo("red")
    game.close()
    _, out, _ = run(capsys, "log", str(path), "--last", "2")
    finding = out.splitlines()[1]
    assert finding.strip().startswith("! E1 (illegal)") and finding.endswith("(undone)")
    with Game.open(path) as reopened:
        reopened.table.redo("red")
    _, out, _ = run(capsys, "log", str(path), "--last", "3")
    assert f"{flagged}" in out.splitlines()[0]
    assert "! E1 (illegal)" in out and "(undone)" not in out
