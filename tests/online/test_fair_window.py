"""The window's join of a live game whose dice and shuffles are committed (docs/fairness.md):
it draws the seat's contribution on this machine and sends it without being asked, and its
status bar says the game waits for the other seats' contributions until they are in. A real
Redis; the referee in a thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.online.client import Client
from tabletop.online.fairstart import FairStart, setup_record
from tabletop.online.referee import Referee, wait_for
from tabletop.online.server import RedisServer
from tabletop.persist import Game
from tabletop.ui.window import MainWindow
from tests.ui.conftest import WINDOW_SIZE

WAITING = "waiting for the other seats' contributions"


def _window(qtbot: Any, tmp_path: Path) -> tuple[MainWindow, list[str]]:  # noqa: ANN401
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(window)
    window.resize(*WINDOW_SIZE)
    window.show()
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    return window, said


def _until(done: Callable[[], bool], what: str, qtbot: Any) -> None:  # noqa: ANN401
    qtbot.waitUntil(done, timeout=30000)
    assert done(), what


def _contributions(path: Path) -> dict[str, str]:
    game = Game.open(path, writable=False)
    found = {
        e.command.seat: e.command.contribution  # type: ignore[attr-defined]
        for e in game.table.entries
        if e.kind == "chance"
    }
    game.close()
    return found


def test_the_window_joins_a_fair_start_contributes_and_waits_for_the_other_seat(
    qtbot: Any,  # noqa: ANN401
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """``tabletop host --new greenland --fair``: the window joins as red before green; red's
    contribution goes out at once and the status bar says the game waits for green's; once
    green contributes the game is set up and the window shows it."""
    path = tmp_path / "game.jsonl"
    setup = setup_record("greenland", "red,green", "two-player", 11, rules="strict")
    start = FairStart(path, redis_server.url, "fairwin", setup)
    addresses = start.open_seats()
    stop = threading.Event()
    failures: list[BaseException] = []

    def host() -> None:
        try:
            if start.run(until=stop.is_set):
                start.set_up()
                referee = Referee(path, redis_server.url, "fairwin")
                referee.run(until=stop.is_set)
                referee.close()
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            start.close()

    thread = threading.Thread(target=host, daemon=True)
    thread.start()
    green = Client(addresses["green"], contribute=False)

    def green_arrives() -> None:  # green joins once red's contribution is in
        green.poll(0)
        if "red" in green.contributed and not green.contribute:
            green.contribute = True
            green.poll(0)

    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(green_arrives)
    timer.start()
    window, said = _window(qtbot, tmp_path)
    try:
        session = window.join_online(str(addresses["red"]))
        timer.stop()
        assert any(WAITING in text and "(green)" in text for text in said), said
        assert any(text.startswith("Your contribution was drawn here and sent") for text in said)
        assert window.windowTitle().startswith("online: fairwin as")
        assert _contributions(path) == {
            "red": session.client.contribution,
            "green": green.contribution,
        }
        assert session.client.commitment == session.game.header.randomness["commitment"]  # type: ignore[index]
    finally:
        stop.set()
        thread.join(30)
        window.close()
        green.close()
    assert not failures, failures


def test_the_window_on_a_fair_looot_says_it_waits_until_every_seat_contributed(
    qtbot: Any,  # noqa: ANN401
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """A fair Looot made without contributions (its setup draws nothing) and hosted as it is:
    the window's seat contributes on joining; the status bar says the game waits for the other
    seat's contribution, then that every seat has contributed."""
    path = tmp_path / "looot.jsonl"
    assert main(["new", "looot", "--fair", "--seats", "2", "--seed", "3", "-o", str(path)]) == 0
    referee = Referee(path, redis_server.url, name="loootwin")
    addresses = referee.open_seats()
    seats = [s for s in addresses if s is not None]
    stop = threading.Event()
    thread = threading.Thread(target=lambda: referee.run(until=stop.is_set), daemon=True)
    thread.start()
    other = Client(addresses[seats[1]], contribute=False)
    # the game on the streams, set up, before the window joins
    assert wait_for(lambda: other.poll(50) >= 0 and other.seq > 0, 30)
    window, said = _window(qtbot, tmp_path)
    try:
        session = window.join_online(str(addresses[seats[0]]))
        mine = f"Your contribution was drawn here and sent: {WAITING} to the dice and shuffles"
        _until(lambda: f"{mine} ({seats[1]})" in said, "the wait said", qtbot)
        other.contribute = True
        other.poll(0)
        _until(
            lambda: "Every seat has contributed to the dice and shuffles" in said,
            "every contribution in",
            qtbot,
        )
        assert session.client.waiting_for == []
        QApplication.processEvents()
    finally:
        stop.set()
        thread.join(30)
        window.close()
        other.close()
        referee.close()
    assert set(_contributions(path)) == set(seats)
