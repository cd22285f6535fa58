"""Race's turn (R4 to R6) for the driver: whose move, what may be done now, the result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_assist.driver import CHANCE, MOVES, TERMINAL, Action, Status
from tabletop.core import Command, TableState

from .reading import HOME, MOVE, OVER, ROLL, Race
from .rules import hand_move

LABELS = {ROLL: "Roll", MOVE: "Move", OVER: "Game over"}


class RaceFlow:
    """The roll is the table's step (chance); the move is the player's."""

    phases = (ROLL, MOVE, OVER)

    def __init__(self, game: Any) -> None:
        self.game = game

    def phase(self, state: TableState) -> str:
        return Race(state, self.game).phase

    def phase_label(self, phase: str) -> str:
        return LABELS.get(phase, phase)

    def status(self, state: TableState) -> Status:
        race = Race(state, self.game)
        seat = race.to_move
        lines = [f"{s}: {race.home(s)} of {len(race.cubes(s))} cubes home" for s in race.seats]
        if self.is_terminal(state):
            winners = ", ".join(race.finished())
            return Status(race.turn, OVER, LABELS[OVER], TERMINAL, (f"{winners} wins", *lines))
        if race.phase == ROLL:
            actions = (Action(f"Roll for {seat}", "roll", help="R4"),)
            return Status(
                race.turn, ROLL, LABELS[ROLL], CHANCE, (f"{seat} to roll", *lines), actions
            )
        if race.pips:
            actions = (
                Action(f"{seat}: share {race.pips}", "advance", actor=seat, help="R5"),
                Action(f"{seat}: move a cube {race.pips} by hand", actor=seat, kind=MOVES),
            )
        else:
            actions = (Action(f"{seat}: end the turn", "end-turn", actor=seat, help="R5"),)
        head = f"{seat} rolled {race.pips}" if race.pips else f"{seat} moved"
        return Status(race.turn, MOVE, LABELS[MOVE], seat, (head, *lines), actions)

    def is_terminal(self, state: TableState) -> bool:
        race = Race(state, self.game)
        return race.phase == OVER or bool(race.finished())

    def returns(self, state: TableState) -> dict[str, float]:
        """The cubes each player has home (R6: the winner has them all)."""
        race = Race(state, self.game)
        return {s: float(race.home(s)) for s in race.seats}

    def move_options(self, state: TableState, seat: str) -> list[list[Callable[..., Command]]]:
        """The hand moves of R5, one group a cube: that cube the roll forward."""
        race = Race(state, self.game)
        if race.phase != MOVE or seat != race.to_move or not race.pips:
            return []
        return [
            [lambda s, cube=cube: hand_move(s, Race(s, self.game), cube)]
            for cube in race.cubes(seat)
            if race.space(cube) != HOME
        ]
