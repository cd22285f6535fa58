"""Procedures asking typed questions: answered from choices or on the spot, or stopped with
every question they could see, the table as it was."""

from __future__ import annotations

import pytest

from rules_assist.procedures import ChoiceNeeded, ProcedureContext, ProcedureError, run_procedure
from rules_assist.questions import SPLIT, YES_NO, Question
from tests.sample_table import sample_table


def scout(ctx: ProcedureContext, cubes: int = 2) -> str:
    """Roll, ask where the cubes go and whether to keep the card, then act on the answers."""
    (pips,) = ctx.roll(1, "scouting")
    share = ctx.answer(
        Question.split("share", "Share the cubes", cubes, [("t0", 1), ("t1", 2)], owner="red")
    )
    for spot, n in share.items():
        for pid in [p for p in ctx.state.place("supply").contents][:n]:
            ctx.move(pid, "track", spot=spot)
    if ctx.answer(Question.yes_no("keep", "Keep the card?", owner="blue")):
        ctx.move("card9", "hand-blue")
    ctx.set_counter("pips", pips)
    return "scout"


def test_without_answers_every_question_is_named_and_nothing_changes():
    table = sample_table()
    digest, seq, mark = table.state.digest(), table.seq, table.random.mark()
    with pytest.raises(ChoiceNeeded) as caught:
        run_procedure(table, "red", scout, name="game.scout")
    need = caught.value
    assert [(q.key, q.kind, q.owner) for q in need.questions] == [
        ("share", SPLIT, "red"),
        ("keep", YES_NO, "blue"),
    ]
    assert (need.key, need.owner, need.options) == ("share", "red", ["t0", "t1"])
    assert "choice 'share'" in str(need) and "choice 'keep'" in str(need)
    assert (table.state.digest(), table.seq, table.random.mark()) == (digest, seq, mark)


def test_choices_answer_the_questions_and_the_steps_go_in_as_one_entry():
    table = sample_table()
    table.random.force_faces([5])
    change = run_procedure(
        table, "red", scout, name="game.scout", choices={"share": "t0=1,t1=1", "keep": "yes"}
    )
    entry = table.entries[-1]
    assert change.seq == entry.seq and entry.command.procedure == "game.scout"
    assert table.state.counters["pips"] == 5
    assert table.state.pieces["card9"].place == "hand-blue"
    assert sorted(table.state.pieces[p].spot for p in table.state.place("track").contents) == [
        "t0",
        "t1",
    ]
    table.undo("red")
    assert table.state.place("track").contents == []


def test_an_answerer_is_asked_each_question_on_the_table_as_it_stands():
    table = sample_table()
    seen = []

    def answerer(need, state):
        seen.append((need.question.key, len(state.place("track").contents)))
        return need.question.default()

    run_procedure(table, "red", scout, name="game.scout", answerer=answerer)
    assert seen == [("share", 0), ("keep", 2)]


def test_an_answer_that_does_not_fit_is_one_plain_error():
    table = sample_table()
    with pytest.raises(ProcedureError, match="Share the cubes: t0 takes at most 1, not 2"):
        run_procedure(table, "red", scout, name="game.scout", choices={"share": "t0=2"})


def test_a_question_asked_twice_is_listed_once():
    def twice(ctx: ProcedureContext) -> str:
        for _ in range(2):
            ctx.answer(Question.yes_no("again", "Again?"))
        ctx.set_counter("again", 1)
        return "twice"

    with pytest.raises(ChoiceNeeded) as caught:
        run_procedure(sample_table(), "red", twice, name="game.twice")
    assert [q.key for q in caught.value.questions] == ["again"]


def test_a_stand_in_answer_the_rules_refuse_still_asks_the_question():
    def strict(ctx: ProcedureContext) -> str:
        if not ctx.answer(Question.yes_no("sure", "Sure?")):
            raise ProcedureError("only when sure")
        ctx.set_counter("sure", 1)
        return "strict"

    with pytest.raises(ChoiceNeeded) as caught:
        run_procedure(sample_table(), "red", strict, name="game.strict")
    assert caught.value.key == "sure"
    with pytest.raises(ProcedureError, match="only when sure"):
        run_procedure(sample_table(), "red", strict, name="game.strict", choices={"sure": "no"})


def test_choose_gives_back_the_option_itself():
    picked = []

    def pick(ctx: ProcedureContext) -> str:
        picked.append(ctx.choose("n", "How many?", [1, 2, 3], owner="red"))
        return "pick"

    assert run_procedure(sample_table(), "red", pick, name="game.pick", choices={"n": "2"}) is None
    assert picked == [2]
