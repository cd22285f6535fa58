"""The session record from the command line: ``tabletop new --tester --where`` starts it,
``tabletop session`` prints it (testers, revision, variant, rules, where, when, playing time,
result, forms), ``tabletop form`` fills a player's form whole or not at all, bad values are one
plain message naming them. Greenland and Looot bot games played to the end by ``tabletop
simulate``: nothing here knows a game (table: no rulebook section applies)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.modules import find_module
from tabletop.modules.gamecode import game_of
from tabletop.persist import Game

BOTS = {"greenland": "greedy,random,random", "looot": "random,random"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def record(capsys: pytest.CaptureFixture[str], path: Path) -> dict:
    code, out, err = run(capsys, "session", str(path), "--json")
    assert code == 0, err
    return json.loads(out)


def finished(tmp_path: Path, capsys: pytest.CaptureFixture[str], module: str) -> Path:
    """A bot game of ``module`` played to its end by ``tabletop simulate``, its log kept."""
    folder = tmp_path / f"{module}-logs"
    code, _, err = run(
        capsys, "simulate", module, "--games", "1", "--seed", "3", "--bots", BOTS[module],
        "--save-logs", str(folder),
    )  # fmt: skip
    assert code == 0, err
    (path,) = folder.glob("*.jsonl")
    return path


@pytest.mark.parametrize("module", ["greenland", "looot"])
def test_table_new_starts_the_record_and_session_prints_it(tmp_path, capsys, module: str) -> None:
    path = tmp_path / "game.jsonl"
    code, _, err = run(
        capsys, "new", module, "--seats", "3", "--seed", "2", "--tester", "red=Ann",
        "--where", "the games club", "--rules", "strict", "-o", str(path),
    )  # fmt: skip
    assert code == 0, err
    found = record(capsys, path)
    game = Game.open(path, writable=False)
    assert found["module"] == {"id": module, "version": game.header.module_version}
    assert [d["sha256"] for d in found["revision"]] == [d["sha256"] for d in game.header.decks]
    assert found["variant"] == "standard"
    assert {t["seat"]: t["tester"] for t in found["testers"]}["red"] == "Ann"
    assert found["where"] == "the games club"
    assert found["start"] == game.header.created
    assert found["rules"]["start"] == {"mode": "strict"}
    assert found["result"] is None and "not over" in found["no_result"]  # no mid-game scores
    assert found["forms"] == {}
    code, out, _ = run(capsys, "session", str(path))
    assert "Testers: " in out and "red (" in out and "Ann" in out
    assert "Where: the games club" in out
    assert "Result: none (the game is not over" in out


def test_table_names_given_with_seats_are_the_testers(tmp_path, capsys) -> None:
    path = tmp_path / "game.jsonl"
    code, _, err = run(
        capsys, "new", "looot", "--seats", "red=Ann,blue=Bo", "--seed", "1", "-o", str(path)
    )  # fmt: skip
    assert code == 0, err
    assert {t["seat"]: t["tester"] for t in record(capsys, path)["testers"]} == {
        "red": "Ann",
        "blue": "Bo",
    }


def test_table_a_bad_tester_is_one_message_and_no_file(tmp_path, capsys) -> None:
    path = tmp_path / "game.jsonl"
    code, _, err = run(capsys, "new", "looot", "--seats", "2", "--tester", "Ann", "-o", str(path))
    assert code == 2 and "--tester 'Ann': write it as SEAT=NAME" in err
    code, _, err = run(
        capsys, "new", "looot", "--seats", "2", "--tester", "purple=Ann", "-o", str(path)
    )
    assert code == 2 and "no seat 'purple'" in err and "Traceback" not in err
    assert not path.exists()


@pytest.mark.parametrize("module", ["greenland", "looot"])
def test_table_a_finished_bot_game_has_its_result_and_takes_forms(
    tmp_path, capsys, module: str
) -> None:
    path = finished(tmp_path, capsys, module)
    game = Game.open(path, writable=False)
    rules = game_of(find_module(module))
    returns = rules.flow.returns(game.state)
    found = record(capsys, path)
    assert found["result_recorded"] is True and found["finished"] is True
    assert found["result"]["scores"] == pytest.approx(returns)
    best = max(returns.values())
    assert set(found["result"]["winners"]) <= {s for s, v in returns.items() if v == best}
    assert found["result"]["winners"]
    assert found["end"] and found["rules"]["strictness"] == "strict throughout: yes"
    seats = [s.id for s in game.header.seats]
    code, out, err = run(
        capsys, "form", str(path), "--seat", seats[0], "--fun", "4", "--length", "3",
        "--clarity", "5", "--text", "the end came fast",
    )  # fmt: skip
    assert code == 0, err
    assert "form of" in out
    code, _, err = run(capsys, "form", str(path), "--seat", seats[1], "--fun", "2")
    assert code == 0, err
    forms = record(capsys, path)["forms"]
    assert {k: forms[seats[0]][k] for k in ("fun", "length", "clarity", "text")} == {
        "fun": 4,
        "length": 3,
        "clarity": 5,
        "text": "the end came fast",
    }
    assert forms[seats[1]]["fun"] == 2 and forms[seats[1]]["clarity"] is None
    code, out, _ = run(capsys, "session", str(path))
    assert f"Winner: {', '.join(found['result']['winners'])}" in out
    assert "(fun 4, length 3, clarity 5): the end came fast" in out


def test_table_form_writes_whole_or_not_at_all(tmp_path, capsys) -> None:
    path = finished(tmp_path, capsys, "looot")
    before = path.read_bytes()
    out_path = tmp_path / "with-form.jsonl"
    code, _, err = run(
        capsys, "form", str(path), "--seat", "red", "--clarity", "2", "-o", str(out_path)
    )
    assert code == 0, err
    assert path.read_bytes() == before  # FILE is never changed with -o
    assert record(capsys, out_path)["forms"]["red"]["clarity"] == 2
    for argv, message in (
        (["--seat", "red", "--fun", "6"], "--fun 6: rate fun"),
        (["--seat", "red", "--length", "0"], "--length 0: rate length"),
        (["--seat", "purple", "--fun", "3"], "--seat 'purple': there is no such seat"),
        (["--seat", "red"], "a form needs at least one of"),
        (["--seat", "red", "--fun", "3", "-o", str(out_path)], "already exists"),
    ):
        code, _, err = run(capsys, "form", str(path), *argv)
        assert code == 2, argv
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before
    code, _, err = run(capsys, "form", str(path), "--seat", "red", "--fun", "x")
    assert code == 2 and "--fun" in err
    assert path.read_bytes() == before
    assert not list(tmp_path.glob(".*.tmp"))


def test_table_a_finished_game_without_its_result_gets_it_with_the_first_form(
    tmp_path, capsys
) -> None:
    path = finished(tmp_path, capsys, "greenland")
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    assert last["kind"] == "record" and last["cmd"]["action"] == "result"
    path.write_text("\n".join(lines[:-1]) + "\n")  # as a game finished before results were kept
    found = record(capsys, path)
    assert found["result_recorded"] is False and found["result"]["scores"]
    code, out, _ = run(capsys, "session", str(path))
    assert "(read from the final table; not yet in the log)" in out
    code, out, err = run(capsys, "form", str(path), "--seat", "red", "--fun", "5")
    assert code == 0, err
    assert "its result is now in the session record" in out
    again = record(capsys, path)
    assert again["result_recorded"] is True and again["result"] == found["result"]


def test_table_a_module_without_scoring_says_so(tmp_path, capsys) -> None:
    path = tmp_path / "proto.jsonl"
    code, _, err = run(capsys, "new", "proto", "--seats", "2", "--seed", "1", "-o", str(path))
    assert code == 0, err
    code, out, _ = run(capsys, "session", str(path))
    assert "Result: none (the game has no scoring: no result is recorded)" in out
    assert "Revision: " in out
