"""Race played through the generic rules layer only: setup, procedures with forced dice, typed
questions, the rulebook, the driver, bots, simulation and conformance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.bots import RandomBot
from rules_assist.conformance import run_game
from rules_assist.driver import CHANCE, MOVES, TERMINAL, Driver
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from rules_assist.questions import SPLIT
from rules_assist.simulate import simulate
from tabletop.core import Mode, Policy, Refused, Severity, actions
from tabletop.modules import load_module, new_game
from tabletop.modules.rules import game_of
from tabletop.persist import Game as Session
from tests.toy.reading import Race

FOLDER = Path(__file__).parent


@pytest.fixture(scope="module")
def game():
    return game_of(load_module(FOLDER))


def start(game, seats="red,blue", variant="standard", seed=1, strict=True):
    session = new_game(game.module, seats=seats, variant=variant, seed=seed)
    if strict:
        session.table.checker = game.checker()
        session.table.policy = Policy(Mode.STRICT)
    return session


def rolled(game, session, pips):
    session.table.random.force_faces([pips])
    game.run(session.table, "roll", "toy")
    return Race(session.state, game)


def test_setup_puts_each_players_cubes_on_the_start(game):
    session = start(game, seats="red,blue,green")
    race = Race(session.state, game)
    assert race.seats == ["red", "blue", "green"]
    assert race.cubes("red") == ["cube-red-1", "cube-red-2", "cube-red-3"]
    assert {race.space(c) for s in race.seats for c in race.cubes(s)} == {"start"}
    assert (race.phase, race.to_move, race.turn) == ("roll", "red", 1)
    assert game.audit(session.state) == []
    quick = start(game, variant="quick")
    assert Race(quick.state, game).cubes("blue") == ["cube-blue-1", "cube-blue-2"]


def test_the_roll_and_the_share_answered_through_choices(game):
    session = start(game)
    race = rolled(game, session, 4)
    assert (race.phase, race.pips) == ("move", 4)
    assert session.state.pieces["die"].value == 4
    game.run(session.table, "advance", "red", choices={"move": "cube-red-1=3,cube-red-2=1"})
    assert [race.space(c) for c in race.cubes("red")] == ["3", "1", "start"]
    assert (race.phase, race.to_move, race.pips, race.turn) == ("roll", "blue", 0, 2)
    assert session.table.entries[-1].command.procedure == "toy.advance"


def test_a_missing_share_names_the_question_its_kind_and_owner(game):
    session = start(game)
    rolled(game, session, 5)
    seq = session.table.seq
    with pytest.raises(ChoiceNeeded) as caught:
        game.run(session.table, "advance", "red")
    question = caught.value.question
    assert (question.key, question.kind, question.owner, question.total) == (
        "move",
        SPLIT,
        "red",
        5,
    )
    assert question.groups == (("cube-red-1", 11), ("cube-red-2", 11), ("cube-red-3", 11))
    assert caught.value.questions == (question,)
    assert "choice 'move'" in str(caught.value)
    assert session.table.seq == seq  # nothing changed
    with pytest.raises(ProcedureError, match="share 5 in all, not 4"):
        game.run(session.table, "advance", "red", choices={"move": "cube-red-1=4"})


def test_a_bot_answers_the_share_on_the_spot(game):
    session = start(game)
    rolled(game, session, 6)
    bot = RandomBot(3)
    asked = []

    def answerer(need, state):
        asked.append(need.question)
        return bot.answer(state, need.question)

    game.run(session.table, "advance", "red", answerer=answerer)
    race = Race(session.state, game)
    assert [q.key for q in asked] == ["move"]
    assert sum(race.steps[race.space(c)] for c in race.cubes("red")) == 6


def test_a_cube_stops_short_of_a_full_space_unless_the_variant_allows_crowds(game):
    for variant, spaces in (("standard", ["2", "2", "1"]), ("crowded", ["2", "2", "2"])):
        session = start(game, variant=variant)
        for share in ("cube-red-1=2", "cube-red-2=2", "cube-red-3=2"):
            rolled(game, session, 2)
            game.run(session.table, "advance", "red", choices={"move": share})
            rolled(game, session, 1)  # blue
            game.run(session.table, "advance", "blue", choices={"move": "cube-blue-1=1"})
        race = Race(session.state, game)
        assert [race.space(c) for c in race.cubes("red")] == spaces, variant


def test_a_hand_move_goes_exactly_the_roll_forward(game):
    session = start(game)
    rolled(game, session, 3)
    table = session.table
    wrong = actions.move(session.state, "cube-red-1", "track", spot="2")
    with pytest.raises(Refused) as refused:
        table.submit(game.complete_move(session.state, wrong), "red")
    assert [f.rule for f in refused.value.findings] == ["R5"]
    assert "moves 3 forward, to space 3" in str(refused.value)
    right = actions.move(session.state, "cube-red-1", "track", spot="3")
    table.submit(game.complete_move(session.state, right), "red")
    race = Race(session.state, game)
    assert (race.space("cube-red-1"), race.pips) == ("3", 0)
    again = actions.move(session.state, "cube-red-2", "track", spot="3")
    with pytest.raises(Refused, match="the roll is spent"):
        table.submit(again, "red")
    game.run(table, "end-turn", "red")
    assert Race(session.state, game).to_move == "blue"


def test_an_invariant_is_found_by_the_checker_and_by_the_audit(game):
    session = start(game)
    rolled(game, session, 2)
    off = actions.move(session.state, "cube-red-1", "tray")
    findings = game.checker()(session.state, off, "red")
    assert {f.rule for f in findings} == {"R2", "R5"}
    assert all(f.severity is Severity.ILLEGAL for f in findings)
    session.table.submit(off, "red", force="the cat took it")
    audit = game.audit(session.state)
    assert [f.describe() for f in audit] == [f.describe() for f in findings if f.rule == "R2"]
    assert audit[0].pieces == ("cube-red-1",)


def test_a_full_space_is_an_invariant_of_the_whole_table(game):
    session = start(game, strict=False)
    for cube in ("cube-red-1", "cube-red-2", "cube-blue-1"):
        session.table.submit(actions.move(session.state, cube, "track", spot="4"), "red")
    assert [f.rule for f in game.audit(session.state)] == ["R3"]
    crowded = start(game, variant="crowded", strict=False)
    for cube in ("cube-red-1", "cube-red-2", "cube-blue-1"):
        crowded.table.submit(actions.move(crowded.state, cube, "track", spot="4"), "red")
    assert game.audit(crowded.state) == []


def test_a_procedure_outside_its_phase_is_refused_in_one_line(game):
    session = start(game)
    with pytest.raises(ProcedureError) as refused:
        game.run(session.table, "advance", "red", choices={"move": "cube-red-1=1"})
    message = str(refused.value)
    assert message == ("advance (R5) belongs to the Move phase; the game is in the Roll phase")
    with pytest.raises(ProcedureError, match="no procedure 'jump'; there are roll, advance"):
        game.run(session.table, "jump", "red")


def test_the_driver_takes_the_game_to_its_end(game):
    session = start(game, seats="red,blue,green", seed=4)
    driver = Driver(game, session.table)
    assert driver.current_player() == CHANCE
    assert [a.name for a in driver.legal_actions()] == ["roll"]
    session.table.random.force_faces([6])
    driver.apply(driver.legal_actions()[0])
    assert driver.current_player() == "red"
    assert [(a.name, a.kind) for a in driver.legal_actions()] == [
        ("advance", "procedure"),
        ("", MOVES),
    ]
    assert driver.legal_actions("blue") == []
    assert driver.turn() == ("red", driver.legal_actions())
    assert driver.turn("blue") == ("red", [])
    driver.apply(driver.legal_actions()[0], choices={"move": {"cube-red-3": 6}})
    assert driver.status().lines[0] == "blue to roll"

    def first_cube_first(need, state):  # everything on the player's first cube left
        return need.question.fill(Race(state, game).cubes(need.question.owner))

    while not driver.is_terminal():
        driver.apply(driver.legal_actions()[0], answerer=first_cube_first)
    assert driver.current_player() == TERMINAL
    assert driver.legal_actions() == []
    assert driver.turn() == (TERMINAL, [])
    returns = driver.returns()
    (winner,) = [seat for seat, home in returns.items() if home == 3.0]
    assert all(home < 3 for seat, home in returns.items() if seat != winner)
    assert driver.status().lines[0] == f"{winner} wins"
    row = next(row for row in game.score(session.state) if row["seat"] == winner)
    assert row == {"seat": winner, "home": 3, "travelled": 33, "final": True}


def test_random_bots_play_whole_games(game):
    summary = simulate(game, "standard", ["random"], 10, seed=7, seats=["red", "blue", "green"])
    assert summary["games"] == 10
    assert sum(summary[s]["wins"] for s in ("red", "blue", "green")) >= 10
    assert summary["games_per_s"] > 0


@pytest.mark.parametrize("variant", ["standard", "quick", "crowded"])
def test_conformance_on_many_seeds(game, variant, tmp_path):
    seeds = range(50) if variant == "standard" else range(10)
    for seed in seeds:
        seats = ["red", "blue", "green", "yellow"][: 2 + seed % 3]
        path = tmp_path / f"{variant}-{seed}.jsonl"
        report = run_game(game, variant, seed, seats, path)
        assert report.problems == [], (seed, report.problems)
        assert report.over and report.entries > 10
    with Session.open(path, writable=False) as again:
        procedures = {
            e.command.procedure for e in again.table.entries if hasattr(e.command, "procedure")
        }
    assert {"toy.roll", "toy.advance"} <= procedures


def test_the_bench_counts_games_a_second():
    from tests.toy.bench import games_per_s

    assert games_per_s(games=3) > 0


def test_tabletop_rules_lists_the_rulebook_by_section(capsys):
    """`tabletop rules MODULE`: every rule of the game's rulebook, by section, with the callers
    that apply it (an invariant: the move checker and `tabletop check`; a transition: the move
    checker) and the variants that leave it out."""
    from tabletop.cli import main

    assert main(["rules", str(FOLDER)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["R2", "R3", "R5"]
    assert "a player's cubes stay on the track" in lines[0]
    assert "(invariant: move checker and tabletop check" in lines[0]
    assert lines[2].endswith("(transition: move checker)")

    assert main(["rules", str(FOLDER), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert {(r["section"], r["kind"]) for r in records} == {
        ("R2", "invariant"),
        ("R3", "invariant"),
        ("R5", "transition"),
    }
    assert all(r["used_by"] and r["variants"] for r in records)


def test_tabletop_rules_names_the_variants_that_leave_a_rule_out(capsys):
    from tabletop.cli import main

    assert main(["rules", "greenland"]) == 0
    lines = capsys.readouterr().out.splitlines()
    f1 = next(line for line in lines if line.startswith("F1 "))
    assert "one husband a daughter" in f1 and f1.endswith("; not in beginners)")
    assert any(
        line.startswith("B4 ") and line.endswith("(invariant: tabletop check)") for line in lines
    )
    assert main(["rules", "nowhere"]) == 2
    assert "nowhere" in capsys.readouterr().err
