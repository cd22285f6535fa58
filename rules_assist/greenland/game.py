"""Greenland's game interface: everything the table, the window and the command line ask of it.

Named once in resources/greenland/module.toml (``game``). The parts load when
first asked for, so opening the window does not import the procedures, the
bots or the rules until a game needs them.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from tabletop.core import Command, TableError, TableState

from ..game import Game, ProcedureSpec, ProcedureTable
from ..procedures import ProcedureError
from .procedure_table import arguments_of, elder, spec_for


class GreenlandGame(Game):
    seat_word = "Culture"
    module_needs = {  # what the code names: the deck, kinds and places of B and C
        "decks": ("greenland",),
        "kinds": (
            "biome", "new_world", "event", "elder", "daughter", "animal",
            "cube", "alpha", "energy", "ivory", "iron", "d6",
        ),
        "places": (
            "north_cold", "north_deck", "north_warm", "south_cold", "south_deck", "south_warm",
            "event_deck", "event_current", "events_out", "out_of_game",
            "supply_energy", "supply_ivory", "supply_iron", "dice_tray",
            "elder_{seat}", "trophies_{seat}", "tableau_{seat}", "hunters_{seat}",
            "energy_{seat}", "ivory_{seat}", "iron_{seat}", "valhalla_{seat}", "hand_{seat}",
        ),
    }  # fmt: skip

    # ---- setup and reading -------------------------------------------------------------
    @property
    def setup(self) -> Any:  # type: ignore[override]
        from .setup import setup

        return setup

    @property
    def deck_check(self) -> Any:  # type: ignore[override]
        from .deck import check_rows

        return check_rows

    def placeholder_fields(self, row: Any) -> set[str]:
        from .deck import placeholder_fields

        return placeholder_fields(row)

    def mark_placeholder(
        self, row: Any, column: str, placeholder: bool, source: str
    ) -> dict[str, str]:
        from .deck import mark_placeholder

        return mark_placeholder(row, column, placeholder, source)

    def deck_vocabulary(self, column: str) -> Any:
        from .deck import vocabulary

        return vocabulary(column)

    def summary(self, state: TableState) -> Any:
        from .reading import summary

        return summary(state, self.module)

    has_card_view = True

    def card_view(self, row: Any) -> Any:
        from .card_view import card_view

        return card_view(row)

    has_card_back = True

    def card_back(self, row: Any) -> Any:
        from .card_view import card_back

        return card_back(row)

    @cached_property
    def cards(self) -> Any:
        """The deck rows of the module's deck (rules_assist/greenland/deck.py)."""
        from .deck import Cards

        return Cards.of(self.module)

    # ---- rules -------------------------------------------------------------------------
    @cached_property
    def rulebook(self) -> Any:  # type: ignore[override]
        """Greenland's invariants and transition rules (rules_assist/greenland/rules/): the base
        class makes the move checker and the audit of them."""
        from .rules import rulebook_for

        return rulebook_for(self.cards)

    has_complete_move = True

    def complete_move(self, state: TableState, command: Command) -> Command:
        from .assignment import complete_move

        return complete_move(state, command, self.module)

    # ---- the turn, procedures, scoring, bots ------------------------------------------------
    @cached_property
    def flow(self) -> Any:
        """The turn (flow.py): who is to move, what they may do now, the result."""
        from .flow import GreenlandFlow

        return GreenlandFlow(self)

    @cached_property
    def procedures(self) -> ProcedureTable:  # type: ignore[override]
        from .procedure_table import procedure_table

        return procedure_table()

    def prepare(self, state: TableState, spec: ProcedureSpec, params: dict[str, Any]) -> dict:
        """The parameters as the procedure takes them: a card named by its name (the command
        line) turned into its piece id (ids pass as they are), and the game's deck rows
        (``cards``) for a procedure that takes them. ``params`` is the caller's copy (``Game.run``
        and the command line give one): it is filled in and returned."""
        named, takes_cards = arguments_of(spec.function)
        for key in named:
            value = params.get(key)
            if isinstance(value, str) and value not in state.pieces:
                params[key] = self.card_id(value, key)
        if takes_cards and "cards" not in params:
            params["cards"] = self.cards
        return params

    def default_actor(self, state: TableState, spec: ProcedureSpec, params: Any) -> str:
        """Who acts when the command line names nobody: on a hunt, the culture that rolls first
        on the card (A4); otherwise the first player (A2), else the table."""
        if spec.name == "hunt" and isinstance(params.get("card"), str):
            from .hunt import hunt_order
            from .view import Greenland

            try:
                order = hunt_order(Greenland(state, self.cards), params["card"])
            except TableError:
                order = []
            if order:
                return order[0]
        return str(state.counters.get("first_player") or self.id)

    def card_id(self, name: str, what: str = "card") -> str:
        """The piece id of the card called ``name`` (its deck row's card id)."""
        rows = self.cards.by_name(name)
        if not rows:
            raise ProcedureError(
                f"--{what.replace('_', '-')} {name!r}: there is no card of that name"
            )
        return str(rows[0]["card"])

    def bench(self, say: Any) -> dict[str, Any]:
        """Greenland's figures: the checker on a mid-game table, whole simulated games."""
        from . import bench

        return {**bench.run(say), **bench.sim_run(say)}

    def recorded_as(self, spec: ProcedureSpec, params: Any) -> str:
        """As ``Game.recorded_as``, an elder action logged under its own name
        ('greenland.elder.banish')."""
        return spec_for(spec, params).recorded_as if spec.function is elder else spec.recorded_as

    has_score = True

    def score(self, state: TableState) -> Any:
        from .scoring import score_table

        return score_table(state, self.module)

    def first_player(self, state: TableState) -> str | None:
        """This turn's first player (A2: the event names it; the first culture seated before)."""
        from .sequence import current_first, view_of

        return current_first(view_of(state, self.cards))

    has_bots = True

    @property
    def bots(self) -> dict[str, Any]:
        from .bots import window_bots

        return window_bots()
