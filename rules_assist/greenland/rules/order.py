"""Who acts when, as far as a hand move shows it: the elder phase's order (A5).

- Transition (A5): in the elder phase, a hand move that is a culture's elder
  action (a card from its hand into its tableau, I1 and I4; one of its elders
  leaving its rank, I2, I3 and I5) is out of turn while a culture ahead of it
  in the order (polytheists first, then monotheists, each in player order)
  has not finished the phase. The elder procedures refuse the same
  (elders.py), and the turn flow offers a culture's actions only in its turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletop.core import Finding, Move

from ..sequence import out_of_turn
from ..view import Greenland
from .book import BOOK, colour_of_place, illegal


def _actor(view: Greenland, move: Move) -> str | None:
    """The culture whose elder action the move is, or None when it is none."""
    src, dst = move.src.place, move.dst.place
    if src.startswith("hand_"):
        owner = colour_of_place(src)
        return owner if owner is not None and dst == f"tableau_{owner}" else None
    piece = view.state.pieces[move.piece]
    if piece.owner and src == f"elder-{piece.owner}" and move.src.spot != move.dst.spot:
        return piece.owner
    return None


def _elder_phase(view: Greenland) -> bool:
    return view.state.counters.get("phase") == "elders"


@BOOK.transition(
    "A5",
    "in the elder phase a culture acts once those ahead of it have finished",
    places=("hand_", "elder-"),
)
def a5_elder_action_order(view: Greenland, move: Move, moves: Sequence[Move]) -> Iterable[Finding]:
    if not _elder_phase(view):
        return ()
    colour = _actor(view, move)
    if colour is None:
        return ()
    first = next((m for m in moves if _actor(view, m) is not None), move)
    if first is not move:
        return ()  # one finding a command
    why = out_of_turn(view, colour)
    if why is None:
        return ()
    return (illegal("A5", f"an elder action out of turn: {why}", move.piece),)
