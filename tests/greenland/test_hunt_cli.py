"""``tabletop greenland hunt``: a hunt on a game file, written to a new file; one line a problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.reading import read
from tabletop.cli import main
from tabletop.modules import find_module
from tabletop.persist import Game

POSITION = """
phase = "hunt"
[rows.north]
cold = ["Walrus"]
warm = ["Dogs"]
[cultures.red]
unassigned = 1
elders = {6 = 2}
hunters = {Walrus = 6}
energy = 3
ivory = 0
iron = 0
tableau = ["Toggle-head Harpoon"]
[cultures.yellow]
alpha = "Dogs"
hunters = {Dogs = 2}
[cultures.green]
unassigned = 1
hunters = {Dogs = 3}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    position = tmp_path / "position.toml"
    position.write_text(POSITION)
    path = tmp_path / "game.jsonl"
    code, _, err = run(
        capsys, "new", "greenland", "--position", str(position), "--seed", "2", "-o", str(path)
    )
    assert code == 0, err
    return path


def reading(path: Path) -> dict:
    game = Game.open(path, writable=False)
    return read(game.state, Cards.of(find_module("greenland")))


def test_g8_a_hunt_writes_out_and_leaves_file_unchanged(game_file, tmp_path, capsys) -> None:
    before = game_file.read_bytes()
    out = tmp_path / "after.jsonl"
    argv = ["greenland", "hunt", str(game_file), "--card", "walrus", "-o", str(out)]
    code, printed, err = run(capsys, *argv, "--dice", "1,2,3,4,4,6", "--modify")
    assert code == 0, err
    assert printed.strip() == (
        f"{out}: hunt: Red hunts Walrus: 1 2 3 4 4 6, the 3 becomes a 1 (Toggle-head Harpoon) "
        "→ 2 hits of 2: success; 4 babies, 2 energy, 1 ivory"
    )
    assert game_file.read_bytes() == before
    red = reading(out)["cultures"]["red"]
    assert (red["unassigned"], red["energy"], red["ivory"]) == (11, 5, 1)
    game = Game.open(out, writable=False)
    last = game.table.entries[-1]
    assert last.actor == "red" and last.command.procedure == "greenland.hunt"


def test_g3_a_missing_choice_exits_2_naming_its_option(game_file, tmp_path, capsys) -> None:
    before = game_file.read_bytes()
    out = tmp_path / "after.jsonl"
    argv = ["greenland", "hunt", str(game_file), "--card", "Walrus", "-o", str(out)]
    code, printed, err = run(capsys, *argv, "--dice", "1,2,3,4,4,6")
    assert code == 2 and printed == ""
    assert err.splitlines() == [
        "tabletop greenland: hunt needs answers (nothing was written):",
        "  Red: count the 3s as 1s on Walrus (Toggle-head Harpoon, G3)?"
        " (choice 'modify': yes or no): answer with --modify/--no-modify",
    ]
    assert not out.exists() and not Path(f"{out}.part").exists()
    assert game_file.read_bytes() == before


def test_a4_several_cultures_are_answered_by_name(game_file, tmp_path, capsys) -> None:
    out = tmp_path / "dogs.jsonl"
    argv = ["greenland", "hunt", str(game_file), "--card", "Dogs", "-o", str(out)]
    code, _, err = run(capsys, *argv, "--dice", "1,5")
    assert code == 2 and "choice 'yellow.alpha'" in err and "--choice yellow.alpha=VALUE" in err
    code, printed, err = run(capsys, *argv, "--dice", "1,5", "--choice", "yellow.alpha=no")
    assert code == 0, err
    assert printed.strip() == (
        f"{out}: hunt: Yellow hunts Dogs: 1 5 → 1 hit of 1: success; 2 babies, 1 ivory; "
        "Green go home unsuccessful (G4)"
    )
    assert reading(out)["cultures"]["green"]["unassigned"] == 4


def test_unknown_or_absent_cards_are_clear_errors(game_file, tmp_path, capsys) -> None:
    out = tmp_path / "after.jsonl"
    base = ["greenland", "hunt", str(game_file), "-o", str(out)]
    code, _, err = run(capsys, *base, "--card", "Wallrus")
    assert code == 2 and "'Wallrus': there is no card of that name" in err
    code, _, err = run(capsys, *base, "--card", "Caribou")
    assert code == 2 and "Caribou is not in a row or a tableau" in err
    code, _, err = run(capsys, *base, "--card", "Walrus", "--seat", "green")
    assert code == 2 and "Green has no hunters on Walrus" in err
    assert not out.exists()


def test_a4_seat_rolls_for_one_culture_only(game_file, tmp_path, capsys) -> None:
    out = tmp_path / "yellow.jsonl"
    argv = ["greenland", "hunt", str(game_file), "--card", "Dogs", "-o", str(out)]
    code, _, err = run(capsys, *argv, "--seat", "green", "--dice", "1,5")
    assert code == 2 and "Yellow rolls on Dogs before Green (A4" in err and not out.exists()
    code, printed, err = run(capsys, *argv, "--seat", "yellow", "--dice", "1,5", "--no-alpha")
    assert code == 0, err
    assert printed.strip() == (  # the one success takes all (G4)
        f"{out}: hunt: Yellow hunts Dogs: 1 5 → 1 hit of 1: success; 2 babies, 1 ivory; "
        "Green go home unsuccessful (G4)"
    )
    game = Game.open(out, writable=False)
    assert game.table.entries[-1].actor == "yellow"


def test_g3_a_negative_flag_answers_no(game_file, tmp_path, capsys) -> None:
    out = tmp_path / "after.jsonl"
    argv = ["greenland", "hunt", str(game_file), "--card", "Walrus", "-o", str(out)]
    code, printed, err = run(capsys, *argv, "--dice", "1,2,3,4,4,6", "--no-modify")
    assert code == 0, err
    assert "Red hunts Walrus: 1 2 3 4 4 6 → 1 hit of 2; the 3 kills a hunter" in printed
