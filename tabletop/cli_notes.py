"""The command line's playtest notes: ``tabletop note`` writes one, ``tabletop notes`` lists
them, and ``tabletop log`` shows them under the entries they are tied to.

A note is a 'note' entry of the game's log (tabletop/core/notes.py). ``note`` writes the game
whole or not at all (``Game.continued``): to ``-o OUT``, or back over FILE in one rename.
Read as a seat (``--seat``), a piece the seat could not see is named in a note as the log
names it (tabletop/log_view.py).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable, Mapping

from tabletop.cli_games import CliError, check_output, game_module, open_game
from tabletop.core import NOTE_TAGS, Annotate, CommandError, PlaytestNote, note_tag
from tabletop.core.actors import actor_label
from tabletop.log_view import LogReader
from tabletop.modules import ModuleError
from tabletop.modules.words import piece_words
from tabletop.persist import Game

NOTE_INDENT = " " * 17  # under an entry's line, as its findings are


def note_words(note: PlaytestNote, names: Mapping[str, str]) -> str:
    """A note in one line: its number, tag, author, text and the pieces it is tied to."""
    text = f"note #{note.id} [{note.tag_text}] by {actor_label(note.author, names)}: {note.text}"
    if note.pieces:
        text += f" (pieces: {', '.join(note.pieces)})"
    if note.png is not None:
        text += " [snapshot]"
    if note.edited is not None:
        text += f" (edited at entry {note.edited})"
    return text


def seat_reader(game: Game, seat: str | None, file: str) -> Callable[[int, str], str]:
    """``redact(seq, text)``: text written for entry ``seq`` as ``seat`` may read it (None: the
    file's own words, everything named)."""
    if seat is None:
        return lambda seq, text: text
    names = {s.id: s.name for s in game.header.seats}
    if seat not in names:
        raise CliError(f"{file}: there is no seat {seat!r} (seats: {', '.join(names)})")
    try:
        words = piece_words(game_module(game))
    except ModuleError as exc:  # without the cards' names a note could name a hidden card
        raise CliError(f"{file}: cannot read as a seat without the game's module: {exc}") from None
    reader = LogReader(game.table, names, words)
    return lambda seq, text: reader.redact(seq, text, seat)


def notes_by_entry(game: Game) -> dict[int, list[PlaytestNote]]:
    """The standing notes, by the entry they are tied to."""
    found: dict[int, list[PlaytestNote]] = {}
    for note in game.table.notes():
        found.setdefault(note.at, []).append(note)
    return found


def log_note_lines(
    notes: list[PlaytestNote], names: Mapping[str, str], redact: Callable[[int, str], str]
) -> list[str]:
    """The lines ``tabletop log`` shows under an entry for the notes tied to it."""
    return [f"{NOTE_INDENT}✎ {redact(n.words_seq, note_words(n, names))}" for n in notes]


def _pieces(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(p.strip() for p in text.split(",") if p.strip())


def cmd_note(args: argparse.Namespace) -> int:
    """Add a note (or with --edit / --remove, change one) to a game's log."""
    if args.edit is not None and args.remove is not None:
        raise CliError("--edit and --remove: give one of them")
    output = args.output or args.file
    if args.output is not None:
        check_output(args.output)
    saved = open_game(args.file)
    seats = [s.id for s in saved.header.seats]
    if args.seat is not None and args.seat not in seats:
        raise CliError(f"--seat {args.seat!r}: there is no such seat ({', '.join(seats)})")
    actor = args.seat or "table"
    standing = {n.id: n for n in saved.table.notes()}
    target = args.edit if args.edit is not None else args.remove
    if target is not None and target not in standing:
        raise CliError(
            f"{args.file}: there is no note #{target} (notes: "
            f"{', '.join(f'#{i}' for i in standing) or 'none'})"
        )
    try:
        tag = note_tag(args.tag) if args.tag is not None else None
    except CommandError as exc:
        raise CliError(f"--tag: {exc}") from None
    if args.remove is not None:
        command = Annotate("remove", args.remove)
    elif args.edit is not None:
        old = standing[args.edit]
        pieces = _pieces(args.pieces)
        command = Annotate(
            "edit",
            args.edit,
            tag or old.tag,
            args.text if args.text is not None else old.text,
            args.entry if args.entry is not None else old.at,
            pieces if pieces is not None else old.pieces,
        )
    else:
        if tag is None or args.text is None:
            raise CliError("a new note needs --tag T and its TEXT")
        command = Annotate(
            "add",
            None,
            tag,
            args.text,
            args.entry if args.entry is not None else saved.table.seq,
            _pieces(args.pieces) or (),
        )
    saved.close()
    try:
        with Game.continued(args.file, output, replace=args.output is None, writable=True) as copy:
            entry = copy.table.annotate(command, actor).entry
    except CommandError as exc:
        raise CliError(f"{args.file}: {exc} (nothing was written)") from None
    names = {s.id: s.name for s in saved.header.seats}
    print(f"{output}: entry {entry.seq}: {actor_label(actor, names)} {entry.command.describe()}")
    return 0


def cmd_notes(args: argparse.Namespace) -> int:
    """The notes of a game, by the entry they are tied to."""
    game = open_game(args.file)
    try:
        tag = note_tag(args.tag) if args.tag is not None else None
    except CommandError as exc:
        raise CliError(f"--tag: {exc}") from None
    redact = seat_reader(game, args.seat, args.file)
    notes = sorted(
        (n for n in game.table.notes() if tag is None or n.tag == tag), key=lambda n: (n.at, n.id)
    )
    names = {s.id: s.name for s in game.header.seats}
    if args.json:
        rows = []
        for note in notes:
            row = note.to_dict()
            row["tag_text"] = note.tag_text
            row["text"] = redact(note.words_seq, note.text)
            row["pieces"] = [redact(note.words_seq, p) for p in note.pieces]
            row["written"] = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(note.time))
            rows.append(row)
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not notes:
        which = f" tagged {NOTE_TAGS[tag]}" if tag else ""
        print(f"{os.path.basename(args.file)}: no notes{which}")
        return 0
    for note in notes:
        print(f"entry {note.at:>5}  {redact(note.words_seq, note_words(note, names))}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """The options of ``note`` and ``notes``."""
    tags = ", ".join(NOTE_TAGS)
    p = sub.add_parser(
        "note",
        help="write a playtest note into a game's log (or edit or remove one)",
        description="Write a playtest note into a game's log, tied to an entry and to pieces."
        " A note changes nothing on the table; edits and removals are later entries, so the"
        " log keeps every version. The game is written whole or not at all: to -o OUT, or"
        " back over FILE.",
    )
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("text", nargs="?", help="what the note says")
    p.add_argument("--tag", help=f"one of: {tags}")
    p.add_argument("--entry", type=int, help="the entry the note speaks of (default: the last one)")
    p.add_argument("--pieces", metavar="A,B", help="pieces the note is about, by id")
    p.add_argument("--seat", help="the seat writing it (default: the table)")
    p.add_argument("--edit", type=int, metavar="N", help="change note #N instead")
    p.add_argument("--remove", type=int, metavar="N", help="remove note #N")
    p.add_argument("-o", "--output", help="write the game with the note here (never overwritten)")

    p = sub.add_parser("notes", help="a game's playtest notes, by entry")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--tag", help=f"only notes with this tag ({tags})")
    p.add_argument("--json", action="store_true", help="print a JSON list of notes")
    p.add_argument("--seat", help="as this seat reads them: pieces it could not see are not named")
