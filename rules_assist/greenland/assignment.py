"""Hunter assignment helpers (E3): what a hand move implies, done in the same entry.

When a player drops one of their unassigned hunters on a rank of their own
elder card, the promotion's price (1 energy, E3) is paid in the same entry,
so the move is legal as one step and undone as one. In the solitaire game (K) a
culture without energy pays with an ivory, else an iron, as if it were orange.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import Command, Compound, Move, TableState, actions

from .deck import Cards
from .payments import promotion_disk
from .view import Greenland


def complete_move(state: TableState, command: Command, module: Any) -> Command:
    """The command with what the rules make follow from it (a promotion's energy), or unchanged."""
    if not isinstance(command, Move):
        return command
    piece = state.pieces.get(command.piece)
    if piece is None or piece.kind not in ("cube", "alpha"):
        return command
    colour = piece.owner
    if command.src.place != f"hunters_{colour}" or command.dst.place != f"elder-{colour}":
        return command
    view = Greenland(state, Cards.of(module))
    if view.has(colour, "free_promotion"):
        return command
    disk = promotion_disk(view, colour)
    if disk is None:
        return command  # nothing to pay with: the check says why it is not allowed
    rank = (command.dst.spot or "").removeprefix("rank")
    kind = state.pieces[disk].kind
    pay = actions.move(state, disk, f"supply_{kind}")
    paying = "1 energy" if kind == "energy" else f"1 {kind} as energy (K)"
    return Compound(
        f"promote a {colour} hunter to rank {rank}, paying {paying} (E3)", (command, pay)
    )
