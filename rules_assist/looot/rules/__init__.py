"""Looot's rulebook: invariants any legal table keeps and transition rules about hand moves,
each by its rule id and the German text's line (DE:n). The move checker, ``tabletop check`` and
the conformance run all use them; the game's own procedures follow them by construction
(``legal``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from rules_assist.rules import Rulebook
from tabletop.core import Command, Compound, Finding, Move, Severity, TableState, actions

from ..layout import RESOURCES, SHIELDS
from ..reading import LANDSCAPE, Looot, fjord, shields
from . import legal

OCCUPIED = SHIELDS[2]


def _touched(lo: Looot, moves: Sequence[Move]) -> Iterator[str]:
    for move in moves:
        owner = lo.state.pieces[move.piece].owner
        if owner:
            yield owner
        for where in (move.src.place, move.dst.place):
            place = lo.state.places.get(where)
            if place is not None and place.owner:
                yield place.owner


RULES = Rulebook(
    reading=lambda state: state,  # the game gives its reading (``rulebook_for``)
    seats=lambda lo: lo.seats,
    seats_touched=_touched,
    off=lambda lo: lo.variant.rules_off,
)


@RULES.invariant(
    "LO-R1",
    "a Viking stands on a wood, sheep, gold or axe hex (DE:20)",
    per_seat=False,
    places=(LANDSCAPE,),
)
def vikings_on_resource_hexes(lo: Looot, seat: None) -> Iterator[Finding]:
    for space in sorted(lo.terrain):
        ids = lo.vikings_on(space)
        if ids and lo.terrain[space] not in RESOURCES:
            yield Finding(
                "LO-R1",
                f"{space} is {lo.terrain[space]}: a Viking goes on wood, sheep, gold or axe "
                "(DE:20)",
                pieces=tuple(ids),
            )


@RULES.invariant(
    "LO-R2",
    "a hex holds one Viking, two only by PlaceOnOccupiedSpace (DE:20, DE:43)",
    per_seat=False,
    places=(LANDSCAPE, "shields_"),
)
def one_viking_a_hex(lo: Looot, seat: None) -> Iterator[Finding]:
    used = sum(OCCUPIED in lo.shields_used(s) for s in lo.seats)
    crowded = [s for s in sorted(lo.terrain) if len(lo.vikings_on(s)) > 1]
    extra = sum(len(lo.vikings_on(s)) - 1 for s in crowded)
    if extra > used:
        yield Finding(
            "LO-R2",
            f"{', '.join(crowded)} hold(s) {extra} Viking(s) more than one a hex, and only "
            f"{used} PlaceOnOccupiedSpace shield(s) are used (DE:20, DE:43)",
            pieces=tuple(v for s in crowded for v in lo.vikings_on(s)),
        )


@RULES.invariant(
    "LO-R4",
    "a player's 13 Vikings are in the supply or on the map (DE:3, DE:52)",
    places=(LANDSCAPE, "vikings_"),
)
def thirteen_vikings(lo: Looot, seat: str) -> Iterator[Finding]:
    pieces = lo.state.pieces
    mine = [p for p, piece in pieces.items() if piece.kind == "viking" and piece.owner == seat]
    away = [p for p in mine if pieces[p].place not in (LANDSCAPE, f"vikings_{seat}")]
    if away:
        yield Finding(
            "LO-R4",
            f"{seat}'s Vikings are in the supply or on the landscape (DE:20)",
            pieces=tuple(away),
        )


@RULES.invariant(
    "LO-R6", "a fjord space holds one tile, longship or site (DE:20)", places=("fjord_",)
)
def one_tile_a_space(lo: Looot, seat: str) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    pieces = lo.state.pieces
    for pid in lo.state.place(fjord(seat)).contents:
        spot = pieces[pid].spot
        if spot in seen:
            yield Finding(
                "LO-R6",
                f"{seat}'s fjord space {spot} holds {seen[spot]} and {pid}",
                pieces=(seen[spot], pid),
            )
        seen[spot] = pid


@RULES.invariant(
    "LO-R19",
    "a player holds at most one trophy, with its axes (DE:48)",
    places=("shields_", "fjord_"),
)
def one_trophy(lo: Looot, seat: str) -> Iterator[Finding]:
    pieces = lo.state.pieces
    held = [p for p in lo.state.place(shields(seat)).contents if pieces[p].kind == "trophy"]
    if len(held) > 1:
        yield Finding(
            "LO-R19", f"{seat} holds {len(held)} trophies; one a game (DE:48)", pieces=tuple(held)
        )
    for pid in held:
        need = int(pieces[pid].props["axes"])
        if legal.axes(lo, seat) < need:
            yield Finding(
                "LO-R19",
                f"{seat} holds the trophy for {need} axes with {legal.axes(lo, seat)} (DE:48)",
                pieces=(pid,),
            )


def _turned(lo: Looot, pid: str, done: bool, rule: str, line: str) -> Iterator[Finding]:
    if lo.complete(pid) and not done:
        yield Finding(
            rule,
            f"{pid} is turned but the tiles around it do not hold its requirements ({line})",
            pieces=(pid,),
        )
    elif done and not lo.complete(pid):
        yield Finding(
            rule,
            f"{pid} has its requirements around it: turn it ({line})",
            Severity.WARNING,
            pieces=(pid,),
        )


@RULES.invariant(
    "LO-R11",
    "a site is turned exactly when the tiles around it hold its requirements (DE:32)",
    places=("fjord_",),
)
def sites_turned(lo: Looot, seat: str) -> Iterator[Finding]:
    for pid in lo.sites(seat):
        yield from _turned(lo, pid, legal.site_done(lo, seat, pid), "LO-R11", "DE:32")


@RULES.invariant(
    "LO-R12",
    "a longship is turned exactly when the resource tiles around it hold its three (DE:36)",
    places=("fjord_",),
)
def longships_turned(lo: Looot, seat: str) -> Iterator[Finding]:
    for pid in lo.longships(seat):
        yield from _turned(lo, pid, legal.longship_done(lo, seat, pid), "LO-R12", "DE:36")


@RULES.transition("LO-R6", "a tile laid on a fjord never moves again (DE:20)", places=("fjord_",))
def tiles_stay(lo: Looot, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    if move.src.place.startswith("fjord_") and (
        move.dst.place != move.src.place or move.dst.spot != move.src.spot
    ):
        yield Finding(
            "LO-R6",
            f"{move.piece} lies on {move.src.place} {move.src.spot}: once laid it is not moved "
            "again (DE:20)",
            pieces=(move.piece,),
        )


@RULES.transition("LO-R15", "a shield is used once a game (DE:40)", places=("shields_",))
def shields_once(lo: Looot, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    piece = lo.state.pieces[move.piece]
    if piece.kind == "shield" and move.dst.place != move.src.place:
        yield Finding(
            "LO-R15",
            f"{move.piece} stays with its owner, turned once used (DE:40)",
            pieces=(move.piece,),
        )


@RULES.transition(
    "LO-R3",
    "a Viking goes on a free resource hex next to a Viking or a "
    "longship, on its owner's turn (DE:20)",
    places=(LANDSCAPE,),
)
def viking_by_hand(lo: Looot, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    piece = lo.state.pieces[move.piece]
    if piece.kind != "viking" or move.dst.place != LANDSCAPE:
        return
    if move.src.place == LANDSCAPE:
        yield Finding(
            "LO-R3",
            f"{move.piece} stands on {move.src.spot}: Vikings stay where they are put (DE:20)",
            pieces=(move.piece,),
        )
        return
    seat = piece.owner
    if seat != lo.to_move or lo.phase != "vikings":
        yield Finding(
            "LO-R3", f"{move.piece}: it is {lo.to_move}'s {lo.phase} step", pieces=(move.piece,)
        )
        return
    allowed = legal.viking_spaces(lo, seat)
    if move.dst.spot not in allowed:
        yield Finding(
            "LO-R3",
            f"{move.dst.spot} is not free, not a resource hex or next to no Viking or longship; "
            f"{seat} may put a Viking on {', '.join(allowed) or 'no hex'} (DE:20)",
            pieces=(move.piece,),
        )


@RULES.transition(
    "LO-R13",
    "one longship a turn, at its end, onto an empty space of the taker's fjord (DE:36)",
    places=(LANDSCAPE, "fjord_"),
)
def longship_by_hand(lo: Looot, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    piece = lo.state.pieces[move.piece]
    if piece.kind != "longship" or move.src.place != LANDSCAPE:
        return
    seat = lo.to_move
    if move.dst.place != fjord(seat):
        yield Finding(
            "LO-R13",
            f"{move.piece} goes onto the fjord of {seat}, whose turn it is (DE:36)",
            pieces=(move.piece,),
        )
    elif lo.phase != "end" or lo.longship_taken:
        why = "took one this turn" if lo.longship_taken else "has tiles to lay or Vikings to place"
        yield Finding(
            "LO-R13",
            f"{seat} {why}: a longship is taken at the end of the turn, one a turn (DE:36)",
            pieces=(move.piece,),
        )
    elif move.dst.spot not in lo.free_spaces(seat):
        yield Finding(
            "LO-R13",
            f"{move.dst.spot} is not an empty space of {seat}'s fjord (DE:36)",
            pieces=(move.piece,),
        )


@RULES.transition(
    "LO-R19",
    "a trophy is claimed once a game, with enough axes, at the end of the turn (DE:48)",
    places=(LANDSCAPE,),
)
def trophy_by_hand(lo: Looot, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
    piece = lo.state.pieces[move.piece]
    if piece.kind != "trophy" or move.src.place != LANDSCAPE:
        return
    seat = lo.to_move
    axes = int(piece.props["axes"])
    if move.dst.place != shields(seat) or lo.phase != "end":
        yield Finding(
            "LO-R19",
            f"{move.piece} goes to {seat}, whose turn it is, at the end of the turn (DE:48)",
            pieces=(move.piece,),
        )
    elif axes not in legal.trophy_offers(lo, seat):
        yield Finding(
            "LO-R19",
            f"{seat} may claim {', '.join(map(str, legal.trophy_offers(lo, seat))) or 'no trophy'}: one a game, "
            f"with at least its axes ({legal.axes(lo, seat)} now) (DE:48)",
            pieces=(move.piece,),
        )


def rulebook_for(game: Any) -> Rulebook:
    """Looot's rulebook reading the table through ``game`` (its variant's readings)."""
    return replace(RULES, reading=lambda state: Looot(state, game))


# ---- what a hand move brings with it -------------------------------------------------------
def complete_move(state: TableState, command: Command, game: Any) -> Command:
    """A longship taken by hand from the ocean onto a fjord: the turn notes the emptied space
    (one a turn, refilled at the pass, LO-R13, LO-R14) and the longship is turned if the
    resource tiles around it already hold its three (LO-R12)."""
    lo = Looot(state, game)
    extra: list[Command] = []
    for move in RULES.moves_of(command):
        piece = state.pieces[move.piece]
        if (
            piece.kind == "longship"
            and move.src.place == LANDSCAPE
            and move.dst.place.startswith("fjord_")
            and move.dst.spot
        ):
            seat = move.dst.place.removeprefix("fjord_")
            extra.append(actions.set_counter(state, "longship", move.src.spot))
            have = legal.around(lo, seat, move.dst.spot, RESOURCES)
            if legal.contains(have, piece.props["needs"]):
                extra.append(actions.set_property(state, move.piece, "complete", True))
    if not extra:
        return command
    return Compound("take a longship by hand (LO-R13)", (command, *extra))
