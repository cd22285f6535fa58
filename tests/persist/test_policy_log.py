"""The rules' policy is part of the game: switches are log entries that replay, resume from a
checkpoint and branch with the game; undo passes them by; old logs without them still open."""

from __future__ import annotations

import json

import pytest

from tabletop.core import (
    CommandError,
    Entry,
    Finding,
    FormatError,
    Mode,
    Policy,
    Refused,
    SetPolicy,
)
from tabletop.core import actions as act
from tabletop.inspection import strictness_text
from tabletop.persist import Game, LogError
from tests.sample_table import sample_header, sample_table, setup_commands

STRICT = Policy(Mode.STRICT)
OFF = Policy(Mode.OFF)


def blue_hand_only(state, command, actor):
    """'E1' here: nothing goes into Blue's hand (a checker for the sample table)."""
    moves = getattr(command, "commands", (command,))
    return [
        Finding("E1", "only Blue may take cards", pieces=(c.piece,))
        for c in moves
        if getattr(c, "dst", None) is not None and c.dst.place == "hand-blue"
    ]


def illegal(table):
    return act.move(table.state, "card9", "hand-blue")


def switch_off_move_and_back(table) -> tuple[int, int, int]:
    """Red switches the rules off, makes a move strict rules refuse, and switches them back."""
    off = table.set_policy(OFF, "red").seq
    move = table.submit(illegal(table), "red").seq
    back = table.set_policy(STRICT, "red").seq
    return off, move, back


# ---- the table ------------------------------------------------------------------------------


def test_table_policy_switches_are_entries_and_undo_passes_them_by() -> None:
    table = sample_table(checker=blue_hand_only, policy=STRICT)
    with pytest.raises(Refused):
        table.submit(illegal(table), "red")
    off, move, back = switch_off_move_and_back(table)
    kinds = [e.kind for e in table.entries[off - 1 :]]
    assert kinds == ["policy", "do", "policy"]
    assert table.entries[off - 1].actor == "red"
    assert table.entries[off - 1].command.describe() == "rules assistant: off"
    assert table.policy_at(off - 1) == STRICT and table.policy_at(move) == OFF
    assert table.policy_at(back) == STRICT
    # undo takes back the move, never a switch: the rules stay strict
    assert table.undo_stack == (move,)
    table.undo("red")
    assert table.policy == STRICT and not table.can_undo
    # a switch is no move: the move undone can still be redone after one
    assert table.set_policy(Policy(Mode.ADVISORY), "blue") is not None
    assert table.can_redo and table.redo("red").entry.ref == move
    # the same policy again is no entry
    seq = table.seq
    assert table.set_policy(Policy(Mode.ADVISORY), "blue") is None and table.seq == seq


def test_table_a_policy_is_not_a_move() -> None:
    table = sample_table()
    with pytest.raises(CommandError, match="set_policy"):
        table.submit(SetPolicy.of(OFF), "red")
    change = table.set_policy(Policy(Mode.STRICT, {"E1": Mode.OFF}), "red")
    record = change.entry.to_dict()
    assert record["kind"] == "policy"
    assert record["cmd"] == {
        "op": "policy",
        "policy": {"mode": "strict", "per_rule": {"E1": "off"}},
    }
    assert Entry.from_dict(record) == change.entry
    with pytest.raises(FormatError, match="policy"):
        Entry.from_dict({**record, "kind": "do"})  # a switch dressed as an undoable move
    with pytest.raises(FormatError, match="policy"):
        Entry.from_dict({**record, "cmd": {"op": "note", "text": "x"}})
    with pytest.raises(FormatError, match="mode"):
        Entry.from_dict({**record, "cmd": {"op": "policy", "policy": {"mode": "lenient"}}})


# ---- the log ------------------------------------------------------------------------------


def strict_game(path, checkpoint_every: int | None = None) -> tuple[Game, tuple[int, int, int]]:
    game = Game.create(
        sample_header(), setup_commands(), path, checker=blue_hand_only, policy=STRICT
    )
    if checkpoint_every is not None:
        game.table.checkpoint_every = checkpoint_every
    table = game.table
    table.submit(act.flip(table.state, "card9"), "red")
    spots = switch_off_move_and_back(table)
    table.submit(act.flip(table.state, "elder"), "blue")
    return game, spots


def test_table_policy_is_written_and_replayed(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game, (off, move, back) = strict_game(path)
    game.close()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["policy"] == {"mode": "strict"}  # the policy the game started with
    assert [r["seq"] for r in records[1:] if r.get("kind") == "policy"] == [off, back]
    opened = Game.open(path, checker=blue_hand_only, policy=OFF)  # the log's policy wins
    table = opened.table
    assert table.policy == STRICT and table.initial_policy == STRICT
    assert [table.policy_at(s) for s in (0, off - 1, off, move, back)] == [
        STRICT,
        STRICT,
        OFF,
        OFF,
        STRICT,
    ]
    with pytest.raises(Refused):
        table.submit(illegal(table), "blue")
    assert table.undo_stack[-1] == table.seq  # the last move, not a switch
    assert strictness_text(table) == f"strict throughout: no: off at entry {move}"
    opened.close()


def test_table_policy_resumes_from_a_checkpoint(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game, (off, _move, back) = strict_game(path, checkpoint_every=2)
    game.table.set_policy(Policy(Mode.STRICT, {"E": Mode.ADVISORY}), "blue")
    game.table.submit(act.flip(game.table.state, "elder"), "blue")
    game.close()
    opened = Game.open(path, verify=False, checker=blue_hand_only)
    table = opened.table
    last_checkpoint = max(table.checkpoints)
    assert last_checkpoint > back  # the switches lie before it and are not replayed
    assert table.policy == Policy(Mode.STRICT, {"E": Mode.ADVISORY})
    assert table.submit(illegal(table), "red").findings[0].rule == "E1"  # advisory for E
    assert table.policy_at(off) == OFF
    assert "strict (house rules: E advisory)" in strictness_text(table)
    opened.close()


def test_table_a_branch_keeps_the_policy_of_its_point(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game, (off, move, back) = strict_game(path)
    game.branch(move, tmp_path / "while-off.jsonl")
    game.branch(back, tmp_path / "strict-again.jsonl")
    game.close()
    while_off = Game.open(tmp_path / "while-off.jsonl", checker=blue_hand_only)
    assert while_off.table.policy == OFF and while_off.table.policy_at(off - 1) == STRICT
    assert while_off.table.submit(illegal(while_off.table), "red").findings == ()
    while_off.close()
    strict_again = Game.open(tmp_path / "strict-again.jsonl", checker=blue_hand_only)
    assert strict_again.header.policy == STRICT and strict_again.table.policy == STRICT
    strict_again.close()


def test_table_an_old_log_without_a_policy_still_opens(tmp_path) -> None:
    path = tmp_path / "old.jsonl"
    game = Game.create(sample_header(), setup_commands(), path)
    game.table.submit(act.flip(game.table.state, "card9"), "red")
    game.close()
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    del header["policy"]  # as written before policies were logged
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    opened = Game.open(path, policy=STRICT)  # a log that says nothing takes the one given
    table = opened.table
    assert opened.header.policy is None and table.policy == STRICT
    assert table.policy_at(table.seq) is None
    assert strictness_text(table) == (
        f"strict throughout: no: no policy recorded from entry 1 to {table.seq}"
    )
    # the first policy set is logged even when it is the one in force: from here the log says
    assert table.set_policy(STRICT, "table") is not None
    table.submit(act.flip(table.state, "elder"), "red")
    assert table.policy_at(table.seq) == STRICT
    opened.close()
    header["policy"] = {"mode": "sometimes"}
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(LogError, match="line 1: the header's 'policy'"):
        Game.open(path)


def test_table_strict_throughout_names_the_moves_forced_with_a_reason() -> None:
    table = sample_table(checker=blue_hand_only, policy=STRICT)
    assert strictness_text(table) == "no moves yet (the rules assistant: strict)"
    forced = table.submit(illegal(table), "red", force="Blue lent Red the card").seq
    assert strictness_text(table) == (
        f"strict throughout: yes (forced past the rules with a reason: #{forced})"
    )
