"""The turn's bans: no maritime hunting (D7), nobody enters or leaves Markland (D9).

The events set the counters ``ban.maritime`` and ``ban.markland`` to the turn
of the ban.

- D7 is an invariant for the biomes of Greenland: hunters come home from
  them every hunt (G4), so in the turn of the ban no cube of any culture
  stands on a maritime biome in a row. Colonists may have been on a
  maritime New World card since an earlier turn, so there the rule is
  about the change: no cube goes there in that turn (a transition).
- D9 is about moving, to or from Markland: a transition. Leaving counts as much as
  arriving, whoever moves the cube: ``markland_closed`` is what the negotiation's
  procedures (leaving a card, marrying off it, F and F1) ask before they take a cube
  off Markland.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletop.core import Finding, Move

from ..view import Greenland
from .book import BOOK, illegal, moved_cube, placement, plays_without


def _banned(view: Greenland, counter: str) -> bool:
    turn = view.state.counters.get("turn")
    return turn is not None and view.state.counters.get(counter) == turn


def _maritime_ban(view: Greenland) -> bool:
    """D7: no maritime hunting this turn."""
    return _banned(view, "ban.maritime")


@BOOK.invariant(
    "D7", "no cube on a maritime biome of Greenland in the turn of the ban", when=_maritime_ban
)
def d7_no_maritime_hunting(view: Greenland, colour: str) -> Iterable[Finding]:
    if not _maritime_ban(view):
        return ()
    here = placement(view, colour)
    return [
        illegal(
            "D7", f"no maritime hunting this turn: {view.name(card)} is a maritime biome", *cubes
        )
        for card, cubes in here.hunting.items()
        if card not in here.tableau
        and view.biome_type(card) == "maritime"
        and not view.is_new_world(card)
    ]


@BOOK.transition(
    "D7", "no cube goes to a maritime New World card in the turn of the ban", when=_maritime_ban
)
def d7_no_maritime_colonists(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not _maritime_ban(view) or moved_cube(view, move) is None:
        return ()
    place = view.state.places.get(move.dst.place)
    card = place.parent if place is not None else None
    if card is None or not view.is_new_world(card) or view.biome_type(card) != "maritime":
        return ()
    if view.state.places[move.src.place].parent == card:
        return ()
    return (
        illegal(
            "D7",
            f"no maritime hunting this turn: {view.name(card)} is a maritime biome",
            move.piece,
        ),
    )


MARKLAND = "markland"
MARKLAND_BAN = "nobody moves to or from Markland this turn"


def markland_closed(view: Greenland) -> bool:
    """D9: the ban is on this turn (and the game plays with D9). The rule below judges the
    moves by hand; the procedures that take cubes off a card (leaving, marrying in phase F)
    ask this before they move any."""
    return _markland_ban(view) and not plays_without(view, "D9")


def _markland_ban(view: Greenland) -> bool:
    """D9: Markland closed this turn."""
    return _banned(view, "ban.markland")


@BOOK.transition(
    "D9", "nobody moves to or from Markland in the turn of the ban", when=_markland_ban
)
def d9_markland_closed(view: Greenland, move: Move, moves: Sequence[Move]) -> Iterable[Finding]:
    if not _markland_ban(view) or moved_cube(view, move) is None:
        return ()
    places = view.state.places
    ends = {
        place.parent
        for place in (places.get(move.src.place), places.get(move.dst.place))
        if place is not None
    }
    if MARKLAND not in ends:
        return ()
    return (illegal("D9", MARKLAND_BAN, move.piece),)
