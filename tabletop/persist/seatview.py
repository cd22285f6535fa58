"""A seat's view of a game: the log as one seat (or a spectator) may see it, and its export.

``project`` replays a game's log and writes, entry by entry, the same game as the viewer
saw it (docs/hidden-information.md): replaying the view entries into an empty table gives,
after each entry, the viewer's picture of the table by the one rule of
tabletop/visibility.py. A piece the viewer may not see is an ANONYMOUS piece: an id such
as ``hidden-7`` counted up by this projection alone, its kind, owner, how it lies and the
public part of its properties (its deck, its back), never its face nor its own id.

- A piece that becomes hidden (turned face down, put into another seat's hand) is put in
  the view under a fresh anonymous id (``Replace``), so a card seen before cannot be
  followed; a piece that becomes visible replaces its anonymous stand-in.
- A shuffle gives every anonymous piece of the place a fresh id, and the view's shuffle
  keeps the anonymous pieces in the order they lay: it tells only where the pieces the
  viewer sees went.
- A step on a hidden piece is the same step on its stand-in (a draw from a deck into
  another's hand moves an anonymous card); a change of a hidden piece's face properties is
  ``Unseen``; a peek shows the peeked cards to the peeker only.
- Labels, findings, overrides and notes are read as the log panel reads them for the
  viewer (tabletop/log_view.py); a note's snapshot is left out.

``export`` writes the view as a log of its own, every entry with the digest of the view
it produces; nothing of the full game (its seed, checkpoints, header extras) is copied.
The copy opens read-only (``Game.open`` refuses to write to it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from tabletop import __version__
from tabletop.core import (
    AddPiece,
    AddPlace,
    Annotate,
    Command,
    Compound,
    Entry,
    Finding,
    Flip,
    FormatError,
    Move,
    Note,
    Peek,
    Piece,
    RemovePiece,
    RemovePlace,
    Replace,
    Roll,
    Rotate,
    SetCounter,
    SetOwner,
    SetPolicy,
    SetProperty,
    Shuffle,
    Table,
    TableError,
    TableState,
    Unseen,
    Viewed,
    Where,
)
from tabletop.core.commands import touched_by
from tabletop.core.randomness import Reveal
from tabletop.core.record import Record
from tabletop.log_view import LogReader, PieceWords
from tabletop.visibility import ANONYMOUS, REFEREE, can_see, is_anonymous

from .logfile import Header, LogError, checkpoint_record, write_log
from .session import SEAT_VIEW, Game  # the header's extra that marks a seat's copy: {"seat": id}

# the properties of a hidden piece anyone across the table sees: which deck it is from
# (its back), its size; never what its face says
PUBLIC_PROPS = ("deck", "back", "size", "big")
ANONYMOUS_PREFIX = "hidden-"
# what of the header's extras a seat's copy keeps: the setup options everyone chose
KEPT_EXTRAS = ("options",)

Viewer = str | None


class ViewError(TableError):
    """A game cannot be projected for a seat (a seat's copy, an unknown command)."""


def seat_view_of(header: Header) -> tuple[bool, Viewer]:
    """Whether the log is a seat's copy, and whose (None: a spectator's)."""
    marker = header.extra.get(SEAT_VIEW)
    if not isinstance(marker, dict):
        return False, None
    seat = marker.get("seat")
    return True, seat if isinstance(seat, str) else None


def copy_owner_text(header: Header) -> str:
    """Whose copy a seat's copy is, in words: "Norse's copy", "a spectator's copy"."""
    _, seat = seat_view_of(header)
    if seat is None:
        return "a spectator's copy"
    name = next((s.name for s in header.seats if s.id == seat), seat)
    return f"{name}'s copy"


class _Projector:
    """The full table and the viewer's table side by side, and which stands for which."""

    def __init__(
        self, seats: tuple[Any, ...], viewer: Viewer, backs: Callable[[Piece], Any] | None
    ) -> None:
        self.backs = backs
        self.full = TableState(seats)
        self.view = TableState(seats)
        self.viewer = viewer
        self.alias: dict[str, str] = {}  # a piece's id -> its id in the view
        self.count = 0

    # ---- the view's names ----------------------------------------------------
    def sees(self, pid: str) -> bool:
        return can_see(self.full, self.full.pieces[pid], self.viewer)

    def anonymous(self, piece: Piece) -> dict[str, Any]:
        """A fresh anonymous record standing for ``piece``: its back, how it lies."""
        self.count += 1
        props = {key: piece.props[key] for key in PUBLIC_PROPS if key in piece.props}
        back = self.backs(piece) if self.backs is not None else None
        if back is not None:  # what the card's back shows (a North Greenland card)
            props["back"] = list(back)
        props[ANONYMOUS] = True
        stand_in = Piece(
            f"{ANONYMOUS_PREFIX}{self.count}",
            piece.kind,
            owner=piece.owner,
            face_up=piece.face_up,
            rotation=piece.rotation,
            props=props,
        )
        return stand_in.record()

    def place(self, place_id: str) -> str:
        """A place's id in the view: a card's regions share the card's id in the view."""
        place = self.full.places.get(place_id)
        if place is not None and place.parent is not None:
            return self.alias.get(place.parent, place.parent)
        return place_id

    def where(self, where: Where) -> Where:
        return where._replace(place=self.place(where.place))

    def regions_spec(self, pid: str, view_id: str) -> dict[str, Any] | None:
        """What the view shows of a piece's regions: all of them for a piece the viewer
        sees; for a hidden one, bare regions only while something lies on them."""
        regions = self.full.regions_of(pid)
        if regions is None:
            return None
        if view_id == pid:
            return regions.spec()
        if not regions.contents:
            return None
        return {"id": view_id, "kind": "regions", "parent": view_id, "spots": list(regions.spots)}

    def view_regions(self, view_id: str) -> dict[str, Any] | None:
        regions = self.view.regions_of(view_id)
        return regions.spec() if regions is not None else None

    # ---- steps -----------------------------------------------------------------
    def _emit(self, command: Command) -> Command:
        command.apply(self.view)
        return command

    def _regions_first(self, place_id: str) -> list[Command]:
        """Bare regions for a hidden card something is about to be put on."""
        place = self.full.places.get(place_id)
        if place is None or place.parent is None:
            return []
        view_id = self.alias[place.parent]
        if view_id in self.view.places:
            return []
        spec = {"id": view_id, "kind": "regions", "parent": view_id, "spots": list(place.spots)}
        return [self._emit(AddPlace(spec))]

    def hide_ids(self, value: Any) -> Any:
        """A counter's value with the id of every piece hidden from the viewer (a card a
        game's counter names while it lies face down) put as its stand-in's."""
        if isinstance(value, str):
            return self.alias.get(value, value) if value in self.full.pieces else value
        if isinstance(value, list):
            return [self.hide_ids(v) for v in value]
        if isinstance(value, dict):
            return {self.hide_ids(k): self.hide_ids(v) for k, v in value.items()}
        return value

    def step(self, command: Command, read: Callable[[str], str]) -> Command:
        """One step (not a compound) as the viewer saw it, applied to both tables; ``read``
        gives words written for it (a note) as the viewer may read them."""
        if isinstance(command, Compound):
            raise AssertionError("compounds are read step by step")
        first: list[Command] = []
        peeked: tuple[dict[str, Any], ...] = ()
        full = self.full
        if isinstance(command, Shuffle):
            return self._shuffle(command)
        if isinstance(command, Move):
            first = self._regions_first(command.dst.place)
            main: Command = Move(
                self.alias[command.piece], self.where(command.src), self.where(command.dst)
            )
        elif isinstance(command, AddPiece):
            first = self._regions_first(command.at.place)
            at = self.where(command.at)
            command.apply(full)
            pid = command.piece["id"]
            if self.sees(pid):
                self.alias[pid] = pid
                record = command.piece
            else:
                record = self.anonymous(full.pieces[pid])
                self.alias[pid] = record["id"]
            main = self._emit(AddPiece(record, at))
            return self._finish(command, main, first, peeked)
        elif isinstance(command, RemovePiece):
            view_id = self.alias[command.piece["id"]]
            main = RemovePiece(self.view.pieces[view_id].record(), self.where(command.at))
        elif isinstance(command, AddPlace):
            parent = command.spec.get("parent")
            if parent is not None and self.alias.get(parent) != parent:
                main = Unseen("add_place")
            else:
                main = AddPlace(command.spec)
        elif isinstance(command, RemovePlace):
            view_id = self.place(command.spec["id"])
            if view_id == command.spec["id"]:
                main = RemovePlace(command.spec)
            elif view_id in self.view.places:
                main = RemovePlace(self.view.places[view_id].spec())
            else:
                main = Unseen("remove_place")
        elif isinstance(command, Flip):
            main = Flip(self.alias[command.piece], command.old, command.new)
        elif isinstance(command, Rotate):
            main = Rotate(self.alias[command.piece], command.old, command.new)
        elif isinstance(command, SetOwner):
            main = SetOwner(self.alias[command.piece], command.old, command.new)
        elif isinstance(command, Roll):
            dice = [self.alias[pid] for pid in command.pieces]
            shown = [self.alias[pid] == pid for pid in command.pieces]
            main = Roll(
                tuple(dice),
                tuple(self.view.pieces[d].value for d in dice),
                tuple(new if seen else None for new, seen in zip(command.new, shown, strict=True)),
                command.forced,
            )
        elif isinstance(command, SetProperty):
            main = self._set_property(command)
        elif isinstance(command, SetCounter):
            main = SetCounter(
                command.name, self.view.counters.get(command.name), self.hide_ids(command.new)
            )
        elif isinstance(command, Note):
            main = Note(read(command.text))
        elif isinstance(command, Peek):
            view_ids = tuple(self.alias[pid] for pid in command.pieces)
            main = Peek(command.seat, self.place(command.place), view_ids)
            if command.seat == self.viewer:
                peeked = tuple(
                    {"id": view_id, "kind": full.pieces[pid].kind, "is": full.pieces[pid].record()}
                    for pid, view_id in zip(command.pieces, view_ids, strict=True)
                    if view_id != pid
                )
        else:
            raise ViewError(f"a {command.op!r} step cannot be shown to a seat")
        if isinstance(command, RemovePlace):
            self._emit(main)
            command.apply(full)
            return main
        self._emit(main)
        command.apply(full)
        if isinstance(command, RemovePiece):
            del self.alias[command.piece["id"]]
        return self._finish(command, main, first, peeked)

    def _set_property(self, command: SetProperty) -> Command:
        if command.on_place:
            view_id = self.place(command.target)
            if view_id not in self.view.places:
                return Unseen("set")
            old = self.view.places[view_id].props.get(command.key)
            return SetProperty(view_id, command.key, old, command.new, True)
        view_id = self.alias[command.target]
        if view_id == command.target:
            return command
        if command.key in PUBLIC_PROPS:
            return SetProperty(view_id, command.key, command.old, command.new)
        return Unseen("set", view_id)

    def _finish(
        self,
        command: Command,
        main: Command,
        first: list[Command],
        peeked: tuple[dict[str, Any], ...],
    ) -> Command:
        """After a step: show what became visible, hide what became hidden."""
        touched = touched_by(command)
        then = self._settle(touched.pieces, touched.places)
        if then or first or peeked:
            return Viewed(main, tuple(then), peeked, tuple(first))
        return main

    def _carried(self, pids: set[str]) -> set[str]:
        """The pieces and whatever lies on them (their regions), and on those, and so on."""
        found = {pid for pid in pids if pid in self.full.pieces}
        todo = list(found)
        while todo:
            regions = self.full.regions_of(todo.pop())
            if regions is None:
                continue
            for pid in regions.contents:
                if pid not in found:
                    found.add(pid)
                    todo.append(pid)
        return found

    def _position(self, pid: str) -> tuple[str, int]:
        piece = self.view.pieces[self.alias[pid]]
        return (piece.place or "", self.view.places[piece.place].contents.index(piece.id))

    def _settle(self, touched: set[str], places: set[str]) -> list[Command]:
        then: list[Command] = []
        affected = sorted(self._carried(set(touched)), key=self._position)
        for pid in affected:
            view_id = self.alias[pid]
            current = self.view.pieces[view_id]
            if self.sees(pid):
                if view_id != pid:  # shown: the stand-in becomes the piece
                    record = self.full.pieces[pid].record()
                    then.append(
                        self._emit(
                            Replace(
                                current.record(),
                                record,
                                self.view_regions(view_id),
                                self.regions_spec(pid, pid),
                            )
                        )
                    )
                    self.alias[pid] = pid
            elif not is_anonymous(current):  # hidden: a fresh stand-in
                record = self.anonymous(self.full.pieces[pid])
                then.append(
                    self._emit(
                        Replace(
                            current.record(),
                            record,
                            self.view_regions(view_id),
                            self.regions_spec(pid, record["id"]),
                        )
                    )
                )
                self.alias[pid] = record["id"]
        # bare regions of hidden cards that nothing lies on any more are put away
        for pid in affected:
            self._tidy_regions(pid, then)
        for place_id in sorted(places):
            place = self.full.places.get(place_id)
            if place is not None and place.parent is not None:
                self._tidy_regions(place.parent, then)
        return then

    def _tidy_regions(self, pid: str, then: list[Command]) -> None:
        view_id = self.alias.get(pid)
        if view_id is None or view_id == pid:
            return
        regions = self.view.regions_of(view_id)
        if regions is not None and not regions.contents:
            then.append(self._emit(RemovePlace(regions.spec())))

    def _shuffle(self, command: Shuffle) -> Command:
        view_place = self.place(command.place)
        before = tuple(self.view.places[view_place].contents)
        command.apply(self.full)
        after = self.full.places[command.place].contents

        def followed(pid: str) -> bool:
            # a piece seen, or a hidden one carrying pieces, is followed through the shuffle
            view_id = self.alias[pid]
            return view_id == pid or view_id in self.view.places

        unfollowed = iter(
            [v for v in before if is_anonymous(self.view.pieces[v]) and v not in self.view.places]
        )
        target = [self.alias[pid] if followed(pid) else next(unfollowed) for pid in after]
        main = self._emit(Shuffle(view_place, before, tuple(target), command.forced))
        then: list[Command] = []
        for pid, view_id in zip(after, target, strict=True):
            if followed(pid):
                continue
            record = self.anonymous(self.full.pieces[pid])
            then.append(self._emit(Replace(self.view.pieces[view_id].record(), record)))
            self.alias[pid] = record["id"]
        return Viewed(main, tuple(then)) if then else main

    def command(self, command: Command, label: Callable[[str], str]) -> Command:
        """A whole entry's command as the viewer saw it (a compound step by step)."""
        if isinstance(command, Compound):
            return Compound(
                label(command.label),
                tuple(self.command(c, label) for c in command.commands),
                command.procedure,
            )
        if isinstance(command, Replace | Viewed | Unseen):
            raise ViewError("this is already a seat's copy: export the full game instead")
        return self.step(command, label)


class SeatView:
    """One viewer's view of a table's log, kept up entry by entry: ``follow`` projects the
    entries the table logged since it last ran (a referee calls it after each entry; an
    export once, on a finished game)."""

    def __init__(
        self,
        table: Table,
        viewer: Viewer,
        seat_names: Mapping[str, str] | None = None,
        words: PieceWords | None = None,
        backs: Callable[[Piece], Any] | None = None,
    ) -> None:
        if viewer == REFEREE:
            raise ViewError("the referee's view is the full game")
        start = table.state_at(0)
        if start.pieces or start.places:
            raise ViewError("the game starts from a laid-out table: it cannot be shown to a seat")
        seats = [s.id for s in start.seats]
        if viewer is not None and viewer not in seats:
            raise ViewError(f"there is no seat {viewer!r} (seats: {', '.join(seats)})")
        self.table = table
        self.viewer = viewer
        self._reader = LogReader(table, seat_names or {s.id: s.name for s in start.seats}, words)
        self._projector = _Projector(start.seats, viewer, backs)
        self._digests = ViewDigests()
        self.entries: list[tuple[Entry, str]] = []  # each view entry and its view's digest

    @property
    def state(self) -> TableState:
        """The viewer's table after the entries projected so far."""
        return self._projector.view

    def real_ids(self) -> dict[str, str]:
        """Each id on the viewer's table (a stand-in's or a shown piece's own) and the piece
        it stands for: how a referee reads a move the viewer made on its table."""
        return {shown: pid for pid, shown in self._projector.alias.items()}

    def words(self, seq: int) -> str:
        """What entry ``seq`` of the table's log did, in words, as the viewer may read it."""
        reader = self._reader
        return reader.redact(seq, reader.describe(self.table.entries[seq - 1].command), self.viewer)

    def follow(self) -> list[tuple[Entry, str]]:
        """The view entries, each with the digest of the view it makes, of the entries the
        table logged since the last call."""
        added = [self._entry(entry) for entry in self.table.entries[len(self.entries) :]]
        self.entries.extend(added)
        return added

    def _entry(self, entry: Entry) -> tuple[Entry, str]:
        projector, viewer = self._projector, self.viewer

        def read(text: str) -> str:
            return self._reader.redact(entry.seq, text, viewer)

        kind = entry.kind
        if isinstance(entry.command, Reveal):
            # the committed dice's seed, revealed: with it every shuffle could be worked out
            # again (tabletop verify reads the full file); a copy notes only that it was shown
            # (a 'setup' entry: a 'chance' one holds only contributions and the reveal)
            command: Command = Unseen("reveal")
            kind = "setup"
        elif entry.kind in ("policy", "chance") or isinstance(entry.command, SetPolicy | Record):
            command = entry.command
        elif isinstance(entry.command, Annotate):
            command = _note(entry.command, projector, read)
        else:
            command = projector.command(entry.command, read)
        findings = tuple(
            Finding(
                f.rule,
                read(f.message),
                f.severity,
                tuple(p for p in f.pieces if projector.alias.get(p) == p),
            )
            for f in entry.findings
        )
        override = read(entry.override) if entry.override is not None else None
        shown = Entry(
            entry.seq, entry.time, entry.actor, kind, command, findings, override, entry.ref
        )
        return shown, self._digests.after(projector.view, command)


def project(
    table: Table,
    viewer: Viewer,
    seat_names: Mapping[str, str] | None = None,
    words: PieceWords | None = None,
    backs: Callable[[Piece], Any] | None = None,
) -> list[tuple[Entry, str]]:
    """The game on ``table`` as ``viewer`` (a seat id, None for a spectator) saw it: one view
    entry for each entry of the log, with the digest of the view after it. Labels, findings
    and overrides read as the log panel reads them for the viewer (``words``: the module's
    names of cards, tabletop/modules/words.py; plain ids otherwise; ``backs``: what a card's
    back shows, tabletop/modules/backs.py, given to its stand-in)."""
    return SeatView(table, viewer, seat_names, words, backs).follow()


def _note(note: Annotate, projector: _Projector, read: Callable[[str], str]) -> Annotate:
    """A playtest note as the viewer may read it: its words redacted, only pieces it sees,
    no snapshot (a picture of the whole table)."""
    return Annotate(
        note.action,
        note.note,
        note.tag,
        read(note.text),
        note.at,
        tuple(p for p in note.pieces if projector.alias.get(p) == p),
        None,
    )


def seat_header(header: Header, viewer: Viewer, entries: int) -> Header:
    """The header of a seat's copy: what the game is, never its seed nor its extras."""
    extra: dict[str, Any] = {k: header.extra[k] for k in KEPT_EXTRAS if k in header.extra}
    extra[SEAT_VIEW] = {"seat": viewer, "entries": entries}
    return Header(
        module=header.module,
        module_version=header.module_version,
        seed=0,
        seats=list(header.seats),
        variant=header.variant,
        decks=[dict(d) for d in header.decks],
        notes=header.notes,
        created=header.created,
        app_version=__version__,
        extra=extra,
        policy=header.policy.copy() if header.policy is not None else None,
        randomness=header.public_randomness(),  # the commitment, never the secret seed
    )


class _Lines:
    """Collects a view's log lines: its entries, each with the digest of the view it makes,
    and its checkpoints (of the view)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def write_entry(self, entry: Entry) -> None:
        self.records.append(entry.to_dict())

    def write_checkpoint(self, seq: int, state: dict[str, Any], table: Table) -> None:
        self.records.append(
            checkpoint_record(
                seq, state, table.random.draws, list(table.undo_stack), list(table.redo_stack)
            )
        )


class ViewDigests:
    """The digest of a view after each entry (``TableState.digest``), worked out from the
    pieces and places each entry touched: the JSON of the rest is kept from before."""

    def __init__(self) -> None:
        self._pieces: dict[str, str] = {}
        self._places: dict[str, str] = {}

    def after(self, state: TableState, command: Command) -> str:
        touched = touched_by(command)
        pids, places = set(touched.pieces), set(touched.places)
        for pid in touched.pieces:  # where a piece lies now: that place's list changed
            piece = state.pieces.get(pid)
            if piece is not None and piece.place is not None:
                places.add(piece.place)
        for place_id in places:  # what lies in a place changed: a piece replaced, carried
            place = state.places.get(place_id)
            if place is not None:
                pids.update(place.contents)
        for pid in pids:
            piece = state.pieces.get(pid)
            if piece is None:
                self._pieces.pop(pid, None)
            else:
                self._pieces[pid] = _canonical(piece.to_dict())
        for place_id in places:
            place = state.places.get(place_id)
            if place is None:
                self._places.pop(place_id, None)
            else:
                self._places[place_id] = _canonical(place.to_dict())
        text = (
            '{"counters":'
            + _canonical(state.counters)
            + ',"pieces":['
            + ",".join(self._pieces[k] for k in sorted(self._pieces))
            + '],"places":['
            + ",".join(self._places[k] for k in sorted(self._places))
            + '],"seats":'
            + _canonical([s.to_dict() for s in state.seats])
            + "}"
        )
        return hashlib.sha256(text.encode()).hexdigest()


def _canonical(value: Any) -> str:
    """JSON as ``tabletop.core.state.digest_of`` writes it."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def view_lines(header: Header, viewed: list[tuple[Entry, str]]) -> list[dict[str, Any]]:
    """The lines of a seat's copy after its header: the view entries replayed on an empty
    table (which checks each and its digest), each with its view's digest, and the view's
    checkpoints."""
    table = Table(TableState(header.seats), policy=header.policy)
    lines = _Lines()
    table.attach_writer(lines)
    digests = ViewDigests()
    for entry, digest in viewed:
        at = len(lines.records)
        try:
            table.replay(entry)
        except FormatError as exc:
            raise ViewError(f"the view does not replay: {exc}") from None
        if digests.after(table.state, entry.command) != digest:
            raise ViewError(f"the view after entry {entry.seq} is not the one projected")
        lines.records[at]["digest"] = digest
    return lines.records


def check_copy(game: Game) -> None:
    """Check a seat's copy, opened: each entry's digest must be that of the table it makes.
    Raises LogError naming the first entry (and its line) that disagrees."""
    path = game.path or "copy"
    digests: dict[int, Any] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line) if line.strip() else None
                if isinstance(record, dict) and type(record.get("seq")) is int:
                    digests[record["seq"]] = record.get("digest")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise LogError(path, None, f"cannot be read again to check it ({exc})") from None
    table = game.table
    state = table.state_at(0)
    kept = ViewDigests()
    for entry in table.entries:
        entry.command.apply(state)
        if kept.after(state, entry.command) != digests.get(entry.seq):
            raise LogError(
                path,
                None,
                f"entry {entry.seq} does not make the table its digest says: this copy has been"
                " altered or damaged",
            )


def export(
    table: Table,
    header: Header,
    viewer: Viewer,
    path: str | os.PathLike[str],
    words: PieceWords | None = None,
    backs: Callable[[Piece], Any] | None = None,
) -> int:
    """Write ``viewer``'s copy of the game to ``path`` (whole or not at all); the number of
    entries written."""
    if seat_view_of(header)[0]:
        raise ViewError("this is already a seat's copy: export the full game instead")
    names = {s.id: s.name for s in header.seats}
    viewed = project(table, viewer, names, words, backs)
    copy = seat_header(header, viewer, len(viewed))
    write_log(path, copy, view_lines(copy, viewed))
    return len(viewed)


__all__ = [
    "ANONYMOUS_PREFIX",
    "PUBLIC_PROPS",
    "SEAT_VIEW",
    "SeatView",
    "check_copy",
    "ViewError",
    "copy_owner_text",
    "export",
    "project",
    "seat_header",
    "seat_view_of",
    "ViewDigests",
    "view_lines",
]
