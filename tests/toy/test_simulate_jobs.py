"""Many games on every core (rules_assist/simulate.py ``simulate`` with ``jobs``, ``tabletop
simulate --jobs --summary``), on Race: the same seeds give the same summary in one process or
in worker processes, the summary's intervals, its file written whole, a bad ``--jobs``, a worker's
failure named by its seed, and Ctrl+C (no rulebook section applies: table)."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules_assist.simulate import (
    SimulationError,
    log_name,
    mean_interval,
    simulate,
    wilson_interval,
)
from tabletop.cli import main
from tabletop.modules import load_module
from tabletop.modules.rules import game_of
from tabletop.persist import Game, atomic

FOLDER = Path(__file__).parent
SEATS = ["red", "blue", "green"]
RUN_ONLY = ("games_per_s", "run")  # how fast this run went: the only keys that differ


@pytest.fixture(scope="module")
def game():
    return game_of(load_module(FOLDER))


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def results(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in RUN_ONLY}


def miscounted(tmp_path: Path) -> Path:
    """A copy of Race with a variant whose number of cubes is no number: its setup fails."""
    folder = tmp_path / "race"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    with open(folder / "module.toml", "a", encoding="utf-8") as manifest:
        manifest.write(
            '\n[[variants]]\nid = "miscounted"\nname = "Miscounted"\n'
            'description = "Cubes without a number."\nparams = { cubes = "many" }\n'
        )
    return folder


def test_table_one_process_and_two_workers_give_the_same_summary(game):
    heard: list[tuple[int, int]] = []
    alone = simulate(game, "standard", ["random"], 20, seed=11, seats=SEATS, jobs=1)
    shared = simulate(
        game,
        "standard",
        ["random"],
        20,
        seed=11,
        seats=SEATS,
        jobs=2,
        progress=lambda done, total: heard.append((done, total)),
    )
    assert results(shared) == results(alone)
    assert json.dumps(results(shared)) == json.dumps(results(alone))  # in the same order too
    assert (alone["run"]["jobs"], shared["run"]["jobs"]) == (1, 2)
    assert [row["seed"] for row in shared["rows"]] == list(range(11, 31))
    assert heard == [(n, 20) for n in range(1, 21)]  # every game heard as it finished


def test_table_a_row_a_game_and_the_counts_it_sums_to(game):
    summary = simulate(game, "standard", ["random"] * 3, 12, seed=3, seats=SEATS)
    rows = summary["rows"]
    assert [row["seed"] for row in rows] == list(range(3, 15))
    assert summary["seeds"] == {"first": 3, "last": 14}
    assert summary["bots"] == {"red": "random", "blue": "random", "green": "random"}
    for row in rows:
        assert [(s["seat"], s["bot"]) for s in row["seats"]] == list(summary["bots"].items())
        assert row["first"] in SEATS and row["actions"] > 0
        assert any(s["winner"] for s in row["seats"])
        best = max(s["score"] for s in row["seats"])
        assert all(s["winner"] == (s["score"] == best) for s in row["seats"])
    for k, seat in enumerate(SEATS):
        wins = sum(row["seats"][k]["winner"] for row in rows)
        scores = [row["seats"][k]["score"] for row in rows]
        found = summary[seat]
        assert found["wins"] == wins and found["win_rate"] == round(wins / 12, 3)
        low, high = wilson_interval(wins, 12)
        assert found["win_rate_ci95"] == [round(low, 4), round(high, 4)]
        mean = sum(scores) / 12
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / 11)
        assert found["mean_score_ci95"] == pytest.approx(
            [mean - 1.96 * sd / math.sqrt(12), mean + 1.96 * sd / math.sqrt(12)], abs=2e-3
        )
    assert summary["module"] == {"id": "toy", "name": "Race", "version": "1.0"}
    assert summary["intervals"]["win_rate_ci95"].startswith("Wilson")


def test_table_wilson_interval_by_hand():
    """2 wins in 6 games, z = 1.96: p = 1/3, centre (p + z^2/12) / (1 + z^2/6) = 0.3984, half
    width z / (1 + z^2/6) * sqrt(p(1-p)/6 + z^2/144) = 0.3016: from 0.0968 to 0.7000. No win in
    10 games: from 0 to z^2/10 / (1 + z^2/10) = 0.2775."""
    low, high = wilson_interval(2, 6)
    assert (round(low, 4), round(high, 4)) == (0.0968, 0.7)
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    low, high = wilson_interval(10, 10)
    assert (round(low, 4), high) == (0.7225, 1.0)
    assert mean_interval([2.0, 4.0, 6.0]) == pytest.approx(
        (4 - 1.96 * 2 / 3**0.5, 4 + 1.96 * 2 / 3**0.5), abs=1e-3
    )
    assert mean_interval([5.0]) == (5.0, 5.0)


def test_table_summary_file_is_written_whole_and_never_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    target = tmp_path / "race.json"
    renamed: list[tuple[str, str, str]] = []
    finish = atomic._finish

    def watched(src, dst, *rest):  # what the file held when it took its name
        renamed.append((os.fspath(src), os.fspath(dst), Path(src).read_text(encoding="utf-8")))
        finish(src, dst, *rest)

    monkeypatch.setattr(atomic, "_finish", watched)
    argv = ["simulate", FOLDER, "--games", "4", "--seed", "2", "--jobs", "1", "--json"]
    code, out, err = cli(capsys, *argv, "--summary", target)
    assert code == 0, err
    ((src, dst, text),) = [r for r in renamed if r[1] == str(target)]
    assert Path(src).parent == tmp_path and Path(src).name.startswith(".race.json.")
    assert json.loads(text) == json.loads(out) == json.loads(target.read_text(encoding="utf-8"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.json"]  # no temporary file left
    before = target.read_bytes()
    code, out, err = cli(capsys, *argv, "--summary", target)
    assert code == 2 and "race.json: already exists" in err and out == ""
    assert target.read_bytes() == before


def test_table_the_text_shows_the_intervals(capsys: pytest.CaptureFixture[str]):
    code, out, err = cli(capsys, "simulate", FOLDER, "--games", "3", "--jobs", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert "95% interval" in lines[1]
    assert "Wilson" in lines[-1] and "normal approximation" in lines[-1]


@pytest.mark.parametrize(
    ("jobs", "message"),
    [("0", "--jobs 0: give 1 or more"), ("-3", "--jobs -3: give 1 or more"), ("two", "--jobs")],
)
def test_table_a_bad_jobs_value_is_one_plain_line(
    jobs: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    target = tmp_path / "s.json"
    try:
        code, _, err = cli(
            capsys, "simulate", FOLDER, "--games", "2", "--jobs", jobs, "--summary", target
        )
    except SystemExit as exited:  # argparse: not a number
        code, err = exited.code, capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not target.exists()


def test_table_simulate_refuses_no_jobs(game):
    with pytest.raises(ValueError, match="jobs must be 1 or more"):
        simulate(game, "standard", ["random"], 2, seats=SEATS, jobs=0)


def test_table_logs_of_games_played_by_workers_open(tmp_path: Path, game):
    logs = tmp_path / "logs"
    logs.mkdir()
    simulate(game, "standard", ["random"], 3, seed=5, seats=SEATS, save_logs=logs, jobs=2)
    assert sorted(os.listdir(logs)) == [log_name(5), log_name(6), log_name(7)]
    for seed in (5, 6, 7):
        with Game.open(logs / log_name(seed), writable=False) as saved:
            assert game.flow.is_terminal(saved.state)


def test_table_a_failing_game_names_its_seed_and_leaves_no_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    folder, logs = miscounted(tmp_path), tmp_path / "logs"
    argv = ["simulate", folder, "--variant", "miscounted", "--games", "2", "--seed", "4"]
    code, out, err = cli(capsys, *argv, "--jobs", "2", "--save-logs", logs)
    assert code == 2 and out == ""
    assert err == (
        "tabletop simulate: the game of seed 4 failed:"
        " invalid literal for int() with base 10: 'many'\n"
    )
    assert os.listdir(logs) == []  # neither the failed game's log nor a piece of it
    game = game_of(load_module(folder))
    with pytest.raises(SimulationError, match="the game of seed 9 failed: invalid literal"):
        simulate(game, "miscounted", ["random"], 1, seed=9, seats=SEATS, jobs=1)


WINDOW_SCRIPT = """
import os, sys
import PySide6.QtWidgets  # the window's process: Qt loaded before the games
with open(sys.argv[1], "a") as ran:
    ran.write(f"{os.getpid()}\\n")
from rules_assist.simulate import simulate
from tabletop.modules import load_module
from tabletop.modules.rules import game_of
if __name__ == "__main__":
    game = game_of(load_module(sys.argv[2]))
    summary = simulate(game, "standard", ["random"], 4, seats=["red", "blue"], jobs=2)
    print(summary["run"]["jobs"], [row["seed"] for row in summary["rows"]])
"""


def test_table_workers_do_not_run_the_script_that_loaded_qt(tmp_path: Path):
    """A window's process (a script that imported Qt) asks for games on two workers: the
    workers start from the simulation's own module, so the script (and Qt) runs once."""
    script, ran = tmp_path / "window.py", tmp_path / "ran.txt"
    script.write_text(WINDOW_SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(FOLDER.parent.parent), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(script), str(ran), str(FOLDER)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(maxsplit=1) == ["2", "[0, 1, 2, 3]\n"]
    assert len(ran.read_text(encoding="utf-8").split()) == 1  # this process alone ran it


@pytest.mark.slow
def test_table_ctrl_c_stops_the_workers_without_a_traceback(tmp_path: Path):
    """Ctrl+C at a terminal reaches the whole process group: the command stops its workers,
    says so in one line and leaves no process and no unfinished log behind."""
    logs = tmp_path / "logs"
    env = {**os.environ, "PYTHONPATH": str(FOLDER.parent.parent)}
    command = [sys.executable, "-m", "tabletop.cli", "simulate", str(FOLDER), "--games", "400"]
    process = subprocess.Popen(
        [*command, "--jobs", "2", "--save-logs", str(logs)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stderr is not None
    first = process.stderr.readline()  # the first progress line: the workers are playing
    assert "/400" in first
    os.killpg(process.pid, signal.SIGINT)
    rest = process.stderr.read()
    assert process.wait() == 130
    assert rest.splitlines()[-1] == "tabletop: stopped" and "Traceback" not in rest
    assert not [name for name in os.listdir(logs) if name.endswith(".part")]
    race = game_of(load_module(FOLDER))
    for name in os.listdir(logs):  # the games finished before Ctrl+C, each whole
        with Game.open(logs / name, writable=False) as saved:
            assert race.flow.is_terminal(saved.state)
    for _ in range(100):  # the group empties once the workers are gone (zombies aside)
        listed = subprocess.run(
            ["ps", "-o", "stat=", "-g", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        if all(stat.startswith("Z") for stat in listed):
            break
        time.sleep(0.1)
    assert all(stat.startswith("Z") for stat in listed), listed
