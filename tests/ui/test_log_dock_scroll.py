"""The log dock opens on a game's last lines: a long log is scrolled to its end when the dock
is first shown (the list is scrolled then, at the width it is shown at), and stays at the end
as moves are added."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.core import actions
from tabletop.ui.window import MainWindow

MOVES = 40  # far more lines than the dock shows at once


@pytest.fixture
def long_log(tmp_path: Path, games_dir: Path, qtbot, capsys: pytest.CaptureFixture[str]) -> Path:  # noqa: ANN001
    path = tmp_path / "game.jsonl"
    assert main(["new", "greenland", "--seed", "3", "-o", str(path)]) == 0
    capsys.readouterr()
    writer = MainWindow(settings=QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(writer)
    assert writer.open_path(str(path)) is not None
    for n in range(MOVES):
        state = writer.session.state
        assert writer.session.submit(actions.set_counter(state, "tally", n + 1))
    writer.close()
    return path


def test_a_long_log_opens_at_its_last_line(window, long_log: Path) -> None:  # noqa: ANN001
    assert window.open_path(str(long_log)) is not None
    log = window.log_panel.list
    assert log.count() == window.session.table.seq > MOVES
    window.show()
    QApplication.processEvents()
    bar = log.verticalScrollBar()
    assert bar.maximum() > 0, "the dock shows every line: the test proves nothing"
    assert bar.value() == bar.maximum()
    last = log.visualItemRect(log.item(log.count() - 1))
    assert log.viewport().rect().contains(last.center())

    # hidden and shown again, the dock keeps where the reader scrolled to
    bar.setValue(0)
    window.docks["log"].hide()
    window.docks["log"].show()
    QApplication.processEvents()
    assert bar.value() == 0

    state = window.session.state
    assert window.session.submit(actions.set_counter(state, "tally", MOVES + 1))
    QApplication.processEvents()
    assert bar.value() == bar.maximum()
