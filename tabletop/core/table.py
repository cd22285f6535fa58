"""The table and its one pipeline: check, apply, log, undo stack, notify.

``Table.submit(command, actor)`` is the only way to change the table. It asks
the checker (if any) for findings, enforces the policy, applies the command,
records a log entry, pushes the undo stack and returns a Change naming what was
touched, so views redraw only that. Undo and redo are themselves entries: the
log only ever grows.

How findings are enforced (the policy) is part of the game: ``set_policy`` logs a
'policy' entry, which replay, ``policy_at`` and branches follow. Such an entry is
not a move: undo and redo pass it by, so undo never switches the rules. A playtest note
(``annotate``, tabletop/core/notes.py) is a 'note' entry, and a part of the session record
(``record``, tabletop/core/record.py) a 'record' entry, and a seat's contribution to committed
dice and shuffles or the reveal of their seed (``chance``, tabletop/core/randomness.py) a
'chance' entry, all passed by in the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from .commands import (
    PLAIN,
    Command,
    Compound,
    Move,
    Names,
    Roll,
    SetPolicy,
    Shuffle,
    Touched,
    command_from_dict,
    touched_by,
)
from .errors import CommandError, FormatError, Refused, TableError
from .findings import Finding, Mode, Policy
from .notes import Annotate, PlaytestNote, check_note, notes_of
from .randomness import CHANCE_COMMANDS, Derivation, Randomizer
from .record import Record, RecordParts, check_record, record_of
from .state import TableState
from .textsafe import quoted

Checker = Callable[[TableState, Command, str], Iterable[Finding]]

ENTRY_KINDS = ("do", "undo", "redo", "setup", "policy", "note", "record", "chance")
CHECKPOINT_EVERY = 1000


class Entry(NamedTuple):
    """One line of the log: a command as it was applied, by whom, with what findings.

    A named tuple rather than a frozen dataclass: one is made for every action, and a frozen
    dataclass sets each of its fields through ``object.__setattr__``."""

    seq: int
    time: float
    actor: str
    kind: str
    command: Command
    findings: tuple[Finding, ...] = ()
    override: str | None = None
    ref: int | None = None
    draws: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "seq": self.seq,
            "t": self.time,
            "actor": self.actor,
            "kind": self.kind,
            "cmd": self.command.to_dict(),
        }
        if self.findings:
            d["findings"] = [f.to_dict() for f in self.findings]
        if self.override is not None:
            d["override"] = self.override
        if self.ref is not None:
            d["ref"] = self.ref
        if self.draws is not None:
            d["draws"] = self.draws
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Entry:
        try:
            seq, actor, command = d["seq"], d["actor"], d["cmd"]
        except (KeyError, TypeError):
            raise FormatError("a log entry needs 'seq', 'actor' and 'cmd'") from None
        if type(seq) is not int:
            raise FormatError("a log entry's 'seq' must be a whole number")
        if type(actor) is not str:
            raise FormatError("a log entry's 'actor' must be text")
        kind = d.get("kind", "do")
        if kind not in ENTRY_KINDS:
            raise FormatError(f"unknown entry kind {quoted(kind)}")
        t = d.get("t", 0.0)
        if not isinstance(t, int | float) or isinstance(t, bool):
            raise FormatError("a log entry's 't' must be a number")
        ref, draws, override = d.get("ref"), d.get("draws"), d.get("override")
        if ref is not None and type(ref) is not int:
            raise FormatError("a log entry's 'ref' must be a whole number")
        if draws is not None and type(draws) is not int:
            raise FormatError("a log entry's 'draws' must be a whole number")
        if override is not None and type(override) is not str:
            raise FormatError("a log entry's 'override' must be text")
        findings = d.get("findings")
        if findings is None:
            parsed: tuple[Finding, ...] = ()
        elif isinstance(findings, list):
            parsed = tuple(Finding.from_dict(f) for f in findings)
        else:
            raise FormatError("a log entry's 'findings' must be a list")
        parsed_command = command_from_dict(command)
        if (kind == "policy") != isinstance(parsed_command, SetPolicy):
            raise FormatError(
                "only a 'policy' entry holds the command 'policy', and it holds nothing else"
            )
        if (kind == "note") != isinstance(parsed_command, Annotate):
            raise FormatError(
                "only a 'note' entry holds the command 'annotate', and it holds nothing else"
            )
        if (kind == "record") != isinstance(parsed_command, Record):
            raise FormatError(
                "only a 'record' entry holds the command 'record', and it holds nothing else"
            )
        if (kind == "chance") != isinstance(parsed_command, CHANCE_COMMANDS):
            raise FormatError(
                "only a 'chance' entry holds the commands 'contribute' and 'reveal', and it holds"
                " nothing else"
            )
        return cls(seq, t, actor, kind, parsed_command, parsed, override, ref, draws)


class Change:
    """What one submit, undo or redo changed: redraw these and nothing else.

    The sets are worked out on first use, so entries nobody looks at cost nothing.
    """

    __slots__ = ("entry", "_touched")

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self._touched: Touched | None = None

    def _get(self) -> Touched:
        if self._touched is None:
            self._touched = touched_by(self.entry.command)
        return self._touched

    @property
    def pieces(self) -> frozenset[str]:
        return frozenset(self._get().pieces)

    @property
    def places(self) -> frozenset[str]:
        return frozenset(self._get().places)

    @property
    def counters(self) -> frozenset[str]:
        return frozenset(self._get().counters)

    @property
    def seq(self) -> int:
        return self.entry.seq

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.entry.findings


class Table:
    """A live table: its state, the log entries so far, undo and redo, chance and checking."""

    def __init__(
        self,
        state: TableState | None = None,
        *,
        seed: int = 0,
        checker: Checker | None = None,
        policy: Policy | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
        derivation: Derivation | None = None,
    ) -> None:
        self.state = state if state is not None else TableState()
        # ``derivation``: how outcomes follow from the seed (the plain one if not given)
        self.random = Randomizer(seed, derivation=derivation)
        self.checker = checker
        self.policy = policy if policy is not None else Policy(Mode.ADVISORY)
        # the policy before entry 1; None where a log does not say (one written before
        # policies were logged)
        self.initial_policy: Policy | None = self.policy.copy()
        self.entries: list[Entry] = []
        self.checkpoint_every = checkpoint_every
        self.checkpoints: dict[int, dict[str, Any]] = {0: self._snapshot()}
        self._undo: list[int] = []
        self._redo: list[int] = []
        self._listeners: list[Callable[[Change], None]] = []
        self._writers: list[Any] = []
        # the clock entries are stamped with (seconds since the epoch); replaceable, so that
        # what is measured in time (the session record's playing time) can be tested
        self.clock: Callable[[], float] = time.time

    def now(self) -> float:
        """The time an entry made now is stamped with."""
        return round(self.clock(), 3)

    # ---- observers -------------------------------------------------------
    def subscribe(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener(change)`` after every applied entry."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Change], None]) -> None:
        self._listeners.remove(listener)

    def attach_writer(self, writer: Any) -> None:
        """A writer gets ``write_entry(entry)`` and ``write_checkpoint(seq, state_dict, table)``."""
        self._writers.append(writer)

    def detach_writer(self, writer: Any) -> None:
        """Stop writing entries to ``writer`` (its file was closed); the table plays on in memory."""
        if writer in self._writers:
            self._writers.remove(writer)

    # ---- the pipeline ----------------------------------------------------
    @property
    def seq(self) -> int:
        """How many entries the log holds."""
        return len(self.entries)

    def _checks(self, command: Command) -> bool:
        """Whether the checker looks at this command (a checker may leave the rules assistant's
        own procedures to themselves: its ``trusts_procedures`` attribute, but for those its
        ``checks_procedures`` names, such as a phase ended early)."""
        if self.checker is None or not self.policy.checking:
            return False
        if type(command) is not Move and isinstance(command, Compound) and command.procedure:
            if not getattr(self.checker, "trusts_procedures", False):
                return True
            return command.procedure in getattr(self.checker, "checks_procedures", ())
        return True

    def check(self, command: Command, actor: str) -> list[Finding]:
        """The findings the checker has for a command, filtered by the policy; changes nothing."""
        checker, policy = self.checker, self.policy
        if type(command) is Move and checker is not None:  # as _checks, read here: every move
            if policy.mode is Mode.OFF and not policy.checking:
                return []
        elif not self._checks(command):
            return []
        assert checker is not None  # _checks said so
        found = list(checker(self.state, command, actor))
        return found if not policy.per_rule and policy.mode is not Mode.OFF else policy.kept(found)

    def _findings(self, command: Command, actor: str) -> list[Finding]:
        assert self.checker is not None  # _checks said so
        return self.policy.kept(list(self.checker(self.state, command, actor)))

    def submit(
        self,
        command: Command,
        actor: str,
        *,
        force: str | None = None,
        undoable: bool = True,
        applied: bool = False,
    ) -> Change:
        """Check, apply, log and push a command. Raises Refused (strict rules) or CommandError.

        ``applied``: the command was built on the live table and is on it already
        (a procedure's steps); it is taken back to be checked only when the
        checker needs the table as it was, and it is off the table again if it
        is refused.
        """
        if isinstance(command, SetPolicy):
            raise CommandError("the rules' policy is set with set_policy, not as a move")
        if isinstance(command, Annotate):
            raise CommandError("a note is written with annotate, not as a move")
        if isinstance(command, Record):
            raise CommandError("the session record is written with record, not as a move")
        if isinstance(command, CHANCE_COMMANDS):
            raise CommandError("a contribution or reveal is written with chance, not as a move")
        checks = self._checks(command)
        if applied and checks:
            command.inverse().apply(self.state)
            applied = False
        findings = self._findings(command, actor) if checks else []
        override = None
        if findings:
            blocking = self.policy.blocking(findings)
            if blocking:
                if not force or not force.strip():
                    raise Refused(blocking)
                override = force.strip()
        if not applied:
            command.apply(self.state)
        redo = list(self._redo)
        entry = Entry(
            len(self.entries) + 1,
            self.now(),
            actor,
            "do" if undoable else "setup",
            command,
            tuple(findings),
            override,
            None,
            self.random.draws if command.random else None,
        )
        if undoable:
            self._undo.append(entry.seq)
        self._redo.clear()

        def take_back() -> None:
            command.inverse().apply(self.state)
            if undoable:
                self._undo.pop()
            self._redo[:] = redo

        return self._record(entry, take_back)

    def set_policy(self, policy: Policy, actor: str) -> Change | None:
        """Enforce ``policy`` from now on, logged as a 'policy' entry by ``actor``; None (and no
        entry) when the log already says it is in force. Not a move: it is never undone."""
        policy = policy.copy()
        if policy == self.policy and self.policy_at(self.seq) is not None:
            return None
        before = self.policy
        self.policy = policy

        def take_back() -> None:
            self.policy = before

        entry = Entry(self.seq + 1, self.now(), actor, "policy", SetPolicy.of(policy))
        return self._record(entry, take_back)

    def annotate(self, command: Annotate, actor: str) -> Change:
        """Add, edit or remove a playtest note (tabletop/core/notes.py), logged as a 'note'
        entry by ``actor``. Changes nothing on the table and is not a move: undo and redo pass
        it by. Raises CommandError naming what is wrong (an unknown tag, entry, piece or note)."""
        if not isinstance(command, Annotate):
            raise CommandError("annotate takes a note command")
        at = command.at if 0 <= command.at <= self.seq else self.seq
        then: list[TableState] = []

        def known(pid: str) -> bool:
            if pid in self.state.pieces:
                return True
            if not then:
                then.append(self.state_at(at))
            return pid in then[0].pieces

        check_note(command, self.entries, known, (n.id for n in self.notes()))
        return self._record(Entry(self.seq + 1, self.now(), actor, "note", command))

    def record(self, command: Record, actor: str) -> Change:
        """Add to the session record (tabletop/core/record.py), logged as a 'record' entry by
        ``actor``. Changes nothing on the table and is not a move: undo and redo pass it by.
        Raises CommandError naming what is wrong (an unknown seat, a rating out of range)."""
        if not isinstance(command, Record):
            raise CommandError("record takes a session record command")
        check_record(command, [s.id for s in self.state.seats])
        return self._record(Entry(self.seq + 1, self.now(), actor, "record", command))

    def chance(self, command: Command, actor: str) -> Change:
        """Add a seat's contribution to the committed dice and shuffles, or reveal their seed
        (tabletop/core/randomness.py), logged as a 'chance' entry by ``actor``. Changes nothing
        on the table and is not a move: undo and redo pass it by. Raises CommandError naming
        what is wrong (a game without committed chance, a seat that contributed already, a
        seed that does not match the commitment)."""
        if not isinstance(command, CHANCE_COMMANDS):
            raise CommandError("chance takes a contribution or a reveal")
        problem = self.random.chance_problem(command)
        if problem is not None:
            raise CommandError(problem)
        entry = Entry(self.seq + 1, self.now(), actor, "chance", command)
        # the randomizer follows the entry once the log holds it (nothing to take back)
        return self._record(entry, written=lambda: self.random.take(command, entry.seq))

    def session_parts(self) -> RecordParts:
        """The session record's entries as they stand (testers, place, time, result, forms)."""
        return record_of(self.entries)

    def notes(self, *, removed: bool = False) -> list[PlaytestNote]:
        """The playtest notes as they stand (with ``removed``, the removed ones too)."""
        return notes_of(self.entries, removed=removed)

    def _record(
        self,
        entry: Entry,
        take_back: Callable[[], None] | None = None,
        written: Callable[[], None] | None = None,
    ) -> Change:
        """Write ``entry`` (and a checkpoint when one is due) to the writers, then add it to the
        entries (``written`` runs then) and tell the listeners. A writer that fails (the disk is
        full) leaves the table as its log has it: ``take_back`` undoes what the caller changed
        for the entry, the writers that took it retract it, and the writer's error is raised."""
        snapshot = self._snapshot() if entry.seq % self.checkpoint_every == 0 else None
        if self._writers:
            self._write(entry, snapshot, take_back)
        if written is not None:
            written()
        self.entries.append(entry)
        if snapshot is not None:
            self.checkpoints[self.seq] = snapshot
        change = Change(entry)
        for listener in list(self._listeners):
            listener(change)
        return change

    def _snapshot(self) -> dict[str, Any]:
        """The state as plain data of its own (``to_dict`` copies what commands change in place)."""
        return self.state.to_dict()

    def _write(
        self, entry: Entry, snapshot: dict[str, Any] | None, take_back: Callable[[], None] | None
    ) -> None:
        took: list[Any] = []
        try:
            for writer in self._writers:
                took.append(writer)
                writer.write_entry(entry)
                if snapshot is not None:
                    writer.write_checkpoint(entry.seq, snapshot, self)
        except BaseException:
            for writer in took:
                retract = getattr(writer, "retract", None)
                if retract is not None:
                    retract()
            if take_back is not None:
                take_back()
            raise

    # ---- undo and redo ---------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_stack(self) -> tuple[int, ...]:
        return tuple(self._undo)

    @property
    def redo_stack(self) -> tuple[int, ...]:
        return tuple(self._redo)

    def undo_text(self, names: Names = PLAIN) -> str | None:
        """What undo would take back, for a menu item (things named as ``names`` says)."""
        return self.entries[self._undo[-1] - 1].command.describe(names) if self._undo else None

    def redo_text(self, names: Names = PLAIN) -> str | None:
        return self.entries[self._redo[-1] - 1].command.describe(names) if self._redo else None

    def undo(self, actor: str) -> Change | None:
        """Take back the last command still standing; logged as an 'undo' entry."""
        if not self._undo:
            return None
        seq = self._undo[-1]
        command = self.entries[seq - 1].command.inverse()
        command.apply(self.state)
        self._undo.pop()
        self._redo.append(seq)

        def take_back() -> None:
            command.inverse().apply(self.state)
            self._redo.pop()
            self._undo.append(seq)

        entry = Entry(self.seq + 1, self.now(), actor, "undo", command, ref=seq)
        return self._record(entry, take_back)

    def redo(self, actor: str) -> Change | None:
        """Apply again the last command undone; logged as a 'redo' entry."""
        if not self._redo:
            return None
        seq = self._redo[-1]
        command = self.entries[seq - 1].command
        command.apply(self.state)
        self._redo.pop()
        self._undo.append(seq)

        def take_back() -> None:
            command.inverse().apply(self.state)
            self._undo.pop()
            self._redo.append(seq)

        entry = Entry(self.seq + 1, self.now(), actor, "redo", command, ref=seq)
        return self._record(entry, take_back)

    # ---- chance ----------------------------------------------------------
    def roll(self, dice: Sequence[str], actor: str, **submit_options: Any) -> Change:
        """Roll dice: the randomizer proposes faces (or takes forced ones) and the Roll records them."""
        pieces = [self.state.piece(pid) for pid in dice]
        faces = []
        for die in pieces:
            die_faces = die.props.get("faces")
            if not die_faces:
                raise CommandError(f"{quoted(die.id)} is not a die (it has no faces)")
            faces.append(die_faces)
        mark = self.random.mark()
        try:
            new, forced = self.random.faces(faces)
            command = Roll(tuple(dice), tuple(p.value for p in pieces), new, forced)
            return self.submit(command, actor, **submit_options)
        except BaseException:
            self.random.restore(mark)  # a refused roll uses up no chance and no forced face
            raise

    def shuffle(self, place_id: str, actor: str, **submit_options: Any) -> Change:
        """Shuffle a place: the randomizer proposes the order and the Shuffle records it."""
        old = tuple(self.state.place(place_id).contents)
        mark = self.random.mark()
        try:
            new, forced = self.random.order(old)
            return self.submit(Shuffle(place_id, old, new, forced), actor, **submit_options)
        except BaseException:
            self.random.restore(mark)
            raise

    # ---- replay ----------------------------------------------------------
    def replay(self, entry: Entry) -> Change:
        """Apply an entry read from a log, without checking, keeping undo and redo as they were."""
        if entry.seq != self.seq + 1:
            raise FormatError(f"entry {entry.seq} follows entry {self.seq}: the sequence is broken")
        if entry.kind == "undo":
            if not self._undo or self._undo[-1] != entry.ref:
                raise FormatError(
                    f"entry {entry.seq} undoes entry {entry.ref}, which is not the last undoable one"
                )
        elif entry.kind == "redo" and (not self._redo or self._redo[-1] != entry.ref):
            raise FormatError(
                f"entry {entry.seq} redoes entry {entry.ref}, which was not the last undone"
            )
        try:
            entry.command.apply(self.state)
        except CommandError as exc:
            raise FormatError(f"entry {entry.seq} does not fit the table: {exc}") from None
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise FormatError(
                f"entry {entry.seq} is malformed ({type(exc).__name__}: {exc})"
            ) from None
        if entry.kind == "do":
            self._undo.append(entry.seq)
            self._redo.clear()
        elif entry.kind == "setup":
            self._redo.clear()
        elif entry.kind == "policy":
            self.policy = entry.command.to_policy()  # type: ignore[attr-defined]
        elif entry.kind in ("note", "record"):
            pass  # a remark or the session's record: neither a move nor a change of the rules
        elif entry.kind == "chance":
            self.random.take(entry.command, entry.seq)  # a contribution or the reveal
        elif entry.kind == "undo":
            self._redo.append(self._undo.pop())
        else:
            self._undo.append(self._redo.pop())
        if entry.draws is not None:
            self.random.draws = entry.draws
        return self._record(entry)

    def restore_stacks(self, undo: Sequence[int], redo: Sequence[int]) -> None:
        """Set the undo and redo stacks (when a table resumes from a checkpoint)."""
        if any(not 1 <= s <= self.seq for s in (*undo, *redo)):
            raise FormatError("a checkpoint's undo or redo stack names entries that do not exist")
        # both stacks hold the seqs of distinct 'do' entries (setup, undo, redo are never undone)
        if len({*undo, *redo}) != len(undo) + len(redo) or any(
            self.entries[s - 1].kind != "do" for s in (*undo, *redo)
        ):
            raise FormatError(
                "a checkpoint's undo or redo stack names entries that cannot be undone"
            )
        self._undo = list(undo)
        self._redo = list(redo)

    # ---- history ---------------------------------------------------------
    def policy_at(self, seq: int) -> Policy | None:
        """The policy in force after entry ``seq`` (0: the game's first); None where the log does
        not say (a log written before policies were logged, up to its first 'policy' entry)."""
        if not 0 <= seq <= self.seq:
            raise TableError(f"there is no entry {seq}: the log holds 0 to {self.seq}")
        for entry in reversed(self.entries[:seq]):
            if entry.kind == "policy":
                return entry.command.to_policy()  # type: ignore[attr-defined]
        return self.initial_policy.copy() if self.initial_policy is not None else None

    def policy_spans(self) -> list[tuple[int, int, Policy | None]]:
        """The entries made under each policy in turn: (first, last, policy). The 'policy'
        entries themselves stand between the spans; a span holding no entry is left out."""
        spans: list[tuple[int, int, Policy | None]] = []
        first = 1
        policy = self.initial_policy.copy() if self.initial_policy is not None else None
        for entry in self.entries:
            if entry.kind == "policy":
                if entry.seq > first:
                    spans.append((first, entry.seq - 1, policy))
                first = entry.seq + 1
                policy = entry.command.to_policy()  # type: ignore[attr-defined]
        if self.seq >= first:
            spans.append((first, self.seq, policy))
        return spans

    def undone(self) -> frozenset[int]:
        """The moves ('do' entries) taken back and not redone: their findings no longer stand."""
        standing = set(self._undo)
        return frozenset(e.seq for e in self.entries if e.kind == "do" and e.seq not in standing)

    def state_at(self, seq: int) -> TableState:
        """The table as it was after entry ``seq`` (0: before any entry), as a new state."""
        if not 0 <= seq <= self.seq:
            raise TableError(f"there is no entry {seq}: the log holds 0 to {self.seq}")
        base = max(s for s in self.checkpoints if s <= seq)
        state = TableState.from_dict(self.checkpoints[base])
        for entry in self.entries[base:seq]:
            entry.command.apply(state)
        return state


def compound(label: str, commands: Iterable[Command], procedure: str | None = None) -> Compound:
    """Group commands into one undo step."""
    return Compound(label, tuple(commands), procedure)
