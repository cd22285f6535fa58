"""Hands and exchanges: the hand size (B2), discarding down to it, exchanging cards for disks (B3).

- ``hand_size(view, colour)``: what the culture's daughters and imports grant
  ('hand_size +N' on cards in its tableau and on its wives, F1), plus one per
  rank-3 elder on its own elder card. 'hand_size +N D' grants room for D cards
  only, so the answer keeps the two apart: ``HandSize(general, d_only)``.
- ``discard_down(ctx, colour)``: a procedure; when the hand holds more than
  its size allows, the player names the cards to discard (choice
  ``discard_<colour>``: card names separated by commas). Discarded cards leave
  the game face up.
- ``exchange(ctx, colour, card)``: a procedure; a tableau card with a Value
  leaves the game for its disks, energy only up to the woodpile (B3, B4). A D
  card being livestock raided this turn cannot be exchanged (B3, E5).

On the command line: ``tabletop greenland discard FILE -o OUT --seat COLOUR
--choice discard_COLOUR=NAME,NAME`` and ``tabletop greenland exchange FILE -o
OUT --seat COLOUR --card NAME``.
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from ..procedures import ProcedureContext, ProcedureError
from .deck import Cards
from .payments import answer, describe_gain, remove_card, row_id, value_of
from .payments import exchange as exchange_card
from .scoring import being_raided
from .sequence import view_of
from .view import Greenland


class HandSize(NamedTuple):
    general: int  # room for any card
    d_only: int  # room for D cards only ('hand_size +N D')

    @property
    def total(self) -> int:
        return self.general + self.d_only


def hand_size(view: Greenland, colour: str) -> HandSize:
    """B2: daughters' and imports' grants (own tableau and wives) and one per rank-3 elder."""
    general = view.elders(colour, 3)
    d_only = 0
    for ability in view.abilities(colour):
        words = ability.split()
        if not words or words[0] != "hand_size" or len(words) < 2:
            continue
        try:
            n = int(words[1])
        except ValueError:
            continue
        if len(words) > 2 and words[2] == "D":
            d_only += n
        else:
            general += n
    return HandSize(general, d_only)


def hand(view: Greenland, colour: str) -> list[str]:
    place = view.state.places.get(f"hand_{colour}")
    return list(place.contents) if place else []


def _is_d(view: Greenland, pid: str) -> bool:
    return view.row(pid).get("hand") == "D"


def fits(view: Greenland, size: HandSize, cards: list[str]) -> bool:
    """The cards fit the hand: the non-D cards within the general room, all within the total."""
    others = sum(1 for pid in cards if not _is_d(view, pid))
    return others <= size.general and len(cards) <= size.total


def excess(view: Greenland, size: HandSize, cards: list[str]) -> int:
    """How many cards must go so that the rest fit."""
    others = sum(1 for pid in cards if not _is_d(view, pid))
    return max(0, len(cards) - size.total, others - size.general)


def _find(view: Greenland, pids: list[str], name: str) -> str | None:
    """A card among ``pids`` by its name or row id, without regard to case."""
    wanted = name.strip().casefold()
    for pid in pids:
        if wanted in (view.name(pid).casefold(), row_id(view, pid).casefold(), pid.casefold()):
            return pid
    return None


def discard_down(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """B2: discard hand cards until the hand fits its size (the player names them)."""
    view = view_of(ctx.state, cards)
    if colour not in view.seats():
        raise ProcedureError(f"{colour} is not at the table")
    size = hand_size(view, colour)
    held = hand(view, colour)
    must = excess(view, size, held)
    label = f"{colour} discards down to the hand size (B2)"
    room = f"hand size {size.general}" + (f" (+{size.d_only} for D cards)" if size.d_only else "")
    if not must:
        ctx.note(f"{len(held)} cards fit the {room}: nothing to discard")
        return label
    names = [view.name(pid) for pid in held]
    text = answer(
        ctx,
        f"discard_{colour}",
        f"{colour} holds {len(held)} cards, {room}: name {must} to discard, separated by commas",
        names,
    )
    chosen: list[str] = []
    left = list(held)
    for name in (part for part in text.split(",") if part.strip()):
        pid = _find(view, left, name)
        if pid is None:
            raise ProcedureError(
                f"discard_{colour}: {name.strip()!r} is not in {colour}'s hand"
                f" ({', '.join(view.name(p) for p in left) or 'nothing left'})"
            )
        left.remove(pid)
        chosen.append(pid)
    if len(chosen) != must:
        raise ProcedureError(
            f"discard_{colour}: {len(chosen)} cards named; {colour} must discard exactly {must} (B2)"
        )
    if not fits(view, size, left):
        raise ProcedureError(
            f"discard_{colour}: the cards kept do not fit the {room}: only D cards may use"
            " the D-only room (B2)"
        )
    for pid in chosen:
        remove_card(ctx, view, pid)
    ctx.note(f"discards {', '.join(view.name(pid) for pid in chosen)} ({room})")
    return label


def exchange(ctx: ProcedureContext, colour: str, card: str, cards: Cards | None = None) -> str:
    """B3: a tableau card with a Value leaves the game for its disks (energy up to 8, B4)."""
    view = view_of(ctx.state, cards)
    if colour not in view.seats():
        raise ProcedureError(f"{colour} is not at the table")
    tableau = view.tableau(colour)
    pid = _find(view, tableau, card)
    if pid is None:
        raise ProcedureError(
            f"{card!r} is not in {colour}'s tableau ({', '.join(view.name(p) for p in tableau)})"
        )
    name = view.name(pid)
    value = value_of(view, pid)
    if not value:
        raise ProcedureError(f"{name} shows no Value: it cannot be exchanged (B3)")
    if _is_d(view, pid) and being_raided(view, pid):
        raise ProcedureError(
            f"{name} is being livestock raided this turn: it cannot be exchanged (B3)"
        )
    gained = exchange_card(ctx, view, colour, pid)
    lost = value.get("energy", 0) - gained.get("energy", 0)
    ctx.note(
        f"gains {describe_gain(gained)}"
        + (f"; {lost} energy rots (woodpile of 8, B4)" if lost > 0 else "")
    )
    return f"{colour} exchanges {name} (B3)"


# ---- the command line ------------------------------------------------------------
def add_cli(procedures: Any) -> None:
    from .cli import common
    from .events import choice_argument

    p = procedures.add_parser("discard", help="discard hand cards down to the hand size (B2)")
    common(p)
    choice_argument(p)
    p.set_defaults(runner=_run_discard)
    p = procedures.add_parser("exchange", help="exchange a tableau card for its Value (B3)")
    common(p)
    choice_argument(p)
    p.add_argument("--card", required=True, help="the card's name")
    p.set_defaults(runner=_run_exchange)


def _seat(args: argparse.Namespace) -> str:
    if not args.seat:
        raise ProcedureError("--seat COLOUR: say whose hand or tableau it is")
    return args.seat


def _run_discard(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    return run_cli(game, args, discard_down, "discard", colour=_seat(args))


def _run_exchange(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    return run_cli(game, args, exchange, "exchange", colour=_seat(args), card=args.card)
