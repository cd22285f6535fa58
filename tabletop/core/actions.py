"""Builders: turn a wish ("put this cube on rank 3") into a command with its old values filled in.

Each function reads the state and returns a command; none changes anything.
Submit the result with ``Table.submit``. Chance (rolls, shuffles) goes through
``Table.roll`` and ``Table.shuffle``, which draw from the game's randomizer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .commands import (
    AddPiece,
    AddPlace,
    Command,
    Compound,
    Flip,
    Move,
    Peek,
    RemovePiece,
    RemovePlace,
    Rotate,
    SetCounter,
    SetOwner,
    SetProperty,
    Where,
)
from .errors import CommandError
from .pieces import Piece
from .state import TableState
from .textsafe import quoted


def where_is(state: TableState, pid: str) -> Where:
    """Where a piece lies now."""
    piece = state.piece(pid)
    contents = state.places[piece.place].contents
    return Where(piece.place, contents.index(pid), piece.spot, piece.x, piece.y)


def move(
    state: TableState,
    pid: str,
    place: str,
    *,
    spot: str | None = None,
    index: int | None = None,
    x: float | None = None,
    y: float | None = None,
) -> Move:
    """Move a piece to a place; by default on top of a stack or at the end of a row."""
    src = where_is(state, pid)
    if place not in state.places:
        raise CommandError(f"there is no place {quoted(place)} on the table")
    size = len(state.places[place].contents) - (1 if place == src.place else 0)
    if index is None:
        index = size
    elif index < 0:
        index = size + 1 + index
    return Move(pid, src, Where(place, index, spot, x, y))


def add_piece(
    state: TableState,
    piece: Piece | dict[str, Any],
    place: str,
    *,
    spot: str | None = None,
    index: int | None = None,
    x: float | None = None,
    y: float | None = None,
) -> AddPiece:
    record = piece.record() if isinstance(piece, Piece) else dict(piece)
    if place not in state.places:
        raise CommandError(f"there is no place {quoted(place)} on the table")
    if index is None:
        index = len(state.places[place].contents)
    return AddPiece(record, Where(place, index, spot, x, y))


def add_place(spec: dict[str, Any]) -> AddPlace:
    return AddPlace(dict(spec))


def remove_piece(state: TableState, pid: str) -> Command:
    """Remove a piece for good, with whatever it carries (that goes first, then its regions)."""
    steps: list[Command] = []
    regions = state.regions_of(pid)
    if regions is not None:
        for child in reversed(regions.contents):
            steps.append(remove_piece(state, child))
        steps.append(RemovePlace(regions.spec()))
    steps.append(RemovePiece(state.piece(pid).record(), where_is(state, pid)))
    if len(steps) == 1:
        return steps[0]
    return Compound(f"remove {pid}", tuple(steps))


def remove_place(state: TableState, place_id: str) -> RemovePlace:
    return RemovePlace(state.place(place_id).spec())


def flip(state: TableState, pid: str, face_up: bool | None = None) -> Flip:
    """Turn a piece over (or to the side named)."""
    old = state.piece(pid).face_up
    return Flip(pid, old, (not old) if face_up is None else face_up)


def rotate(state: TableState, pid: str, quarter_turns: int = 1) -> Rotate:
    old = state.piece(pid).rotation
    return Rotate(pid, old, (old + quarter_turns) % 4)


def set_property(state: TableState, pid: str, key: str, value: Any) -> SetProperty:
    return SetProperty(pid, key, state.piece(pid).props.get(key), value)


def set_place_property(state: TableState, place_id: str, key: str, value: Any) -> SetProperty:
    return SetProperty(place_id, key, state.place(place_id).props.get(key), value, on_place=True)


def set_owner(state: TableState, pid: str, seat: str | None) -> SetOwner:
    return SetOwner(pid, state.piece(pid).owner, seat)


def set_counter(state: TableState, name: str, value: Any) -> SetCounter:
    return SetCounter(name, state.counters.get(name), value)


def build_sequence(
    state: TableState,
    label: str,
    builders: Iterable[Any],
    procedure: str | None = None,
    *,
    keep: bool = False,
) -> Compound:
    """Build a compound from builder callables ``f(state) -> Command``, each seeing the steps before it.

    Each step is applied to ``state`` as it is built, so the next builder sees
    it, and every step is taken back (exact inverses, last first) before the
    compound is returned: the state is as it was, and nobody was notified.
    With ``keep`` the steps stay on the table (for ``Table.submit(...,
    applied=True)``); they are taken back all the same if a builder fails.
    """
    steps: list[Command] = []
    try:
        for build in builders:
            command = build(state)
            command.apply(state)
            steps.append(command)
    except BaseException:
        keep = False
        raise
    finally:
        if not keep:
            for command in reversed(steps):
                command.inverse().apply(state)
    return Compound(label, tuple(steps), procedure)


def draw(
    state: TableState,
    deck: str,
    dest: str,
    count: int = 1,
    *,
    bottom: bool = False,
    face_up: bool | None = None,
    spot: str | None = None,
) -> Compound:
    """Draw ``count`` pieces from the top (or bottom) of a deck into a place, optionally turning them."""
    contents = state.place(deck).contents
    if count < 1:
        raise CommandError("draw at least one card")
    if dest == deck:
        raise CommandError("draw into another place than the deck itself")
    if count > len(contents):
        raise CommandError(f"{quoted(deck)} holds {len(contents)}, not {count}")
    steps: list[Command] = []
    dest_size = len(state.place(dest).contents)
    for i in range(count):
        pid = contents[i] if bottom else contents[-1 - i]
        index = 0 if bottom else len(contents) - 1 - i
        piece = state.pieces[pid]
        steps.append(
            Move(
                pid,
                Where(deck, index, piece.spot, piece.x, piece.y),
                Where(dest, dest_size + i, spot),
            )
        )
        if face_up is not None and piece.face_up != face_up:
            steps.append(Flip(pid, piece.face_up, face_up))
    return Compound(f"draw {count} from {deck} to {dest}", tuple(steps))


def deal(state: TableState, deck: str, hands: Sequence[str], count: int = 1) -> Compound:
    """Deal ``count`` cards to each hand in turn, from the top of the deck."""
    contents = state.place(deck).contents
    needed = count * len(hands)
    if needed > len(contents):
        raise CommandError(f"{quoted(deck)} holds {len(contents)}; dealing needs {needed}")
    sizes = {h: len(state.place(h).contents) for h in hands}
    steps: list[Command] = []
    top = len(contents) - 1
    for _ in range(count):
        for hand in hands:
            pid = contents[top]
            steps.append(Move(pid, Where(deck, top, None, None, None), Where(hand, sizes[hand])))
            sizes[hand] += 1
            top -= 1
    return Compound(f"deal {count} to {', '.join(hands)}", tuple(steps))


def peek(
    state: TableState, seat: str, place: str, count: int | None = None, *, bottom: bool = False
) -> Peek:
    """A seat looks at the top (or bottom) ``count`` pieces of a place, or at all of them."""
    contents = state.place(place).contents
    if count is None:
        seen = list(contents)
    else:
        seen = contents[:count] if bottom else contents[::-1][:count]
    return Peek(seat, place, tuple(seen))


def search(
    state: TableState, seat: str, deck: str, pid: str, dest: str, *, face_up: bool | None = None
) -> Compound:
    """A seat looks through a deck and takes one piece from it."""
    if state.piece(pid).place != deck:
        raise CommandError(f"{quoted(pid)} is not in {quoted(deck)}")
    steps = [lambda s: peek(s, seat, deck), lambda s: move(s, pid, dest)]
    if face_up is not None and state.piece(pid).face_up != face_up:
        steps.append(lambda s: flip(s, pid, face_up))
    return build_sequence(state, f"search {deck} for {pid}", steps)


def move_many(
    state: TableState, pids: Sequence[str], place: str, *, spot: str | None = None
) -> Compound:
    """Move several pieces to a place in order (a rubber-band selection, a stack)."""
    return build_sequence(
        state,
        f"move {len(pids)} pieces to {place}",
        [lambda s, p=p: move(s, p, place, spot=spot) for p in pids],
    )
