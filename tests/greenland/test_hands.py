"""Discarding down to the hand size (B2), at once, after whatever fills a hand or shrinks its size.

The procedures that can do it (the hunt's G6, elder deaths in events and elder
actions, a lost wife) end by asking each culture whose hand no longer fits
which cards go (choice ``discard_<colour>``); the bots answer it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import elders, events, hands, negotiation
from rules_assist.greenland.bots import GreedyBot, RandomBot
from rules_assist.greenland.checks import check
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.hunt import hunt_card
from rules_assist.greenland.payments import kill_elder
from rules_assist.procedures import ChoiceNeeded
from tabletop.core import Severity, actions
from tabletop.modules import find_module

from .tables import build, contents, run, view


def cards() -> Cards:
    return Cards.of(find_module("greenland"))


def card(name: str) -> str:
    return cards().by_name(name)[0]["card"]


def fits(game, colour: str) -> bool:
    v = view(game)
    return hands.fits(v, hands.hand_size(v, colour), hands.hand(v, colour))


# ---- G6: a card into a full hand ---------------------------------------------------------
FULL = """
phase = "hunt"
[rows.north]
warm = ["Caribou", "Musk Oxen"]
[cultures.yellow]
alpha = "Musk Oxen"
hunters = {"Musk Oxen" = 3}
elders = {3 = 1}
tableau = []
hand = ["Slit Goggles"]
"""


def test_g6_b2_a_card_taken_into_a_full_hand_asks_the_discard(tmp_path: Path) -> None:
    """Hand size one (the rank-3 elder) holding Slit Goggles: Musk Oxen comes in, one card goes."""
    game = build(tmp_path, FULL)
    oxen = card("Musk Oxen")
    choices = {"alpha": "yes", "take_card": "yes"}
    game.table.random.force_faces([1, 1])
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, hunt_card, choices, card=oxen)
    assert asked.value.key == "discard_yellow"
    question = asked.value.question
    assert question.kind == "subset" and question.low == question.high == 1
    assert question.owner == "yellow" and question.section == "B2"
    assert asked.value.options == ["slit-goggles", oxen]
    assert [question.label(o) for o in question.options] == ["Slit Goggles", "Musk Oxen"]
    assert contents(game, "hand_yellow") == ["slit-goggles"]  # nothing changed meanwhile
    change = run(game, hunt_card, {**choices, "discard_yellow": "Slit Goggles"}, card=oxen)
    assert contents(game, "hand_yellow") == [oxen]
    assert game.state.pieces["slit-goggles"].place == "out_of_game"
    assert "yellow discards Slit Goggles" in change.entry.command.label
    assert fits(game, "yellow") and game.table.random.forced_pending == 0


def test_g6_a_hand_with_room_is_not_asked(tmp_path: Path) -> None:
    game = build(tmp_path, FULL.replace('hand = ["Slit Goggles"]', "hand = []"))
    game.table.random.force_faces([1, 1])
    run(game, hunt_card, {"alpha": "yes", "take_card": "yes"}, card=card("Musk Oxen"))
    assert contents(game, "hand_yellow") == [card("Musk Oxen")]


# ---- a rank-3 elder dies ---------------------------------------------------------------------
SAGE = """
first_player = "red"
phase = "elders"
turn = 2
[cultures.red]
unassigned = 2
elders = {2 = 1, 3 = 1}
energy = 2
tableau = []
hand = ["Slit Goggles"]
[cultures.yellow]
unassigned = 2
elders = {1 = 1}
[cultures.green]
unassigned = 2
elders = {1 = 1}
"""


def test_d5_b2_a_rank_3_elder_dies_and_the_hand_shrinks(tmp_path: Path) -> None:
    game = build(tmp_path, SAGE)
    game.table.random.force_faces([3, 6, 6])  # red, yellow, green
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, events.die_off)
    assert asked.value.key == "discard_red" and asked.value.options == ["slit-goggles"]
    run(game, events.die_off, {"discard_red": "Slit Goggles"})
    assert contents(game, "hand_red") == []
    assert game.state.pieces["slit-goggles"].place == "out_of_game"
    assert game.table.random.forced_pending == 0


def test_i2_b2_banishing_the_sage_asks_the_discard(tmp_path: Path) -> None:
    game = build(tmp_path, SAGE)
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, elders.banish, {"target": "elder:3"}, colour="red")
    assert asked.value.key == "discard_red"
    run(game, elders.banish, {"target": "elder:3", "discard_red": "slit goggles"}, colour="red")
    assert contents(game, "hand_red") == []


def test_b2_a_second_discard_in_one_procedure_has_its_own_key(tmp_path: Path) -> None:
    """Two icons of one event may each shrink a hand: the second question is discard_red_2."""
    game = build(
        tmp_path,
        SAGE.replace("elders = {2 = 1, 3 = 1}", "elders = {3 = 2}").replace(
            'hand = ["Slit Goggles"]', 'hand = ["Slit Goggles", "Toggle-head Harpoon"]'
        ),
    )

    def two_deaths(ctx) -> str:  # noqa: ANN001
        v = view(game)
        for _ in range(2):
            kill_elder(ctx, ctx.state.contents("elder-red", "rank3")[-1])
            hands.discard_excess(ctx, v)
        return "two sages die"

    with pytest.raises(ChoiceNeeded) as asked:
        run(game, two_deaths, {"discard_red": "Slit Goggles"})
    assert asked.value.key == "discard_red_2" and asked.value.owner == "red"
    run(game, two_deaths, {"discard_red": "Slit Goggles", "discard_red_2": "Toggle-head Harpoon"})
    assert contents(game, "hand_red") == []


# ---- a wife lost ------------------------------------------------------------------------------
def test_f_b2_a_divorce_takes_the_wifes_hand_size(tmp_path: Path) -> None:
    """A husband on Birgitta (hand size +2) holds two cards; divorced, the culture keeps none."""
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
    assert hands.hand_size(view(game), "yellow").total == 2
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, negotiation.divorce, colour="yellow", daughter="birgitta")
    assert asked.value.key == "discard_yellow" and "name 2" in asked.value.text
    answer = {"discard_yellow": "Slit Goggles, Toggle-head Harpoon"}
    run(game, negotiation.divorce, answer, colour="yellow", daughter="birgitta")
    assert contents(game, "hand_yellow") == []


# ---- the bots answer ----------------------------------------------------------------------------
@pytest.mark.parametrize("bot", [RandomBot(3), RandomBot(4, cards()), GreedyBot(cards())])
def test_b2_the_bots_answer_the_discard_with_cards_that_fit(tmp_path: Path, bot) -> None:
    """Room for one card and one D card: of two inventions and Dogs, an invention must go."""
    game = build(
        tmp_path,
        """
[cultures.yellow]
unassigned = 3
elders = {3 = 1}
hand = ["Slit Goggles", "Toggle-head Harpoon", "Dogs"]
""",
    )
    with pytest.raises(ChoiceNeeded) as asked:
        run(game, hands.discard_down, colour="yellow")
    assert asked.value.owner == "yellow"
    answer = bot.answer(game.state, asked.value.question)
    assert "dogs" not in answer and len(answer) == 1
    run(game, hands.discard_down, {"discard_yellow": answer}, colour="yellow")
    assert fits(game, "yellow") and len(contents(game, "hand_yellow")) == 2


def test_b2_bots_discard_within_a_hunt(tmp_path: Path) -> None:
    """A greedy bot answers every question of the hunt, the discard among them."""
    game = build(tmp_path, FULL)
    bot = GreedyBot(cards())
    choices: dict[str, str] = {}
    game.table.random.force_faces([1, 1])  # the Alpha's 1 and two more: triples
    for _ in range(10):
        try:
            run(game, hunt_card, choices, card=card("Musk Oxen"))
            break
        except ChoiceNeeded as need:
            choices[need.key] = bot.answer(game.state, need.question)
    assert "discard_yellow" in choices
    assert fits(game, "yellow") and len(contents(game, "hand_yellow")) == 1


# ---- the checker's reminder -------------------------------------------------------------------
def test_b2_the_checker_reminds_a_hand_over_its_size(tmp_path: Path) -> None:
    game = build(tmp_path, "[cultures.red]\nunassigned = 2\nelders = {3 = 1}\ntableau = []\n")
    move = actions.move(game.state, "slit-goggles", "hand_red")
    assert [f.rule for f in check(game.state, move, "red", cards())] == []
    game.table.submit(move, "test")
    second = actions.move(game.state, "toggle-head-harpoon", "hand_red")
    found = check(game.state, second, "red", cards())
    assert [(f.rule, f.severity) for f in found] == [("B2", Severity.INFO)]
    assert "discard down" in found[0].message and found[0].pieces == (
        "slit-goggles",
        "toggle-head-harpoon",
    )


def test_b2_a_hand_over_its_size_is_found_by_the_rulebooks_audit(tmp_path: Path) -> None:
    """The audit (game.audit) reads every hand: two cards in a hand of one is B2's reminder to
    discard down at once, naming the cards held."""
    from tabletop.modules.rules import game_of

    game = build(tmp_path, FULL)
    rules = game_of(find_module("greenland"))
    assert [f.rule for f in rules.audit(game.state)] == []
    goggles = contents(game, "hand_yellow")[0]
    oxen = card("Musk Oxen")
    game.table.submit(actions.move(game.state, oxen, "hand_yellow"), "yellow")
    found = rules.audit(game.state)
    assert [(f.rule, f.severity) for f in found] == [("B2", Severity.INFO)]
    assert found[0].pieces == (goggles, oxen) and "yellow" in found[0].message
    assert goggles in contents(game, "hand_yellow")
