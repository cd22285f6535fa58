"""The domestic animals phase (H), in player order: hay (H1), then milk and skyr (H2).

``feed_animals(ctx)`` goes through each culture's "D" cards left to right:

- H1 hay: one energy or one elder (any elder card, D3's terms) for each
  snowflake on the card (the deck's ``hay`` column), even when the card was
  raided; or the card is slaughtered: discarded for the disks of its Value
  (B3, energy within the woodpile limit of B4). A culture that cannot pay
  in full must slaughter.
- H2: a fed card that was not raided this turn (the piece property
  ``raided`` equal to the turn) brings its babies from Valhalla, the Alpha
  first when he is there; sheep bring ivory instead when the player says so.

A culture that pays hay with an elder of rank 3 and so holds more cards than
its hand size then discards down (B2, choice ``discard_<colour>``). The
beginners' game has no domestic animals phase (C2 skips H1 and H2): the
procedure refuses.

Choices, owned by the culture feeding: ``hay_<card>`` (the card's row id,
e.g. ``hay_cattle``), a payment of the hay from the culture's energy and
elders with 'slaughter' as the alternative: 'energy', 'elder:3' (or
'elder:2@yellow'), a comma-separated list or 'energy=2' for several
snowflakes (one unit given for several means that unit each time), or
'slaughter'; ``sheep_<colour>``: 'baby' or 'ivory'.
"""

from __future__ import annotations

from ..procedures import ProcedureContext, ProcedureError
from .choices import one_of
from .deck import Cards
from .hands import discard_excess
from .payments import (
    ask_payment,
    babies,
    d_cards,
    describe_gain,
    describe_payment,
    exchange,
    gain,
    pay_options,
    pay_units,
    row_id,
)
from .sequence import current_first, player_order, view_of
from .variants import advanced_off
from .view import Greenland


def is_sheep(view: Greenland, pid: str) -> bool:
    row = view.row(pid)
    return row.get("side") == "sheep" or str(row.get("name", "")).casefold() == "sheep"


def raided(view: Greenland, pid: str) -> bool:
    """Successfully livestock raided this turn (G1): the hunt marks the card."""
    turn = view.counter("turn", 1)
    return view.state.pieces[pid].props.get("raided") == turn


def feed_animals(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """H: every culture pays hay for its D cards or slaughters them, then gains their babies."""
    view = view_of(ctx.state, cards)
    if advanced_off(view, "H1") or advanced_off(view, "H2"):
        raise ProcedureError(
            "The beginners' game skips the domestic animals: no hay (H1), no babies (H2); C2"
        )
    turn = view.counter("turn", 1)
    if view.counter("animals.fed") == turn:
        raise ProcedureError(f"the domestic animals have been fed in turn {turn} (H)")
    for colour in player_order(view, current_first(view)):
        for pid in d_cards(view, colour):
            if _hay(ctx, view, colour, pid):
                _milk(ctx, view, colour, pid)
    ctx.set_counter("animals.fed", turn)
    discard_excess(ctx, view)  # B2: an elder of rank 3 paid as hay shrinks the hand
    return "Domestic animals"


def _hay(ctx: ProcedureContext, view: Greenland, colour: str, pid: str) -> bool:
    """H1: pay the card's hay or slaughter it; whether the card is still there."""
    name, card = view.name(pid), row_id(view, pid)
    hay = int(view.row(pid).get("hay") or 0)
    if not hay:
        return True
    _options, have = pay_options(view, colour)
    if sum(have.values()) < hay:
        answer: list[str] | str = "slaughter"
        why = f" ({colour} cannot pay {hay})"
    else:
        answer = ask_payment(
            ctx,
            f"hay_{card}",
            f"Hay (H1): {colour}'s {name} needs {hay} energy and/or elders, or is slaughtered",
            hay,
            have,
            colour,
            "H1",
            alternatives=("slaughter",),
        )
        why = ""
    if isinstance(answer, str):  # slaughtered (B3)
        gained = exchange(ctx, view, colour, pid)
        ctx.note(f"{colour} slaughters {name}{why}: gains {describe_gain(gained)}")
        return False
    units = answer
    paid = pay_units(ctx, view, colour, units)
    ctx.note(f"{colour} feeds {name} with {describe_payment(paid)}")
    return True


def _milk(ctx: ProcedureContext, view: Greenland, colour: str, pid: str) -> None:
    """H2: the card's babies, unless it was raided; sheep may give ivory instead."""
    name = view.name(pid)
    if raided(view, pid):
        ctx.note(f"{name} was raided this turn: no babies for {colour}")
        return
    count = int(view.row(pid).get("babies") or 0)
    if not count:
        return
    if is_sheep(view, pid):
        wool = one_of(
            ctx,
            f"sheep_{colour}",
            f"Sheep (H2): {colour} gains {count} baby or {count} ivory",
            ["baby", "ivory"],
            colour,
            "H2",
        )
        if wool == "ivory":
            got = gain(ctx, view, colour, "ivory", count)
            ctx.note(f"{colour}'s {name} gives {got} ivory")
            return
    born = babies(ctx, colour, count)
    short = f" (Valhalla had only {born})" if born < count else ""
    ctx.note(f"{colour}'s {name} gives {born} {'baby' if born == 1 else 'babies'}{short}")
