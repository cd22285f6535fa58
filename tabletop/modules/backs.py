"""What the back of a module's card shows: the part of a card anyone across the table sees.

A game's ``card_view`` (rules_assist/game.py) may name, for each deck row, the back its card
shows (``back_key``, ``back_label``, ``back_colour``: a North Greenland card's back is not a
South one's). A seat's copy of a game (tabletop/persist/seatview.py) gives a hidden card's
stand-in that back, and nothing of its face; the window draws it as it draws the card's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.core import Piece

from .gamecode import game_of
from .manifest import Module

Back = tuple[str, str, str]  # (key, label, colour)


def piece_backs(module: Module | None) -> Callable[[Piece], Back | None]:
    """``back(piece)``: the back a card of ``module`` shows, as its game's card view names it;
    None for a piece with no deck row, or a game that names no backs."""
    game = game_of(module) if module is not None else None
    if module is None or game is None or not getattr(game, "has_card_view", False):
        return lambda piece: None
    rows: dict[tuple[str, str], dict[str, Any]] = {
        (deck_id, str(row.get("id"))): row
        for deck_id, deck in module.decks.items()
        for row in deck.cards
    }
    known: dict[tuple[str, str], Back | None] = {}

    def back(piece: Piece) -> Back | None:
        key = (str(piece.props.get("deck", "")), str(piece.props.get("card", piece.id)))
        if key not in known:
            row = rows.get(key)
            view = game.card_view(dict(row)) if row is not None else None
            if isinstance(view, dict) and view.get("back_key"):
                label, colour = view.get("back_label") or "", view.get("back_colour") or ""
                known[key] = (str(view["back_key"]), str(label), str(colour))
            else:
                known[key] = None
        return known[key]

    return back
