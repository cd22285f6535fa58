"""Who acted: the actor a log entry names, and the owners of what a command moves.

A log entry's ``actor`` is a seat's id ('red'), the table's own word for a
step nobody in particular took ('table', or the game's id for its own
procedures), or a seat played by a bot, written ``bot:`` and the seat
('bot:red'). Older logs, which never name bots, read as they always did.

- ``bot_actor(seat)``: the actor for a bot playing ``seat``;
- ``seat_of(actor)``: the seat an actor acts for (a bot's seat, or the actor);
- ``is_bot(actor)``;
- ``actor_label(actor, names)``: the actor in words, "Norse (bot)";
- ``owners_moved(state, command)``: the seats owning the pieces a command moves (or the
  places they lie in), in order.
"""

from __future__ import annotations

from collections.abc import Mapping

from .commands import Command, Compound, Flip, Move, Rotate, SetProperty
from .state import TableState

BOT_PREFIX = "bot:"


def bot_actor(seat: str) -> str:
    """The actor a bot playing ``seat`` acts as ('bot:red')."""
    return seat if seat.startswith(BOT_PREFIX) else f"{BOT_PREFIX}{seat}"


def is_bot(actor: str) -> bool:
    return actor.startswith(BOT_PREFIX)


def seat_of(actor: str) -> str:
    """The seat an actor acts for: a bot's seat ('bot:red' -> 'red'), else the actor itself."""
    return actor[len(BOT_PREFIX) :] if actor.startswith(BOT_PREFIX) else actor


def actor_label(actor: str, names: Mapping[str, str] | None = None) -> str:
    """An actor in words: the seat's name, with '(bot)' for a bot ("Norse (bot)")."""
    seat = seat_of(actor)
    name = (names or {}).get(seat) or seat
    return f"{name} (bot)" if is_bot(actor) else name


def _pieces_moved(command: Command) -> list[str]:
    """The pieces a hand command moves, flips, turns or changes, in the order it does."""
    if isinstance(command, Move | Flip | Rotate):
        return [command.piece]
    if isinstance(command, SetProperty):
        return [] if command.on_place else [command.target]
    if isinstance(command, Compound):
        return [pid for step in command.commands for pid in _pieces_moved(step)]
    return []


def owners_moved(state: TableState, command: Command) -> list[str]:
    """The seats owning the pieces ``command`` moves (each once, in the order it moves them),
    on the table before it: a piece's owner, else the owner of the place it lies in (a card
    in a seat's hand is that seat's); pieces of nobody's count for none."""
    seats = {seat.id for seat in state.seats}
    found: list[str] = []
    for pid in _pieces_moved(command):
        piece = state.pieces.get(pid)
        if piece is None:
            continue
        owner = piece.owner
        if owner is None:
            place = state.places.get(piece.place)
            owner = place.owner if place is not None else None
        if owner in seats and owner not in found:
            found.append(owner)
    return found
