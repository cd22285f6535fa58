"""The game interface: one object per game, named once in its ``module.toml`` (``game = ...``).

The table, the window and the command line ask a game only through this
object; nothing in ``tabletop/`` names a game. A game subclasses ``Game`` and
fills in what it has; what it leaves out is simply not offered (a module with
no rulebook has no move checker, one with no flow no phase panel).

What a game gives:

- ``setup(context)``: the table at the start (tabletop/modules/setup.py);
- ``summary(state)``: the table read in the game's terms (``tabletop inspect``);
- ``deck_check(deck)``: problems in the game's deck rows, [(line, column, message)];
- ``module_needs``: the decks, kinds, places ({seat} left in) and variants the game's code
  names, {"decks": ids, "kinds": ids, "places": ids, "variants": ids}: a module lacking one
  is refused at load;
- ``placeholder_fields(row)``: the columns of a deck row whose values are placeholders
  (filled in, with no source), for ``tabletop deck diff`` and the deck editor;
- ``mark_placeholder(row, column, placeholder, source)``: the cells ({column: text}) that
  make a row's value a placeholder again, or a value with that source (the deck editor);
- ``deck_vocabulary(column)``: the words a deck column takes beyond its declared choices,
  as (word, meaning) pairs (the deck editor offers them);
- ``card_view(row)``: how a card's face reads (tabletop/ui/card_layouts.py);
- ``card_back(row)``: (key, label, colour) of the back a row's card shows, the same as its
  ``card_view``'s ``back_key``, ``back_label`` and ``back_colour``, for a game that can tell
  it without making the whole view (a face-down card's look asks only this);
- ``token_view(piece)``: how a token's face reads (tabletop/ui/token_art.py);
- ``rulebook``: the invariants and transition rules (rules_assist/rules.py), which
  give the move checker and the whole-table audit;
- ``complete_move(state, command)``: the command with what the rules make follow
  from it (a promotion's energy);
- ``flow``: the turn (rules_assist/driver.py): where the game stands, who is to
  move, what they may do now, whether the game is over, the result;
- ``procedures``: the table of procedures (``ProcedureTable``), from which the
  command line and the phase panel are built; ``prepare`` turns their parameters
  into what the procedures take, ``default_actor`` names who acts when nobody is named;
- ``score(state)``: plain rows for the score panel and ``tabletop score``, with
  ``seat_word`` naming a seat in the game's words ("Culture");
- ``bots``: {name: factory(seed) -> bot} (rules_assist/bots.py);
- ``who_acted(state, command)``: the seat a move made at the table is credited to (the
  owner of what it moves, else the seat whose turn it is), for the log;
- ``variants``: the module's variants as data (``Variant``: the rules each
  switches off and its parameters), read once here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tabletop.core import Command, Finding, Table, TableState, owners_moved

from .procedures import ProcedureError, run_procedure
from .rules import Rulebook


# ---- variants -------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """A variant as the module's data says: its name, the rules it plays without, its
    parameters (the survivalist Alpha's face, the solitaire game's 16 turns)."""

    id: str
    name: str = ""
    description: str = ""
    rules_off: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    seats: int | None = None  # how many the variant seats (None: the module's default)

    def off(self, section: str) -> bool:
        """The variant plays without ``section`` (or the whole section it belongs to)."""
        return section in self.rules_off or section.rstrip("0123456789") in self.rules_off

    def param(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)


STANDARD = Variant("standard", "Standard")


def variants_of(module: Any) -> dict[str, Variant]:
    """The module's variants as ``Variant`` records (from ``module.variant_defs``)."""
    found = {}
    for vid, data in (getattr(module, "variant_defs", None) or {}).items():
        found[vid] = Variant(
            vid,
            data.get("name", vid),
            data.get("description", ""),
            tuple(sorted(data.get("rules_off", ()))),  # in section order
            dict(data.get("params", {})),
            data.get("seats"),
        )
    return found


# ---- the procedures' table -------------------------------------------------------------
@dataclass(frozen=True)
class Parameter:
    """A procedure's parameter as the command line and the phase panel see it.

    ``kind``: 'seat' (a seat id), 'actor' (the acting seat: the command line's ``--seat``,
    no option of its own), 'card' (a card's name or id, turned into its piece id by the
    game's ``prepare``), 'text', 'int', 'list' (repeatable, each item split at commas;
    KEY=VALUE pairs when ``pairs``), 'flag' (on or off; with ``negative``, its off spelling).

    A parameter that ``answers`` a question is not passed to the procedure: its value is
    the answer to the question of that key (``--reroll 4`` answers 'reroll'). For pairs the
    key is a template: ``--bid red=1`` with ``answers='bid_{key}'`` answers 'bid_red'; with
    ``keys='seat'`` the keys are the table's seats, and once the option is given the seats
    it leaves out answer ``default``. A flag that answers gives 'yes' or 'no'.
    """

    name: str
    help: str = ""
    kind: str = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None
    pairs: bool = False  # a list of KEY=VALUE, given as a dict
    option: str = ""  # the command line's spelling, '--' + name with '-' by default
    answers: str = ""  # the question it answers (a key, or a template with {key} for pairs)
    negative: str = ""  # a flag's off spelling ('--no-alpha'); none: the flag is only on
    aliases: tuple[str, ...] = ()  # other spellings of the option
    keys: str = ""  # pairs: 'seat' when the keys are the table's seats
    metavar: str = ""  # the value's name in --help ('FACE', 'COLOUR=N')

    @property
    def spelling(self) -> str:
        """The option as typed: ``option``, else '--' + the name with '-' for '_'."""
        return self.option or "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class ProcedureSpec:
    """One procedure of a game: its name, function, parameters, section, phase and help."""

    name: str  # the command line's name: 'hunt', 'next-phase'
    function: Callable[..., str]  # procedure(ctx, **params) -> the entry's label
    section: str = ""
    phases: tuple[str, ...] = ()  # the phases it belongs to; () for any phase
    help: str = ""
    parameters: tuple[Parameter, ...] = ()
    log_name: str = ""  # the compound's procedure name in the log ('greenland.hunt')
    example: str = ""  # a command line, for the README and --help
    # it kills, takes or attacks (for all its parameters, or those the function says): a
    # window never makes it the default button, so Enter cannot set it off
    destructive: bool | Callable[[Mapping[str, Any]], bool] = False

    @property
    def recorded_as(self) -> str:
        return self.log_name or self.name

    def is_destructive(self, params: Mapping[str, Any]) -> bool:
        """Whether running it with ``params`` kills, takes or attacks (``destructive``)."""
        if callable(self.destructive):
            return bool(self.destructive(params))
        return self.destructive


class ProcedureTable:
    """A game's procedures, listed once, in the order they are shown."""

    def __init__(self, specs: Iterable[ProcedureSpec] = ()) -> None:
        self._specs: dict[str, ProcedureSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: ProcedureSpec) -> ProcedureSpec:
        if spec.name in self._specs:
            raise ValueError(f"the procedure {spec.name!r} is listed twice")
        self._specs[spec.name] = spec
        return spec

    def __iter__(self) -> Iterator[ProcedureSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def get(self, name: str) -> ProcedureSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise ProcedureError(
                f"no procedure {name!r}; there are {', '.join(self._specs) or 'none'}"
            ) from None

    def by_function(self, function: Callable[..., Any]) -> ProcedureSpec | None:
        return next((s for s in self._specs.values() if s.function is function), None)

    def names(self) -> list[str]:
        return list(self._specs)


# ---- the game -------------------------------------------------------------------------
class Game:
    """The interface a game gives the table, the window and the command line.

    A subclass is made with the game's module (``Game(module)``); every method has a
    plain default meaning "this game has none".
    """

    seat_word = "Seat"  # a seat in the game's words, for column headings

    def __init__(self, module: Any) -> None:
        self.module = module

    @property
    def id(self) -> str:
        return str(self.module.id)

    # ---- setup and reading -----------------------------------------------------------
    setup: Callable[..., Any] | None = None
    deck_check: Callable[..., Any] | None = None
    module_needs: Mapping[str, tuple[str, ...]] = {}

    def placeholder_fields(self, row: Mapping[str, Any]) -> set[str]:
        return set()

    mark_placeholder: Callable[..., dict[str, str]] | None = None
    deck_vocabulary: Callable[[str], Any] | None = None

    def summary(self, state: TableState) -> Any:
        return None

    def card_view(self, row: Mapping[str, Any]) -> Any:
        return None

    has_card_view = False

    def card_back(self, row: Mapping[str, Any]) -> Any:
        return None

    has_card_back = False

    def token_view(self, piece: Mapping[str, Any]) -> Any:
        return None

    has_token_view = False

    # ---- rules ------------------------------------------------------------------------
    @property
    def rulebook(self) -> Rulebook | None:
        return None

    def checker(self) -> Callable[[TableState, Command, str], list[Finding]] | None:
        book = self.rulebook
        return book.checker() if book is not None else None

    def audit(self, state: TableState) -> list[Finding] | None:
        book = self.rulebook
        return book.audit(state) if book is not None else None

    def complete_move(self, state: TableState, command: Command) -> Command:
        return command

    has_complete_move = False

    # ---- variants ----------------------------------------------------------------------
    @cached_property
    def variants(self) -> dict[str, Variant]:
        """The module's variants, read once (the rules ask for them at every turn)."""
        return variants_of(self.module)

    def variant(self, state: TableState) -> Variant:
        """The variant a game records (its ``variant`` counter), standard when none."""
        vid = str(state.counters.get("variant") or "standard")
        return self.variants.get(vid) or Variant(vid, vid)

    # ---- the turn, procedures, scoring, bots -----------------------------------------------
    @property
    def flow(self) -> Any:
        """The turn flow (rules_assist/driver.py ``Flow``), or None."""
        return None

    @property
    def procedures(self) -> ProcedureTable:
        return ProcedureTable()

    def prepare(self, state: TableState, spec: ProcedureSpec, params: dict[str, Any]) -> dict:
        """The parameters as the procedure takes them (a card's name turned into its piece id,
        the game's deck rows added); by default as given. ``params`` is the caller's own copy:
        prepare may change it and return it."""
        return params

    def default_actor(
        self, state: TableState, spec: ProcedureSpec, params: Mapping[str, Any]
    ) -> str:
        """The seat a run of ``spec`` acts for when nobody is named (the command line without
        ``--seat``), given the parameters as the procedure takes them; by default the table's
        (the game's id)."""
        return self.id

    def who_acted(
        self, state: TableState, command: Command | None = None, *, acting_as: str | None = None
    ) -> str | None:
        """The seat a person's move at a shared table is credited to in the log, and judged as:
        ``acting_as`` when a player said who they are; else the owner of the pieces the
        command moves (the seat to move among several owners, else the first); else, for
        pieces of nobody's (a biome card, dice) or no command (a roll), the seat whose turn it
        is by the game's flow; None when that is nobody's (the table's own step)."""
        if acting_as:
            return acting_as
        to_move = self._seat_to_move(state)
        owners = owners_moved(state, command) if command is not None else []
        if owners:
            return to_move if to_move in owners else owners[0]
        return to_move

    def _seat_to_move(self, state: TableState) -> str | None:
        """The seat the flow says is to move, or None (no flow, the table's step, the end)."""
        flow = self.flow
        if flow is None:
            return None
        to_move = flow.status(state).to_move
        return to_move if any(seat.id == to_move for seat in state.seats) else None

    def score(self, state: TableState) -> list[dict[str, Any]] | None:
        return None

    def first_player(self, state: TableState) -> str | None:
        """The seat that goes first this turn (a snapshot's header names it); None for a
        game without one."""
        return None

    has_score = False

    has_bots = False  # known without loading the bots

    @property
    def bots(self) -> dict[str, Callable[[int], Any]]:
        """The bots a seat may be given, by name: factory(seed) -> bot."""
        return {}

    def bench(self, say: Callable[[str], None]) -> dict[str, Any]:
        """The game's own figures for ``tabletop bench`` (``say`` hears each step); none by
        default."""
        return {}

    # ---- running procedures -------------------------------------------------------------------
    def run(
        self,
        table: Table,
        name: str | ProcedureSpec,
        actor: str,
        params: Mapping[str, Any] | None = None,
        *,
        choices: Mapping[str, Any] | None = None,
        answerer: Any = None,
        answered: list[Any] | None = None,
    ) -> Any:
        """Run one of the game's procedures on a table, refusing it outside its phase
        (``answered``: see rules_assist/procedures.run_procedure)."""
        spec = name if isinstance(name, ProcedureSpec) else self.procedures.get(name)
        state = table.state
        if spec.phases:
            self.refuse_outside_phase(state, spec)
        given = dict(params) if params else {}  # a copy prepare may change
        logged = self.recorded_as(spec, given)  # as given, before prepare
        return run_procedure(
            table,
            actor,
            spec.function,
            name=logged,
            choices=choices,
            answerer=answerer,
            answered=answered,
            **self.prepare(state, spec, given),
        )

    def recorded_as(self, spec: ProcedureSpec, params: Mapping[str, Any]) -> str:
        """The procedure's name in the log for a run with ``params`` (the parameters as given);
        by default the spec's ``recorded_as``."""
        return spec.recorded_as

    def refuse_outside_phase(self, state: TableState, spec: ProcedureSpec) -> None:
        """ProcedureError, one line naming the phase, when ``spec`` does not belong to the phase
        the game is in."""
        flow = self.flow
        if flow is None or not spec.phases:
            return
        phase = flow.phase(state)
        if phase not in spec.phases:
            names = " or ".join(flow.phase_label(p) for p in spec.phases)
            raise ProcedureError(
                f"{spec.name}{f' ({spec.section})' if spec.section else ''} belongs to the"
                f" {names} phase; the game is in the {flow.phase_label(phase)} phase"
            )
