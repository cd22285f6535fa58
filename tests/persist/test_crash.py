"""Killing the program mid-game loses nothing it reported as applied."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.core import actions as act
from tabletop.persist import Game

ROOT = Path(__file__).resolve().parents[2]

# The child plays forever: moves, rolls, undos and redos, and after each one prints its seq.
SCRIPT = r"""
import sys
from tabletop.core import actions as act
from tabletop.persist import Game
from tests.sample_table import sample_header, setup_commands

game = Game.create(sample_header(seed=99), setup_commands(), sys.argv[1])
game.table.checkpoint_every = 50
t = game.table
print("ready", t.seq, flush=True)
i = 0
while True:
    i += 1
    if i % 9 == 0:
        change = t.roll(["die0", "die1"], "red")
    elif i % 7 == 0:
        change = t.undo("red")
    elif i % 11 == 0:
        change = t.redo("red")
    else:
        pid = f"cube{i % 10}"
        dest = ["track", "supply", "map"][i % 3]
        spot = {"track": f"t{i % 4}", "map": ["0,1", "2,2", "1,0"][i % 3]}.get(dest)
        try:
            change = t.submit(act.move(t.state, pid, dest, spot=spot), "red")
        except Exception:
            change = None
    if change is not None:
        print(change.seq, flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_game_keeps_every_reported_entry(tmp_path):
    path = tmp_path / "crash.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
        text=True,
    )
    reported: list[int] = []
    try:
        first = child.stdout.readline()
        assert first.startswith("ready"), first + child.stderr.read()
        while len(reported) < 300:
            line = child.stdout.readline()
            assert line, "the child stopped: " + child.stderr.read()
            reported.append(int(line))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    assert reported == sorted(reported)

    game = Game.open(path)
    t = game.table
    assert t.seq >= reported[-1]
    logged = {e.seq for e in t.entries}
    assert set(reported) <= logged
    assert t.state.consistency_problem() is None
    assert len(t.state.pieces) == 32
    assert len(game.warnings) <= 1  # at most a last line cut short
    # the game goes on, and what it writes now reads back
    seq = t.seq
    t.submit(act.flip(t.state, "card0"), "red")
    t.undo("red")
    t.roll(["die2"], "blue")
    digest = t.state.digest()
    game.close()
    with Game.open(path, writable=False) as again:
        assert again.warnings == []
        assert again.table.seq == seq + 3
        assert again.state.digest() == digest
    with Game.open(path, writable=False, verify=False) as fast:
        assert fast.state.digest() == digest
