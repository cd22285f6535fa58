"""Live games that go on through failures, on a real Redis: three bot clients and a
spectator; a client killed and rejoining mid-game; the referee killed (SIGKILL) and
started again; Redis itself killed and restarted on its append-only file. Every time the
game ends, each table equals the viewer's projection of the referee's file, and every
stream holds each entry once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tabletop.online.client import BotClient, Client
from tabletop.online.referee import Referee, wait_for
from tabletop.online.server import RedisServer
from tabletop.online.streams import decode, public_key
from tests.online.helpers import Players, check_game, new_greenland, run_referee

SEATS = ["red", "yellow", "green"]

pytestmark = pytest.mark.slow


def _published(url: str, game: str) -> int:
    """The last entry number on the public stream (the referee's own reading of it)."""
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=2)
    try:
        for _id, fields in client.xrevrange(public_key(game), count=20):
            message = decode(fields)
            if message.get("type") == "entry":
                return int(message["seq"])
        return 0
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        return 0
    finally:
        client.close()


def test_three_bot_clients_and_a_spectator_follow_a_whole_game(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=7)
    referee = Referee(path, redis_server.url, name="three")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    spectator = Client(addresses[None])
    players.start_all()
    while not spectator.over:
        spectator.poll()
    players.join()
    thread.join(60)
    assert not failures, failures
    check_game(path, redis_server.url, "three", [*players.clients.values(), spectator]).close()
    spectator.close()
    referee.close()


def test_a_client_killed_mid_game_rejoins_and_the_game_ends(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=8)
    referee = Referee(path, redis_server.url, name="rejoin")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start("red")
    players.start("green")
    yellow = players.clients["yellow"]
    players.start("yellow", until=lambda: yellow.seq >= 40)
    players.threads["yellow"].join(120)
    yellow.redis.close()  # gone: its connection and everything it held
    assert wait_for(lambda: _published(redis_server.url, "rejoin") >= yellow.seq, 30)
    players.clients["yellow"] = BotClient(addresses["yellow"], seed=9)  # reads from the start
    players.start("yellow")
    players.join()
    thread.join(60)
    assert not failures, failures
    check_game(path, redis_server.url, "rejoin", players.clients.values()).close()
    referee.close()


def test_the_referee_killed_and_restarted_carries_on_without_doubling(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=9)
    setup = Referee(path, redis_server.url, name="crash")
    addresses = setup.open_seats()
    setup.close()
    host = [sys.executable, "-c", "import sys; from tabletop.cli import main; sys.exit(main())"]
    command = [*host, "host", str(path), "--redis", redis_server.url]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    players = Players(addresses, SEATS)
    players.start_all()
    assert wait_for(lambda: _published(redis_server.url, "crash") >= 60, 120)
    first.send_signal(signal.SIGKILL)
    first.wait()
    time.sleep(0.5)  # the clients wait for a referee meanwhile
    second = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    out, _ = second.communicate(timeout=300)
    assert second.returncode == 0 and "game crash: over" in out
    players.join()
    check_game(path, redis_server.url, "crash", players.clients.values()).close()


def test_redis_killed_and_restarted_on_its_aof_loses_nothing(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=10)
    referee = Referee(path, redis_server.url, name="aof")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start_all()
    assert wait_for(lambda: _published(redis_server.url, "aof") >= 60, 120)
    redis_server.kill()  # no shutdown: only what the AOF holds survives
    time.sleep(0.5)
    redis_server.start()
    players.join()
    thread.join(120)
    assert not failures, failures
    check_game(path, redis_server.url, "aof", players.clients.values()).close()
    referee.close()
