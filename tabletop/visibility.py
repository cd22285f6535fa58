"""Who may see what: the one rule every view, tooltip, snapshot and text report follows.

A face-down piece never shows its face; a piece in a private place (a hand)
shows its face only to that place's owner. A piece lying on a card is as
visible as the card's place. The referee (used by developer tools such as
``tabletop inspect`` without ``--seat``) sees everything.
"""

from __future__ import annotations

from tabletop.core import Piece, Place, TableState

REFEREE = "*referee*"

# the property that marks an anonymous piece of a seat's view (tabletop/persist/seatview.py):
# a piece that seat may not see, with its back and nothing of its face
ANONYMOUS = "anonymous"


def is_anonymous(piece: Piece) -> bool:
    """Whether the piece is an anonymous stand-in for a piece hidden from a seat."""
    return bool(piece.props.get(ANONYMOUS))


def home_place(state: TableState, piece: Piece) -> Place:
    """The place that decides a piece's privacy: for a piece on a card, the card's place."""
    place = state.places[piece.place]
    seen = 0
    while place.parent is not None and seen < 64:
        place = state.places[state.pieces[place.parent].place]
        seen += 1
    return place


def can_see(state: TableState, piece: Piece, viewer: str | None) -> bool:
    """Whether ``viewer`` (a seat id, None for a spectator, or REFEREE) may see the piece's face."""
    if viewer == REFEREE:
        return True
    place = home_place(state, piece)
    if place.private:
        return viewer is not None and place.owner == viewer
    return piece.face_up
