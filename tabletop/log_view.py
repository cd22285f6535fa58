"""The log as each reader may read it: a line never names a piece its reader could not see.

The game file holds every entry in full; the lines shown to a seat or to a spectator
(the window's log dock, ``tabletop log --seat S`` / ``--spectator``, a snapshot's log
band) come from here. A piece is named in an entry's line (its id, or the name on its
face) only if the reader could see its face at some moment of that entry: before it, or
after any of its steps, by the one rule of tabletop/visibility.py. Otherwise the line
speaks of the piece by what its back shows ("a Greenland card"), never by its face. So a
card drawn face down from a deck into Norse's hand is named in Norse's lines and is "a
Greenland card" in everyone else's; a card played face up later is named from that entry
on, while the earlier entries stay as they were seen then.

Every part of a line is read the same way: a command's own words, a procedure's label
(which may name the card it takes), the findings' messages and an override's reason.
``LogReader.redact`` takes any text written for an entry, so lines that add words of
their own (marks, notes) are read by the same rule; a name in such text that the entry
never showed is kept hidden. The referee (visibility.REFEREE) reads everything.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from tabletop.core import Command, Compound, Entry, Names, Piece, Place, Table
from tabletop.core.commands import touched_by
from tabletop.inspection import entry_text
from tabletop.visibility import REFEREE, can_see, is_anonymous

Viewer = str | None  # a seat id, None for a spectator, or visibility.REFEREE


def plain_back(piece: Piece) -> str:
    """What a hidden piece is called when the game says nothing of its back: its kind."""
    return f"a face-down {piece.kind}"


def no_face(piece: Piece) -> str | None:
    return None


def plain_kind(piece: Piece) -> str:
    """A piece's kind as a word, when the game gives it no label."""
    return piece.kind.replace("_", " ").replace("-", " ")


@dataclass(frozen=True)
class PieceWords:
    """How a line speaks of a piece: the name on its face (besides its id), its back, and
    its kind as a noun ("cube", "biome card")."""

    face: Callable[[Piece], str | None] = no_face
    back: Callable[[Piece], str] = plain_back
    kind: Callable[[Piece], str] = plain_kind


def plain_words(text: str) -> str:
    """An id as words, when nothing names it better: 'event_deck' -> 'event deck'."""
    return text.replace("_", " ")


def spot_words(spot: str) -> str:
    """A spot's name as read: 'rank3' -> 'rank 3', 'hunters' -> 'hunters'."""
    head = spot.rstrip("0123456789")
    tail = spot[len(head) :]
    words = head.replace("_", " ").replace("-", " ").strip()
    return f"{words} {tail}" if tail and words else spot.replace("_", " ")


class ReaderNames(Names):
    """Names for people: a card by the name on its face (the reader redacts it where the
    face was not seen), any other piece by its owner's name and kind ("Thule cube", "a
    cube"), a place by its label, a region as "its card · the region", a seat by its name.

    ``piece`` and ``place`` find what an id stands for (the table now, else as it was when
    last seen); what cannot be found is spoken of as plain words, never as a bare id.
    """

    def __init__(
        self,
        piece: Callable[[str], Piece | None],
        place: Callable[[str], Place | None],
        seat_names: Mapping[str, str],
        words: PieceWords,
    ) -> None:
        self._piece, self._place = piece, place
        self.seat_names = dict(seat_names)
        self.words = words
        renamed = sorted((s for s, n in self.seat_names.items() if n and n != s), key=len)
        self._seats = (
            re.compile(_BEFORE + "(" + "|".join(map(re.escape, renamed[::-1])) + ")" + _AFTER)
            if renamed
            else None
        )

    def seat(self, seat: str) -> str:
        return self.seat_names.get(seat) or seat

    def text(self, text: str) -> str:
        """A game's own words with every seat id standing alone read as the seat's name
        ("red feeds Cattle" -> "Norse feeds Cattle")."""
        if self._seats is None:
            return text
        return self._seats.sub(lambda m: self.seat(m.group(0)), text)

    def piece(self, pid: str) -> str:
        piece = self._piece(pid)
        if piece is None:
            return "a piece"
        if is_anonymous(piece):  # a seat's copy: a piece it may not see, known by its back
            return self.words.back(piece)
        face = self.words.face(piece)
        if face:
            return face
        kind = self.words.kind(piece)
        if piece.owner:
            return f"{self.seat(piece.owner)} {kind}"
        return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"

    def place(self, place_id: str) -> str:
        place = self._place(place_id)
        if place is not None and place.label:
            return place.label
        if place is not None and place.parent is not None:
            return self.piece(place.parent)
        return plain_words(place_id)

    def spot(self, place_id: str, spot: str) -> str:
        place = self._place(place_id)
        labels = place.layout.get("spot_labels") if place is not None else None
        label = labels.get(spot) if isinstance(labels, dict) else None
        return f"{self.place(place_id)} · {label or spot_words(spot)}"


# a name stands alone: not part of a longer id ("card-1" in "card-12") nor of a word
_BEFORE = r"(?<![\w-])"
_AFTER = r"(?![\w-])"
_WORDY = re.compile(r"[\w-]").match  # a character a name standing alone cannot touch
_RUN = r"[\w-]+"
_RUN_AT = re.compile(_RUN).match


def _longest_first(name: str) -> tuple[int, str]:
    return -len(name), name


class _Names:
    """Every name a piece has been called on this table: its id and its face's name.

    A name is found in a text where it stands alone (``_BEFORE``, ``_AFTER``), the longest
    name first where several start at one place, left to right without overlaps. Rather than
    one regular expression of every name (compiling it costs about a second for ten thousand
    pieces), names are looked up by their head: the run of word characters and hyphens they
    begin with (or their first character when it is neither), which in the text is the whole
    run starting where the name does."""

    def __init__(self, words: PieceWords) -> None:
        self.words = words
        self.by_name: dict[str, list[str]] = {}
        self.back: dict[str, str] = {}  # piece id -> its back's words
        self.pieces: dict[str, Piece] = {}  # piece id -> the piece as last learnt
        self._heads: dict[str, list[str]] = {}  # head -> the names it begins, longest first
        self._scan: re.Pattern[str] | None = None  # where a name may begin
        self._stale = False

    def learn(self, piece: Piece) -> None:
        pid = piece.id
        self.pieces[pid] = piece
        if pid in self.back:
            return
        self.back[pid] = self.words.back(piece)
        face = self.words.face(piece)
        for name in {pid, face} if face else (pid,):
            bearers = self.by_name.get(name)
            if bearers is None:
                self._add(name)
                self.by_name[name] = [pid]
            else:
                bearers.append(pid)

    def _add(self, name: str) -> None:
        """A new name, in its head's list (longest first, then in order of the text)."""
        head = _RUN_AT(name)
        key = head.group() if head else name[:1]
        names = self._heads.get(key)
        if names is None:  # most heads begin one name only: nothing to sort
            self._heads[key] = [name]
            if self._scan is None or not _WORDY(key):
                self._stale = True  # a head that is not a run: the scan must stop at it too
            return
        bisect.insort(names, name, key=_longest_first)

    def _index(self) -> re.Pattern[str] | None:
        if self._stale:
            marks = sorted(h for h in self._heads if not _WORDY(h))
            self._scan = re.compile("|".join([_RUN, *map(re.escape, marks)]))
            self._stale = False
        return self._scan

    def matches(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Each name standing alone in ``text``: (start, end, name)."""
        scan = self._index()
        if scan is None:
            return
        heads, after = self._heads, 0
        for token in scan.finditer(text):
            start = token.start()
            if start < after or (start and _WORDY(text[start - 1])):
                continue  # inside the name found last, or not standing alone
            for name in heads.get(token.group(), ()):
                end = start + len(name)
                if text.startswith(name, start) and (end == len(text) or not _WORDY(text[end])):
                    yield start, end, name
                    after = end
                    break

    def mentioned(self, text: str) -> set[str]:
        return {pid for _s, _e, name in self.matches(text) for pid in self.by_name[name]}

    def sub(self, swap: Callable[[str], str], text: str) -> str:
        """``text`` with each name standing alone in it replaced by ``swap(name)``."""
        parts: list[str] = []
        done = 0
        for start, end, name in self.matches(text):
            parts += (text[done:start], swap(name))
            done = end
        if not parts:
            return text
        parts.append(text[done:])
        return "".join(parts)


def _steps(command: Command) -> Iterable[Command]:
    """A command's single steps in the order they are applied (a Compound's, flattened)."""
    if isinstance(command, Compound):
        for step in command.commands:
            yield from _steps(step)
    else:
        yield command


class LogReader:
    """Reads a table's log once, entry by entry, and gives each entry's line for any reader.

    The reader replays the log on a state of its own from the first entry and keeps, for
    each entry, who could see the pieces it names; ``follow`` reads the entries added
    since. ``text`` writes an entry's full line from the entry and ``names`` (by default
    ``inspection.entry_text`` with the seats' names); ``words`` says how pieces are spoken
    of; ``names`` (ReaderNames) names pieces, places and seats in people's words.
    """

    def __init__(
        self,
        table: Table,
        seat_names: Mapping[str, str] | None = None,
        words: PieceWords | None = None,
        text: Callable[[Entry, Names], str] | None = None,
    ) -> None:
        self.table = table
        seats = dict(seat_names or {})
        self._text = text or (lambda entry, names: entry_text(entry, seats, names=names))
        self.words = words or PieceWords()
        self._state = table.state_at(0)
        self.names = ReaderNames(self._find_piece, self._find_place, seats, self.words)
        self._seats = tuple(s.id for s in self._state.seats)
        self._viewers: tuple[Viewer, ...] = (*self._seats, None)
        self._names = _Names(self.words)
        for piece in self._state.pieces.values():
            self._names.learn(piece)
        self._sight: list[dict[str, frozenset[Viewer]]] = []  # by entry: who saw what it names
        self._touched: list[frozenset[str]] = []  # by entry: the pieces named that it moved

    def _find_piece(self, pid: str) -> Piece | None:
        return self.table.state.pieces.get(pid) or self._names.pieces.get(pid)

    def _find_place(self, place_id: str) -> Place | None:
        return self.table.state.places.get(place_id) or self._state.places.get(place_id)

    def text(self, entry: Entry) -> str:
        """An entry's full line, every name in it (before any redaction)."""
        return self._text(entry, self.names)

    def describe(self, command: Command) -> str:
        """A command's own words in names (before any redaction)."""
        return command.describe(self.names)

    @property
    def seq(self) -> int:
        """How many entries have been read."""
        return len(self._sight)

    def follow(self) -> None:
        """Read the entries the table has logged since the last call."""
        for entry in self.table.entries[len(self._sight) :]:
            self._read(entry)

    def _look(self, pids: Iterable[str], seen: dict[str, set[Viewer]]) -> None:
        state, viewers = self._state, self._viewers
        pieces, names = state.pieces, self._names
        known, learnt = names.pieces, names.back
        everyone = len(viewers)
        for pid in pids:
            piece = pieces.get(pid)
            if piece is None:
                continue
            # a piece is known by its names once it is on the table (``_Names.learn``; its
            # names are worked out the first time only, the piece kept as last seen each time)
            if piece.id in learnt:
                known[piece.id] = piece
            else:
                names.learn(piece)
            who = seen.get(pid)
            if who is None:
                who = seen[pid] = set()
            elif len(who) == everyone:
                continue
            for viewer in viewers:
                if viewer not in who and can_see(state, piece, viewer):
                    who.add(viewer)

    def _read(self, entry: Entry) -> None:
        seen: dict[str, set[Viewer]] = {}
        self._look(touched_by(entry.command).pieces, seen)  # as the table was before the entry
        for step in _steps(entry.command):
            step.apply(self._state)
            self._look(touched_by(step).pieces, seen)  # and after each of its steps
        mentioned = self._names.mentioned(self.text(entry))
        touched = mentioned & seen.keys()
        self._look(mentioned - touched, seen)  # untouched: as seen all through the entry
        self._sight.append({pid: frozenset(seen.get(pid, ())) for pid in mentioned})
        self._touched.append(frozenset(touched))

    def redact(self, seq: int, text: str, viewer: Viewer) -> str:
        """``text`` written for entry ``seq`` as ``viewer`` may read it."""
        self.follow()
        if viewer == REFEREE:
            return text
        sight, touched = self._sight[seq - 1], self._touched[seq - 1]
        who = viewer if viewer in self._seats else None
        names = self._names

        def swap(name: str) -> str:
            pids = names.by_name[name]
            # a name several pieces bear (two cards alike) speaks of those the entry acts on
            acted = [pid for pid in pids if pid in touched]
            if acted:
                shown = all(who in sight[pid] for pid in acted)
            else:
                shown = any(who in sight.get(pid, ()) for pid in pids)
            return name if shown else names.back[(acted or pids)[0]]

        return names.sub(swap, text)

    def line(self, entry: Entry, viewer: Viewer) -> str:
        """An entry's line (``text``) as ``viewer`` may read it."""
        return self.redact(entry.seq, self.text(entry), viewer)

    def lines(self, viewer: Viewer, entries: Iterable[Entry] | None = None) -> list[str]:
        """The lines of ``entries`` (default: the whole log) as ``viewer`` may read them."""
        self.follow()
        chosen = self.table.entries if entries is None else entries
        return [self.line(entry, viewer) for entry in chosen]


def log_lines(
    table: Table,
    viewer: Viewer,
    seat_names: Mapping[str, str] | None = None,
    words: PieceWords | None = None,
    entries: Iterable[Entry] | None = None,
) -> list[str]:
    """The lines of ``entries`` (default: all) as ``viewer`` may read them (one reading)."""
    reader = LogReader(table, seat_names, words)
    if viewer == REFEREE:
        chosen = table.entries if entries is None else entries
        return [reader.text(entry) for entry in chosen]
    return reader.lines(viewer, entries)
