"""Bots for any game: what a bot answers, and a random legal bot.

A bot plays through the turn driver (rules_assist/driver.py) as a person
would through the window:

- ``act(driver, seat, actions) -> Action``: which of the legal actions to take;
- ``moves(driver, seat) -> commands``: the hand moves of an action of kind
  MOVES, each tried through the table's checker (``legal``); given one at a
  time, a bot may choose each on the table the one before left;
- ``answer(state, question) -> answer``: a typed question's answer
  (rules_assist/questions.py), chosen from its kind and data alone.

``RandomBot(seed)`` takes a random legal action, random legal hand moves from
the game's ``move_options``, and a random fitting answer to every question.
A game may add bots of its own (Greenland's greedy bot) beside it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from tabletop.core import Command, Severity, TableState

from .driver import Action, Driver
from .questions import Question


class Bot(Protocol):
    def act(self, driver: Driver, seat: str | None, actions: Sequence[Action]) -> Action: ...

    def moves(self, driver: Driver, seat: str) -> Iterable[Command]: ...

    def answer(self, state: TableState, question: Question) -> Any: ...


def legal(driver: Driver, command: Command, seat: str) -> bool:
    """The table's checker has no 'illegal' finding for the command (a checker-less table
    takes any move)."""
    checker = driver.table.checker
    if checker is None:
        return True
    return not any(
        f.severity is Severity.ILLEGAL for f in checker(driver.table.state, command, seat)
    )


class RandomBot:
    """Random legal play: a random action, random legal hand moves, random fitting answers."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, driver: Driver, seat: str | None, actions: Sequence[Action]) -> Action:
        return self.rng.choice(list(actions))

    def moves(self, driver: Driver, seat: str) -> list[Command]:
        """For each group of alternatives the game offers (``move_options``), one legal move at
        random or none; each played on the table so the next group sees it, then taken back."""
        options = getattr(driver.flow, "move_options", None)
        if options is None:
            return []
        state = driver.table.state
        mark = state.mark()
        chosen: list[Command] = []
        try:
            for group in options(state, seat):
                if self.rng.random() < 0.2:
                    continue  # this piece stays where it is
                builders = list(group)
                self.rng.shuffle(builders)
                for build in builders[:3]:
                    command = build(state)
                    if legal(driver, command, seat):
                        command.apply(state)
                        chosen.append(command)
                        break
        finally:
            for command in reversed(chosen):
                command.inverse().apply(state)
            state.back_to(mark)
        return chosen

    def answer(self, state: TableState, question: Question) -> Any:
        return question.random_answer(self.rng)


def random_bots(seats: Sequence[str], seed: int) -> dict[str, RandomBot]:
    """A random bot a seat, seeded from the game's seed and the seat's place."""
    return {seat: RandomBot(seed * 10 + i) for i, seat in enumerate(seats)}
