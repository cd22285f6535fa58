"""The window on a live Greenland game (``tabletop join ADDRESS``): a real Redis, the
referee in a thread, the window joined as red, a bot client playing green. Red's drags in
the window become requests the referee runs (B2: the window shows red's view, green's hand
as backs); green's entries appear in the window; a move the strict rules refuse (E1) comes
back refused and the piece goes back."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QPushButton

from rules_assist.driver import MOVES, Driver
from tabletop.online.client import BotClient, Client
from tabletop.online.referee import Referee
from tabletop.online.server import RedisServer
from tabletop.persist import Game
from tabletop.ui.online_session import OnlineSession, joined
from tabletop.ui.window import MainWindow, module_for
from tests.online.helpers import new_greenland
from tests.ui.conftest import WINDOW_SIZE, Table
from tests.ui.test_question_dialog import Person, click, tick

SEATS = ["red", "green"]


class Live:
    """A referee in a thread, green's bot stepped by the test, red in the window."""

    def __init__(
        self,
        qtbot: Any,  # noqa: ANN401
        server: RedisServer,
        tmp_path: Path,
        scripted: bool = True,
        joining: Callable[[Client], None] | None = None,
    ) -> None:
        path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=5)
        self.referee = Referee(path, server.url, name="window")
        self.addresses = self.referee.open_seats()
        self.stop = threading.Event()
        self.failures: list[BaseException] = []
        self.thread = threading.Thread(target=self._referee, daemon=True)
        self.thread.start()
        self.green = BotClient(self.addresses["green"], seed=1)
        self.green.block_ms = 5
        self.green_plays = True
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        self.window = MainWindow(settings=settings, ask=False)
        qtbot.addWidget(self.window)
        self.window.resize(*WINDOW_SIZE)
        client = joined(str(self.addresses["red"]))
        if joining is not None:
            joining(client)  # red's client, before the window's session holds it
        self.session = OnlineSession(client, module_for(Game(client.table, client.header)))
        if scripted:  # red's answers; else each question opens its dialog
            self.session.answerer = lambda question: question.options[0]
        else:
            self.window.ask = True
        self.window.show_online(self.session)
        self.table = Table(qtbot, self.window)
        self.table.show()

    def _referee(self) -> None:
        try:
            self.referee.run(until=self.stop.is_set)
        except BaseException as exc:  # reported by close()
            self.failures.append(exc)

    def wait(self, done: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
        """Let the window read its stream (and green play, if it may) until ``done()``."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"waited in vain for {what}"
            assert not self.failures, self.failures
            QApplication.processEvents()
            if self.green_plays:
                self.green.step()
            else:
                time.sleep(0.005)
        # the reader's batch that made ``done()`` true was drawn in the last round; what
        # that posted in turn (the phase panel's new buttons are shown by a queued event)
        QApplication.processEvents()

    @property
    def red_status(self):  # noqa: ANN201 - the turn driver's status of red's view
        return Driver(self.session.rules, self.session.table).status()

    def red_to_place(self) -> bool:
        status = self.red_status
        return status.to_move == "red" and any(a.kind == MOVES for a in status.actions)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.window.close()
        self.green.close()
        self.referee.close()
        assert not self.failures, self.failures


@pytest.fixture
def live(qtbot: Any, redis_server: RedisServer, tmp_path: Path) -> Iterator[Live]:  # noqa: ANN401
    game = Live(qtbot, redis_server, tmp_path)
    try:
        yield game
    finally:
        game.close()


def test_b2_the_window_shows_reds_view_and_says_online(live: Live) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    assert live.window.windowTitle().startswith("online: window as Norse")
    assert live.window.status.text().startswith("online: window as Norse")
    state, full = live.session.state, live.referee.table.state
    assert state.digest() != full.digest()
    # the decks' cards are nobody's (B2): the same number of cards, none of them named
    decks = [p for p in full.places if p.endswith("_deck") and full.places[p].contents]
    assert decks
    for deck in decks:
        shown, real = state.places[deck].contents, full.places[deck].contents
        assert len(shown) == len(real) and not set(shown) & set(real), deck
        for pid in shown:
            assert not live.table.scene.pieces[pid].visible_face, pid  # drawn as a card back


def test_e_a_drag_in_the_window_reaches_the_referee_and_the_other_seat(live: Live) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    north = live.session.state.places["north_warm"].contents[1]
    table, before = live.table, live.session.table.seq
    table.drag(table.piece_point("cube-red-1"), table.piece_point(north))

    def placed(state) -> bool:  # noqa: ANN001
        return "cube-red-1" in state.contents(north, "hunters")

    live.wait(lambda: placed(live.session.state), "red's move in the window")
    assert placed(live.referee.table.state)
    entry = live.referee.table.entries[before]
    assert entry.actor == "red" and "cube-red-1" in str(entry.command.to_dict())
    live.wait(lambda: live.green.seq > before and placed(live.green.table.state), "green's view")
    x, y = table.layout.piece_pos("cube-red-1")
    assert table.scene.pieces["cube-red-1"].pos().toTuple() == (x, y)


def test_e1_a_move_the_referee_refuses_snaps_back_and_says_why(live: Live) -> None:
    """A fifth hunter in North Greenland needs a second mariner (E1): strict rules refuse it
    on the referee, the window says so and puts the cube back in red's pool."""
    live.wait(live.red_to_place, "red's hunters to place")
    north = live.session.state.places["north_warm"].contents[1]
    table = live.table
    for n in range(1, 5):
        seq = live.session.table.seq
        table.drag(table.piece_point(f"cube-red-{n}"), table.piece_point(north))
        live.wait(lambda seq=seq: live.session.table.seq > seq, f"hunter {n} placed")
    seq = live.session.table.seq
    home = table.scene.pieces["cube-red-5"].pos().toTuple()
    table.drag(table.piece_point("cube-red-5"), table.piece_point(north))
    live.wait(lambda: "Refused by the referee" in table.status(), "the refusal")
    assert "E1" in table.status()
    assert live.session.table.seq == seq == len(live.referee.table.entries)
    assert "cube-red-5" in live.session.state.places["hunters_red"].contents
    assert table.scene.pieces["cube-red-5"].pos().toTuple() == home


def test_e_a_procedure_button_is_a_request_and_green_entries_appear(live: Live, qtbot) -> None:  # noqa: ANN001
    live.wait(live.red_to_place, "red's hunters to place")
    panel = live.window.phase_panel
    button = next(
        b
        for b in panel.findChildren(QPushButton)
        if b.isVisible() and b.text().startswith("Norse: done placing")
    )
    seq = live.session.table.seq
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    live.wait(lambda: live.session.table.seq > seq, "red's procedure")
    assert live.referee.table.entries[seq].actor == "red"
    live.wait(
        lambda: any(e.actor == "green" for e in live.session.table.entries[seq:]),
        "green's entry, seen in the window",
    )
    mine = next(e for e in live.session.table.entries[seq:] if e.actor == "green")
    assert live.referee.table.entries[mine.seq - 1].actor == "green"
    assert panel.status is not None and panel.read_status() == panel.status


def test_a2_a_question_for_red_opens_its_dialog_and_the_answer_reaches_the_referee(
    qtbot,  # noqa: ANN001
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """The Council of War (A2) asks red, who has a war chief, who goes first: the question
    dialog opens in the window, and the answer goes back to the referee, which goes on."""

    def first_player_green(dialog) -> None:  # noqa: ANN001
        assert dialog.question.owner == "red" and dialog.question.section == "A2"
        tick(dialog.choices[dialog.question.options.index("green")])
        click(dialog.ok)

    person = Person(first_player_green, limit=30)
    live = Live(qtbot, redis_server, tmp_path, scripted=False)
    try:
        live.wait(lambda: bool(person.seen), "the question's dialog")
        live.wait(lambda: live.session.table.seq > 9, "the referee going on after the answer")
        person.done()
        assert live.session.client.answered
        live.wait(lambda: live.red_status.phase == "assignment", "the assignment")
        assert live.referee.table.state.counters["first_player"] == "green"
    finally:
        live.close()


def test_a_lost_connection_is_shown_and_the_window_reads_on_when_redis_is_back(
    live: Live, redis_server: RedisServer
) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    redis_server.stop()
    live.wait(lambda: "CONNECTION LOST" in live.window.windowTitle(), "the lost connection")
    assert "CONNECTION LOST" in live.window.status.text()
    redis_server.start()
    live.wait(lambda: "CONNECTION LOST" not in live.window.windowTitle(), "the connection back")
    north = live.session.state.places["north_warm"].contents[1]
    seq = live.session.table.seq
    live.table.drag(live.table.piece_point("cube-red-1"), live.table.piece_point(north))
    live.wait(lambda: live.session.table.seq > seq, "a move made after Redis came back")
    assert "cube-red-1" in live.referee.table.state.contents(north, "hunters")


def test_host_online_from_the_window_referees_the_open_game_and_gives_the_addresses(
    qtbot,  # noqa: ANN001
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """Game > Host online: the open game's referee runs behind the window, the window plays
    the seat at its screen, and the dialog copies each seat's address for its player."""
    path = new_greenland(tmp_path / "hosted.jsonl", SEATS, seed=5)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(window)
    assert window.open_path(str(path)) is not None
    dialog = window.host_online(redis_server.url, name="hosted")
    assert dialog is not None and window.hosted is not None and window.hosted.running
    assert window.session.remote and window.session.viewer == "red"
    assert window.windowTitle().startswith("online: hosted as Norse")
    window.session.answerer = lambda question: question.options[0]
    assert set(dialog.fields) == {"red", "green", None}
    click(dialog.copy_buttons["green"])
    copied = QApplication.clipboard().text()
    assert copied == dialog.fields["green"].text() and "seat=green" in copied
    green = BotClient(copied, seed=1)
    green.block_ms = 5
    session = window.session
    deadline, asked = time.monotonic() + 30, set()
    while not any(e.actor == "green" for e in session.table.entries):
        assert time.monotonic() < deadline, "green's entries never reached the window"
        QApplication.processEvents()
        green.step()
        if Driver(session.rules, session.table).current_player() == "red":
            panel = window.phase_panel
            done = next((a for a in panel.offered if a.label.startswith("Norse: done")), None)
            if done is not None and session.table.seq not in asked:
                asked.add(session.table.seq)
                panel.run(done)
    hosted = window.hosted
    window.close()
    assert not hosted.running and not hosted.failures, hosted.failures
    green.close()
    full = Game.open(path, writable=False)
    assert [e.seq for e in full.table.entries][-1] >= session.table.seq
    full.close()


def test_the_window_reads_its_stream_again_from_the_start_onto_a_new_table(live: Live) -> None:
    """A client that reads its stream again (after a digest that differed) builds a new
    table: the window, its phase panel and its scene follow the new one."""
    live.wait(live.red_to_place, "red's hunters to place")
    old, seq = live.session.table, live.session.table.seq
    live.green_plays = False
    live.session.client.resync()
    live.wait(
        lambda: live.session.table is not old and live.session.table.seq == seq, "the new table"
    )
    assert live.session.table is live.session.client.table
    assert live.session.state.digest() == old.state.digest()
    assert live.window.phase_panel.read_status().to_move == "red"
    assert live.window.phase_panel.driver.table is live.session.table
    assert "read again from the start" in live.table.status()
    north = live.session.state.places["north_warm"].contents[1]
    live.table.drag(live.table.piece_point("cube-red-2"), live.table.piece_point(north))
    live.wait(lambda: live.session.table.seq > seq, "a move on the new table")


def test_b2_the_screen_of_a_live_game_stays_its_seats(live: Live) -> None:
    """Passing the screen would show another seat's view on red's client: refused, said."""
    live.wait(live.red_to_place, "red's hunters to place")
    assert not live.window.actions_by_name["pass"].isEnabled()
    live.window.pass_screen("green")
    assert live.session.viewer == "red" and "live game" in live.table.status()
    assert not live.window.curtain.isVisible()


def test_a_session_let_go_without_close_stops_its_reader_first(live: Live) -> None:
    """A live session destroyed without close() (left open when the program ends, its objects
    torn down in no set order) stops and joins its reader's thread as it goes: a running
    QThread destroyed with its parent ends the whole program with a fatal error."""
    client = joined(str(live.addresses["red"]))
    session = OnlineSession(client, module_for(Game(client.table, client.header)))
    reader = session.reader
    assert session.reader_thread.isRunning()
    shiboken6.delete(session)  # what tearing the objects down at the end does to it
    assert reader.stopping  # stopped and joined before its thread went, not left reading
    client.close()
