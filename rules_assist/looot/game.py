"""Looot's game interface: what the table, the window and the command line ask of the game."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from rules_assist.bots import RandomBot
from rules_assist.game import Game, ProcedureSpec, ProcedureTable, Variant
from rules_assist.rules import Rulebook
from tabletop.core import Command, TableState
from tabletop.core.limits import MAX_PIECES
from tabletop.modules import ModuleError, Problem

from . import bench, card_view, rules
from .bots import GreedyBot
from .flow import LoootFlow
from .procedures import PROCEDURES, complete_tile, complete_viking
from .reading import Looot
from .scoring import breakdown, winners
from .setup import setup

# The constants that count (Vikings, tiles, points); the others are readings, true or false.
COUNTS = frozenset({"vikings", "supply", "longship_penalty", "castle_group"})


class LoootGame(Game):
    seat_word = "Player"
    module_needs = {  # what the code names: the pieces and places of the setup, the variant
        "variants": ("standard",),
        "kinds": (
            "viking", "shield", "wood", "sheep", "gold", "axe", "house",
            "watchtower", "castle", "longship", "site", "trophy",
        ),
        "places": (
            "bag", "supply", "discard",
            "vikings_{seat}", "shields_{seat}", "gained_{seat}", "fjord_{seat}",
        ),
    }  # fmt: skip

    @property
    def setup(self) -> Any:  # type: ignore[override]
        return setup

    def number(self, variant: Variant, name: str) -> Any:
        """One of the rules' numbers or readings: the variant's parameter, else the constant;
        a count is a whole number within the table's limit, a reading true or false, and
        anything else is a ModuleError naming the entry."""
        value = variant.param(name, self.module.constants.get(name))
        if name in COUNTS:
            ok = type(value) is int and 0 <= value <= MAX_PIECES
            wanted = f"a whole number from 0 to {MAX_PIECES:,}"
        else:
            ok, wanted = isinstance(value, bool), "true or false"
        if not ok:
            where = str(self.module.folder / "module.toml")
            message = f"must be {wanted}, not {value!r:.40}"
            raise ModuleError([Problem(where, None, f"constants.{name}", message)])
        return value

    def summary(self, state: TableState) -> list[str]:
        return list(self.flow.status(state).lines)

    @cached_property
    def rulebook(self) -> Rulebook:  # type: ignore[override]
        return rules.rulebook_for(self)

    has_complete_move = True

    has_token_view = True

    def token_view(self, piece: Any) -> Any:
        """A token's display roles: tiles, shields, longships, sites, trophies (card_view.py)."""
        return card_view.token_view(piece)

    def complete_move(self, state: TableState, command: Command) -> Command:
        """A Viking, a tile or a longship moved by hand, with what the rules make follow."""
        command = complete_tile(state, complete_viking(state, command, self), self)
        return rules.complete_move(state, command, self)

    @cached_property
    def flow(self) -> LoootFlow:  # type: ignore[override]
        return LoootFlow(self)

    @property
    def procedures(self) -> ProcedureTable:  # type: ignore[override]
        return PROCEDURES

    def prepare(self, state: TableState, spec: ProcedureSpec, params: dict[str, Any]) -> dict:
        return {**params, "game": self}

    def default_actor(self, state: TableState, spec: ProcedureSpec, params: Any) -> str:
        """The seat to move (every procedure is the moving player's)."""
        return Looot(state, self).to_move

    has_score = True

    def score(self, state: TableState) -> list[dict[str, Any]]:
        """A row a player: the total, the categories and the tie-break (LO-R21..R23)."""
        lo = Looot(state, self)
        over = self.flow.is_terminal(state)
        won = winners(lo) if over else []
        rows = []
        for seat in lo.seats:
            found = breakdown(lo, seat)
            rows.append(
                {
                    "seat": seat,
                    "total": found["total"],
                    "resources": found["categories"]["resources"],
                    "buildings": found["categories"]["buildings"],
                    "sites": found["categories"]["sites"],
                    "trophy": found["categories"]["trophy"],
                    "longships": found["categories"]["longshipPenalty"],
                    "final": over,
                    "winner": seat in won,
                }
            )
        return rows

    def breakdown(self, state: TableState, seat: str) -> dict[str, Any]:
        """The seat's score by category and by tile type (LO-R21, LO-R22)."""
        return breakdown(Looot(state, self), seat)

    def first_player(self, state: TableState) -> str | None:
        """The start player: the first seat begins the game (our setup, module README) and
        the turns go round from them, one seat's turn at a time."""
        return state.seats[0].id if state.seats else None

    def winners(self, state: TableState) -> list[str]:
        return winners(Looot(state, self))

    def bench(self, say: Any) -> dict[str, Any]:
        """Whole games a second, ours and Game Park's engine's (``tabletop bench``)."""
        return bench.run(self, say)

    has_bots = True

    @property
    def bots(self) -> dict[str, Any]:
        return {"random": RandomBot, "greedy": GreedyBot}
