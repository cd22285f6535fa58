"""The turn driver: who is to move, what they may do now, whether the game is over, the result.

In the shape of OpenSpiel's state: ``current_player`` is a seat, ``CHANCE``
(the table's own step comes next: a card to reveal, the next phase, dice that
nobody chooses) or ``TERMINAL`` (the game is over); ``legal_actions`` lists
what may be done now; ``apply`` does one; ``returns`` is the result. The
window's phase panel, bots at the table, ``tabletop simulate``, the command
line and the conformance run all go through it, so the turn is worked out in
one place: the game's ``Flow``.

A game's flow answers, for a table state:

- ``phases``: the phases in order; ``phase(state)``; ``phase_label(phase)``;
- ``status(state) -> Status``: the turn, the phase, whose move it is, lines for
  people, and the ``actions`` open now (the first is the main "next" one);
- ``is_terminal(state)`` and ``returns(state) -> {seat: number}``;
- optionally ``turn(state) -> (to_move, actions)``: the status's ``to_move`` and
  ``actions`` alone, for a flow that can answer them without making the lines
  for people (the driver reads nothing else); ``to_move`` is TERMINAL exactly
  when ``is_terminal``.

An ``Action`` is a procedure of the game's table (``name`` and ``params``), by
a seat (``actor``) or by the table (``actor`` None: anyone may take it), or a
seat's hand moves (``kind`` MOVES: pieces moved by hand, checked by the rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from tabletop.core import Change, Table, TableState

CHANCE = "chance"
TERMINAL = "terminal"
PROCEDURE = "procedure"
MOVES = "moves"


NO_PARAMS: Mapping[str, Any] = MappingProxyType({})


class Action(NamedTuple):
    """Something that may be done now: a procedure of the game, or a seat's hand moves.

    Actions and statuses are named tuples, made for every status the flow works out: a frozen
    dataclass would set each field through ``object.__setattr__``."""

    label: str
    name: str = ""  # the procedure's name in the game's table
    params: Mapping[str, Any] = NO_PARAMS
    actor: str | None = None  # the seat whose action it is; None: the table's
    help: str = ""
    kind: str = PROCEDURE


class Status(NamedTuple):
    """Where a game stands: for people (``lines``) and for the driver (``to_move``, ``actions``)."""

    turn: int | None
    phase: str
    phase_label: str
    to_move: str | None = None  # a seat, CHANCE or TERMINAL
    lines: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()


class Flow(Protocol):
    phases: Sequence[str]

    def phase(self, state: TableState) -> str: ...

    def phase_label(self, phase: str) -> str: ...

    def status(self, state: TableState) -> Status: ...

    def is_terminal(self, state: TableState) -> bool: ...

    def returns(self, state: TableState) -> dict[str, float]: ...


class Driver:
    """A game's turn on one table."""

    def __init__(self, game: Any, table: Table) -> None:
        self.game = game
        self.table = table
        self.flow = game.flow
        if self.flow is None:
            raise ValueError(f"{game.id} has no turn flow")
        # a flow may answer whose move it is and the actions open without the status's lines
        # for people (``turn(state) -> (to_move, actions)``), which the driver does not read
        self._turn = getattr(self.flow, "turn", None)

    @property
    def state(self) -> TableState:
        return self.table.state

    def status(self) -> Status:
        return self.flow.status(self.table.state)

    def current_player(self) -> str:
        """A seat, CHANCE (the table's own step) or TERMINAL."""
        state = self.table.state
        if self.flow.is_terminal(state):
            return TERMINAL
        return self.flow.status(state).to_move or CHANCE

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """What the player to move may do now (``player``: another seat, or CHANCE for the
        table's own steps). A seat's actions are its own; the table's have no actor. The
        window offers more (``status().actions``: anyone may move the phase on)."""
        return self.turn(player)[1]

    def turn(self, player: str | None = None) -> tuple[str, list[Action]]:
        """The player to move (as ``current_player``) and what they, or ``player``, may do now
        (as ``legal_actions``), the status read once."""
        state = self.table.state
        if self._turn is not None:
            to_move, actions = self._turn(state)
            if to_move == TERMINAL:
                return TERMINAL, []
            to_move = to_move or CHANCE
        else:
            if self.flow.is_terminal(state):
                return TERMINAL, []
            status = self.flow.status(state)
            to_move, actions = status.to_move or CHANCE, status.actions
        who = player if player is not None else to_move
        actor = None if who == CHANCE else who
        return to_move, [a for a in actions if a.actor == actor]

    def is_terminal(self) -> bool:
        return bool(self.flow.is_terminal(self.table.state))

    def returns(self) -> dict[str, float]:
        return dict(self.flow.returns(self.table.state))

    def apply(
        self,
        action: Action,
        *,
        actor: str | None = None,
        choices: Mapping[str, Any] | None = None,
        answerer: Callable[..., Any] | None = None,
    ) -> Change | None:
        """Run an action's procedure as ``actor`` (its own seat by default), each question
        answered from ``choices`` or by ``answerer``; refused outside its phase."""
        if action.kind != PROCEDURE:
            raise ValueError(f"{action.label}: hand moves are submitted move by move")
        who = actor or action.actor or self.game.id
        return self.game.run(
            self.table, action.name, who, action.params, choices=choices, answerer=answerer
        )
