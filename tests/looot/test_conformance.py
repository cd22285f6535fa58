"""Looot through the generic layer: random bots play whole games (``simulate``, the command
line's ``tabletop simulate looot``) and every game keeps the invariants after every entry and
replays from its log (``rules_assist.conformance``)."""

from __future__ import annotations

import pytest

from rules_assist.conformance import run_game
from rules_assist.driver import TERMINAL, Driver
from rules_assist.looot.moves import legal_codes, looot_game
from rules_assist.simulate import simulate

SEATS = ["blue", "red", "grey", "yellow"]


@pytest.mark.parametrize("variant", ["standard", "gamepark"])
def test_conformance_on_seeds(variant, tmp_path):
    game = looot_game()
    for seed in range(6):
        seats = SEATS[: 2 + seed % 3]
        report = run_game(game, variant, seed, seats, tmp_path / f"{variant}-{seed}.jsonl")
        assert report.problems == [], (seed, report.problems)
        assert report.over and report.entries > 50


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "gamepark"])
def test_conformance_on_many_seeds(variant, tmp_path):
    game = looot_game()
    for seed in range(6, 60):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        report = run_game(game, variant, seed, SEATS[: 2 + seed % 3], path)
        assert report.problems == [], (seed, report.problems)
        assert report.over
        path.unlink()


def test_random_bots_play_whole_games():
    summary = simulate(looot_game(), "standard", ["random"], 4, seed=3, seats=SEATS[:3])
    assert summary["games"] == 4
    assert sum(summary[s]["wins"] for s in SEATS[:3]) >= 4


def test_the_driver_offers_what_the_codes_list(tmp_path):
    from tabletop.modules import new_game

    game = looot_game()
    session = new_game(game.module, seats=2, seed=9)
    driver = Driver(game, session.table)
    assert driver.current_player() == "blue"
    assert [a.name for a in driver.legal_actions()] == ["viking", "shield"]
    assert driver.legal_actions("red") == []
    steps = 0
    while not driver.is_terminal():
        codes = legal_codes(session.state)
        names = {a.name for a in driver.legal_actions()}
        assert names == {c.split()[0] for c in codes}
        driver.apply(
            driver.legal_actions()[0], answerer=lambda need, state: need.question.default()
        )
        steps += 1
    assert driver.current_player() == TERMINAL and steps >= 26
    assert set(driver.returns()) == {"blue", "red"}


def test_tabletop_simulate_looot(capsys):
    from tabletop.cli import main

    assert main(["simulate", "looot", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 games of Looot (standard)" in out


def test_de52_the_game_ends_when_every_viking_is_placed():
    from rules_assist.bots import RandomBot
    from rules_assist.simulate import play_game

    game = looot_game()
    bots = {seat: RandomBot(n) for n, seat in enumerate(SEATS[:3])}
    session = play_game(game, "standard", bots, seed=11)
    try:
        state = session.state
        assert state.counters["phase"] == "over"
        for seat in SEATS[:3]:
            assert state.place(f"vikings_{seat}").contents == []
            on_map = [
                p
                for p in state.place("landscape").contents
                if state.pieces[p].kind == "viking" and state.pieces[p].owner == seat
            ]
            assert len(on_map) == 13
        rows = game.score(state)
        assert all(row["final"] for row in rows)
        assert sum(row["winner"] for row in rows) >= 1
    finally:
        session.close()
