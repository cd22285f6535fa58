"""Setting a new game up from a module: seats, the table layout, then the setup steps.

Every change goes through the table as a setup entry (logged, not undoable),
so the log of a new game shows how it was set up, shuffles included.
A module either lists declarative ``[[setup]]`` steps or names a setup
function in ``rules_assist`` that receives a SetupContext.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.core import (
    Command,
    CommandError,
    Compound,
    Flip,
    Seat,
    Table,
    TableError,
    TableState,
    actions,
)
from tabletop.core.commands import AddPiece, AddPlace, Where
from tabletop.core.limits import MAX_PIECES
from tabletop.core.randomness import Contribute, SecretSeed
from tabletop.core.textsafe import clipped, quoted
from tabletop.persist import Game, Header

from .gamecode import game_of
from .manifest import Module


class SetupError(TableError):
    pass


def resolve_seats(
    module: Module,
    seats: str | int | Sequence[str] | None,
    variant: str = "",
    seed: int = 0,
) -> list[Seat]:
    """The seats of a new game, from a count ("3"), a list of seat ids ("red,green") or None (the default).

    A seat may be given a player's name: "red=Ann,green=Bo". A variant that seats a number of
    its own (its ``seats``) takes that many when none are named; one with ``random_seats``
    draws them by the game's seed (kept in the module's order) unless the players name them.
    """
    defined = module.variant_defs.get(variant) or {}
    wanted = defined.get("seats")
    if seats is None and wanted:
        seats = wanted
    if seats is None:
        chosen = module.seats[: module.default_seats]
    elif isinstance(seats, int) or (isinstance(seats, str) and seats.strip().isdigit()):
        n = int(seats)
        if not module.min_seats <= n <= module.max_seats:
            raise SetupError(
                f"{module.name} seats {module.min_seats} to {module.max_seats} players, not {n}"
            )
        _variant_count(module, variant, wanted, n)
        if defined.get("random_seats"):
            drawn = random.Random(f"{seed}/seats").sample(range(len(module.seats)), n)
            chosen = [module.seats[i] for i in sorted(drawn)]
        else:
            chosen = module.seats[:n]
    else:
        items = [
            s.strip() for s in (seats.split(",") if isinstance(seats, str) else seats) if s.strip()
        ]
        known = {s.id: s for s in module.seats}
        chosen = []
        for item in items:
            sid, _, name = item.partition("=")
            if sid not in known:
                raise SetupError(
                    f"{module.name} has no seat {sid!r} (its seats: {', '.join(known)})"
                )
            if any(c.id == sid for c in chosen):
                raise SetupError(f"the seat {sid!r} is named twice")
            base = known[sid]
            chosen.append(Seat(sid, name.strip() or base.name, base.colour))
        if not module.min_seats <= len(chosen) <= module.max_seats:
            raise SetupError(
                f"{module.name} seats {module.min_seats} to {module.max_seats} players, not {len(chosen)}"
            )
        _variant_count(module, variant, wanted, len(chosen))
    return list(chosen)


def _variant_count(module: Module, variant: str, wanted: int | None, n: int) -> None:
    if wanted and n != wanted:
        name = module.variants.get(variant, variant)
        drawn = (module.variant_defs.get(variant) or {}).get("random_seats")
        hint = f" (name {wanted} seats, or none to have them drawn)" if drawn else ""
        raise SetupError(f"{module.name} ({name}) seats {wanted} players, not {n}{hint}")


# The table's layout by module and seats (``SetupContext.open_places``): the module, the entry
# logged, copies of the places it opened, how far it moved the table's clocks.
_OPENED: dict[tuple[Any, ...], tuple[Module, Compound, tuple[Any, ...], tuple[int, int, int]]] = {}
_OPENED_KEPT = 64
_OPENED_ONCE: Any = object()  # in _OPENED: laid out once, and nothing kept of it yet


class SetupContext:
    """What a setup function works with: the module, the seats, the variant and the table."""

    def __init__(
        self,
        module: Module,
        table: Table,
        seats: list[Seat],
        variant: str,
        options: dict[str, str] | None = None,
        position: str | None = None,
    ) -> None:
        self.module = module
        self.table = table
        self.seats = seats
        self.variant = variant
        self.options = {o.id: o.default for o in module.options.values()} | dict(options or {})
        self.position = position  # a position file for rules questions, when the module reads them
        self._made = 0  # pieces made by piece_commands

    @property
    def state(self):  # noqa: ANN201 - a TableState
        return self.table.state

    def submit(self, command: Command, applied: bool = False) -> None:
        """Log a setup entry; ``applied``: it is on the table already (see Table.submit)."""
        self.table.submit(command, "setup", undoable=False, applied=applied)

    def open_places(self) -> None:
        """Lay out the table: every place of the manifest, one per seat where asked. The entry
        depends only on the module and the seats: a process builds it for them at most twice
        (keeping it the second time), and a later empty table gets copies of the places it
        opened then, the same entry logged."""
        state = self.state
        empty = not state.places and not state.pieces
        key = (id(self.module), tuple(self.seats))
        kept = _OPENED.get(key)
        known = kept is not None and kept[0] is self.module
        if empty and known and kept[1] is not _OPENED_ONCE:
            _module, entry, places, clocks = kept
            for place in places:
                state.places[place.id] = place.copy()
            state.version += clocks[0]
            state.positions += clocks[1]
            state.layout += clocks[2]
            self.submit(entry, applied=True)
            return
        steps: list[Command] = []
        for place in self.module.places:
            for seat in self.seats if place.per_seat else [None]:
                steps.append(AddPlace(place.spec_for(seat)))
        entry = Compound("lay out the table", tuple(steps))
        before = (state.version, state.positions, state.layout)
        self.submit(entry)
        if empty:
            if len(_OPENED) >= _OPENED_KEPT:
                _OPENED.clear()
            if not known:
                # the first time nothing is copied: a process that sets up one game (the
                # window, a command) would never lay the copies out; a second game keeps them
                _OPENED[key] = (self.module, _OPENED_ONCE, (), (0, 0, 0))
                return
            clocks = (
                state.version - before[0],
                state.positions - before[1],
                state.layout - before[2],
            )
            places = tuple(place.copy() for place in state.places.values())
            _OPENED[key] = (self.module, entry, places, clocks)

    def piece_commands(
        self,
        kind_id: str,
        pid: str,
        place: str,
        *,
        spot: str | None = None,
        owner: str | None = None,
        face_up: bool = True,
        value: Any = None,
        props: dict[str, Any] | None = None,
        x: float | None = None,
        y: float | None = None,
        index: int | None = None,
    ) -> list[Command]:
        """The commands that add one piece (and the regions its kind carries)."""
        kind = self.module.kinds.get(kind_id)
        if kind is None:
            raise SetupError(f"{self.module.name} has no kind of piece {kind_id!r:.40}")
        self._made += 1  # checked here, before a setup builds more than a table may hold
        if self._made > MAX_PIECES:
            raise SetupError(
                f"{self.module.name}'s setup puts out more than the limit of {MAX_PIECES:,} pieces"
            )
        record: dict[str, Any] = {"id": pid, "kind": kind_id}
        if owner is not None:
            record["owner"] = owner
        if not face_up:
            record["face_up"] = False
        all_props = dict(kind.props)
        if kind.faces:
            all_props["faces"] = list(kind.faces)
            if value is None:
                value = kind.faces[0]
        all_props.update(props or {})
        if value is not None:
            record["value"] = value
        if all_props:
            record["props"] = all_props
        if index is None:
            index = len(self.state.place(place).contents)
        commands: list[Command] = [AddPiece(record, Where(place, index, spot, x, y))]
        if kind.regions:
            spec: dict[str, Any] = {
                "id": pid,
                "kind": "regions",
                "parent": pid,
                "spots": list(kind.regions),
            }
            if kind.region_capacity is not None:
                spec["capacity"] = kind.region_capacity
            commands.append(AddPlace(spec))
        return commands

    def fill(self, text: str, seat: Seat | None) -> str:
        return (
            text
            if seat is None
            else text.replace("{seat}", seat.id).replace("{seat_name}", seat.name)
        )

    def run_steps(self, steps: list[dict[str, Any]] | None = None) -> None:
        """Run declarative setup steps (the manifest's by default)."""
        for step in self.module.setup_steps if steps is None else steps:
            if "variant" in step and step["variant"] != self.variant:
                continue
            if "unless_variant" in step and step["unless_variant"] == self.variant:
                continue
            for seat in self.seats if step.get("per_seat") else [None]:
                self._run_step(step, seat)

    def _run_step(self, step: dict[str, Any], seat: Seat | None) -> None:
        do = step["do"]
        if do == "deck":
            deck = self.module.decks[step["deck"]]
            place = self.fill(step["place"], seat)
            face_up = bool(step.get("face_up", False))
            start = len(self.state.place(place).contents)
            commands: list[Command] = []
            for i, card in enumerate(deck.cards):
                commands += self.piece_commands(
                    deck.kind,
                    card["id"],
                    place,
                    spot=step.get("spot"),
                    face_up=face_up,
                    props={"deck": deck.id, "card": card["id"]},
                    index=start + i,
                )
            self.submit(Compound(f"put the {deck.id} deck in {place}", tuple(commands)))
            if step.get("shuffle"):
                self.table.shuffle(place, "setup", undoable=False)
        elif do in ("pieces", "piece"):
            place = self.fill(step["place"], seat)
            kind = step["kind"]
            count = step.get("count", 1) if do == "pieces" else 1
            owner = (
                self.fill(step["owner"], seat) if "owner" in step else (seat.id if seat else None)
            )
            pattern = step.get("id", "{kind}-{seat}-{n}" if seat else "{kind}-{n}")
            commands = []
            start = len(self.state.place(place).contents)
            for n in range(1, count + 1):
                pid = self.fill(pattern, seat).replace("{kind}", kind).replace("{n}", str(n))
                commands += self.piece_commands(
                    kind,
                    pid,
                    place,
                    spot=step.get("spot"),
                    owner=owner,
                    face_up=bool(step.get("face_up", True)),
                    value=step.get("value"),
                    x=step.get("x"),
                    y=step.get("y"),
                    index=start + n - 1,
                )
            self.submit(Compound(f"put {count} {kind} in {place}", tuple(commands)))
        elif do == "deal":
            source = self.fill(step["from"], seat)
            target = self.fill(step["to"], seat)
            command = actions.draw(self.state, source, target, step["count"])
            if "face_up" in step:
                command = Compound(
                    command.label,
                    command.commands
                    + tuple(
                        Flip(c.piece, self.state.piece(c.piece).face_up, bool(step["face_up"]))
                        for c in command.commands
                        if self.state.piece(c.piece).face_up != bool(step["face_up"])
                    ),
                )
            self.submit(command)
        elif do == "fill":
            self._fill(
                self.fill(step["from"], seat),
                self.fill(step["to"], seat),
                bool(step.get("face_up", True)),
            )
        elif do == "shuffle":
            self.table.shuffle(self.fill(step["place"], seat), "setup", undoable=False)
        elif do == "counter":
            self.submit(actions.set_counter(self.state, step["name"], step["value"]))
        elif do == "flip":
            place = self.fill(step["place"], seat)
            contents = self.state.place(place).contents
            chosen = contents[-step.get("count", len(contents)) :] if contents else []
            face_up = bool(step.get("face_up", True))
            flips = [
                actions.flip(self.state, pid, face_up)
                for pid in chosen
                if self.state.piece(pid).face_up != face_up
            ]
            if flips:
                self.submit(Compound(f"turn {len(flips)} in {place}", tuple(flips)))

    def _fill(self, source: str, target: str, face_up: bool) -> None:
        """Draw one card into each spot of ``target`` that has room (a market of slots)."""
        place = self.state.place(target)
        builders = []
        for spot in place.spots or (None,):
            held = sum(1 for pid in place.contents if self.state.pieces[pid].spot == spot)
            room = (place.capacity if place.capacity is not None else 1) - held
            for _ in range(max(room, 0)):
                builders.append(lambda s, spot=spot: _draw_one(s, source, target, spot, face_up))
        if builders and len(self.state.place(source).contents) >= len(builders):
            self.submit(
                actions.build_sequence(self.state, f"fill {target} from {source}", builders)
            )


def _draw_one(state: Any, source: str, target: str, spot: str | None, face_up: bool) -> Command:
    return actions.draw(state, source, target, 1, spot=spot, face_up=face_up)


def not_laid_out(module: Module, state: TableState) -> str | None:
    """Why the table cannot be read in its game's terms yet, or None.

    A setup lays out every place of the manifest first. A log that stops before that (a header
    alone, as a crash while the game was being set up leaves it), or the table before entry 1,
    holds none of the places the game's reading, scoring, audit and procedures work with."""
    for place in module.places:
        for seat in state.seats if place.per_seat else [None]:
            place_id = place.spec_for(seat)["id"]
            if place_id not in state.places:
                return (
                    "the game's table is not laid out yet "
                    f"(its setup has not put out the place {quoted(place_id)})"
                )
    return None


def check_options(module: Module, options: dict[str, str]) -> dict[str, str]:
    """The module's setup choices, defaults filled in; an unknown option or choice is a SetupError."""
    for key, value in options.items():
        option = module.options.get(key)
        if option is None:
            known = ", ".join(module.options) or "none"
            raise SetupError(f"{module.name} has no option {key!r} (its options: {known})")
        if value not in option.choices:
            raise SetupError(
                f"{clipped(option.label)}: {quoted(value)} is not one of"
                f" {clipped(', '.join(option.choices))}"
            )
    return {o.id: options.get(o.id, o.default) for o in module.options.values()}


def header_for(module: Module, seats: list[Seat], variant: str, seed: int, notes: str) -> Header:
    return Header(
        module=module.id,
        module_version=module.version,
        seed=seed,
        seats=seats,
        variant=variant,
        decks=[
            {
                "id": d.id,
                "file": os.path.relpath(d.path, module.folder.resolve()).replace(os.sep, "/"),
                "sha256": d.sha256,
            }
            for d in module.decks.values()
        ],
        notes=notes,
    )


def new_game(
    module: Module,
    *,
    seats: str | int | Sequence[str] | None = None,
    variant: str = "",
    seed: int = 0,
    notes: str = "",
    path: str | os.PathLike[str] | None = None,
    options: dict[str, str] | None = None,
    position: str | None = None,
    session: dict[str, Any] | None = None,
    committed: SecretSeed | None = None,
    contributions: Mapping[str, str] | None = None,
    **game_options: Any,
) -> Game:
    """Set up a new game of a module; with a path, its log is written as it goes.

    ``options`` answers the module's setup choices (e.g. Greenland's Norse
    animal); ``position`` is a file describing a table to build, for modules
    whose setup reads positions; ``session`` the session record's start kept in the header
    (``testers``: seat -> a player's name, ``where``: a place).

    ``committed``: the referee's secret seed, for committed dice and shuffles
    (docs/fairness.md): the header holds its commitment (and, in this, the referee's file, the
    secret); ``contributions`` (seat -> hex), each seat's, are the first entries, before the
    setup, which draws nothing until every seat's is in.
    """
    if variant and variant not in module.variants:
        known = ", ".join(module.variants) or "none"
        raise SetupError(f"{module.name} has no variant {variant!r} (its variants: {known})")
    chosen = resolve_seats(module, seats, variant, seed)
    chosen_options = check_options(module, options or {})
    if (
        chosen_options.get("colours") == "random"
    ):  # players are dealt their colours by the game's seed
        names = [seat.name for seat in chosen]
        random.Random(f"{seed}/colours").shuffle(names)
        chosen = [
            Seat(seat.id, name, seat.colour) for seat, name in zip(chosen, names, strict=True)
        ]
    game = game_of(module)
    setup_function = game.setup if game is not None else None
    if position is not None and setup_function is None:
        raise SetupError(f"{module.name} does not read positions")
    header = header_for(module, chosen, variant, seed, notes)
    if chosen_options:
        header.extra["options"] = chosen_options
    if session:  # the session record's start: testers (seat -> name) and place
        seats = [seat.id for seat in chosen]
        for seat in session.get("testers", {}):
            if seat not in seats:
                raise SetupError(
                    f"there is no seat {seat!r} to name a tester for ({', '.join(seats)})"
                )
        header.extra["session"] = session
    if contributions and committed is None:
        raise SetupError("contributions are for a game with committed dice and shuffles")
    if committed is not None:
        header.randomness = committed.header_record()

    def setup(table: Table) -> None:
        for seat, contribution in (contributions or {}).items():
            try:
                table.chance(Contribute(seat, contribution), seat)
            except CommandError as exc:
                raise SetupError(f"the contribution of {seat}: {exc}") from None
        context = SetupContext(module, table, chosen, variant, chosen_options, position)
        context.open_places()
        if setup_function is not None:
            setup_function(context)
        else:
            context.run_steps()

    return Game.create(header, setup, path, **game_options)
