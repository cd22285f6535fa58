"""Race's setup (R1): the die in its tray, each player's cubes on the start, the first to roll."""

from __future__ import annotations

from tabletop.core import Command, Compound, actions
from tabletop.modules import SetupContext
from tabletop.modules.rules import game_of

from .reading import ROLL, START, TRACK


def setup(context: SetupContext) -> None:
    game = game_of(context.module)
    variant = game.variants[context.variant or "standard"]
    steps: list[Command] = []
    for seat in context.seats:  # one after another on the track (``index``: none is there yet)
        for n in range(game.number(variant, "cubes")):
            steps += context.piece_commands(
                "cube",
                f"cube-{seat.id}-{n + 1}",
                TRACK,
                spot=START,
                owner=seat.id,
                index=len(steps),
            )
    steps += context.piece_commands("d6", "die", "tray")
    context.submit(Compound("the die in its tray, the cubes on the start", tuple(steps)))
    for name, value in (("variant", variant.id), ("seat", context.seats[0].id), ("phase", ROLL)):
        context.submit(actions.set_counter(context.state, name, value))
    context.submit(actions.set_counter(context.state, "turn", 1))
