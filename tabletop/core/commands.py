"""Commands: the only way the table changes.

A command is a frozen record of what it changes, old and new, so that its
inverse is exact and replaying it never needs to recompute anything (a roll
stores its faces, a shuffle its order). ``apply`` first checks that the table
is what the command expects and raises CommandError otherwise, leaving the
table untouched; then it changes the table.

Commands are built against a state by the helpers in actions.py, which fill in
the old values; they serialize to plain JSON objects with an ``op`` field.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .errors import CommandError, FormatError
from .findings import Policy
from .limits import LAYOUT_BOUND_TEXT, MAX_PIECES, MAX_PLACES, layout_number
from .pieces import Piece
from .places import SPOTTED_KINDS, Place
from .state import TableState
from .textsafe import quoted


class Where(NamedTuple):
    """A position: a place, an index in its list, and a spot or x, y where the place has them."""

    place: str
    index: int
    spot: str | None = None
    x: float | None = None
    y: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"place": self.place, "index": self.index}
        if self.spot is not None:
            d["spot"] = self.spot
        if self.x is not None:
            d["x"] = self.x
            d["y"] = self.y
        return d

    @classmethod
    def from_dict(cls, d: Any, what: str) -> Where:
        try:
            place, index = d["place"], d["index"]
        except (KeyError, TypeError):
            raise FormatError(f"{what} must be an object with 'place' and 'index'") from None
        if type(place) is not str or type(index) is not int:
            raise FormatError(f"{what} needs a text 'place' and a whole-number 'index'")
        spot, x, y = d.get("spot"), d.get("x"), d.get("y")
        if spot is not None and type(spot) is not str:
            raise FormatError(f"{what}: 'spot' must be text")
        if x is not None or y is not None:
            for v in (x, y):
                if not layout_number(v):
                    raise FormatError(
                        f"{what}: 'x' and 'y' must go together, each {LAYOUT_BOUND_TEXT}"
                    )
        return cls(place, index, spot, x, y)

    def describe(self) -> str:
        if self.spot is not None:
            return f"{self.place}/{self.spot}"
        if self.x is not None:
            return f"{self.place} at ({self.x:g}, {self.y:g})"
        return self.place


class Names:
    """How a command's words name what it acts on. These plain names are the ids; a module's
    reader (tabletop/modules/words.py) names pieces by kind, owner or card, places by label
    and seats by the names given at the start of the game."""

    def piece(self, pid: str) -> str:
        return pid

    def place(self, place_id: str) -> str:
        return place_id

    def seat(self, seat: str) -> str:
        return seat

    def where(self, where: Where) -> str:
        if where.spot is not None:
            return self.spot(where.place, where.spot)
        if where.x is not None:
            return f"{self.place(where.place)} at ({where.x:g}, {where.y:g})"
        return self.place(where.place)

    def spot(self, place_id: str, spot: str) -> str:
        return f"{place_id}/{spot}"

    def text(self, text: str) -> str:
        """Words a game wrote (a label, a finding), as read: here, as written."""
        return text


PLAIN = Names()


class Touched:
    """What a command changed: the ids a view redraws."""

    __slots__ = ("pieces", "places", "counters")

    def __init__(self) -> None:
        self.pieces: set[str] = set()
        self.places: set[str] = set()
        self.counters: set[str] = set()


_REGISTRY: dict[str, type[Command]] = {}


def _text(d: dict[str, Any], key: str, op: str, optional: bool = False) -> Any:
    value = d.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise FormatError(f"command '{op}': field '{key}' must be text")
    return value


def piece_record(record: Any, what: str) -> dict[str, Any]:
    """A piece's record read from a file (Piece.record's fields), or FormatError naming what
    is wrong: a text id and kind; an owner that is text; a face up or down; a whole-number
    rotation; properties that are a table. The window and the snapshots draw what a record
    says (an owner's colour, a label), so nothing of another type may reach them."""
    if (
        not isinstance(record, dict)
        or not isinstance(record.get("id"), str)
        or not isinstance(record.get("kind"), str)
    ):
        raise FormatError(f"{what} needs a text 'id' and 'kind'")
    owner = record.get("owner")
    if owner is not None and not isinstance(owner, str):
        raise FormatError(f"{what}: 'owner' must be text, not {quoted(owner, 40)}")
    if not isinstance(record.get("face_up", True), bool):
        raise FormatError(f"{what}: 'face_up' must be true or false")
    rotation = record.get("rotation", 0)
    if type(rotation) is not int:
        raise FormatError(f"{what}: 'rotation' must be a whole number, not {quoted(rotation, 40)}")
    props = record.get("props")
    if props is not None and not isinstance(props, dict):
        raise FormatError(f"{what}: 'props' must be a table, not {quoted(props, 40)}")
    return record


def _field(d: dict[str, Any], key: str, op: str) -> Any:
    if key not in d:
        raise FormatError(f"command '{op}': missing field '{key}'")
    return d[key]


def _counting(apply: Any, reshapes: bool, counters_only: bool) -> Any:
    """``apply`` that first moves the table's version on (TableState.memo is then stale); but
    for a command that only sets counters, its positions (TableState.positions_memo); and for
    a command that adds or removes pieces or places or changes their properties, its layout
    version (TableState.layout_memo)."""
    if reshapes:

        def counted(self: Command, state: TableState) -> None:
            state.version += 1
            state.positions += 1
            state.layout += 1
            apply(self, state)

    elif counters_only:

        def counted(self: Command, state: TableState) -> None:
            state.version += 1
            apply(self, state)

    else:

        def counted(self: Command, state: TableState) -> None:
            state.version += 1
            state.positions += 1
            apply(self, state)

    counted.__wrapped__ = apply  # type: ignore[attr-defined]
    counted.__doc__ = apply.__doc__
    counted.__name__ = apply.__name__
    return counted


class Command(ABC):
    """Base of all commands."""

    __slots__ = ()
    op: ClassVar[str] = ""
    reshapes: ClassVar[bool] = False  # adds or removes pieces or places, or changes properties
    counters_only: ClassVar[bool] = False  # sets counters and nothing else
    # its ``apply`` moves the table's versions on itself, as ``_counting`` would (a Move, the
    # commonest command: one call less)
    counts_itself: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if (
            "op" in cls.__dict__ and cls.op
        ):  # a subclass that keeps its parent's op is not a new command
            _REGISTRY[cls.op] = cls
        apply = cls.__dict__.get("apply")
        if (
            apply is not None
            and not cls.__dict__.get("counts_itself", False)  # declared by this class itself
            and not getattr(apply, "__isabstractmethod__", False)
            and not hasattr(apply, "__wrapped__")  # dataclass(slots=True) remakes the class
        ):
            cls.apply = _counting(apply, cls.reshapes, cls.counters_only)  # type: ignore[method-assign]

    @abstractmethod
    def apply(self, state: TableState) -> None:
        """Check that the table is as expected, then change it."""

    @abstractmethod
    def inverse(self) -> Command:
        """The command that exactly undoes this one."""

    def take_back(self, state: TableState) -> None:
        """Undo this command, applied to ``state`` just before with nothing since: a
        checker trying it out. What ``apply`` checked holds, so a command may skip the
        checks; the table's versions are left for ``TableState.back_to`` to restore."""
        self.inverse().apply(state)

    def touch(self, touched: Touched) -> None:  # noqa: B027 - commands that change nothing keep it
        """Add what this command changes to ``touched``."""

    def body(self) -> dict[str, Any]:
        return {}

    def to_dict(self) -> dict[str, Any]:
        d = {"op": self.op}
        d.update(self.body())
        return d

    @classmethod
    @abstractmethod
    def parse(cls, d: dict[str, Any]) -> Command:
        """Rebuild the command from its JSON object (``op`` already matched)."""

    def describe(self, names: Names = PLAIN) -> str:
        """The command in words, naming things as ``names`` says (by default: ids)."""
        return self.op

    random: ClassVar[bool] = False  # carries a random outcome (a roll, a shuffle)


def command_from_dict(d: Any) -> Command:
    """Rebuild a command from its JSON object, naming what is wrong if it cannot."""
    if not isinstance(d, dict):
        raise FormatError("a command must be a JSON object")
    op = d.get("op")
    cls = _REGISTRY.get(op) if isinstance(op, str) else None
    if cls is None:
        raise FormatError(f"unknown command {quoted(op)}")
    try:
        return cls.parse(d)
    except FormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FormatError(f"command '{op}' is malformed: {exc}") from None


def _piece(state: TableState, pid: str) -> Piece:
    piece = state.pieces.get(pid)
    if piece is None:
        raise CommandError(f"there is no piece {quoted(pid)} on the table")
    return piece


def _place(state: TableState, place_id: str) -> Place:
    place = state.places.get(place_id)
    if place is None:
        raise CommandError(f"there is no place {quoted(place_id)} on the table")
    return place


def _check_target(state: TableState, pid: str | None, where: Where, moving_within: bool) -> Place:
    """Check that a piece may be put at ``where``; return the place."""
    # a Where's fields taken at once: each named field read costs a look-up on its class
    place_id, index, spot, x, _y = where
    place = state.places.get(place_id)  # _place and Place.has_spot, read here: every move
    if place is None:
        raise CommandError(f"there is no place {quoted(place_id)} on the table")
    if not (spot in place._spot_set if place.kind in SPOTTED_KINDS else spot is None):
        if spot is None:
            raise CommandError(f"{quoted(place.id)} is a {place.kind} place: say which spot")
        raise CommandError(f"{quoted(place.id)} has no spot {quoted(spot)}")
    if x is not None and place.kind != "area":
        raise CommandError(
            f"{quoted(place.id)} is a {place.kind}, not a free area: it takes no x, y"
        )
    size = len(place.contents) - (1 if moving_within else 0)
    if not 0 <= index <= size:
        raise CommandError(f"position {index} is outside {quoted(place.id)} (0 to {size})")
    if place.capacity is not None:
        if place.kind in SPOTTED_KINDS:
            held = sum(
                1 for other in place.contents if other != pid and state.pieces[other].spot == spot
            )
            where_text = f"{place.id}/{spot}"
        else:
            held = size
            where_text = place.id
        if held >= place.capacity:
            raise CommandError(f"{where_text} is full (it holds {place.capacity})")
    if (
        pid is not None
        and place.parent is not None
        and pid in state.places  # only a piece carrying regions (they share its id) carries
        and pid in state.ancestors(place.id)
    ):
        raise CommandError(f"{quoted(pid)} cannot be put onto itself or onto what it carries")
    return place


def _check_at(state: TableState, pid: str, where: Where) -> Piece:
    piece = state.pieces.get(pid)  # _piece, read here: every move
    if piece is None:
        raise CommandError(f"there is no piece {quoted(pid)} on the table")
    place_id, index, spot, x, y = where  # at once, as in _check_target
    if piece.place != place_id or piece.spot != spot or piece.x != x or piece.y != y:
        raise CommandError(
            f"{quoted(pid)} is not at {where.describe()} (it is in {quoted(piece.place)})"
        )
    contents = state.places[place_id].contents
    if not 0 <= index < len(contents) or contents[index] != pid:
        raise CommandError(f"{quoted(pid)} is not at position {index} of {quoted(place_id)}")
    return piece


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Take a piece from one position and put it at another."""

    piece: str
    src: Where
    dst: Where
    op: ClassVar[str] = "move"
    counts_itself: ClassVar[bool] = True

    def apply(self, state: TableState) -> None:
        state.version += 1  # as _counting does
        state.positions += 1
        pid, src, dst = self.piece, self.src, self.dst
        piece = _check_at(state, pid, src)
        place, index, spot, x, y = dst  # at once, as in _check_target
        target = _check_target(state, pid, dst, place == src[0])
        del state.places[src[0]].contents[src[1]]  # src.place, src.index
        target.contents.insert(index, pid)
        piece.place, piece.spot, piece.x, piece.y = place, spot, x, y

    def inverse(self) -> Command:
        return Move(self.piece, self.dst, self.src)

    def take_back(self, state: TableState) -> None:
        pid, dst = self.piece, self.dst
        place, index, spot, x, y = self.src  # at once, as in _check_target
        places = state.places
        del places[dst[0]].contents[dst[1]]  # dst.place, dst.index: where apply put it
        places[place].contents.insert(index, pid)
        piece = state.pieces[pid]
        piece.place, piece.spot, piece.x, piece.y = place, spot, x, y

    def touch(self, touched: Touched) -> None:
        touched.pieces.add(self.piece)
        touched.places.add(self.src.place)
        touched.places.add(self.dst.place)

    def body(self) -> dict[str, Any]:
        return {"piece": self.piece, "from": self.src.to_dict(), "to": self.dst.to_dict()}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Move:
        return cls(
            _text(d, "piece", cls.op),
            Where.from_dict(_field(d, "from", cls.op), "command 'move': 'from'"),
            Where.from_dict(_field(d, "to", cls.op), "command 'move': 'to'"),
        )

    def describe(self, names: Names = PLAIN) -> str:
        what = names.piece(self.piece)
        if self.src.place == self.dst.place and self.src.spot == self.dst.spot:
            return f"moved {what} within {names.where(self.dst)}"
        return f"moved {what} from {names.where(self.src)} to {names.where(self.dst)}"


@dataclass(frozen=True, slots=True)
class AddPiece(Command):
    """Put a new piece on the table."""

    reshapes: ClassVar[bool] = True

    piece: dict[str, Any]
    at: Where
    op: ClassVar[str] = "add"

    def apply(self, state: TableState) -> None:
        pid = self.piece["id"]
        if pid in state.pieces:
            raise CommandError(f"there is already a piece {quoted(pid)}")
        if len(state.pieces) >= MAX_PIECES:
            raise CommandError(f"a table holds at most {MAX_PIECES:,} pieces (the limit)")
        _check_target(state, None, self.at, False)
        new = Piece.from_record(self.piece)
        new.place, new.spot, new.x, new.y = self.at.place, self.at.spot, self.at.x, self.at.y
        state.pieces[pid] = new
        state.places[self.at.place].contents.insert(self.at.index, pid)

    def inverse(self) -> Command:
        return RemovePiece(self.piece, self.at)

    def touch(self, touched: Touched) -> None:
        touched.pieces.add(self.piece["id"])
        touched.places.add(self.at.place)

    def body(self) -> dict[str, Any]:
        return {"piece": self.piece, "at": self.at.to_dict()}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> AddPiece:
        record = piece_record(_field(d, "piece", cls.op), f"command '{cls.op}': 'piece'")
        return cls(record, Where.from_dict(_field(d, "at", cls.op), f"command '{cls.op}': 'at'"))

    def describe(self, names: Names = PLAIN) -> str:
        what = names.piece(self.piece["id"])
        if names is PLAIN:
            what = f"{self.piece['kind']} {what}"
        return f"added {what} to {names.where(self.at)}"


@dataclass(frozen=True, slots=True)
class RemovePiece(Command):
    """Take a piece off the table for good (deletion, not a discard)."""

    reshapes: ClassVar[bool] = True

    piece: dict[str, Any]
    at: Where
    op: ClassVar[str] = "remove"

    def apply(self, state: TableState) -> None:
        pid = self.piece["id"]
        current = _check_at(state, pid, self.at)
        if current.record() != self.piece:
            raise CommandError(f"{quoted(pid)} has changed since this removal was made")
        if state.regions_of(pid) is not None:
            raise CommandError(f"{quoted(pid)} carries regions: remove them first")
        del state.places[self.at.place].contents[self.at.index]
        del state.pieces[pid]

    def inverse(self) -> Command:
        return AddPiece(self.piece, self.at)

    def touch(self, touched: Touched) -> None:
        touched.pieces.add(self.piece["id"])
        touched.places.add(self.at.place)

    body = AddPiece.body
    parse = AddPiece.__dict__["parse"]

    def describe(self, names: Names = PLAIN) -> str:
        what = names.piece(self.piece["id"])
        if names is PLAIN:
            what = f"{self.piece['kind']} {what}"
        return f"removed {what} from {names.where(self.at)}"


@dataclass(frozen=True, slots=True)
class AddPlace(Command):
    """Open a new place on the table (a tableau, a board, the regions of a card)."""

    reshapes: ClassVar[bool] = True

    spec: dict[str, Any]
    op: ClassVar[str] = "add_place"

    def apply(self, state: TableState) -> None:
        pid = self.spec.get("id")
        if pid in state.places:
            raise CommandError(f"there is already a place {quoted(pid)}")
        if len(state.places) >= MAX_PLACES:
            raise CommandError(f"a table holds at most {MAX_PLACES:,} places (the limit)")
        try:
            place = Place.from_spec(self.spec)
        except FormatError as exc:
            raise CommandError(str(exc)) from None
        if place.parent is not None:
            _piece(state, place.parent)
            if place.id != place.parent:
                raise CommandError(f"the regions of {quoted(place.parent)} must share its id")
        elif pid in state.pieces:
            raise CommandError(f"{quoted(pid)} is already the id of a piece")
        state.places[place.id] = place

    def inverse(self) -> Command:
        return RemovePlace(self.spec)

    def touch(self, touched: Touched) -> None:
        touched.places.add(self.spec["id"])

    def body(self) -> dict[str, Any]:
        return {"place": self.spec}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> AddPlace:
        spec = _field(d, "place", cls.op)
        if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
            raise FormatError(f"command '{cls.op}': 'place' needs a text 'id'")
        return cls(spec)

    def describe(self, names: Names = PLAIN) -> str:
        if names is PLAIN:
            return f"opened {self.spec.get('kind')} {self.spec['id']}"
        return f"opened {self.spec.get('label') or names.place(self.spec['id'])}"


@dataclass(frozen=True, slots=True)
class RemovePlace(Command):
    """Close an empty place."""

    reshapes: ClassVar[bool] = True

    spec: dict[str, Any]
    op: ClassVar[str] = "remove_place"

    def apply(self, state: TableState) -> None:
        place = _place(state, self.spec["id"])
        if place.contents:
            raise CommandError(f"{quoted(place.id)} is not empty")
        if place.spec() != Place.from_spec(self.spec).spec():
            raise CommandError(f"{quoted(place.id)} has changed since this was made")
        del state.places[place.id]

    def inverse(self) -> Command:
        return AddPlace(self.spec)

    touch = AddPlace.touch
    body = AddPlace.body
    parse = AddPlace.__dict__["parse"]

    def describe(self, names: Names = PLAIN) -> str:
        if names is PLAIN:
            return f"closed {self.spec.get('kind')} {self.spec['id']}"
        return f"closed {self.spec.get('label') or names.place(self.spec['id'])}"


def _check_old(state: TableState, pid: str, attr: str, old: Any) -> Piece:
    piece = _piece(state, pid)
    if getattr(piece, attr) != old:
        raise CommandError(
            f"{quoted(pid)} has {attr} {quoted(getattr(piece, attr))}, not {quoted(old)}"
        )
    return piece


@dataclass(frozen=True, slots=True)
class Flip(Command):
    """Turn a piece face up or face down."""

    piece: str
    old: bool
    new: bool
    op: ClassVar[str] = "flip"

    def apply(self, state: TableState) -> None:
        _check_old(state, self.piece, "face_up", self.old).face_up = self.new

    def inverse(self) -> Command:
        return Flip(self.piece, self.new, self.old)

    def touch(self, touched: Touched) -> None:
        touched.pieces.add(self.piece)

    def body(self) -> dict[str, Any]:
        return {"piece": self.piece, "old": self.old, "new": self.new}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Flip:
        old, new = _field(d, "old", cls.op), _field(d, "new", cls.op)
        if not isinstance(old, bool) or not isinstance(new, bool):
            raise FormatError("command 'flip': 'old' and 'new' must be true or false")
        return cls(_text(d, "piece", cls.op), old, new)

    def describe(self, names: Names = PLAIN) -> str:
        return f"turned {names.piece(self.piece)} face {'up' if self.new else 'down'}"


@dataclass(frozen=True, slots=True)
class Rotate(Command):
    """Turn a piece in steps of 90 degrees (0 to 3)."""

    piece: str
    old: int
    new: int
    op: ClassVar[str] = "rotate"

    def apply(self, state: TableState) -> None:
        if self.new not in (0, 1, 2, 3):
            raise CommandError(f"rotation must be 0 to 3 quarter turns, not {quoted(self.new)}")
        _check_old(state, self.piece, "rotation", self.old).rotation = self.new

    def inverse(self) -> Command:
        return Rotate(self.piece, self.new, self.old)

    touch = Flip.touch
    body = Flip.body

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Rotate:
        old, new = _field(d, "old", cls.op), _field(d, "new", cls.op)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (old, new)):
            raise FormatError("command 'rotate': 'old' and 'new' must be whole numbers")
        return cls(_text(d, "piece", cls.op), old, new)

    def describe(self, names: Names = PLAIN) -> str:
        return f"rotated {names.piece(self.piece)} to {self.new * 90}°"


@dataclass(frozen=True, slots=True)
class Roll(Command):
    """Roll dice: the faces they show afterwards are part of the command."""

    pieces: tuple[str, ...]
    old: tuple[Any, ...]
    new: tuple[Any, ...]
    forced: tuple[bool, ...] = ()
    op: ClassVar[str] = "roll"
    random: ClassVar[bool] = True

    def apply(self, state: TableState) -> None:
        if not (len(self.pieces) == len(self.old) == len(self.new)):
            raise CommandError("a roll needs one old and one new face per die")
        if len(set(self.pieces)) != len(self.pieces):
            raise CommandError("a roll names the same die twice")
        dice = [_piece(state, pid) for pid in self.pieces]
        for die, old, new in zip(dice, self.old, self.new, strict=True):
            if die.value != old:
                raise CommandError(f"{quoted(die.id)} shows {quoted(die.value)}, not {quoted(old)}")
            faces = die.props.get("faces")
            # None is a die not rolled yet: undoing its first roll puts it back to None
            if faces is not None and new is not None and new not in faces:
                raise CommandError(f"{quoted(die.id)} has no face {quoted(new)}")
        for die, new in zip(dice, self.new, strict=True):
            die.value = new

    def inverse(self) -> Command:
        return Roll(self.pieces, self.new, self.old, self.forced)

    def touch(self, touched: Touched) -> None:
        touched.pieces.update(self.pieces)

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "pieces": list(self.pieces),
            "old": list(self.old),
            "new": list(self.new),
        }
        if any(self.forced):
            d["forced"] = list(self.forced)
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Roll:
        lists = [_field(d, k, cls.op) for k in ("pieces", "old", "new")]
        if not all(isinstance(v, list) for v in lists):
            raise FormatError("command 'roll': 'pieces', 'old' and 'new' must be lists")
        forced = d.get("forced", [])
        if not isinstance(forced, list) or not all(isinstance(f, bool) for f in forced):
            raise FormatError("command 'roll': 'forced' must be a list of true/false")
        return cls(tuple(lists[0]), tuple(lists[1]), tuple(lists[2]), tuple(forced))

    def describe(self, names: Names = PLAIN) -> str:
        faces = ", ".join(
            f"{names.piece(pid)}={new}{' (forced)' if i < len(self.forced) and self.forced[i] else ''}"
            for i, (pid, new) in enumerate(zip(self.pieces, self.new, strict=True))
        )
        return f"rolled {faces}"


@dataclass(frozen=True, slots=True)
class Shuffle(Command):
    """Put a place's contents into a new order, recorded in full."""

    place: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    forced: bool = False
    op: ClassVar[str] = "shuffle"
    random: ClassVar[bool] = True

    def apply(self, state: TableState) -> None:
        place = _place(state, self.place)
        if tuple(place.contents) != self.old:
            raise CommandError(f"{quoted(self.place)} is not in the order this shuffle expects")
        if sorted(self.new) != sorted(self.old):
            raise CommandError("a shuffle must keep the same pieces")
        place.contents[:] = self.new

    def inverse(self) -> Command:
        return Shuffle(self.place, self.new, self.old, self.forced)

    def touch(self, touched: Touched) -> None:
        touched.places.add(self.place)
        touched.pieces.update(self.new)

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"place": self.place, "old": list(self.old), "new": list(self.new)}
        if self.forced:
            d["forced"] = True
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Shuffle:
        old, new = _field(d, "old", cls.op), _field(d, "new", cls.op)
        if not isinstance(old, list) or not isinstance(new, list):
            raise FormatError("command 'shuffle': 'old' and 'new' must be lists")
        return cls(_text(d, "place", cls.op), tuple(old), tuple(new), bool(d.get("forced", False)))

    def describe(self, names: Names = PLAIN) -> str:
        return f"shuffled {names.place(self.place)} ({len(self.new)} pieces){' (forced order)' if self.forced else ''}"


@dataclass(frozen=True, slots=True)
class SetProperty(Command):
    """Set a free property of a piece (or, with ``on_place``, of a place). None means unset."""

    reshapes: ClassVar[bool] = True

    target: str
    key: str
    old: Any
    new: Any
    on_place: bool = False
    op: ClassVar[str] = "set"

    def apply(self, state: TableState) -> None:
        owner = _place(state, self.target) if self.on_place else _piece(state, self.target)
        if owner.props.get(self.key) != self.old:
            raise CommandError(
                f"{quoted(self.target)}.{self.key} is {quoted(owner.props.get(self.key))}, not {quoted(self.old)}"
            )
        if self.new is None:
            owner.props.pop(self.key, None)
        else:
            owner.props[self.key] = self.new

    def inverse(self) -> Command:
        return SetProperty(self.target, self.key, self.new, self.old, self.on_place)

    def touch(self, touched: Touched) -> None:
        (touched.places if self.on_place else touched.pieces).add(self.target)

    def body(self) -> dict[str, Any]:
        d = {"target": self.target, "key": self.key, "old": self.old, "new": self.new}
        if self.on_place:
            d["on_place"] = True
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> SetProperty:
        return cls(
            _text(d, "target", cls.op),
            _text(d, "key", cls.op),
            d.get("old"),
            d.get("new"),
            bool(d.get("on_place", False)),
        )

    def describe(self, names: Names = PLAIN) -> str:
        target = names.place(self.target) if self.on_place else names.piece(self.target)
        if names is PLAIN:
            return f"set {target}.{self.key} to {quoted(self.new)}"
        return f"set {self.key} of {target} to {quoted(self.new)}"


@dataclass(frozen=True, slots=True)
class SetOwner(Command):
    """Give a piece to a seat (or to nobody)."""

    reshapes: ClassVar[bool] = True

    piece: str
    old: str | None
    new: str | None
    op: ClassVar[str] = "owner"

    def apply(self, state: TableState) -> None:
        _check_old(state, self.piece, "owner", self.old).owner = self.new

    def inverse(self) -> Command:
        return SetOwner(self.piece, self.new, self.old)

    touch = Flip.touch
    body = Flip.body

    @classmethod
    def parse(cls, d: dict[str, Any]) -> SetOwner:
        return cls(
            _text(d, "piece", cls.op), _text(d, "old", cls.op, True), _text(d, "new", cls.op, True)
        )

    def describe(self, names: Names = PLAIN) -> str:
        return f"gave {names.piece(self.piece)} to {names.seat(self.new) if self.new else 'nobody'}"


@dataclass(frozen=True, slots=True)
class SetCounter(Command):
    """Set a named table value (a turn counter, the phase). None means unset."""

    name: str
    old: Any
    new: Any
    op: ClassVar[str] = "counter"
    counters_only: ClassVar[bool] = True

    def apply(self, state: TableState) -> None:
        if state.counters.get(self.name) != self.old:
            raise CommandError(
                f"{self.name} is {quoted(state.counters.get(self.name))}, not {quoted(self.old)}"
            )
        if self.new is None:
            state.counters.pop(self.name, None)
        else:
            state.counters[self.name] = self.new

    def inverse(self) -> Command:
        return SetCounter(self.name, self.new, self.old)

    def touch(self, touched: Touched) -> None:
        touched.counters.add(self.name)

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "old": self.old, "new": self.new}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> SetCounter:
        return cls(_text(d, "name", cls.op), d.get("old"), d.get("new"))

    def describe(self, names: Names = PLAIN) -> str:
        return f"set {self.name} to {quoted(self.new)}"


@dataclass(frozen=True, slots=True)
class Peek(Command):
    """A seat looks at pieces without changing anything; logged so everyone knows it happened."""

    seat: str
    place: str
    pieces: tuple[str, ...]
    op: ClassVar[str] = "peek"

    def apply(self, state: TableState) -> None:
        place = _place(state, self.place)
        for pid in self.pieces:
            if pid not in state.pieces or state.pieces[pid].place != place.id:
                raise CommandError(f"{quoted(pid)} is not in {quoted(self.place)}")

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        return {"seat": self.seat, "place": self.place, "pieces": list(self.pieces)}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Peek:
        pieces = _field(d, "pieces", cls.op)
        if not isinstance(pieces, list):
            raise FormatError("command 'peek': 'pieces' must be a list")
        return cls(_text(d, "seat", cls.op), _text(d, "place", cls.op), tuple(pieces))

    def describe(self, names: Names = PLAIN) -> str:
        return (
            f"{names.seat(self.seat)} looked at {len(self.pieces)} piece(s)"
            f" in {names.place(self.place)}"
        )


@dataclass(frozen=True, slots=True)
class Note(Command):
    """A line of text in the log (a ruling, a remark); changes nothing."""

    text: str
    op: ClassVar[str] = "note"

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        return {"text": self.text}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Note:
        return cls(_text(d, "text", cls.op))

    def describe(self, names: Names = PLAIN) -> str:
        return f"noted: {self.text}"


@dataclass(frozen=True, slots=True)
class SetPolicy(Command):
    """The rules assistant's enforcement from here on (off, advisory or strict, with any
    house rules per rule or section). Changes nothing on the table; logged as a 'policy'
    entry so a game tells how it was refereed at every point, and never undone."""

    policy: dict[str, Any]
    op: ClassVar[str] = "policy"
    counters_only: ClassVar[bool] = True  # touches no piece: positions and layout stand

    @classmethod
    def of(cls, policy: Policy) -> SetPolicy:
        return cls(policy.to_dict())

    def to_policy(self) -> Policy:
        return Policy.from_dict(self.policy)

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        return {"policy": self.policy}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> SetPolicy:
        return cls(Policy.from_dict(_field(d, "policy", cls.op)).to_dict())

    def __hash__(self) -> int:
        return hash(repr(self.policy))

    def describe(self, names: Names = PLAIN) -> str:
        return f"rules assistant: {self.to_policy().describe()}"


@dataclass(frozen=True, slots=True)
class Compound(Command):
    """Several commands applied as one: one log line, one undo step."""

    label: str
    commands: tuple[Command, ...]
    procedure: str | None = None
    op: ClassVar[str] = "compound"

    def apply(self, state: TableState) -> None:
        done: list[Command] = []
        try:
            for command in self.commands:
                command.apply(state)
                done.append(command)
        except Exception as exc:
            for command in reversed(done):
                command.inverse().apply(state)
            if isinstance(exc, CommandError):
                raise CommandError(f"{self.label}: step {len(done) + 1}: {exc}") from None
            raise

    def inverse(self) -> Command:
        return Compound(
            self.label, tuple([c.inverse() for c in reversed(self.commands)]), self.procedure
        )

    def take_back(self, state: TableState) -> None:
        for command in reversed(self.commands):
            command.take_back(state)

    def touch(self, touched: Touched) -> None:
        for command in self.commands:
            command.touch(touched)

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"label": self.label, "commands": [c.to_dict() for c in self.commands]}
        if self.procedure:
            d["procedure"] = self.procedure
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Compound:
        commands = _field(d, "commands", cls.op)
        if not isinstance(commands, list):
            raise FormatError("command 'compound': 'commands' must be a list")
        return cls(
            _text(d, "label", cls.op),
            tuple(command_from_dict(c) for c in commands),
            _text(d, "procedure", cls.op, True),
        )

    @property  # type: ignore[override]
    def random(self) -> bool:
        for command in self.commands:  # noqa: SIM110 - any(...) makes a generator: every entry asks
            if command.random:
                return True
        return False

    def describe(self, names: Names = PLAIN) -> str:
        rolls = [c.describe(names) for c in self.commands if isinstance(c, Roll)]
        extra = f" [{'; '.join(rolls)}]" if rolls else ""
        steps = len(self.commands)
        return f"{names.text(self.label)} ({steps} step{'' if steps == 1 else 's'}){extra}"


def touched_by(command: Command) -> Touched:
    touched = Touched()
    command.touch(touched)
    return touched


__all__ = [
    "AddPiece",
    "AddPlace",
    "Command",
    "Compound",
    "Flip",
    "Move",
    "Names",
    "Note",
    "Peek",
    "RemovePiece",
    "RemovePlace",
    "Roll",
    "Rotate",
    "SetCounter",
    "SetOwner",
    "SetPolicy",
    "SetProperty",
    "Shuffle",
    "PLAIN",
    "Touched",
    "Where",
    "command_from_dict",
    "touched_by",
]
