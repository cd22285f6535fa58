"""Looot's procedures and their table: a turn is shields and Vikings (phase ``vikings``), the
gained tiles laid on the fjord (``tiles``), then a longship, a trophy and the pass (``end``).
Each move a player chooses is a typed question, answered by a parameter on the command line
(``tabletop run FILE viking --hex 3,-2``), by ``choices``, or by a bot."""

from __future__ import annotations

from typing import Any

from rules_assist.game import Parameter, ProcedureSpec, ProcedureTable
from rules_assist.procedures import ProcedureContext, ProcedureError
from rules_assist.questions import Question
from tabletop.core import Command, Compound, Move, TableState, actions, seat_of

from .card_view import (
    longship_word,
    shield_word,
    site_word,
    terrain_word,
    tile_word,
    tiles_words,
)
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
    seat_name,
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
        raise ProcedureError(f"it is {lo.name(seat)}'s turn, not {lo.name(seat_of(ctx.actor))}'s")
    if lo.phase != phase:
        raise ProcedureError(f"{lo.name(seat)} is in the {lo.phase} step of the turn, not {phase}")
    return lo


def tile_code(lo: Looot, pid: str) -> str:
    """A gained tile as the moves name it: 'sheep', or 'house from 0,1'."""
    piece = lo.state.pieces[pid]
    origin = piece.props.get("from")
    return f"{piece.kind} from {origin}" if origin else piece.kind


def _name(ctx: Any, seat: str) -> str:
    """A seat as players call it; ``ctx`` is a procedure's context or the table."""
    return seat_name(ctx.state if hasattr(ctx, "state") else ctx, seat)


def _ask_space(ctx: ProcedureContext, lo: Looot, seat: str, section: str) -> str:
    """The empty fjord space a tile or a longship goes on (LO-R6, LO-R13)."""
    return ctx.answer(
        Question.one_of(
            "space",
            f"{_name(ctx, seat)}: on which fjord space?",
            lo.free_spaces(seat),
            owner=seat,
            section=section,
        )
    )


# ---- shields and Vikings (DE:20-28, DE:40-44) ----------------------------------------------
def shield(ctx: ProcedureContext, game: Any) -> str:
    """LO-R15: turn an unused shield for the coming placement (PlayAgain: one more placement
    this turn, LO-R18)."""
    lo = _turn(ctx, game, VIKINGS)
    seat = lo.to_move
    offers = shield_offers(lo, seat)
    if not offers:
        raise ProcedureError(f"{lo.name(seat)} has no shield to use now (LO-R15)")
    name = ctx.answer(
        Question.one_of(
            "shield", f"{_name(ctx, seat)}: which shield?", offers, owner=seat, section="LO-R15"
        )
    )
    ctx.flip(f"shield-{seat}-{name}", False)
    if name == PLAY_AGAIN:
        ctx.set_counter("left", lo.placements_left + 1)
    else:
        ctx.set_counter("armed", ",".join((*lo.armed, name)))
    return f"{_name(ctx, seat)} turns the shield {shield_word(name)}"


def viking(ctx: ProcedureContext, game: Any) -> str:
    """LO-R1..R10: put a Viking on a hex, gain its resource (two with DoubleGain) and the
    buildings it captures."""
    lo = _turn(ctx, game, VIKINGS)
    seat = lo.to_move
    left = lo.vikings_left(seat)
    if not left:
        raise ProcedureError(f"{lo.name(seat)} has no Viking left (LO-R4)")
    spaces = viking_spaces(lo, seat)
    if not spaces:
        raise ProcedureError(f"{lo.name(seat)} has no hex to put a Viking on (LO-R3)")
    space = ctx.answer(
        Question.one_of(
            "hex",
            f"{_name(ctx, seat)}: put a Viking on which hex?",
            spaces,
            owner=seat,
            section="LO-R3",
        )
    )
    before = lo.groups(seat)
    ctx.move(left[-1], LANDSCAPE, spot=space)
    return _after_viking(ctx, game, seat, space, before)


def _after_viking(ctx: Any, game: Any, seat: str, space: str, before: list[set[str]]) -> str:
    """LO-R5, LO-R7..R10: what a Viking just put on ``space`` gains; the turn goes on."""
    lo = Looot(ctx.state, game)
    armed = lo.armed
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
    if capture.towers and dict(capture.towers) != lo.towers(seat):
        ctx.do(actions.set_place_property(ctx.state, fjord(seat), "towers", dict(capture.towers)))
    if dict(capture.castles) != lo.castles(seat):
        ctx.do(actions.set_place_property(ctx.state, fjord(seat), "castles", dict(capture.castles)))
    ctx.set_counter("armed", "")
    remaining = lo.placements_left - 1
    ctx.set_counter("left", remaining)
    if remaining <= 0 or not Looot(ctx.state, game).vikings_left(seat):
        _to_tiles(ctx, game)
    buildings = [
        f"{tile_word(ctx.state.pieces[p].kind)} from the stack at {o}" for p, o in capture.tiles
    ]
    where = f"the {terrain_word(resource)} at {space}"
    return f"{_name(ctx, seat)} puts a Viking on {where}: " + ", ".join(
        [tiles_words(got), *buildings]
    )


class _Scratch:
    """The steps of a procedure made on the table and taken back at once: what a move by
    hand brings with it (``complete_viking``)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.steps: list[Command] = []
        self.notes: list[str] = []
        self._mark = state.mark()

    def do(self, command: Command) -> Command:
        command.apply(self.state)
        self.steps.append(command)
        return command

    def move(self, pid: str, place: str, *, spot: str | None = None) -> Command:
        return self.do(actions.move(self.state, pid, place, spot=spot))

    def set_property(self, pid: str, key: str, value: Any) -> Command:
        return self.do(actions.set_property(self.state, pid, key, value))

    def set_counter(self, name: str, value: Any) -> Command:
        return self.do(actions.set_counter(self.state, name, value))

    def add(self, record: dict[str, Any], place: str, *, spot: str | None = None) -> Command:
        return self.do(actions.add_piece(self.state, record, place, spot=spot))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def take_back(self) -> None:
        for command in reversed(self.steps):
            command.inverse().apply(self.state)
        self.state.back_to(self._mark)


def complete_viking(state: TableState, command: Command, game: Any) -> Command:
    """A Viking put by hand from its owner's supply onto a legal hex, on its owner's turn:
    the command with what the ``viking`` procedure would gain (LO-R5, LO-R7..R10)."""
    moves = [c for c in _flat(command) if isinstance(c, Move)]
    if len(moves) != 1:
        return command
    (move,) = moves
    piece = state.pieces.get(move.piece)
    lo = Looot(state, game)
    if (
        piece is None
        or piece.kind != "viking"
        or move.src.place != f"vikings_{piece.owner}"
        or move.dst.place != LANDSCAPE
        or piece.owner != lo.to_move
        or lo.phase != VIKINGS
        or move.dst.spot not in viking_spaces(lo, piece.owner)
    ):
        return command
    before = lo.groups(piece.owner)
    scratch = _Scratch(state)
    try:
        scratch.do(command)
        label = _after_viking(scratch, game, piece.owner, move.dst.spot, before)
    finally:
        scratch.take_back()
    return Compound(label, tuple(scratch.steps), "looot.viking")


def complete_tile(state: TableState, command: Command, game: Any) -> Command:
    """A gained tile laid by hand on an empty space of its seat's fjord, on that seat's turn:
    the command with what the ``place`` procedure makes follow (LO-R6, LO-R11, LO-R12)."""
    moves = [c for c in _flat(command) if isinstance(c, Move)]
    if len(moves) != 1:
        return command
    (move,) = moves
    piece = state.pieces.get(move.piece)
    lo = Looot(state, game)
    seat = lo.to_move
    if (
        piece is None
        or lo.phase != TILES
        or move.src.place != gained(seat)
        or move.dst.place != fjord(seat)
        or move.dst.spot not in lo.free_spaces(seat)
    ):
        return command
    scratch = _Scratch(state)
    try:
        scratch.do(command)
        done = _complete(scratch, game, seat, move.dst.spot)
        _settle(scratch, game)
    finally:
        scratch.take_back()
    label = f"{_name(state, seat)} lays {tile_word(piece.kind)} on the fjord at {move.dst.spot}"
    return Compound(label + done, tuple(scratch.steps), "looot.place")


def _flat(command: Command) -> list[Command]:
    if isinstance(command, Compound):
        return [c for inner in command.commands for c in _flat(inner)]
    return [command]


def _gain_resource(ctx: Any, lo: Looot, seat: str, tile: str) -> None:
    pieces = ctx.state.pieces
    found = [p for p in ctx.state.place(SUPPLY).contents if pieces[p].kind == tile]
    if found:
        ctx.move(found[-1], gained(seat))
        return
    n = 1 + sum(1 for p in pieces if p.startswith(f"{tile}-"))
    ctx.add({"id": f"{tile}-{n}", "kind": tile}, gained(seat))
    ctx.note(f"the {tile} tiles ran out: one more is added (the supply has no limit)")


def _to_tiles(ctx: Any, game: Any) -> None:
    """The Vikings are placed: lay the gained tiles, or go on to the end of the turn."""
    ctx.set_counter("phase", TILES)
    _settle(ctx, game)


def _settle(ctx: Any, game: Any) -> None:
    """LO-R6: with no empty fjord space left, the tiles still to lay are out of the game (the
    German text is silent, D7); with ``surplus_stays`` (Game Park) they stay where they were:
    buildings on their stacks, resources in the supply. With none left to lay, the turn goes
    on to its end."""
    lo = Looot(ctx.state, game)
    seat = lo.to_move
    pending = lo.gained(seat)
    if pending and not lo.free_spaces(seat):
        stays = bool(lo.number("surplus_stays"))
        for pid in pending:
            origin = ctx.state.pieces[pid].props.get("from")
            if not stays:
                ctx.move(pid, DISCARD)
            elif origin:  # a building goes back on its stack, for anyone to capture
                ctx.move(pid, LANDSCAPE, spot=origin)
            else:
                ctx.move(pid, SUPPLY)
        where = "left where they were" if stays else "out of the game"
        ctx.note(f"no empty space on {_name(ctx, seat)}'s fjord: {len(pending)} tile(s) {where}")
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
        Question.one_of(
            "tile", f"{_name(ctx, seat)}: which tile to lay?", codes, owner=seat, section="LO-R6"
        )
    )
    space = _ask_space(ctx, lo, seat, "LO-R6")
    pid = next(p for p in pending if tile_code(lo, p) == code)
    ctx.move(pid, fjord(seat), spot=space)
    done = _complete(ctx, game, seat, space)
    _settle(ctx, game)
    kind = ctx.state.pieces[pid].kind
    return f"{_name(ctx, seat)} lays {tile_word(kind)} on the fjord at {space}" + done


def _complete(ctx: Any, game: Any, seat: str, space: str) -> str:
    lo = Looot(ctx.state, game)
    found = completions(lo, seat, space)
    for pid in found:
        ctx.set_property(pid, "complete", True)
    names = []
    for p in found:
        piece = ctx.state.pieces[p]
        if piece.kind == "longship":
            names.append(f"the {piece.props.get('type')} longship +{piece.props.get('bonus')}")
        else:
            names.append(site_word(piece.props))
    return f", completing {' and '.join(names)}" if names else ""


# ---- the end of the turn (DE:36, DE:48, DE:52) ---------------------------------------------
def longship(ctx: ProcedureContext, game: Any) -> str:
    """LO-R13: take one longship from the ocean onto an empty fjord space."""
    lo = _turn(ctx, game, END)
    seat = lo.to_move
    offers = longship_offers(lo, seat)
    if not offers:
        why = "took one this turn" if lo.longship_taken else "has no longship to take"
        raise ProcedureError(f"{lo.name(seat)} {why} (LO-R13)")
    names = [str(ctx.state.pieces[p].props["longship"]) for p in offers]
    name = ctx.answer(
        Question.one_of(
            "longship", f"{_name(ctx, seat)}: which longship?", names, owner=seat, section="LO-R13"
        )
    )
    space = _ask_space(ctx, lo, seat, "LO-R13")
    pid = f"longship-{name}"
    ctx.set_counter("longship", ctx.state.pieces[pid].spot)
    ctx.move(pid, fjord(seat), spot=space)
    done = _complete(ctx, game, seat, space)
    ship = longship_word(ctx.state.pieces[pid].props)
    return f"{_name(ctx, seat)} takes {ship} onto the fjord at {space}" + done


def trophy(ctx: ProcedureContext, game: Any) -> str:
    """LO-R19: claim one trophy, once a game, with at least its axes on the fjord."""
    lo = _turn(ctx, game, END)
    seat = lo.to_move
    offers = trophy_offers(lo, seat)
    if not offers:
        why = "holds a trophy" if lo.trophy_of(seat) is not None else "has too few axes"
        raise ProcedureError(f"{lo.name(seat)} {why}: no trophy to claim (LO-R19)")
    axes = ctx.answer(
        Question.one_of(
            "trophy",
            f"{_name(ctx, seat)}: which trophy (axes needed)?",
            offers,
            owner=seat,
            section="LO-R19",
        )
    )
    ctx.move(lo.trophies_left()[int(axes)], shields(seat), spot=TROPHY_SLOT)
    points = lo.data.trophies.get(int(axes))
    return f"{_name(ctx, seat)} claims the trophy for {axes} axes ({points} points)"


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
            ship = longship_word(ctx.state.pieces[bag[0]].props)
            ctx.note(f"{ship} comes out of the bag onto {emptied}")
        else:
            ctx.note(f"the bag is empty: {emptied} stays empty")
    following = next_seat(lo)
    for name, value in (("armed", ""), ("longship", ""), ("left", 1)):
        ctx.set_counter(name, value)
    if following is None:
        ctx.set_counter("phase", OVER)
        return f"{_name(ctx, seat)} passes; every Viking is placed: the game is over"
    ctx.set_counter("seat", following)
    ctx.set_counter("phase", VIKINGS)
    ctx.set_counter("turn", lo.turn + 1)
    return f"{_name(ctx, seat)} passes to {_name(ctx, following)}"


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
