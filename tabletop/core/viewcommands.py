"""Commands found only in a seat's view of a game (tabletop/persist/seatview.py writes them).

A seat's view holds a piece it may not see as an anonymous piece (an id such as
``hidden-17``, its back and nothing of its face). Three commands make such a view:

- ``Replace`` puts one piece in another's stead where it lies: an anonymous piece shown
  for what it is when the seat comes to see it, or a piece seen so far hidden again under
  a fresh anonymous id. A piece carrying regions (a card's ranks) takes them along.
- ``Viewed`` is one step of the game as the seat saw it: the step's own command on the
  view's pieces, then the replacements it led to (and, for a peek, what the peeker saw).
  Its words are the step's, naming a piece by what it was shown to be.
- ``Unseen`` stands for a step the seat cannot see at all (a property of a hidden piece
  changed): it changes nothing in the view and keeps the count of a procedure's steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .commands import (
    PLAIN,
    Command,
    Compound,
    Names,
    Touched,
    Where,
    _field,
    _text,
    command_from_dict,
    piece_record,
)
from .errors import CommandError, FormatError
from .pieces import Piece
from .places import Place
from .state import TableState


def _record_of(d: Any, what: str) -> dict[str, Any]:
    return piece_record(d, f"command 'replace': '{what}'")


def _regions_of(d: Any, what: str) -> dict[str, Any] | None:
    if d is None:
        return None
    if not isinstance(d, dict) or not isinstance(d.get("id"), str):
        raise FormatError(f"command 'replace': '{what}' must be a place with a text 'id'")
    return d


@dataclass(frozen=True, slots=True)
class Replace(Command):
    """Put the piece ``new`` where the piece ``old`` lies (same place, spot, position).

    ``old_regions`` and ``new_regions`` are the specs (without contents) of the regions
    place each carries, or None: what lies on the old piece's regions lies on the new one's.
    """

    reshapes: ClassVar[bool] = True

    old: dict[str, Any]
    new: dict[str, Any]
    old_regions: dict[str, Any] | None = None
    new_regions: dict[str, Any] | None = None
    op: ClassVar[str] = "replace"

    def apply(self, state: TableState) -> None:
        old_id, new_id = self.old["id"], self.new["id"]
        current = state.pieces.get(old_id)
        if current is None:
            raise CommandError(f"there is no piece {old_id!r} on the table")
        if current.record() != self.old:
            raise CommandError(f"{old_id!r} is not as this replacement expects")
        if new_id != old_id and (new_id in state.pieces or new_id in state.places):
            raise CommandError(f"there is already a piece or place {new_id!r}")
        regions = state.regions_of(old_id)
        if (regions.spec() if regions is not None else None) != self.old_regions:
            raise CommandError(f"the regions of {old_id!r} are not as this replacement expects")
        contents = list(regions.contents) if regions is not None else []
        if self.new_regions is None and contents:
            raise CommandError(f"{old_id!r} carries pieces: they need regions to lie on")
        new_place: Place | None = None
        if self.new_regions is not None:
            if self.new_regions.get("id") != new_id or self.new_regions.get("parent") != new_id:
                raise CommandError(f"the regions of {new_id!r} must share its id")
            try:
                new_place = Place.from_spec(self.new_regions, contents)
            except FormatError as exc:
                raise CommandError(str(exc)) from None
            for pid in contents:
                if not new_place.has_spot(state.pieces[pid].spot):
                    raise CommandError(f"{pid!r} lies on a region {new_id!r} lacks")
        piece = Piece.from_record(self.new)
        piece.place, piece.spot, piece.x, piece.y = (
            current.place,
            current.spot,
            current.x,
            current.y,
        )
        where = state.places[current.place].contents
        where[where.index(old_id)] = new_id
        del state.pieces[old_id]
        state.pieces[new_id] = piece
        if regions is not None:
            del state.places[old_id]
        if new_place is not None:
            state.places[new_id] = new_place
            for pid in contents:
                state.pieces[pid].place = new_id

    def inverse(self) -> Command:
        return Replace(self.new, self.old, self.new_regions, self.old_regions)

    def touch(self, touched: Touched) -> None:
        touched.pieces.update((self.old["id"], self.new["id"]))
        for regions in (self.old_regions, self.new_regions):
            if regions is not None:
                touched.places.add(regions["id"])

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"old": self.old, "new": self.new}
        if self.old_regions is not None:
            d["old_regions"] = self.old_regions
        if self.new_regions is not None:
            d["new_regions"] = self.new_regions
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Replace:
        return cls(
            _record_of(_field(d, "old", cls.op), "old"),
            _record_of(_field(d, "new", cls.op), "new"),
            _regions_of(d.get("old_regions"), "old_regions"),
            _regions_of(d.get("new_regions"), "new_regions"),
        )

    def describe(self, names: Names = PLAIN) -> str:
        return f"{names.piece(self.old['id'])} is now {names.piece(self.new['id'])}"


class _Through(Names):
    """``names``, but a piece id that a step replaced is named by what replaced it."""

    def __init__(self, names: Names, renamed: dict[str, str]) -> None:
        self._names = names
        self._renamed = renamed

    def piece(self, pid: str) -> str:
        return self._names.piece(self._renamed.get(pid, pid))

    def place(self, place_id: str) -> str:
        return self._names.place(self._renamed.get(place_id, place_id))

    def seat(self, seat: str) -> str:
        return self._names.seat(seat)

    def where(self, where: Where) -> str:
        renamed = self._renamed.get(where.place)
        return self._names.where(where._replace(place=renamed) if renamed else where)

    def spot(self, place_id: str, spot: str) -> str:
        return self._names.spot(self._renamed.get(place_id, place_id), spot)

    def text(self, text: str) -> str:
        return self._names.text(text)


@dataclass(frozen=True, slots=True)
class Viewed(Command):
    """A step as a seat saw it: ``command`` on the view's pieces, then ``then`` (the
    replacements it led to). ``peeked``: for the seat that peeked, the records of the pieces
    it looked at (they stay anonymous in its view: what was seen is not on the table)."""

    command: Command
    then: tuple[Command, ...] = ()
    peeked: tuple[dict[str, Any], ...] = ()
    first: tuple[Command, ...] = ()  # what the view needs before the step (a card's regions)
    op: ClassVar[str] = "viewed"

    def _all(self) -> tuple[Command, ...]:
        return (*self.first, self.command, *self.then)

    def apply(self, state: TableState) -> None:
        Compound("", self._all()).apply(state)

    def inverse(self) -> Command:
        return Compound("", tuple(c.inverse() for c in reversed(self._all())))

    def touch(self, touched: Touched) -> None:
        for command in self._all():
            command.touch(touched)

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"cmd": self.command.to_dict()}
        if self.first:
            d["first"] = [c.to_dict() for c in self.first]
        if self.then:
            d["then"] = [c.to_dict() for c in self.then]
        if self.peeked:
            d["peeked"] = list(self.peeked)
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Viewed:
        lists = [d.get(key, []) for key in ("first", "then", "peeked")]
        if not all(isinstance(v, list) for v in lists):
            raise FormatError("command 'viewed': 'first', 'then' and 'peeked' must be lists")
        first, then, peeked = lists
        return cls(
            command_from_dict(_field(d, "cmd", cls.op)),
            tuple(command_from_dict(c) for c in then),
            tuple(_record_of(p, "peeked") for p in peeked),
            tuple(command_from_dict(c) for c in first),
        )

    @property  # type: ignore[override]
    def random(self) -> bool:
        return self.command.random

    def describe(self, names: Names = PLAIN) -> str:
        renamed = {
            c.old["id"]: c.new["id"]
            for c in self.then
            if isinstance(c, Replace) and not c.new.get("props", {}).get("anonymous")
        }
        return self.command.describe(_Through(names, renamed) if renamed else names)


@dataclass(frozen=True, slots=True)
class Unseen(Command):
    """A step the seat could not see (``what``: its kind, e.g. 'set'); changes nothing."""

    what: str
    piece: str | None = None
    op: ClassVar[str] = "unseen"

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"what": self.what}
        if self.piece is not None:
            d["piece"] = self.piece
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Unseen:
        return cls(_text(d, "what", cls.op), _text(d, "piece", cls.op, True))

    def describe(self, names: Names = PLAIN) -> str:
        if self.what == "reveal":
            return "revealed the seed of the dice and shuffles (kept in the full game only)"
        if self.piece is not None:
            return f"changed {names.piece(self.piece)}"
        return "changed something hidden"


__all__ = ["Replace", "Unseen", "Viewed"]
