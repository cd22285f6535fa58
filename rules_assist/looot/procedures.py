"""Looot's procedures and their table: a turn is shields and Vikings (phase ``vikings``), the
gained tiles laid on the fjord (``tiles``), then a longship, a trophy and the pass (``end``).
Each move a player chooses is a typed question, answered by a parameter on the command line
(``tabletop run FILE viking --hex 3,-2``), by ``choices``, or by a bot."""

from __future__ import annotations

from typing import Any

from rules_assist.game import Parameter, ProcedureSpec, ProcedureTable
from rules_assist.procedures import ProcedureContext, ProcedureError
from rules_assist.questions import Question
from tabletop.core import actions, seat_of

from .reading import (
    DISCARD,
    END,
    LANDSCAPE,
    OVER,
    SUPPLY,
    TILES,
    TROPHY_SLOT,
    VIKINGS,
    Looot,
    fjord,
    gained,
    shields,
)
from .rules.legal import (
    DOUBLE_GAIN,
    PLAY_AGAIN,
    captures,
    completions,
    longship_offers,
    next_seat,
    shield_offers,
    trophy_offers,
    viking_spaces,
)


def _turn(ctx: ProcedureContext, game: Any, phase: str) -> Looot:
    """The reading, once the actor is the seat to move in ``phase``."""
    lo = Looot(ctx.state, game)
    seat = lo.to_move
    if seat_of(ctx.actor) not in (seat, game.id, "table"):
        raise ProcedureError(f"it is {seat}'s turn, not {ctx.actor}'s")
    if lo.phase != phase:
        raise ProcedureError(f"{seat} is in the {lo.phase} step of the turn, not {phase}")
    return lo


def tile_code(lo: Looot, pid: str) -> str:
    """A gained tile as the moves name it: 'sheep', or 'house from 0,1'."""
    piece = lo.state.pieces[pid]
    origin = piece.props.get("from")
    return f"{piece.kind} from {origin}" if origin else piece.kind


# ---- shields and Vikings (DE:20-28, DE:40-44) ----------------------------------------------
def shield(ctx: ProcedureContext, game: Any) -> str:
    """LO-R15: turn an unused shield for the coming placement (PlayAgain: one more placement
    this turn, LO-R18)."""
    lo = _turn(ctx, game, VIKINGS)
    seat = lo.to_move
    offers = shield_offers(lo, seat)
    if not offers:
        raise ProcedureError(f"{seat} has no shield to use now (LO-R15)")
    name = ctx.answer(
        Question.one_of("shield", f"{seat}: which shield?", offers, owner=seat, section="LO-R15")
    )
    ctx.flip(f"shield-{seat}-{name}", False)
    if name == PLAY_AGAIN:
        ctx.set_counter("left", lo.placements_left + 1)
    else:
        ctx.set_counter("armed", ",".join((*lo.armed, name)))
    return f"{seat} uses the shield {name}"


def viking(ctx: ProcedureContext, game: Any) -> str:
    """LO-R1..R10: put a Viking on a hex, gain its resource (two with DoubleGain) and the
    buildings it captures."""
    lo = _turn(ctx, game, VIKINGS)
    seat = lo.to_move
    left = lo.vikings_left(seat)
    if not left:
        raise ProcedureError(f"{seat} has no Viking left (LO-R4)")
    spaces = viking_spaces(lo, seat)
    if not spaces:
        raise ProcedureError(f"{seat} has no hex to put a Viking on (LO-R3)")
    space = ctx.answer(
        Question.one_of(
            "hex", f"{seat}: put a Viking on which hex?", spaces, owner=seat, section="LO-R3"
        )
    )
    before = lo.groups(seat)
    armed = lo.armed
    ctx.move(left[-1], LANDSCAPE, spot=space)
    lo = Looot(ctx.state, game)
    resource = lo.terrain[space]
    got = [resource] * (2 if DOUBLE_GAIN in armed else 1)
    for tile in got:
        _gain_resource(ctx, lo, seat, tile)
    capture = captures(lo, seat, space, before)
    for pid, origin in capture.tiles:
        ctx.move(pid, gained(seat))
        ctx.set_property(pid, "from", origin)
    if list(capture.pairs) != lo.pairs(seat):
        ctx.do(actions.set_place_property(ctx.state, fjord(seat), "pairs", list(capture.pairs)))
    if dict(capture.castles) != lo.castles(seat):
        ctx.do(actions.set_place_property(ctx.state, fjord(seat), "castles", dict(capture.castles)))
    ctx.set_counter("armed", "")
    remaining = lo.placements_left - 1
    ctx.set_counter("left", remaining)
    if remaining <= 0 or not Looot(ctx.state, game).vikings_left(seat):
        _to_tiles(ctx, game)
    buildings = [f"{ctx.state.pieces[p].kind} from {o}" for p, o in capture.tiles]
    return f"{seat} puts a Viking on {space}: " + ", ".join(got + buildings)


def _gain_resource(ctx: ProcedureContext, lo: Looot, seat: str, tile: str) -> None:
    pieces = ctx.state.pieces
    found = [p for p in ctx.state.place(SUPPLY).contents if pieces[p].kind == tile]
    if found:
        ctx.move(found[-1], gained(seat))
        return
    n = 1 + sum(1 for p in pieces if p.startswith(f"{tile}-"))
    ctx.add({"id": f"{tile}-{n}", "kind": tile}, gained(seat))
    ctx.note(f"the {tile} tiles ran out: one more is added (the supply has no limit)")


def _to_tiles(ctx: ProcedureContext, game: Any) -> None:
    """The Vikings are placed: lay the gained tiles, or go on to the end of the turn."""
    ctx.set_counter("phase", TILES)
    _settle(ctx, game)


def _settle(ctx: ProcedureContext, game: Any) -> None:
    """LO-R6: with no empty fjord space left, the tiles still to lay are out of the game (the
    German text is silent; Game Park discards them, D7). With none left to lay, the turn
    goes on to its end."""
    lo = Looot(ctx.state, game)
    seat = lo.to_move
    pending = lo.gained(seat)
    if pending and not lo.free_spaces(seat):
        for pid in pending:
            ctx.move(pid, DISCARD)
        ctx.note(f"no empty space on {seat}'s fjord: {len(pending)} tile(s) out of the game")
        pending = []
    if not pending:
        ctx.set_counter("phase", END)


# ---- the fjord (DE:20, DE:32, DE:36) --------------------------------------------------------
def place(ctx: ProcedureContext, game: Any) -> str:
    """LO-R6: lay one gained tile on an empty fjord space, for good; sites and longships it
    completes are turned (LO-R11, LO-R12)."""
    lo = _turn(ctx, game, TILES)
    seat = lo.to_move
    pending = lo.gained(seat)
    codes = list(dict.fromkeys(tile_code(lo, p) for p in pending))
    code = ctx.answer(
        Question.one_of("tile", f"{seat}: which tile to lay?", codes, owner=seat, section="LO-R6")
    )
    space = ctx.answer(
        Question.one_of(
            "space",
            f"{seat}: on which fjord space?",
            lo.free_spaces(seat),
            owner=seat,
            section="LO-R6",
        )
    )
    pid = next(p for p in pending if tile_code(lo, p) == code)
    ctx.move(pid, fjord(seat), spot=space)
    done = _complete(ctx, game, seat, space)
    _settle(ctx, game)
    return f"{seat} lays {code.split(' from ')[0]} on {space}" + done


def _complete(ctx: ProcedureContext, game: Any, seat: str, space: str) -> str:
    lo = Looot(ctx.state, game)
    found = completions(lo, seat, space)
    for pid in found:
        ctx.set_property(pid, "complete", True)
    names = [
        str(ctx.state.pieces[p].value or ctx.state.pieces[p].props.get("longship")) for p in found
    ]
    return f", completing {', '.join(names)}" if names else ""


# ---- the end of the turn (DE:36, DE:48, DE:52) ---------------------------------------------
def longship(ctx: ProcedureContext, game: Any) -> str:
    """LO-R13: take one longship from the ocean onto an empty fjord space."""
    lo = _turn(ctx, game, END)
    seat = lo.to_move
    offers = longship_offers(lo, seat)
    if not offers:
        why = "took one this turn" if lo.longship_taken else "has no longship to take"
        raise ProcedureError(f"{seat} {why} (LO-R13)")
    names = [str(ctx.state.pieces[p].props["longship"]) for p in offers]
    name = ctx.answer(
        Question.one_of("longship", f"{seat}: which longship?", names, owner=seat, section="LO-R13")
    )
    space = ctx.answer(
        Question.one_of(
            "space",
            f"{seat}: on which fjord space?",
            lo.free_spaces(seat),
            owner=seat,
            section="LO-R13",
        )
    )
    pid = f"longship-{name}"
    ctx.set_counter("longship", ctx.state.pieces[pid].spot)
    ctx.move(pid, fjord(seat), spot=space)
    done = _complete(ctx, game, seat, space)
    return f"{seat} takes the longship {name} onto {space}" + done


def trophy(ctx: ProcedureContext, game: Any) -> str:
    """LO-R19: claim one trophy, once a game, with at least its axes on the fjord."""
    lo = _turn(ctx, game, END)
    seat = lo.to_move
    offers = trophy_offers(lo, seat)
    if not offers:
        why = "holds a trophy" if lo.trophy_of(seat) is not None else "has too few axes"
        raise ProcedureError(f"{seat} {why}: no trophy to claim (LO-R19)")
    axes = ctx.answer(
        Question.one_of(
            "trophy", f"{seat}: which trophy (axes needed)?", offers, owner=seat, section="LO-R19"
        )
    )
    ctx.move(lo.trophies_left()[int(axes)], shields(seat), spot=TROPHY_SLOT)
    return f"{seat} claims the trophy for {axes} axes"


def pass_turn(ctx: ProcedureContext, game: Any) -> str:
    """LO-R14, LO-R20: refill the emptied ocean space from the bag; the next seat with a
    Viking left plays, or the game is over."""
    lo = _turn(ctx, game, END)
    seat = lo.to_move
    emptied = lo.longship_taken
    if emptied:
        bag = lo.bag()
        if bag:
            ctx.move(bag[0], LANDSCAPE, spot=emptied)
            ctx.flip(bag[0], True)
            ctx.note(f"longship {ctx.state.pieces[bag[0]].props['longship']} to {emptied}")
        else:
            ctx.note(f"the bag is empty: {emptied} stays empty")
    following = next_seat(lo)
    for name, value in (("armed", ""), ("longship", ""), ("left", 1)):
        ctx.set_counter(name, value)
    if following is None:
        ctx.set_counter("phase", OVER)
        return f"{seat} passes; every Viking is placed: the game is over"
    ctx.set_counter("seat", following)
    ctx.set_counter("phase", VIKINGS)
    ctx.set_counter("turn", lo.turn + 1)
    return f"{seat} passes to {following}"


PROCEDURES = ProcedureTable(
    [
        ProcedureSpec(
            "shield",
            shield,
            "LO-R15",
            (VIKINGS,),
            "use a shield for the coming Viking",
            (
                Parameter(
                    "shield", "PlayAgain, DoubleGain or PlaceOnOccupiedSpace", answers="shield"
                ),
            ),
            log_name="looot.shield",
            example="--shield DoubleGain",
        ),
        ProcedureSpec(
            "viking",
            viking,
            "LO-R3",
            (VIKINGS,),
            "put a Viking on a hex of the landscape",
            (Parameter("hex", "the hex, q,r", answers="hex", metavar="Q,R"),),
            log_name="looot.viking",
            example="--hex 3,-2",
        ),
        ProcedureSpec(
            "place",
            place,
            "LO-R6",
            (TILES,),
            "lay a gained tile on the fjord",
            (
                Parameter(
                    "tile", "wood, sheep, gold, axe, or a building 'house from Q,R'", answers="tile"
                ),
                Parameter("space", "the fjord space, col,row", answers="space", metavar="C,R"),
            ),
            log_name="looot.place",
            example="--tile sheep --space 0,2",
        ),
        ProcedureSpec(
            "longship",
            longship,
            "LO-R13",
            (END,),
            "take a longship onto the fjord",
            (
                Parameter("longship", "its number", answers="longship"),
                Parameter("space", "the fjord space, col,row", answers="space", metavar="C,R"),
            ),
            log_name="looot.longship",
            example="--longship 513 --space 1,4",
        ),
        ProcedureSpec(
            "trophy",
            trophy,
            "LO-R19",
            (END,),
            "claim a trophy",
            (Parameter("trophy", "the axes it needs, 2 to 6", answers="trophy"),),
            log_name="looot.trophy",
            example="--trophy 3",
        ),
        ProcedureSpec(
            "pass",
            pass_turn,
            "LO-R20",
            (END,),
            "end the turn",
            log_name="looot.pass",
        ),
    ]
)
