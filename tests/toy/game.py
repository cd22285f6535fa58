"""Race's game interface: what the table, the window and the command line ask of the game."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from rules_assist.bots import RandomBot
from rules_assist.game import Game, ProcedureSpec, ProcedureTable, Variant
from rules_assist.rules import Rulebook
from tabletop.core import Command, TableState

from . import rules
from .flow import RaceFlow
from .procedures import PROCEDURES
from .reading import START, Race
from .setup import setup


class RaceGame(Game):
    seat_word = "Player"

    @property
    def setup(self) -> Any:  # type: ignore[override]
        return setup

    def number(self, variant: Variant, name: str) -> int:
        """One of the rules' numbers (R1, R3): the variant's parameter, else the constant."""
        return int(variant.param(name, self.module.constants[name]))

    def summary(self, state: TableState) -> list[str]:
        return list(self.flow.status(state).lines)

    @cached_property
    def rulebook(self) -> Rulebook:  # type: ignore[override]
        return rules.rulebook_for(self)

    has_complete_move = True

    def complete_move(self, state: TableState, command: Command) -> Command:
        return rules.complete_move(state, command)

    @cached_property
    def flow(self) -> RaceFlow:  # type: ignore[override]
        return RaceFlow(self)

    @property
    def procedures(self) -> ProcedureTable:  # type: ignore[override]
        return PROCEDURES

    def prepare(self, state: TableState, spec: ProcedureSpec, params: dict[str, Any]) -> dict:
        return {**params, "game": self}

    has_score = True

    def score(self, state: TableState) -> list[dict[str, Any]]:
        """A row a player: cubes home and spaces travelled (R6)."""
        race = Race(state, self)
        over = self.flow.is_terminal(state)
        return [
            {
                "seat": seat,
                "home": race.home(seat),
                "travelled": sum(race.steps[race.space(c) or START] for c in race.cubes(seat)),
                "final": over,
            }
            for seat in race.seats
        ]

    @property
    def bots(self) -> dict[str, Any]:
        return {"random": RandomBot}
