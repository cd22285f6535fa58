"""Livestock and Sabine raids (G1): raiders on a D or daughter card in another culture's tableau.

The raiders make a Hunt Roll (rules_assist/greenland/hunt_roll.py) with the
card's raid faces: any of them succeeds if a raider survives, and each 3 kills
a raider. A livestock raid marks the card ``raided`` ({"by": colour, "turn":
turn}) so that its babies go to the raider in H2 (``raider``); a Sabine raid
marries a surviving raider to the daughter (F1), killing her husband.
"""

from __future__ import annotations

from rules_assist.procedures import ProcedureError

from .hunt_roll import Hunting, Outcome, culture, listing
from .variants import refuse_if_off
from .view import Greenland


def defenders(view: Greenland, card: str) -> set[str]:
    """E5: a tableau card's owner, and for a daughter her husband's culture."""
    owner = view.tableau_owner(card)
    found = {owner} if owner else set()
    husband = view.husband(card)
    if husband is not None and view.state.pieces[husband].owner:
        found.add(view.state.pieces[husband].owner)
    return found


def raider(view: Greenland, pid: str) -> str | None:
    """The culture that livestock raided the card successfully this turn (G1), else None: the
    mark ``raid_result`` leaves on the card."""
    mark = view.state.pieces[pid].props.get("raided")
    if isinstance(mark, dict) and mark.get("turn") == view.counter("turn", 1):
        by = mark.get("by")
        return str(by) if by else None
    return None


def being_raided(view: Greenland, pid: str) -> bool:
    """A tableau card livestock raided this turn, or with raiders on it now (E5, B3)."""
    if raider(view, pid) is not None:
        return True
    owner = view.tableau_owner(pid)
    return any(view.state.pieces[c].owner != owner for c in view.hunters_on(pid))


def check_raid(h: Hunting) -> None:
    """Only raiders roll, and only D cards (not 'no raid') and daughters are raided (E5).

    The beginners' game has no raids (C2 skips G1).
    """
    refuse_if_off(h.view, "G1")
    if h.colour in defenders(h.view, h.card):
        raise ProcedureError(f"{h.who}'s cubes on {h.name} defend it: only raiders roll (G1)")
    kind = h.row.get("type")
    if kind == "daughter":
        return
    if kind == "norse_animal" or h.row.get("hand") == "D":
        if "no_raid" in (h.row.get("abilities") or []):
            raise ProcedureError(f"{h.name} cannot be livestock raided (E5)")
        return
    raise ProcedureError(f"{h.name} cannot be raided: only D cards and daughters can (E5)")


def raid_result(h: Hunting, outcome: Outcome, dead: list[str]) -> None:
    """G1: the raid's effect; the raiders go home, and when no raider is left, the defenders."""
    state = h.view.state
    survivors = [c for c in h.cubes if c not in dead]
    succeeded = bool(outcome.hits and survivors)
    if not succeeded:
        why = "no raider survives" if outcome.hits else "no raid face"
        h.note(f"the raid fails ({why}, G1)")
    elif h.row.get("type") == "daughter":
        groom = next((c for c in survivors if c != h.alpha), survivors[0])
        old = h.view.husband(h.card)
        text = f"the raid succeeds: a raider marries {h.name} (G1, F1)"
        if old is not None:
            owner = state.pieces[old].owner
            h.ctx.move(old, f"valhalla_{owner}")
            text += f"; {culture(owner)}'s husband is killed"
        h.ctx.move(groom, h.card, spot="exogamy")
        h.note(text)
    else:
        turn = h.view.counter("turn")
        h.ctx.set_property(h.card, "raided", {"by": h.colour, "turn": turn})
        h.note(f"the raid succeeds: {h.who} takes {h.name}'s babies this turn (G1, H2)")
    for cube in h.view.hunters_on(h.card, h.colour):
        h.home(cube)
    guard = defenders(h.view, h.card)
    others = [c for c in h.view.hunters_on(h.card) if state.pieces[c].owner not in guard]
    if succeeded and others:  # the first success takes all (G4)
        colours = sorted({state.pieces[c].owner for c in others})
        for cube in others:
            h.home(cube)
        h.note(f"{listing([culture(c) for c in colours])} go home unsuccessful (G4)")
        others = []
    if not others:
        staying = h.view.hunters_on(h.card)
        for cube in staying:
            h.home(cube)
        if staying:
            h.note("the defenders go home (F2)")
