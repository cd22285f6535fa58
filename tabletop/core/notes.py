"""Playtest notes: remarks written during play, kept in the log as 'note' entries.

A note is tagged (``NOTE_TAGS``), tied to a log entry (the moment it speaks of:
the entry the table showed when it was written) and optionally to pieces, and may
carry a snapshot of its author's view as a PNG. It is added, edited and removed by
``Annotate`` commands logged as 'note' entries: such an entry changes nothing on the
table (its state and hash stay as they were), is not a move (undo and redo pass it
by), and is never itself undone. An edit or a removal is a later entry naming the
note, so the log keeps every version. ``notes_of(entries)`` folds the entries into
the notes as they stand.

A note's id is the number of the entry that added it. The snapshot is kept in the
entry itself, as base64 PNG: a game stays one file (the log is the save), written
line by line, copied, branched and exported whole, so a snapshot cannot be lost or
left behind the way a file beside the game could.

Notes are public: every seat reads every note. A snapshot shows only what its
author could see when it was made, and a piece a reader could not see is named in
a note's line as the log names it (tabletop/log_view.py).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .commands import PLAIN, Command, Names, _text
from .errors import CommandError, FormatError
from .state import TableState
from .textsafe import quoted

# tag -> how it reads
NOTE_TAGS: dict[str, str] = {
    "rules": "rules question",
    "ambiguity": "ambiguity",
    "balance": "balance",
    "flaw": "flaw",
    "typo": "typo or graphics",
    "idea": "idea",
    "other": "other",
}
NOTE_ACTIONS = ("add", "edit", "remove")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_text(data: bytes) -> str:
    """A PNG's bytes as the text a note keeps (base64)."""
    if not data.startswith(PNG_SIGNATURE):
        raise FormatError("a note's snapshot must be a PNG image")
    return base64.b64encode(data).decode("ascii")


def png_bytes(text: str) -> bytes:
    """The PNG a note keeps as base64 text; FormatError if it is not one."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise FormatError("a note's snapshot is not base64 text") from None
    if not data.startswith(PNG_SIGNATURE):
        raise FormatError("a note's snapshot is not a PNG image")
    return data


@dataclass(frozen=True, slots=True)
class Annotate(Command):
    """Add, edit or remove a playtest note. Changes nothing on the table.

    ``note``: the note's id (the seq of the entry that added it) for an edit or a
    removal; None for an addition. ``at``: the entry the note speaks of. ``png``:
    the snapshot as base64 PNG (an addition only; an edit keeps the note's)."""

    action: str
    note: int | None = None
    tag: str = ""
    text: str = ""
    at: int = 0
    pieces: tuple[str, ...] = ()
    png: str | None = None
    op: ClassVar[str] = "annotate"
    counters_only: ClassVar[bool] = True  # touches no piece: positions and layout stand

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        d: dict[str, Any] = {"action": self.action}
        if self.note is not None:
            d["note"] = self.note
        if self.action != "remove":
            d.update(tag=self.tag, text=self.text, at=self.at, pieces=list(self.pieces))
        if self.png is not None:
            d["png"] = self.png
        return d

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Annotate:
        action = d.get("action")
        if action not in NOTE_ACTIONS:
            raise FormatError(f"command 'annotate': unknown action {quoted(action)}")
        note = d.get("note")
        if (note is None) != (action == "add") or (note is not None and type(note) is not int):
            raise FormatError("command 'annotate': an edit or a removal names its 'note' by number")
        if action == "remove":
            return cls(action, note)
        tag = _text(d, "tag", cls.op)
        if tag not in NOTE_TAGS:
            raise FormatError(f"command 'annotate': unknown tag {quoted(tag)}")
        at, pieces = d.get("at"), d.get("pieces", [])
        if type(at) is not int or at < 0:
            raise FormatError("command 'annotate': 'at' must be an entry's number")
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise FormatError("command 'annotate': 'pieces' must be a list of piece ids")
        png = d.get("png")
        if png is not None:
            if action != "add" or not isinstance(png, str):
                raise FormatError("command 'annotate': only an addition carries a snapshot")
            png_bytes(png)
        return cls(action, note, tag, _text(d, "text", cls.op), at, tuple(pieces), png)

    def __hash__(self) -> int:
        return hash((self.action, self.note, self.tag, self.text, self.at, self.pieces))

    def describe(self, names: Names = PLAIN) -> str:
        if self.action == "remove":
            return f"removed note #{self.note}"
        what = "note" if self.action == "add" else f"edited note #{self.note}"
        text = f"{what} on entry {self.at} [{NOTE_TAGS[self.tag]}]: {self.text}"
        if self.pieces:
            text += f" (pieces: {', '.join(names.piece(p) for p in self.pieces)})"
        if self.png is not None:
            text += " [snapshot]"
        return text


@dataclass
class PlaytestNote:
    """A note as it stands after its latest edit."""

    id: int  # the entry that added it
    author: str  # the actor of that entry: a seat, or the table
    tag: str
    text: str
    at: int
    pieces: tuple[str, ...]
    png: str | None
    time: float
    edited: int | None = None  # the entry of its latest edit
    removed: int | None = None  # the entry that removed it
    history: list[int] = field(default_factory=list)  # every entry that added or edited it

    @property
    def tag_text(self) -> str:
        return NOTE_TAGS.get(self.tag, self.tag)

    @property
    def snapshot(self) -> bytes | None:
        return png_bytes(self.png) if self.png is not None else None

    @property
    def words_seq(self) -> int:
        """The entry whose line holds the note's words as they stand (to read them as a seat)."""
        return self.edited or self.id

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "author": self.author,
            "tag": self.tag,
            "text": self.text,
            "at": self.at,
            "pieces": list(self.pieces),
            "snapshot": self.png is not None,
            "time": self.time,
            "history": list(self.history),
        }
        if self.edited is not None:
            d["edited"] = self.edited
        if self.removed is not None:
            d["removed"] = self.removed
        return d


def notes_of(entries: Iterable[Any], *, removed: bool = False) -> list[PlaytestNote]:
    """The notes the 'note' entries of a log leave standing, by id (with ``removed``, the
    removed ones too, marked so). Entries are log entries (tabletop/core/table.py)."""
    found: dict[int, PlaytestNote] = {}
    for entry in entries:
        if entry.kind != "note":
            continue
        command: Annotate = entry.command
        if command.action == "add":
            found[entry.seq] = PlaytestNote(
                entry.seq,
                entry.actor,
                command.tag,
                command.text,
                command.at,
                command.pieces,
                command.png,
                entry.time,
                history=[entry.seq],
            )
            continue
        note = found.get(command.note) if command.note is not None else None
        if note is None:
            continue
        if command.action == "remove":
            note.removed = entry.seq
        else:
            note.tag, note.text, note.at, note.pieces = (
                command.tag,
                command.text,
                command.at,
                command.pieces,
            )
            note.edited = entry.seq
            note.history.append(entry.seq)
    return [n for n in found.values() if removed or n.removed is None]


def note_tag(text: str) -> str:
    """A tag given by its key or its words ('typo', 'typo or graphics'); CommandError naming it."""
    key = text.strip().lower()
    if key in NOTE_TAGS:
        return key
    for tag, words in NOTE_TAGS.items():
        if key == words:
            return tag
    raise CommandError(f"there is no note tag {quoted(text)} (tags: {', '.join(NOTE_TAGS)})")


def check_note(
    command: Annotate,
    entries: Sequence[Any],
    known: Callable[[str], bool],
    standing: Iterable[int],
) -> None:
    """CommandError naming what is wrong with a note command for a log of ``entries``
    (``known(pid)``: the piece is on the table, now or at the note's entry; ``standing``:
    the notes not removed)."""
    if command.action in ("edit", "remove") and command.note not in set(standing):
        raise CommandError(f"there is no note #{command.note} (or it was removed)")
    if command.action == "remove":
        return
    if command.tag not in NOTE_TAGS:
        raise CommandError(
            f"there is no note tag {quoted(command.tag)} (tags: {', '.join(NOTE_TAGS)})"
        )
    if not command.text.strip():
        raise CommandError("a note needs some text")
    if not 0 <= command.at <= len(entries):
        raise CommandError(f"there is no entry {command.at}: the log holds 0 to {len(entries)}")
    for pid in command.pieces:
        if not known(pid):
            raise CommandError(f"there is no piece {quoted(pid)} on the table")
