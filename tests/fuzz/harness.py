"""Run fuzzing cases in a pool of workers and sort each run into an outcome.

A case is a set of files (written into a fresh folder), the command's arguments, and what
the command may write (its target). The outcome of one run:

- ``accepted``: exit 0, nothing changed but the target;
- ``refused``: exit 2 with a short message naming the file: a line (or one a problem),
  none over 1,000 characters, no traceback, no raw control characters;
- anything else is a failure: ``traceback``, ``memory`` (MemoryError or a kill near the
  1 GB limit), ``crash`` (a signal: segmentation fault, abort), ``hang`` (over 10 s),
  ``exit N`` (another exit code), ``vague refusal`` (exit 2 without naming the file),
  ``raw message`` (control characters or a very long message), ``changed input`` (a
  read-only command changed a file), ``stray write`` (a file written outside the target).
"""

from __future__ import annotations

import os
import pickle
import re
import signal
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from queue import Queue
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ACCEPTED = "accepted"
REFUSED = "refused"
PASSING = (ACCEPTED, REFUSED)
LONGEST_LINE = 1000  # characters of one line of a refusal (a problem each line)
LONGEST_MESSAGE = 64_000  # characters of a whole refusal (a deck's every row may be named)
_RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


@dataclass
class Case:
    """One run: files by relative path, the command's arguments, what it may write."""

    kind: str  # log, module, deck, position
    command: str  # the name counted in the table: inspect, render, deck import, Game.open...
    files: dict[str, bytes] = field(repr=False)
    argv: list[list[str]]  # one command's arguments, or a chain run in turn
    subject: str  # the file (or folder) fed to the command, named in a refusal
    targets: tuple[str, ...] = ()  # paths (files or folders) the command may create or change
    collect: tuple[str, ...] = ()
    label: str = ""  # how the input was made (seed and mutations)
    names: tuple[str, ...] = ()  # other words a refusal may name the input by (a module's id)

    seconds: int = 10  # of CPU (and six times that of waiting) before it counts as a hang

    def request(self) -> dict[str, Any]:
        return {
            "argv": self.argv,
            "files": self.files,
            "collect": self.collect,
            "seconds": self.seconds,
        }


@dataclass
class Result:
    case: Case
    outcome: str
    exit: int
    first_line: str
    seconds: float
    detail: str = ""
    collected: dict[str, bytes] = field(default_factory=dict, repr=False)

    @property
    def failed(self) -> bool:
        return self.outcome not in PASSING


def _inside(rel: str, targets: Iterable[str]) -> bool:
    return any(rel == t or rel.startswith(t.rstrip("/") + "/") for t in targets)


def classify(case: Case, raw: dict[str, Any]) -> Result:
    """The outcome of one run from the worker's report."""
    code = raw["exit"]
    stderr = raw["stderr"].decode("utf-8", "backslashreplace")
    lines = [line for line in stderr.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if "Traceback (most recent call last)" in stderr:
        first = next((ln for ln in reversed(lines) if not ln.startswith(" ")), first)

    def result(outcome: str, detail: str = "") -> Result:
        return Result(case, outcome, code, first[:300], raw["seconds"], detail, raw["collected"])

    if code < 0:
        sig = -code
        if sig in (signal.SIGALRM, signal.SIGXCPU) or (
            sig == signal.SIGKILL and raw["seconds"] > case.seconds
        ):
            return result("hang")
        if sig == signal.SIGKILL:
            return result("memory")
        return result("crash", signal.Signals(sig).name)
    if "MemoryError" in stderr:
        return result("memory")
    if "Traceback (most recent call last)" in stderr:
        return result("traceback")
    before, after = raw["before"], raw["after"]
    changed = sorted(rel for rel in set(before) | set(after) if before.get(rel) != after.get(rel))
    outside = [rel for rel in changed if not _inside(rel, case.targets)]
    if outside:
        kind = "changed input" if any(rel in before for rel in outside) else "stray write"
        return result(kind, ", ".join(outside[:5]))
    if code == 0:
        return result(ACCEPTED)
    if code != 2:
        return result(f"exit {code}")
    if not lines:
        return result("vague refusal", "no message")
    longest = max(len(line) for line in lines)
    if len(stderr) > LONGEST_MESSAGE or longest > LONGEST_LINE or _RAW.search(stderr):
        return result("raw message", f"{len(stderr)} characters, a line of {longest}")
    if not any(name in stderr for name in (Path(case.subject).name, *case.names)):
        return result("vague refusal", f"does not name {case.subject}")
    if code == 2 and changed:
        return result("changed input", "a refusal changed " + ", ".join(changed[:5]))
    return result(REFUSED)


class Pool:
    """Long-lived workers (``python -m tests.fuzz.worker``), each running one case at a time."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size or max(1, min(4, os.cpu_count() or 1))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        self._idle: Queue[subprocess.Popen[bytes]] = Queue()
        self._all: list[subprocess.Popen[bytes]] = []
        self._env = env
        for _ in range(self.size):
            self._start()

    def _start(self) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=self._env,
        )
        self._all.append(proc)
        self._idle.put(proc)

    def run(self, case: Case) -> Result:
        proc = self._idle.get()
        try:
            assert proc.stdin is not None and proc.stdout is not None
            pickle.dump(case.request(), proc.stdin)
            proc.stdin.flush()
            raw = pickle.load(proc.stdout)
        except (EOFError, BrokenPipeError, pickle.UnpicklingError) as exc:
            proc.kill()
            self._start()
            raise RuntimeError(f"a fuzzing worker died on {case.label}") from exc
        self._idle.put(proc)
        return classify(case, raw)

    def map(self, cases: Iterable[Case]) -> Iterator[Result]:
        """The results in the cases' order; cases are made only as workers come free."""
        pending: deque[Future[Result]] = deque()
        with ThreadPoolExecutor(self.size) as threads:
            for case in cases:
                pending.append(threads.submit(self.run, case))
                if len(pending) >= 2 * self.size:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()

    def close(self) -> None:
        for proc in self._all:
            if proc.stdin:
                proc.stdin.close()
        for proc in self._all:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
