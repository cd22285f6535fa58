"""Greenland's rulebook: each rule written once, as an invariant or a transition (rules_assist/rules.py).

The move checker (``rulebook.check``: the transitions, then the invariants a
move newly breaks for the cultures it touches) and the whole-table audit
(``rulebook.audit``, ``tabletop check``) are the same rules, so a table the
checker would refuse to reach is one the audit reports.

By subject, each rule a function named by its section:

- supply.py: the components (B4: cubes, bowls, the woodpile, the disk
  supply; B: every piece in one place) and the hands (B2, a reminder);
- transport.py: mariners and sleds (E1), colonists to the New World (E2, a
  transition), a colony abandoned (E4);
- assignment.py: elders on their own card (E3, E5), promotion and rank (E3),
  permanent assignment (E4), the Sun Stone (E6);
- raids.py: raids and defence (E5), one husband (F1), the beginners' game
  (E, C2);
- bans.py: the turn's bans (D7, D9);
- order.py: an elder action made by hand out of the elder phase's order (A5).
- phases.py: hunters placed in their phase and the phase ended only when
  everyone has (E), no disk taken free from the supply (B4), only the owner
  moves their pieces (table).

A variant's ``rules_off`` (module.toml) switch rules off by section: the
beginners' game (C2) plays without D9, E2, E5, F1, ... and judges the moves
they would allow by the basic rules (rules E and C2 in raids.py, E3 for
another culture's elders), as rules_assist/greenland/variants.py explains.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tabletop.core import TableState

from ...rules import Rulebook
from ..deck import Cards
from ..view import Greenland
from . import (  # noqa: F401  (they declare the rules)
    assignment,
    bans,
    order,
    phases,
    raids,
    supply,
    transport,
)
from .book import BOOK, after_moves, seats_touched, touching

__all__ = ["BOOK", "rulebook_for"]

_BOOKS: dict[int, tuple[Cards, Rulebook]] = {}  # the last few decks' rulebooks
_KEPT = 8


def _rules_off(view: Greenland) -> tuple[str, ...]:
    return view.rules_off


def rulebook_for(cards: Cards | Any) -> Rulebook:
    """Greenland's rulebook reading tables with these deck rows (or a module's)."""
    if not isinstance(cards, Cards):
        cards = Cards.of(cards)
    known = _BOOKS.get(id(cards))
    if known is not None and known[0] is cards:
        return known[1]

    def reading(state: TableState) -> Greenland:
        return Greenland(state, cards)

    book = dataclasses.replace(
        BOOK,
        reading=reading,
        seats=Greenland.seats,
        seats_touched=seats_touched,
        off=_rules_off,
        reading_after=after_moves,
        touching=touching,
    )
    if len(_BOOKS) >= _KEPT:
        _BOOKS.clear()
    _BOOKS[id(cards)] = (cards, book)
    return book
