"""Hunter assignment as procedures (E): a hunter placed on a card, a hunter promoted to elder.

The window assigns hunters by hand: a cube dragged from the unassigned hunters
onto a card's hunting area or onto a rank of its culture's elder card (the
promotion's energy paid in the same entry, assignment.complete_move). These
procedures make the same moves from the command line and judge them by the
same rules: each move is completed as the window completes it and checked by
Greenland's rulebook (rules/, its transition rules and the invariants it would
newly break) before it is made; a move the checker would refuse in strict mode
is refused here, with the rule's section and its message, and nothing changes.
A house rule switched off in the table's policy (per rule or section) is left
out, as the window leaves it out.

- ``assign(ctx, colour, card, count=1, cube=None)``: ``count`` unassigned hunters
  of ``colour`` (small cubes first, the Alpha last; or the one ``cube`` names)
  go to the hunting area of ``card``: a biome in a row, a New World card
  (colonists, E2) or another culture's tableau card (a raid, E5).
- ``promote(ctx, colour, rank, cube=None)``: an unassigned hunter becomes an
  elder of ``rank`` (1 to 6) on the culture's own elder card, paying one energy
  (E3) unless a card makes promotion free.
"""

from __future__ import annotations

from tabletop.core import Command, Compound, Mode, Policy, Severity, actions

from ..procedures import ProcedureContext, ProcedureError
from .assignment import complete_move
from .deck import Cards
from .hunt_roll import culture
from .rules import rulebook_for
from .sequence import view_of
from .view import Greenland

RANKS = tuple(str(n) for n in range(1, 7))


def _hunters(view: Greenland, colour: str, cube: str | None, count: int) -> list[str]:
    """The unassigned hunters that go: the one named, else small cubes first, the Alpha last."""
    waiting = view.unassigned(colour)
    if cube is not None:
        if cube not in waiting:
            raise ProcedureError(f"{cube} is not one of {culture(colour)}'s unassigned hunters (E)")
        if count != 1:
            raise ProcedureError("--cube names one hunter: leave --count out")
        return [cube]
    if count < 1:
        raise ProcedureError(f"--count {count}: place one hunter or more")
    ordered = sorted(waiting, key=lambda c: view.state.pieces[c].kind == "alpha")
    if len(ordered) < count:
        raise ProcedureError(
            f"{culture(colour)} has {len(ordered)} unassigned hunters, not {count} (E)"
        )
    return ordered[:count]


def _checked(ctx: ProcedureContext, view: Greenland, colour: str, command: Command) -> None:
    """Make a hand move as the window makes it: completed by the rules, refused with the
    checker's findings where strict mode refuses, else applied step by step."""
    command = complete_move(ctx.state, command, view.cards.module)
    findings = rulebook_for(view.cards).check(ctx.state, command, colour)
    strict = Policy(Mode.STRICT, dict(ctx.table.policy.per_rule))
    refusing = [f for f in strict.blocking(strict.kept(findings)) if f.severity is Severity.ILLEGAL]
    if refusing:
        raise ProcedureError("; ".join(f"{f.rule}: {f.message}" for f in refusing))
    for step in command.commands if isinstance(command, Compound) else (command,):
        ctx.do(step)


def assign(
    ctx: ProcedureContext,
    colour: str,
    card: str,
    count: int = 1,
    cube: str | None = None,
    cards: Cards | None = None,
) -> str:
    """E: hunters of ``colour`` onto a card's hunting area, each move checked as a hand move."""
    view = view_of(ctx.state, cards)
    state = ctx.state
    if (
        card not in state.pieces
        or card not in state.places
        or "hunters" not in (state.places[card].spots)
    ):
        raise ProcedureError(f"{view.name(card)} has no hunting area to assign hunters to (E)")
    name = view.name(card)
    going = _hunters(view, colour, cube, count)
    for hunter in going:
        _checked(ctx, view, colour, actions.move(state, hunter, card, spot="hunters"))
    alpha = any(state.pieces[c].kind == "alpha" for c in going)
    whom = f"{len(going)} hunter{'' if len(going) == 1 else 's'}"
    return f"{culture(colour)} assigns {whom}{' (the Alpha among them)' if alpha else ''} to {name} (E)"


def promote(
    ctx: ProcedureContext,
    colour: str,
    rank: str,
    cube: str | None = None,
    cards: Cards | None = None,
) -> str:
    """E3: an unassigned hunter of ``colour`` becomes an elder of ``rank``, paying its energy."""
    view = view_of(ctx.state, cards)
    rank = str(rank).removeprefix("rank")
    if rank not in RANKS:
        raise ProcedureError(f"--rank {rank!r}: an elder card has ranks 1 to 6 (E3)")
    if f"elder-{colour}" not in ctx.state.places:
        raise ProcedureError(f"{culture(colour)} has no elder card (E3)")
    (hunter,) = _hunters(view, colour, cube, 1)
    energy = view.disks(colour, "energy")
    _checked(
        ctx, view, colour, actions.move(ctx.state, hunter, f"elder-{colour}", spot=f"rank{rank}")
    )
    paid = view.disks(colour, "energy") < energy
    return (
        f"{culture(colour)} promotes a hunter to rank {rank}"
        + (", paying 1 energy" if paid else "")
        + " (E3)"
    )
