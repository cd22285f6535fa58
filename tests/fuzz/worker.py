"""A fuzzing worker: imports the program once, then runs each case in a forked grandchild.

Started as ``python -m tests.fuzz.worker``; it reads pickled cases on stdin and writes
pickled results on the pipe that was its stdout. For each case it writes the case's files
into a fresh folder, hashes the folder, forks a child that limits its own memory
(RLIMIT_AS) and time (alarm, RLIMIT_CPU), points its stdout and stderr at files and calls
the command line's ``main(argv)`` (or ``Game.open``) in-process, then ``_exit``\\ s with its
code. A crash, an out-of-memory kill or a hang ends only that child. The worker then hashes
the folder again, so the harness sees what the command changed.

Forking needs a process with no Qt application and no threads: the worker imports Qt's
modules (their import is most of ``render``'s start-up) but makes no QApplication; each
child that draws makes its own.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import io
import os
import pickle
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TABLETOP_GAME_PACKAGES", "tests")

from PySide6 import QtCore, QtGui, QtSvg, QtWidgets  # noqa: E402,F401  imported once, before forks

import rules_assist.greenland  # noqa: E402,F401
import rules_assist.looot  # noqa: E402,F401
import tabletop.export  # noqa: E402,F401
from tabletop.cli import main as cli_main  # noqa: E402
from tabletop.core import TableError  # noqa: E402
from tabletop.persist import Game  # noqa: E402

MEMORY_LIMIT = 1 << 30  # bytes of address space a case may use
TIME_LIMIT = 10  # seconds of CPU a case may take
WALL_FACTOR = 6  # and of waiting: the limit times this (the machine may be shared and busy)
UNCAUGHT = 70  # a child's exit code when an exception escaped the command


def snapshot(root: Path) -> dict[str, str]:
    """Every file under root (links as their targets) by path, with its contents' hash."""
    found: dict[str, str] = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            rel = str(path.relative_to(root))
            if path.is_symlink():
                found[rel] = "link:" + os.readlink(path)
                continue
            try:
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                found[rel] = f"unreadable:{exc.errno}"
    return found


def _open_game(path: str, verify: bool) -> int:
    try:
        game = Game.open(path, writable=False, verify=verify)
    except (TableError, OSError) as exc:
        print(f"Game.open: {exc}", file=sys.stderr)
        return 2
    game.close()
    return 0


def _misbehave(how: str) -> int:
    """What the harness must catch, on demand: its own tests run these."""
    if how == "segfault":
        ctypes.string_at(0)
    elif how == "hang":
        while True:
            time.sleep(0)
    elif how == "memory":
        return len(bytearray(2 << 30))
    elif how == "traceback":
        raise ValueError("escaped")
    elif how == "stray":
        Path("home").mkdir(exist_ok=True)
        Path("home", "written").write_text("x")
    elif how == "change":
        Path("game.jsonl").write_text("changed")
    elif how == "vague":
        print("something is wrong", file=sys.stderr)
        return 2
    return 0


def _child(case: dict[str, Any], work: Path, out: Path) -> None:
    """Run the case in this (forked) process and never return."""
    code = UNCAUGHT
    limit = case.get("seconds", TIME_LIMIT)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.alarm(limit * WALL_FACTOR)
        os.chdir(work)
        home = work / "home"
        for key in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            os.environ[key] = str(home)
        # the program's own cache (the card faces it has drawn) is not the user's files: it
        # lies outside the folder whose changes are judged
        os.environ["XDG_CACHE_HOME"] = str(out / "cache")
        os.environ["TMPDIR"] = str(out / "tmp")
        tempfile.tempdir = None
        for fd, name in ((0, os.devnull), (1, out / "stdout"), (2, out / "stderr")):
            target = os.open(name, os.O_RDONLY if fd == 0 else os.O_WRONLY | os.O_CREAT)
            os.dup2(target, fd)
            os.close(target)
        # as a program's streams are when redirected to files: UTF-8, strict on stdout
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(
            io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="strict"
        )
        sys.stderr = io.TextIOWrapper(
            io.FileIO(2, "w", closefd=False),
            encoding="utf-8",
            errors="backslashreplace",
            line_buffering=True,
        )
        code = 0
        for argv in case["argv"]:  # one command, or a chain that stops at the first refusal
            try:
                if argv[0] == "misbehave":
                    code = _misbehave(argv[1])
                elif argv[0] == "Game.open":
                    code = _open_game(argv[1], verify=argv[2:] != ["--no-verify"])
                else:
                    code = cli_main(list(argv))
            except SystemExit as exc:  # argparse's refusals
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
            if code != 0:
                break
        with contextlib.suppress(BrokenPipeError):
            sys.stdout.flush()
    except BaseException:  # noqa: BLE001  what escaped the command is the finding
        try:
            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        code = UNCAUGHT
    os._exit(code if isinstance(code, int) and 0 <= code < 256 else UNCAUGHT)


def _ends(data: bytes, keep: int = 10_000) -> bytes:
    """A long stream's start and end (a traceback's last line is its finding)."""
    return data if len(data) <= 2 * keep else data[:keep] + b"\n...\n" + data[-keep:]


def run_case(case: dict[str, Any], base: Path) -> dict[str, Any]:
    """Write the case's files into a fresh folder, run it in a child, and say what happened."""
    work = Path(tempfile.mkdtemp(prefix="case-", dir=base))
    out = Path(tempfile.mkdtemp(prefix="out-", dir=base))
    (out / "tmp").mkdir()
    try:
        for rel, data in case["files"].items():
            path = work / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        before = snapshot(work)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(case, work, out)
        status = None
        usage = None
        while status is None:
            done, status_, usage_ = os.wait4(pid, os.WNOHANG)
            if done:
                status, usage = status_, usage_
                break
            if time.monotonic() - started > 2 * WALL_FACTOR * case.get("seconds", TIME_LIMIT):
                # stuck where no alarm reaches
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)
        seconds = time.monotonic() - started
        after = snapshot(work)
        result: dict[str, Any] = {
            "exit": os.waitstatus_to_exitcode(status),
            "seconds": seconds,
            "max_rss_kb": usage.ru_maxrss if usage else 0,
            "stdout_bytes": (out / "stdout").stat().st_size,
            "stderr": _ends((out / "stderr").read_bytes()),
            "before": before,
            "after": after,
            "collected": {
                rel: (work / rel).read_bytes()
                for rel in case.get("collect", ())
                if (work / rel).is_file()
            },
        }
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


def serve() -> None:
    """Answer cases read from stdin until it closes."""
    pipe = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing printed by mistake can corrupt the pipe
    requests = sys.stdin.buffer
    base = Path(tempfile.mkdtemp(prefix="tabletop-fuzz-"))
    try:
        while True:
            try:
                case = pickle.load(requests)
            except EOFError:
                return
            pickle.dump(run_case(case, base), pipe)
            pipe.flush()
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    serve()
