"""Trades in the negotiation phase (F): disks, hand cards and tableau D and I cards, with the
other culture's consent, through the procedure table and the command line."""

from __future__ import annotations

import pytest

from rules_assist.procedures import ChoiceNeeded, ProcedureError
from rules_assist.questions import YES_NO
from rules_assist.simulate import play_game
from tabletop.modules.rules import game_of

from .tables import build, cli, cli_run, contents, game_file, opened

# Red's hunters and Yellow's meet on Shark; Yellow holds Slit Goggles and has Dogs in its tableau
MEETING = """
phase = "negotiation"
turn = 2
first_player = "red"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 1
hunters = {Shark = 2}
energy = 3
iron = 2
[cultures.yellow]
unassigned = 1
elders = {3 = 1}
hunters = {Shark = 1}
hand = ["Slit Goggles"]
energy = 7
tableau = ["Dogs", "Peepeelee"]
[cultures.green]
unassigned = 2
iron = 1
"""


def trade(game, greenland, colour="red", choices=None, **params):
    return game_of(greenland).run(
        game.table, "trade", colour, {"colour": colour, **params}, choices=choices
    )


def test_f_trade_disks_for_a_hand_card_and_a_d_card(greenland, tmp_path) -> None:
    game = build(tmp_path, MEETING)
    irons = len(contents(game, "iron_yellow"))
    change = trade(
        game,
        greenland,
        other="yellow",
        give=["iron"],
        take=["Slit Goggles", "dogs"],
        choices={"consent_yellow": "yes"},
    )
    assert len(contents(game, "iron_red")) == 1
    assert len(contents(game, "iron_yellow")) == irons + 1
    assert contents(game, "hand_red") == ["slit-goggles"] and contents(game, "hand_yellow") == []
    assert "dogs" in contents(game, "tableau_red") and "dogs" not in contents(
        game, "tableau_yellow"
    )
    entry = change.entry
    assert entry.actor == "red" and entry.command.procedure == "greenland.trade"
    # the hand card is counted, not named, in the log; the public D card is named
    assert entry.command.label == (
        "Red and Yellow trade: Red gives 1 iron for 1 hand card and Dogs (F): Yellow agrees"
    )
    assert "Slit Goggles" not in entry.command.label


def test_f_trade_needs_the_other_cultures_consent(greenland, tmp_path) -> None:
    game = build(tmp_path, MEETING)
    before = game.state.digest()
    with pytest.raises(ChoiceNeeded) as need:
        trade(game, greenland, other="yellow", give=["energy"])
    (question,) = need.value.questions
    assert (question.key, question.kind, question.owner, question.section) == (
        "consent_yellow",
        YES_NO,
        "yellow",
        "F",
    )
    with pytest.raises(ProcedureError, match=r"Yellow does not agree to the trade: .*\(F\)"):
        trade(game, greenland, other="yellow", take=["dogs"], choices={"consent_yellow": "no"})
    assert game.state.digest() == before


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"other": "green", "give": ["iron"]}, r"Red and Green do not meet: .*\(F\)"),
        ({"other": "yellow", "take": ["Peepeelee"]}, r"Peepeelee is not a D or I card.*\(F\)"),
        ({"other": "yellow", "take": ["Shark"]}, r"Yellow has no such disk or card.*\(F\)"),
        ({"other": "yellow", "give": ["iron=3"]}, r"Red holds 2 iron, not 3 \(F\)"),
        ({"other": "yellow", "give": ["energy=2"]}, r"Yellow would hold 9 energy.*\(B4\)"),
        ({"other": "yellow"}, r"a trade hands something over.*\(F\)"),
        ({"other": "red", "give": ["iron"]}, r"a trade is between two cultures \(F\)"),
    ],
    ids=["not-meeting", "daughter", "cube-card", "too-much", "woodpile", "empty", "self"],
)
def test_f_impossible_trades_are_refused_in_one_line(greenland, tmp_path, params, message) -> None:
    game = build(tmp_path, MEETING)
    before = game.state.digest()
    with pytest.raises(ProcedureError, match=message) as refused:
        trade(game, greenland, choices={"consent_yellow": "yes", "consent_green": "yes"}, **params)
    assert "\n" not in str(refused.value)
    assert game.state.digest() == before


def test_f_trade_only_in_the_negotiation_phase(greenland, tmp_path) -> None:
    game = build(tmp_path, MEETING.replace('"negotiation"', '"hunt"'))
    with pytest.raises(ProcedureError, match=r"trade \(F\) belongs to the Negotiate"):
        trade(game, greenland, other="yellow", give=["iron"], choices={"consent_yellow": "yes"})


def test_f_a_missionary_meets_the_elder_cards_owner(greenland, tmp_path) -> None:
    """F: cubes on a card of the other's tableau open negotiations; an elder card counts."""
    position = MEETING + "missionaries = {yellow = 1}\n"  # green's missionary on yellow's elders
    game = build(tmp_path, position)
    irons = len(contents(game, "iron_yellow"))
    trade(game, greenland, "green", other="yellow", give=["iron"], choices={"consent_yellow": "y"})
    assert len(contents(game, "iron_yellow")) == irons + 1


def test_b2_a_hand_over_its_size_after_a_trade_discards_down(greenland, tmp_path) -> None:
    """Red takes Slit Goggles with a hand of size 0 (its daughters left out): B2 asks it to
    discard at once, in the same entry."""
    game = build(tmp_path, MEETING.replace("iron = 2\n", "iron = 2\ntableau = []\n", 1))
    with pytest.raises(ChoiceNeeded) as need:
        trade(
            game,
            greenland,
            other="yellow",
            give=["iron"],
            take=["Slit Goggles"],
            choices={"consent_yellow": "yes"},
        )
    assert [q.key for q in need.value.questions] == ["discard_red"]


def test_f_trade_on_the_command_line(greenland, tmp_path, capsys) -> None:
    file = game_file(tmp_path, MEETING)
    code, text, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "trade",
        "--seat",
        "red",
        "--with",
        "yellow",
        "--give",
        "black",
        "--take",
        "Slit Goggles",
    )
    assert code == 2 and not out.exists()
    assert "answer with --choice consent_yellow=VALUE" in err and "Slit Goggles (hand)" in err
    code, text, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "trade",
        "--seat",
        "red",
        "--with",
        "yellow",
        "--give",
        "black",
        "--take",
        "Slit Goggles",
        "--choice",
        "consent_yellow=yes",
    )
    assert code == 0, err
    assert text.strip() == (
        f"{out}: trade: Red and Yellow trade: Red gives 1 iron for 1 hand card (F): Yellow agrees"
    )
    assert opened(out).state.contents("hand_red") == ["slit-goggles"]
    # the log names no hand card
    code, text, err = cli(capsys, "log", str(out), "--last", "1")
    assert code == 0 and "Slit Goggles" not in text and "1 hand card" in text
    code, text, err, out = cli_run(
        capsys,
        tmp_path,
        file,
        "trade",
        "--seat",
        "red",
        "--with",
        "green",
        "--give",
        "iron",
    )
    assert code == 2 and err.count("\n") == 1 and "(F)" in err and not out.exists()


@pytest.mark.parametrize("names", [("random",) * 3, ("greedy", "random", "greedy")])
def test_bots_play_on_with_trades_in_the_table(greenland, names) -> None:
    """The trade is a procedure of the table, not an action the turn offers: bots play whole
    games as before."""
    game = game_of(greenland)
    assert "trade" in game.procedures
    bots = {
        seat: game.bots[name](5 + i)
        for i, (seat, name) in enumerate(zip(("red", "yellow", "green"), names, strict=True))
    }
    session = play_game(game, "standard", bots, seed=5)
    try:
        assert game.flow.is_terminal(session.state)
        procedures = {getattr(e.command, "procedure", None) for e in session.table.entries}
        assert "greenland.trade" not in procedures and "greenland.hunt" in procedures
    finally:
        session.close()


def test_k_the_solitaire_game_swaps_instead(greenland, tmp_path) -> None:
    """K replaces F's exchanges with its own swap, one item each a turn."""
    game = build(tmp_path, 'variant = "solitaire"\n' + MEETING)
    with pytest.raises(ProcedureError, match=r"its own swap.*\(K: tabletop greenland swap\)"):
        trade(game, greenland, other="yellow", give=["iron"], choices={"consent_yellow": "yes"})
