"""The tabletop command: each subcommand, and one clear line (exit 2) for each bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop import bench
from tabletop.cli import main
from tabletop.cli_games import game_module
from tabletop.core import actions
from tabletop.modules.words import piece_words
from tabletop.persist import Game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.jsonl"
    code, out, _ = run(
        capsys,
        "new",
        "proto",
        "--seats",
        "red=Ann,blue=Bo",
        "--seed",
        "4",
        "--notes",
        "t",
        "-o",
        str(path),
    )
    assert code == 0 and "seed 4" in out and "Ann, Bo" in out
    return path


def test_new_then_inspect(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "inspect", str(game_file))
    assert code == 0
    assert "proto 1.0, seed 4" in out and "Notes: t" in out
    assert "Ann's hand [hand_red], hand: 4" in out
    assert "coin-1 .. coin-20 (20)" in out
    assert "Ann: 4 in hand, 15 in reserve, 0 in tableau, score 0" in out  # the module's own summary


def test_inspect_json_at_and_seat(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "inspect", str(game_file), "--json")
    data = json.loads(out)
    assert code == 0 and data["module"] == "proto" and data["at"] == data["of"]
    assert data["places"]["hand_red"]["count"] == 4
    assert data["summary"][0] == "Seats:"
    _, out, _ = run(capsys, "inspect", str(game_file), "--json", "--at", "1")
    assert json.loads(out)["pieces"] == 0
    _, out, _ = run(capsys, "inspect", str(game_file), "--json", "--seat", "red")
    places = json.loads(out)["places"]
    assert all(p["id"] != "(hidden)" for p in places["hand_red"]["pieces"])
    assert all(p["id"] == "(hidden)" for p in places["hand_blue"]["pieces"])
    assert all(p["id"] == "(hidden)" for p in places["deck"]["pieces"])


def test_log_lines(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.open(game_file)
    game.table.roll(["die-1", "die-2"], "red")
    game.table.undo("blue")
    game.close()
    code, out, _ = run(capsys, "log", str(game_file), "--last", "2")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert "Ann" in lines[0] and "rolled a six-sided die=" in lines[0]
    assert "die-1" not in lines[0]  # people's words: the dice by kind, not by id
    assert "Bo" in lines[1] and "undid #15" in lines[1]
    _, out, _ = run(capsys, "log", str(game_file), "--json")
    assert len(out.splitlines()) == 16


def test_log_seat_and_spectator_name_a_card_drawn_face_down_to_its_owner_only(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file holds everything; --seat and --spectator print only what that reader saw."""
    game = Game.open(game_file)
    card = game.state.places["deck"].contents[-1]
    game.table.submit(actions.move(game.state, card, "hand_red"), "red")
    game.close()
    name = piece_words(game_module(game)).face(game.state.pieces[card])
    drawn = f"moved {name} from Draw deck to Ann's hand"
    _, out, _ = run(capsys, "log", str(game_file), "--last", "1")
    assert drawn in out and card not in out  # the plain log: everything, in names
    code, out, _ = run(capsys, "log", str(game_file), "--last", "1", "--seat", "red")
    assert code == 0 and drawn in out and "Ann" in out
    for reader in (["--seat", "blue"], ["--spectator"]):
        code, out, _ = run(capsys, "log", str(game_file), "--last", "1", *reader)
        assert code == 0 and card not in out and name not in out, reader
        assert "moved a Prototype card from Draw deck to Ann's hand" in out, reader
    _, whole, _ = run(capsys, "log", str(game_file), "--spectator")
    assert (
        len(whole.splitlines()) == 15 + 1 and card not in whole and name not in whole
    )  # the lines, then the verdict
    with pytest.raises(SystemExit):
        run(capsys, "log", "--help")
    out = capsys.readouterr().out
    assert "--seat" in out and "--spectator" in out and "holds everything" in out


def test_replay_branches(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    branch = tmp_path / "branch.jsonl"
    code, out, _ = run(capsys, "replay", str(game_file), "--to", "5", "-o", str(branch))
    assert code == 0 and "entries 1 to 5" in out
    opened = Game.open(branch, writable=False)
    assert opened.table.seq == 5
    assert opened.header.extra["branched_from"] == {"file": "game.jsonl", "seq": 5}
    assert opened.state.digest() == Game.open(game_file, writable=False).table.state_at(5).digest()


def test_modules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "modules", "--json")
    assert code == 0 and any(m["id"] == "proto" for m in json.loads(out))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["inspect", "{missing}"], "no such file"),
        (["inspect", "{game}", "--at", "999"], "there is no entry 999"),
        (["inspect", "{game}", "--seat", "purple"], "no seat 'purple'"),
        (["log", "{broken}"], "line 3: it is not valid JSON"),
        (["log", "{game}", "--seat", "purple"], "no seat 'purple'"),
        (["log", "{game}", "--seat", "red", "--json"], "leave out --seat"),
        (["new", "nosuchgame", "-o", "{new}"], "no such module"),
        (["new", "proto", "-o", "{game}"], "already exists"),
        (["new", "proto", "-o", "{nofolder}"], "does not exist"),
        (["new", "proto", "--seats", "9", "-o", "{new}"], "1 to 4 players, not 9"),
        (["replay", "{game}", "--to", "-1", "-o", "{new}"], "there is no entry -1"),
        (["replay", "{game}", "--to", "3", "-o", "{game}"], "already exists"),
        (["inspect", "{folder}"], "folder"),
    ],
)
def test_errors_are_one_line_and_change_nothing(
    argv: list[str],
    message: str,
    game_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = game_file.read_text().splitlines(keepends=True)
    broken.write_text("".join(lines[:2]) + "{oops\n" + "".join(lines[3:]))
    paths = {
        "game": game_file,
        "missing": tmp_path / "missing.jsonl",
        "broken": broken,
        "new": tmp_path / "new.jsonl",
        "nofolder": tmp_path / "no" / "such" / "g.jsonl",
        "folder": tmp_path,
    }
    before = {p: p.read_bytes() for p in (game_file, broken)}
    code, out, err = run(capsys, *[a.format(**paths) for a in argv])
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert {p: p.read_bytes() for p in before} == before
    assert not (tmp_path / "new.jsonl").exists()


def test_argument_errors_exit_2_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["inspect"], ["frobnicate"], ["inspect", "x", "--at", "soon"], []):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("tabletop")


def test_console_script_no_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "inspect", str(tmp_path / "none.jsonl")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.strip().endswith("no such file") and "Traceback" not in result.stderr


def test_bench_log_is_a_valid_game(tmp_path: Path) -> None:
    """The benchmark's generated play replays to the same table (figures are not tested)."""
    game = bench.write_bench_log(tmp_path / "b.jsonl", commands=400)
    digest = game.table.state.digest()
    game.close()
    assert Game.open(tmp_path / "b.jsonl", writable=False).state.digest() == digest
    assert len(game.table.state.pieces) == bench.PIECES
