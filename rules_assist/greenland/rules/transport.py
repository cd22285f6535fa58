"""Transport: mariners and sleds (E1), colonists going to the New World (E2), a colony
abandoned (E4).

- E1 is an invariant: every card outside a culture's homeland where it has
  hunters needs a mariner for each 4 of them, except one card per sled (sleds
  only in Greenland). Colonists are not counted: they stay where they went;
  nor are the hunters a Sun Stone has reassigned (E6: regardless of the
  mariners).
- E2 is a transition. A colonist who came in an earlier turn and one who
  arrives now look the same on the table, and only the newcomer needs a
  mariner this turn; so the rule is about the change: the cubes a command
  takes onto a New World card need mariners of their own, 4 to a mariner,
  beside those carrying hunters outside the homeland once the command is made.
- E4's colony abandonment is about leaving: colonists go hunting in Greenland
  only if all of the culture's colonists leave together, by mariner.

A mariner carries 4 cubes to one card a turn (E1), and the assignment phase is
played in many commands, so the mariners already used this turn are
remembered on the table: entering the assignment phase (turn.next_phase)
writes the counter ``transport.settled`` = {"turn": n, "colonists": {colour:
[cube, ...]}}, each culture's colonists as the phase begins. While it holds
for this turn, a cube on a New World card that is not in it came this turn
(E2), and one in it that is now off the New World left this turn (E4's
abandonment, or its exception for one colonist); both took mariners, 4 to a
mariner (each card its own loads). The E1 invariant then counts those
mariners beside the ones carrying hunters outside the homeland, so the
checker and the audit (``tabletop check``) both remember the turn, and E2's
and E4's transitions leave the count of mariners to it. A table without the
record (a position laid out in the assignment phase cannot tell which
colonists came this turn) is judged command by command, as the transitions
do.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

from tabletop.core import Finding, Move

from ..view import COLOURS, Greenland
from .assignment import SETTLED as ASSIGNMENT_SETTLED
from .assignment import reassigned
from .book import (
    AWAY_FROM_HOME,
    BOOK,
    CARD_MOVING,
    NEW_WORLD_CARD,
    away_from_home,
    illegal,
    moved_cube,
    placement,
)


def need(
    view: Greenland, colour: str, hunting: dict[str, int]
) -> tuple[int, list[tuple[str, int]]]:
    """E1: the mariners needed for hunters on these cards (card: count), and the cards
    outside the homeland with their counts, most first. New World cards are not counted."""
    outside = _outside(view, colour, hunting.items())
    return _mariners(view, colour, outside), outside


def _outside(
    view: Greenland, colour: str, hunting: Iterable[tuple[str, Any]]
) -> list[tuple[str, int]]:
    """The cards outside the homeland among (card, count or cubes), with their counts."""
    outside = []
    for card, on in hunting:
        count = on if isinstance(on, int) else len(on)
        if count > 0 and away_from_home(view, colour, card):
            outside.append((card, count))
    return outside


def _mariners(
    view: Greenland, colour: str, outside: list[tuple[str, int]], here: Any = None
) -> int:
    """The mariners the hunters on these cards outside the homeland need (4 cubes each; a
    sled takes any number to one card, where most go); ``here``: the culture's placement, to
    keep its sleds."""
    if not outside:
        return 0
    if len(outside) > 1:  # the sleds go where most cubes go: most first, then by card
        outside.sort(key=_CARD)
        outside.sort(key=_COUNT, reverse=True)  # (a sort keeps the order of equals)
    load = view.cards.constants.mariner_load
    needed = 0
    if here is None:
        sleds = _sleds(view, colour)
    else:
        sleds = here.sleds
        if sleds is None:
            base = here.base  # carried over from it: the same tableau cards
            sleds = base.sleds if base is not None else None
            if sleds is None:
                sleds = _sleds(view, colour)
                if base is not None:
                    base.sleds = sleds
            here.sleds = sleds
    for _card, count in outside[sleds:]:  # a sled: any number to one card
        needed += -(-count // load)
    return needed


_CARD, _COUNT = itemgetter(0), itemgetter(1)


def _sleds(view: Greenland, colour: str) -> int:
    """``view.sleds``, kept while the same cards lie in the culture's tableau (cubes come and
    go all through the assignment phase; its cards seldom)."""
    tableau = view.state.places.get(f"tableau_{colour}")
    if tableau is None:
        return view.sleds(colour)
    memo = view.state.layout_memo()  # the cards' rows stay while no property changes
    key = _SLED_KEYS.get(colour) or ("greenland.sleds", colour)
    found = memo.get(key)
    if found is None or found[0] != tableau.contents or found[1] is not view.cards:
        found = memo[key] = (list(tableau.contents), view.cards, view.sleds(colour))
    return found[2]


_SLED_KEYS = {colour: ("greenland.sleds", colour) for colour in COLOURS}


AFTER_ASSIGNMENT = ("negotiation", "hunt", "animals", "elders")
SETTLED = "transport.settled"  # counter: the colonists as this turn's assignment phase began


def settled_now(view: Greenland) -> dict[str, list[str]]:
    """Each culture's colonists on the table now (for ``SETTLED``), by culture."""
    return {
        colour: [
            cube
            for card, cubes in placement(view, colour).hunting.items()
            if view.is_new_world(card)
            for cube in cubes
        ]
        for colour in view.seats()
    }


def carried(view: Greenland, colour: str) -> tuple[dict[str, list[str]], int] | None:
    """The colonists the culture's mariners carried this turn, read from ``SETTLED``: the
    cubes that came to each New World card (E2), and how many colonists left it (E4); None
    when the table holds no record for this turn's assignment phase."""
    record = view.state.counters.get(SETTLED)
    if (
        not isinstance(record, dict)
        or view.counter("phase") != "assignment"
        or record.get("turn") != view.counter("turn")
    ):
        return None
    before = (record.get("colonists") or {}).get(colour) or ()
    arrived: dict[str, list[str]] = {}
    staying = 0
    for card, cubes in placement(view, colour).hunting.items():
        if not view.is_new_world(card):
            continue
        for cube in cubes:
            if cube in before:
                staying += 1
            else:
                arrived.setdefault(card, []).append(cube)
    pieces = view.state.pieces
    gone = len(
        [cube for cube in before if cube in pieces and pieces[cube].place.startswith("valhalla_")]
    )
    return arrived, len(before) - staying - gone


def _carrying(view: Greenland, arrived: dict[str, list[str]], left: int) -> int:
    """The mariners that took colonists to the New World this turn (4 to a card each) and
    brought colonists back (4 each)."""
    load = view.constants.mariner_load
    return sum(-(-len(cubes) // load) for cubes in arrived.values()) + -(-left // load)


@BOOK.invariant(
    "E1",
    "hunters outside the homeland need mariners, 4 cubes each, or a sled",
    # a culture's cube on or off a card outside its homeland or in the New World, Valhalla (the
    # colonists gone), the elders (the mariners), a card moving (its hunters, the sleds)
    places=(AWAY_FROM_HOME, "valhalla_", "elder-", CARD_MOVING),
)
def e1_mariners_outside_the_homeland(view: Greenland, colour: str) -> Iterable[Finding]:
    """Judged until the hunters have gone out (E): a mariner lost afterwards (an attack, F2; a
    hunt's attrition, G) does not call hunters already out back, so the table is not wrong then."""
    counters = view.state.counters
    if counters.get("phase") in AFTER_ASSIGNMENT:
        return ()
    here = placement(view, colour)
    hunting = here.hunting
    if not hunting and SETTLED not in counters:
        return ()
    # E6: the Sun Stone's hunters need no mariner (none without the record of the others done)
    moved = reassigned(view, colour) if ASSIGNMENT_SETTLED in counters else None
    if moved:
        hunting = {card: [c for c in on if c not in moved] for card, on in hunting.items()}
    known = here.away  # _outside, read here: every check of a hunter's move
    outside = []
    for card, on in hunting.items():
        if not on:
            continue
        away = known.get(card)
        if away is None:
            away = known[card] = away_from_home(view, colour, card)
        if away:
            outside.append((card, len(on)))
    arrived, left = (carried(view, colour) if SETTLED in counters else None) or ({}, 0)
    if not outside and not arrived and not left:
        return ()
    needed = _mariners(view, colour, outside, here)
    by_sea = _carrying(view, arrived, left) if arrived or left else 0
    mariners = here.ranks.get("rank6", 0)  # here.mariners, read here: a property is a call
    if needed + by_sea <= mariners:
        return ()
    parts = []
    if outside:
        cards = ", ".join(f"{view.name(c)} ({n})" for c, n in outside)
        parts.append(f"hunters outside the homeland ({cards})")
    if arrived:
        cards = ", ".join(f"{view.name(c)} ({len(n)})" for c, n in arrived.items())
        parts.append(f"colonists carried to the New World this turn ({cards}, E2)")
    if left:
        parts.append(f"{left} colonist(s) brought back from the New World this turn (E4)")
    pieces = [cube for card, _n in outside for cube in hunting[card]]
    pieces += [cube for cubes in arrived.values() for cube in cubes]
    load = view.constants.mariner_load
    return (
        illegal(
            "E1",
            f"{colour}'s {' and '.join(parts)} need {needed + by_sea} mariner(s), {load} cubes"
            f" to a card each turn; {colour} has {mariners}",
            *pieces,
        ),
    )


def _card(view: Greenland, place_id: str) -> str | None:
    place = view.state.places.get(place_id)
    return place.parent if place is not None else None


@BOOK.transition(
    "E2",
    "colonists go to the New World by mariner, 4 to a mariner",
    places=(NEW_WORLD_CARD,),  # a move to a New World card (touching)
)
def e2_colonists_arrive_by_mariner(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    place = view.state.places.get(move.dst.place)  # _card, read here: every move
    target = place.parent if place is not None else None
    if target is None or not view.is_new_world(target):
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    colour = cube[0]
    if carried(view, colour) is not None:
        return ()  # the turn is remembered: the E1 invariant counts these mariners
    arrivals: dict[str, list[str]] = {}
    for m in moves:  # the command's arrivals of this culture; judged at the first of them
        card = _card(view, m.dst.place)
        if (
            card is not None
            and card != _card(view, m.src.place)
            and view.is_new_world(card)
            and view.state.pieces[m.piece].owner == colour
        ):
            arrivals.setdefault(card, []).append(m.piece)
    if not arrivals or next(iter(arrivals.values()))[0] != move.piece:
        return ()
    hunting, mariners = _after(view, colour, moves)
    busy, _outside = need(view, colour, hunting)
    load = view.constants.mariner_load
    wanted = sum(math.ceil(len(cubes) / load) for cubes in arrivals.values())
    if busy + wanted <= mariners:
        return ()
    cards = ", ".join(f"{view.name(c)} ({len(n)})" for c, n in arrivals.items())
    besides = f", beside the {busy} carrying hunters outside the homeland" if busy else ""
    return (
        illegal(
            "E2",
            f"{colour}'s colonists going to the New World ({cards}) need {wanted} mariner(s),"
            f" {load} cubes each{besides}; {colour} has {mariners}",
            *(cube for cubes in arrivals.values() for cube in cubes),
        ),
    )


def _after(view: Greenland, colour: str, moves: Sequence[Move]) -> tuple[dict[str, int], int]:
    """The culture's hunters by card and its mariners once the moves are made (read on the
    table before them)."""
    here = placement(view, colour)
    hunting = {card: len(cubes) for card, cubes in here.hunting.items()}
    mariners = here.mariners
    elder = f"elder-{colour}"
    pieces = view.state.pieces
    for m in moves:
        if pieces[m.piece].owner != colour or pieces[m.piece].kind not in ("cube", "alpha"):
            continue
        src, dst = _card(view, m.src.place), _card(view, m.dst.place)
        if src is not None and m.src.spot == "hunters":
            hunting[src] = hunting.get(src, 0) - 1
        if dst is not None and m.dst.spot == "hunters":
            hunting[dst] = hunting.get(dst, 0) + 1
        mariners += (m.dst.place == elder and m.dst.spot == "rank6") - (
            m.src.place == elder and m.src.spot == "rank6"
        )
    return hunting, mariners


@BOOK.transition(
    "E4",
    "a colony is abandoned whole, by mariner",
    places=(NEW_WORLD_CARD,),  # a move from a New World card (touching)
)
def e4_colony_abandonment(view: Greenland, move: Move, moves: Sequence[Move]) -> Iterable[Finding]:
    place = view.state.places.get(move.src.place)  # _card, read here: every move
    origin = place.parent if place is not None else None
    if origin is None or not view.is_new_world(origin):
        return ()
    target = _card(view, move.dst.place)
    if target is None or origin == target or view.is_new_world(target):
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    colour = cube[0]
    pieces = view.state.pieces
    leaving = []
    for m in moves:
        src, dst = _card(view, m.src.place), _card(view, m.dst.place)
        if (
            pieces[m.piece].owner == colour
            and src is not None
            and view.is_new_world(src)
            and not (dst is not None and view.is_new_world(dst))
        ):
            leaving.append(m.piece)
    if leaving[0] != move.piece:
        return ()  # judged once a command, at its first colonist leaving
    colonists = [
        c
        for card, cubes in placement(view, colour).hunting.items()
        if view.is_new_world(card)
        for c in cubes
    ]
    staying = [c for c in colonists if c not in leaving]
    if staying:
        return (
            illegal(
                "E4",
                f"a colony is abandoned whole: {len(staying)} {colour} colonist(s) would stay behind",
                *leaving,
            ),
        )
    if carried(view, colour) is not None:
        return ()  # the turn is remembered: the E1 invariant counts these mariners
    wanted = math.ceil(len(leaving) / view.constants.mariner_load)
    mariners = view.mariners(colour)
    if wanted > mariners:
        return (
            illegal(
                "E4",
                f"evacuating {len(leaving)} colonists needs {wanted} mariner(s); {colour} has {mariners}",
                *leaving,
            ),
        )
    return ()
