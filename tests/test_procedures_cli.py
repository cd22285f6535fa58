"""The generic command line of a game's procedures (rules_assist/cli.py), on the test game Tally
(tests/tally, tests/fixtures/modules/tally): ``tabletop run``, the ``tabletop MODULE`` shorthand,
the listing, and the commands that ask the game interface (score, inspect, check, simulate,
bench)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rules_assist.game import ProcedureTable
from tabletop import bench
from tabletop.cli import main
from tabletop.persist import Game
from tests.tally.game import PROCEDURES, TallyGame

MODULES = Path(__file__).parent / "fixtures" / "modules"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def tally_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_RESOURCES", str(MODULES))


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.jsonl"
    code, _, err = run(capsys, "new", "tally", "--seed", "3", "-o", path)
    assert code == 0, err
    return path


@pytest.fixture
def playing(game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A game past the bids: blue bid highest and rolls first."""
    out = tmp_path / "bid.jsonl"
    code, _, err = run(capsys, "run", game_file, "bid", "--bid", "blue=2", "-o", out)
    assert code == 0, err
    return out


def counters(path: Path) -> dict:
    return dict(Game.open(path, writable=False).state.counters)


def test_bid_answers_by_pairs_writes_out_and_leaves_file(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = game_file.read_bytes()
    out = tmp_path / "out.jsonl"
    code, printed, err = run(
        capsys, "run", game_file, "bid", "--bid", "red=1", "--bid", "blue=3", "-o", out
    )
    assert code == 0, err
    assert printed.strip() == f"{out}: bid: bids red 1, blue 3: blue starts"
    assert game_file.read_bytes() == before
    assert counters(out)["first"] == "blue" and counters(out)["phase"] == "play"
    entry = Game.open(out, writable=False).table.entries[-1]
    assert entry.command.procedure == "tally.bid"


def test_missing_answers_list_every_question_and_write_nothing(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    code, printed, err = run(capsys, "run", game_file, "bid", "-o", out)
    assert code == 2 and printed == ""
    lines = err.splitlines()
    assert lines[0] == "tabletop run: bid needs answers (nothing was written):"
    assert lines[1:] == [
        "  Red's bid (choice 'bid_red': 0, 1, 2, 3): answer with --bid red=VALUE",
        "  Blue's bid (choice 'bid_blue': 0, 1, 2, 3): answer with --bid blue=VALUE",
    ]
    assert not out.exists() and not Path(f"{out}.part").exists()


def test_a_flag_answers_yes_or_no_and_dice_are_forced(
    playing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rolled.jsonl"
    code, printed, err = run(
        capsys, "run", playing, "roll", "--seat", "blue", "--dice", "2,5", "--again", "-o", out
    )
    assert code == 0, err
    assert "blue tallies 5" in printed and counters(out)["tally_blue"] == 5
    out2 = tmp_path / "stood.jsonl"
    argv = ["run", out, "roll", "--seat", "red", "--dice", "4", "--stand", "--bonus", "2"]
    code, printed, err = run(capsys, *argv, "-o", out2)
    assert code == 0, err
    assert counters(out2)["tally_red"] == 6
    out3 = tmp_path / "chosen.jsonl"  # --choice answers any question by its key
    argv = ["run", out2, "roll", "--seat", "blue", "--dice", "1,3", "--choice", "again=yes"]
    code, _, err = run(capsys, *argv, "-o", out3)
    assert code == 0, err
    assert counters(out3)["tally_blue"] == 8


def test_an_unanswered_flag_names_its_option(
    playing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "run", playing, "roll", "--seat", "blue", "-o", tmp_path / "o")
    assert code == 2
    assert "(choice 'again': yes or no): answer with --again/--stand" in err
    assert not (tmp_path / "o").exists()


def test_the_shorthand_names_the_module_first(
    playing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gift.jsonl"
    argv = ["tally", "roll", playing, "--seat", "blue", "--dice", "6", "--stand", "-o", out]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    out2 = tmp_path / "gift2.jsonl"
    code, printed, err = run(
        capsys, "tally", "give", out, "--seat", "blue", "--to", "red", "--points", "4", "-o", out2
    )
    assert code == 0, err
    assert "blue gives red 4" in printed
    assert counters(out2)["tally_red"] == 4 and counters(out2)["tally_blue"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "{game}", "roll", "--seat", "red", "-o", "{new}"], "belongs to the Play phase"),
        (["run", "{playing}", "roll", "-o", "{new}"], "--seat: name the seat acting (red, blue)"),
        (["run", "{playing}", "roll", "--seat", "purple", "-o", "{new}"], "no such seat"),
        (
            ["run", "{playing}", "roll", "--seat", "blue", "--dice", "7", "-o", "{new}"],
            "--dice '7'",
        ),
        (["run", "{playing}", "roll", "--seat", "red", "--stand", "-o", "{new}"], "blue's roll"),
        (
            ["run", "{playing}", "give", "--seat", "red", "--to", "gold", "-o", "{new}"],
            "--to 'gold'",
        ),
        (["run", "{game}", "bid", "--bid", "gold=1", "-o", "{new}"], "gold is not at the table"),
        (["run", "{game}", "bid", "--bid", "red", "-o", "{new}"], "write it as KEY=VALUE"),
        (["run", "{game}", "bid", "--choice", "bid_red=9", "-o", "{new}"], "not one of 0, 1, 2, 3"),
        (["run", "{game}", "bid", "--bid", "red=1", "-o", "{game}"], "already exists"),
        (["run", "{broken}", "bid", "-o", "{new}"], "line 2: it is not valid JSON"),
        (["run", "{missing}", "bid", "-o", "{new}"], "no such file"),
        (["run", "{game}", "hunt", "-o", "{new}"], "invalid choice: 'hunt'"),
        (["tally", "bid", "{boards}", "-o", "{new}"], "a game of boards, not of tally"),
        (["run", "{boards}", "--list"], "no procedures"),
        (["simulate", "boards"], "has no bots"),
        (["simulate", "tally", "--bots", "random,clever"], "each bot is random"),
        (["simulate", "tally", "--bots", "random,random,random,random"], "2 to 3 players, not 4"),
        (["procedures", "boards"], "no procedures"),
        (["new", "tally", "--norse-animal", "pony", "-o", "{new}"], "unrecognized argument"),
        (["check", "{game}"], "Tally has no rules assistant to check with"),
        (["run"], "name a game file first"),
        (["run", "{game}"], "name a procedure of Tally ('tabletop run"),
        (["score", "{boards}"], "has no scoring"),
    ],
)
def test_errors_are_plain_and_write_nothing(
    argv: list[str],
    message: str,
    game_file: Path,
    playing: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(game_file.read_text().replace("\n", "\n{oops\n", 1))
    boards = tmp_path / "boards.jsonl"  # a module with no game
    assert main(["new", "boards", "--seed", "1", "-o", str(boards)]) == 0
    capsys.readouterr()
    paths = {
        "game": game_file,
        "playing": playing,
        "broken": broken,
        "missing": tmp_path / "missing.jsonl",
        "new": tmp_path / "new.jsonl",
        "boards": boards,
    }
    before = {p: p.read_bytes() for p in (game_file, playing, broken)}
    try:
        code = main([a.format(**paths) for a in argv])
    except SystemExit as exited:  # argparse: one line, exit code 2
        code = exited.code
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert {p: p.read_bytes() for p in before} == before
    assert not (tmp_path / "new.jsonl").exists()
    assert not list(tmp_path.glob("*.part"))


def test_a_parameter_no_option_gives_is_named(
    playing: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A procedure whose options are not all described yet stops before it runs."""
    undescribed = ProcedureTable(
        [dataclasses.replace(s, parameters=()) if s.name == "give" else s for s in PROCEDURES]
    )
    monkeypatch.setattr(TallyGame, "procedures", property(lambda self: undescribed))
    code, _, err = run(capsys, "run", playing, "give", "--seat", "red", "-o", tmp_path / "o")
    assert code == 2
    assert err == "tabletop run: give needs seat, to, which none of its options gives\n"


def test_list_and_procedures_show_sections_phases_and_options(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, listed, _ = run(capsys, "run", game_file, "--list")
    assert code == 0
    lines = listed.splitlines()
    assert lines[0] == "bid (T1) [Bidding]: every seat bids; the highest starts"
    assert "    --bid SEAT=N (answers 'bid_{key}'): a seat's bid, e.g. red=2" in lines[1]
    assert "roll (T2) [Play]: the seat to roll rolls the die" in lines
    assert "    --seat SEAT (required)" in lines
    assert "    --again/--stand (answers 'again'): roll again" in lines
    assert "give (T3) [Play, Game over]: give points of your tally to another seat" in lines
    code, again, _ = run(capsys, "procedures", "tally")
    assert code == 0 and again == listed


def test_help_of_a_procedure(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", str(game_file), "roll", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "--again" in out and "--stand" in out and "--bonus" in out and "--dice" in out
    assert "e.g. tabletop run game.jsonl roll --seat red --stand -o next.jsonl" in out


def test_score_inspect_and_check_ask_the_game(
    playing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "score", playing)
    assert code == 0
    assert out.splitlines() == [
        f"{playing}: projected score (the game goes on)",
        f"{'player':<16}{'tally':>12}",
        f"{'red (Red)':<16}{0:>12}",
        f"{'blue (Blue)':<16}{0:>12}",
    ]
    code, out, _ = run(capsys, "score", playing, "--json")
    assert json.loads(out) == {"red": {"tally": 0}, "blue": {"tally": 0}}
    code, out, _ = run(capsys, "inspect", playing)
    assert code == 0 and out.splitlines()[-2:] == ["Red: tally 0", "Blue: tally 0"]


def test_simulate_plays_through_the_flow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    argv = ["simulate", "tally", "--games", "3", "--seed", "5", "--json", "--save-logs", logs]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 3 and data["bots"] == {"red": "random", "blue": "random"}
    assert sum(data[s]["wins"] for s in ("red", "blue")) >= 3  # ties all win
    assert "3/3" in err
    assert sorted(p.name for p in logs.iterdir()) == [
        "game-5.jsonl",
        "game-6.jsonl",
        "game-7.jsonl",
    ]
    with Game.open(logs / "game-5.jsonl", writable=False) as game:
        assert game.state.counters["phase"] == "over" and game.state.counters["rolled"] == 4
    code, out, err = run(
        capsys,
        "simulate",
        "tally",
        "--games",
        "2",
        "--bots",
        "random,random,random",
        "--variant",
        "long",
    )
    assert code == 0, err
    assert "2 games of Tally (long)" in out and "green" in out
    assert run(capsys, *argv)[0] == 2  # the logs are there: nothing is overwritten


def test_bench_asks_every_game_for_its_figures() -> None:
    said: list[str] = []
    assert bench.games_figures(said.append) == {"tally_bench": 1}
    assert said == ["rolling a tally"]


def test_deck_list_names_its_module(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["deck", "list"])
    assert exited.value.code == 2 and "module" in capsys.readouterr().err


def test_without_seat_the_game_names_who_acts(
    game_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --seat a run acts for the table (the game's id), or for whom the game's
    ``default_actor`` names; --seat overrides it."""
    out = tmp_path / "table.jsonl"
    code, _, err = run(capsys, "run", game_file, "bid", "--bid", "red=1", "-o", out)
    assert code == 0, err
    assert Game.open(out, writable=False).table.entries[-1].actor == "tally"
    seen = []

    def highest_bidder(self, state, spec, params) -> str:  # noqa: ANN001
        seen.append((spec.name, dict(params)))
        return "blue"

    monkeypatch.setattr(TallyGame, "default_actor", highest_bidder)
    out2 = tmp_path / "named.jsonl"
    code, _, err = run(capsys, "run", game_file, "bid", "--bid", "red=1", "-o", out2)
    assert code == 0, err
    assert Game.open(out2, writable=False).table.entries[-1].actor == "blue"
    assert seen == [("bid", {})]
    out3 = tmp_path / "seated.jsonl"
    code, _, err = run(
        capsys, "run", game_file, "bid", "--seat", "red", "-o", out3, "--bid", "red=1"
    )
    assert code == 0, err
    assert Game.open(out3, writable=False).table.entries[-1].actor == "red"
