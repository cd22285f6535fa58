"""Bots play whole games of Greenland through the turn driver and the strict checker (bots.py,
flow.py, selfplay.py, rules_assist/conformance.py).

Every variant: 20 seeded games with random bots finish, every table (after
the setup and after every entry) passes the rulebook's audit (``game.audit``:
the physical limits of B4 and F1 among its invariants), and each game's log
replays to the same final table. A
greedy game, the driver's offer at every step, and ``tabletop simulate --json``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_assist.conformance import Report, run_game
from rules_assist.driver import CHANCE, TERMINAL, Driver
from rules_assist.greenland.bots import GreedyBot, RandomBot
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.selfplay import outcome, play_game, seats_for
from rules_assist.greenland.view import Greenland
from rules_assist.questions import Question
from tabletop import bench
from tabletop.cli import main
from tabletop.modules.rules import game_of
from tabletop.persist import Game

VARIANTS = ("standard", "two-player", "beginners", "survivalist", "solitaire")
GAMES = 20


def random_bots(variant: str, seed: int) -> dict[str, RandomBot]:
    return {c: RandomBot(seed * 10 + i) for i, c in enumerate(seats_for(variant))}


def conformance(module, variant, seed, path, bots=None) -> Report:  # noqa: ANN001
    """One game through rules_assist/conformance.py: the rulebook's audit after every entry
    (game.audit), replayed."""
    game = game_of(module)
    players = bots if bots is not None else random_bots(variant, seed)
    return run_game(game, variant, seed, seats_for(variant), path, bots=players)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_finish_keep_invariants_and_replay(greenland, variant, tmp_path):
    for seed in range(GAMES):
        report = conformance(greenland, variant, seed, tmp_path / f"{variant}-{seed}.jsonl")
        assert report.problems == [], f"seed {seed}: {report.problems[:3]}"
        assert report.over, f"seed {seed} did not end (J, or every culture extinct)"
        assert report.entries > 30


def test_a_greedy_game(greenland, tmp_path):
    bots = {c: GreedyBot() for c in seats_for("standard")}
    report = conformance(greenland, "standard", 5, tmp_path / "greedy.jsonl", bots)
    assert report.problems == [] and report.over
    with Game.open(tmp_path / "greedy.jsonl", writable=False) as game:
        result = outcome(game, Cards.of(greenland))
        assert result["survived"]
        # the greedy bot hunts: its cultures end the game with cubes alive
        assert sum(result["scores"].values()) > 0
        names = {getattr(e.command, "procedure", None) for e in game.table.entries}
        assert {"greenland.hunt", "greenland.finish", "greenland.next_phase"} <= names


def test_greedy_against_random(greenland, tmp_path):
    bots = {"red": GreedyBot(), "yellow": RandomBot(1), "green": RandomBot(2)}
    report = conformance(greenland, "standard", 9, tmp_path / "mixed.jsonl", bots)
    assert report.problems == [] and report.over


def test_the_player_to_move_always_has_an_action(greenland):
    """Driver.legal_actions: never empty before the end; a seat's own, the table's none's."""
    game = game_of(greenland)
    seen = set()

    def look(session: Any) -> None:
        driver = Driver(game, session.table)
        player = driver.current_player()
        actions = driver.legal_actions()
        status = driver.status()
        seen.add((status.phase, player if player in (CHANCE, TERMINAL) else "seat"))
        if player == TERMINAL:
            assert actions == []
            return
        assert actions, f"{status.phase}: {player} has nothing to do ({status.lines})"
        actor = None if player == CHANCE else player
        assert all(a.actor == actor for a in actions)
        assert status.actions[-1].name == "next-phase"

    session = play_game(greenland, "standard", random_bots("standard", 3), 3, after_action=look)
    session.close()
    phases = {phase for phase, who in seen if who == "seat"}
    assert {"assignment", "negotiation", "hunt", "elders"} <= phases
    assert ("event", CHANCE) in seen and ("elders", TERMINAL) in seen


class _Twinned(RandomBot):
    """A random bot whose hunter moves, made one at a time through the table, are checked
    against those its twin (the same random state) plans on the same table in one go."""

    def __init__(self, seed: int, made: list[int]) -> None:
        super().__init__(seed)
        self.made = made

    def moves(self, driver: Driver, seat: str):  # noqa: ANN201
        twin = RandomBot()
        twin.rng.setstate(self.rng.getstate())
        state = driver.state
        version = state.version
        planned = twin.assign(Greenland(state, driver.game.cards), seat)
        assert state.version == version  # the plan is taken back
        made = []
        for command in super().moves(driver, seat):
            made.append(command)
            yield command
        assert made == planned and self.rng.getstate() == twin.rng.getstate()
        self.made.append(len(made))


def test_the_random_bot_moves_one_at_a_time_as_it_would_plan_them(greenland):
    """RandomBot.moves gives each hunter move once the one before is made, the same moves
    as its plan (``assign``); the table logs them with the checker's findings."""
    made: list[int] = []
    bots = {c: _Twinned(30 + i, made) for i, c in enumerate(seats_for("standard"))}
    game = play_game(greenland, "standard", bots, 3, max_turns=3)
    try:
        assert sum(made) > 10
        moves = [e for e in game.table.entries if not getattr(e.command, "procedure", None)]
        assert len(moves) >= sum(made)
    finally:
        game.close()


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
        assert set(data[colour]) >= {"wins", "win_rate", "mean_score"}
        assert 0 <= data[colour]["wins"] <= 3
    assert "3/3" in out.err  # the progress bar
    assert "\r" not in out.err  # not a terminal: plain lines, not a bar redrawn in place


def test_c1_simulate_on_two_workers_gives_the_summary_of_one_process(tmp_path, capsys):
    """The same seeds of the standard three-culture game (C1) in this process and in two
    worker processes: the same summary, the same file, all but the run's pace (table)."""
    args = ["simulate", "greenland", "--games", "4", "--seed", "21"]
    found = []
    for jobs in ("1", "2"):
        target = tmp_path / f"jobs-{jobs}.json"
        assert (
            main(
                [
                    *args,
                    "--bots",
                    "greedy,random,random",
                    "--jobs",
                    jobs,
                    "--json",
                    "--summary",
                    str(target),
                ]
            )
            == 0
        )
        printed = json.loads(capsys.readouterr().out)
        written = json.loads(target.read_text(encoding="utf-8"))
        assert printed == written and written["run"]["jobs"] == int(jobs)
        found.append({k: v for k, v in written.items() if k not in ("games_per_s", "run")})
    assert found[0] == found[1]
    summary = found[0]
    assert summary["bots"] == {"red": "greedy", "yellow": "random", "green": "random"}
    assert [row["seed"] for row in summary["rows"]] == [21, 22, 23, 24]
    assert summary["module"]["id"] == "greenland" and summary["variant"] == "standard"
    (deck,) = summary["revision"].values()
    assert len(deck["sha256"]) == 64 and deck["file"] == f"{deck['deck']}.csv"
    for row in summary["rows"]:
        assert row["first"] in ("red", "yellow", "green") and row["turns"] >= 1


def test_table_bench_times_simulated_games_and_says_how_many():
    """``sim_10k_games_s`` from a shorter run says it was scaled (the figure is not tested)."""
    said: list[str] = []
    found = bench.sim_10k_games(said.append, games=3, jobs=2)
    assert found["sim_10k_games_measured_games"] == 3
    assert found["sim_10k_games_jobs"] == 2 and found["sim_10k_games_seats"] == 3
    assert found["sim_10k_games_module"] == "greenland"
    assert found["sim_10k_games_s"] > 0 and found["sim_10k_games_cpu_s"] > 0
    assert said[0].startswith("3 Greenland games by random bots on 2 processes")
    assert said[-1] == "3/3 games"


def test_simulate_saves_logs_that_open(tmp_path, capsys):
    folder = tmp_path / "logs"
    args = ["simulate", "greenland", "--games", "2", "--variant", "two-player"]
    assert main([*args, "--bots", "greedy,random", "--save-logs", str(folder)]) == 0
    assert "red" in capsys.readouterr().out
    logs = sorted(folder.glob("*.jsonl"))
    assert [p.name for p in logs] == ["game-0.jsonl", "game-1.jsonl"]
    with Game.open(logs[0], writable=False) as game:
        assert game.state.counters.get("game_over") is not None


def test_c1_simulate_seats_as_many_bots_as_the_variant_seats(capsys):
    """One bot name gives every seat of the variant: two in the two-player game (C1)."""
    args = ["simulate", "greenland", "--games", "1", "--variant", "two-player", "--json"]
    assert main([*args, "--bots", "random"]) == 0
    assert set(json.loads(capsys.readouterr().out)["bots"]) == {"red", "yellow"}


def test_simulate_refuses_a_wrong_bot(capsys):
    assert main(["simulate", "greenland", "--games", "1", "--bots", "clever"]) == 2
    assert "random or greedy" in capsys.readouterr().err
