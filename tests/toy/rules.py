"""Race's rulebook: R2 and R3 as invariants, R5's hand move as a transition rule, and what a
hand move brings with it (the roll spent)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from rules_assist.rules import Rulebook
from tabletop.core import Command, Compound, Finding, Move, SetCounter, TableState, actions

from .reading import HOME, MOVE, START, TRACK, Race


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
