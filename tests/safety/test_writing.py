"""Writing files: whole or not at all, never through a name someone else planted, never over a
file that appeared meanwhile, with the umask's mode, and a full disk never leaves the table
ahead of its log ("table": no rulebook section applies)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.persist import Game, atomic_writer, leftovers

ROOT = Path(__file__).resolve().parents[2]
TEMP_MARK = ".tabletop-tmp-"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def greenland_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.jsonl"
    code, _, err = run(capsys, "new", "greenland", "--seed", "2", "-o", str(path))
    assert code == 0, err
    return path


@pytest.fixture
def proto_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "proto.jsonl"
    code, _, err = run(
        capsys, "new", "proto", "--seats", "red,blue", "--seed", "4", "-o", str(path)
    )
    assert code == 0, err
    return path


@pytest.fixture
def umask_022():
    before = os.umask(0o022)
    yield
    os.umask(before)


EVENT = [
    "greenland",
    "event",
    "--choice",
    "council=red",
    "--choice",
    "snowflake_red=energy=1",
    "--choice",
    "snowflake_yellow=energy=1",
    "--choice",
    "snowflake_red_2=energy=1",
    "--bid",
    "red=0",
    "--bid",
    "yellow=0",
    "--bid",
    "green=0",
]


def event(path: Path, out: Path) -> list[str]:
    return [*EVENT[:2], str(path), *EVENT[2:], "-o", str(out)]


def listing(folder: Path) -> dict[str, tuple[bool, bytes | str]]:
    """Every name in ``folder``: a link's target, or a file's bytes."""
    seen: dict[str, tuple[bool, bytes | str]] = {}
    for name in sorted(os.listdir(folder)):
        path = folder / name
        if path.is_symlink():
            seen[name] = (True, os.readlink(path))
        elif path.is_file():
            seen[name] = (False, path.read_bytes())
    return seen


# ---- 1. a fresh temporary name, never a planted one --------------------------------------
def test_table_run_o_never_writes_through_a_planted_part_link(greenland_file, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    out = tmp_path / "out.jsonl"
    os.symlink(victim, tmp_path / "out.jsonl.part")
    (tmp_path / "out2.jsonl.part").write_text("kept\n")
    before = listing(tmp_path)
    code, printed, err = run(capsys, *event(greenland_file, out))
    assert code == 0, err
    assert printed.startswith(f"{out}: event:")
    after = listing(tmp_path)
    assert after.pop("out.jsonl")[1].startswith(b'{"format"')
    assert after == before  # the link, its target and the other .part as they were


def test_table_run_o_refusing_removes_nothing(greenland_file, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text("theirs\n")
    (tmp_path / "out.jsonl.part").write_text("kept\n")
    before = listing(tmp_path)
    code, _, err = run(capsys, *event(greenland_file, out))
    assert code == 2
    assert err.strip() == (
        f"tabletop greenland: {out}: already exists; choose another name (nothing was changed)"
    )
    assert listing(tmp_path) == before


def test_table_run_o_refuses_a_dangling_link_as_a_file(greenland_file, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    os.symlink(tmp_path / "nowhere" / "x.jsonl", out)
    code, _, err = run(capsys, *event(greenland_file, out))
    assert code == 2 and "already exists" in err
    assert os.readlink(out) == str(tmp_path / "nowhere" / "x.jsonl")
    assert not (tmp_path / "nowhere").exists()


def test_table_new_o_refuses_a_dangling_link_and_leaves_no_temporary_file(tmp_path, capsys):
    out = tmp_path / "new.jsonl"
    os.symlink(tmp_path / "nowhere.jsonl", out)
    code, _, err = run(capsys, "new", "proto", "--seed", "1", "-o", str(out))
    assert code == 2
    assert err.strip() == (
        f"tabletop new: {out}: already exists; choose another name (nothing was changed)"
    )
    assert os.listdir(tmp_path) == ["new.jsonl"] and out.is_symlink()
    assert not (tmp_path / "nowhere.jsonl").exists()


def test_table_save_as_never_writes_through_a_planted_part_link(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from tabletop.modules import find_module
    from tabletop.ui.window import MainWindow

    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), ask=False)
    qtbot.addWidget(window)
    assert window.start_new(find_module("proto"), seed=3) is not None
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    target = tmp_path / "saved.jsonl"
    os.symlink(victim, tmp_path / "saved.jsonl.part")
    assert window.save_as(str(target))
    assert victim.read_text() == "mine\n"
    assert os.readlink(tmp_path / "saved.jsonl.part") == str(victim)
    assert target.read_bytes().startswith(b'{"format"')
    assert window.session.game.path == str(target)
    assert not [n for n in os.listdir(tmp_path) if TEMP_MARK in n]
    # a name without the suffix becomes NAME.jsonl, which the file chooser did not ask about
    other = tmp_path / "other.jsonl"
    other.write_text("theirs\n")
    assert not window.save_as(str(tmp_path / "other"))
    assert other.read_text() == "theirs\n"
    assert window.session.game.path == str(target)
    assert "already exists" in window.statusBar().currentMessage()


# ---- 2. a file made between the check and the rename is kept ------------------------------
def test_table_replay_o_keeps_a_file_made_after_its_check(
    proto_file, tmp_path, capsys, monkeypatch
):
    out = tmp_path / "branch.jsonl"
    out.write_text("made meanwhile\n")
    # the existence checks all pass, as they would have just before the other program wrote
    monkeypatch.setattr(os.path, "lexists", lambda path: False)
    monkeypatch.setattr(os.path, "exists", lambda path: False)
    code, _, err = run(capsys, "replay", str(proto_file), "--to", "3", "-o", str(out))
    monkeypatch.undo()
    assert code == 2
    assert err.strip() == (
        f"tabletop replay: {out}: already exists; choose another name (nothing was changed)"
    )
    assert out.read_text() == "made meanwhile\n"
    assert not [n for n in os.listdir(tmp_path) if TEMP_MARK in n]


def test_table_render_o_follows_the_umask_and_keeps_a_file_made_meanwhile(
    proto_file, tmp_path, capsys, monkeypatch
):
    before = os.umask(0o027)
    try:
        png = tmp_path / "board.png"
        code, _, err = run(capsys, "render", str(proto_file), "-o", str(png), "--scale", "0.2")
        assert code == 0, err
        assert os.stat(png).st_mode & 0o777 == 0o640
        taken = tmp_path / "taken.svg"
        taken.write_text("made meanwhile")
        monkeypatch.setattr(os.path, "lexists", lambda path: False)
        monkeypatch.setattr(os.path, "exists", lambda path: False)
        code, _, err = run(capsys, "render", str(proto_file), "-o", str(taken), "--scale", "0.2")
        monkeypatch.undo()
    finally:
        os.umask(before)
    assert code == 2
    assert err.strip() == (
        f"tabletop render: {taken}: already exists; choose another name (nothing was changed)"
    )
    assert taken.read_text() == "made meanwhile"
    assert not [n for n in os.listdir(tmp_path) if TEMP_MARK in n]


def test_table_atomic_writer_never_replaces_what_appears_meanwhile(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(FileExistsError), atomic_writer(target) as handle:
        handle.write("ours")
        target.write_text("theirs")
    assert target.read_text() == "theirs"
    assert os.listdir(tmp_path) == ["out.txt"]
    dangling = tmp_path / "link.txt"
    os.symlink(tmp_path / "nowhere", dangling)
    with pytest.raises(FileExistsError), atomic_writer(dangling) as handle:
        handle.write("ours")
    assert os.readlink(dangling) == str(tmp_path / "nowhere")


# ---- 3. the umask's mode; leftovers named as such and cleaned up --------------------------
@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_table_outputs_follow_the_umask(proto_file, tmp_path, capsys, mask, mode):
    before = os.umask(mask)
    try:
        branch = tmp_path / "branch.jsonl"
        code, _, err = run(capsys, "replay", str(proto_file), "--to", "2", "-o", str(branch))
        assert code == 0, err
        fresh = tmp_path / "new.jsonl"
        code, _, err = run(capsys, "new", "proto", "--seed", "1", "-o", str(fresh))
        assert code == 0, err
        sheet = tmp_path / "sessions.csv"
        code, _, err = run(capsys, "sessions", str(branch), "-o", str(sheet))
        assert code == 0, err
        with atomic_writer(tmp_path / "plain.txt") as handle:
            handle.write("x")
    finally:
        os.umask(before)
    for path in (branch, fresh, sheet, tmp_path / "plain.txt"):
        assert os.stat(path).st_mode & 0o777 == mode, path


def test_table_run_o_output_follows_the_umask(greenland_file, tmp_path, capsys):
    os.chmod(greenland_file, 0o600)  # the copy is a new file: the umask's mode, not the source's
    before = os.umask(0o022)
    try:
        out = tmp_path / "out.jsonl"
        code, _, err = run(capsys, *event(greenland_file, out))
    finally:
        os.umask(before)
    assert code == 0, err
    assert os.stat(out).st_mode & 0o777 == 0o644


def test_table_a_file_written_back_over_keeps_its_mode(proto_file, capsys, umask_022):
    os.chmod(proto_file, 0o640)
    code, _, err = run(capsys, "form", str(proto_file), "--seat", "red", "--fun", "4")
    assert code == 0, err
    assert os.stat(proto_file).st_mode & 0o777 == 0o640
    with Game.open(proto_file, writable=False) as game:
        assert game.table.entries[-1].kind == "record"


def test_table_a_killed_writes_leftover_is_named_so_and_removed_next_time(tmp_path, umask_022):
    target = tmp_path / "out.txt"
    old = tmp_path / f".out.txt{TEMP_MARK}0123456789abcdef"
    fresh = tmp_path / f".out.txt{TEMP_MARK}fedcba9876543210"
    other = tmp_path / ".out.txt.part"
    link = tmp_path / f".out.txt{TEMP_MARK}00000000000000aa"
    for path in (old, fresh, other):
        path.write_text("left")
    os.symlink(other, link)
    a_while_ago = time.time() - 3600
    for path in (old, other):
        os.utime(path, (a_while_ago, a_while_ago))
    os.utime(link, (a_while_ago, a_while_ago), follow_symlinks=False)
    assert leftovers(target) == [old]
    with atomic_writer(target) as handle:  # a write killed before this one left ``old``
        handle.write("whole")
    assert target.read_text() == "whole"
    assert not old.exists()
    assert fresh.exists() and other.exists() and link.is_symlink()  # another write may be going


def test_table_only_a_temporary_name_ending_in_sixteen_lower_case_hex_digits_is_a_leftover(
    tmp_path, umask_022
):
    """The writer names its temporary file by sixteen random lower-case hex digits after the
    mark: a name like it with other characters or another length is someone else's file."""
    target = tmp_path / "out.txt"
    ours = tmp_path / f".out.txt{TEMP_MARK}00ff00ff00ff00ff"
    others = [
        tmp_path / f".out.txt{TEMP_MARK}00FF00FF00FF00FF",  # upper case
        tmp_path / f".out.txt{TEMP_MARK}00ff00ff00ff00f",  # fifteen digits
        tmp_path / f".out.txt{TEMP_MARK}00ff00ff00ff00ff0",  # seventeen
        tmp_path / f".out.txt{TEMP_MARK}00ff00ff00ff00fg",  # not a hex digit
        tmp_path / f".out.txt{TEMP_MARK}",
        tmp_path / f".other.txt{TEMP_MARK}00ff00ff00ff00ff",  # another file's write
    ]
    a_while_ago = time.time() - 3600
    for path in (ours, *others):
        path.write_text("left")
        os.utime(path, (a_while_ago, a_while_ago))
    assert leftovers(target) == [ours]
    with atomic_writer(target) as handle:
        handle.write("whole")
    assert not ours.exists() and all(path.exists() for path in others)


KILLED_WRITE = r"""
import sys, time
from tabletop.persist import atomic_writer
with atomic_writer(sys.argv[1]) as handle:
    handle.write("half of it")
    handle.flush()
    print("writing", flush=True)
    time.sleep(120)
"""


def test_table_a_write_killed_midway_leaves_a_named_leftover_the_next_write_removes(tmp_path):
    target = tmp_path / "out.txt"
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITE, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout.readline() == "writing\n"
    finally:
        child.kill()
        child.wait(timeout=30)
        child.stdout.close()
    (left,) = os.listdir(tmp_path)
    assert left.startswith(f".out.txt{TEMP_MARK}") and len(left) == len(".out.txt") + 14 + 16
    assert leftovers(target) == []  # not a minute old: it could be a write still going
    a_while_ago = time.time() - 120
    os.utime(tmp_path / left, (a_while_ago, a_while_ago))
    assert leftovers(target) == [tmp_path / left]
    with atomic_writer(target) as handle:
        handle.write("whole")
    assert os.listdir(tmp_path) == ["out.txt"]
    assert target.read_text() == "whole"


def test_table_a_stopped_write_leaves_nothing(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError), atomic_writer(target) as handle:
        handle.write("half")
        raise RuntimeError("stopped")
    assert os.listdir(tmp_path) == []


# ---- 4. simulate --save-logs -------------------------------------------------------------
def test_table_simulate_save_logs_refuses_a_dangling_link_before_writing(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    os.symlink(tmp_path / "nowhere", logs / "game-3.jsonl")
    argv = ["simulate", "greenland", "--games", "3", "--seed", "1", "--jobs", "1"]
    code, _, err = run(capsys, *argv, "--save-logs", str(logs))
    assert code == 2
    assert err.strip() == (
        f"tabletop simulate: {logs}: game-3.jsonl already exists (nothing was changed)"
    )
    assert os.listdir(logs) == ["game-3.jsonl"]


def test_table_simulate_save_logs_ignores_a_planted_part_name(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    os.symlink(tmp_path / "nowhere", logs / ".game-2.jsonl.part")
    argv = ["simulate", "greenland", "--games", "2", "--seed", "1", "--jobs", "1"]
    code, _, err = run(capsys, *argv, "--save-logs", str(logs))
    assert code == 0, err
    assert sorted(os.listdir(logs)) == [".game-2.jsonl.part", "game-1.jsonl", "game-2.jsonl"]
    assert os.readlink(logs / ".game-2.jsonl.part") == str(tmp_path / "nowhere")
    with Game.open(logs / "game-2.jsonl", writable=False) as game:
        assert game.table.seq > 0


def test_table_simulate_says_which_logs_it_kept_when_a_game_cannot_be_kept(tmp_path, monkeypatch):
    from rules_assist.simulate import SimulationError, simulate
    from tabletop.modules import find_module
    from tabletop.modules.gamecode import game_of

    game = game_of(find_module("greenland"))
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game-2.jsonl").write_text("theirs\n")  # made after the command's own check
    with pytest.raises(SimulationError) as caught:
        simulate(
            game, "standard", ["random"], 3, 1, seats=["red", "yellow", "green"], save_logs=logs
        )
    assert str(caught.value) == (
        f"the game of seed 2 failed: {logs}/game-2.jsonl already exists; it is kept as it was; "
        f"the logs of the games that ended are in {logs}: game-1.jsonl"
    )
    assert (logs / "game-2.jsonl").read_text() == "theirs\n"
    assert sorted(os.listdir(logs)) == ["game-1.jsonl", "game-2.jsonl"]


# ---- 5. a full disk: the table never gets ahead of its log -------------------------------
DISK_FULL = r"""
import json, os, resource, signal, sys
from tabletop.core import CommandError, Mode, Policy
from tabletop.core import actions as act
from tabletop.persist import Game, LogWriteError
from tests.sample_table import sample_header, setup_commands

path, room, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = Game.create(sample_header(seed=5), setup_commands(), path)
t = game.table
t.checkpoint_every = every
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(path) + room, resource.RLIM_INFINITY))
failures, made = [], 0
for i in range(1, 400):
    before = (t.seq, json.dumps(t.state.to_dict(), sort_keys=True), t.undo_stack, t.redo_stack)
    try:
        if i % 9 == 0:
            t.roll(["die0", "die1"], "red")
        elif i % 7 == 0:
            t.undo("red")
        elif i % 11 == 0:
            t.redo("red")
        elif i % 13 == 0:
            t.set_policy(Policy(Mode.STRICT if i % 2 else Mode.ADVISORY), "red")
        else:
            pid = f"cube{i % 10}"
            dest = ["track", "supply", "map"][i % 3]
            spot = {"track": f"t{i % 4}", "map": ["0,1", "2,2", "1,0"][i % 3]}.get(dest)
            t.submit(act.move(t.state, pid, dest, spot=spot), "red")
        made += 1
    except LogWriteError as exc:
        after = (t.seq, json.dumps(t.state.to_dict(), sort_keys=True), t.undo_stack, t.redo_stack)
        failures.append(
            {
                "message": str(exc),
                "reason": exc.reason,
                "unchanged": after == before,
                "checkpoint": (t.seq + 1) % every == 0,
            }
        )
        if len(failures) >= 5:
            break
    except CommandError:
        pass  # a move the table refuses (a full spot): not a write
memory = {
    "state": t.state.to_dict(),
    "entries": [e.to_dict() for e in t.entries],
    "undo": list(t.undo_stack),
    "redo": list(t.redo_stack),
    "policy": t.policy.to_dict(),
}
game.close()
print(json.dumps({"made": made, "failures": failures, "memory": memory}))
"""


def _fill_the_disk(path: Path, room: int, every: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", DISK_FULL, str(path), str(room), str(every)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "room, every, at_checkpoint",
    [(300, 1000, False), (4000, 1000, False), (9000, 6, True), (20000, 4, True)],
)
def test_table_a_move_the_log_cannot_take_is_not_made(tmp_path, room, every, at_checkpoint):
    path = tmp_path / "full.jsonl"
    result = _fill_the_disk(path, room, every)
    assert result["made"] > 0 and result["failures"], result
    # with frequent checkpoints, one that would not fit takes its entry with it
    assert any(f["checkpoint"] for f in result["failures"]) == at_checkpoint, result["failures"]
    for failure in result["failures"]:
        assert failure["unchanged"], failure
        assert failure["reason"] == os.strerror(27)  # EFBIG: File too large
        assert failure["message"] == (
            f"{path}: cannot be written to ({failure['reason']}); what was to be written was not made"
        )
    memory = result["memory"]
    with Game.open(path, writable=False) as again:
        assert again.warnings == []  # the log ends with a whole line
        t = again.table
        assert [e.to_dict() for e in t.entries] == memory["entries"]
        assert t.state.to_dict() == memory["state"]
        assert list(t.undo_stack) == memory["undo"]
        assert list(t.redo_stack) == memory["redo"]
        assert t.policy.to_dict() == memory["policy"]


MOVE_ON_A_FULL_DISK = r"""
import os, resource, signal, sys
from tabletop.cli import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
room = os.path.getsize(sys.argv[1]) + 10  # the copy fits; the move's entry does not
resource.setrlimit(resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))
sys.exit(main(["move", sys.argv[1], "--piece", "cube-red-1", "--to", "track:3", "-o", sys.argv[2]]))
"""


def test_table_a_move_on_a_full_disk_names_out_and_writes_nothing(proto_file, tmp_path):
    before = proto_file.read_bytes()
    out = tmp_path / "moved.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", MOVE_ON_A_FULL_DISK, str(proto_file), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"tabletop move: {out}: cannot be written ({os.strerror(27)}); nothing was changed"
    )
    assert sorted(os.listdir(tmp_path)) == ["proto.jsonl"]
    assert proto_file.read_bytes() == before


def test_table_the_game_goes_on_once_there_is_room(tmp_path):
    path = tmp_path / "full.jsonl"
    result = _fill_the_disk(path, 2000, 1000)
    assert result["failures"]
    from tabletop.core import actions as act

    with Game.open(path) as game:
        seq = game.table.seq
        game.table.submit(act.move(game.state, "cube1", "supply"), "red")
        digest = game.state.digest()
    with Game.open(path, writable=False) as again:
        assert again.table.seq == seq + 1 and again.state.digest() == digest
