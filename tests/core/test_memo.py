"""The table's memo and its clocks, steps submitted as they stand, and questions answered on the
spot: what lets rules code read the table often without reading it again."""

from __future__ import annotations

import pytest

from rules_assist.procedures import ChoiceNeeded, ProcedureContext, run_procedure
from tabletop.core import Compound, Finding, Mode, Policy, Refused, Severity
from tabletop.core import actions as act
from tests.sample_table import sample_table


@pytest.fixture
def table():
    return sample_table(seed=5)


def test_every_command_empties_the_memo(table):
    state = table.state
    state.memo()["answer"] = 42
    assert state.memo()["answer"] == 42  # kept while nothing changes
    version = state.version
    table.submit(act.flip(state, "card9"), "red")
    assert state.version > version
    assert "answer" not in state.memo()
    state.memo()["answer"] = 43
    table.undo("red")  # an undo is a command too
    assert "answer" not in state.memo()


def test_the_layout_memo_outlives_moves_but_not_new_pieces(table):
    state = table.state
    state.layout_memo()["dice"] = ["die0"]
    table.submit(act.move(state, "card9", "hand-red"), "red")
    table.submit(act.flip(state, "card9"), "red")
    assert state.layout_memo()["dice"] == ["die0"]  # moves and flips keep the same pieces
    table.submit(act.remove_piece(state, "card9"), "red")
    assert "dice" not in state.layout_memo()


def test_the_positions_memo_outlives_counters_but_not_moves(table):
    state = table.state
    state.positions_memo()["where"] = "hand"
    table.submit(act.set_counter(state, "phase", "hunt"), "red")
    assert state.positions_memo()["where"] == "hand"  # only a counter changed
    assert "where" not in state.memo()
    table.undo("red")  # taking the counter back moves nothing either
    assert state.positions_memo()["where"] == "hand"
    table.submit(act.move(state, "card9", "hand-red"), "red")
    assert "where" not in state.positions_memo()
    state.positions_memo()["where"] = "red's hand"
    table.submit(act.flip(state, "card9"), "red")  # a card turned lies otherwise
    assert "where" not in state.positions_memo()
    state.positions_memo()["where"] = "face up"
    table.submit(
        Compound("the phase, as one entry", (act.set_counter(state, "phase", "event"),)), "red"
    )
    assert "where" not in state.positions_memo()  # a compound is not looked into: kept safe


def test_back_to_a_mark_brings_the_memo_back_only_as_it_was(table):
    state = table.state
    state.memo()["before"] = 1
    mark = state.mark()
    move = act.move(state, "card9", "hand-red")
    move.apply(state)
    assert "before" not in state.memo()
    state.memo()["after"] = 2
    move.inverse().apply(state)
    state.back_to(mark)  # the table is exactly as it was: what was known holds again
    assert state.memo() == {"before": 1}
    move.apply(state)  # a step from there is a new table: nothing of the trial is kept
    assert state.memo() == {}


def test_copies_and_digests_ignore_the_memo(table):
    state = table.state
    digest = state.digest()
    state.memo()["x"] = object()
    assert state.digest() == digest
    assert state.copy().memo() == {}


# ---- steps submitted as they stand ---------------------------------------------------
def _applied(table, label="a procedure", procedure="test.proc"):
    move = act.move(table.state, "card9", "hand-red")
    move.apply(table.state)
    return Compound(label, (move,), procedure)


def test_applied_steps_go_in_without_being_applied_twice(table):
    before = table.seq
    change = table.submit(_applied(table), "red", applied=True)
    assert change.seq == before + 1
    assert table.state.pieces["card9"].place == "hand-red"
    table.undo("red")
    assert table.state.pieces["card9"].place != "hand-red"


def test_a_checker_sees_applied_steps_on_the_table_as_it_was(table):
    seen = []

    def checker(state, command, actor):
        seen.append(state.pieces["card9"].place)
        return [Finding("X1", "no", Severity.ILLEGAL, ("card9",))]

    table.checker = checker
    table.policy = Policy(Mode.STRICT)
    where = table.state.pieces["card9"].place
    digest = table.state.digest()
    compound = _applied(table)
    with pytest.raises(Refused):
        table.submit(compound, "red", applied=True)
    assert seen == [where]  # checked before the steps
    assert table.state.digest() == digest  # and refused: they are off the table


def test_a_checker_that_trusts_procedures_is_not_asked(table):
    def checker(state, command, actor):
        raise AssertionError("asked")

    checker.trusts_procedures = True
    table.checker = checker
    table.policy = Policy(Mode.STRICT)
    table.submit(_applied(table), "red", applied=True)
    assert table.state.pieces["card9"].place == "hand-red"
    with pytest.raises(AssertionError):  # a hand move is still checked
        table.submit(act.move(table.state, "card9", "table", x=3, y=3), "red")


def test_build_sequence_can_keep_its_steps(table):
    state = table.state
    built = act.build_sequence(
        state, "two moves", [lambda s: act.move(s, "card9", "hand-red")], keep=True
    )
    assert state.pieces["card9"].place == "hand-red"
    table.submit(built, "red", applied=True)
    assert table.entries[-1].command == built

    def broken(s):
        raise ValueError("no")

    digest = state.digest()
    with pytest.raises(ValueError):
        act.build_sequence(state, "x", [lambda s: act.flip(s, "card9"), broken], keep=True)
    assert state.digest() == digest  # a failed build takes its steps back all the same


# ---- questions answered on the spot ----------------------------------------------------
def _asking(ctx: ProcedureContext) -> str:
    ctx.move("card9", "hand-red")
    where = ctx.state.pieces["card9"].place
    answer = ctx.choose("flip", f"flip it? (it is in {where})", ["yes", "no"])
    if answer == "yes":
        ctx.flip("card9")
    faces = ctx.roll(2)
    ctx.note(f"rolled {faces}")
    return "asked"


def test_without_an_answerer_a_question_stops_the_procedure(table):
    digest = table.state.digest()
    with pytest.raises(ChoiceNeeded) as stop:
        run_procedure(table, "red", _asking, name="test.ask")
    assert stop.value.key == "flip" and stop.value.options == ["yes", "no"]
    assert table.state.digest() == digest


def test_an_answerer_is_asked_once_on_the_table_so_far(table):
    asked = []

    def answerer(need, state):
        asked.append((need.key, state.pieces["card9"].place))
        return "yes"

    runs = []

    def counted(ctx):
        runs.append(1)
        return _asking(ctx)

    face_up = table.state.pieces["card9"].face_up
    change = run_procedure(table, "red", counted, name="test.ask", answerer=answerer)
    assert runs == [1]  # not started again for the answer
    assert asked == [("flip", "hand-red")]  # asked with the card already moved
    assert table.state.pieces["card9"].face_up is not face_up
    assert "rolled" in change.entry.command.label
    assert table.entries[-1].draws is not None


def test_the_same_answers_given_ahead_give_the_same_table(table):
    other = sample_table(seed=5)
    run_procedure(table, "red", _asking, name="t", answerer=lambda need, state: "no")
    run_procedure(other, "red", _asking, name="t", choices={"flip": "no"})
    assert table.state.digest() == other.state.digest()
