"""``tabletop sessions DIR...``: one row per game file, the playtest spreadsheet. Built from
Greenland and Looot bot games played to the end by ``tabletop simulate``, with notes
(``tabletop note``), forms (``tabletop form``), and a Greenland game whose moves were flagged
(E1) and forced past the rules; the numbers in the CSV and JSON are checked against what the
game files say. A broken file among them is named and the others are still listed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.core import Mode, Policy, actions
from tabletop.modules import find_module, new_game
from tabletop.modules.gamecode import game_of
from tabletop.modules.rules import attach_checker
from tabletop.persist import Game

BOTS = {"greenland": "greedy,random,random", "looot": "random,random"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def simulated(folder: Path, capsys: pytest.CaptureFixture[str], module: str, games: int) -> None:
    code, _, err = run(
        capsys, "simulate", module, "--games", str(games), "--seed", "3", "--bots",
        BOTS[module], "--save-logs", str(folder),
    )  # fmt: skip
    assert code == 0, err


def flagged_and_forced(path: Path) -> tuple[int, int]:
    """E1: a fifth Norse cube on the walrus behind its one mariner is flagged (advisory
    rules); then, under strict rules, a sixth is forced past them with a reason. Returns the
    findings and the forced moves the log holds."""
    greenland = find_module("greenland")
    position = path.parent / "position.toml"
    position.write_text(
        'phase = "assignment"\n[rows.north]\nwarm = ["Walrus"]\n[cultures.red]\nunassigned = 10\n'
    )
    game = new_game(greenland, seed=1, position=str(position), path=path)
    assert attach_checker(game.table, greenland)
    cubes = [p for p in game.state.places["hunters_red"].contents if p.startswith("cube")]

    def put(pids: list[str], force: str | None = None) -> None:
        command = actions.build_sequence(
            game.state,
            f"put {len(pids)} on walrus",
            [lambda s, p=p: actions.move(s, p, "walrus", spot="hunters") for p in pids],
        )
        game.table.submit(command, "red", force=force)

    put(cubes[:4])
    put(cubes[4:5])
    game.table.set_policy(Policy(Mode.STRICT), "red")
    put(cubes[5:6], force="our house rule lets a sixth hunter in")
    findings = sum(len(e.findings) for e in game.table.entries)
    overrides = sum(1 for e in game.table.entries if e.override)
    game.close()
    position.unlink()
    return findings, overrides


@pytest.fixture
def sessions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder of sessions: two Greenland and two Looot bot games (in subfolders), forms and
    notes on some, a flagged Greenland game, and a file that is not a game."""
    root = tmp_path / "sessions"
    simulated(root / "greenland", capsys, "greenland", 2)
    simulated(root / "looot" / "week1", capsys, "looot", 2)
    return root


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_table_sessions_lists_bot_games_with_their_forms_notes_findings_and_scores(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    greenland_logs = sorted((sessions / "greenland").glob("*.jsonl"))
    looot_logs = sorted((sessions / "looot").rglob("*.jsonl"))
    assert len(greenland_logs) == 2 and len(looot_logs) == 2
    first = greenland_logs[0]
    seats = [s.id for s in Game.open(first, writable=False).header.seats]
    for seat, fun, length, clarity in ((seats[0], 4, 3, 5), (seats[1], 2, 4, None)):
        argv = ["form", str(first), "--seat", seat, "--fun", str(fun), "--length", str(length)]
        if clarity is not None:
            argv += ["--clarity", str(clarity)]
        assert run(capsys, *argv)[0] == 0
    for tag, text in (("balance", "walrus too strong"), ("rules", "who hunts first?")):
        assert run(capsys, "note", str(first), "--tag", tag, text)[0] == 0
    assert run(capsys, "note", str(looot_logs[1]), "--tag", "typo", "the legend")[0] == 0
    flagged = sessions / "greenland" / "flagged.jsonl"
    findings, overrides = flagged_and_forced(flagged)
    assert findings >= 2 and overrides == 1

    code, out, err = run(capsys, "sessions", str(sessions), "--csv")
    assert code == 0, err
    rows = {r["file"]: r for r in csv_rows(out)}
    assert len(rows) == 5
    header = out.splitlines()[0].split(",")
    assert header[:3] == ["file", "module", "version"] and header[-1] == "policy"
    assert [c for c in header if c.startswith("score:")] == sorted(
        c for c in header if c.startswith("score:")
    )

    # each finished bot game: its scores and winners are the flow's returns
    for path in [*greenland_logs, *looot_logs]:
        game = Game.open(path, writable=False)
        module = find_module(game.header.module)
        flow = game_of(module).flow
        returns = flow.returns(game.state)
        row = rows[str(path)]
        assert row["module"] == game.header.module
        assert row["version"] == game.header.module_version
        assert row["seed"] == str(game.header.seed)
        assert row["finished"] == "yes"
        assert row["entries"] == str(game.table.seq)
        assert row["turns"] == str(flow.status(game.state).turn)
        for seat, value in returns.items():
            assert float(row[f"score:{seat}"]) == pytest.approx(value)
        best = max(returns.values())
        assert set(row["winners"].split("; ")) <= {s for s, v in returns.items() if v == best}
        assert row["deck_sha256"] == "+".join(d["sha256"][:12] for d in game.header.decks)
        assert row["policy"] == "strict throughout: yes"
        assert row["findings"] == "0" and row["overrides"] == "0"

    formed = rows[str(first)]
    assert formed["forms"] == "2"
    assert float(formed["form_fun"]) == pytest.approx(3.0)
    assert float(formed["form_length"]) == pytest.approx(3.5)
    assert float(formed["form_clarity"]) == pytest.approx(5.0)
    assert formed["notes"] == "2"
    assert formed["notes:balance"] == "1" and formed["notes:rules"] == "1"
    assert formed["notes:typo"] == "0"
    assert rows[str(looot_logs[1])]["notes:typo"] == "1"
    assert rows[str(greenland_logs[1])]["forms"] == "0"
    assert rows[str(greenland_logs[1])]["form_fun"] == ""

    forced = rows[str(flagged)]
    assert forced["findings"] == str(findings) and forced["overrides"] == "1"
    assert forced["finished"] == "no" and forced["winners"] == ""
    assert forced["policy"].startswith("strict throughout: no")

    code, out, err = run(capsys, "sessions", str(sessions), "--json")
    assert code == 0, err
    objects = {o["file"]: o for o in json.loads(out)}
    assert objects[str(first)]["form_means"] == {"fun": 3, "length": 3.5, "clarity": 5}
    assert objects[str(first)]["notes_by_tag"]["balance"] == 1
    assert objects[str(flagged)]["overrides"] == 1
    assert objects[str(flagged)]["findings"] == findings
    assert objects[str(flagged)]["scores"] == {} and objects[str(flagged)]["finished"] is False
    for name, row in rows.items():
        for key, value in objects[name]["scores"].items():
            assert float(row[f"score:{key}"]) == pytest.approx(value)

    code, out, err = run(capsys, "sessions", str(sessions))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["file", "game", "variant"] and len(lines) == 6
    assert lines[1].index(" greenland ") + 1 == lines[0].index("game")  # the columns are aligned


def test_table_a_broken_file_is_named_and_the_others_still_listed(
    sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = sessions / "looot" / "broken.jsonl"
    broken.write_text('{"this is": "not a game"}\n', encoding="utf-8")
    missing = tmp_path / "nowhere"
    out_file = tmp_path / "sheet.csv"
    code, out, err = run(capsys, "sessions", str(sessions), str(missing), "-o", str(out_file))
    assert code == 1
    problems = [line for line in err.splitlines() if line.startswith("tabletop sessions:")]
    assert len(problems) == 2
    assert any(str(broken) in line for line in problems)
    assert any(str(missing) in line for line in problems)
    assert "Traceback" not in err and out == ""
    rows = csv_rows(out_file.read_text(encoding="utf-8"))
    assert len(rows) == 4 and all(r["finished"] == "yes" for r in rows)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".sessions-")]
    code, out, _ = run(capsys, "sessions", str(sessions / "greenland"), "--json")
    assert code == 0 and len(json.loads(out)) == 2
