"""Race's reading of the table and its rulebook: R2 and R3 as invariants, R5's hand move as a
transition rule."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from rules_assist.rules import Rulebook
from tabletop.core import Command, Compound, Finding, Move, SetCounter, TableState, actions

TRACK, START, HOME = "track", "start", "home"
ROLL, MOVE, OVER = "roll", "move", "over"


@dataclass
class Race:
    """The table in the game's words: whose turn, the roll, where each cube stands."""

    state: TableState
    game: Any

    @property
    def variant(self) -> Any:
        return self.game.variant(self.state)

    def number(self, name: str) -> int:
        """One of the rules' numbers: the variant's, else the module's constant."""
        return self.game.number(self.variant, name)

    @cached_property
    def seats(self) -> list[str]:
        return [s.id for s in self.state.seats]

    @property
    def phase(self) -> str:
        return str(self.state.counters.get("phase", ROLL))

    @property
    def to_move(self) -> str:
        return str(self.state.counters.get("seat", self.seats[0]))

    @property
    def pips(self) -> int:
        return int(self.state.counters.get("pips") or 0)

    @property
    def turn(self) -> int:
        return int(self.state.counters.get("turn") or 1)

    def cubes(self, seat: str) -> list[str]:
        """The seat's cubes (kept while no piece comes or goes: the table's layout memo)."""
        memo = self.state.layout_memo()
        found = memo.get("race.cubes")
        if found is None:
            found = memo["race.cubes"] = {}
            for piece in sorted(self.state.pieces.values(), key=lambda p: p.id):
                if piece.kind == "cube":
                    found.setdefault(piece.owner, []).append(piece.id)
        return found.get(seat, [])

    def space(self, cube: str) -> str | None:
        piece = self.state.pieces[cube]
        return piece.spot if piece.place == TRACK else None

    @cached_property
    def steps(self) -> dict[str, int]:
        """Each space's distance from the start (the board's node attribute ``step``)."""
        graph = self.state.place(TRACK).graph
        return {space: int(graph.nodes[space]["step"]) for space in graph.nodes}

    def left(self, cube: str) -> int:
        """The spaces a cube has left to home."""
        return self.steps[HOME] - self.steps[self.space(cube) or START]

    def ahead(self, cube: str, pips: int) -> str:
        """The space ``pips`` forward along the track's edges (home when fewer are left)."""
        graph = self.state.place(TRACK).graph
        space = self.space(cube) or START
        for _ in range(pips):
            if space == HOME:
                break
            space = next(n for n in graph[space] if self.steps[n] > self.steps[space])
        return space

    def crowded(self, space: str) -> bool:
        """R3 is in force and the space holds as many cubes as it may."""
        if space in (START, HOME) or self.variant.off("R3"):
            return False
        return len(self.on(space)) >= self.number("crowd")

    def on(self, space: str) -> list[str]:
        place = self.state.place(TRACK)
        return [pid for pid in place.contents if self.state.pieces[pid].spot == space]

    def home(self, seat: str) -> int:
        return sum(self.space(c) == HOME for c in self.cubes(seat))

    def finished(self) -> list[str]:
        """The seats with every cube home (R6)."""
        return [s for s in self.seats if self.cubes(s) and self.home(s) == len(self.cubes(s))]


# ---- the rulebook ---------------------------------------------------------------------
def _touched(race: Race, moves: Sequence[Move]) -> Iterator[str]:
    for move in moves:
        owner = race.state.pieces[move.piece].owner
        if owner:
            yield owner


RULES = Rulebook(
    reading=lambda state: state,  # the game gives its reading (``rulebook_for``)
    seats=lambda race: race.seats,
    seats_touched=_touched,
    off=lambda race: race.variant.rules_off,
)


@RULES.invariant("R2", "a player's cubes stay on the track")
def cubes_on_track(race: Race, seat: str) -> Iterator[Finding]:
    cubes = race.cubes(seat)
    away = [c for c in cubes if race.space(c) is None]
    if away or len(cubes) != race.number("cubes"):
        yield Finding(
            "R2",
            f"{seat} has {len(cubes) - len(away)} of its {race.number('cubes')} cubes on the track",
            pieces=tuple(away),
        )


@RULES.invariant("R3", "a space holds at most the crowd", per_seat=False)
def crowd(race: Race, seat: None) -> Iterator[Finding]:
    limit = race.number("crowd")
    for space in race.steps:
        cubes = race.on(space)
        if space not in (START, HOME) and len(cubes) > limit:
            yield Finding(
                "R3",
                f"space {space} holds {len(cubes)} cubes, more than {limit}",
                pieces=tuple(cubes),
            )


@RULES.transition("R5", "a cube moves by hand exactly the roll forward, on its owner's turn")
def forward_by_the_roll(race: Race, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    piece = race.state.pieces[move.piece]
    if piece.kind != "cube":
        return
    if piece.owner != race.to_move or race.phase != MOVE:
        yield Finding("R5", f"{move.piece}: it is {race.to_move}'s turn to {race.phase}")
    elif race.pips == 0:
        yield Finding("R5", f"{move.piece}: the roll is spent; end the turn")
    elif len([m for m in moves if race.state.pieces[m.piece].kind == "cube"]) > 1:
        yield Finding("R5", "move one cube by hand, or share the roll with 'advance'")
    elif move.dst.place != TRACK or move.dst.spot != race.ahead(move.piece, race.pips):
        target = race.ahead(move.piece, race.pips)
        yield Finding("R5", f"{move.piece} moves {race.pips} forward, to space {target}")


def rulebook_for(game: Any) -> Rulebook:
    """Race's rulebook reading the table through ``game`` (its variants and constants)."""
    return replace(RULES, reading=lambda state: Race(state, game))


# ---- what a hand move brings with it ----------------------------------------------------
def complete_move(state: TableState, command: Command) -> Command:
    """A cube moved by hand spends the roll (R5): the command with the roll set to 0."""
    pips = state.counters.get("pips")
    if not pips or not any(
        isinstance(m, Move) and state.pieces[m.piece].kind == "cube" for m in _moves(command)
    ):
        return command
    return Compound("move a cube by hand (R5)", (command, SetCounter("pips", pips, 0)))


def _moves(command: Command) -> list[Command]:
    if isinstance(command, Compound):
        return [m for c in command.commands for m in _moves(c)]
    return [command]


def hand_move(state: TableState, race: Race, cube: str) -> Command:
    """A cube moved exactly the roll forward by hand, spending the roll (the bots' hand move)."""
    move = actions.move(state, cube, TRACK, spot=race.ahead(cube, race.pips))
    return complete_move(state, move)
