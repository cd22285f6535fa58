"""Greenland's procedure table and turn flow (procedure_table.py, flow.py) through the game object."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

import pytest

from rules_assist.cli import add_procedures
from rules_assist.driver import CHANCE, MOVES, TERMINAL, Driver
from rules_assist.greenland.bots import RandomBot
from rules_assist.greenland.procedure_table import spec_for
from rules_assist.greenland.selfplay import play_game
from rules_assist.procedures import ProcedureError
from tabletop.modules.rules import game_of

from .tables import build


def test_the_command_line_is_the_procedure_table(greenland) -> None:
    table = game_of(greenland).procedures
    parser = argparse.ArgumentParser()
    add_procedures(parser.add_subparsers(), game_of(greenland), file_first=False)
    procedures = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(procedures.choices) == table.names()
    for spec in table:  # each option given to the procedure is one of its parameters
        taken = inspect.signature(spec.function).parameters
        assert all(p.name in taken for p in spec.parameters if not p.answers), spec.name
    assert {"resolve-event", "finish", "elder"} <= set(table.names())
    for spec in table:
        assert spec.log_name.startswith("greenland.") and spec.help and spec.section
    assert table.get("hunt").log_name == "greenland.hunt"
    assert table.get("discard").phases == () and table.get("attack").phases == ("negotiation",)
    elder = spec_for(table.get("elder"), {"colour": "red", "action": "witch-burn"})
    assert elder.log_name == "greenland.elder.witch_burn"
    params = {"colour": "red", "action": "witch-burn"}
    assert game_of(greenland).recorded_as(table.get("elder"), params) == elder.log_name
    assert game_of(greenland).recorded_as(table.get("hunt"), {}) == "greenland.hunt"


def test_a_procedure_outside_its_phase_is_refused_with_one_line(greenland, tmp_path) -> None:
    game = game_of(greenland)
    session = build(tmp_path, "")
    before = len(session.table.entries)
    with pytest.raises(ProcedureError) as refused:
        game.run(session.table, "animals", "red")
    assert str(refused.value) == (
        "animals (H) belongs to the Domestic animals (H) phase; the game is in the Event (D) phase"
    )
    with pytest.raises(ProcedureError, match=r"^attack \(F2\) belongs to the Negotiate & attacks"):
        game.run(session.table, "attack", "red", {"colour": "red", "card": "walrus"})
    assert len(session.table.entries) == before


def test_the_flow_leads_a_turn(greenland, tmp_path: Path) -> None:
    game = game_of(greenland)
    session = build(tmp_path, "")
    driver = Driver(game, session.table)
    status = driver.status()
    assert status.phase == "event" and status.phase_label == "Event (D)"
    assert driver.current_player() == CHANCE
    assert [a.name for a in driver.legal_actions()] == ["event", "next-phase"]
    driver.apply(driver.legal_actions()[0], answerer=lambda need, state: need.question.default())
    assert session.table.entries[-1].command.procedure == "greenland.event"
    assert [a.name for a in driver.legal_actions()] == ["next-phase"]
    driver.apply(driver.legal_actions()[0])
    first = session.state.counters["first_player"]
    assert driver.status().phase == "assignment" and driver.current_player() == first
    actions = driver.legal_actions()
    assert [a.kind for a in actions] == [MOVES, "procedure"]
    assert actions[1].name == "finish" and actions[1].params == {"colour": first}
    groups = list(game.flow.move_options(session.state, first))
    assert groups and all(groups)
    move = groups[0][0](session.state)
    session.table.submit(move, first)
    driver.apply(actions[1])
    assert session.table.entries[-1].actor == first
    assert driver.current_player() not in (first, CHANCE, TERMINAL)
    assert driver.returns().keys() == {"red", "yellow", "green"}


def test_a1_the_drivers_turn_is_the_status_without_its_lines(greenland) -> None:
    """The driver reads whose move it is and the actions open from ``flow.turn``, which makes no
    lines for people: on every table of a seeded game it gives what the status gives, and the
    game is over (J) exactly when it says TERMINAL."""
    game = game_of(greenland)
    flow = game.flow
    seen: set[str] = set()

    def compare(session) -> None:
        state = session.state
        to_move, actions = flow.turn(state)  # worked out before the status on this table
        status = flow.status(state)
        assert (to_move, actions) == (status.to_move, status.actions)
        assert flow.is_terminal(state) == (to_move == TERMINAL)
        seen.add(status.phase if to_move != TERMINAL else TERMINAL)

    bots = {seat: RandomBot(n) for n, seat in enumerate(("red", "yellow", "green"))}
    play_game(greenland, "standard", bots, 3, after_action=compare).close()
    assert seen >= {"event", "assignment", "negotiation", "hunt", "elders", TERMINAL}
