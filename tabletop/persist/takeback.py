"""Who may take a move back when the seats play apart (a live game, play by email): the one
policy both use, on the full table and the asking seat's view of it.

At a local table the players see each other and agree on an undo by talking; apart, the
table decides. ``undo_verdict(table, seat, view)`` reads the move undo would take back (the
latest entry still standing on the table's undo stack) and says:

- ``OWN``: the seat may take it back alone. It is the seat's own move (made at its request:
  its actor is the seat, not a bot nor the table) and nobody else has acted since (no entry
  after it by another actor that moves, undoes or redoes).
- ``ASK``: anything else (another seat's move, a bot's, the table's own step, a move of the
  seat's after which others acted) is taken back only if every other seat agrees
  (``ask``: the seats to ask, in seat order). Asked apart, no is the answer safe by mistake.
- ``REFUSED`` (``text`` says why): nothing to take back; or the move showed the asking seat
  something it could not see before (a card drawn into its hand, a card turned up, a peek).
  Taken back, the seat would keep what it saw and could play the move again knowing it, so
  no agreement makes that undo fair.

``redo_verdict(table, seat)``: a seat may put back, alone, only its own move that it took
back itself with the log's latest entry; anything else is refused (ask for the move again).

Draws are not taken back (docs/fairness.md): an undone roll's draw is spent, and the next
roll is the next draw, so undoing never rolls again.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.core import Compound, Entry, Replace, Table, Viewed
from tabletop.core.actors import seat_of
from tabletop.core.commands import Command
from tabletop.visibility import ANONYMOUS

from .seatview import SeatView

OWN, ASK, REFUSED = "own", "ask", "refused"
ACTS = ("do", "undo", "redo", "setup")  # entries in which someone changed the table


@dataclass(frozen=True)
class TakeBack:
    """What the policy says of an undo or redo asked for by ``seat``."""

    verdict: str  # OWN, ASK or REFUSED
    seq: int | None  # the entry undo (redo) would take back (put back)
    text: str  # why, in words: a refusal's message, or what the others are asked
    ask: tuple[str, ...] = ()  # ASK: the seats whose agreement it needs

    @property
    def refused(self) -> bool:
        return self.verdict == REFUSED


def undo_verdict(table: Table, seat: str, view: SeatView, name: str | None = None) -> TakeBack:
    """May ``seat`` take back the move undo would take back now? ``view``: the seat's view of
    ``table`` (brought up to date here); ``name``: the seat's name in the words."""
    who = name or seat
    if not table.can_undo:
        return TakeBack(REFUSED, None, "there is no move to take back")
    seq = table.undo_stack[-1]
    entry = table.entries[seq - 1]
    view.follow()
    words = f"entry {seq} ({view.words(seq)})"
    if showed_something(view.entries[seq - 1][0].command):
        return TakeBack(
            REFUSED,
            seq,
            f"{words} showed {who} what it could not see before (a card drawn, turned up or"
            f" peeked at): taken back, {who} would keep what it saw, so the move stands",
        )
    others = tuple(s.id for s in table.state.seats if s.id != seat)
    if entry.actor != seat:
        return TakeBack(ASK, seq, f"{words} is not {who}'s move", others)
    acted = [e for e in table.entries[seq:] if e.kind in ACTS and seat_of(e.actor) != seat]
    if acted:
        return TakeBack(
            ASK, seq, f"{words}: others have played since (entry {acted[0].seq})", others
        )
    return TakeBack(OWN, seq, f"{words} is {who}'s own last move")


def redo_verdict(table: Table, seat: str) -> TakeBack:
    """May ``seat`` put back the move redo would put back now? Only its own, right after it
    took it back itself."""
    if not table.can_redo:
        return TakeBack(REFUSED, None, "there is no move taken back to put back")
    seq = table.redo_stack[-1]
    last: Entry = table.entries[-1]
    just_undone = last.kind == "undo" and last.ref == seq and last.actor == seat
    if not (just_undone and table.entries[seq - 1].actor == seat):
        return TakeBack(
            REFUSED,
            seq,
            f"entry {seq} can be put back only by the seat whose move it was, right after it"
            " took the move back itself: make the move again instead",
        )
    return TakeBack(OWN, seq, f"entry {seq} is {seat}'s own move, just taken back")


def take_back_verdict(
    kind: str, table: Table, seat: str, view: SeatView, name: str | None = None
) -> TakeBack:
    """``undo_verdict`` or ``redo_verdict`` as ``kind`` ('undo' or 'redo') says."""
    if kind == "undo":
        return undo_verdict(table, seat, view, name)
    return redo_verdict(table, seat)


def showed_something(command: Command) -> bool:
    """A view entry's command shows its viewer a piece it could not see before: a stand-in
    replaced by the piece itself, or a peek's cards."""
    if isinstance(command, Compound):
        return any(showed_something(c) for c in command.commands)
    if isinstance(command, Viewed):
        steps = (*command.first, command.command, *command.then)
        return bool(command.peeked) or any(showed_something(c) for c in steps)
    if isinstance(command, Replace):
        was_hidden = bool(command.old.get("props", {}).get(ANONYMOUS))
        return was_hidden and not command.new.get("props", {}).get(ANONYMOUS)
    return False


__all__ = [
    "ASK",
    "OWN",
    "REFUSED",
    "TakeBack",
    "redo_verdict",
    "showed_something",
    "take_back_verdict",
    "undo_verdict",
]
