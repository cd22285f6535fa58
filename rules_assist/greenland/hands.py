"""Hands and exchanges: the hand size (B2), discarding down to it, exchanging cards for disks (B3).

- ``hand_size(view, colour)``: what the culture's daughters and imports grant
  ('hand_size +N' on cards in its tableau and on its wives, F1), plus one per
  rank-3 elder on its own elder card. 'hand_size +N D' grants room for D cards
  only, so the answer keeps the two apart: ``HandSize(general, d_only)``.
- ``discard_down(ctx, colour)``: a procedure; when the hand holds more than
  its size allows, the player chooses the cards to discard: choice
  ``discard_<colour>``, a subset of exactly that many of the hand's cards (its
  options are the cards' piece ids, labelled with their names; an answer may
  name them by name too, separated by commas). Discarded cards leave the game
  face up.
- ``discard_excess(ctx, view)``: the same at the end of every procedure that
  can fill a hand or shrink a hand size (B2: at once): the hunt (G6, and a
  wife or an elder of rank 3 lost), the events that kill elders (D2, D3, D5),
  the elder actions that kill (I2, I3), the hay paid with an elder (H1), and
  attacks and divorces (F, F2). Each culture whose hand no longer fits is
  asked ``discard_<colour>``.
- ``discard_answer(cards, question)``: an answer to that question, for the bots.
- ``exchange(ctx, colour, card)``: a procedure; a tableau card with a Value
  leaves the game for its disks, energy only up to the woodpile (B3, B4). A D
  card being livestock raided this turn cannot be exchanged (B3, E5).

On the command line (procedure_table.py): ``tabletop greenland discard FILE -o
OUT --seat COLOUR --choice discard_COLOUR=NAME,NAME`` and ``tabletop greenland
exchange FILE -o OUT --seat COLOUR --card NAME``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from ..procedures import ProcedureContext, ProcedureError
from ..questions import Question
from .deck import Cards
from .payments import describe_gain, remove_card, row_id, value_of
from .payments import exchange as exchange_card
from .raid import being_raided
from .sequence import current_first, player_order, view_of
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
    label = f"{colour} discards down to the hand size (B2)"
    if not _discard(ctx, view, colour, f"discard_{colour}"):
        size = hand_size(view, colour)
        ctx.note(f"{len(hand(view, colour))} cards fit the {_room(size)}: nothing to discard")
    return label


def discard_excess(ctx: ProcedureContext, view: Greenland) -> None:
    """B2 at the end of a procedure: every culture whose hand no longer fits discards down at once.

    A procedure that can put a card into a hand or lower a hand size (an elder
    of rank 3, a wife or an import lost) calls this last. Each culture over its
    size, in player order, is asked ``discard_<colour>``; when one procedure
    asks a culture again (an event's icons one after another), the key gets
    ``_2``, ``_3``.
    """
    places = view.state.places
    for c in view.seats():
        place = places.get(f"hand_{c}")
        if place is not None and place.contents:
            break
    else:
        return  # no hand holds a card: nothing can be over its size
    asked: Counter[str] = ctx.__dict__.setdefault("_greenland_discards", Counter())
    for colour in player_order(view, current_first(view)):
        held = hand(view, colour)
        if not held or not excess(view, hand_size(view, colour), held):
            continue
        n = asked[colour] + 1
        _discard(ctx, view, colour, f"discard_{colour}" + (f"_{n}" if n > 1 else ""))
        asked[colour] = n


def _room(size: HandSize) -> str:
    return f"hand size {size.general}" + (f" (+{size.d_only} for D cards)" if size.d_only else "")


def _discard(ctx: ProcedureContext, view: Greenland, colour: str, key: str) -> list[str]:
    """Ask ``key`` for the cards to discard (a subset of the hand), check them, discard them;
    the cards discarded."""
    size = hand_size(view, colour)
    held = hand(view, colour)
    must = excess(view, size, held)
    room = _room(size)
    if not must:
        return []
    question = Question.subset(
        key,
        f"{colour} holds {len(held)} cards, {room}: name {must} to discard (B2)",
        held,
        count=must,
        owner=colour,
        labels=tuple((pid, view.name(pid)) for pid in held),
        section="B2",
    )
    if key in ctx.choices:  # the cards may be named by name or row id as well as piece id
        ctx.choices[key] = _card_ids(view, held, ctx.choices[key], key, colour, must)
    chosen = list(ctx.answer(question))
    left = [pid for pid in held if pid not in chosen]
    if not fits(view, size, left):
        raise ProcedureError(
            f"{key}: the cards kept do not fit the {room}: only D cards may use"
            " the D-only room (B2)"
        )
    for pid in chosen:
        remove_card(ctx, view, pid)
    ctx.note(f"{colour} discards {', '.join(view.name(pid) for pid in chosen)} ({room}, B2)")
    return chosen


def _card_ids(
    view: Greenland, held: list[str], given: Any, key: str, colour: str, must: int
) -> tuple[str, ...]:
    """The cards an answer names (by piece id, row id or name, any case), as piece ids."""
    items = given if isinstance(given, list | tuple) else str(given).split(",")
    chosen: list[str] = []
    left = list(held)
    for name in (str(part) for part in items if str(part).strip()):
        if name.strip().lower() == "none":
            continue
        pid = _find(view, left, name)
        if pid is None:
            raise ProcedureError(
                f"{key}: {name.strip()!r} is not in {colour}'s hand"
                f" ({', '.join(view.name(p) for p in left) or 'nothing left'})"
            )
        left.remove(pid)
        chosen.append(pid)
    if len(chosen) != must:
        raise ProcedureError(
            f"{key}: {len(chosen)} cards named; {colour} must discard exactly {must} (B2)"
        )
    return tuple(chosen)


def discard_answer(
    cards: Cards,
    question: Question,
    least_wanted: Callable[[dict[str, Any]], Any] | None = None,
) -> tuple[str, ...]:
    """An answer to a ``discard_<colour>`` question whose kept cards fit (for the bots).

    Read from the question alone (the cards held are its options, named by its
    labels; the number to discard is its count), so the table may be as it was
    before the procedure began. Cards that are not D go first, which always
    leaves a hand that fits the D-only room too; among them ``least_wanted`` (a
    sort key on the card's deck row) puts the cards to lose first.
    """
    key = least_wanted or (lambda row: 0)

    def row(pid: str) -> dict[str, Any]:
        rows = cards.by_name(question.label(pid))
        return rows[0] if rows else {}

    order = sorted(question.options, key=lambda pid: (row(pid).get("hand") == "D", key(row(pid))))
    return tuple(order[: question.low])


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
