"""The turn as it goes (A1): the phase moved on, a culture done with a phase, where the turn
stands.

- ``next_phase(ctx)``: the next phase, after the elder actions the next turn
  (A1), the game's end (J); the assignment phase begins by recording each
  culture's unassigned hunters and permanent cubes (E4,
  rules/assignment.py); the negotiation phase ends only when no war chief
  still must attack where the negotiations failed (A3); the hunt's end sends
  defenders home (E5, G4); entering the assignment phase records each
  culture's colonists, so the mariners used in the turn are remembered (E1,
  rules/transport.py).
- ``finish(ctx, colour)``: a culture has done what it does in this phase
  (A2, A3, A5: the next in order acts); in the assignment phase, once every
  culture but one has finished, where that one's hunters stand is recorded:
  a Sun Stone's reassignments are counted from there (E6).
- ``status(view)``: the turn, the phase, the order, whose move, what comes
  next, for people; ``whose_move`` (whose move and the line saying so, the
  attacks still owed), ``event_name`` and ``bans`` are its parts, which the
  turn flow (flow.py) reads too.

Who goes when is sequence.py's; the negotiation's reading is negotiation.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..procedures import ProcedureContext, ProcedureError
from .deck import Cards
from .negotiation import negotiation_reading, obligation_text, unmet
from .rules.assignment import SETTLED, START, assignment_start, settle
from .rules.transport import SETTLED as COLONISTS_SETTLED
from .rules.transport import settled_now
from .sequence import (
    ORDER_RULES,
    PHASE_NAMES,
    PHASES,
    current_first,
    following,
    game_ends,
    phase_order,
    view_of,
)
from .view import Greenland


def next_phase(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """Go on to the next phase; after the elder actions, to the next turn's event phase (A1).

    The negotiation phase ends only when no war chief still must attack where the
    negotiations failed (A3, ``negotiation.unmet``).
    """
    view = view_of(ctx.state, cards)
    if view.counter("game_over") is not None:
        raise ProcedureError("the game is over (J): count the victory points")
    turn = int(view.counter("turn", 1) or 1)
    phase = view.counter("phase", "event") or "event"
    if phase == "negotiation":
        owed = unmet(view)  # A3: the war chiefs attack where the negotiations failed
        if owed:
            raise ProcedureError(owed)
    if phase == "elders":
        ending = game_ends(view)
        if ending:
            ctx.set_counter("game_over", turn)
            ctx.note(f"{ending}: the game ends (J)")
            return f"End of turn {turn}"
    if phase == "hunt":
        defenders_home(ctx, view)
    new_turn, new_phase = following(turn, phase)
    if new_turn != turn:
        ctx.set_counter("turn", new_turn)
    ctx.set_counter("phase", new_phase)
    if new_phase == "assignment":
        # E4 judges a cube taken back on the count at the start; E1 counts the mariners
        # used this turn from here
        ctx.set_counter(START, assignment_start(view, new_turn))
        ctx.set_counter(COLONISTS_SETTLED, {"turn": new_turn, "colonists": settled_now(view)})
    if view.counter("phase.done"):
        ctx.set_counter("phase.done", None)
    if view.counter("hunt.done"):
        ctx.set_counter("hunt.done", None)
    name, section = PHASE_NAMES[new_phase]
    return f"Turn {new_turn}: {name} ({section})"


def defenders_home(ctx: ProcedureContext, view: Greenland) -> None:
    """The hunt is over: hunters still on a tableau card (defenders of a card no raider rolled
    on, E5) go home like every hunter (G4); husbands stay in the exogamy box."""
    state = ctx.state
    sent: list[str] = []
    for colour in view.seats():
        place = state.places.get(f"tableau_{colour}")
        for card in list(place.contents) if place else ():
            for cube in view.hunters_on(card):
                owner = state.pieces[cube].owner
                ctx.move(cube, f"hunters_{owner}")
                sent.append(owner)
    if sent:
        ctx.note(f"defenders go home ({', '.join(sorted(set(sent)))})")


def finish(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """A player has done what they do in this phase."""
    view = view_of(ctx.state, cards)
    if colour not in view.seats():
        raise ProcedureError(f"{colour} is not at the table")
    done = list(view.counter("phase.done") or [])
    if colour in done:
        raise ProcedureError(f"{colour} has already finished this phase")
    ctx.set_counter("phase.done", [*done, colour])
    if view.counter("phase") == "assignment":  # E6 counts the reassignments from here
        settled = settle(view, [*done, colour], int(view.counter("turn", 1) or 1))
        if settled is not None:
            ctx.set_counter(SETTLED, settled)
    return f"{colour} has finished the {view.counter('phase', 'event')} phase"


def status(view: Greenland) -> dict[str, Any]:
    """For a phase panel: the turn, the phase, the order, whose move, and what comes next."""
    counters = view.state.counters
    turn = int(counters.get("turn", 1) or 1)
    phase = counters.get("phase", "event") or "event"
    name, section = PHASE_NAMES.get(phase, (phase, ""))
    first = current_first(view)
    order = phase_order(view, phase, first)
    done = list(counters.get("phase.done") or ())
    whose, text, owing = whose_move(view, turn, phase, first, order, done)
    next_turn, next_phase_id = following(turn, phase)
    return {
        "turn": turn,
        "phase": phase,
        "phase_number": PHASES.index(phase) + 1 if phase in PHASES else None,
        "phase_name": name,
        "section": section,
        "first_player": first,
        "order": list(order),
        "order_rule": ORDER_RULES.get(phase, ""),
        "done": done,
        "whose_move": whose,
        "event": event_name(view, turn),
        "bans": bans(view, turn),
        "obligations": owing,
        "game_over": counters.get("game_over") is not None,
        "next": {"turn": next_turn, "phase": next_phase_id, "name": PHASE_NAMES[next_phase_id][0]},
        "text": text,
    }


def whose_move(
    view: Greenland,
    turn: int,
    phase: str,
    first: str | None,
    order: Sequence[str],
    done: Sequence[str],
    words: bool = True,
) -> tuple[str | None, str, list[str]]:
    """Whose move it is (None: nobody's, the phase may move on), the line saying what is to be
    done, and the attacks still owed where the negotiations failed (A3), for the turn's
    ``first`` player, the phase's ``order`` and the cultures ``done`` with the phase. Without
    ``words``, only whose move it is: the line is empty and the attacks owed are not listed."""
    counters = view.state.counters
    if counters.get("game_over") is not None:
        return None, "The game is over (J): count the victory points", []
    owing: list[str] = []
    owed_now: tuple[str, str] | None = None  # the first attack owed that may be made now
    if phase == "negotiation":
        found, ready = negotiation_reading(view)
        if found:
            if words:
                owing = [obligation_text(view, c, card) for c, card in found]
            owed_now = next((pair for pair in ready if pair in found), None)
    waiting = None  # the first in order not done with the phase
    for colour in order:
        if colour not in done:
            waiting = colour
            break
    if phase == "event" and counters.get("event.revealed") != turn:
        return first, "Reveal the event card (D)", owing
    if phase == "event" and counters.get("event.resolved") != turn:
        return (
            first,
            f"Apply the event's icons left to right, then its auction (D), {first} first"
            if words
            else "",
            owing,
        )
    if phase == "hunt" and waiting is not None:
        return waiting, f"{first} picks the next card to hunt (A4)" if words else "", owing
    if owed_now is not None and (owed_now[0] in done or waiting is None):
        # A3: one done still owes
        return owed_now[0], obligation_text(view, *owed_now) if words else "", owing
    if waiting is not None:
        return waiting, f"{waiting} to act ({ORDER_RULES[phase]})" if words else "", owing
    if not words:
        return None, "", owing
    next_turn, next_phase_id = following(turn, phase)
    next_name, next_section = PHASE_NAMES[next_phase_id]
    return None, f"Next: {next_name} ({next_section}), turn {next_turn}", owing


def event_name(view: Greenland, turn: int) -> str | None:
    """The event revealed this turn (D), if it has been."""
    if view.state.counters.get("event.revealed") != turn:
        return None
    current = view.state.places["event_current"].contents
    return view.name(current[-1]) if current else None


def bans(view: Greenland, turn: int) -> list[str]:
    """What the event forbids this turn (D7, D9)."""
    counters = view.state.counters
    found = []
    if counters.get("ban.maritime") == turn:
        found.append("no maritime hunting (D7)")
    if counters.get("ban.markland") == turn:
        found.append("no moving to or from Markland (D9)")
    return found
