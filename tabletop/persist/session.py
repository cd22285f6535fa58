"""A game on disk: a table, its header and its log file, kept in step."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tabletop.core import Command, Entry, FormatError, Policy, Table, TableState
from tabletop.core.randomness import Derivation, derivation_for
from tabletop.core.state import digest_of
from tabletop.core.table import Checker

from .atomic import atomic_path
from .logfile import (
    Checkpoint,
    Header,
    LogContents,
    LogError,
    LogWriteError,
    LogWriter,
    checkpoint_record,
    read_log,
    write_log,
)

SEAT_VIEW = "seat_view"  # the header's extra that marks a seat's copy (seatview.py)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Reading a log makes many small objects and no cycles: the cycle collector only slows it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Collector:
    """A writer that keeps lines in memory (for branches written in one go)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._entry_start = 0

    def write_entry(self, entry: Entry) -> None:
        self._entry_start = len(self.records)
        self.records.append(entry.to_dict())

    def retract(self) -> None:
        del self.records[self._entry_start :]

    def write_checkpoint(self, seq: int, state: dict[str, Any], table: Table) -> None:
        self.records.append(
            checkpoint_record(
                seq, state, table.random.draws, list(table.undo_stack), list(table.redo_stack)
            )
        )


def derivation_of(header: Header) -> Derivation | None:
    """How the game's dice and shuffles follow from its seed: committed (docs/fairness.md)
    when the header says so, else the plain derivation (None)."""
    return derivation_for(header.randomness, [s.id for s in header.seats])


class Game:
    """A live game: ``table`` plus the ``header`` and the log it is written to (if any)."""

    def __init__(
        self, table: Table, header: Header, path: str | None = None, warnings: Iterable[str] = ()
    ) -> None:
        self.table = table
        self.header = header
        self.path = path
        self.warnings = list(warnings)
        self._writer: LogWriter | None = None
        self._write_failed: Callable[[LogWriteError], None] | None = None

    @property
    def state(self) -> TableState:
        return self.table.state

    # ---- making and opening ---------------------------------------------
    @classmethod
    def create(
        cls,
        header: Header,
        setup: Iterable[Command] | Callable[[Table], None] = (),
        path: str | os.PathLike[str] | None = None,
        *,
        checker: Checker | None = None,
        policy: Policy | None = None,
    ) -> Game:
        """Start a new game: an empty table with the header's seats, then the setup.

        ``setup`` is a list of commands, or a function that submits them to the
        table it is given (as setup entries, with ``undoable=False``).
        Setup entries are logged like any other but cannot be undone. With a
        path, the log is created first (refusing to replace a file) and every
        entry is written as it is applied. The header records ``policy`` (advisory
        if not given) as the policy the game starts with.
        """
        table = Table(
            TableState(header.seats),
            seed=header.seed,
            checker=checker,
            policy=policy,
            derivation=derivation_of(header),
        )
        header.policy = table.policy.copy()
        game = cls(table, header, str(path) if path is not None else None)
        if path is not None:
            game._writer = LogWriter.create(path, header)
            table.attach_writer(game._writer)
        try:
            if callable(setup):
                setup(table)
            else:
                for command in setup:
                    table.submit(command, "setup", undoable=False)
        except Exception:
            game.close()
            if path is not None:
                os.unlink(path)  # the file was made by this call and holds no play
            raise
        return game

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        writable: bool = True,
        verify: bool = True,
        checker: Checker | None = None,
        policy: Policy | None = None,
    ) -> Game:
        """Open a log: rebuild the table, check it, and (if writable) go on writing to it.

        ``verify`` replays every entry from the start and compares the state with
        every checkpoint's hash; without it the table resumes from the last
        checkpoint whose own hash is right. Nothing is written unless the open
        succeeds. The policy is the log's own (its header's, then its 'policy'
        entries); ``policy`` is used only for a log that records none.
        """
        with _gc_paused():
            return cls._open(path, writable, verify, checker, policy)

    @classmethod
    def _open(
        cls,
        path: str | os.PathLike[str],
        writable: bool,
        verify: bool,
        checker: Checker | None,
        policy: Policy | None,
    ) -> Game:
        contents = read_log(path)
        if writable and SEAT_VIEW in contents.header.extra:
            raise _read_only(path, contents.header.to_dict())
        recorded = contents.header.policy
        table = Table(
            TableState(contents.header.seats),
            seed=contents.header.seed,
            checker=checker,
            policy=recorded.copy() if recorded is not None else policy,
            derivation=derivation_of(contents.header),
        )
        if recorded is None:
            table.initial_policy = None
        if verify:
            _replay_all(table, contents)
        else:
            _resume(table, contents)
        game = cls(table, contents.header, str(path), contents.warnings)
        if writable:
            game._writer = LogWriter.append(path, contents.good_length)
            table.attach_writer(game._writer)
        return game

    def on_write_failure(self, listener: Callable[[LogWriteError], None] | None) -> None:
        """Tell ``listener`` of an entry the log file could not take (the disk is full), before
        the error reaches whoever made the entry; the table stays as the log has it."""
        self._write_failed = listener
        if self._writer is not None:
            self._writer.failed = listener

    def close(self) -> None:
        if self._writer is not None:
            self.table.detach_writer(self._writer)
            self._writer.close()
            self._writer = None

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- history ---------------------------------------------------------
    @classmethod
    @contextlib.contextmanager
    def continued(
        cls,
        path: str | os.PathLike[str],
        output: str | os.PathLike[str],
        *,
        replace: bool = False,
        **open_options: Any,
    ) -> Iterator[Game]:
        """A copy of the game at ``path`` to play on, written to ``output`` whole when the block
        ends without an error (a fresh temporary file beside it, then one rename) and not at
        all otherwise. An existing ``output`` is replaced only with ``replace`` (to write the
        game back over ``path``); otherwise LogError, even for a file made meanwhile. ``path``
        changes only if it is ``output``."""
        shown = os.fspath(output)
        try:
            with open(path, "rb") as handle:
                first = json.loads(handle.readline().decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            first = None  # read_log, on the copy, names what is wrong
        if isinstance(first, dict) and SEAT_VIEW in (first.get("extra") or {}):
            raise _read_only(path, first)
        try:
            with atomic_path(output, replace=replace) as tmp:
                with open(path, "rb") as source, open(tmp, "r+b") as copy_to:
                    shutil.copyfileobj(source, copy_to)
                copy = cls.open(tmp, **open_options)
                try:
                    yield copy
                finally:
                    copy.close()
        except FileExistsError as exc:
            if exc.filename != shown:
                raise
            raise LogError(
                output, None, "already exists; choose another name (nothing was changed)"
            ) from None
        except LogWriteError as exc:  # named by the copy's temporary file: name ``output``
            raise LogError(
                output, None, f"cannot be written ({exc.reason}); nothing was changed"
            ) from None

    def branch(self, seq: int, path: str | os.PathLike[str], notes: str | None = None) -> None:
        """Write a new log holding this game's entries 1 to ``seq`` (written atomically)."""
        if not 0 <= seq <= self.table.seq:
            raise LogError(
                self.path or "game",
                None,
                f"there is no entry {seq}: the log holds 0 to {self.table.seq}",
            )
        if os.path.lexists(path):
            raise LogError(path, None, "already exists; choose another name (nothing was changed)")
        header = Header.from_dict(self.header.to_dict())
        header.created = ""
        header.extra = {
            **header.extra,
            "branched_from": {"file": os.path.basename(self.path or ""), "seq": seq},
        }
        if notes is not None:
            header.notes = notes
        fresh = Table(
            TableState(header.seats),
            seed=header.seed,
            policy=header.policy,
            checkpoint_every=self.table.checkpoint_every,
            derivation=derivation_of(header),
        )
        collector = _Collector()
        fresh.attach_writer(collector)
        for entry in self.table.entries[:seq]:
            fresh.replay(entry)
        try:
            write_log(path, header, collector.records)
        except FileExistsError:  # made meanwhile: kept as it is
            raise LogError(
                path, None, "already exists; choose another name (nothing was changed)"
            ) from None


class SeatCopyError(LogError):
    """A seat's copy (tabletop export) opened to be written to: it opens read-only only."""


def _read_only(path: str | os.PathLike[str], header: dict[str, Any]) -> LogError:
    """The refusal to write to a seat's copy, naming whose it is."""
    seat = (header.get("extra") or {}).get(SEAT_VIEW, {}).get("seat")
    names = {s.get("id"): s.get("name") for s in header.get("seats", []) if isinstance(s, dict)}
    whose = f"{names.get(seat) or seat}'s" if seat else "a spectator's"
    return SeatCopyError(
        path,
        None,
        f"this is {whose} copy of a game (tabletop export): it is read-only; moves are made on"
        " the full game",
    )


def _fail(contents: LogContents, seq: int, message: str) -> LogError:
    return LogError(contents.path, contents.lines.get(seq), message)


def _replay_all(table: Table, contents: LogContents) -> None:
    checkpoints = {cp.seq: cp for cp in contents.checkpoints}
    for entry in contents.entries:
        try:
            table.replay(entry)
        except FormatError as exc:
            raise _fail(contents, entry.seq, str(exc)) from None
        cp = checkpoints.get(entry.seq)
        if cp is not None:
            snapshot = table.checkpoints.get(entry.seq) or table.state.to_dict()
            if (
                digest_of(snapshot) != cp.digest
                or snapshot != cp.state
                or list(table.undo_stack) != cp.undo
                or list(table.redo_stack) != cp.redo
            ):
                raise LogError(
                    contents.path,
                    cp.line,
                    f"the table rebuilt up to entry {entry.seq} does not match the checkpoint saved there; "
                    "the log has been altered",
                )
    _restore_draws(table, contents)


def _resume(table: Table, contents: LogContents) -> None:
    good: Checkpoint | None = None
    for cp in reversed(contents.checkpoints):
        if digest_of(cp.state) == cp.digest:
            good = cp
            break
    if good is None:
        _replay_all(table, contents)
        return
    try:
        table.state = TableState.from_dict(good.state)
    except FormatError as exc:
        raise LogError(contents.path, good.line, str(exc)) from None
    table.entries = list(contents.entries[: good.seq])
    table.checkpoints = {0: TableState(contents.header.seats).to_dict()}
    table.checkpoints.update(
        {
            cp.seq: cp.state
            for cp in contents.checkpoints
            if cp.seq <= good.seq and (cp is good or digest_of(cp.state) == cp.digest)
        }
    )
    try:
        table.restore_stacks(good.undo, good.redo)
    except FormatError as exc:
        raise LogError(contents.path, good.line, str(exc)) from None
    table.random.draws = good.draws
    for entry in table.entries:  # contributions and the reveal before the checkpoint
        if entry.kind == "chance":
            table.random.take(entry.command, entry.seq)
    resumed = table.policy_at(good.seq)  # the policy entries up to the checkpoint are not replayed
    if resumed is not None:
        table.policy = resumed
    for entry in contents.entries[good.seq :]:
        try:
            table.replay(entry)
        except FormatError as exc:
            raise _fail(contents, entry.seq, str(exc)) from None
    _restore_draws(table, contents)


def _restore_draws(table: Table, contents: LogContents) -> None:
    for entry in reversed(contents.entries):
        if entry.draws is not None:
            table.random.draws = entry.draws
            return
    if contents.checkpoints:
        table.random.draws = max(table.random.draws, contents.checkpoints[-1].draws)
