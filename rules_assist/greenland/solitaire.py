"""The solitaire or cooperative game's negotiation swap (K).

``solitaire_swap(ctx, give, take)``: in the negotiation phase of a solitaire
game (counter ``variant`` = 'solitaire'), one culture hands another one item
and gets one item back. ``give`` names the giver and its item, ``take`` the
other culture and its item, each as ``COLOUR:ITEM``. An item is

- a disk: ``energy``, ``ivory`` or ``iron``;
- a husband: ``husband:<daughter>`` (the daughter's name or row id);
- an "I" card in the culture's tableau or hand: its name or row id.

Population cubes and "D" cards are never swapped (K). Each culture gives at
most one item a turn (K: one from each culture); the counter
``solitaire.swaps`` = {"turn": n, "gave": [colours]} keeps count.

Our readings (K says only that the items are swapped):

- A husband is his marriage: the giver's husband cube comes home as an
  unassigned hunter and an unassigned hunter of the receiver becomes the
  daughter's husband ("cubes may be freely assigned as husbands"), so no
  population changes hands. The receiver needs an unassigned hunter, and
  cannot marry a daughter of its own tableau (F1).
- An "I" card goes where it lay: from a tableau into the receiver's tableau,
  from a hand into the receiver's hand, which must have room for it (B2).
- An energy disk is refused when the receiver already holds 8 (B4).
"""

from __future__ import annotations

from ..procedures import ProcedureContext, ProcedureError
from .deck import Cards
from .hands import fits, hand, hand_size
from .payments import DISKS, row_id
from .sequence import view_of
from .variants import cooperative
from .view import COLOURS, Greenland

SWAPS = "solitaire.swaps"  # counter: {"turn": n, "gave": [colours]}


def _find(view: Greenland, pids: list[str], name: str) -> str | None:
    wanted = name.strip().casefold()
    for pid in pids:
        if wanted in (view.name(pid).casefold(), row_id(view, pid).casefold(), pid.casefold()):
            return pid
    return None


def _item(view: Greenland, text: str, what: str) -> tuple[str, str, str]:
    """``COLOUR:ITEM`` read as (colour, kind, thing): kind disk, husband or card."""
    colour, sep, item = text.partition(":")
    colour, item = colour.strip(), item.strip()
    if not sep or colour not in COLOURS or not item:
        raise ProcedureError(f"{what} {text!r}: write COLOUR:ITEM, e.g. red:iron (K)")
    if colour not in view.seats():
        raise ProcedureError(f"{what}: {colour} is not at the table")
    if item in DISKS:
        if not view.disks(colour, item):
            raise ProcedureError(f"{what}: {colour} has no {item} to swap (K)")
        return colour, "disk", item
    if item.startswith("husband:"):
        name = item.removeprefix("husband:")
        daughters = [
            pid
            for pid in view.state.pieces
            if view.row(pid).get("type") == "daughter" and pid in view.state.places
        ]
        daughter = _find(view, daughters, name)
        if daughter is None:
            raise ProcedureError(f"{what}: there is no daughter {name!r}")
        husband = view.husband(daughter)
        if husband is None or view.state.pieces[husband].owner != colour:
            raise ProcedureError(
                f"{what}: {colour} has no husband on {view.name(daughter)} to swap (K)"
            )
        return colour, "husband", daughter
    card = _find(view, [*view.tableau(colour), *hand(view, colour)], item)
    if card is None:
        raise ProcedureError(
            f"{what}: {item!r} is not a disk, a husband:<daughter> or a card {colour} holds;"
            " K swaps one disk, husband or I card"
        )
    if view.row(card).get("hand") != "I":
        raise ProcedureError(
            f"{what}: {view.name(card)} is not an I card: no population or D cards are swapped (K)"
        )
    return colour, "card", card


def _check_receive(view: Greenland, receiver: str, kind: str, thing: str) -> None:
    if kind == "disk" and thing == "energy" and view.disks(receiver, "energy") >= view.woodpile:
        raise ProcedureError(f"{receiver} holds {view.woodpile} energy already (B4: woodpile rot)")
    if kind == "husband":
        if view.tableau_owner(thing) == receiver:
            raise ProcedureError(
                f"{view.name(thing)} is in {receiver}'s own tableau: a husband marries a"
                " foreign bride (F1)"
            )
        if not view.unassigned(receiver):
            raise ProcedureError(
                f"{receiver} has no unassigned hunter to become {view.name(thing)}'s husband (K)"
            )
    if (
        kind == "card"
        and view.card_place(thing).startswith("hand_")
        and not fits(view, hand_size(view, receiver), [*hand(view, receiver), thing])
    ):
        raise ProcedureError(f"{receiver}'s hand has no room for {view.name(thing)} (B2)")


def _hand_over(
    ctx: ProcedureContext, view: Greenland, giver: str, receiver: str, kind: str, thing: str
) -> str:
    if kind == "disk":
        ctx.move(ctx.state.places[f"{thing}_{giver}"].contents[-1], f"{thing}_{receiver}")
        return f"an {thing}" if thing[0] in "aeiou" else f"a {thing}"
    if kind == "husband":
        husband = view.husband(thing)
        ctx.move(husband, f"hunters_{giver}")
        ctx.move(view.unassigned(receiver)[0], thing, spot="exogamy")
        return f"the husband on {view.name(thing)}"
    where = view.card_place(thing).rpartition("_")[0]  # tableau or hand
    ctx.move(thing, f"{where}_{receiver}")
    return f"{view.name(thing)} ({where})"


def solitaire_swap(ctx: ProcedureContext, give: str, take: str, cards: Cards | None = None) -> str:
    """K: one culture's disk, husband or I card for another culture's, once a turn each."""
    view = view_of(ctx.state, cards)
    if not cooperative(view):
        raise ProcedureError("swapping is a rule of the solitaire or cooperative game (K)")
    phase = view.counter("phase", "event")
    if phase != "negotiation":
        raise ProcedureError(
            f"swaps are made in the negotiation phase (K); the table is in the {phase} phase"
        )
    a, a_kind, a_thing = _item(view, give, "give")
    b, b_kind, b_thing = _item(view, take, "take")
    if a == b:
        raise ProcedureError("a swap is between two cultures (K)")
    turn = view.counter("turn", 1)
    record = view.counter(SWAPS) or {}
    gave = list(record.get("gave", [])) if record.get("turn") == turn else []
    for colour in (a, b):
        if colour in gave:
            raise ProcedureError(f"{colour} has swapped an item this turn: one each turn (K)")
    _check_receive(view, b, a_kind, a_thing)
    _check_receive(view, a, b_kind, b_thing)
    given = _hand_over(ctx, view, a, b, a_kind, a_thing)
    got = _hand_over(ctx, view, b, a, b_kind, b_thing)
    ctx.set_counter(SWAPS, {"turn": turn, "gave": [*gave, a, b]})
    ctx.note(f"{a} gives {given} to {b} for {got} (K)")
    return f"Swap between {a} and {b} (K)"
