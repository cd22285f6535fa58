"""Playtest notes are 'note' entries of the game's log: written, reopened, replayed, branched;
edits and removals are later entries, so the log keeps every version; a note never changes the
table nor its hash, and undo passes it by (table: no rulebook section applies)."""

from __future__ import annotations

import base64
import json

import pytest

from tabletop.core import NOTE_TAGS, Annotate, CommandError, Entry, FormatError
from tabletop.core import actions as act
from tabletop.core.notes import PNG_SIGNATURE, png_text
from tabletop.log_view import LogReader, PieceWords
from tabletop.persist import Game, LogError
from tests.sample_table import sample_header, sample_table, setup_commands

# a real (1 x 1) PNG: the signature, IHDR, IDAT, IEND
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def add(table, text: str = "is this legal?", tag: str = "rules", **fields):  # noqa: ANN001, ANN201
    fields.setdefault("at", table.seq)
    return table.annotate(Annotate("add", None, tag, text, **fields), "red").entry.seq


def test_table_a_note_changes_nothing_and_undo_passes_it_by() -> None:
    table = sample_table()
    move = table.submit(act.flip(table.state, "card9"), "red").seq
    digest, state = table.state.digest(), table.state.to_dict()
    note = add(table, pieces=("card9",), png=png_text(TINY_PNG))
    assert table.entries[-1].kind == "note" and table.entries[-1].actor == "red"
    assert table.state.digest() == digest and table.state.to_dict() == state
    assert table.undo_stack == (move,)  # a note is not a move
    table.undo("red")  # takes back the flip, not the note
    assert table.state.pieces["card9"].face_up is False
    assert [n.id for n in table.notes()] == [note]
    assert table.redo("red").entry.ref == move  # a note between does not lose the redo
    standing = table.notes()[0]
    assert (standing.tag, standing.text, standing.at, standing.pieces) == (
        "rules",
        "is this legal?",
        move,
        ("card9",),
    )
    assert standing.snapshot == TINY_PNG and standing.author == "red"


def test_table_a_note_is_written_only_through_annotate() -> None:
    table = sample_table()
    with pytest.raises(CommandError, match="annotate"):
        table.submit(Annotate("add", None, "idea", "x", 0), "red")
    record = table.annotate(Annotate("add", None, "idea", "x", 0), "red").entry.to_dict()
    assert record["kind"] == "note" and record["cmd"]["op"] == "annotate"
    with pytest.raises(FormatError, match="note"):
        Entry.from_dict({**record, "kind": "do"})  # a note dressed as a move
    with pytest.raises(FormatError, match="note"):
        Entry.from_dict({**record, "cmd": {"op": "note", "text": "x"}})
    with pytest.raises(FormatError, match="tag"):
        Entry.from_dict({**record, "cmd": {**record["cmd"], "tag": "gripe"}})
    with pytest.raises(FormatError, match="PNG"):
        bad = base64.b64encode(b"GIF89a....").decode()
        Entry.from_dict({**record, "cmd": {**record["cmd"], "png": bad}})


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Annotate("add", None, "gripe", "x", 0), "no note tag 'gripe'"),
        (Annotate("add", None, "idea", "  ", 0), "needs some text"),
        (Annotate("add", None, "idea", "x", 99), "no entry 99"),
        (Annotate("add", None, "idea", "x", 0, ("card99",)), "no piece 'card99'"),
        (Annotate("edit", 5, "idea", "x", 0), "no note #5"),
        (Annotate("remove", 5), "no note #5"),
    ],
)
def test_table_a_bad_note_is_refused_naming_what(command: Annotate, message: str) -> None:
    table = sample_table()
    seq = table.seq
    with pytest.raises(CommandError, match=message):
        table.annotate(command, "red")
    assert table.seq == seq  # nothing logged


def test_table_edits_and_removals_keep_the_history() -> None:
    table = sample_table()
    note = add(table, "too strong", tag="balance", at=3)
    edit = table.annotate(Annotate("edit", note, "idea", "cost 2 instead", 4), "blue").entry.seq
    (standing,) = table.notes()
    assert (standing.tag, standing.text, standing.at) == ("idea", "cost 2 instead", 4)
    assert standing.author == "red" and standing.edited == edit and standing.history == [note, edit]
    removal = table.annotate(Annotate("remove", note), "blue").entry.seq
    assert table.notes() == []
    (gone,) = table.notes(removed=True)
    assert gone.removed == removal
    # every version stays in the log
    words = [e.command.describe() for e in table.entries[note - 1 :]]
    assert words == [
        "note on entry 3 [balance]: too strong",
        f"edited note #{note} on entry 4 [idea]: cost 2 instead",
        f"removed note #{note}",
    ]
    with pytest.raises(CommandError, match="removed"):
        table.annotate(Annotate("edit", note, "idea", "again", 4), "red")


def test_table_every_tag_reads_as_the_issue_names_it() -> None:
    assert list(NOTE_TAGS.values()) == [
        "rules question",
        "ambiguity",
        "balance",
        "flaw",
        "typo or graphics",
        "idea",
        "other",
    ]


def test_table_notes_are_saved_reopened_replayed_and_branched(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game = Game.create(sample_header(), setup_commands(), path)
    game.table.checkpoint_every = 3  # checkpoints before and after the notes
    table = game.table
    table.submit(act.flip(table.state, "card9"), "red")
    first = add(table, "a flaw", tag="flaw", pieces=("card9",), png=png_text(TINY_PNG))
    table.submit(act.flip(table.state, "elder"), "blue")
    second = add(table, "an idea", tag="idea")
    table.annotate(Annotate("edit", first, "flaw", "a flaw, said better", 1, ("card9",)), "blue")
    digest = table.state.digest()
    expected = [n.to_dict() for n in table.notes()]
    game.close()

    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert sum(1 for r in records if r.get("kind") == "note") == 3
    for verify in (True, False):  # replayed from the start, or resumed from a checkpoint
        opened = Game.open(path, verify=verify)
        assert [n.to_dict() for n in opened.table.notes()] == expected
        assert opened.table.state.digest() == digest
        assert opened.table.notes()[0].snapshot.startswith(PNG_SIGNATURE)
        opened.close()
    # a branch keeps the notes up to its entry
    reopened = Game.open(path)
    reopened.branch(second - 1, tmp_path / "branch.jsonl")
    reopened.close()
    branch = Game.open(tmp_path / "branch.jsonl", writable=False)
    assert [n.id for n in branch.table.notes()] == [first]
    assert branch.table.notes()[0].text == "a flaw"  # the edit came later


def test_table_a_damaged_note_names_its_line(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    game = Game.create(sample_header(), setup_commands(), path)
    add(game.table, "fine")
    game.close()
    lines = path.read_text().splitlines()
    record = json.loads(lines[-1])
    record["cmd"]["png"] = "not base64!"
    lines[-1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=rf"line {len(lines)}: .*snapshot"):
        Game.open(path)


def test_table_a_note_names_a_hidden_piece_as_the_log_does() -> None:
    """A note tied to a card in Red's hand: Red reads its id, Blue and a spectator its back."""
    table = sample_table()
    table.submit(act.move(table.state, "card9", "hand-red"), "red")
    add(table, "card9 is worded oddly", tag="typo", pieces=("card9",))
    (note,) = table.notes()
    words = PieceWords(back=lambda piece: "a sample card")
    reader = LogReader(table, words=words)
    text = f"{note.text} [{', '.join(note.pieces)}]"
    assert reader.redact(note.words_seq, text, "red") == "card9 is worded oddly [card9]"
    for viewer in ("blue", None):
        assert (
            reader.redact(note.words_seq, text, viewer)
            == "a sample card is worded oddly [a sample card]"
        )
