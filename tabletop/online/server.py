"""A Redis server for live games: ``redis-server`` started on a free port in a folder of its
own, with the project's settings (redis.conf beside this file: the append-only file fsynced
before every reply, no snapshots) and an ACL file whose only user at first is the referee.

``RedisServer(folder).start()`` writes the ACL file (once: a restart in the same folder keeps
its users and the referee's password), starts the server, waits until it answers, and gives
the referee's address (``url``); ``stop()`` shuts it down cleanly, ``kill()`` ends it at once
(what a crash does: with ``appendfsync always`` nothing acknowledged is lost either way).

For a playtest group: ``python -m tabletop.online.server FOLDER --bind 0.0.0.0 --port 6379``
prints the referee's address and runs until Ctrl-C.
"""

from __future__ import annotations

import argparse
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
    """One redis-server process with its data (AOF, ACL file, log) in ``folder``."""

    def __init__(self, folder: str | os.PathLike[str], port: int | None = None) -> None:
        self.folder = Path(folder)
        self.port = port
        self.host = "127.0.0.1"
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
        password = secrets.token_hex(16)
        secret = self.folder / PASSWORD_FILE
        secret.write_text(password + "\n")
        secret.chmod(0o600)
        acl.write_text(f"user default off\nuser {REFEREE} {REFEREE_RULES} >{password}\n")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.online.server",
        description="Run a Redis for live tabletop games (the referee's address is printed).",
    )
    parser.add_argument("folder", help="where its data, ACL file and log are kept")
    parser.add_argument("--port", type=int, default=6379)
    parser.add_argument("--bind", default="127.0.0.1", help="the addresses to listen on")
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
