"""The window reads its seat's stream on a thread of its own (tabletop/online/reader.py,
``StreamThread`` in tabletop/ui/online_session.py): a frozen or stopped Redis never holds
the Qt event loop up, the lost connection is said at once, and the window reads on from
where it stopped when Redis is back, nothing lost or doubled; closing the window ends the
reader's thread even while it waits on Redis."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from PySide6.QtCore import QTimer

from tabletop.core import Table
from tabletop.core.commands import touched_by
from tabletop.online.client import BotClient, Client
from tabletop.online.referee import Referee
from tabletop.online.server import RedisCluster, RedisServer
from tabletop.online.streams import OnlineError, request_key
from tabletop.persist.seatview import SeatView
from tabletop.ui.online_session import joined
from tests.online.helpers import new_greenland
from tests.online.test_cluster import slot_of
from tests.online.test_window import Live

WAIT_MS = 30_000


@pytest.fixture
def live(qtbot: Any, redis_server: RedisServer, tmp_path: Path) -> Iterator[Live]:  # noqa: ANN401
    game = Live(qtbot, redis_server, tmp_path)
    try:
        yield game
    finally:
        game.close()


class Ticks:
    """A timer on the Qt thread counting its ticks: the event loop runs while it counts."""

    def __init__(self) -> None:
        self.count = 0
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        self.count += 1

    def more_than(self, qtbot: Any, ticks: int) -> None:  # noqa: ANN401
        """Run the event loop until the timer has ticked ``ticks`` more times."""
        start = self.count
        qtbot.waitUntil(lambda: self.count >= start + ticks, timeout=WAIT_MS)


class Frozen:
    """Redis stopped in its tracks (SIGSTOP): connections stay open, nothing answers."""

    def __init__(self, server: RedisServer) -> None:
        assert server.process is not None
        self.process = server.process
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


def red_requests(server: RedisServer) -> list[str]:
    """The ids of the requests on red's request stream (read with the referee's user)."""
    client = redis.Redis.from_url(server.url, decode_responses=True)
    try:
        return [mid for mid, _fields in client.xrange(request_key("window", "red"))]
    finally:
        client.close()


def lost(live: Live) -> bool:
    return "CONNECTION LOST" in live.window.windowTitle()


def answered(client: BotClient) -> bool:
    """The client's last request has its outcome on the stream (entries or a refusal)."""
    client.poll(0)
    return (
        client.sent is None
        or client.seq != client.sent_at
        or any(rid == client.sent for rid, _text in client.errors)
    )


def same_as_referee(live: Live) -> None:
    """Red's table in the window is red's view of the referee's table, each entry once."""
    full = live.referee.table
    view = SeatView(full, "red", {s.id: s.name for s in live.referee.header.seats})
    view.follow()
    table = live.session.table
    assert [e.seq for e in table.entries] == list(range(1, len(full.entries) + 1))
    assert table.state.digest() == view.state.digest()
    assert live.session.client.resyncs == 0 and not live.session.client.problems


def test_a_frozen_redis_leaves_the_window_running_says_so_and_the_window_reads_on(
    live: Live,
    redis_server: RedisServer,
    qtbot: Any,  # noqa: ANN401
) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    ticks = Ticks()
    north = live.session.state.places["north_warm"].contents[1]
    sent_before, seq = len(red_requests(redis_server)), live.session.table.seq
    frozen = Frozen(redis_server)
    try:
        # before the loss is known: the request waits for Redis at most its timeout
        live.table.drag(live.table.piece_point("cube-red-1"), live.table.piece_point(north))
        assert "No reply from the game's server" in live.table.status()
        qtbot.waitUntil(lambda: lost(live), timeout=WAIT_MS)
        assert "CONNECTION LOST, retrying" in live.window.status.text()
        ticks.more_than(qtbot, 20)  # Redis still frozen: the event loop goes on
        # once the loss is known, nothing waits on Redis
        home = live.table.scene.pieces["cube-red-2"].pos().toTuple()
        live.table.drag(live.table.piece_point("cube-red-2"), live.table.piece_point(north))
        assert "Not sent: the connection to the game is lost" in live.table.status()
        assert "cube-red-2" in live.session.state.places["hunters_red"].contents
        assert live.table.scene.pieces["cube-red-2"].pos().toTuple() == home
        ticks.more_than(qtbot, 20)
    finally:
        frozen.thaw()
    qtbot.waitUntil(lambda: not lost(live), timeout=WAIT_MS)
    # the request given up on may have reached Redis all the same (its reply was what was
    # lost): then the referee runs it once; the one never sent is not there
    late = red_requests(redis_server)[sent_before:]
    assert len(late) <= 1
    if late:
        live.wait(
            lambda: (
                live.session.table.seq > seq
                or any(rid == late[0] for rid, _text in live.session.client.errors)
            ),
            "the outcome of the request given up on",
        )
    live.wait(lambda: live.session.table.seq == len(live.referee.table.entries), "the last")
    seq = live.session.table.seq
    live.table.drag(live.table.piece_point("cube-red-3"), live.table.piece_point(north))
    live.wait(lambda: live.session.table.seq > seq, "red's move after Redis came back")
    assert "cube-red-3" in live.session.state.contents(north, "hunters")
    assert "cube-red-2" in live.session.state.places["hunters_red"].contents
    same_as_referee(live)


def test_a_stopped_redis_is_said_and_the_window_catches_up_with_green_when_it_is_back(
    live: Live,
    redis_server: RedisServer,
    qtbot: Any,  # noqa: ANN401
) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    ticks = Ticks()
    redis_server.stop()
    qtbot.waitUntil(lambda: lost(live), timeout=WAIT_MS)
    ticks.more_than(qtbot, 20)  # Redis away: the event loop goes on
    redis_server.start()
    # red ends its placing from the phase panel once the window can send again; green
    # plays on from then, and the window reads green's entries from where it stopped
    qtbot.waitUntil(lambda: not lost(live), timeout=WAIT_MS)
    seq = live.session.table.seq
    panel = live.window.phase_panel
    done = next(a for a in panel.offered if a.label.startswith("Norse: done"))
    panel.run(done)
    live.green_plays = True
    live.wait(
        lambda: any(e.actor == "green" for e in live.session.table.entries[seq:]),
        "green's entries after Redis came back",
    )
    live.green_plays = False
    live.wait(lambda: live.session.table.seq == len(live.referee.table.entries), "the last")
    same_as_referee(live)


def test_entries_of_a_bot_playing_in_its_own_thread_reach_the_window_by_its_event_loop(
    live: Live,
    qtbot: Any,  # noqa: ANN401
) -> None:
    """Nothing but the window's event loop runs on the test's thread: the reader's queued
    batches draw green's entries (and the scene follows them)."""
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    seq = live.session.table.seq
    green = BotClient(live.addresses["green"], seed=3)
    failures: list[BaseException] = []

    def play() -> None:
        try:
            green.play(timeout=60, until=lambda: green_moved(green.table))
        except BaseException as exc:  # said below
            failures.append(exc)

    def green_moved(table: Table | None) -> bool:
        return table is not None and any(e.actor == "green" for e in table.entries[seq:])

    player = threading.Thread(target=play, daemon=True)
    panel = live.window.phase_panel
    panel.run(next(a for a in panel.offered if a.label.startswith("Norse: done")))
    player.start()
    try:
        qtbot.waitUntil(lambda: green_moved(live.session.table), timeout=WAIT_MS)
        player.join(60)
        # the bot's last step may have sent another request after the entry it waited for:
        # the referee's table is compared below only once that request is answered
        qtbot.waitUntil(lambda: answered(green), timeout=WAIT_MS)
    finally:
        player.join(60)
        green.close()
    assert not failures, failures
    mine = next(e for e in live.session.table.entries[seq:] if e.actor == "green")
    assert live.referee.table.entries[mine.seq - 1].actor == "green"
    qtbot.waitUntil(
        lambda: live.session.table.seq == len(live.referee.table.entries), timeout=WAIT_MS
    )
    same_as_referee(live)
    scene = live.table.scene
    moved = touched_by(mine.command).pieces & set(scene.pieces)
    assert moved
    for pid in moved:
        assert scene.pieces[pid].pos().toTuple() == live.table.layout.piece_pos(pid)


def test_closing_the_window_ends_the_reader_waiting_on_an_idle_stream(live: Live) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    thread = live.session.reader_thread
    assert thread.isRunning()
    live.window.close()
    assert thread.isFinished()


def test_closing_the_window_ends_the_reader_waiting_on_a_frozen_redis(
    live: Live,
    redis_server: RedisServer,
    qtbot: Any,  # noqa: ANN401
) -> None:
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    thread = live.session.reader_thread
    frozen = Frozen(redis_server)
    try:
        assert thread.isRunning()
        live.window.close()
        assert thread.isFinished()
    finally:
        frozen.thaw()


def test_a2_a_question_read_while_joining_is_answered_once_the_window_shows_it(
    qtbot: Any,  # noqa: ANN401
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """Red's client has already read the Council of War's question (A2) when the window's
    session takes it over: the window answers it without waiting for another message (the
    referee sends none until it is answered)."""

    def read_the_question(client: Client) -> None:
        for _ in range(300):
            if client.questions:
                return
            client.poll(100)
        raise AssertionError("the A2 question never reached red's client")

    live = Live(qtbot, redis_server, tmp_path, joining=read_the_question)
    try:
        live.green_plays = False
        qtbot.waitUntil(lambda: bool(live.session.client.answered), timeout=WAIT_MS)
        live.green_plays = True
        live.wait(live.red_to_place, "red's hunters to place")
    finally:
        live.close()


def test_joining_a_frozen_redis_is_a_plain_message(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", ["red", "green"], seed=5)
    referee = Referee(path, redis_server.url, name="frozen")
    address = referee.open_seats()["red"]
    frozen = Frozen(redis_server)
    try:
        with pytest.raises(OnlineError, match="cannot connect"):
            joined(str(address))
    finally:
        frozen.thaw()
        referee.close()


def test_the_window_on_a_cluster_says_a_move_made_while_the_slot_moves_is_not_sent_and_follows_it(
    qtbot: Any,  # noqa: ANN401
    module_cluster: RedisCluster,
    tmp_path: Path,
) -> None:
    """Red's request stream is migrated to another node before the rest of the game's slot:
    a move then gets ASK replies, gives up after the request timeout and says so (the
    request was not added anywhere); once the slot is the new node's, the reader and the
    client follow MOVED there and the next move is played."""
    live = Live(qtbot, module_cluster, tmp_path)  # type: ignore[arg-type] # its url only
    try:
        live.wait(live.red_to_place, "red's hunters to place")
        live.green_plays = False
        slot = slot_of(module_cluster, "window")
        target = next(n for n in module_cluster.nodes if n is not module_cluster.node_of_slot(slot))
        source = module_cluster.start_move(slot, target)
        module_cluster.migrate_keys(slot, source, target, [request_key("window", "red")])
        north = live.session.state.places["north_warm"].contents[1]
        live.table.drag(live.table.piece_point("cube-red-1"), live.table.piece_point(north))
        assert "Not sent: the game's slot did not settle" in live.table.status()
        assert not lost(live)
        module_cluster.migrate_keys(slot, source, target)
        module_cluster.finish_move(slot, target)
        seq = live.session.table.seq
        live.table.drag(live.table.piece_point("cube-red-1"), live.table.piece_point(north))
        live.wait(lambda: live.session.table.seq > seq, "red's move on the slot's new node")
        assert "cube-red-1" in live.session.state.contents(north, "hunters")
        assert live.session.reader.node == ("127.0.0.1", target.port)
        assert live.session.client.port == target.port
        assert not lost(live)
        same_as_referee(live)
    finally:
        live.close()
