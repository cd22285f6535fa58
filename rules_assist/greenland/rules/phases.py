"""The turn's order by hand (A1, E) and what only a procedure gives (B4); the table's own rule.

- E: hunters are assigned in the hunter assignment phase, the second of the
  turn (A1); an unassigned hunter put on a card by hand in any other phase
  is out of turn (a transition).
- E: that phase ends only once every culture in play has assigned, in
  player order (A2), and said so ("done placing hunters"): the table's
  "Next" before then is refused (a rule about the procedure next-phase).
- B4: disks come from the supply to a culture only by what pays or earns
  them (a hunt, G4; an exchange, B3; the auction, D10; ...), all of them
  procedures: a disk taken from the supply by hand is taken free.
- table: a seat moves only its own pieces (``table_only_owners_move``, the rules
  layer's, for any game).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletop.core import Compound, Finding, Move

from ...rules import table_only_owners_move
from ..sequence import PHASE_NAMES, current_first, phase_order
from ..view import Greenland
from .book import BOOK, illegal, moved_cube

ASSIGNMENT = "assignment"
NEXT_PHASE = "greenland.next_phase"  # the log's name of turn.py's next_phase
DISKS = ("energy", "ivory", "iron")
SUPPLIES = tuple(f"supply_{kind}" for kind in DISKS)

BOOK.transition("table", "only the owner moves their pieces", actor=True)(table_only_owners_move)


def _phase(view: Greenland) -> str:
    return str(view.state.counters.get("phase") or "event")


def _not_assigning(view: Greenland) -> bool:
    """Another phase than the hunter assignment."""
    return _phase(view) != ASSIGNMENT


@BOOK.transition(
    "E",
    "hunters are placed in the hunter assignment phase",
    places=("hunters_",),
    when=_not_assigning,
)
def e_hunters_placed_in_their_phase(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not move.src.place.startswith("hunters_") or not _not_assigning(view):
        return ()
    phase = _phase(view)
    cube = moved_cube(view, move)
    if cube is None or move.src.place != f"hunters_{cube[0]}":
        return ()
    place = view.state.places.get(move.dst.place)
    if place is None or place.parent is None:
        return ()  # back among the bowls: no card assigned to
    name, section = PHASE_NAMES.get(phase, (phase, ""))
    return (
        illegal(
            "E",
            f"hunters are placed in the hunter assignment phase (A1, E); this is the"
            f" {name.lower()} phase ({section})",
            move.piece,
        ),
    )


@BOOK.transition("B4", "disks leave the supply only by what pays or earns them", places=SUPPLIES)
def b4_no_disk_free_from_the_supply(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if move.src.place not in SUPPLIES or move.dst.place in SUPPLIES:
        return ()
    kind = move.src.place.removeprefix("supply_")
    return (
        illegal(
            "B4",
            f"{kind} comes from the supply only by what earns or pays for it (a hunt G4, an"
            f" exchange B3, the auction D10 ...): run that procedure, not a move by hand",
            move.piece,
        ),
    )


@BOOK.procedure_rule(
    "E",
    "the hunter assignment phase ends once every culture has assigned",
    procedures=(NEXT_PHASE,),
)
def e_everyone_assigns_before_the_phase_ends(
    view: Greenland, command: Compound, seat: str
) -> Iterable[Finding]:
    if _phase(view) != ASSIGNMENT or view.state.counters.get("game_over") is not None:
        return ()
    done = set(view.state.counters.get("phase.done") or ())
    waiting = [c for c in phase_order(view, ASSIGNMENT, current_first(view)) if c not in done]
    if not waiting:
        return ()
    return (
        illegal(
            "E",
            "every culture assigns its hunters, in player order (A2), before the phase ends:"
            f" {', '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} not finished"
            " placing hunters",
        ),
    )
