"""Trades in the negotiation phase (F): two cultures exchange disks, hand cards and the D and I
cards of their tableaus, with the other's consent.

``trade(ctx, colour, other, give, take)`` is a procedure (procedure_table.py, ``tabletop
greenland trade FILE --seat red --with yellow --give iron --take "Slit Goggles" -o OUT``):

- ``colour`` proposes; ``give`` lists what it hands ``other``, ``take`` what it gets back.
  An item is a disk (``energy``, ``ivory``, ``iron``, or by colour ``orange``, ``white``,
  ``black``; ``iron=2`` for two) or a card by its name or row id: a card in the culture's
  hand, or a D or I card in its tableau (B2). Either list may be empty (a gift, a bribe to
  leave), not both.
- The other culture must agree: the yes/no question ``consent_<other>``, its own. A refusal
  stops the procedure and nothing changes.
- Refused, with one line naming F (or the rule concerned): outside the negotiation phase; in
  the solitaire or cooperative game, whose swap has its own limits (K); between cultures that
  do not meet (F: cubes on the same card, or cubes on a card of the other's tableau, its elder
  card included, as husbands, missionaries and raiders do); anything else (cubes, daughters,
  elder cards, trophies, tableau cards other than D and I cards); a card with cubes on it
  (its defenders or raiders would go with it); more disks than the giver holds; energy past the
  receiver's woodpile (B4).
- Cards go where they lay: a hand card into the other's hand, a tableau card into the other's
  tableau. A hand then over its size is discarded down at once (B2, ``discard_excess``).
- The label names disks and tableau cards, and counts hand cards without naming them ("1 hand
  card"): what a hand holds is for its owner to see.

Our readings of F: the exchange is made at once, both sides in one entry, and stands (what F
calls non-binding are the agreements about later turns, which the table does not record); a
trade needs no count limit and may be made more than once a phase; a card with cubes on it is
not traded, since the cubes lie on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..procedures import ProcedureContext, ProcedureError
from .choices import Asker
from .deck import Cards
from .hands import discard_excess, hand
from .hunt_roll import culture, listing
from .payments import DISKS, row_id
from .sequence import view_of
from .variants import cooperative
from .view import Greenland

DISK_COLOURS = {"orange": "energy", "white": "ivory", "black": "iron"}  # B: the disks' colours
TRADED_CARDS = ("D", "I")  # B2: the tableau cards F lets a culture exchange


def meeting(view: Greenland, a: str, b: str) -> str | None:
    """F: a card where the two cultures meet (cubes of both on it, or cubes of one on a card of
    the other's tableau or on its elder card), or None."""
    pieces, places = view.state.pieces, view.state.places
    for place in places.values():
        card = place.parent
        if card is None or not place.contents or card not in pieces:
            continue
        owners = {pieces[c].owner for c in place.contents if pieces[c].kind in ("cube", "alpha")}
        if not owners & {a, b}:
            continue
        row = view.row(card)
        holder = view.tableau_owner(card) or (
            row.get("colour") if row.get("type") == "elder" else None
        )
        if {a, b} <= owners or (a in owners and holder == b) or (b in owners and holder == a):
            return card
    return None


class Side(NamedTuple):
    """What one culture hands over in a trade."""

    disks: dict[str, int]  # kind: how many
    held: list[str]  # hand cards
    laid: list[str]  # D and I cards of its tableau

    def __bool__(self) -> bool:
        return bool(self.disks or self.held or self.laid)


def _find_card(view: Greenland, pids: Sequence[str], name: str) -> str | None:
    wanted = name.strip().casefold()
    for pid in pids:
        if wanted in (view.name(pid).casefold(), row_id(view, pid).casefold(), pid.casefold()):
            return pid
    return None


def _items(view: Greenland, giver: str, listed: Sequence[str] | None, what: str) -> Side:
    """What ``giver`` hands over, read from the items listed."""
    disks: dict[str, int] = {}
    held: list[str] = []
    laid: list[str] = []
    who = culture(giver)
    for raw in listed or ():
        item = str(raw).strip()
        if not item or item.casefold() == "none":
            continue
        word, sep, count = item.partition("=")
        kind = DISK_COLOURS.get(word.strip().casefold(), word.strip().casefold())
        if kind in DISKS:
            try:
                n = int(count) if sep else 1
            except ValueError:
                n = 0
            if n < 1:
                raise ProcedureError(f"{what} {item!r}: write a disk as KIND or KIND=N (F)")
            disks[kind] = disks.get(kind, 0) + n
            continue
        card = _find_card(view, hand(view, giver), item)
        if card is not None:
            if card in held:
                raise ProcedureError(f"{what}: {item!r} is named twice")
            held.append(card)
            continue
        card = _find_card(view, view.tableau(giver), item)
        if card is None:
            raise ProcedureError(
                f"{what} {item!r}: {who} has no such disk or card; a trade exchanges disks, hand"
                " cards and the D and I cards of a tableau (F)"
            )
        if view.row(card).get("hand") not in TRADED_CARDS:
            raise ProcedureError(
                f"{what}: {view.name(card)} is not a D or I card; only disks, hand cards and the"
                " D and I cards of a tableau are exchanged, never cubes or other cards (F)"
            )
        if view.state.places.get(card) is not None and view.state.places[card].contents:
            raise ProcedureError(
                f"{what}: {view.name(card)} has cubes on it (defenders or raiders, E5); it is"
                " not traded while they are there (F)"
            )
        if card in laid:
            raise ProcedureError(f"{what}: {view.name(card)} is named twice")
        laid.append(card)
    for kind, n in disks.items():
        has = view.disks(giver, kind)
        if n > has:
            raise ProcedureError(f"{what}: {who} holds {has} {kind}, not {n} (F)")
    return Side(disks, held, laid)


def _words(view: Greenland, side: Side, hidden: bool = True) -> str:
    """What one side gives: disks and tableau cards by name, hand cards counted (``hidden``,
    for the log) or named (for the culture asked to agree)."""
    parts = [f"{n} {kind}" for kind, n in side.disks.items()]
    if side.held and hidden:
        parts.append(f"{len(side.held)} hand card{'' if len(side.held) == 1 else 's'}")
    elif side.held:
        parts += [f"{view.name(card)} (hand)" for card in side.held]
    parts += [view.name(card) for card in side.laid]
    return listing(parts) if parts else "nothing"


def _hand_over(ctx: ProcedureContext, giver: str, receiver: str, side: Side) -> None:
    for kind, n in side.disks.items():
        for _ in range(n):
            ctx.move(ctx.state.places[f"{kind}_{giver}"].contents[-1], f"{kind}_{receiver}")
    for card in side.held:
        ctx.move(card, f"hand_{receiver}")
    for card in side.laid:
        ctx.move(card, f"tableau_{receiver}")


def trade(
    ctx: ProcedureContext,
    colour: str,
    other: str,
    give: Sequence[str] | None = None,
    take: Sequence[str] | None = None,
    cards: Cards | None = None,
) -> str:
    """F: ``colour`` hands ``other`` what ``give`` lists and gets what ``take`` lists, if
    ``other`` agrees (choice ``consent_<other>``)."""
    view = view_of(ctx.state, cards)
    phase = view.counter("phase", "event")
    if phase != "negotiation":
        raise ProcedureError(
            f"trades are made in the negotiation phase (F); the table is in the {phase} phase"
        )
    if cooperative(view):
        raise ProcedureError(
            "the solitaire or cooperative game exchanges by its own swap, one item each a turn"
            " (K: tabletop greenland swap)"
        )
    seats = view.seats()
    for who in (colour, other):
        if who not in seats:
            raise ProcedureError(f"{who} is not at the table (F)")
    if colour == other:
        raise ProcedureError("a trade is between two cultures (F)")
    a, b = culture(colour), culture(other)
    if meeting(view, colour, other) is None:
        raise ProcedureError(
            f"{a} and {b} do not meet: only cultures with cubes on the same card, or on a card"
            " of the other's tableau, negotiate (F)"
        )
    given = _items(view, colour, give, "--give")
    taken = _items(view, other, take, "--take")
    if not given and not taken:
        raise ProcedureError("a trade hands something over: name it with --give or --take (F)")
    for receiver, got, gone in ((other, given, taken), (colour, taken, given)):
        energy = view.disks(receiver, "energy") + got.disks.get("energy", 0)
        energy -= gone.disks.get("energy", 0)
        if energy > view.woodpile:
            raise ProcedureError(
                f"{culture(receiver)} would hold {energy} energy; the woodpile holds"
                f" {view.woodpile} (B4)"
            )
    offer = f"{a} gives {_words(view, given)} for {_words(view, taken)}"
    named = f"{a} gives {_words(view, given, False)} for {_words(view, taken, False)}"
    question = f"{b}: agree to the trade with {a} (F)? {named}"
    if not Asker(ctx, other, False).yes_no(f"consent_{other}", question, "F"):
        raise ProcedureError(f"{b} does not agree to the trade: a trade needs both (F)")
    _hand_over(ctx, colour, other, given)
    _hand_over(ctx, other, colour, taken)
    ctx.note(f"{b} agrees")
    discard_excess(ctx, view)  # B2: a hand over its size discards down at once
    return f"{a} and {b} trade: {offer} (F)"
