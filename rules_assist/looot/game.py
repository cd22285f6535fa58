"""Looot's game interface: what the table, the window and the command line ask of the game."""

from __future__ import annotations

from typing import Any

from rules_assist.game import Game, Variant
from tabletop.core import TableState

from .setup import setup


class LoootGame(Game):
    seat_word = "Player"

    @property
    def setup(self) -> Any:  # type: ignore[override]
        return setup

    def number(self, variant: Variant, name: str) -> Any:
        """One of the rules' numbers or readings: the variant's parameter, else the constant."""
        return variant.param(name, self.module.constants[name])

    def summary(self, state: TableState) -> list[str]:
        return []
