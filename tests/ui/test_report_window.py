"""Game > Playtest report…: the folders and the file chosen in the dialog, the report made in the
background with its progress shown, the same report as ``tabletop report``. Sessions are Looot
bot games played by ``tabletop simulate``; the folder dialog is bypassed through the method its
choice feeds (``add_folder``), everything else is typed and clicked."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.ui.window import MainWindow


def sessions(folder: Path) -> Path:
    argv = ["simulate", "looot", "--games", "2", "--seed", "5", "--save-logs", str(folder)]
    assert main([*argv, "--bots", "random,random"]) == 0
    return folder


def open_dialog(window: MainWindow):  # noqa: ANN201
    window.show()
    window.actions_by_name["report"].trigger()
    dialog = window.report_window
    assert dialog is not None and dialog.isVisible()
    return dialog


def type_into(qtbot, field, text: str) -> None:  # noqa: ANN001
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    qtbot.keyClicks(field, text)


def test_table_report_from_the_game_menu(window: MainWindow, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    games = sessions(tmp_path / "week1")
    menu = [
        a.text()
        for m in window.menuBar().actions()
        if m.text() == "&Game"
        for a in m.menu().actions()
    ]
    assert "Playtest &report…" in menu
    dialog = open_dialog(window)
    dialog.folders.clear()
    dialog.add_folder(str(games))
    out = tmp_path / "report.html"
    type_into(qtbot, dialog.output, str(out))
    type_into(qtbot, dialog.bot_games, "2")
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    job = window.report_job
    assert job is not None and (job.folders, job.output, job.compare) == ([str(games)], str(out), 2)
    assert window.report_progress.isVisible()
    qtbot.waitUntil(
        lambda: job.isFinished() and not window.report_progress.isVisible(), timeout=120_000
    )
    QApplication.processEvents()
    assert job.error == ""
    assert window.statusBar().currentMessage() == f"Report written: {out}"
    page = out.read_text(encoding="utf-8")
    # two games of two players, each with its bot games beside it
    assert re.search(r"games \(finished\)</td><td>2 \(2\)</td><td>2 \(2\)</td>", page)
    assert page.count('src="data:image/png;base64,') == 4
    assert window.report_progress.labelText().startswith("drawing looot 0.1")  # its last step


def test_table_report_dialog_refuses_what_cannot_be_made(
    window: MainWindow,
    qtbot,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    dialog = open_dialog(window)
    dialog.folders.clear()
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.problem.text() == "Add a folder of games first."
    dialog.add_folder(str(tmp_path / "empty"))
    type_into(qtbot, dialog.output, str(tmp_path / "report.txt"))
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.problem.text() == "The report file ends in .pdf or .html."
    # a folder with no games: the job says so, no file is written
    type_into(qtbot, dialog.output, str(tmp_path / "report.pdf"))
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    job = window.report_job
    qtbot.waitUntil(job.isFinished, timeout=60_000)
    qtbot.waitUntil(lambda: "no game files found" in window.statusBar().currentMessage())
    assert not (tmp_path / "report.pdf").exists()
