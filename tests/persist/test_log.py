"""The session log: what is written, reopening, checkpoints, branches, damage and versions."""

from __future__ import annotations

import json
import os

import pytest

import tabletop
from tabletop.core import Note, Seat, SetCounter
from tabletop.core import actions as act
from tabletop.core.table import CHECKPOINT_EVERY
from tabletop.persist import (
    CURRENT_VERSION,
    FORMAT_NAME,
    Game,
    Header,
    LogError,
    atomic_write_bytes,
    atomic_write_text,
    formats,
    read_log,
)
from tabletop.persist import logfile as logfile_module
from tabletop.persist.formats import VersionError, migrate
from tests.sample_table import SEATS, sample_header, sample_table, setup_commands


def play_some(table) -> None:
    """A little of everything: moves, chance, a compound, undo and redo."""
    s = table.state
    table.submit(act.draw(s, "deck", "hand-red", 2, face_up=True), "red")
    table.roll(["die0", "die1", "die2"], "red")
    table.shuffle("deck", "blue")
    table.submit(act.move(s, "cube0", "map", spot="2,1"), "red")
    table.submit(act.set_property(s, "card9", "n", 42), "red")
    table.roll(["die0"], "blue")
    table.undo("blue")
    table.undo("blue")
    table.redo("red")
    table.submit(act.flip(s, "elder"), "red")
    table.submit(act.move(s, "elder", "discard"), "red")
    table.undo("red")
    table.submit(Note("a ruling on rivers"), "red", force="house rule")


def new_game(path, seed=7, play=True) -> Game:
    game = Game.create(sample_header(seed), setup_commands(), path)
    if play:
        play_some(game.table)
    return game


def lines_of(path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


# ---- what is written -------------------------------------------------------------------


def test_header_fields_are_written(tmp_path):
    path = tmp_path / "game.jsonl"
    header = Header(
        module="greenland",
        module_version="2.1",
        seed=1234,
        seats=[Seat("red", "Ann", "#ff0000"), Seat("blue")],
        variant="short game",
        decks=[{"file": "decks/events.csv", "sha256": "ab" * 32}],
        notes="first playtest",
        extra={"table": "kitchen"},
    )
    Game.create(header, [], path).close()
    first = json.loads(lines_of(path)[0])
    assert first["format"] == FORMAT_NAME == "tabletop-log"
    assert first["version"] == CURRENT_VERSION
    assert first["module"] == {"id": "greenland", "version": "2.1"}
    assert first["seed"] == 1234
    assert first["seats"] == [
        {"id": "red", "name": "Ann", "colour": "#ff0000"},
        {"id": "blue", "name": "blue", "colour": "#888888"},
    ]
    assert first["variant"] == "short game"
    assert first["decks"] == [{"file": "decks/events.csv", "sha256": "ab" * 32}]
    assert first["notes"] == "first playtest"
    assert first["app_version"] == tabletop.__version__
    assert first["created"]
    assert first["extra"] == {"table": "kitchen"}
    back = read_log(path).header
    assert back.module == "greenland" and back.module_version == "2.1" and back.seed == 1234
    assert [s.id for s in back.seats] == ["red", "blue"] and back.seats[0].name == "Ann"
    assert back.variant == "short game" and back.notes == "first playtest"
    assert back.extra == {"table": "kitchen"} and back.created == first["created"]


def test_every_line_is_one_json_object_flushed_as_it_is_applied(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path, play=False)
    for i in range(3):
        game.table.submit(act.flip(game.state, f"card{i}"), "red")
        # no close, no flush by the test: the line is there already
        last = json.loads(lines_of(path)[-1])
        assert last["seq"] == game.table.seq and last["cmd"]["op"] == "flip"
    records = [json.loads(line) for line in lines_of(path)]
    assert all(isinstance(r, dict) for r in records)
    entries = records[1:]
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert {e["kind"] for e in entries} == {"setup", "do"}
    assert all({"seq", "t", "actor", "kind", "cmd"} <= set(e) for e in entries)
    game.close()


def test_override_findings_forced_and_draws_are_in_the_log(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path, play=False)
    game.table.random.force_faces([5])
    game.table.roll(["die0", "die1"], "red")
    game.table.submit(Note("teaching"), "red", force="explaining the hunt")
    game.close()
    entries = read_log(path).entries
    roll = entries[-2]
    assert roll.command.forced == (True, False) and roll.draws == 1
    # a force where nothing blocks is not an override
    assert entries[-1].override is None


def test_create_refuses_an_existing_file_and_cleans_up_a_failed_setup(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("keep me\n")
    with pytest.raises(LogError, match="already exists"):
        Game.create(sample_header(), setup_commands(), path)
    assert path.read_text() == "keep me\n"
    other = tmp_path / "other.jsonl"
    bad_setup = [*setup_commands(), SetCounter("round", 5, 6)]
    with pytest.raises(Exception, match="round"):
        Game.create(sample_header(), bad_setup, other)
    assert not other.exists()
    # without a path the game lives in memory
    game = Game.create(sample_header(), setup_commands())
    assert game.path is None and game.table.seq == len(setup_commands())


# ---- reopening -------------------------------------------------------------------------


@pytest.mark.parametrize("verify", [True, False])
def test_reopen_gives_the_same_table_stacks_and_chance(tmp_path, verify):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    twin = sample_table(seed=7)  # the same game, never interrupted
    play_some(twin)
    assert twin.state.digest() == game.state.digest()
    game.close()

    again = Game.open(path, verify=verify)
    t = again.table
    assert again.warnings == []
    assert t.state.digest() == twin.state.digest()
    assert t.undo_stack == twin.undo_stack and t.redo_stack == twin.redo_stack
    assert t.random.draws == twin.random.draws
    assert [e.to_dict() for e in t.entries] == [e.to_dict() for e in game.table.entries]
    assert t.undo_text() == twin.undo_text() and t.redo_text() == twin.redo_text()
    # chance goes on exactly as if the program had never stopped
    for _ in range(3):
        assert (
            t.roll(["die0", "die1"], "red").entry.command.new
            == twin.roll(["die0", "die1"], "red").entry.command.new
        )
    assert (
        t.shuffle("deck", "red").entry.command.new == twin.shuffle("deck", "red").entry.command.new
    )
    # undo and redo go on too, and are written
    t.undo("red")
    twin.undo("red")
    t.undo("red")
    twin.undo("red")
    t.redo("red")
    twin.redo("red")
    assert t.state.digest() == twin.state.digest()
    again.close()
    third = Game.open(path)
    assert third.state.digest() == twin.state.digest()
    assert third.table.undo_stack == twin.undo_stack and third.table.redo_stack == twin.redo_stack
    third.close()


def test_read_only_open_writes_nothing(tmp_path):
    path = tmp_path / "game.jsonl"
    new_game(path).close()
    before = path.read_bytes()
    game = Game.open(path, writable=False)
    game.table.submit(act.flip(game.state, "card0"), "red")
    game.close()
    assert path.read_bytes() == before


def test_closing_detaches_the_file(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    game.close()
    before = path.read_bytes()
    game.table.submit(act.flip(game.state, "card0"), "red")  # plays on in memory
    assert path.read_bytes() == before
    game.close()  # twice is fine


# ---- checkpoints -----------------------------------------------------------------------

EVERY = CHECKPOINT_EVERY  # a checkpoint follows every this many entries
LONG = 2 * EVERY + EVERY // 2 + 3
# line numbers of the two checkpoints: after the header and EVERY (2 * EVERY) entries
CP_LINES = [EVERY + 2, 2 * EVERY + 3]


def long_game(path, entries: int = LONG) -> Game:
    game = Game.create(sample_header(), setup_commands(), path)
    t = game.table
    i = 0
    while t.seq < entries:
        i += 1
        if i % 7 == 0:
            t.roll(["die0", "die1"], "red")
        elif i % 11 == 0:
            t.undo("blue")
        elif i % 13 == 0:
            t.redo("blue")
        elif i % 5 == 0:
            t.submit(act.move(t.state, f"cube{i % 10}", "track", spot=f"t{i % 4}"), "red")
        else:
            t.submit(act.set_property(t.state, f"card{i % 10}", "n", i), "red")
    return game


@pytest.fixture(scope="module")
def long_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("long") / "long.jsonl"
    game = long_game(path)
    game.close()
    return path, game.table


def copy_of(path, tmp_path, name="copy.jsonl"):
    target = tmp_path / name
    target.write_bytes(path.read_bytes())
    return target


def test_checkpoints_every_n_entries(long_log):
    path, table = long_log
    records = [json.loads(line) for line in lines_of(path)]
    marks = [(i + 1, r) for i, r in enumerate(records) if "checkpoint" in r]
    assert [r["checkpoint"] for _, r in marks] == [EVERY, 2 * EVERY]
    assert [line for line, _ in marks] == CP_LINES
    from tabletop.core.state import digest_of

    for _, r in marks:
        assert r["hash"] == digest_of(r["state"]) == table.state_at(r["checkpoint"]).digest()
        assert isinstance(r["draws"], int) and isinstance(r["undo"], list)
    contents = read_log(path)
    assert [cp.seq for cp in contents.checkpoints] == [EVERY, 2 * EVERY]
    assert [cp.line for cp in contents.checkpoints] == CP_LINES
    assert len(contents.entries) == LONG and contents.lines[LONG] == LONG + 3


def test_fast_open_equals_full_open(long_log, tmp_path):
    path, table = long_log
    full = Game.open(path, writable=False, verify=True)
    fast = Game.open(path, writable=False, verify=False)
    for game in (full, fast):
        assert game.state.digest() == table.state.digest()
        assert game.table.undo_stack == table.undo_stack
        assert game.table.redo_stack == table.redo_stack
        assert game.table.random.draws == table.random.draws
        assert game.table.seq == table.seq == LONG
    for seq in (0, 1, 100, EVERY - 1, EVERY, EVERY + 1, 2 * EVERY, 2 * EVERY + 1, LONG - 1, LONG):
        assert fast.table.state_at(seq).digest() == full.table.state_at(seq).digest(), seq
        assert full.table.state_at(seq).digest() == table.state_at(seq).digest(), seq
    # both go on the same way
    a, b = copy_of(path, tmp_path, "a.jsonl"), copy_of(path, tmp_path, "b.jsonl")
    with Game.open(a, verify=True) as ga, Game.open(b, verify=False) as gb:
        assert (
            ga.table.roll(["die2"], "red").entry.command.new
            == gb.table.roll(["die2"], "red").entry.command.new
        )
        ga.table.undo("red")
        gb.table.undo("red")
        ga.table.undo("red")
        gb.table.undo("red")
        assert ga.state.digest() == gb.state.digest()


def tamper(path, line_number: int, change) -> None:
    lines = lines_of(path)
    record = json.loads(lines[line_number - 1])
    change(record)
    lines[line_number - 1] = json.dumps(record, separators=(",", ":"))
    write_lines(path, lines)


def set_counter_in_state(record):
    record["state"]["counters"]["round"] = 99


def set_hash(record):
    record["hash"] = "0" * 64


@pytest.mark.parametrize("line", CP_LINES)
@pytest.mark.parametrize("change", [set_hash, set_counter_in_state], ids=["hash", "state"])
def test_a_tampered_checkpoint_is_named(long_log, tmp_path, line, change):
    path = copy_of(long_log[0], tmp_path)
    tamper(path, line, change)
    before = path.read_bytes()
    with pytest.raises(LogError) as info:
        Game.open(path, verify=True)
    assert info.value.line == line
    assert f"line {line}" in str(info.value) and str(path) in str(info.value)
    assert "altered" in str(info.value)
    assert path.read_bytes() == before


def test_a_consistently_forged_checkpoint_is_caught_by_a_full_open(long_log, tmp_path):
    from tabletop.core.state import digest_of

    path = copy_of(long_log[0], tmp_path)

    def forge(record):
        record["state"]["counters"]["round"] = 99
        record["hash"] = digest_of(record["state"])

    tamper(path, CP_LINES[1], forge)
    with pytest.raises(LogError) as info:
        Game.open(path, verify=True)
    assert info.value.line == CP_LINES[1]


@pytest.mark.parametrize("line", CP_LINES)
def test_fast_open_passes_over_a_checkpoint_whose_own_hash_is_wrong(long_log, tmp_path, line):
    path, table = long_log
    path = copy_of(path, tmp_path)
    tamper(path, line, set_counter_in_state)
    with Game.open(path, writable=False, verify=False) as game:
        assert game.state.digest() == table.state.digest()
        assert game.table.undo_stack == table.undo_stack
        assert game.table.random.draws == table.random.draws
        # history never reads the altered checkpoint either
        for seq in (EVERY, EVERY + 10, 2 * EVERY, 2 * EVERY + 10):
            assert game.table.state_at(seq).digest() == table.state_at(seq).digest()


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(undo=[*r["undo"], r["undo"][-1]]),
        lambda r: r.update(undo=[1]),  # a setup entry
        lambda r: r.update(redo=[r["checkpoint"] + 5]),  # an entry yet to come
        lambda r: r.update(undo=["1"]),
        lambda r: r.update(draws="many"),
    ],
    ids=["repeated", "setup", "future", "text", "draws"],
)
@pytest.mark.parametrize("verify", [True, False])
def test_a_tampered_checkpoint_stack_is_named(long_log, tmp_path, change, verify):
    path = copy_of(long_log[0], tmp_path)
    line = CP_LINES[1]
    tamper(path, line, change)
    before = path.read_bytes()
    with pytest.raises(LogError) as info:
        Game.open(path, verify=verify)
    assert info.value.line == line
    assert path.read_bytes() == before


def test_a_full_open_checks_the_checkpoint_stacks(long_log, tmp_path):
    # the checkpoint's hash covers the state only: a shorter but well-formed undo stack
    # is caught by replaying, which a fast open (trusting the checkpoint) does not do
    path = copy_of(long_log[0], tmp_path)
    tamper(path, CP_LINES[1], lambda r: r.update(undo=r["undo"][:-1]))
    with pytest.raises(LogError, match="altered") as info:
        Game.open(path, verify=True)
    assert info.value.line == CP_LINES[1]


# ---- branches --------------------------------------------------------------------------


def test_branch_writes_the_first_n_entries(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    n = game.table.seq - 5
    target = tmp_path / "branch.jsonl"
    game.branch(n, target, notes="what if the elder stayed")
    contents = read_log(target)
    assert len(contents.entries) == n
    assert [e.to_dict() for e in contents.entries] == [e.to_dict() for e in game.table.entries[:n]]
    assert contents.header.extra["branched_from"] == {"file": "game.jsonl", "seq": n}
    assert contents.header.notes == "what if the elder stayed"
    assert contents.header.seed == game.header.seed
    with Game.open(target) as branched:
        assert branched.state.digest() == game.table.state_at(n).digest()
        branched.table.submit(act.flip(branched.state, "card0"), "red")
    # the original goes on untouched
    game.table.submit(act.flip(game.state, "card1"), "red")
    game.close()
    assert Game.open(path, writable=False).table.seq == n + 6
    assert sorted(os.listdir(tmp_path)) == ["branch.jsonl", "game.jsonl"]


def test_branch_keeps_checkpoints(long_log, tmp_path):
    path, table = long_log
    game = Game.open(path, writable=False)
    target = tmp_path / "b.jsonl"
    game.branch(EVERY + 50, target)
    assert [cp.seq for cp in read_log(target).checkpoints] == [EVERY]
    with Game.open(target, writable=False, verify=False) as b:
        assert b.state.digest() == table.state_at(EVERY + 50).digest()
    game.branch(0, tmp_path / "empty.jsonl")
    assert read_log(tmp_path / "empty.jsonl").entries == []


def test_branch_refuses_an_existing_target_and_a_bad_seq(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    target = tmp_path / "taken.jsonl"
    target.write_text("mine\n")
    with pytest.raises(LogError, match="already exists"):
        game.branch(3, target)
    assert target.read_text() == "mine\n"
    for seq in (-1, game.table.seq + 1):
        with pytest.raises(LogError, match="no entry"):
            game.branch(seq, tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()
    game.close()


def test_branch_is_written_atomically(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    real = logfile_module._line
    calls = []

    def failing(obj):
        calls.append(1)
        if len(calls) > 10:
            raise OSError(28, "No space left on device")
        return real(obj)

    monkeypatch.setattr(logfile_module, "_line", failing)
    target = tmp_path / "branch.jsonl"
    with pytest.raises(OSError):
        game.branch(game.table.seq, target)
    assert not target.exists()
    assert sorted(os.listdir(tmp_path)) == ["game.jsonl"]  # no temporary file left behind


def test_atomic_writes_replace_whole_or_not_at_all(tmp_path):
    target = tmp_path / "save.txt"
    atomic_write_text(target, "one\n")
    with pytest.raises(FileExistsError):  # replaced only when the caller says so
        atomic_write_bytes(target, b"two\n")
    assert target.read_bytes() == b"one\n"
    atomic_write_bytes(target, b"two\n", replace=True)
    assert target.read_bytes() == b"two\n"
    from tabletop.persist import atomic_writer

    with pytest.raises(RuntimeError), atomic_writer(target, replace=True) as handle:
        handle.write("half of thr")
        raise RuntimeError("crash while writing")
    assert target.read_bytes() == b"two\n"
    assert os.listdir(tmp_path) == ["save.txt"]


# ---- a last line cut short -------------------------------------------------------------


def test_a_cut_last_line_is_dropped_with_a_warning_and_cut_off_cleanly(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    digest, seq = game.state.digest(), game.table.seq
    game.close()
    good = path.read_bytes()
    half = json.dumps(
        {"seq": seq + 1, "t": 1.0, "actor": "red", "kind": "do", "cmd": {"op": "flip"}}
    )
    path.write_bytes(good + half[:30].encode())
    cut = path.read_bytes()

    ro = Game.open(path, writable=False)
    assert ro.table.seq == seq and ro.state.digest() == digest
    assert len(ro.warnings) == 1 and "cut short" in ro.warnings[0]
    assert f"line {len(good.splitlines()) + 1}" in ro.warnings[0]
    assert path.read_bytes() == cut  # read-only: untouched

    game = Game.open(path)
    assert game.warnings and game.table.seq == seq
    game.table.submit(act.flip(game.state, "card0"), "red")
    game.close()
    data = path.read_bytes()
    assert data.startswith(good) and data.endswith(b"\n")
    assert half[:30].encode() not in data
    again = Game.open(path)
    assert again.warnings == [] and again.table.seq == seq + 1
    again.close()


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(path)
    digest, seq = game.state.digest(), game.table.seq
    game.close()
    path.write_bytes(path.read_bytes()[:-1])  # stopped just before the newline
    game = Game.open(path)
    assert game.table.seq == seq and game.state.digest() == digest
    game.table.submit(act.flip(game.state, "card0"), "red")
    game.close()
    with Game.open(path, writable=False) as again:
        assert again.table.seq == seq + 1 and again.warnings == []


def test_a_cut_header_is_not_a_log(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b'{"format": "tabletop-log", "vers')
    with pytest.raises(LogError, match="no header"):
        Game.open(path)
    assert path.read_bytes() == b'{"format": "tabletop-log", "vers'


# ---- damage is named by file and line --------------------------------------------------


@pytest.fixture
def small_log(tmp_path):
    """A log with setup, a do, an undo, a redo and a flip, and its line numbers by kind."""
    path = tmp_path / "game.jsonl"
    game = new_game(path, play=False)
    t = game.table
    t.submit(act.move(t.state, "card9", "hand-red"), "red")  # setup + 1
    t.submit(act.flip(t.state, "card9"), "red")  # + 2
    t.undo("red")  # + 3
    t.redo("red")  # + 4
    t.submit(Note("end"), "red")  # + 5
    game.close()
    return path, len(setup_commands()) + 1  # line of the last setup entry


def edit(index_from_setup: int, change):
    """A damage: change the record at the given line counted from the last setup line."""

    def damage(lines, base):
        number = base + index_from_setup
        record = json.loads(lines[number - 1])
        change(record)
        lines[number - 1] = json.dumps(record)
        return number

    return damage


def replace_line(index_from_setup: int, text: str):
    def damage(lines, base):
        number = base + index_from_setup
        lines[number - 1] = text
        return number

    return damage


def swap(lines, base):
    lines[base], lines[base + 1] = lines[base + 1], lines[base]
    return base + 1


def duplicate(lines, base):
    lines.insert(base + 1, lines[base])
    return base + 2


def header(change):
    def damage(lines, base):
        record = json.loads(lines[0])
        change(record)
        lines[0] = json.dumps(record)
        return 1

    return damage


DAMAGE = {
    "bad JSON in the middle": (replace_line(-5, '{"seq": 3, "actor": '), "not valid JSON"),
    "a list, not an object": (replace_line(1, "[1, 2, 3]"), "not a JSON object"),
    "a number, not an object": (replace_line(2, "17"), "not a JSON object"),
    "seq as text": (edit(1, lambda r: r.update(seq="4")), "seq"),
    "actor as a number": (edit(1, lambda r: r.update(actor=3)), "actor"),
    "unknown entry kind": (edit(1, lambda r: r.update(kind="sideways")), "sideways"),
    "time as text": (edit(1, lambda r: r.update(t="noon")), "'t'"),
    "findings not a list": (edit(1, lambda r: r.update(findings="none")), "findings"),
    "a finding without a rule": (
        edit(1, lambda r: r.update(findings=[{"message": "m"}])),
        "finding",
    ),
    "a finding's pieces as a number": (
        edit(1, lambda r: r.update(findings=[{"rule": "E", "message": "m", "pieces": 5}])),
        "pieces",
    ),
    "a finding of unknown severity": (
        edit(1, lambda r: r.update(findings=[{"rule": "E", "message": "m", "severity": "dire"}])),
        "severity",
    ),
    "a malformed piece record": (
        edit(
            5,
            lambda r: r.update(
                cmd={
                    "op": "add",
                    "piece": {"id": "p", "kind": "k", "props": [1]},
                    "at": {"place": "supply", "index": 0},
                }
            ),
        ),
        "'props' must be a table",
    ),
    "a malformed place record": (
        edit(
            5,
            lambda r: r.update(
                cmd={"op": "add_place", "place": {"id": "p", "kind": "bowl", "layout": [1]}}
            ),
        ),
        "entry",
    ),
    "unknown command op": (
        edit(1, lambda r: r["cmd"].update(op="teleport")),
        "unknown command 'teleport'",
    ),
    "unknown op inside a setup entry": (
        edit(0, lambda r: r["cmd"].update(op="conjure")),
        "conjure",
    ),
    "out-of-order seq": (swap, "out of order"),
    "a repeated line": (duplicate, "out of order"),
    "a skipped seq": (edit(5, lambda r: r.update(seq=r["seq"] + 1)), "out of order"),
    "undo ref not matching": (
        edit(3, lambda r: r.update(ref=r["ref"] - 1)),
        "not the last undoable",
    ),
    "redo ref not matching": (edit(4, lambda r: r.update(ref=1)), "not the last undone"),
    "undo without a ref": (edit(3, lambda r: r.pop("ref")), "ref"),
    "an entry that does not fit": (
        edit(2, lambda r: r["cmd"].update(old=True, new=False)),
        "does not fit",
    ),
    "a move from the wrong place": (
        edit(1, lambda r: r["cmd"]["from"].update(place="stack")),
        "does not fit",
    ),
    "a newer format version": (header(lambda r: r.update(version=CURRENT_VERSION + 1)), "newer"),
    "format version zero": (header(lambda r: r.update(version=0)), "version"),
    "format version as text": (header(lambda r: r.update(version="1")), "version"),
    "not a tabletop log": (
        header(lambda r: r.update(format="chess-pgn")),
        "not a tabletop game log",
    ),
    "header without a module": (header(lambda r: r.pop("module")), "module"),
    "header seed as text": (header(lambda r: r.update(seed="7")), "seed"),
    "header seats not a list": (header(lambda r: r.update(seats="red")), "seats"),
    "header seat without an id": (header(lambda r: r.update(seats=[{"name": "x"}])), "seat"),
    "header decks malformed": (header(lambda r: r.update(decks=[{"file": "a.csv"}])), "decks"),
    "header notes as a number": (header(lambda r: r.update(notes=3)), "notes"),
    "header extra as a list": (header(lambda r: r.update(extra=[])), "extra"),
    "a checkpoint in the wrong place": (
        replace_line(2, json.dumps({"checkpoint": 7, "hash": "0", "state": {}})),
        "checkpoint",
    ),
    "a checkpoint without a state": (
        replace_line(1, json.dumps({"checkpoint": 0, "hash": "0"})),
        "checkpoint",
    ),
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
@pytest.mark.parametrize("verify", [True, False])
def test_damage_is_a_log_error_naming_the_line(small_log, name, verify):
    path, base = small_log
    lines = lines_of(path)
    damage, words = DAMAGE[name]
    number = damage(lines, base)
    write_lines(path, lines)
    before = path.read_bytes()
    with pytest.raises(LogError) as info:
        Game.open(path, verify=verify)
    error = info.value
    assert error.line == number, str(error)
    assert str(error).startswith(f"{path}, line {number}: ")
    assert words.lower() in str(error).lower()
    assert path.read_bytes() == before  # a failed open changes nothing


def test_valid_json_of_the_wrong_kind_is_not_a_log(tmp_path):
    for name, text in {
        "a.json": '{"name": "not a game"}\n',
        "b.csv": "id,name,cost\n1,Elder,3\n",
        "c.json": "[1, 2]\n",
    }.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(LogError) as info:
            Game.open(path)
        assert info.value.line == 1 and str(path) in str(info.value)
        assert path.read_text() == text


@pytest.mark.parametrize(
    "content, words",
    [(b"", "empty"), (b"  \n\n \t\n", "empty")],
    ids=["empty", "blank"],
)
def test_an_empty_file_is_not_a_log(tmp_path, content, words):
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    with pytest.raises(LogError, match=words) as info:
        Game.open(path)
    assert info.value.line is None
    assert path.read_bytes() == content


def test_a_missing_file_and_a_folder(tmp_path):
    with pytest.raises(LogError, match="no such file") as info:
        Game.open(tmp_path / "nowhere.jsonl")
    assert "nowhere.jsonl" in str(info.value)
    assert not (tmp_path / "nowhere.jsonl").exists()
    with pytest.raises(LogError, match="folder"):
        Game.open(tmp_path)


def test_blank_lines_between_entries_are_tolerated(small_log):
    path, base = small_log
    lines = lines_of(path)
    lines.insert(base, "")
    write_lines(path, lines)
    with Game.open(path, writable=False) as game:
        assert game.table.seq == len(setup_commands()) + 5


def test_errors_in_the_header_do_not_depend_on_the_rest(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text('{"format": "tabletop-log", "version": 99}\n{"seq": 1}\n')
    with pytest.raises(LogError, match="newer") as info:
        Game.open(path)
    assert "99" in str(info.value) and info.value.line == 1


# ---- format versions ---------------------------------------------------------------------


def test_migrate_runs_each_step_in_order(monkeypatch):
    monkeypatch.setattr(formats, "CURRENT_VERSION", 3)
    seen = []

    def one_to_two(header, records):
        seen.append(("1->2", header["version"]))
        return {**header, "renamed": True}, [{**r, "two": True} for r in records]

    def two_to_three(header, records):
        seen.append(("2->3", header["version"]))
        return header, [*records, {"added": 3}]

    header, records = migrate({"version": 1}, [{"a": 1}], {1: one_to_two, 2: two_to_three})
    assert seen == [("1->2", 1), ("2->3", 2)]
    assert header == {"version": 3, "renamed": True}
    assert records == [{"a": 1, "two": True}, {"added": 3}]
    # from the middle
    header, _ = migrate({"version": 2}, [], {1: one_to_two, 2: two_to_three})
    assert header["version"] == 3
    with pytest.raises(VersionError, match="no way to read format version 2"):
        migrate({"version": 1}, [], {1: one_to_two})
    with pytest.raises(VersionError, match="newer"):
        migrate({"version": 4}, [])
    for bad in (None, "1", True, 0, 1.0):
        with pytest.raises(VersionError):
            migrate({"version": bad}, [])


def test_an_old_log_is_read_through_its_migrations(tmp_path, monkeypatch):
    """Pretend the current format is 2, where version 1 called the command 'command'."""
    path = tmp_path / "old.jsonl"
    new_game(path).close()
    old = []
    for number, line in enumerate(lines_of(path)):
        record = json.loads(line)
        if number == 0:
            record["version"] = 1
        elif "cmd" in record:
            record["command"] = record.pop("cmd")
        old.append(json.dumps(record))
    write_lines(path, old)
    before = path.read_bytes()

    def one_to_two(header, records):
        return header, [
            {("cmd" if k == "command" else k): v for k, v in r.items()} for r in records
        ]

    monkeypatch.setattr(formats, "CURRENT_VERSION", 2)
    monkeypatch.setitem(formats.MIGRATIONS, 1, one_to_two)
    twin = sample_table(seed=7)
    play_some(twin)
    with Game.open(path, writable=False) as game:
        assert game.header.version == 2
        assert game.state.digest() == twin.state.digest()
    assert path.read_bytes() == before
    monkeypatch.delitem(formats.MIGRATIONS, 1)
    with pytest.raises(LogError, match="no way to read format version 1"):
        Game.open(path)


def test_seats_in_the_header_seat_the_table(tmp_path):
    path = tmp_path / "game.jsonl"
    new_game(path).close()
    with Game.open(path, writable=False) as game:
        assert game.state.seats == SEATS


def test_a_continued_copy_is_written_whole_or_not_at_all(tmp_path):
    """Game.continued: the moves made on the copy reach OUT in one rename; an error leaves no
    OUT and no temporary file, and the game played from is never changed."""
    path = tmp_path / "game.jsonl"
    new_game(path).close()
    before = path.read_bytes()
    out = tmp_path / "out.jsonl"
    with Game.continued(path, out) as copy:
        copy.table.submit(Note("a line more"), "red")
        assert not out.exists()  # nothing there until the block ends
    assert path.read_bytes() == before
    with Game.open(out, writable=False) as game:
        assert game.table.entries[-1].command == Note("a line more")
    failed = tmp_path / "failed.jsonl"
    with pytest.raises(RuntimeError), Game.continued(path, failed) as copy:
        copy.table.submit(Note("lost"), "red")
        raise RuntimeError("stopped")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "out.jsonl"]
