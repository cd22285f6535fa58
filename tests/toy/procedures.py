"""Race's procedures (R4, R5) and their table: what the command line, the phase panel and the
bots run."""

from __future__ import annotations

from rules_assist.game import ProcedureSpec, ProcedureTable
from rules_assist.procedures import ProcedureContext, ProcedureError
from rules_assist.questions import Question

from .reading import HOME, MOVE, OVER, ROLL, TRACK, Race


def roll(ctx: ProcedureContext, game: object) -> str:
    """R4: the die is rolled for the player whose turn it is."""
    race = Race(ctx.state, game)
    (pips,) = ctx.roll(1, "the move")
    ctx.set_counter("pips", pips)
    ctx.set_counter("phase", MOVE)
    return f"{race.to_move} rolls {pips}"


def advance(ctx: ProcedureContext, game: object) -> str:
    """R5: the player shares the pips among their cubes; a cube stops short of a full space."""
    race = Race(ctx.state, game)
    seat = race.to_move
    caps = [(c, race.left(c)) for c in race.cubes(seat) if race.left(c) > 0]
    total = min(race.pips, sum(cap for _, cap in caps))
    shares = ctx.answer(
        Question.split(
            "move",
            f"{seat}: share the {race.pips} pips among your cubes",
            total,
            caps,
            owner=seat,
            labels=tuple((c, f"{c} on {race.space(c)}") for c, _ in caps),
            section="R5",
        )
    )
    for cube, share in shares.items():
        target = race.ahead(cube, share)
        while race.crowded(target) and target != race.space(cube):
            target = race.ahead(cube, race.steps[target] - race.steps[race.space(cube)] - 1)
        if target != race.space(cube):
            ctx.move(cube, TRACK, spot=target)
            ctx.note(f"{cube} to {target}")
    ctx.set_counter("pips", 0)
    _next_turn(ctx, Race(ctx.state, game))
    return f"{seat} moves {total}"


def end_turn(ctx: ProcedureContext, game: object) -> str:
    """R5: after a cube moved by hand, the turn passes on."""
    race = Race(ctx.state, game)
    if race.pips:
        raise ProcedureError(f"{race.to_move} has {race.pips} pips to move first (R5)")
    _next_turn(ctx, race)
    return f"{race.to_move} ends the turn"


def _next_turn(ctx: ProcedureContext, race: Race) -> None:
    """The next player rolls (R1), or the game is over (R6)."""
    if race.finished():
        ctx.set_counter("phase", OVER)
        ctx.note(f"{race.finished()[0]} has every cube {HOME}")
        return
    seats = race.seats
    following = seats[(seats.index(race.to_move) + 1) % len(seats)]
    ctx.set_counter("seat", following)
    ctx.set_counter("phase", ROLL)
    ctx.set_counter("turn", race.turn + 1)


PROCEDURES = ProcedureTable(
    [
        ProcedureSpec("roll", roll, "R4", (ROLL,), "roll the die", log_name="toy.roll"),
        ProcedureSpec(
            "advance",
            advance,
            "R5",
            (MOVE,),
            "share the roll among your cubes",
            log_name="toy.advance",
            example="--choice move=cube-red-1=2,cube-red-2=1",
        ),
        ProcedureSpec(
            "end-turn", end_turn, "R5", (MOVE,), "pass the turn on", log_name="toy.end-turn"
        ),
    ]
)
