"""What ``tabletop play greenland --screenshot`` does before its window is first shown: the
modules it leaves for later (each loads when what needs it is used) and the Qt classes it
never makes (each made when what uses it opens). Figures are never judged here (table: no
section applies)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tabletop.modules import load_module
from tabletop.persist import atomic

from .test_bench_table import _start_up_imports

# Run in a fresh process: which of Qt's classes the start path has made Python types of
# (PySide6 makes a class, and its enums' Python types, when it is first asked for).
_MADE = """
import json, sys
from tabletop.cli import main
code = main(["play", "greenland", "--seed", "1", "--screenshot", sys.argv[1]])
from PySide6 import QtCore, QtGui, QtWidgets
print(json.dumps({"code": code, "core": sorted(QtCore.__dict__), "gui": sorted(QtGui.__dict__),
                  "widgets": sorted(QtWidgets.__dict__), "modules": sorted(sys.modules)}))
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """The QtCore, QtGui and QtWidgets classes the start path made, and the modules it
    loaded: a start that finds its faces kept, as every start after the first does (one run
    to keep them, then the one looked at, for this file)."""
    work = tmp_path_factory.mktemp("made")
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        TABLETOP_GAMES=str(work / "games"),
        XDG_CACHE_HOME=str(work / "cache"),
    )
    shot = work / "play.png"
    for _run in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _MADE, str(shot)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["code"] == 0 and shot.stat().st_size > 0
    return {key: set(out[key]) for key in ("core", "gui", "widgets", "modules")}


def test_table_building_the_window_looks_up_no_object_among_all_of_qts_classes(
    made: dict[str, set[str]],
) -> None:
    """No Python code sees the window's construction events (the activity clock listens once
    the loop has turned), and the view's viewport is its own: nothing Qt made is looked up
    among all of Qt's classes, which would make every one of them (and their enums)."""
    assert not {"QSharedMemory", "QProcess", "QLibrary"} & made["core"]
    assert not {"QTabWidget", "QWizard", "QMdiArea"} & made["widgets"]


@pytest.fixture(scope="module")
def start_up(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The modules the start path imports (one run shared by this file's tests)."""
    return set(_start_up_imports(tmp_path_factory.mktemp("start")))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_table_the_atomic_writer_finds_renameat2_without_a_library_search() -> None:
    """The never-replacing rename is found among the program's own symbols: no program is run
    to search for the C library's file, and the start path imports no subprocess for it."""
    assert atomic._renameat2 is not None


def test_table_start_up_runs_no_subprocess_code(start_up: set[str]) -> None:
    assert "subprocess" not in start_up and "ctypes.util" not in start_up


def test_table_start_up_loads_no_pbem_sessions_or_deck_comparison_code(
    start_up: set[str],
) -> None:
    """Play by email's command (with its keys, envelopes and take-backs), the sessions' table
    and the decks' comparison load when their commands run (tests/pbem, test_sessions_cli.py
    and test_deck_diff.py run them), not at every command's start."""
    for module in (
        "tabletop.cli_pbem",
        "tabletop.persist.pbem",
        "tabletop.persist.takeback",
        "tabletop.cli_sessions",
        "tabletop.report.sessions",
        "tabletop.modules.deck_diff",
    ):
        assert module not in start_up, module


def test_table_start_up_loads_no_command_module_the_window_does_not_use(
    start_up: set[str],
) -> None:
    """``tabletop play`` reads its own options and opens the window: the other commands'
    modules (their options and code), the procedures' command line, the decks' revisions and
    the committed dice's checks load when their commands run (tests/test_*_cli.py,
    tests/test_cli_one_command.py and tests/online run them), not at the window's start."""
    for module in (
        "tabletop.cli_games",
        "tabletop.cli_export",
        "tabletop.cli_fair",
        "tabletop.cli_notes",
        "tabletop.cli_record",
        "tabletop.cli_report",
        "tabletop.online.commands",
        "rules_assist.cli",
        "tabletop.modules.revisions",
        "tabletop.modules.backs",
        "tabletop.persist.fairness",
    ):
        assert module not in start_up, module
    assert "tabletop.cli_parser" in start_up  # the command line is read as before


def test_table_the_dialogs_widget_classes_are_made_when_a_dialog_opens(
    made: dict[str, set[str]],
) -> None:
    """The start path makes none of the dialogs' own widget classes; each is made when its
    dialog opens (tests/ui opens them through the window: the new game's in test_bot_seats,
    the note's in test_notes_window, the form's in test_record_window, the questions' in
    test_question_dialog, message boxes in test_disk_full and test_safe_defaults)."""
    dialogs_only = {
        "QDialogButtonBox",
        "QFormLayout",
        "QLineEdit",
        "QPlainTextEdit",
        "QFileDialog",
        "QInputDialog",
        "QMessageBox",
    }
    assert not dialogs_only & made["widgets"]
    assert "QUrl" not in made["core"]  # a written report's address, when it is shown
    assert "QListWidget" in made["widgets"]  # what the window shows is made, as before


def test_table_the_clock_listens_from_the_loops_first_turn_and_only_for_the_game_shown(
    table,  # noqa: ANN001
) -> None:
    """The clock of active play listens once the event loop has turned (not while the window
    is built); a game replaced before the loop came round never listens, the one shown does."""
    race = load_module(Path(__file__).parent.parent / "toy")
    window = table.window
    window.start_new(race, seed=3)
    replaced = window.activity
    table.start(race, seed=4)  # the first game is closed, then the loop turns
    shown = window.activity
    assert replaced is not None and shown is not None and replaced is not shown
    table.key(Qt.Key.Key_Right)  # a key into the table: input, as a player gives it
    assert shown.start is not None  # the shown game's clock counts it
    assert replaced.start is None  # the replaced one heard nothing


def test_table_a_start_with_its_faces_kept_draws_no_face_and_loads_no_svg(
    made: dict[str, set[str]],
) -> None:
    """Faces kept on disk are not drawn again: the start makes no gradient class, loads no
    QtSvg (a module's icons are drawn onto faces), and asks no paint engine what it is (a
    PDF snapshot is told by its device); each is made when a face is drawn or a PDF written
    (test_face_store.py and tests/export draw them)."""
    assert not {"QLinearGradient", "QRadialGradient", "QGradient", "QPicture"} & made["gui"]
    assert "QPaintEngine" not in made["gui"]
    assert "PySide6.QtSvg" not in made["modules"]
    assert "QPainter" in made["gui"]  # the table itself is painted, as before
