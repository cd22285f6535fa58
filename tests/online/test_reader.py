"""The stream reader on its own (tabletop/online/reader.py), on a real Redis with a referee
and two bot clients playing: it hands over every message of the seat's stream exactly
once and in order, across a Redis restart and across the game's slot moving to another node
of a Redis Cluster; it reads again from the start when asked, its
batches marked with the new generation; ``stop`` ends its thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from tabletop.online.reader import Batch, StreamReader
from tabletop.online.referee import Referee
from tabletop.online.server import RedisCluster, RedisServer
from tabletop.online.streams import Address, view_key
from tests.online.helpers import Players, new_greenland
from tests.online.test_cluster import names_on_each_node, slot_of

SEATS = ["red", "green"]


class Reading:
    """A StreamReader of red's stream running in a thread, recording what it hands over."""

    def __init__(self, address: Address) -> None:
        self.reader = StreamReader(address, view_key(address.game, address.seat))
        self.batches: list[tuple[int, Batch]] = []
        self.states: list[tuple[bool, str]] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.failures: list[BaseException] = []
        self.thread.start()

    def _run(self) -> None:
        try:
            self.reader.run(
                lambda generation, batch: self.batches.append((generation, batch)),
                lambda ok, why: self.states.append((ok, why)),
            )
        except BaseException as exc:  # said by the test
            self.failures.append(exc)

    def ids(self, generation: int = 0) -> list[str]:
        return [mid for g, batch in list(self.batches) if g == generation for mid, _m in batch]

    def stop(self) -> None:
        self.reader.stop()
        self.thread.join(30)
        assert not self.thread.is_alive()
        assert not self.failures, self.failures


class Hosted:
    """A referee in a thread on a two-seat Greenland game."""

    def __init__(self, url: str, tmp_path: Path, name: str) -> None:
        path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=11)
        self.url, self.name = url, name
        self.referee = Referee(path, url, name=name)
        self.addresses = self.referee.open_seats()
        self.stop = threading.Event()
        self.failures: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.referee.run(until=self.stop.is_set)
        except BaseException as exc:  # said by close()
            self.failures.append(exc)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)
        self.referee.close()
        assert not self.failures, self.failures

    def stream_ids(self, url: str | None = None) -> list[str]:
        """Red's stream as it stands, read whole with the referee's user (on the server at
        ``url``: a cluster's node serving the game's slot)."""
        client = redis.Redis.from_url(url or self.url, decode_responses=True)
        try:
            return [mid for mid, _fields in client.xrange(view_key(self.name, "red"))]
        finally:
            client.close()


@pytest.fixture
def hosted(redis_server: RedisServer, tmp_path: Path) -> Iterator[Hosted]:
    game = Hosted(redis_server.url, tmp_path, "reader")
    try:
        yield game
    finally:
        game.close()


def wait(done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.01)


def test_every_message_is_handed_over_once_in_order_across_a_redis_restart(
    hosted: Hosted, redis_server: RedisServer
) -> None:
    reading = Reading(hosted.addresses["red"])
    players = Players(hosted.addresses, SEATS)
    red = players.clients["red"]
    for seat in SEATS:
        players.start(seat, until=lambda: red.seq >= 12)
    for thread in players.threads.values():
        thread.join(120)
    wait(lambda: reading.ids() == hosted.stream_ids(), "the reader to read what is there")
    redis_server.stop()
    wait(lambda: bool(reading.states), "the reader to say Redis is away")
    assert reading.states[0][0] is False and reading.states[0][1]
    redis_server.start()
    wait(lambda: len(reading.states) > 1, "the reader to read again")
    assert reading.states[1] == (True, "")
    seq = red.seq
    for seat in SEATS:
        players.start(seat, until=lambda: red.seq >= seq + 12)
    players.join()
    wait(lambda: reading.ids() == hosted.stream_ids(), "the reader to read on from its cursor")
    reading.stop()
    assert len(reading.states) == 2
    assert {g for g, _batch in reading.batches} == {0}


def test_reading_again_from_the_start_marks_the_batches_with_the_new_generation(
    hosted: Hosted,
) -> None:
    reading = Reading(hosted.addresses["red"])
    wait(lambda: bool(reading.ids()), "the game's header")
    stream = hosted.stream_ids()
    wait(lambda: reading.ids() == hosted.stream_ids(), "what is on the stream")
    reading.reader.restart("0-0", 1)
    wait(lambda: len(reading.ids(1)) >= len(stream), "the stream read again")
    again = reading.ids(1)
    assert again == hosted.stream_ids()[: len(again)] and again[0] == stream[0]
    first = next(batch for g, batch in reading.batches if g == 1)
    assert first[0][1]["type"] == "header"
    reading.stop()


def test_stop_ends_the_reader_waiting_on_a_stream_with_nothing_new(hosted: Hosted) -> None:
    reading = Reading(hosted.addresses["red"])
    wait(lambda: reading.ids() == hosted.stream_ids(), "what is on the stream")
    assert reading.thread.is_alive()
    reading.stop()  # asserts the thread has ended


def test_the_reader_follows_the_games_slot_to_another_node_of_a_cluster(
    module_cluster: RedisCluster, tmp_path: Path
) -> None:
    """The slot is moved mid-game: the reader gets MOVED, reads on from its cursor on the
    node named, and never takes it for a lost connection."""
    first, target = module_cluster.nodes[0], module_cluster.nodes[1]
    name = names_on_each_node(module_cluster, "reader")[first.port]
    hosted = Hosted(module_cluster.url, tmp_path, name)
    try:
        reading = Reading(hosted.addresses["red"])
        players = Players(hosted.addresses, SEATS)
        red = players.clients["red"]
        for seat in SEATS:
            players.start(seat, until=lambda: red.seq >= 12)
        for thread in players.threads.values():
            thread.join(120)
        wait(lambda: reading.ids() == hosted.stream_ids(first.url), "what is on the first node")
        module_cluster.move_slot(slot_of(module_cluster, name), target)
        seq = red.seq
        for seat in SEATS:
            players.start(seat, until=lambda: red.seq >= seq + 12)
        players.join()
        wait(lambda: reading.ids() == hosted.stream_ids(target.url), "the reader on the new node")
        reading.stop()
        assert reading.reader.node == ("127.0.0.1", target.port)
        assert reading.states == []
    finally:
        hosted.close()
