"""The session record lives in the game's log as 'record' entries: testers, place, stretches
of play, the result and the players' forms are written, saved, reopened and replayed; they
change nothing on the table and undo passes them by; the playing time leaves pauses out (time
driven through the table's clock, never the wall clock). A game without scoring records no
result and says why (table: no rulebook section applies)."""

from __future__ import annotations

import calendar
import json
import time

import pytest

from tabletop.core import CommandError, Mode, Policy, Record, Table, TableState
from tabletop.core import actions as act
from tabletop.modules import find_module, new_game
from tabletop.modules.gamecode import game_of
from tabletop.modules.results import game_result, record_result
from tabletop.persist import Game, LogError
from tabletop.persist.record import (
    _created,
    _offset,
    playing_time,
    record_lines,
    session_record,
    when_text,
)
from tests.sample_table import SEATS, sample_header, sample_table, setup_commands


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def tick(self, seconds: float) -> None:
        self.t += seconds


def timed_table(clock: Clock) -> Table:
    """The sample table set up with entries stamped by ``clock``."""
    table = Table(TableState(SEATS))
    table.clock = clock
    for command in setup_commands():
        table.submit(command, "setup", undoable=False)
    return table


def test_table_a_record_changes_nothing_and_undo_passes_it_by() -> None:
    table = sample_table()
    move = table.submit(act.flip(table.state, "card9"), "red").seq
    digest, state = table.state.digest(), table.state.to_dict()
    table.record(Record("session", {"testers": {"red": "Ann"}, "where": "the club"}), "table")
    table.record(Record("form", {"seat": "red", "fun": 4, "text": "tense"}), "red")
    assert [e.kind for e in table.entries[-2:]] == ["record", "record"]
    assert table.state.digest() == digest and table.state.to_dict() == state
    assert table.undo_stack == (move,)
    table.undo("red")  # takes back the flip, not the record
    parts = table.session_parts()
    assert parts.testers == {"red": "Ann"} and parts.where == "the club"
    assert parts.forms["red"] == {"seat": "red", "fun": 4, "text": "tense"}


def test_table_a_record_is_written_only_through_record() -> None:
    table = sample_table()
    with pytest.raises(CommandError, match="written with record"):
        table.submit(Record("session", {"where": "home"}), "red")


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Record("form", {"seat": "purple", "fun": 3}), "no seat 'purple'"),
        (Record("form", {"seat": "red", "fun": 6}), "'fun' must be a whole number from 1 to 5"),
        (Record("form", {"seat": "red", "clarity": 0}), "'clarity'"),
        (Record("session", {"testers": {"green": "Bo"}}), "no seat 'green'"),
        (Record("played", {"from": 10, "to": 5, "seconds": 1, "idle": 300}), "ends after"),
        (Record("result", {"scores": {"red": 3}, "winners": ["blue"]}), "'winners'"),
        (Record("vote", {}), "unknown action"),
    ],
)
def test_table_a_bad_record_is_refused_naming_what(command: Record, message: str) -> None:
    table = sample_table()
    before = table.seq
    with pytest.raises(CommandError, match=message):
        table.record(command, "table")
    assert table.seq == before


def test_table_a_later_form_replaces_the_earlier_and_the_log_keeps_both() -> None:
    table = sample_table()
    table.record(Record("form", {"seat": "blue", "fun": 2}), "blue")
    table.record(Record("form", {"seat": "blue", "fun": 5, "length": 3}), "blue")
    assert table.session_parts().forms["blue"] == {"seat": "blue", "fun": 5, "length": 3}
    assert sum(1 for e in table.entries if e.kind == "record") == 2


def test_table_the_record_is_saved_reopened_replayed_and_branched(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game = Game.create(sample_header(), setup_commands(), path, policy=Policy(Mode.STRICT))
    game.table.checkpoint_every = 3
    table = game.table
    table.record(
        Record("session", {"testers": {"red": "Ann", "blue": "Bo"}, "where": "Oslo"}), "table"
    )
    table.submit(act.flip(table.state, "card9"), "red")
    table.set_policy(Policy(Mode.ADVISORY, {"E1": Mode.OFF}), "red")
    table.record(
        Record("played", {"from": 1.0, "to": 100.0, "seconds": 90.0, "idle": 300}), "table"
    )
    keep = table.seq
    table.record(Record("form", {"seat": "blue", "clarity": 2, "text": "E1 unclear"}), "blue")
    digest = table.state.digest()
    game.close()

    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert sum(1 for r in records if r.get("kind") == "record") == 3
    for verify in (True, False):
        opened = Game.open(path, verify=verify)
        record = session_record(opened)
        assert opened.table.state.digest() == digest
        assert [t["tester"] for t in record["testers"]] == ["Ann", "Bo"]
        assert record["where"] == "Oslo"
        assert record["rules"]["start"] == {"mode": "strict"}
        assert record["rules"]["changes"][0]["policy"] == {
            "mode": "advisory",
            "per_rule": {"E1": "off"},
        }
        assert record["forms"]["blue"]["clarity"] == 2
        assert record["playing_time"]["window_seconds"] == 90.0
        opened.close()
    reopened = Game.open(path)
    reopened.branch(keep, tmp_path / "branch.jsonl")
    reopened.close()
    branch = Game.open(tmp_path / "branch.jsonl", writable=False)
    assert branch.table.session_parts().forms == {}  # the form came later
    assert branch.table.session_parts().where == "Oslo"


def test_table_a_damaged_record_names_its_line(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game = Game.create(sample_header(), setup_commands(), path)
    game.table.record(Record("form", {"seat": "red", "fun": 3}), "red")
    game.close()
    lines = path.read_text().splitlines()
    record = json.loads(lines[-1])
    record["cmd"]["data"]["fun"] = 9
    lines[-1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=rf"line {len(lines)}: .*'fun'"):
        Game.open(path)


def test_table_playing_time_from_entries_caps_each_gap_at_the_idle_limit() -> None:
    clock = Clock()
    table = timed_table(clock)
    for gap in (0, 60, 120, 3600, 30):  # an hour's pause counts 5 minutes, as a long think
        clock.tick(gap)
        table.submit(act.flip(table.state, "card9"), "red")
    clock.tick(7200)  # a form filled in two hours later is not play
    table.record(Record("form", {"seat": "red", "fun": 4}), "red")
    found = playing_time(table.entries, table.session_parts(), idle=300)
    assert found["estimated_seconds"] == pytest.approx(60 + 120 + 300 + 30)
    assert found["window_seconds"] == 0
    assert "capped at 5 min" in found["text"]


def test_table_playing_time_takes_the_windows_stretches_and_the_entries_outside_them() -> None:
    clock = Clock()
    table = timed_table(clock)
    start = clock.t
    for _ in range(3):  # moves in the window, inside the stretch it measured
        clock.tick(100)
        table.submit(act.flip(table.state, "card9"), "red")
    table.record(
        Record("played", {"from": start, "to": clock.t, "seconds": 250.0, "idle": 300}), "table"
    )
    clock.tick(40)  # then two moves from the command line
    table.submit(act.flip(table.state, "card9"), "red")
    clock.tick(1000)
    table.submit(act.flip(table.state, "card9"), "red")
    found = playing_time(table.entries, table.session_parts(), idle=300)
    assert found["window_seconds"] == 250.0
    assert found["estimated_seconds"] == pytest.approx(40 + 300)
    assert found["seconds"] == pytest.approx(590)
    assert found["estimated_entries"] == 2


def test_table_a_module_without_scoring_records_no_result_and_says_so(tmp_path) -> None:
    module = find_module("proto")
    game = new_game(module, seats=2, seed=1, path=tmp_path / "proto.jsonl")
    rules = game_of(module)
    result, why = game_result(rules, game.table.state)
    assert result is None and "no scoring" in why
    assert record_result(game.table, rules) is False
    record = session_record(game, result=result, no_result=why)
    assert record["result"] is None
    assert any(
        line.startswith("Result: none (") and "no scoring" in line for line in record_lines(record)
    )
    game.close()


@pytest.mark.parametrize(
    "text",
    [
        "1970-01-01T00:00:00+0000",
        "1969-12-31T23:59:59-0130",
        "2000-02-29T12:30:45+0530",
        "2024-12-31T23:59:60+0000",  # a leap second, as time.strptime reads one
        "2100-03-01T00:00:00-1200",
    ],
)
def test_table_a_header_time_counts_its_seconds_as_the_calendar_module_does(text: str) -> None:
    # the record counts a header's time itself rather than through calendar.timegm (an import
    # the start does without); the two sums must agree, leap seconds and dates before 1970 too
    expected = calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%S%z")) - _offset(text)
    assert _created(text) == expected
    assert type(_created(text)) is int


def test_table_a_header_time_written_by_the_record_reads_back_to_its_second() -> None:
    for t in (0.0, 86_399.5, 951_782_400.0, 1_700_000_000.25, 4_102_444_800.0):
        assert _created(when_text(t)) == int(t)
    assert _created("") is None and _created("not a time") is None
