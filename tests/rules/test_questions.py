"""Typed questions: each kind read, written back, defaulted and answered at random; and what a
wrong answer is told."""

from __future__ import annotations

import random

import pytest

from rules_assist.questions import (
    ONE_OF,
    PAYMENT,
    SPLIT,
    SUBSET,
    YES_NO,
    AnswerError,
    Question,
)

COLOUR = Question.one_of("colour", "Which colour?", ["red", "blue", 3], owner="red")
AGREE = Question.yes_no("agree", "Agree?", owner="blue")
DISCARD = Question.subset("discard", "Discard two", ["a", "b", "c", "a"], 2, owner="red")
REROLL = Question.subset("reroll", "Re-roll any", ["d1", "d2", "d3"], low=0, high=2)
HITS = Question.split("hits", "Share the hits", 4, [("red", 2), ("blue", 3)], owner="green")
PAY = Question.payment(
    "pay", "Pay 3", 3, [("energy", 2), ("elder", 2)], alternatives=["slaughter"], owner="red"
)
EVERY = (COLOUR, AGREE, DISCARD, REROLL, HITS, PAY)


def test_each_constructor_makes_its_kind_with_its_data():
    assert [q.kind for q in EVERY] == [ONE_OF, YES_NO, SUBSET, SUBSET, SPLIT, PAYMENT]
    assert COLOUR.options == ("red", "blue", "3") and COLOUR.owner == "red"
    assert AGREE.options == ("yes", "no")
    assert DISCARD.options == ("a", "b", "c") and (DISCARD.low, DISCARD.high) == (2, 2)
    assert (REROLL.low, REROLL.high, REROLL.owner) == (0, 2, None)
    assert HITS.caps() == {"red": 2, "blue": 3} and HITS.options == ("red", "blue")
    assert PAY.options == ("energy", "elder", "slaughter") and PAY.alternatives == ("slaughter",)


def test_one_of_reads_an_option_in_any_case():
    assert COLOUR.parse("Blue ") == "blue"
    assert COLOUR.parse(3) == "3"
    with pytest.raises(AnswerError, match="Which colour\\?: 'green' is not one of red, blue, 3"):
        COLOUR.parse("green")


def test_yes_no_reads_the_usual_words():
    for yes in (True, "yes", "Y", "true", "1", 1):
        assert AGREE.parse(yes) is True
    for no in (False, "no", "n", "False", "0", 0):
        assert AGREE.parse(no) is False
    with pytest.raises(AnswerError, match="answer yes or no, not 'maybe'"):
        AGREE.parse("maybe")


def test_subset_reads_lists_and_comma_separated_text():
    assert DISCARD.parse("b, A") == ("b", "a")
    assert DISCARD.parse(["c", "a"]) == ("c", "a")
    assert REROLL.parse("none") == ()
    assert REROLL.parse(None) == ()
    with pytest.raises(AnswerError, match="choose 2, not 1"):
        DISCARD.parse("a")
    with pytest.raises(AnswerError, match="choose 0 to 2, not 3"):
        REROLL.parse("d1,d2,d3")
    with pytest.raises(AnswerError, match="'a' is named twice"):
        DISCARD.parse("a,a")
    with pytest.raises(AnswerError, match="'z' is not one of a, b, c"):
        DISCARD.parse("a,z")


def test_split_reads_counts_as_a_dict_pairs_or_repeated_names():
    assert HITS.parse({"blue": 3, "red": 1}) == {"red": 1, "blue": 3}
    assert HITS.parse("red=2, blue=2") == {"red": 2, "blue": 2}
    assert HITS.parse("blue,blue,RED,blue") == {"red": 1, "blue": 3}
    assert HITS.parse({"red": 0, "blue": "3", "Red": 1}) == {"red": 1, "blue": 3}
    with pytest.raises(AnswerError, match="red takes at most 2, not 3"):
        HITS.parse("red=3,blue=1")
    with pytest.raises(AnswerError, match="share 4 in all, not 3"):
        HITS.parse("red=1,blue=2")
    with pytest.raises(AnswerError, match="'green' is not one of red, blue"):
        HITS.parse("green=4")
    with pytest.raises(AnswerError, match="red='x': give a whole number"):
        HITS.parse("red=x")
    with pytest.raises(AnswerError, match="a share is never negative"):
        HITS.parse({"red": -1, "blue": 5})


def test_payment_reads_means_or_an_alternative():
    assert PAY.parse("energy=2,elder=1") == {"energy": 2, "elder": 1}
    assert PAY.parse("Slaughter") == "slaughter"
    with pytest.raises(AnswerError, match="pay 3 in all, not 2"):
        PAY.parse({"energy": 2})


def test_encode_writes_what_parse_reads_back():
    answers = {
        COLOUR: ("BLUE", "blue"),
        AGREE: ("y", "yes"),
        DISCARD: (["c", "a"], "c,a"),
        REROLL: ((), "none"),
        HITS: ({"blue": 3, "red": 1}, "red=1,blue=3"),
        PAY: ("slaughter", "slaughter"),
    }
    for question, (answer, text) in answers.items():
        assert question.encode(answer) == text
        assert question.parse(text) == question.parse(answer)
    with pytest.raises(AnswerError):
        HITS.encode("red=4")


def test_an_empty_share_is_written_as_none():
    nothing = Question.split("none", "Share nothing", 0, [("red", 2)])
    assert nothing.encode({}) == "none"
    assert nothing.parse("none") == {}


def test_the_default_is_the_plainest_fitting_answer():
    assert COLOUR.default() == "red"
    assert AGREE.default() is False
    assert DISCARD.default() == ("a", "b")
    assert REROLL.default() == ()
    assert HITS.default() == {"red": 2, "blue": 2}
    assert PAY.default() == {"energy": 2, "elder": 1}
    for question in EVERY:
        assert question.parse(question.default()) == question.default()
        assert question.answerable()


def test_fill_follows_the_order_given_and_falls_back_on_an_alternative():
    assert HITS.fill(["blue", "red"]) == {"red": 1, "blue": 3}
    short = Question.payment("pay", "Pay 5", 5, [("energy", 2)], alternatives=["slaughter"])
    assert short.fill(["energy"]) == "slaughter"
    assert short.default() == "slaughter"
    with pytest.raises(AnswerError, match="only 2 of 5 can be found"):
        Question.payment("pay", "Pay 5", 5, [("energy", 2)]).default()


def test_questions_nothing_answers():
    unanswerable = (
        Question.one_of("pick", "Pick one", []),
        Question.subset("three", "Discard three", ["a", "b"], 3),
        Question.split("hits", "Share 5", 5, [("red", 2)]),
        Question.payment("pay", "Pay 5", 5, [("energy", 2)]),
    )
    for question in unanswerable:
        assert not question.answerable()
        with pytest.raises(AnswerError):
            question.default()
        with pytest.raises(AnswerError):
            question.random_answer(random.Random(1))


def test_random_answers_always_fit():
    rng = random.Random(5)
    for question in EVERY:
        seen = set()
        for _ in range(200):
            answer = question.random_answer(rng)
            parsed = question.parse(answer)
            seen.add(question.encode(parsed))
        assert len(seen) > 1, question.key  # they do vary
    assert "slaughter" in {PAY.encode(PAY.random_answer(rng)) for _ in range(200)}


def test_describe_says_what_would_answer():
    assert COLOUR.describe() == "Which colour? (choice 'colour': red, blue, 3)"
    assert AGREE.describe().endswith("(choice 'agree': yes or no)")
    assert DISCARD.describe().endswith("2 of a, b, c, comma-separated)")
    assert REROLL.describe().endswith("0 to 2 of d1, d2, d3, comma-separated)")
    assert HITS.describe().endswith("4 shared as NAME=N among red≤2, blue≤3)")
    assert PAY.describe().endswith("3 paid as MEANS=N from energy≤2, elder≤2, or slaughter)")


def test_labels_are_for_the_screen_only():
    labelled = Question.one_of("card", "Which card?", ["c-17"], labels=(("c-17", "Walrus"),))
    assert labelled.label("c-17") == "Walrus" and labelled.label("c-18") == "c-18"
    assert labelled.parse("c-17") == "c-17"
