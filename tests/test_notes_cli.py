"""Playtest notes from the command line: ``tabletop note`` writes one (or edits or removes one)
whole or not at all, ``tabletop notes`` lists them, ``tabletop log`` shows them under their
entries; a seat reads a piece it could not see as the log names it. Greenland and Looot alike:
nothing here knows a game (table: no rulebook section applies)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.persist import Game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def new(tmp_path: Path, capsys: pytest.CaptureFixture[str], module: str) -> Path:
    path = tmp_path / f"{module}.jsonl"
    code, _, err = run(capsys, "new", module, "--seats", "3", "--seed", "2", "-o", str(path))
    assert code == 0, err
    return path


def face_down_piece(path: Path) -> str:
    """A piece lying face down (a deck's card): hidden from every seat."""
    game = Game.open(path, writable=False)
    return next(p.id for p in game.state.pieces.values() if not p.face_up)


@pytest.mark.parametrize("module", ["greenland", "looot"])
def test_table_note_notes_and_log(tmp_path, capsys, module: str) -> None:
    path = new(tmp_path, capsys, module)
    hidden = face_down_piece(path)
    before = Game.open(path, writable=False)
    digest, last = before.state.digest(), before.table.seq
    first, second, third = (s.id for s in before.header.seats)
    code, out, err = run(
        capsys, "note", str(path), "--tag", "balance", f"{hidden} looks too strong",
        "--pieces", hidden, "--seat", first,
    )  # fmt: skip
    assert code == 0, err
    note = last + 1
    assert f"entry {note}:" in out and "[balance]" in out
    code, out, err = run(
        capsys, "note", str(path), "--tag", "typo or graphics", "the board's legend", "--entry", "2",
    )  # fmt: skip
    assert code == 0, err
    game = Game.open(path, writable=False)
    assert game.state.digest() == digest  # notes change nothing on the table
    assert [(n.id, n.tag, n.at, n.author) for n in game.table.notes()] == [
        (note, "balance", last, first),
        (note + 1, "typo", 2, "table"),
    ]

    code, out, _ = run(capsys, "notes", str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"entry     2  note #{note + 1} [typo or graphics] by table")
    assert f"note #{note} [balance]" in lines[1] and hidden in lines[1]
    code, out, _ = run(capsys, "notes", str(path), "--json", "--tag", "balance")
    rows = json.loads(out)
    assert [(r["id"], r["tag"], r["at"], r["pieces"]) for r in rows] == [
        (note, "balance", last, [hidden])
    ]
    code, out, _ = run(capsys, "notes", str(path), "--seat", second)
    assert code == 0 and hidden not in out and "looks too strong" in out  # its back, not its id

    code, out, _ = run(capsys, "log", str(path))
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{last} "))
    assert lines[at + 1].strip().startswith(f"✎ note #{note} [balance]")
    code, out, _ = run(capsys, "log", str(path), "--seat", third)
    assert hidden not in out and f"✎ note #{note} [balance]" in out


def test_table_edit_and_remove_keep_the_history(tmp_path, capsys) -> None:
    path = new(tmp_path, capsys, "greenland")
    assert run(capsys, "note", str(path), "--tag", "idea", "first words")[0] == 0
    note = Game.open(path, writable=False).table.notes()[0].id
    code, out, err = run(capsys, "note", str(path), "--edit", str(note), "better words")
    assert code == 0, err and f"edited note #{note}" in out
    code, _, err = run(capsys, "note", str(path), "--remove", str(note), "--seat", "yellow")
    assert code == 0, err
    game = Game.open(path, writable=False)
    assert game.table.notes() == []
    (gone,) = game.table.notes(removed=True)
    assert gone.text == "better words" and len(gone.history) == 2 and gone.removed
    assert [e.kind for e in game.table.entries[-3:]] == ["note", "note", "note"]
    code, out, _ = run(capsys, "notes", str(path))
    assert code == 0 and "no notes" in out


def test_table_note_to_another_file_leaves_the_game_as_it_was(tmp_path, capsys) -> None:
    path = new(tmp_path, capsys, "greenland")
    original = path.read_bytes()
    out_path = tmp_path / "noted.jsonl"
    code, _, err = run(capsys, "note", str(path), "--tag", "flaw", "x", "-o", str(out_path))
    assert code == 0, err
    assert path.read_bytes() == original
    assert len(Game.open(out_path, writable=False).table.notes()) == 1
    code, _, err = run(capsys, "note", str(path), "--tag", "flaw", "x", "-o", str(out_path))
    assert code == 2 and "already exists" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tag", "gripe", "x"], "there is no note tag 'gripe'"),
        (["--tag", "idea", "x", "--entry", "999"], "there is no entry 999"),
        (["--tag", "idea", "x", "--pieces", "no-such-piece"], "there is no piece 'no-such-piece'"),
        (["--tag", "idea", "x", "--seat", "purple"], "--seat 'purple': there is no such seat"),
        (["--tag", "idea"], "a new note needs --tag T and its TEXT"),
        (["--edit", "3", "x"], "there is no note #3"),
        (["--tag", "idea", "x", "--bogus"], "unrecognized arguments: x --bogus"),
    ],
)
def test_table_bad_input_is_one_plain_message_and_nothing_written(
    tmp_path, capsys, argv: list[str], message: str
) -> None:
    path = new(tmp_path, capsys, "greenland")
    original = path.read_bytes()
    code, _, err = run(capsys, "note", str(path), *argv)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
