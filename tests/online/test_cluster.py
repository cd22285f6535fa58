"""Live games on a real Redis Cluster of three nodes (tabletop/online/server.py RedisCluster):
the referee is given any node's address, finds the node that owns its game's slot, makes the
seats' users on every node, and follows the slot when it moves; the clients need no cluster
support (a MOVED reply names the new node)."""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from tabletop.cli import main
from tabletop.online.client import Client
from tabletop.online.referee import Referee, wait_for
from tabletop.online.server import RedisCluster, RedisServer, cluster_info
from tabletop.online.streams import (
    Address,
    public_key,
    referee_key,
    request_key,
    seat_key,
    user_name,
)
from tests.online.helpers import (
    Players,
    check_game,
    new_greenland,
    run_referee,
    stream_messages,
)

SEATS = ["red", "green"]


def slot_of(cluster: RedisCluster, game: str) -> int:
    client = cluster.admin(cluster.nodes[0])
    try:
        return int(client.execute_command("CLUSTER", "KEYSLOT", public_key(game)))
    finally:
        client.close()


def names_on_each_node(cluster: RedisCluster, prefix: str) -> dict[int, str]:
    """A game name for each node (by port) whose slot that node serves now."""
    found: dict[int, str] = {}
    n = 0
    while len(found) < len(cluster.nodes):
        name = f"{prefix}-{n}"
        found.setdefault(cluster.node_of_slot(slot_of(cluster, name)).port, name)
        n += 1
    return found


def free_base(nodes: int = 3) -> int:
    """A port P with P .. P+nodes-1 and their cluster bus ports (10000 above) all free."""
    while True:
        base = random.randrange(20000, 40000)
        try:
            for port in [*range(base, base + nodes), *range(base + 10000, base + 10000 + nodes)]:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base


def seat_login(address: Any, node: RedisServer | None = None) -> redis.Redis:
    return redis.Redis(
        host=address.host,
        port=node.port if node is not None else address.port,
        username=address.user,
        password=address.password,
        decode_responses=True,
    )


@pytest.fixture(scope="module")
def three_games(module_cluster: RedisCluster, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Three games hosted on the cluster through its first node's address, one whose slot
    each node serves; their referees have made their users and published their headers."""
    folder = tmp_path_factory.mktemp("games")
    games = {}
    for port, name in names_on_each_node(module_cluster, "spread").items():
        path = new_greenland(folder / f"{name}.jsonl", SEATS, seed=3)
        referee = Referee(path, module_cluster.url, name=name)
        addresses = referee.open_seats()
        referee.publish()
        games[name] = (port, referee, addresses)
    yield games
    for _port, referee, _addresses in games.values():
        referee.close()


def test_games_on_one_cluster_are_each_hosted_on_the_node_owning_their_slot(
    module_cluster: RedisCluster, three_games: Any
) -> None:
    assert module_cluster.url.endswith(f":{module_cluster.nodes[0].port}")
    ports = set()
    for name, (port, referee, addresses) in three_games.items():
        assert (referee.host, referee.port) == ("127.0.0.1", port), name
        assert {a.port for a in addresses.values()} == {port}, name
        ports.add(port)
        owner = next(node for node in module_cluster.nodes if node.port == port)
        admin = module_cluster.admin(owner)
        slot = slot_of(module_cluster, name)
        assert referee.slot == slot
        # the game's streams are on its node, in its one slot
        assert admin.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) >= len(SEATS) + 1
        # its header and every entry so far
        assert admin.xlen(public_key(name)) == 1 + len(referee.table.entries)
        admin.close()
        # a seat joining with its address reads its stream on that node directly
        red = Client(addresses["red"])
        red.poll(0)
        assert red.table is not None and (red.host, red.port) == ("127.0.0.1", port)
        red.close()
    assert ports == {node.port for node in module_cluster.nodes}


def test_a_games_seat_users_exist_on_every_node_and_in_every_nodes_acl_file(
    module_cluster: RedisCluster, three_games: Any
) -> None:
    for name in three_games:
        users = [user_name(name, seat) for seat in [*SEATS, None]]
        for node in module_cluster.nodes:
            admin = module_cluster.admin(node)
            for user in users:
                rules = admin.acl_getuser(user)
                assert rules is not None and "on" in rules["flags"], (node.port, user)
            admin.close()
            saved = (node.folder / "users.acl").read_text()
            assert all(f"user {user} on" in saved for user in users), node.port


def test_seat_credentials_are_refused_on_another_seats_streams_on_every_node(
    module_cluster: RedisCluster, three_games: Any
) -> None:
    name, (port, _referee, addresses) = next(iter(three_games.items()))
    red = addresses["red"]
    for node in module_cluster.nodes:
        client = seat_login(red, node)
        assert client.ping()
        refused = [
            lambda c=client: c.xrange(seat_key(name, "green")),
            lambda c=client: c.xadd(public_key(name), {"m": "{}"}),
            lambda c=client: c.xadd(seat_key(name, "red"), {"m": "{}"}),
            lambda c=client: c.xadd(request_key(name, "green"), {"m": "{}"}),
            lambda c=client: c.hgetall(referee_key(name)),
            lambda c=client: c.keys("*"),
            lambda c=client: c.execute_command("CLUSTER", "SHARDS"),
        ]
        for attempt in refused:
            with pytest.raises(redis.exceptions.NoPermissionError):
                attempt()
        if node.port == port:
            assert client.xrange(seat_key(name, "red"), count=1)
        else:  # its own stream: not refused, sent on to the node that has it
            with pytest.raises(redis.exceptions.MovedError) as moved:
                client.xrange(seat_key(name, "red"), count=1)
            assert moved.value.port == port
        client.close()


def test_two_bot_clients_play_a_whole_game_on_a_cluster_and_every_table_equals_the_log(
    module_cluster: RedisCluster, tmp_path: Path
) -> None:
    name = names_on_each_node(module_cluster, "whole")[module_cluster.nodes[2].port]
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=5)
    referee = Referee(path, module_cluster.url, name=name)  # the first node's address
    assert referee.port == module_cluster.nodes[2].port
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start_all()
    players.join()
    thread.join(60)
    assert not failures, failures
    assert referee.over()
    referee.close()
    game = check_game(path, module_cluster.nodes[2].url, name, players.clients.values())
    assert len(game.table.entries) > 50
    for client in players.clients.values():
        assert client.problems == [] and client.resyncs == 0, client.seat
    game.close()


def test_the_games_slot_moved_mid_game_the_referee_and_clients_follow_it_to_the_end(
    module_cluster: RedisCluster, tmp_path: Path
) -> None:
    """The slot is moved (its keys migrated, then given to another node) mid-game, while the
    referee waits on its request streams: the referee and both clients get MOVED replies, go on
    on the new node with the addresses they had, and the game ends with nothing lost or
    doubled on any stream."""
    first = module_cluster.nodes[0]
    name = names_on_each_node(module_cluster, "moved")[first.port]
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=7)
    said: list[str] = []
    referee = Referee(path, module_cluster.url, name=name, say=said.append)
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    for seat, client in players.clients.items():
        players.start(seat, until=lambda c=client: c.seq > 20)
    for playing in players.threads.values():
        playing.join(120)
    assert not referee.over() and referee.port == first.port
    target = module_cluster.nodes[1]
    module_cluster.move_slot(slot_of(module_cluster, name), target)
    players.start_all()
    players.join()
    thread.join(60)
    assert not failures, failures
    assert referee.over() and referee.port == target.port
    assert said == [
        f"game {name}: its slot {slot_of(module_cluster, name)} is now on 127.0.0.1:{target.port}"
    ]
    referee.close()
    for client in players.clients.values():
        assert client.port == target.port, client.seat
        assert client.problems == [] and client.resyncs == 0, client.seat
    check_game(path, target.url, name, players.clients.values()).close()
    old = module_cluster.admin(first)
    assert old.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot_of(module_cluster, name)) == 0
    old.close()


def test_a_write_while_the_games_keys_are_half_moved_waits_and_lands_once_on_the_new_node(
    module_cluster: RedisCluster, tmp_path: Path
) -> None:
    """Red's stream is migrated first, the rest of the slot later: meanwhile the referee's
    message for red gets ASK replies (it waits) and red's reads too; once the slot is given to
    the new node, both follow the MOVED reply, and the message is there once."""
    source, target = module_cluster.nodes[0], module_cluster.nodes[2]
    name = names_on_each_node(module_cluster, "half")[source.port]
    slot = slot_of(module_cluster, name)
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=9)
    said: list[str] = []
    referee = Referee(path, module_cluster.url, name=name, say=said.append)
    addresses = referee.open_seats()
    referee.publish()
    red = Client(addresses["red"])
    red.poll(0)
    assert red.table is not None
    assert module_cluster.start_move(slot, target) is source
    module_cluster.migrate_keys(slot, source, target, [seat_key(name, "red")])
    text = "a refusal written while the game's slot moves"
    refusal = threading.Thread(target=referee.refuse, args=("red", "1-0", text), daemon=True)
    refusal.start()
    assert red.poll(0) == 0 and red.errors == []  # ASK: nothing read on the old node
    module_cluster.migrate_keys(slot, source, target)
    module_cluster.finish_move(slot, target)
    refusal.join(60)
    assert not refusal.is_alive()
    assert said == [f"game {name}: its slot {slot} is now on 127.0.0.1:{target.port}"]
    assert wait_for(lambda: red.poll(0) > 0 or bool(red.errors), 30)
    assert red.errors == [("1-0", text)] and red.port == target.port
    assert red.problems == [] and red.seq == len(referee.table.entries)
    admin = module_cluster.admin(target)
    errors = [m for m in stream_messages(admin, seat_key(name, "red")) if m["type"] == "error"]
    assert errors == [{"type": "error", "request": "1-0", "text": text}]
    admin.close()
    red.close()
    referee.close()


def test_host_on_the_command_line_names_the_games_node_and_gives_its_addresses(
    module_cluster: RedisCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    third = module_cluster.nodes[2]
    name = names_on_each_node(module_cluster, "cli")[third.port]
    path = new_greenland(tmp_path / "game.jsonl", SEATS, seed=4)
    code = main(
        ["host", str(path), "--redis", module_cluster.url, "--name", name, "--bots", "red,green"]
    )
    out = capsys.readouterr().out
    assert code == 0 and f"game {name}: over after" in out
    slot = slot_of(module_cluster, name)
    assert f"slot {slot} on the node 127.0.0.1:{third.port}; join addresses:" in out
    spectator = next(line.split(": ", 1)[1] for line in out.splitlines() if "spectator:" in line)
    assert Address.parse(spectator.strip()).port == third.port


def test_the_launcher_starts_a_cluster_prints_its_address_and_stops_it_on_ctrl_c(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cluster"
    launcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tabletop.online.server",
            str(folder),
            "--cluster",
            "3",
            "--port",
            str(free_base()),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert launcher.stdout is not None
    lines = [launcher.stdout.readline() for _ in range(3)]
    assert lines[0].startswith("Redis Cluster for tabletop games, 3 nodes"), lines
    url = lines[2].strip()
    assert url.startswith("redis://referee:")
    client = redis.Redis.from_url(url, decode_responses=True)
    assert cluster_info(client)["cluster_state"] == "ok"
    client.close()
    launcher.send_signal(signal.SIGINT)
    assert launcher.wait(60) == 0
    logs = [(folder / f"node-{i}" / "redis.log").read_text() for i in range(3)]
    assert all("ready to exit, bye bye" in log for log in logs)
