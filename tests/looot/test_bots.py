"""Looot's greedy bot (rules_assist/looot/bots.py) against random legal play, over seeded
games played whole through the turn driver (``simulate``, ``tabletop simulate``)."""

from __future__ import annotations

from rules_assist.looot.moves import looot_game
from rules_assist.simulate import play_game, simulate
from tabletop.cli import main
from tabletop.core import Severity

SEATS = ["blue", "red", "grey"]


def test_lo_r21_greedy_beats_random_over_seeded_games():
    """LO-R21..R23: one greedy seat among two random ones wins nearly every seeded game."""
    summary = simulate(
        looot_game(), "standard", ["greedy", "random", "random"], 12, seed=100, seats=SEATS
    )
    assert summary["bots"] == {"blue": "greedy", "red": "random", "grey": "random"}
    assert summary["blue"]["wins"] >= 11
    for seat in ("red", "grey"):
        assert summary["blue"]["mean_score"] >= summary[seat]["mean_score"] + 30


def test_lo_r21_greedy_wins_from_the_last_seat_in_the_gamepark_variant():
    summary = simulate(
        looot_game(), "gamepark", ["random", "random", "greedy"], 6, seed=40, seats=SEATS
    )
    assert summary["grey"]["wins"] >= 5
    assert summary["red"]["wins"] + summary["blue"]["wins"] <= 1


def _greedy_game(seed: int, variant: str = "standard"):
    game = looot_game()
    bots = {
        seat: game.bots["greedy" if n == 0 else "random"](seed * 10 + n)
        for n, seat in enumerate(SEATS)
    }
    return game, play_game(game, variant, bots, seed)


def test_lo_r12_lo_r22_greedy_completes_the_longships_it_takes():
    """LO-R13, LO-R22: the greedy seat takes a longship only when it can complete it, so few
    stay incomplete at the end (each costs the penalty)."""
    completed = incomplete = sites = 0
    for seed in range(5):
        game, session = _greedy_game(seed)
        try:
            found = game.breakdown(session.state, "blue")
        finally:
            session.close()
        completed += len(found["longships"]["completed"])
        incomplete += len(found["longships"]["incomplete"])
        sites += sum(site["completed"] for site in found["sites"].values())
    assert completed >= 10 and incomplete * 4 <= completed
    assert sites >= 5  # LO-R11: it lays tiles to complete its construction sites


def test_table_greedy_games_keep_every_rule_and_repeat_from_their_seed():
    """The greedy bot's games end with no rule broken (the whole-table audit) and the same seed
    plays the same game."""
    digests = []
    for _ in range(2):
        game, session = _greedy_game(7, "gamepark")
        try:
            state = session.state
            assert state.counters["phase"] == "over"
            findings = game.rulebook.audit(state)
            assert [f for f in findings if f.severity is Severity.ILLEGAL] == []
            digests.append(state.digest())
        finally:
            session.close()
    assert digests[0] == digests[1]


def test_table_tabletop_simulate_looot_greedy_against_random(capsys):
    assert main(["simulate", "looot", "--games", "2", "--bots", "greedy,random,random"]) == 0
    out = capsys.readouterr().out
    assert "bots blue=greedy, red=random, grey=random" in out
    rows = [line.split()[0] for line in out.splitlines()[-5:-1]]
    assert rows == ["player", "blue", "red", "grey"]
