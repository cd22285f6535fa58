"""Live Greenland games on a real Redis (tabletop/online/): a referee holding the whole
table, bot clients playing their seats on their own views, each reading only the public
stream and its own (B2: a hand is its owner's; a deck's cards are nobody's until turned up)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from tabletop.core import actions
from tabletop.modules import find_module
from tabletop.online.bench import measure_move_latency
from tabletop.online.client import Client
from tabletop.online.referee import Referee
from tabletop.online.server import RedisServer, redis_server_binary
from tabletop.online.streams import (
    FIELD,
    decode,
    public_key,
    referee_key,
    request_key,
    seat_key,
)
from tabletop.persist import Game
from tests.online.helpers import (
    Players,
    check_game,
    new_greenland,
    readable,
    run_referee,
    seen_by,
    tokens,
)

SEATS = ["red", "green"]


@pytest.fixture(scope="module")
def two_seat_game(
    module_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """A whole two-player game: a referee and two bot clients (played once for this file)."""
    path = new_greenland(tmp_path_factory.mktemp("live") / "game.jsonl", SEATS, seed=5)
    referee = Referee(path, module_redis.url, name="duel")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start_all()
    players.join()
    thread.join(60)
    assert not failures, failures
    over = referee.over()
    referee.close()
    return {"path": path, "addresses": addresses, "players": players, "over": over}


def test_two_bot_clients_play_a_whole_game_and_every_table_equals_the_log(
    module_redis: RedisServer, two_seat_game: dict[str, Any]
) -> None:
    assert two_seat_game["over"]
    clients = two_seat_game["players"].clients.values()
    game = check_game(two_seat_game["path"], module_redis.url, "duel", clients)
    assert len(game.table.entries) > 50
    for client in clients:
        assert client.problems == [] and client.resyncs == 0, client.seat
    game.close()


def test_b2_no_credentials_read_a_card_or_deck_order_their_seat_never_saw(
    two_seat_game: dict[str, Any],
) -> None:
    """Everything each seat's (and the spectator's) user can read, after the whole game: no
    entry names a card, by id or by name, that its seat had not seen by then, and no
    shuffle lists a card the seat never saw."""
    game = Game.open(two_seat_game["path"], writable=False)
    faces = {
        str(r["id"]): str(r["name"])
        for d in find_module("greenland").decks.values()
        for r in d.cards
    }
    cards = {p for p, piece in game.state.pieces.items() if "deck" in piece.props}
    named = 0
    for viewer, address in two_seat_game["addresses"].items():
        seen = seen_by(game, cards, viewer)
        never = cards - seen[-1]
        assert never, viewer  # the decks keep cards nobody turned up
        never_names = {faces[p] for p in never if p in faces} - {
            faces[p] for p in seen[-1] if p in faces
        }
        pattern = tokens([*cards, *never_names])
        for key, messages in readable(address).items():
            for _id, message in messages:
                entry = message.get("type") == "entry"
                allowed = seen[message["seq"] - 1] if entry else seen[-1]
                for token in pattern.findall(json.dumps(message)):
                    assert token in allowed, (viewer, key, message.get("seq"), token)
                    named += 1
                if entry and message["entry"]["cmd"]["op"] == "shuffle":
                    order = message["entry"]["cmd"].get("order", [])
                    assert not set(order) & never, (viewer, message["seq"])
    assert named > 0  # the cards turned up are named: the scan reads what it should
    game.close()


def test_seat_credentials_are_refused_on_other_streams_and_on_the_log(
    two_seat_game: dict[str, Any],
) -> None:
    red = two_seat_game["addresses"]["red"]
    spectator = two_seat_game["addresses"][None]
    client = redis.Redis(host=red.host, port=red.port, username=red.user, password=red.password)
    assert client.xrange(public_key("duel"), count=1) and client.xrange(
        seat_key("duel", "red"), count=1
    )
    refused = [
        lambda: client.xrange(seat_key("duel", "green")),
        lambda: client.xadd(public_key("duel"), {"m": "{}"}),
        lambda: client.xadd(seat_key("duel", "red"), {"m": "{}"}),
        lambda: client.xadd(request_key("duel", "green"), {"m": "{}"}),
        lambda: client.xrange(request_key("duel", "green")),
        lambda: client.hgetall(referee_key("duel")),
        lambda: client.keys("*"),
    ]
    for attempt in refused:
        with pytest.raises(redis.exceptions.NoPermissionError):
            attempt()
    client.close()
    watcher = redis.Redis(
        host=spectator.host,
        port=spectator.port,
        username=spectator.user,
        password=spectator.password,
    )
    assert watcher.xrange(public_key("duel"), count=1)
    for attempt in (
        lambda: watcher.xrange(seat_key("duel", "red")),
        lambda: watcher.xadd(request_key("duel", "red"), {"m": "{}"}),
    ):
        with pytest.raises(redis.exceptions.NoPermissionError):
            attempt()
    watcher.close()


def test_a_request_for_another_seat_is_refused_to_its_sender(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=5)
    referee = Referee(path, redis_server.url, name="refusal")
    addresses = referee.open_seats()
    red = Client(addresses["red"])
    sent = red._send({"kind": "action", "name": "anything", "seat": "green"})
    referee.publish()
    referee._serve_requests()
    red.poll()
    assert [rid for rid, _text in red.errors] == [sent]
    assert "for 'green' from 'red'" in red.errors[0][1]
    before = len(referee.table.entries)
    bogus = red.moves([])  # an empty moves request
    referee._serve_requests()
    red.poll()
    assert red.errors[-1][0] == bogus and len(referee.table.entries) == before
    red.close()
    referee.close()


@pytest.mark.slow
def test_bench_times_a_move_from_one_client_to_the_others() -> None:
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    figures = measure_move_latency()
    assert figures["online_moves_timed"] > 20
    assert 0 < figures["online_move_median_ms"] <= figures["online_move_p95_ms"]


def test_b2_g6_a_card_drawn_face_down_is_named_only_on_its_drawers_stream(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Red draws the top card of the South Greenland deck into its hand, naming it by the
    stand-in its own table shows: the referee moves the card it stands for; red's table then
    shows the card itself, green's and a spectator's a fresh back, and neither green's nor
    the spectator's credentials can read the card's id anywhere."""
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=5)
    referee = Referee(path, redis_server.url, name="draw")
    addresses = referee.open_seats()
    referee.publish()
    red = Client(addresses["red"])
    red.poll()
    assert red.table is not None
    top = red.table.state.top("south_deck")
    assert top.startswith("hidden-")
    move = actions.move(red.table.state, top, "hand_red")
    red.moves([move])
    referee._serve_requests()
    red.poll()
    assert red.errors == []
    card = referee.table.state.places["hand_red"].contents[-1]
    assert red.table.state.places["hand_red"].contents[-1] == card  # shown to its drawer
    for viewer in ("green", None):
        other = Client(addresses[viewer])
        other.poll()
        assert other.table is not None
        assert other.table.state.places["hand_red"].contents[-1].startswith("hidden-")
        for _key, messages in readable(addresses[viewer]).items():
            assert all(card not in json.dumps(m) for _id, m in messages), viewer
        other.close()
    red.close()
    referee.close()


def test_a_request_nested_past_reading_is_no_request() -> None:
    """A seat's request is read by the referee: one nested deeper than JSON can be read is
    taken as no request at all, never an error that would stop the referee."""
    deep = "[" * 100_000 + "]" * 100_000
    assert decode({FIELD: deep}) == {}
    assert decode({FIELD.encode(): deep.encode()}) == {}
