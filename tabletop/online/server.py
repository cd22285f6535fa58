"""A Redis server for live games: ``redis-server`` started on a free port in a folder of its
own, with the project's settings (redis.conf beside this file: the append-only file fsynced
before every reply, no snapshots) and an ACL file whose only user at first is the referee.

``RedisServer(folder).start()`` writes the ACL file (once: a restart in the same folder keeps
its users and the referee's password), starts the server, waits until it answers, and gives
the referee's address (``url``); ``stop()`` shuts it down cleanly, ``kill()`` ends it at once
(what a crash does: with ``appendfsync always`` nothing acknowledged is lost either way).

For a playtest group: ``python -m tabletop.online.server FOLDER --bind 0.0.0.0 --port 6379``
prints the referee's address and runs until Ctrl-C.

A Redis Cluster (``RedisCluster``): ``python -m tabletop.online.server FOLDER --cluster 3``
starts three nodes (masters, no replicas) on ports 6379, 6380, 6381, each with the same
settings, its own AOF and an ACL file with the same referee user, and joins them.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

CONFIG = Path(__file__).with_name("redis.conf")
REFEREE = "referee"
ADMIN = "admin"  # a cluster's launcher only: joins the nodes, moves slots
ACL_FILE = "users.acl"
PASSWORD_FILE = "referee.password"
# The referee writes the games' keys and makes the seats' users; nothing else
REFEREE_RULES = (
    "on ~tt:* resetchannels +@all -@dangerous "
    "+acl|setuser +acl|deluser +acl|getuser +acl|save +acl|whoami +info"
)


class ServerError(Exception):
    """redis-server is missing, or did not start."""


def redis_server_binary() -> str | None:
    """The redis-server program on PATH, or None."""
    return shutil.which("redis-server")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One redis-server process with its data (AOF, ACL file, log) in ``folder``.

    As a node of a cluster (``RedisCluster``): ``bus_port`` is its cluster bus port,
    ``referee_password`` the referee's password shared by every node, ``admin_password``
    that of the launcher's own ``admin`` user (it joins the nodes and moves slots)."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        port: int | None = None,
        *,
        bus_port: int | None = None,
        referee_password: str | None = None,
        admin_password: str | None = None,
        announce: str | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.port = port
        self.host = "127.0.0.1"
        self.bus_port = bus_port
        self.referee_password = referee_password
        self.admin_password = admin_password
        self.announce = announce
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def password(self) -> str:
        return (self.folder / PASSWORD_FILE).read_text().strip()

    @property
    def url(self) -> str:
        """The referee's address: ``redis://referee:PASSWORD@HOST:PORT``."""
        return f"redis://{REFEREE}:{self.password}@{self.host}:{self.port}"

    def _write_acl(self) -> None:
        acl = self.folder / ACL_FILE
        if acl.exists():
            return
        password = self.referee_password or secrets.token_hex(16)
        secret = self.folder / PASSWORD_FILE
        secret.write_text(password + "\n")
        secret.chmod(0o600)
        users = f"user default off\nuser {REFEREE} {REFEREE_RULES} >{password}\n"
        if self.admin_password is not None:
            users += f"user {ADMIN} on ~* &* +@all >{self.admin_password}\n"
        acl.write_text(users)
        acl.chmod(0o600)

    def start(self, bind: str = "127.0.0.1", timeout: float = 15.0) -> RedisServer:
        binary = redis_server_binary()
        if binary is None:
            raise ServerError(
                "redis-server is not installed (Debian: apt-get install redis-server)"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write_acl()
        if self.port is None:
            self.port = free_port()
        self.host = "127.0.0.1" if bind in ("0.0.0.0", "::", "*") else bind.split()[0]
        args = [
            binary,
            str(CONFIG),
            "--port",
            str(self.port),
            "--bind",
            *bind.split(),
            "--dir",
            str(self.folder.resolve()),
            "--aclfile",
            str((self.folder / ACL_FILE).resolve()),
            "--logfile",
            str((self.folder / "redis.log").resolve()),
        ]
        if bind in ("0.0.0.0", "::", "*"):
            args += ["--protected-mode", "no"]  # every user has a password; default is off
        if self.bus_port is not None:
            args += [
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-port",
                str(self.bus_port),
                "--cluster-node-timeout",
                "5000",
                # games are independent: a node that is down stops its own games only
                "--cluster-require-full-coverage",
                "no",
            ]
            if self.announce is not None:
                self.host = self.announce
                args += [
                    "--cluster-announce-hostname",
                    self.announce,
                    "--cluster-preferred-endpoint-type",
                    "hostname",
                ]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        self._wait(timeout)
        return self

    def _wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        try:
            while True:
                if self.process is not None and self.process.poll() is not None:
                    raise ServerError(
                        f"redis-server stopped at once (see {self.folder / 'redis.log'})"
                    )
                try:
                    if client.ping():
                        return
                except redis.exceptions.BusyLoadingError:
                    pass
                except redis.exceptions.ConnectionError:
                    pass
                if time.monotonic() > deadline:
                    self.stop()
                    raise ServerError(f"redis-server did not answer in {timeout:.0f} s")
                time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        """Shut the server down (it writes its AOF to disk first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """End the server at once, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> RedisServer:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


CLUSTER_FILE = "cluster.json"
ADMIN_PASSWORD_FILE = "admin.password"
SLOTS = 16384


class RedisCluster:
    """A Redis Cluster of ``masters`` nodes (no replicas) in ``folder``: each a ``RedisServer``
    with ``cluster-enabled yes`` in ``folder/node-N`` (its AOF, its ACL file, its log), on
    free local ports (or ``port``, ``port + 1``, ...; their cluster bus 10000 above). Every
    node's ACL file has the same referee user and password, and the launcher's ``admin``
    user, which assigns the slots (an equal range to each node) and joins the nodes
    (CLUSTER ADDSLOTSRANGE, CLUSTER MEET). The ports are kept in ``folder/cluster.json``: a
    restart in the same folder brings back the same cluster, with its keys and users.

    ``url`` is the referee's address of any node (the first): the referee finds the node
    that owns a game's slot itself (tabletop/online/referee.py)."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        masters: int = 3,
        port: int | None = None,
        announce: str | None = None,
    ) -> None:
        if masters < 1:
            raise ServerError("a cluster needs at least one node")
        self.folder = Path(folder)
        self.masters = masters
        self.base_port = port
        self.announce = announce
        self.nodes: list[RedisServer] = []

    def _secret(self, name: str) -> str:
        path = self.folder / name
        if not path.exists():
            path.write_text(secrets.token_hex(16) + "\n")
            path.chmod(0o600)
        return path.read_text().strip()

    @property
    def password(self) -> str:
        return self._secret(PASSWORD_FILE)

    @property
    def url(self) -> str:
        """The referee's address (of the first node; any node's would do)."""
        return self.nodes[0].url

    def _ports(self) -> list[tuple[int, int]]:
        layout = self.folder / CLUSTER_FILE
        if layout.exists():
            return [(int(p), int(b)) for p, b in json.loads(layout.read_text())["nodes"]]
        if self.base_port is not None:
            ports = [(self.base_port + i, self.base_port + 10000 + i) for i in range(self.masters)]
        else:
            found: list[int] = []
            while len(found) < 2 * self.masters:
                port = free_port()
                if port not in found:
                    found.append(port)
            ports = [(found[2 * i], found[2 * i + 1]) for i in range(self.masters)]
        layout.write_text(json.dumps({"nodes": ports}) + "\n")
        return ports

    def start(self, bind: str = "127.0.0.1", timeout: float = 30.0) -> RedisCluster:
        self.folder.mkdir(parents=True, exist_ok=True)
        referee, admin = self._secret(PASSWORD_FILE), self._secret(ADMIN_PASSWORD_FILE)
        self.nodes = [
            RedisServer(
                self.folder / f"node-{i}",
                port,
                bus_port=bus,
                referee_password=referee,
                admin_password=admin,
                announce=self.announce,
            )
            for i, (port, bus) in enumerate(self._ports())
        ]
        try:
            for node in self.nodes:
                node.start(bind, timeout)
            self._join(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def admin(self, node: RedisServer) -> redis.Redis:
        """A connection to ``node`` as the launcher's admin user."""
        return redis.Redis(
            host="127.0.0.1",
            port=node.port,
            username=ADMIN,
            password=self._secret(ADMIN_PASSWORD_FILE),
            decode_responses=True,
        )

    def _join(self, timeout: float) -> None:
        clients = [self.admin(node) for node in self.nodes]
        try:
            if all(cluster_info(c)["cluster_slots_assigned"] == "0" for c in clients):
                share = SLOTS // len(clients)
                for i, client in enumerate(clients):
                    last = SLOTS - 1 if i == len(clients) - 1 else (i + 1) * share - 1
                    client.execute_command("CLUSTER", "SET-CONFIG-EPOCH", i + 1)
                    client.execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
                for node in self.nodes[1:]:
                    clients[0].execute_command(
                        "CLUSTER", "MEET", "127.0.0.1", node.port, node.bus_port
                    )
            deadline = time.monotonic() + timeout
            while not all(_joined(cluster_info(c), len(clients)) for c in clients):
                if time.monotonic() > deadline:
                    raise ServerError(f"the cluster's nodes did not agree in {timeout:.0f} s")
                time.sleep(0.05)
        finally:
            for client in clients:
                client.close()

    def node_of_slot(self, slot: int) -> RedisServer:
        """The node serving ``slot``, as the first node sees it."""
        client = self.admin(self.nodes[0])
        try:
            for first, last, owner, *_replicas in client.execute_command("CLUSTER", "SLOTS"):
                if int(first) <= slot <= int(last):
                    return next(n for n in self.nodes if n.port == int(owner[1]))
        finally:
            client.close()
        raise ServerError(f"no node serves slot {slot}")

    def move_slot(self, slot: int, to: RedisServer, timeout: float = 30.0) -> None:
        """Move one slot with its keys to the node ``to``, as resharding does: the slot marked
        importing and migrating (``start_move``), its keys MIGRATEd (``migrate_keys``), then
        given to ``to`` on every node (``finish_move``). Clients of the old node get MOVED
        replies from then on; while it moves, ASK or TRYAGAIN."""
        source = self.start_move(slot, to)
        if source is not to:
            self.migrate_keys(slot, source, to)
            self.finish_move(slot, to, timeout)

    def _id(self, node: RedisServer) -> str:
        client = self.admin(node)
        try:
            return str(client.execute_command("CLUSTER", "MYID"))
        finally:
            client.close()

    def start_move(self, slot: int, to: RedisServer) -> RedisServer:
        """Mark ``slot`` importing on ``to`` and migrating on the node serving it (returned)."""
        source = self.node_of_slot(slot)
        if source is not to:
            dst, src = self.admin(to), self.admin(source)
            try:
                dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", self._id(source))
                src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", self._id(to))
            finally:
                dst.close()
                src.close()
        return source

    def migrate_keys(
        self, slot: int, source: RedisServer, to: RedisServer, keys: list[str] | None = None
    ) -> None:
        """MIGRATE ``keys`` (all the slot's keys still on ``source`` when None) to ``to``."""
        src = self.admin(source)
        auth = ["AUTH2", ADMIN, self._secret(ADMIN_PASSWORD_FILE)]
        try:
            while batch := keys or src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100):
                src.execute_command(
                    "MIGRATE", "127.0.0.1", to.port, "", 0, 5000, *auth, "KEYS", *batch
                )
                if keys is not None:
                    return
        finally:
            src.close()

    def finish_move(self, slot: int, to: RedisServer, timeout: float = 30.0) -> None:
        """Give ``slot`` to ``to`` on every node (``to`` first) and wait until it is so."""
        owner = self._id(to)
        for node in sorted(self.nodes, key=lambda n: n is not to):
            client = self.admin(node)
            try:
                client.execute_command("CLUSTER", "SETSLOT", slot, "NODE", owner)
            finally:
                client.close()
        deadline = time.monotonic() + timeout
        while self.node_of_slot(slot) is not to:
            if time.monotonic() > deadline:
                raise ServerError(f"slot {slot} did not move in {timeout:.0f} s")
            time.sleep(0.05)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def kill(self) -> None:
        for node in self.nodes:
            node.kill()

    def __enter__(self) -> RedisCluster:
        return self.start() if not self.nodes else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def cluster_info(client: redis.Redis) -> dict[str, str]:
    """CLUSTER INFO as a dict of strings."""
    raw = client.execute_command("CLUSTER", "INFO")
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    if isinstance(raw, bytes):
        raw = raw.decode()
    pairs = (line.split(":", 1) for line in str(raw).splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def _joined(info: dict[str, str], nodes: int) -> bool:
    return (
        info.get("cluster_state") == "ok"
        and info.get("cluster_slots_assigned") == str(SLOTS)
        and info.get("cluster_known_nodes") == str(nodes)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.online.server",
        description="Run a Redis for live tabletop games (the referee's address is printed).",
    )
    parser.add_argument("folder", help="where its data, ACL file and log are kept")
    parser.add_argument("--port", type=int, default=6379, help="(a cluster: its first node's)")
    parser.add_argument("--bind", default="127.0.0.1", help="the addresses to listen on")
    parser.add_argument(
        "--cluster",
        type=int,
        metavar="N",
        help="a Redis Cluster of N nodes on PORT, PORT+1, ... (cluster bus 10000 above)",
    )
    parser.add_argument(
        "--announce",
        metavar="HOST",
        help="a cluster's name or address for the players' machines (when --bind is wider)",
    )
    args = parser.parse_args(argv)
    if args.cluster is not None:
        return _run_cluster(args)
    server = RedisServer(args.folder, args.port)
    try:
        server.start(args.bind)
    except ServerError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 1
    print(f"Redis for tabletop games on port {server.port}; the referee's address:")
    print(f"  {server.url}")
    print("tabletop host GAME.jsonl --redis ADDRESS   (Ctrl-C stops the server)")
    try:
        assert server.process is not None
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()
    return 0


def _run_cluster(args: argparse.Namespace) -> int:
    cluster = RedisCluster(args.folder, args.cluster, args.port, args.announce)
    try:
        cluster.start(args.bind)
    except (ServerError, ValueError, redis.exceptions.RedisError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 1
    ports = ", ".join(str(node.port) for node in cluster.nodes)
    print(f"Redis Cluster for tabletop games, {len(cluster.nodes)} nodes on ports {ports};")
    print("the referee's address (any node's will do):")
    print(f"  {cluster.url}")
    print("tabletop host GAME.jsonl --redis ADDRESS   (Ctrl-C stops the cluster)")
    sys.stdout.flush()
    try:
        while all(n.process is not None and n.process.poll() is None for n in cluster.nodes):
            time.sleep(0.5)
        print("tabletop: a node of the cluster stopped; stopping the others", file=sys.stderr)
        cluster.stop()
        return 1
    except KeyboardInterrupt:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
