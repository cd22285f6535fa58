"""The table state: pieces, places, seats and named counters, and its hash."""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .errors import FormatError, UnknownId
from .limits import LAYOUT_BOUND_TEXT, MAX_PIECES, MAX_PLACES, layout_number
from .pieces import Piece
from .places import Place


def _id_key(record: Any) -> str:
    return str(record.get("id")) if isinstance(record, dict) else ""


def digest_of(state: dict[str, Any]) -> str:
    """The sha256 of a serialized state, over its canonical JSON.

    Places and pieces are taken in order of id: which was added first is not
    part of what lies on the table (a piece removed and put back by undo is the
    same table). The order inside each place, and of the seats, is kept.
    """
    canonical = dict(state) if isinstance(state, dict) else state
    if isinstance(canonical, dict):
        for key in ("places", "pieces"):
            if isinstance(canonical.get(key), list):
                canonical[key] = sorted(canonical[key], key=_id_key)
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Seat:
    """A player's seat at the table: a stable id (often a colour), a name and a colour."""

    id: str
    name: str = ""
    colour: str = "#888888"

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name or self.id, "colour": self.colour}

    @classmethod
    def from_dict(cls, d: Any) -> Seat:
        if isinstance(d, str):
            return cls(d, d)
        if not isinstance(d, dict) or not isinstance(d.get("id"), str):
            raise FormatError(f"a seat needs a string 'id', got {d!r:.80}")
        return cls(d["id"], str(d.get("name") or d["id"]), str(d.get("colour", "#888888")))


class TableState:
    """Everything on the table. Changed only by commands (see commands.py)."""

    __slots__ = (
        "pieces",
        "places",
        "seats",
        "counters",
        "version",
        "positions",
        "layout",
        "_memo",
        "_positions_memo",
        "_layout_memo",
    )

    def __init__(self, seats: list[Seat] | tuple[Seat, ...] = ()) -> None:
        self.pieces: dict[str, Piece] = {}
        self.places: dict[str, Place] = {}
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.counters: dict[str, Any] = {}
        self.version = 0  # raised by every command applied (commands.py): the memo's clock
        self.positions = 0  # raised by every command but those that only set counters
        self.layout = 0  # raised by commands that add or remove pieces or places or set properties
        self._memo: tuple[int, dict[Any, Any]] = (0, {})  # (the version it holds for, the memo)
        self._positions_memo: tuple[int, dict[Any, Any]] = (0, {})
        self._layout_memo: tuple[int, dict[Any, Any]] = (0, {})

    def memo(self) -> dict[Any, Any]:
        """A scratch dict for values derived from this table, emptied when a command changes it.

        Rules code keeps what it reads again and again here (a culture's
        abilities, say); it is not part of the state: not saved, copied or compared.
        """
        version, memo = self._memo
        if version != self.version:
            memo = {}
            self._memo = (self.version, memo)
        return memo

    def positions_memo(self) -> dict[Any, Any]:
        """Like ``memo``, kept while only counters change (the phase, whose turn it is): for
        what is read of where the pieces are and how they lie, never of the counters."""
        positions, memo = self._positions_memo
        if positions != self.positions:
            memo = {}
            self._positions_memo = (self.positions, memo)
        return memo

    def layout_memo(self) -> dict[Any, Any]:
        """Like ``memo``, kept while no piece or place comes or goes and no property changes
        (moves, flips and rolls keep it): for the dice on the table, say."""
        layout, memo = self._layout_memo
        if layout != self.layout:
            memo = {}
            self._layout_memo = (self.layout, memo)
        return memo

    def mark(self) -> tuple[Any, ...]:
        """A mark to come back to with ``back_to`` once every change since is taken back."""
        return (
            self.version,
            self.positions,
            self.layout,
            self._memo,
            self._positions_memo,
            self._layout_memo,
        )

    def back_to(self, mark: tuple[Any, ...]) -> None:
        """The table is exactly as it was at ``mark`` (each command since undone by its inverse):
        its version and what its memos held then are good again. Only for that case."""
        (
            self.version,
            self.positions,
            self.layout,
            self._memo,
            self._positions_memo,
            self._layout_memo,
        ) = mark

    # ---- looking things up -------------------------------------------------
    def piece(self, pid: str) -> Piece:
        try:
            return self.pieces[pid]
        except KeyError:
            raise UnknownId(f"there is no piece {pid!r} on the table") from None

    def place(self, place_id: str) -> Place:
        try:
            return self.places[place_id]
        except KeyError:
            raise UnknownId(f"there is no place {place_id!r} on the table") from None

    def seat(self, seat_id: str) -> Seat:
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        raise UnknownId(f"there is no seat {seat_id!r} at the table")

    def index_of(self, pid: str) -> int:
        piece = self.pieces[pid]
        return self.places[piece.place].contents.index(pid)

    def contents(self, place_id: str, spot: str | None = None) -> list[str]:
        """Ids in a place (in order), or only those in one of its spots."""
        place = self.places[place_id]
        if spot is None:
            return list(place.contents)
        pieces = self.pieces
        return [pid for pid in place.contents if pieces[pid].spot == spot]

    def top(self, place_id: str) -> str | None:
        contents = self.places[place_id].contents
        return contents[-1] if contents else None

    def regions_of(self, pid: str) -> Place | None:
        """The regions place a piece carries, if any (it shares the piece's id)."""
        place = self.places.get(pid)
        return place if place is not None and place.parent == pid else None

    def ancestors(self, place_id: str) -> list[str]:
        """Piece ids that carry this place, innermost first (a cube on a card in a tableau)."""
        chain: list[str] = []
        place = self.places.get(place_id)
        while place is not None and place.parent is not None:
            chain.append(place.parent)
            parent = self.pieces.get(place.parent)
            place = self.places.get(parent.place) if parent is not None else None
        return chain

    def tally(self) -> Counter[tuple[str, str | None]]:
        """How many pieces there are of each (kind, owner): the conservation count."""
        return Counter((p.kind, p.owner) for p in self.pieces.values())

    # ---- serialization ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [s.to_dict() for s in self.seats],
            "places": [p.to_dict() for p in self.places.values()],
            "pieces": [p.to_dict() for p in self.pieces.values()],
            "counters": dict(self.counters),
        }

    @classmethod
    def from_dict(cls, d: Any) -> TableState:
        if not isinstance(d, dict):
            raise FormatError("a table state must be an object")
        try:
            state = cls([Seat.from_dict(s) for s in d.get("seats", [])])
            places, pieces = d.get("places", []), d.get("pieces", [])
            if len(places) > MAX_PLACES or len(pieces) > MAX_PIECES:
                raise FormatError(
                    f"a table holds at most {MAX_PLACES:,} places and {MAX_PIECES:,} pieces"
                    f" (the limits), not {len(places):,} and {len(pieces):,}"
                )
            for pd in places:
                place = Place.from_spec(pd, pd.get("contents", []))
                state.places[place.id] = place
            for rec in pieces:
                piece = Piece.from_record(rec)
                if piece.x is not None and not (layout_number(piece.x) and layout_number(piece.y)):
                    raise FormatError(
                        f"the piece {piece.id!r:.40}: 'x' and 'y' must each be {LAYOUT_BOUND_TEXT}"
                    )
                state.pieces[piece.id] = piece
            state.counters = dict(d.get("counters", {}))
        except (KeyError, TypeError, AttributeError) as exc:
            raise FormatError(f"malformed table state: {exc}") from None
        problem = state.consistency_problem()
        if problem:
            raise FormatError(f"inconsistent table state: {problem}")
        return state

    def copy(self) -> TableState:
        """An independent copy (pieces, places and their lists and properties copied; board specs shared)."""
        other = TableState(self.seats)
        other.counters = copy.deepcopy(self.counters)
        for pid, piece in self.pieces.items():
            other.pieces[pid] = piece.copy()
        for place_id, place in self.places.items():
            other.places[place_id] = place.copy()
        return other

    def digest(self) -> str:
        """A sha256 of the canonical state: equal tables have equal digests."""
        return digest_of(self.to_dict())

    def consistency_problem(self) -> str | None:
        """Check that every piece lies where its place says; None when all is well."""
        seen: set[str] = set()
        for place in self.places.values():
            for pid in place.contents:
                piece = self.pieces.get(pid)
                if piece is None:
                    return f"place {place.id!r} lists unknown piece {pid!r}"
                if pid in seen:
                    return f"piece {pid!r} lies in two places"
                seen.add(pid)
                if piece.place != place.id:
                    return f"piece {pid!r} says it is in {piece.place!r} but lies in {place.id!r}"
                if not place.has_spot(piece.spot):
                    return f"piece {pid!r} is on spot {piece.spot!r}, which {place.id!r} lacks"
            if place.parent is not None and place.parent not in self.pieces:
                return f"place {place.id!r} is carried by unknown piece {place.parent!r}"
        missing = set(self.pieces) - seen
        if missing:
            return f"piece {sorted(missing)[0]!r} lies in no place"
        return None
