"""Rules written once: invariants of any legal table and rules about a change.

A game's rules are functions, each named by its rulebook section:

- an ``Invariant`` holds on any legal table (the woodpile holds at most
  eight, one husband a daughter). ``check(reading, seat)`` gives the findings
  for one seat's part of the table (``per_seat``), or for the whole table
  (``seat`` None) when the rule is about no seat in particular;
- a ``Transition`` is about a change (promotion costs energy, the turn's
  bans): ``check(reading, move, moves)`` gives the findings for one hand move,
  on the table before it, with all the moves of the command beside it. One
  declared ``actor=True`` is told the seat that acts too,
  ``check(reading, move, moves, seat)`` (``table_only_owners_move``: only the owner
  moves their pieces, the rule 'table');
- a ``ProcedureRule`` is a transition about a procedure of the game's own
  that the rules forbid at some moments (a phase ended before everyone has
  played it): ``check(reading, command, seat)`` on the table before it. The
  table's checker leaves every other procedure to itself.

A ``Rulebook`` puts them together the one way every caller uses:

- ``audit(state)``: every invariant on the whole table (``tabletop check``,
  the conformance run);
- ``check(state, command, actor)``: the move checker, the transition rules
  plus the invariants the command newly breaks for the seats it touches
  (a problem the table already had is not the move's fault).

So ``tabletop check`` reports the same rule for a broken invariant as the
move checker does for the move that broke it. A variant switches rules off by
section (``off``): their findings never come up.

The rulebook knows no game: the game gives ``reading(state)`` (its view of
the table), ``seats_touched(reading, moves)`` (or ``touching``, which names the
places a move touches as well) and which commands are hand moves
(``moves_of``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.core import Command, Compound, Finding, Move, Severity, TableState, seat_of

INVARIANT = "invariant"
TRANSITION = "transition"


@dataclass(frozen=True)
class Invariant:
    """True of any legal table; ``check(reading, seat)`` names what breaks it."""

    section: str
    summary: str
    check: Callable[[Any, str | None], Iterable[Finding]]
    per_seat: bool = True
    moves: bool = True  # False: no move can break it (the core keeps it); only the audit runs it
    # the places it reads, by the start of their ids ('energy_'): a move that neither leaves
    # nor reaches one cannot break it, so the move checker skips it; () reads anywhere
    places: tuple[str, ...] = ()
    # a rule of the variants that play without these sections only (the beginners' game's
    # own rules, say); () for every variant
    only_without: tuple[str, ...] = ()
    # the spots it reads besides those places ('exogamy'): a move from or to one of them is
    # checked too
    spots: tuple[str, ...] = ()
    # a condition on the table's counters alone (the phase, a ban this turn) without which
    # it finds nothing: asked once a table, the rule skipped while it is false; None: always
    when: Callable[[Any], bool] | None = None

    @property
    def kind(self) -> str:
        return INVARIANT


@dataclass(frozen=True)
class Transition:
    """About a change; ``check(reading, move, moves)`` on the table before the move."""

    section: str
    summary: str
    check: Callable[..., Iterable[Finding]]
    places: tuple[str, ...] = ()  # as an invariant's: the move checker skips it elsewhere
    actor: bool = False  # True: ``check(reading, move, moves, seat)``, told the seat acting
    spots: tuple[str, ...] = ()  # as an invariant's
    when: Callable[[Any], bool] | None = None  # as an invariant's, on the table before the move

    @property
    def kind(self) -> str:
        return TRANSITION


@dataclass(frozen=True)
class ProcedureRule:
    """A transition about one of the game's procedures (named as the log names them):
    ``check(reading, command, seat)`` on the table before the procedure's change."""

    section: str
    summary: str
    check: Callable[[Any, Compound, str], Iterable[Finding]]
    procedures: tuple[str, ...]

    @property
    def kind(self) -> str:
        return TRANSITION


def table_only_owners_move(
    reading: Any, move: Move, moves: Sequence[Move], seat: str
) -> Sequence[Finding]:
    """The rule 'table': a seat moves only its own pieces and those of nobody's. A move made
    by nobody in particular (the table, a test's setting out) is not judged."""
    state = getattr(reading, "state", reading)
    piece = state.pieces.get(move.piece)
    owner = piece.owner if piece is not None else None
    if owner is None or owner == seat:
        return ()
    memo = state.memo()  # a bot tries one piece on several cards: judged once a table
    key = ("rules.table", move.piece, seat)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _not_the_owners(state, move.piece, owner, seat)
    return found


def _not_the_owners(state: TableState, pid: str, owner: str, seat: str) -> tuple[Finding, ...]:
    seated = owner_seated = False
    for other in state.seats:
        if other.id == seat:
            seated = True
        elif other.id == owner:
            owner_seated = True
    if not (seated and owner_seated):
        return ()
    return (
        Finding(
            "table",
            f"only the owner moves their pieces: {pid} is {owner}'s, not {seat}'s",
            Severity.ILLEGAL,
            (pid,),
        ),
    )


def _placed(
    invariants: list[Invariant], transitions: list[Transition]
) -> tuple[Invariant | Transition, ...]:
    """The rules for ``_Active.for_places`` in the order they run; () when none names places
    or spots."""
    rules = [*invariants, *transitions]
    return tuple(rules) if any(r.places or r.spots for r in rules) else ()


def hand_moves(command: Command) -> list[Move]:
    """The moves of a command a player makes by hand (a procedure's compound has none)."""
    if isinstance(command, Move):
        return [command]
    if isinstance(command, Compound) and not command.procedure:
        return [m for step in command.commands for m in hand_moves(step)]
    return []


def _moves_only(command: Command) -> bool:
    """The command does nothing but move pieces."""
    if isinstance(command, Move):
        return True
    return isinstance(command, Compound) and all(_moves_only(c) for c in command.commands)


@dataclass(frozen=True)
class _Active:
    """The checks a variant plays with: per seat, whole table, those a move can break, the
    transitions."""

    per_seat: tuple[Callable[..., Iterable[Finding]], ...]
    whole: tuple[Callable[..., Iterable[Finding]], ...]
    per_seat_moved: tuple[Callable[..., Iterable[Finding]], ...]
    whole_moved: tuple[Callable[..., Iterable[Finding]], ...]
    transitions: tuple[Callable[..., Iterable[Finding]], ...]
    # the transitions told the seat acting (they read anywhere), and the procedure rules by
    # the procedure's name in the log
    with_actor: tuple[Callable[..., Iterable[Finding]], ...] = ()
    procedures: dict[str, tuple[Callable[..., Iterable[Finding]], ...]] = field(
        default_factory=dict
    )
    # the invariants a move can break and the transitions, for ``for_places``; () when none
    # reads only some places
    placed: tuple[Invariant | Transition, ...] = ()
    _by_places: dict[Any, tuple[Any, Any, Any]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # the same, by the rules' place prefixes the touched places start with and the rules'
    # spots touched: the few kinds of move there are (a hunter to any card is one)
    _by_prefixes: dict[tuple[frozenset[str], frozenset[str]], tuple[Any, Any, Any]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _named: list[tuple[str, ...]] = field(default_factory=list, compare=False, repr=False)

    def for_places(self, touched: Any, spots: Any = ()) -> tuple[Any, Any, Any]:
        """(per-seat checks, whole-table checks, transitions) for a move through the
        ``touched`` places, from and to the ``spots``: those that read anywhere, and those
        that read one of these places or spots."""
        if not self.placed:
            return self.per_seat_moved, self.whole_moved, self.transitions
        key = (touched, spots)
        found = self._by_places.get(key)
        if found is None:
            if len(self._by_places) > 4096:
                self._by_places.clear()
            if not self._named:  # the rules' place prefixes and spots, each once
                self._named.append(tuple({p: 0 for r in self.placed for p in r.places}))
                self._named.append(tuple({s: 0 for r in self.placed for s in r.spots}))
            prefixes = frozenset(
                [prefix for prefix in self._named[0] for p in touched if p.startswith(prefix)]
            )
            named = frozenset([spot for spot in self._named[1] if spot in spots])
            found = self._by_prefixes.get((prefixes, named))
            if found is None:
                wanted = [
                    r
                    for r in self.placed
                    if not (r.places or r.spots)
                    or not prefixes.isdisjoint(r.places)
                    or not named.isdisjoint(r.spots)
                ]
                found = self._by_prefixes[(prefixes, named)] = (
                    tuple(r.check for r in wanted if isinstance(r, Invariant) and r.per_seat),
                    tuple(r.check for r in wanted if isinstance(r, Invariant) and not r.per_seat),
                    tuple(r.check for r in wanted if isinstance(r, Transition)),
                )
            self._by_places[key] = found
        return found


@dataclass
class Rulebook:
    """A game's invariants and transition rules, and the two ways to apply them."""

    reading: Callable[[TableState], Any]
    invariants: list[Invariant] = field(default_factory=list)
    transitions: list[Transition] = field(default_factory=list)
    procedure_rules: list[ProcedureRule] = field(default_factory=list)
    seats: Callable[[Any], Sequence[str]] = lambda reading: ()
    seats_touched: Callable[[Any, Sequence[Move]], Iterable[str]] = lambda reading, moves: ()
    off: Callable[[Any], Iterable[str]] = lambda reading: ()  # sections a variant plays without
    moves_of: Callable[[Command], list[Move]] = hand_moves
    # the reading of the table once the moves (all that a command does) are made, made from
    # the reading before them and read once they are: a game's reading may carry over what
    # they leave as it was; None: ``reading`` of the table then
    reading_after: Callable[[Any, Sequence[Move]], Any] | None = None
    # what the moves touch, in one look for the move checker: (the places they leave and
    # reach, with what else the game calls them, matched against the rules' ``places`` as ids
    # are (a card's regions: the place the card lies in, its kind); ``seats_touched``, sorted);
    # None: the places' ids and ``seats_touched``
    touching: Callable[[Any, Sequence[Move]], tuple[Any, Sequence[str]]] | None = None
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # its keys in a table's memo (``_now``'s, ``check``'s first part): made once, read every check
    _now_key: tuple[str, int] = field(init=False, repr=False, compare=False)
    _check_key: tuple[str, int] = field(init=False, repr=False, compare=False)
    # the seat each actor acts for (``seat_of``), as asked
    _seats: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._now_key = ("rules.now", id(self))
        self._check_key = ("rules.check", id(self))

    # ---- declaring --------------------------------------------------------------------
    def invariant(
        self,
        section: str,
        summary: str,
        *,
        per_seat: bool = True,
        moves: bool = True,
        places: tuple[str, ...] = (),
        only_without: tuple[str, ...] = (),
        spots: tuple[str, ...] = (),
        when: Callable[[Any], bool] | None = None,
    ) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
        """Decorator: the function is an invariant of ``section`` (``moves=False``: one the
        table's own commands keep, left to the audit; ``places``: the only places it reads,
        by the start of their ids, so the move checker skips it for a move elsewhere, and
        ``spots``: the spots it reads besides (a move from or to one is checked too);
        ``only_without``: played only by a variant that plays without these sections;
        ``when``: a condition on the table's counters alone that the rule itself asks first,
        false when it can find nothing: the rulebook asks it once a table and skips the rule
        while it is false)."""

        def add(function: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
            self.invariants.append(
                Invariant(
                    section,
                    summary,
                    function,
                    per_seat,
                    moves,
                    tuple(places),
                    tuple(only_without),
                    tuple(spots),
                    when,
                )
            )
            return function

        return add

    def transition(
        self,
        section: str,
        summary: str,
        *,
        places: tuple[str, ...] = (),
        actor: bool = False,
        spots: tuple[str, ...] = (),
        when: Callable[[Any], bool] | None = None,
    ) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
        """Decorator: the function is a transition rule of ``section`` (``places``: it is about
        moves that leave or reach these places only, by the start of their ids, or these
        ``spots``; ``actor``: it is told the seat acting, ``check(reading, move, moves, seat)``;
        ``when``: as an invariant's, asked of the table before the move)."""

        def add(function: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
            self.transitions.append(
                Transition(
                    section,
                    summary,
                    function,
                    () if actor else tuple(places),
                    actor,
                    () if actor else tuple(spots),
                    when,
                )
            )
            return function

        return add

    def procedure_rule(
        self, section: str, summary: str, *, procedures: tuple[str, ...]
    ) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
        """Decorator: the function is a transition rule of ``section`` about the procedures
        the log names ``procedures`` (``check(reading, command, seat)``); the table's checker
        then looks at those procedures too."""

        def add(function: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
            self.procedure_rules.append(
                ProcedureRule(section, summary, function, tuple(procedures))
            )
            return function

        return add

    def rules(self) -> list[Invariant | Transition | ProcedureRule]:
        return [*self.invariants, *self.transitions, *self.procedure_rules]

    def sections(self) -> list[str]:
        return sorted({r.section for r in self.rules()})

    # ---- applying ---------------------------------------------------------------------
    def _on(self, reading: Any, section: str, off: frozenset[str]) -> bool:
        return section not in off and section.rstrip("0123456789") not in off

    def _active(self, reading: Any) -> _Active:
        """The rules a table's variant plays with, sorted for applying (kept per variant, and in
        the table's memo when the reading has a ``state``)."""
        state = getattr(reading, "state", None)
        if isinstance(state, TableState):
            memo = state.memo()
            key = ("rules.active", id(self))
            found = memo.get(key)
            if found is None or found[0] is not self:
                found = memo[key] = (self, self._active_for(reading))
            return found[1]
        return self._active_for(reading)

    def _active_now(self, reading: Any) -> _Active:
        """``_active`` but for the rules whose ``when`` is false on this table (each condition
        asked once a table: kept in its memo when the reading has a ``state``)."""
        state = getattr(reading, "state", None)
        if not isinstance(state, TableState):
            return self._conditioned(reading, self._active(reading))
        return self._now(state, state.memo())[2]

    def _now(self, state: TableState, memo: dict[Any, Any]) -> tuple[Any, Any, _Active]:
        """(self, the reading of the table, ``_active_now``) kept in the table's memo: a view
        of the table read again and again while it stays as it is."""
        key = self._now_key
        found = memo.get(key)
        if found is None or found[0] is not self:
            reading = self.reading(state)
            found = memo[key] = (self, reading, self._conditioned(reading, self._active(reading)))
        return found

    def _conditioned(self, reading: Any, active: _Active) -> _Active:
        """``active`` without the rules whose condition (``when``) this reading makes false."""
        known = ("conditions", len(self.invariants), len(self.transitions))
        kept = self._cache.get(known)
        if kept is None:  # the rules' conditions, each once
            rules = [*self.invariants, *self.transitions]
            kept = self._cache[known] = (
                rules,
                tuple(dict.fromkeys(r.when for r in rules if r.when is not None)),
            )
        rules, conditions = kept
        if not conditions:
            return active
        false = tuple([i for i, condition in enumerate(conditions) if not condition(reading)])
        if not false:
            return active
        key = ("when", id(active), false)
        kept = self._cache.get(key)
        if kept is not None and kept[0] is active:
            return kept[1]
        off = {conditions[i] for i in false}
        skip = {r.check for r in rules if r.when in off} - {
            r.check for r in rules if r.when not in off
        }

        def on(checks: tuple[Callable[..., Iterable[Finding]], ...]) -> tuple[Any, ...]:
            return tuple(check for check in checks if check not in skip)

        found = _Active(
            on(active.per_seat),
            on(active.whole),
            on(active.per_seat_moved),
            on(active.whole_moved),
            on(active.transitions),
            on(active.with_actor),
            active.procedures,
            tuple(r for r in active.placed if r.check not in skip),
        )
        self._cache[key] = (active, found)
        return found

    def _active_for(self, reading: Any) -> _Active:
        off_sections = tuple(self.off(reading))
        key = (
            off_sections,
            len(self.invariants),
            len(self.transitions),
            len(self.procedure_rules),
        )
        found = self._cache.get(key)
        if found is None:
            off = frozenset(off_sections)
            on = [
                r
                for r in self.invariants
                if self._on(reading, r.section, off)
                and not any(self._on(reading, s, off) for s in r.only_without)
            ]
            moving = [
                r for r in self.transitions if not r.actor and self._on(reading, r.section, off)
            ]
            by_procedure: dict[str, tuple[Callable[..., Iterable[Finding]], ...]] = {}
            for rule in self.procedure_rules:
                if self._on(reading, rule.section, off):
                    for name in rule.procedures:
                        by_procedure[name] = (*by_procedure.get(name, ()), rule.check)
            found = self._cache[key] = _Active(
                tuple(r.check for r in on if r.per_seat),
                tuple(r.check for r in on if not r.per_seat),
                tuple(r.check for r in on if r.per_seat and r.moves),
                tuple(r.check for r in on if not r.per_seat and r.moves),
                tuple(r.check for r in moving),
                tuple(
                    r.check
                    for r in self.transitions
                    if r.actor and self._on(reading, r.section, off)
                ),
                by_procedure,
                _placed([r for r in on if r.moves], moving),
            )
        return found

    def invariant_findings(
        self, reading: Any, seats: Iterable[str] | None = None, *, moved: bool = False
    ) -> list[Finding]:
        """The invariants' findings; ``seats`` limits the per-seat ones to those seats (None:
        every seat); the whole-table invariants always run (after a move, those a move can
        break: ``moved``)."""
        return self._findings(reading, self._active_now(reading), seats, moved)

    def _findings(
        self, reading: Any, active: _Active, seats: Iterable[str] | None, moved: bool
    ) -> list[Finding]:
        if moved:
            return self._run(reading, seats, active.per_seat_moved, active.whole_moved)
        return self._run(reading, seats, active.per_seat, active.whole)

    def _run(
        self,
        reading: Any,
        seats: Iterable[str] | None,
        per_seat: Sequence[Callable[..., Iterable[Finding]]],
        whole: Sequence[Callable[..., Iterable[Finding]]],
    ) -> list[Finding]:
        found: list[Finding] = []
        targets = list(self.seats(reading)) if seats is None else seats
        if len(targets) == 1:  # a move of one seat's pieces, the most common
            seat = targets[0]
            for check in per_seat:
                some = check(reading, seat)
                if some:  # most find nothing: () or []
                    found.extend(some)
        else:
            for check in per_seat:
                for seat in targets:
                    found.extend(check(reading, seat))
        for check in whole:
            found.extend(check(reading, None))
        return found

    def audit(self, state: TableState) -> list[Finding]:
        """Every invariant on the whole table."""
        return self.invariant_findings(self.reading(state))

    def check(self, state: TableState, command: Command, actor: str) -> list[Finding]:
        """The move checker: transition rules, then the invariants the command newly breaks.

        The findings for a command are kept in the table's memo while the table stays as
        it is: the same command checked again (a bot's candidate, then the table when
        the bot submits it) costs a look-up."""
        if type(command) is Move:  # the commonest: one move by hand
            moves = [command] if self.moves_of is hand_moves else self.moves_of(command)
        elif isinstance(command, Compound) and command.procedure:
            return self._check_procedure(state, command, actor)
        else:
            moves = self.moves_of(command)
        if not moves:
            return []
        memo = state.memo()
        # the rules read the actor only as the seat it acts for (a bot's checks of its
        # candidates, 'red', and the table's check when the bot submits, 'bot:red', are one)
        seat = self._seats.get(actor)
        if seat is None:
            if len(self._seats) > 256:
                self._seats.clear()
            seat = self._seats[actor] = seat_of(actor)
        key = (self._check_key, id(command), seat)
        kept = memo.get(key)
        if kept is not None and kept[0] is command:  # the command itself, not one with its id
            return list(kept[1])
        findings = self._check(state, command, seat, moves, memo)
        memo[key] = (command, tuple(findings))
        return findings

    def _check_procedure(self, state: TableState, command: Compound, actor: str) -> list[Finding]:
        """The procedure rules about this procedure, on the table before it."""
        if not self.procedure_rules:
            return []
        reading = self.reading(state)
        rules = self._active(reading).procedures.get(command.procedure or "", ())
        seat = seat_of(actor)
        return [f for rule in rules for f in rule(reading, command, seat)]

    def _check(
        self,
        state: TableState,
        command: Command,
        seat: str,
        moves: list[Move],
        memo: dict[Any, Any],
    ) -> list[Finding]:
        now = memo.get(self._now_key)  # as _now, read here: every check
        if now is None or now[0] is not self:
            now = self._now(state, memo)
        _, reading, active = now
        # a command that only moves pieces leaves the counters, and so the rules' conditions
        moving = type(command) is Move or _moves_only(command)
        if not moving:
            active = self._active(reading)
        found: list[Finding] = []
        if active.with_actor:
            for rule in active.with_actor:
                for m in moves:
                    some = rule(reading, m, moves, seat)
                    if some:
                        found.extend(some)
        touching = self.touching
        seats: Sequence[str] | None = None
        if touching is not None:
            touched, seats = touching(reading, moves)
        if len(moves) == 1:
            move = moves[0]
            src, dst = move.src, move.dst  # Where's fields by index: no look-up on its class
            if touching is None:
                touched = (src[0], dst[0])  # the places
            spots: Any = (src[2], dst[2])
        else:
            if touching is None:
                touched = frozenset([p for m in moves for p in (m.src.place, m.dst.place)])
            spots = frozenset([s for m in moves for s in (m.src.spot, m.dst.spot)])
        if moving:
            kinds = active._by_places.get((touched, spots))  # as for_places, read here
            per_seat, whole, transitions = kinds or active.for_places(touched, spots)
        else:  # it changes more than where pieces are: a rule's places tell too little
            per_seat, whole = active.per_seat_moved, active.whole_moved
            transitions = active.transitions
        findings: list[Finding] = found
        if len(moves) == 1:  # the most common: one move
            for rule in transitions:
                some = rule(reading, move, moves)
                if some:  # most find nothing: () or []
                    findings.extend(some)
        else:
            for rule in transitions:
                for one in moves:
                    some = rule(reading, one, moves)
                    if some:
                        findings.extend(some)
        if seats is None:
            seats = sorted(set(self.seats_touched(reading, moves)))
        if (not seats or not per_seat) and not whole:
            return findings
        later = self.reading_after
        then = later(reading, moves) if later is not None and moving else None
        state.layout_memo()  # up to date at the mark (the memo is): what it gathers is kept
        mark = state.mark()
        command.apply(state)
        try:
            after = self._run(then or self.reading(state), seats, per_seat, whole)
        finally:
            command.take_back(state)
            state.back_to(mark)  # as it was: what the table's memo held is good again
        if after:  # only what the move brings: problems the table had before are not its fault
            before = self._problems(reading, seats)
            findings += [f for f in after if f.describe() not in before]
        return findings

    def _problems(self, reading: Any, seats: Sequence[str]) -> frozenset[str]:
        """What the invariants find for these seats on the table as it is (kept in its memo)."""
        memo = reading.state.memo() if hasattr(reading, "state") else {}
        key = ("rules.problems", id(self), tuple(seats))
        found = memo.get(key)
        if found is None:
            found = frozenset(
                f.describe() for f in self.invariant_findings(reading, seats, moved=True)
            )
            memo[key] = found
        return found

    def checker(self) -> Callable[[TableState, Command, str], list[Finding]]:
        """The table's checker (``Table.checker``): procedures follow the rules by construction,
        but for those a procedure rule is about (``checks_procedures``)."""
        checker = functools.partial(type(self).check, self)  # one call less than a closure
        checker.trusts_procedures = True  # type: ignore[attr-defined]
        checker.checks_procedures = frozenset(  # type: ignore[attr-defined]
            name for rule in self.procedure_rules for name in rule.procedures
        )
        return checker
