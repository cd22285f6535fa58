"""The session log: one JSON object per line, and the log is the save.

Line 1 is the header (format, version, module, decks with their sha256, seed,
seats, variant, app version, creation time, notes, the rules' policy at the
start, a later change of policy being a 'policy' entry; and in a game with committed
dice and shuffles, 'randomness': the commitment, and in the referee's file only its
secret, docs/fairness.md). Every later line is either
an entry (a command as applied, with ``seq``) or a checkpoint of the whole
state (with ``checkpoint`` = the seq it follows and the state's sha256).

Lines are written whole and flushed one by one, so killing the program loses
nothing that was applied. A last line cut short by a crash is dropped with a
warning when the log is read; any other damage is an error naming the line.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from tabletop import __version__
from tabletop.core import Entry, FormatError, Policy, Seat, TableError
from tabletop.core.limits import MAX_LOG_BYTES, MAX_LOG_LINE, size_text
from tabletop.core.randomness import randomness_problem
from tabletop.core.state import digest_of
from tabletop.core.textsafe import quoted

from .atomic import atomic_writer
from .formats import CURRENT_VERSION, FORMAT_NAME, VersionError, migrate

# A module's id (module.toml's [module] id): what a header names, never a path.
MODULE_ID = re.compile(r"[a-z0-9_\-]+")


class LogError(TableError):
    """A log cannot be read; the message names the file and line."""

    def __init__(self, path: str | os.PathLike[str], line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


@dataclass
class Header:
    """What a game is: the first line of its log."""

    module: str
    module_version: str = ""
    seed: int = 0
    seats: list[Seat] = field(default_factory=list)
    variant: str = ""
    decks: list[dict[str, str]] = field(default_factory=list)
    notes: str = ""
    created: str = ""
    app_version: str = __version__
    version: int = CURRENT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)
    # the rules' policy before entry 1; None in logs written before policies were logged
    policy: Policy | None = None
    # committed dice and shuffles (docs/fairness.md): scheme, commitment and, in the referee's
    # file only, the secret seed; None in a game with the plain derivation
    randomness: dict[str, str] | None = None

    def public_randomness(self) -> dict[str, str] | None:
        """The 'randomness' record without the secret: what a seat's copy may hold."""
        if self.randomness is None:
            return None
        return {k: v for k, v in self.randomness.items() if k != "secret"}

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": self.version,
            "module": {"id": self.module, "version": self.module_version},
            "decks": self.decks,
            "seed": self.seed,
            "seats": [s.to_dict() for s in self.seats],
            "variant": self.variant,
            "app_version": self.app_version,
            "created": self.created or time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "notes": self.notes,
        }
        if self.policy is not None:
            d["policy"] = self.policy.to_dict()
        if self.randomness is not None:
            d["randomness"] = dict(self.randomness)
        if self.extra:
            d["extra"] = self.extra
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Header:
        module = d.get("module")
        if not isinstance(module, dict) or not isinstance(module.get("id"), str):
            raise FormatError("the header needs 'module' with a text 'id'")
        if not MODULE_ID.fullmatch(module["id"]):
            raise FormatError(
                "the header's module 'id' must be a module's id (lower-case letters, digits, '-'"
                " and '_'), never a folder: a game's module is installed, or named by the user"
                " with --module-dir FOLDER"
            )
        seed = d.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise FormatError("the header's 'seed' must be a whole number")
        seats = d.get("seats", [])
        if not isinstance(seats, list):
            raise FormatError("the header's 'seats' must be a list")
        decks = d.get("decks", [])
        if not isinstance(decks, list) or not all(
            isinstance(x, dict)
            and isinstance(x.get("file"), str)
            and isinstance(x.get("sha256"), str)
            and isinstance(x.get("id", ""), str)
            for x in decks
        ):
            raise FormatError(
                "the header's 'decks' must list objects with 'file' and 'sha256' (and a text 'id')"
            )
        for key in ("variant", "notes", "created", "app_version"):
            if not isinstance(d.get(key, ""), str):
                raise FormatError(f"the header's '{key}' must be text")
        extra = d.get("extra", {})
        if not isinstance(extra, dict):
            raise FormatError("the header's 'extra' must be an object")
        policy = d.get("policy")
        if policy is not None:
            try:
                policy = Policy.from_dict(policy)
            except FormatError as exc:
                raise FormatError(f"the header's 'policy': {exc}") from None
        randomness = d.get("randomness")
        if randomness is not None:
            problem = randomness_problem(randomness)
            if problem is not None:
                raise FormatError(f"the header's {problem}")
        return cls(
            module=module["id"],
            module_version=str(module.get("version", "")),
            seed=seed,
            seats=[Seat.from_dict(s) for s in seats],
            variant=d.get("variant", ""),
            decks=decks,
            notes=d.get("notes", ""),
            created=d.get("created", ""),
            app_version=d.get("app_version", ""),
            version=d["version"],
            extra=extra,
            policy=policy,
            randomness=dict(randomness) if randomness is not None else None,
        )


@dataclass
class Checkpoint:
    seq: int
    digest: str
    state: dict[str, Any]
    draws: int = 0
    undo: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)
    line: int = 0


@dataclass
class LogContents:
    """A log as read: its header, entries and checkpoints in order, and any warnings."""

    path: str
    header: Header
    entries: list[Entry]
    checkpoints: list[Checkpoint]
    warnings: list[str]
    good_length: int  # bytes up to the end of the last whole line
    lines: dict[int, int] = field(default_factory=dict)  # seq -> line number


_DECODER = json.JSONDecoder()
# How deep a line's values may nest: a table's state is a few levels deep, a value a piece
# carries a few more; far deeper nesting is damage, and would overflow the stack of the
# functions that copy, compare and write states.
MAX_DEPTH = 100


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` deep in ``value`` (without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if type(item) is dict else item
        stack.extend((c, depth + 1) for c in children if type(c) is dict or type(c) is list)
    return False


def _line(obj: Any) -> bytes:
    """One line of the log as the file holds it, its newline included. Text is written as
    itself, except in a line holding a lone UTF-16 surrogate (read from a JSON escape, or from
    a command line that was not UTF-8): no UTF-8 file can hold one (the encoding refuses it),
    so that line is written with every non-ASCII character escaped, and reads back the same.
    A record is a tree (commands' data, read from JSON or built by the rules), never a cycle:
    the encoder's watch for cycles, a fifth of its work, is left out."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        escaped = json.dumps(obj, ensure_ascii=True, separators=(",", ":"), check_circular=False)
        return (escaped + "\n").encode("ascii")


def checkpoint_record(
    seq: int, state: dict[str, Any], draws: int, undo: list[int], redo: list[int]
) -> dict[str, Any]:
    return {
        "checkpoint": seq,
        "hash": digest_of(state),
        "draws": draws,
        "undo": undo,
        "redo": redo,
        "state": state,
    }


def read_log(path: str | os.PathLike[str]) -> LogContents:
    """Read and check a log's lines (not yet its meaning). Raises LogError naming the line."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise LogError(
                path, None, f"is larger than a game log may be ({size_text(MAX_LOG_BYTES)})"
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise LogError(path, None, "no such file") from None
    except IsADirectoryError:
        raise LogError(path, None, "this is a folder, not a game log") from None
    except OSError as exc:
        raise LogError(path, None, f"cannot be read ({exc.strerror})") from None
    if not data.strip():
        raise LogError(path, None, "the file is empty, not a game log")

    lines = data.split(b"\n")
    complete = lines[-1] == b""
    if complete:
        lines.pop()
    good_length = len(data)
    warnings: list[str] = []
    records: list[tuple[int, dict[str, Any]]] = []
    decode = _DECODER.decode
    last = len(lines)
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LOG_LINE:
            raise LogError(
                path, number, f"the line is longer than the limit ({size_text(MAX_LOG_LINE)})"
            )
        try:
            record = decode(raw.decode("utf-8"))
            if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _deeper_than(record, MAX_DEPTH):
                raise RecursionError
        except (ValueError, UnicodeDecodeError, RecursionError, MemoryError) as exc:
            if not raw.strip():
                continue  # a blank line
            if number == last and not complete:
                warnings.append(
                    f"{path}, line {number}: the last line was cut short (the program stopped while "
                    "writing it) and has been left out"
                )
                good_length = len(data) - len(raw)
                break
            if isinstance(exc, UnicodeDecodeError):
                reason = "it is not UTF-8 text"
            elif isinstance(exc, MemoryError):
                reason = "it is too large to read"
            elif isinstance(exc, RecursionError):
                reason = f"its values are nested more than {MAX_DEPTH} deep"
            else:
                reason = "it is not valid JSON"
            raise LogError(path, number, reason) from None
        if type(record) is not dict:
            raise LogError(path, number, "it is not a JSON object")
        records.append((number, record))
    if not records:
        raise LogError(path, 1, "there is no header line")

    first_line, header_dict = records[0]
    if header_dict.get("format") != FORMAT_NAME:
        raise LogError(
            path,
            first_line,
            f'this is not a tabletop game log (no "format": "{FORMAT_NAME}" header)',
        )
    try:
        header_dict, bodies = migrate(header_dict, [r for _, r in records[1:]])
        header = Header.from_dict(header_dict)
    except (VersionError, FormatError) as exc:
        raise LogError(path, first_line, str(exc)) from None

    entries: list[Entry] = []
    checkpoints: list[Checkpoint] = []
    lines: dict[int, int] = {}
    expected = 1
    for (number, _), record in zip(records[1:], bodies, strict=True):
        if "checkpoint" in record:
            checkpoints.append(_parse_checkpoint(path, number, record, expected - 1))
            continue
        try:
            entry = Entry.from_dict(record)
        except FormatError as exc:
            raise LogError(path, number, str(exc)) from None
        if entry.seq != expected:
            raise LogError(
                path,
                number,
                f"entry {entry.seq} where entry {expected} was expected: the log is out of order",
            )
        if entry.kind in ("undo", "redo") and entry.ref is None:
            raise LogError(
                path, number, f"an {entry.kind} entry must name the entry it refers to ('ref')"
            )
        entries.append(entry)
        lines[entry.seq] = number
        expected += 1
    return LogContents(str(path), header, entries, checkpoints, warnings, good_length, lines)


def _parse_checkpoint(path: Path, number: int, record: dict[str, Any], after: int) -> Checkpoint:
    seq, digest, state = record.get("checkpoint"), record.get("hash"), record.get("state")
    if seq != after:
        raise LogError(
            path, number, f"a checkpoint for entry {quoted(seq)} stands after entry {after}"
        )
    if not isinstance(digest, str) or not isinstance(state, dict):
        raise LogError(path, number, "a checkpoint needs a text 'hash' and an object 'state'")
    draws, undo, redo = record.get("draws", 0), record.get("undo", []), record.get("redo", [])
    if (
        type(draws) is not int
        or not isinstance(undo, list)
        or not isinstance(redo, list)
        or any(type(s) is not int for s in (*undo, *redo))
    ):
        raise LogError(path, number, "a checkpoint's 'draws', 'undo' and 'redo' are malformed")
    return Checkpoint(seq, digest, state, draws, undo, redo, number)


class LogWriteError(LogError):
    """An entry could not be written to the log (the disk is full, the file is too large for
    the system): the log is left as it was before that entry. ``reason`` is the system's."""

    def __init__(self, path: str | os.PathLike[str], exc: OSError) -> None:
        self.reason = exc.strerror or str(exc)
        super().__init__(
            path, None, f"cannot be written to ({self.reason}); what was to be written was not made"
        )


class LogWriter:
    """Appends entries and checkpoints to a log, one whole line each, written at once.

    A line the system refuses (the disk is full) is cut off again, so the file always ends
    with a whole line, and LogWriteError is raised. An entry and the checkpoint after it are
    one: if the checkpoint cannot be written, the entry is cut off too (``retract`` does the
    same when something else refused the entry)."""

    def __init__(self, handle: BinaryIO, path: str | os.PathLike[str], length: int) -> None:
        self._handle = handle
        self.path = str(path)
        self._length = length  # bytes of whole lines in the file
        self._entry_start = length  # where the last entry's line begins
        # told of a line the system refused, before the error is raised (a window says so)
        self.failed: Callable[[LogWriteError], None] | None = None

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Header) -> LogWriter:
        """Start a new log; refuses to replace an existing file (or to write through a link)."""
        try:
            handle = open(path, "xb", buffering=0)  # noqa: SIM115 - kept open while the game runs
        except FileExistsError:
            raise LogError(
                path, None, "already exists; choose another name (nothing was changed)"
            ) from None
        except OSError as exc:
            raise LogError(path, None, f"cannot be created ({exc.strerror})") from None
        writer = cls(handle, path, 0)
        try:
            writer._write(header.to_dict())
        except LogWriteError as exc:
            handle.close()
            os.unlink(path)  # made just now and holds nothing
            raise LogError(path, None, f"cannot be created ({exc.reason})") from None
        return writer

    @classmethod
    def append(cls, path: str | os.PathLike[str], good_length: int) -> LogWriter:
        """Continue an existing log, first cutting off a last line left half-written by a crash."""
        try:
            handle = open(path, "ab", buffering=0)  # noqa: SIM115 - kept open while the game runs
            length = good_length
            if os.path.getsize(path) != good_length:
                handle.truncate(good_length)
            if good_length:
                # a last line may be whole but lack its newline (the program stopped just
                # before writing it): end it, or the next line would be glued onto it
                with open(path, "rb") as check:
                    check.seek(good_length - 1)
                    if check.read(1) != b"\n":
                        handle.write(b"\n")
                        length += 1
        except OSError as exc:
            raise LogError(
                path, None, f"cannot be written to ({exc.strerror}); open it read-only"
            ) from None
        return cls(handle, path, length)

    def _write(self, record: dict[str, Any]) -> None:
        encoded = _line(record)
        start = self._length
        rest = memoryview(encoded)
        try:
            while rest:
                written = self._handle.write(rest)
                if not written:  # the system took nothing and said nothing: as a full disk
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                rest = rest[written:]
        except OSError as exc:
            self._cut(start)
            raise self._failure(exc) from None
        self._length = start + len(encoded)

    def _failure(self, exc: OSError) -> LogWriteError:
        error = LogWriteError(self.path, exc)
        if self.failed is not None:
            self.failed(error)
        return error

    def _cut(self, length: int) -> None:
        """Cut the file back to ``length`` bytes (what was written after it was not taken)."""
        with contextlib.suppress(OSError):
            os.ftruncate(self._handle.fileno(), length)
            self._handle.seek(length)
        self._length = length

    def write_entry(self, entry: Entry) -> None:
        self._entry_start = self._length
        self._write(entry.to_dict())

    def write_checkpoint(self, seq: int, state: dict[str, Any], table: Any) -> None:
        try:
            self._write(
                checkpoint_record(
                    seq, state, table.random.draws, list(table.undo_stack), list(table.redo_stack)
                )
            )
            os.fsync(self._handle.fileno())
        except LogWriteError:
            self._cut(self._entry_start)  # the entry goes with its checkpoint
            raise
        except OSError as exc:
            self._cut(self._entry_start)
            raise self._failure(exc) from None

    def retract(self) -> None:
        """Cut off the last entry written (and its checkpoint): the table did not take it."""
        self._cut(self._entry_start)

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.close()


def write_log(
    path: str | os.PathLike[str],
    header: Header,
    lines: list[dict[str, Any]],
    *,
    replace: bool = False,
) -> None:
    """Write a whole log at once, atomically (for branches and exports); an existing file is
    replaced only with ``replace`` (FileExistsError otherwise)."""
    with atomic_writer(path, "wb", replace=replace) as handle:
        handle.write(_line(header.to_dict()))
        for record in lines:
            handle.write(_line(record))
