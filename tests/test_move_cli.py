"""``tabletop move``: a hand move from the command line through the table's one pipeline, with
the game's checker and the chosen policy, on the test game Race (tests/toy, docs/modules.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.cli_games import acting_seat
from tabletop.core import actions
from tabletop.modules import find_module
from tabletop.modules.rules import game_of
from tabletop.persist import Game

TESTS = Path(__file__).parent


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def race_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_RESOURCES", str(TESTS))  # tests/toy is the module 'toy'


@pytest.fixture
def rolled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A race of red and blue: red has rolled a 3 (R4) and is to move (R5)."""
    start = tmp_path / "race.jsonl"
    code, _, err = run(capsys, "new", "toy", "--seats", "red,blue", "--seed", "1", "-o", start)
    assert code == 0, err
    path = tmp_path / "rolled.jsonl"
    code, _, err = run(capsys, "run", start, "roll", "--dice", "3", "-o", path)
    assert code == 0, err
    return path


def entries(path: Path) -> list:
    return Game.open(path, writable=False).table.entries


def test_r5_a_legal_move_is_written_with_the_owner_as_actor(rolled, tmp_path, capsys) -> None:
    before = rolled.read_bytes()
    out = tmp_path / "moved.jsonl"
    argv = ("move", rolled, "--piece", "cube-red-1", "--to", "track:3", "--mode", "strict")
    code, printed, err = run(capsys, *argv, "-o", out)
    assert code == 0, err
    assert printed.splitlines()[0].startswith(f"{out}: ") and "(by red, rules strict)" in printed
    assert rolled.read_bytes() == before
    last = entries(out)[-1]
    assert last.actor == "red" and last.findings == ()
    # the game's complete_move came with it, as in the window: the roll is spent
    assert Game.open(out, writable=False).state.counters["pips"] == 0


def test_r5_strict_refuses_prints_the_finding_and_writes_nothing(rolled, tmp_path, capsys) -> None:
    out = tmp_path / "moved.jsonl"
    argv = ("move", rolled, "--piece", "cube-red-1", "--to", "track:2", "--mode", "strict")
    code, printed, err = run(capsys, *argv, "-o", out)
    assert code == 2 and not out.exists()
    assert printed.strip() == "R5 illegal: cube-red-1 moves 3 forward, to space 3"
    assert err.count("\n") == 1 and "--reason" in err
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    # forced with a reason: written, the finding and the override in the entry
    code, printed, err = run(capsys, *argv, "--reason", "teaching the rule", "-o", out)
    assert code == 0, err
    assert "R5 illegal: cube-red-1 moves 3 forward" in printed
    assert printed.strip().endswith("forced: teaching the rule")
    last = entries(out)[-1]
    assert last.override == "teaching the rule" and [f.rule for f in last.findings] == ["R5"]


def test_r5_advisory_keeps_the_move_with_its_finding(rolled, tmp_path, capsys) -> None:
    out = tmp_path / "moved.jsonl"
    code, printed, err = run(
        capsys, "move", rolled, "--piece", "cube-blue-1", "--to", "track:1", "-o", out
    )
    assert code == 0, err
    assert "(by blue, rules advisory)" in printed and "R5 illegal: cube-blue-1" in printed
    assert [f.rule for f in entries(out)[-1].findings] == ["R5"]
    # off: no check at all
    off = tmp_path / "off.jsonl"
    code, printed, err = run(
        capsys,
        "move",
        rolled,
        "--piece",
        "cube-blue-1",
        "--to",
        "track:1",
        "--mode",
        "off",
        "-o",
        off,
    )
    assert code == 0 and entries(off)[-1].findings == ()


def test_a_piece_of_nobody_is_moved_by_the_seat_to_move(rolled, tmp_path, capsys) -> None:
    """The die belongs to no seat: the turn driver's seat to move (red) moved it."""
    state = Game.open(rolled, writable=False).state
    toy = game_of(find_module("toy"))
    die = actions.move(state, "die", "track", spot="1")
    assert acting_seat(state, die, toy) == "red"
    cube = actions.move(state, "cube-blue-2", "track", spot="1")
    assert acting_seat(state, cube, toy) == "blue"
    out = tmp_path / "moved.jsonl"
    code, printed, err = run(capsys, "move", rolled, "--piece", "die", "--to", "track:1", "-o", out)
    assert code == 0, err
    assert entries(out)[-1].actor == "red"
    code, printed, err = run(
        capsys,
        "move",
        rolled,
        "--piece",
        "die",
        "--to",
        "track:1",
        "--seat",
        "blue",
        "-o",
        tmp_path / "by-blue.jsonl",
    )
    assert code == 0 and entries(tmp_path / "by-blue.jsonl")[-1].actor == "blue"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--piece", "nothing", "--to", "tray"), "there is no piece 'nothing'"),
        (("--piece", "die", "--to", "attic"), "there is no place 'attic'"),
        (("--piece", "die", "--to", "track"), "name a spot of track"),
        (("--piece", "die", "--to", "track:moon"), "track has no spot 'moon'"),
        (("--piece", "die", "--to", "tray:left"), "tray is a bowl and has no spots"),
        (("--piece", "die", "--to", "tray"), "die lies there already"),
        (("--piece", "die", "--to", "track:1", "--mode", "lenient"), "invalid choice: 'lenient'"),
        (("--piece", "die", "--to", "track:1", "--seat", "purple"), "no such seat"),
    ],
    ids=["piece", "place", "no-spot", "spot", "spotless", "same", "mode", "seat"],
)
def test_bad_input_is_one_line_exit_2_nothing_written(
    rolled, tmp_path, capsys, args, words
) -> None:
    out = tmp_path / "moved.jsonl"
    code, printed, err = run(capsys, "move", rolled, *args, "-o", out)
    assert code == 2 and printed == "" and err.count("\n") == 1 and words in err, err
    assert not out.exists() and sorted(os.listdir(tmp_path)) == ["race.jsonl", "rolled.jsonl"]


def test_a_missing_or_broken_file_is_one_line(tmp_path, capsys) -> None:
    out = tmp_path / "moved.jsonl"
    code, _, err = run(
        capsys, "move", tmp_path / "none.jsonl", "--piece", "die", "--to", "tray", "-o", out
    )
    assert code == 2 and err.count("\n") == 1 and "no such file" in err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a log"}\n')
    code, _, err = run(capsys, "move", broken, "--piece", "die", "--to", "tray", "-o", out)
    assert code == 2 and err.count("\n") == 1 and "broken.jsonl, line 1" in err
    assert not out.exists()


def test_an_existing_output_is_never_replaced(rolled, tmp_path, capsys) -> None:
    out = tmp_path / "taken.jsonl"
    out.write_text("mine")
    code, _, err = run(capsys, "move", rolled, "--piece", "die", "--to", "tray", "-o", out)
    assert code == 2 and "already exists" in err and out.read_text() == "mine"
