"""Looot played live on a real Redis: a referee and two bot clients, each playing on its own
view of the table. A used shield lies face down in the slot that names it (LO-R2, DE:20):
in a seat's view it is an anonymous stand-in, and the game reads it by its slot."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from rules_assist.looot.reading import Looot
from tabletop.cli import main
from tabletop.core import Mode, Policy
from tabletop.modules import find_module, new_game
from tabletop.modules.gamecode import game_of
from tabletop.online.client import BotClient
from tabletop.online.referee import Referee
from tabletop.online.server import RedisServer
from tabletop.persist import Game
from tabletop.persist.seatview import SeatView
from tabletop.ui.online_session import OnlineSession, joined
from tabletop.ui.window import MainWindow, module_for
from tabletop.visibility import is_anonymous
from tests.online.helpers import Players, check_game, run_referee

SEATS = ["red", "blue"]


def test_lo_r2_two_bot_clients_play_a_whole_looot_game_and_every_table_equals_the_log(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = tmp_path / "looot.jsonl"
    new_game(
        find_module("looot"), seats=SEATS, seed=3, path=path, policy=Policy(Mode.STRICT)
    ).close()
    referee = Referee(path, redis_server.url, name="looot")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start_all()
    players.join()
    thread.join(60)
    assert not failures, failures
    assert referee.over()
    referee.close()
    game = check_game(path, redis_server.url, "looot", players.clients.values())
    assert len(game.table.entries) > 50
    for client in players.clients.values():
        assert client.problems == [] and client.resyncs == 0, client.seat
    game.close()


def test_lo_r2_a_seats_view_reads_the_used_shields_as_the_full_table_does(tmp_path: Path) -> None:
    """At the end of bot games, every seat's view reads each seat's used and unused shields,
    and the turn's status, exactly as the full table does, face-down stand-ins and all."""
    logs = tmp_path / "logs"
    args = ["simulate", "looot", "--games", "4", "--seed", "2", "--save-logs", str(logs)]
    assert main([*args, "--jobs", "1"]) == 0
    module = find_module("looot")
    game_code = game_of(module)
    stand_ins = 0
    for log in sorted(logs.glob("*.jsonl")):
        full = Game.open(log, writable=False)
        names = {s.id: s.name for s in full.header.seats}
        whole = Looot(full.table.state, game_code)
        for viewer in [*names, None]:
            view = SeatView(full.table, viewer, names)
            view.follow()
            seen = Looot(view.state, game_code)
            for seat in names:
                assert seen.shields_used(seat) == whole.shields_used(seat), (log, viewer)
                assert seen.shields_unused(seat) == whole.shields_unused(seat), (log, viewer)
                stand_ins += sum(
                    is_anonymous(view.state.pieces[p])
                    for p in view.state.place(f"shields_{seat}").contents
                )
            status = game_code.flow.status(view.state)
            assert status == game_code.flow.status(full.table.state), (log, viewer)
        full.close()
    assert stand_ins > 0  # some shield was used and hidden in the views: the case is met


def test_lo_r1_the_window_joins_a_looot_game_at_once_and_plays_on_blues_entries(
    qtbot,  # noqa: ANN001
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """Joined as soon as the game is hosted, the window shows the set-up table (its setup is
    several entries on the stream) and the turn, then blue's Vikings as blue's bot puts them."""
    path = tmp_path / "looot.jsonl"
    new_game(
        find_module("looot"), seats=SEATS, seed=3, path=path, policy=Policy(Mode.STRICT)
    ).close()
    referee = Referee(path, redis_server.url, name="joinlooot")
    addresses = referee.open_seats()
    stop = threading.Event()
    thread = threading.Thread(target=referee.run, args=(stop.is_set,), daemon=True)
    thread.start()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(window)
    client = joined(str(addresses["red"]))
    session = OnlineSession(client, module_for(Game(client.table, client.header)))
    session.answerer = lambda question: question.options[0]
    window.show_online(session)
    window.show()
    blue = BotClient(addresses["blue"], seed=1)
    try:
        assert "vikings_red" in session.table.state.places
        assert window.phase_panel.title.text().startswith("Turn 1")

        def blue_on_the_landscape() -> bool:
            state = session.table.state
            return any(p.startswith("viking-blue") for p in state.place("landscape").contents)

        # red moves first: a bot client of red's own (a second connection of red's user)
        # puts red's Vikings, blue's bot puts blue's
        red = BotClient(addresses["red"], seed=2)
        try:
            deadline = time.monotonic() + 60
            while not blue_on_the_landscape():
                assert time.monotonic() < deadline, "blue's Viking never reached the window"
                red.step()
                blue.step()
                QApplication.processEvents()
        finally:
            red.close()
        # each entry the window took matched the digest of red's view the referee sent with it
        assert client.problems == [] and client.resyncs == 0
    finally:
        stop.set()
        thread.join(10)
        window.close()
        blue.close()
        referee.close()
