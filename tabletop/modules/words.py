"""How a module's pieces are spoken of in log lines: a card's name, what its back shows, and
its kind's label ("cube", "biome card") for a piece named by owner and kind.

A hidden card is called by its kind's back ("a Greenland card", from ``back`` in the
manifest's ``[[kinds]]``), which every player sees across the table; its face's name
(the deck row's ``name``) is used only where the reader may see the face
(tabletop/log_view.py decides where).
"""

from __future__ import annotations

from typing import Any

from tabletop.core import Piece
from tabletop.log_view import PieceWords, plain_back, plain_kind

from .manifest import Module


def _article(words: str) -> str:
    return "an" if words[:1].lower() in "aeiou" and words[:1] else "a"


def piece_words(module: Module | None) -> PieceWords:
    """The module's card names and backs; plain words (ids, kinds) without a module."""
    if module is None:
        return PieceWords()
    rows: dict[tuple[str, str], dict[str, Any]] = {
        (deck_id, str(row.get("id"))): row
        for deck_id, deck in module.decks.items()
        for row in deck.cards
    }

    def face(piece: Piece) -> str | None:
        row = rows.get((str(piece.props.get("deck", "")), str(piece.props.get("card", piece.id))))
        name = row.get("name") if row else None
        return str(name) if name else None

    def back(piece: Piece) -> str:
        kind = module.kinds.get(piece.kind)
        if kind is None:
            return plain_back(piece)
        if kind.shape == "card" and kind.back:
            return f"{_article(kind.back)} {kind.back} card"
        label = kind.label or kind.id
        return f"a face-down {label[:1].lower()}{label[1:]}"

    def kind(piece: Piece) -> str:
        found = module.kinds.get(piece.kind)
        label = (found.label if found else "") or plain_kind(piece)
        return f"{label[:1].lower()}{label[1:]}"

    return PieceWords(face, back, kind)
