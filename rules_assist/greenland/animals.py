"""The domestic animals phase (H), in player order: hay (H1), then milk and skyr (H2).

``feed_animals(ctx)`` goes through each culture's "D" cards left to right:

- H1 hay: one energy or one elder (any elder card, D3's terms) for each
  snowflake on the card (the deck's ``hay`` column), even when the card was
  raided; or the card is slaughtered: discarded for the disks of its Value
  (B3, energy within the woodpile limit of B4). A culture that cannot pay
  in full must slaughter.
- H2: a fed card brings its babies from Valhalla, the Alpha first when he
  is there; sheep bring ivory instead when the player says so. A card
  livestock raided successfully this turn (the mark the raid roll leaves,
  raid.raider) brings them to the raider instead (G1): the raider's babies,
  or for sheep the raider's choice of babies or ivory; its owner still pays
  the hay (H1). A raided card the owner slaughters is discarded for nothing
  (B3: a card being livestock raided cannot be exchanged), and then there
  are no babies for anyone.

A culture that pays hay with an elder of rank 3 and so holds more cards than
its hand size then discards down (B2, choice ``discard_<colour>``). The
beginners' game has no domestic animals phase (C2 skips H1 and H2): the
procedure refuses.

Choices, owned by the culture feeding: ``hay_<card>`` (the card's row id,
e.g. ``hay_cattle``), a payment of the hay from the culture's energy and
elders with 'slaughter' as the alternative: 'energy', 'elder:3' (or
'elder:2@yellow'), a comma-separated list or 'energy=2' for several
snowflakes (one unit given for several means that unit each time), or
'slaughter'; ``sheep_<colour>``: 'baby' or 'ivory', asked of the culture that gains
them (the raider of a raided sheep card).
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
    remove_card,
    row_id,
)
from .raid import raider
from .sequence import current_first, player_order, view_of
from .variants import advanced_off
from .view import Greenland


def is_sheep(view: Greenland, pid: str) -> bool:
    row = view.row(pid)
    return row.get("side") == "sheep" or str(row.get("name", "")).casefold() == "sheep"


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
        thief = raider(view, pid)
        if thief is not None:  # B3: a card being livestock raided is not exchanged
            remove_card(ctx, view, pid)
            ctx.note(
                f"{colour} slaughters {name}{why}: gains nothing, the card was raided by"
                f" {thief} this turn (B3); no babies for {thief} (G1)"
            )
            return False
        gained = exchange(ctx, view, colour, pid)
        ctx.note(f"{colour} slaughters {name}{why}: gains {describe_gain(gained)}")
        return False
    units = answer
    paid = pay_units(ctx, view, colour, units)
    ctx.note(f"{colour} feeds {name} with {describe_payment(paid)}")
    return True


def _milk(ctx: ProcedureContext, view: Greenland, colour: str, pid: str) -> None:
    """H2: the card's babies; sheep may give ivory instead. A card raided this turn gives them
    to its raider (G1)."""
    name = view.name(pid)
    thief = raider(view, pid)
    gainer = thief or colour
    section = "G1" if thief else "H2"
    whose = f"{colour}'s {name}" + (f", raided by {thief} (G1)," if thief else "")
    count = int(view.row(pid).get("babies") or 0)
    if not count:
        if thief:
            ctx.note(f"{whose} gives no babies")
        return
    if is_sheep(view, pid):
        wool = one_of(
            ctx,
            f"sheep_{gainer}",
            f"Sheep ({section}): {gainer} gains {count} baby or {count} ivory from {colour}'s {name}",
            ["baby", "ivory"],
            gainer,
            section,
        )
        if wool == "ivory":
            got = gain(ctx, view, gainer, "ivory", count)
            ctx.note(f"{whose} gives {got} ivory" + (f" to {thief}" if thief else ""))
            return
    born = babies(ctx, gainer, count)
    short = f" (Valhalla had only {born})" if born < count else ""
    noun = "baby" if born == 1 else "babies"
    ctx.note(f"{whose} gives {born} {noun}" + (f" to {thief}" if thief else "") + short)
