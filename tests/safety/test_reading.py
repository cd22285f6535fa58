"""Files received from others: a broken one gets one plain line naming the file (and line),
exit code 2, and changes nothing; what the program prints never crashes on what a file holds
and never passes a terminal control sequence through; a reader closing the output early ends
the command quietly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.core import actions, printable, quoted
from tabletop.core.state import digest_of
from tabletop.modules import resources_dir
from tabletop.persist import Game, LogError

NESTED = "[" * 100_000 + "]" * 100_000  # far past the JSON decoder's own limit
TERMINAL_TRICKS = "\x1b]0;owned\x07\r\x1b[2J"  # retitle the terminal, go home, clear the screen


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused command prints (exit 2, nothing on stdout)."""
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert out == ""
    assert len(err.splitlines()) == 1, err
    return err


@pytest.fixture
def greenland_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.jsonl"
    assert main(["new", "greenland", "--seed", "3", "-o", str(path)]) == 0
    capsys.readouterr()
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ---- 1. values nested too deep -------------------------------------------------------------
def test_log_line_nested_past_the_decoder_is_refused_naming_the_line(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = lines_of(greenland_log)
    bad = write_lines(greenland_log.with_name("deep.jsonl"), [lines[0], NESTED, *lines[1:]])
    before = bad.read_bytes()
    for command in ("inspect", "log", "check", "score"):
        err = refused(capsys, command, str(bad))
        assert f"{bad}, line 2: its values are nested more than 100 deep" in err
    assert bad.read_bytes() == before
    with pytest.raises(LogError, match="line 2"):
        Game.open(bad)


def test_log_value_nested_deeper_than_the_limit_is_refused(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """150 levels decode, but would overflow the functions that copy and compare states."""
    lines = lines_of(greenland_log)
    entry = json.loads(lines[1])
    entry["cmd"]["commands"][0]["place"]["props"] = {"deep": json.loads("[" * 150 + "]" * 150)}
    bad = write_lines(greenland_log, [lines[0], json.dumps(entry), *lines[2:]])
    assert "line 2: its values are nested more than 100 deep" in refused(
        capsys, "inspect", str(bad)
    )


def test_log_last_line_cut_inside_deep_nesting_is_left_out_with_a_warning(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open(greenland_log, "a", encoding="utf-8") as handle:
        handle.write("[" * 100_000)  # a crash while writing the last line
    code, out, err = run(capsys, "log", str(greenland_log))
    assert code == 0 and "starting cubes and disks" in out
    assert "the last line was cut short" in err


def test_module_toml_nested_too_deep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "deep"
    shutil.copytree(resources_dir() / "proto", module)
    with open(module / "module.toml", "a", encoding="utf-8") as handle:
        handle.write("\n[deep]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    err = refused(capsys, "modules", str(module))
    assert f"{module / 'module.toml'}: is nested too deeply to read" in err
    target = tmp_path / "new.jsonl"
    refused(capsys, "new", str(module), "-o", str(target))
    assert not target.exists()


def test_greenland_position_toml_nested_too_deep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = tmp_path / "position.toml"
    position.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    target = tmp_path / "new.jsonl"
    err = refused(capsys, "new", "greenland", "--position", str(position), "-o", str(target))
    assert f"{position}: nested too deeply to read" in err
    assert not target.exists()


def test_looot_layout_json_nested_too_deep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layout = tmp_path / "layout.json"
    layout.write_text('{"boards": ' + NESTED + "}", encoding="utf-8")
    target = tmp_path / "new.jsonl"
    err = refused(capsys, "new", "looot", "--position", str(layout), "-o", str(target))
    assert f"{layout}: nested too deeply to read" in err
    assert not target.exists()


# ---- 2. a log that stops before the table is laid out ----------------------------------------
NOT_LAID_OUT = "the game's table is not laid out yet (its setup has not put out the place"


@pytest.mark.parametrize("module", ["greenland", "looot", "proto"])
def test_header_alone_is_read_as_a_table_not_laid_out(
    module: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crash while setting up leaves the header alone (an entry is written whole)."""
    full = tmp_path / "full.jsonl"
    assert main(["new", module, "--seed", "3", "-o", str(full)]) == 0
    header = write_lines(tmp_path / "header.jsonl", lines_of(full)[:1])
    before = header.read_bytes()
    code, out, _ = run(capsys, "inspect", str(header))  # what there is: the seats, no places
    assert code == 0 and "0 pieces in 0 places" in out and f"{module}: {NOT_LAID_OUT}" in out
    code, out, _ = run(capsys, "inspect", "--json", str(header))
    (summary,) = json.loads(out)["summary"]
    assert code == 0 and summary.startswith(f"{module}: {NOT_LAID_OUT}")
    for command, doing in (("score", "score"), ("check", "check")):
        err = refused(capsys, command, str(header))
        assert f"{header}: {NOT_LAID_OUT}" in err and f"there is nothing to {doing}" in err
    code, out, _ = run(capsys, "session", str(header))
    assert code == 0 and "Result: none (the game's table is not laid out yet" in out
    code, out, _ = run(capsys, "log", str(header))
    assert code == 0 and "no moves yet" in out
    assert header.read_bytes() == before


def test_greenland_procedure_on_a_header_alone_is_refused(
    greenland_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = write_lines(tmp_path / "header.jsonl", lines_of(greenland_log)[:1])
    out = tmp_path / "out.jsonl"
    err = refused(capsys, "greenland", "event", str(header), "-o", str(out))
    assert NOT_LAID_OUT in err and "no procedure can run (nothing was written)" in err
    err = refused(capsys, "run", str(header), "event", "-o", str(out))
    assert NOT_LAID_OUT in err and not out.exists()


def test_greenland_table_before_entry_1_is_not_laid_out(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "inspect", str(greenland_log), "--at", "0")
    assert code == 0 and f"greenland: {NOT_LAID_OUT} 'north_cold')" in out
    assert NOT_LAID_OUT in refused(capsys, "check", str(greenland_log), "--at", "0")


def test_greenland_setup_cut_after_laying_out_shows_what_there_is(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The places are out, the cards not yet: the game reads the table as it is."""
    cut = write_lines(greenland_log, lines_of(greenland_log)[:3])
    for command in ("inspect", "score", "check"):
        code, out, err = run(capsys, command, str(cut))
        assert code == 0 and out and "Traceback" not in err


def test_render_and_play_of_a_header_alone(
    qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:  # noqa: ANN001
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    full = tmp_path / "full.jsonl"
    assert main(["new", "greenland", "--seed", "3", "-o", str(full)]) == 0
    header = write_lines(tmp_path / "header.jsonl", lines_of(full)[:1])
    picture = tmp_path / "table.png"
    code, out, _ = run(capsys, "render", str(header), "-o", str(picture))
    assert code == 0 and picture.exists()  # the empty table, as it is
    shot = tmp_path / "window.png"
    err = refused(capsys, "play", str(header), "--screenshot", str(shot))
    assert f"{header}: {NOT_LAID_OUT} 'north_cold')" in err and not shot.exists()


# ---- 3. lone surrogates --------------------------------------------------------------------
def test_lone_surrogates_in_a_seat_name_and_notes_print_escaped(greenland_log: Path) -> None:
    """JSON may spell a lone UTF-16 surrogate ("\\udc80"); no output encoding can write it."""
    text = greenland_log.read_text(encoding="utf-8")
    text = text.replace('"name":"Norse"', '"name":"No\\udc80rse"', 1)
    text = text.replace('"notes":""', '"notes":"half \\ud800 a pair"', 1)
    greenland_log.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict: the surrogate cannot be encoded
    for command in (["inspect"], ["inspect", "--json"], ["log"], ["log", "--json"], ["score"]):
        done = subprocess.run(
            [sys.executable, "-m", "tabletop.cli", *command, str(greenland_log)],
            capture_output=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr.decode()
        assert b"Traceback" not in done.stderr
        if command[0] in ("inspect", "score"):
            assert b"No\\udc80rse" in done.stdout


def test_lone_surrogates_from_a_log_are_written_back_as_escapes(
    greenland_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A branch of such a log (and any line written after them) holds the same text."""
    text = greenland_log.read_text(encoding="utf-8")
    greenland_log.write_text(text.replace('"Norse"', '"No\\udc80rse"', 1), encoding="utf-8")
    branch = tmp_path / "branch.jsonl"
    assert run(capsys, "replay", str(greenland_log), "--to", "3", "-o", str(branch))[0] == 0
    branch.read_bytes().decode("utf-8")  # a UTF-8 file
    with Game.open(branch, writable=False) as game:
        assert game.header.seats[0].name == "No\udc80rse"


def test_command_line_text_that_is_not_utf8_is_logged(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 in an argument reach Python as lone surrogates."""
    path = tmp_path / "game.jsonl"
    argv = [sys.executable.encode(), b"-m", b"tabletop.cli", b"new", b"proto"]
    done = subprocess.run(
        [*argv, b"--notes", b"caf\xe9", b"-o", bytes(path)], capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    path.read_bytes().decode("utf-8")
    with Game.open(path, writable=False) as game:
        assert game.header.notes == "caf\udce9"


def test_sessions_and_report_of_logs_with_lone_surrogates(
    greenland_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = greenland_log.read_text(encoding="utf-8").replace('"Norse"', '"No\\udc80rse"', 1)
    greenland_log.write_text(text.replace('"where"', '"wh\\udc80ere"', 1), encoding="utf-8")
    text = greenland_log.read_text(encoding="utf-8")
    greenland_log.write_text(text.replace('"notes":""', '"notes":"n\\udc80"', 1), encoding="utf-8")
    table = tmp_path / "sessions.json"
    assert run(capsys, "sessions", str(greenland_log), "--json", "-o", str(table))[0] == 0
    json.loads(table.read_text(encoding="utf-8"))
    report = tmp_path / "report.html"
    code, _, err = run(capsys, "report", str(greenland_log.parent), "-o", str(report))
    assert code == 0 and report.exists(), err


# ---- 4. messages quoting what a file holds -------------------------------------------------
def test_quoted_escapes_controls_and_cuts_long_values() -> None:
    assert quoted("plain") == "'plain'"
    assert quoted(TERMINAL_TRICKS) == "'\\x1b]0;owned\\x07\\r\\x1b[2J'"
    assert quoted("\udc80") == "'\\udc80'"
    long = quoted("x" * 10_000_000)
    assert long == "'" + "x" * 200 + "'… (10,000,000 characters in all)"
    assert quoted(["\x1b"] * 1000).endswith("… (8,000 characters in all)")
    assert printable("two\nlines\r\x1b[2J") == "two\nlines\\r\\x1b[2J"


def test_command_error_quotes_a_log_value_escaped_and_cut(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = lines_of(greenland_log)
    entry = json.loads(lines[9])  # the starting cubes and disks, moved by index
    entry["cmd"]["commands"][0]["to"]["place"] = TERMINAL_TRICKS + "y" * 10_000_000
    bad = write_lines(greenland_log, [*lines[:9], json.dumps(entry)])
    err = refused(capsys, "inspect", str(bad))
    assert "line 10: entry 9 does not fit the table" in err
    assert "there is no place '\\x1b]0;owned\\x07\\r\\x1b[2Jyyy" in err
    assert f"({len(TERMINAL_TRICKS) + 10_000_000:,} characters in all)" in err
    assert "\x1b" not in err and "\r" not in err and len(err) < 600


def test_log_reading_error_quotes_an_entry_kind_escaped_and_cut(
    greenland_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = lines_of(greenland_log)
    entry = json.loads(lines[1])
    entry["kind"] = TERMINAL_TRICKS * 1000
    bad = write_lines(greenland_log, [lines[0], json.dumps(entry), *lines[2:]])
    err = refused(capsys, "log", str(bad))
    assert "line 2: unknown entry kind '\\x1b]0;owned\\x07\\r" in err
    assert f"({len(TERMINAL_TRICKS) * 1000:,} characters in all)" in err
    assert "\x1b" not in err and "\r" not in err and len(err) < 600


def test_manifest_error_quotes_a_value_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "tricky"
    shutil.copytree(resources_dir() / "proto", module)
    manifest = module / "module.toml"
    text = manifest.read_text(encoding="utf-8")
    spelled = TERMINAL_TRICKS.encode("unicode_escape").decode().replace("\\x", "\\u00")
    manifest.write_text(
        text.replace('shape = "cube"', f'shape = "{spelled}{"z" * 5000}"', 1), encoding="utf-8"
    )
    err = refused(capsys, "modules", str(module))
    assert (
        "shape: must be one of" in err
        and f"({len(TERMINAL_TRICKS) + 5000:,} characters in all)" in err
    )
    assert "\x1b" not in err and "\r" not in err and len(err) < 400


def test_deck_import_error_quotes_a_cell_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.csv"
    rows = (resources_dir() / "proto" / "decks" / "cards.csv").read_text().splitlines()
    cells = rows[1].split(",")
    cells[3] = '"1' + TERMINAL_TRICKS.replace("\r", "") + "9" * 5000 + '"'
    deck.write_text("\n".join([rows[0], ",".join(cells), *rows[2:]]) + "\n", encoding="utf-8")
    err = refused(capsys, "deck", "import", str(deck), "--module", "proto", "--name", "x")
    assert "line 2: column 'cost': '1\\x1b]0;owned\\x07\\x1b[2J999" in err
    assert f"({len(TERMINAL_TRICKS) + 5000:,} characters in all)" in err
    assert "\x1b" not in err and len(err) < 600


def test_every_printed_error_is_escaped_even_unquoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last guard: whatever a message holds, the printed line obeys no control code."""
    name = tmp_path / f"game{TERMINAL_TRICKS}.jsonl"
    err = refused(capsys, "inspect", str(name))
    assert "game\\x1b]0;owned\\x07\\r\\x1b[2J.jsonl: no such file" in err
    assert "\x1b" not in err and "\r" not in err


def test_text_from_a_file_reaches_a_terminal_escaped(greenland_log: Path) -> None:
    """A seat name holding an escape sequence, printed by inspect and score to a terminal."""
    import pty

    text = greenland_log.read_text(encoding="utf-8")
    trick = json.dumps(TERMINAL_TRICKS)[1:-1]
    greenland_log.write_text(text.replace('"Norse"', f'"Norse{trick}"', 1), encoding="utf-8")
    for command in ("inspect", "score", "log"):
        leader, follower = pty.openpty()
        done = subprocess.run(
            [sys.executable, "-m", "tabletop.cli", command, str(greenland_log)],
            stdout=follower,
            stderr=subprocess.PIPE,
            timeout=120,
        )
        os.close(follower)
        shown = b""
        try:
            while chunk := os.read(leader, 1 << 16):
                shown += chunk
        except OSError:  # the terminal's other end is closed: all is read
            pass
        os.close(leader)
        assert done.returncode == 0, done.stderr.decode()
        assert b"\x1b" not in shown and b"\x07" not in shown and b"\r\x1b" not in shown
        if command != "log":
            assert b"Norse\\x1b]0;owned\\x07\\r\\x1b[2J" in shown


# ---- 5. the reader closes the output early -------------------------------------------------
def test_output_closed_early_ends_quietly(tmp_path: Path) -> None:
    """``tabletop log --json FILE | head -1``: far more than a pipe holds, cut after a line."""
    folder = tmp_path / "logs"
    made = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "simulate", "greenland", "--games", "1"]
        + ["--seed", "4", "--jobs", "1", "--save-logs", str(folder)],
        capture_output=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr.decode()
    (log,) = folder.glob("*.jsonl")
    assert log.stat().st_size > 1 << 17  # more than any pipe buffers
    for command in (["log", "--json"], ["log"], ["inspect", "--json"]):
        reader = subprocess.Popen(
            [sys.executable, "-m", "tabletop.cli", *command, str(log)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert reader.stdout is not None and reader.stderr is not None
        first = reader.stdout.readline()
        reader.stdout.close()  # as head -1 does
        err = reader.stderr.read()
        assert reader.wait(timeout=120) == 0, err.decode()
        assert first and err == b""


# ---- 6. a checkpoint edited and hashed again -----------------------------------------------
@pytest.fixture
def forged_log(greenland_log: Path) -> Path:
    """A played log with checkpoints, whose last checkpoint holds a counter no entry set
    (the state edited and its hash computed again, as anyone can)."""
    with Game.open(greenland_log) as game:
        table = game.table
        table.checkpoint_every = 3
        for turn in range(2, 9):
            table.submit(actions.set_counter(table.state, "turn", turn), "red")
    lines = lines_of(greenland_log)
    number = max(i for i, line in enumerate(lines) if '"checkpoint":' in line[:20])
    checkpoint = json.loads(lines[number])
    checkpoint["state"]["counters"]["forged"] = "yes"
    checkpoint["hash"] = digest_of(checkpoint["state"])
    lines[number] = json.dumps(checkpoint, ensure_ascii=False, separators=(",", ":"))
    return write_lines(greenland_log, lines)


def test_fast_open_takes_a_rehashed_checkpoint_as_documented(forged_log: Path) -> None:
    """verify=False trusts the file (Game.open says so): only for logs the program wrote."""
    with Game.open(forged_log, writable=False, verify=False) as game:
        assert game.state.counters["forged"] == "yes"
    with pytest.raises(LogError, match="does not match the checkpoint saved there"):
        Game.open(forged_log, writable=False)


def test_every_command_opening_a_file_refuses_a_rehashed_checkpoint(
    qapp, forged_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # noqa: ANN001
    before = forged_log.read_bytes()
    altered = "does not match the checkpoint saved there; the log has been altered"
    for argv in (
        ["inspect", str(forged_log)],
        ["check", str(forged_log)],
        ["score", str(forged_log)],
        ["log", str(forged_log)],
        ["session", str(forged_log)],
        ["render", str(forged_log), "-o", str(tmp_path / "table.png")],
        ["play", str(forged_log), "--screenshot", str(tmp_path / "window.png")],
        ["greenland", "event", str(forged_log), "-o", str(tmp_path / "out.jsonl")],
    ):
        assert altered in refused(capsys, *argv), argv
    code, out, err = run(capsys, "sessions", str(forged_log))
    assert f"{forged_log}: not a game that can be read" in err and altered in err
    report = tmp_path / "report.html"
    code, out, err = run(capsys, "report", str(tmp_path), "-o", str(report))
    assert f"{forged_log}: not a game that can be read" in err and altered in err
    assert forged_log.read_bytes() == before
    assert not (tmp_path / "out.jsonl").exists() and not (tmp_path / "window.png").exists()


def test_window_looking_back_before_entry_1_says_the_table_is_not_laid_out(
    qtbot, greenland_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    from PySide6.QtCore import QSettings

    from tabletop.ui.window import MainWindow

    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(window)
    assert window.open_path(str(greenland_log)) is not None
    window.log_panel.list.setCurrentRow(0)  # after entry 1, the places laid out
    window.log_panel.back.click()  # before it
    assert window.session.history_seq == 0
    assert window.score_panel.title.text().startswith(
        f"The score cannot be counted: {NOT_LAID_OUT} 'north_cold')"
    )
    window.log_panel.now.click()
    assert window.score_panel.rows and window.session.history_seq is None
