"""Bots play whole games of Greenland through the procedures and the strict checker (bots.py, selfplay.py).

Every variant: 20 seeded games with random bots finish, every table (after
the setup and after every entry) keeps the physical limits (B2, B4, F1), and
each game's log replays to the same final table. A greedy game, and ``tabletop simulate --json``.
"""

from __future__ import annotations

import json

import pytest

from rules_assist.greenland.bots import GreedyBot, RandomBot, play_game
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.selfplay import invariant_problems, outcome, seats_for
from rules_assist.questions import Question
from tabletop.cli import main
from tabletop.persist import Game

VARIANTS = ("standard", "two-player", "beginners", "survivalist", "solitaire")
GAMES = 20


def random_bots(variant: str, seed: int) -> dict[str, RandomBot]:
    return {c: RandomBot(seed * 10 + i) for i, c in enumerate(seats_for(variant))}


def play_checked(module, variant, bots, seed, path=None):
    """Play a game, the invariants checked on the table after the setup and after every entry."""
    cards = Cards.of(module)
    problems: list[str] = []
    phases = []

    def check(state, where):
        problems.extend(f"{where}: {p}" for p in invariant_problems(state, cards))

    def after(game):
        if not phases:  # the setup is done: from now on, every entry
            check(game.state, "after the setup")
            game.table.subscribe(
                lambda change: check(
                    game.state,
                    f"entry {change.entry.seq} ({change.entry.command.describe()[:60]})",
                )
            )
        phases.append(game.state.counters.get("phase"))

    game = play_game(module, variant, bots, seed, path=path, after_phase=after)
    return game, problems, phases


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_finish_keep_invariants_and_replay(greenland, variant, tmp_path):
    cards = Cards.of(greenland)
    for seed in range(GAMES):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        game, problems, phases = play_checked(
            greenland, variant, random_bots(variant, seed), seed, path
        )
        try:
            assert problems == [], f"seed {seed}: {problems[:3]}"
            result = outcome(game, cards)
            assert result["over"], f"seed {seed} did not end (J, or every culture extinct)"
            assert len(phases) > 6
            assert set(result["winners"]) <= set(result["survived"])
            digest = game.state.digest()
        finally:
            game.close()
        with Game.open(path, writable=False) as again:
            assert again.state.digest() == digest, f"seed {seed}: the log replays differently"


def test_a_greedy_game(greenland):
    bots = {c: GreedyBot() for c in seats_for("standard")}
    game, problems, _phases = play_checked(greenland, "standard", bots, 5)
    try:
        assert problems == []
        result = outcome(game, Cards.of(greenland))
        assert result["over"] and result["survived"]
        # the greedy bot hunts: its cultures end the game with cubes alive
        assert sum(result["scores"].values()) > 0
    finally:
        game.close()


def test_greedy_against_random(greenland):
    bots = {"red": GreedyBot(), "yellow": RandomBot(1), "green": RandomBot(2)}
    game, problems, _phases = play_checked(greenland, "standard", bots, 9)
    game.close()
    assert problems == []


def test_bots_answer_from_the_question_data(greenland):
    """The bots read a question's kind and data: options, caps, alternatives, its owner."""
    game = play_game(greenland, "standard", random_bots("standard", 0), 0, max_turns=0)
    state = game.state
    try:
        migrate = Question.one_of("migrate_north", "which", ["walrus", "caribou"], section="D1")
        assert RandomBot(3).answer(state, migrate) in migrate.options
        assert GreedyBot().answer(state, migrate) in migrate.options
        assert GreedyBot().answer(state, Question.yes_no("x", "?", "red", section="F4")) is True
        council = Question.one_of("c", "?", ["red", "yellow", "green"], "yellow", section="A2")
        assert GreedyBot().answer(state, council) == "yellow"
        hay = Question.payment(
            "h", "?", 2, [("elder:2", 1), ("energy", 3)], ("slaughter",), "red", section="H1"
        )
        assert GreedyBot().answer(state, hay) == {"energy": 2}
        short = Question.payment("h", "?", 2, [("elder:4", 1)], ("slaughter",), "red")
        assert GreedyBot().answer(state, short) == "slaughter"
        hits = Question.split("t", "?", 3, [("yellow", 2), ("green", 4)], "red", section="F2")
        assert GreedyBot().answer(state, hits) == {"yellow": 2, "green": 1}
        for seed in range(20):
            answer = RandomBot(seed).answer(state, hits)
            assert hits.parse(answer) == answer
    finally:
        game.close()


def test_simulate_json(capsys):
    assert main(["simulate", "greenland", "--games", "3", "--seed", "4", "--json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["games"] == 3
    for colour in ("red", "yellow", "green"):
        assert set(data[colour]) >= {"wins", "survived", "mean_vp"}
        assert 0 <= data[colour]["survived"] <= 3
    assert "3/3" in out.err  # the progress bar
    assert "\r" not in out.err  # not a terminal: plain lines, not a bar redrawn in place


def test_simulate_saves_logs_that_open(tmp_path, capsys):
    folder = tmp_path / "logs"
    args = ["simulate", "greenland", "--games", "2", "--variant", "two-player"]
    assert main([*args, "--bots", "greedy,random", "--save-logs", str(folder)]) == 0
    assert "red" in capsys.readouterr().out
    logs = sorted(folder.glob("*.jsonl"))
    assert [p.name for p in logs] == ["game-0.jsonl", "game-1.jsonl"]
    with Game.open(logs[0], writable=False) as game:
        assert game.state.counters.get("game_over") is not None


def test_simulate_refuses_a_wrong_bot(capsys):
    assert main(["simulate", "greenland", "--games", "1", "--bots", "clever"]) == 2
    assert "random or greedy" in capsys.readouterr().err
