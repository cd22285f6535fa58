"""Greenland's questions are typed (rules_assist/questions.py): each has its kind, its owner and
its section, read from the procedures as they ask them (run without answers: ChoiceNeeded lists
every question the procedure could see)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import animals, elders, events, negotiation
from rules_assist.greenland.hunt import hunt_card
from rules_assist.procedures import ChoiceNeeded
from rules_assist.questions import Question

from .tables import build, cli_run, game_file, put, run
from .test_animals import CATTLE
from .test_elders import PREACHING, finished, set_turn
from .test_hands import FULL, card
from .test_negotiation import TIED, WALRUS


def asked(game, procedure, choices=None, **params) -> tuple[Question, ...]:  # noqa: ANN001
    with pytest.raises(ChoiceNeeded) as need:
        run(game, procedure, choices, **params)
    return need.value.questions


def test_b2_the_discard_is_a_subset_of_the_hand(tmp_path: Path) -> None:
    """A divorced husband's culture keeps no card of two: a subset of exactly 2, its own."""
    game = build(
        tmp_path,
        """
phase = "negotiation"
[cultures.yellow]
unassigned = 1
husbands = {Birgitta = 1}
tableau = []
hand = ["Slit Goggles", "Toggle-head Harpoon"]
""",
    )
    (question,) = asked(game, negotiation.divorce, colour="yellow", daughter="birgitta")
    assert (question.key, question.kind, question.owner, question.section) == (
        "discard_yellow",
        "subset",
        "yellow",
        "B2",
    )
    assert question.low == question.high == 2
    assert question.options == ("slit-goggles", "toggle-head-harpoon")
    assert question.label("slit-goggles") == "Slit Goggles"
    assert question.encode(question.default()) == "slit-goggles,toggle-head-harpoon"


def test_f2_the_attackers_hits_are_a_split_among_the_victims(tmp_path: Path) -> None:
    three = TIED.replace("FIRST", "green").replace("IRON", "1") + (
        "[cultures.red]\nunassigned = 1\nhunters = {Walrus = 1}\n"
    )
    game = build(tmp_path, three)
    game.table.random.force_faces([1, 1, 5])
    questions = asked(game, negotiation.attack, colour="green", card="walrus")
    targets = questions[0]
    assert (targets.key, targets.kind, targets.owner, targets.section) == (
        "targets",
        "split",
        "green",
        "F2",
    )
    assert targets.total == 2 and targets.caps() == {"red": 1, "yellow": 2}
    assert targets.parse("red=1, yellow=1") == {"red": 1, "yellow": 1}
    # the victims' own questions follow: yellow may pay an iron (F4), a yes or no of its own
    iron = next(q for q in questions if q.key == "pay_iron_yellow")
    assert (iron.kind, iron.owner, iron.section) == ("yes_no", "yellow", "F4")


def test_f2_the_victims_dead_are_a_split_among_the_kinds_of_cube(tmp_path: Path) -> None:
    game = build(tmp_path, WALRUS.replace("IRON", "0"))
    game.table.random.force_faces([1, 1, 4])
    (question,) = asked(game, negotiation.attack, colour="yellow", card="walrus")
    assert (question.key, question.kind, question.owner) == ("hits_green", "split", "green")
    assert question.total == 2 and question.caps() == {"hunter": 2, "alpha": 1}
    assert question.parse("hunter,alpha") == {"hunter": 1, "alpha": 1}


def test_i2_the_martyr_rolls_ones_are_a_split_among_the_foes(tmp_path: Path) -> None:
    position = PREACHING.replace("tableau = []", 'tableau = ["Meeka"]').replace(
        "elders = {2 = 3, 5 = 2}", "elders = {2 = 3, 5 = 2}\nunassigned = 2\nhusbands = {Meeka = 1}"
    )
    game = build(tmp_path, position)
    finished(game, "red", "green")  # A5: the polytheists first
    run(game, elders.emissary, colour="yellow", target="green")
    set_turn(game, 4)
    game.table.random.force_faces([1, 3])
    (question,) = asked(game, elders.banish, {"target": "martyr"}, colour="green")
    assert (question.key, question.kind, question.owner, question.section) == (
        "kill",
        "split",
        "green",
        "I2",
    )
    assert question.total == 1
    assert question.caps() == {"husband:meeka": 1, "missionary:yellow": 1}
    # the banishment's target is a one_of of the same culture
    game.table.random.force_faces([1, 3])
    target = asked(game, elders.banish, colour="green")[0]
    assert (target.key, target.kind, target.owner, target.section) == (
        "target",
        "one_of",
        "green",
        "I2",
    )
    assert "martyr" in target.options


def test_h1_hay_is_a_payment_with_slaughter_as_the_alternative(tmp_path: Path) -> None:
    game = build(tmp_path, CATTLE)
    (question,) = asked(game, animals.feed_animals)
    assert (question.key, question.kind, question.owner, question.section) == (
        "hay_cattle",
        "payment",
        "red",
        "H1",
    )
    assert question.total == 2 and question.alternatives == ("slaughter",)
    assert question.caps() == {"energy": 5, "elder:3": 1, "elder:6": 1}
    assert question.parse("energy,elder:3") == {"energy": 1, "elder:3": 1}
    assert question.parse("slaughter") == "slaughter"


def test_g2_the_reroll_is_a_subset_of_the_faces_and_g_the_yes_no_questions(
    tmp_path: Path,
) -> None:
    """Musk Oxen hunted by yellow alone: the Alpha's 1 (E7) and taking the card (G6) are
    yellow's yes/no questions; the discard after it is a subset (B2)."""
    game = build(tmp_path, FULL)
    game.table.random.force_faces([1, 1])
    questions = asked(game, hunt_card, card=card("Musk Oxen"))
    alpha = questions[0]
    assert (alpha.key, alpha.kind, alpha.owner, alpha.section) == (
        "alpha",
        "yes_no",
        "yellow",
        "E7",
    )
    assert all(q.owner == "yellow" for q in questions)


def test_g2_a_reroll_offers_each_face_at_most_once(greenland, tmp_path: Path) -> None:
    from .test_hunt import WALRUS_COLD, play, roll

    game = play(greenland, tmp_path, WALRUS_COLD + "husbands = {Kirima = 1}\n")
    with pytest.raises(ChoiceNeeded) as need:
        roll(game, greenland, "Walrus", [1, 2, 3, 4, 4, 6])
    question = need.value.question
    assert (question.key, question.kind, question.owner, question.section) == (
        "reroll",
        "subset",
        "red",
        "G2",
    )
    assert question.options == ("4",) and (question.low, question.high) == (0, 1)
    assert question.parse("none") == () and question.parse([4]) == ("4",)


def test_d10_the_auction_asks_every_culture_at_once(tmp_path: Path) -> None:
    """Without bids the auction lists every culture's bid, each a one_of of its own, in order."""
    game = build(tmp_path, 'first_player = "yellow"\n')
    put(game, "iceland-trade-ship", "event_current")
    questions = asked(game, events.auction)
    assert [q.key for q in questions] == ["bid_yellow", "bid_green", "bid_red"]
    assert [q.owner for q in questions] == ["yellow", "green", "red"]
    assert all(q.kind == "one_of" and q.section == "D10" for q in questions)


def test_d10_the_command_line_lists_every_missing_choice(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    def prepare(game):  # noqa: ANN001, ANN202
        put(game, "iceland-trade-ship", "event_current")

    file = game_file(tmp_path, 'first_player = "red"\n', prepare)
    code, _, err, out = cli_run(capsys, tmp_path, file, "auction")
    assert code == 2 and not out.exists()
    assert err.splitlines()[0] == "tabletop greenland: auction needs answers (nothing was written):"
    for colour in ("red", "yellow", "green"):
        assert f"choice 'bid_{colour}'" in err


def test_a2_the_council_of_war_is_the_first_players_then_the_bids(tmp_path: Path) -> None:
    """The event's first player (green, with a war chief) names the first player (A2); the
    auction's bids follow in the same stop, every culture's own."""
    game = build(tmp_path, "turn = 2\n")
    put(game, "event-11", "event_current")
    put(game, "iceland-trade-ship", "event_deck")
    questions = asked(game, events.event_phase)
    council = questions[0]
    assert (council.key, council.kind, council.owner, council.section) == (
        "council",
        "one_of",
        "green",
        "A2",
    )
    assert {q.key for q in questions[1:]} == {"bid_red", "bid_yellow", "bid_green"}
