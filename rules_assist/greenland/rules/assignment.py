"""Elders and the assignments that last: promotion (E3), permanent assignment (E4),
the Sun Stone's reassignment (E6), and whose cubes an elder card holds (E3, E5).

- Invariant (E3, E5): a culture's cubes on an elder card are its elders, on
  its own card. Another culture's cube stands on an elder card only as an
  emissary (I5), on the first rank; hunters are never put on another
  culture's elders (E5; E3 alone in the beginners' game, C2, which has no E5).
- Invariant (E4), in the assignment phase: of the cubes a culture had
  permanently assigned when the phase began (elders, colonists, husbands),
  one at most is now elsewhere, and only if the culture began the phase
  with one or no unassigned hunters. What the culture had when the phase
  began is recorded then (``assignment_start``, the counter
  ``assignment.start``, written by the turn's ``next_phase`` and by a
  position laid out in the assignment phase). Colonists who leave with the
  whole colony (E4's colony abandonment; their mariners are transport.py's)
  do not count.
- Transitions: a hand move onto that emissary's rank is no emissary (the
  Emissary action, I5, puts them there); promotion costs one energy, paid in
  the same command (E3; in the solitaire game an ivory or an iron may stand in for
  it, K); an elder never changes rank (E3); outside the
  assignment phase (the invariant above) and the negotiations (F: divorce,
  leaving), an elder, colonist or husband never comes back to the
  unassigned hunters (E4); an assigned hunter moves on only by a Sun Stone,
  once everyone else has assigned, and only to a card where its culture has
  cubes (hunters, or a husband: its wife), not in the New World, or to a
  daughter or livestock (D) card in its own tableau (E6).
- Invariant (E6), in the assignment phase: a Sun Stone reassigns as many
  hunters as it says (three), counted against where the culture's hunters
  stood when everyone else had finished assigning (the counter
  ``assignment.settled``, written by the turn's ``finish``): a hunter
  standing elsewhere now has been reassigned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tabletop.core import Finding, Move

from ..payments import promotion_means
from ..view import Greenland
from .book import (
    BOOK,
    NEW_WORLD_CARD,
    illegal,
    moved_cube,
    permanent_ids,
    placement,
    plays_without,
)

EMISSARY_SPOT = "rank1"  # I5: an emissary goes to the first rank of the other card
START = "assignment.start"  # E4: what each culture had when the assignment phase began


def _elders_rule(view: Greenland) -> str:
    return "E3" if plays_without(view, "E5") else "E5"  # C2: E3 alone puts elders on one's own card


def _card(view: Greenland, place_id: str) -> str | None:
    place = view.state.places.get(place_id)
    return place.parent if place is not None else None


@BOOK.invariant(
    "E3",
    "a culture's cubes on elder cards are its own elders, or emissaries on rank 1",
    places=("elder-",),  # it reads only the cubes on elder cards
)
def e3_elders_on_their_own_card(view: Greenland, colour: str) -> Iterable[Finding]:
    visiting = placement(view, colour).visiting
    if not visiting:
        return ()
    return [
        illegal(
            _elders_rule(view),
            f"hunters are never placed on another culture's elders ({view.name(card)},"
            f" {spot}): only an emissary (I5) stands there, on rank 1",
            cube,
        )
        for card, spot, cube in visiting
        if spot != EMISSARY_SPOT
    ]


@BOOK.transition(
    "E3", "nobody places a hunter among another culture's elders by hand", places=("elder-",)
)
def e3_no_hunter_among_other_elders(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if move.dst.spot != EMISSARY_SPOT or not move.dst.place.startswith("elder-"):
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    card = _card(view, move.dst.place)
    if card is None or card == f"elder-{cube[0]}" or _card(view, move.src.place) == card:
        return ()
    return (
        illegal(
            _elders_rule(view),
            f"hunters are never placed on another culture's elders ({view.name(card)})",
            move.piece,
        ),
    )


@BOOK.transition("E3", "promotion to elder costs one energy", places=("elder-",))
def e3_promotion_costs_energy(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not move.dst.place.startswith("elder-") or not move.src.place.startswith("hunters_"):
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    colour = cube[0]
    if move.src.place != f"hunters_{colour}" or move.dst.place != f"elder-{colour}":
        return ()
    means = promotion_means(view, colour)  # K: ivory and iron count as energy in solitaire
    bowls = {f"{kind}_{colour}": kind for kind in means}
    paid = any(
        bowls.get(m.src.place) is not None and m.piece.startswith(bowls[m.src.place]) for m in moves
    )
    if paid or view.has(colour, "free_promotion"):
        return ()
    also = " (or an ivory or iron as energy, K)" if len(means) > 1 else ""
    return (
        illegal(
            "E3",
            f"promoting a hunter to {move.dst.spot} costs 1 energy{also}: pay it in the same"
            " move (Promote)",
            move.piece,
        ),
    )


@BOOK.transition("E3", "an elder never changes rank", places=("elder-",))
def e3_elders_keep_their_rank(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not move.src.place.startswith("elder-") or moved_cube(view, move) is None:
        return ()
    origin, target = _card(view, move.src.place), _card(view, move.dst.place)
    if origin is None or view.row(origin).get("type") != "elder":
        return ()
    if origin == target and move.src.spot == move.dst.spot:
        return ()
    if target is None or view.row(target).get("type") != "elder":
        return ()
    return (illegal("E3", "an elder cannot change rank", move.piece),)


def permanent_cubes(view: Greenland, colour: str) -> dict[str, str]:
    """E4: a culture's permanently assigned cubes, each with what it is: 'elder' (on an elder
    card, its own or another's as an emissary), 'colonist' (on a New World card) or 'husband'."""
    found: dict[str, str] = {}
    places = view.state.places
    for cube in view.cube_pieces(colour):
        kind = _permanent_kind(view, cube, places)
        if kind is not None:
            found[cube.id] = kind
    return found


def _permanent_kind(view: Greenland, cube: Any, places: dict[str, Any]) -> str | None:
    """What a cube permanently assigned is ('elder', 'colonist', 'husband'), else None."""
    if cube.spot == "exogamy":
        return "husband"
    if cube.place.startswith("elder-"):
        return "elder"
    if cube.spot == "hunters":
        card = places[cube.place].parent if cube.place in places else None
        if card is not None and view.is_new_world(card):
            return "colonist"
    return None


def _cube_ids(view: Greenland, colour: str) -> frozenset[str]:
    """The ids of ``view.cube_pieces(colour)`` (kept while no piece comes or goes)."""
    memo = view.state.layout_memo()
    key = ("greenland.cube_ids", colour)
    found = memo.get(key)
    if found is None:
        found = memo[key] = frozenset([cube.id for cube in view.cube_pieces(colour)])
    return found


def assignment_start(view: Greenland, turn: int) -> dict[str, Any]:
    """E4: each culture's unassigned hunters and permanently assigned cubes as the assignment
    phase of ``turn`` begins, for the counter ``assignment.start``."""
    return {
        "turn": turn,
        "unassigned": {c: len(view.unassigned(c)) for c in view.seats()},
        "permanent": {c: permanent_cubes(view, c) for c in view.seats()},
    }


def _this_assignment(view: Greenland, key: str) -> dict[str, Any] | None:
    """The record under counter ``key`` made in this turn's assignment phase; None outside
    the phase, without the record, or for a record of another turn."""
    counters = view.state.counters
    if counters.get("phase") != "assignment":
        return None
    record = counters.get(key)
    if not isinstance(record, dict) or record.get("turn") != counters.get("turn", 1):
        return None
    return record


def _assignment_start(view: Greenland) -> dict[str, Any] | None:
    """E4: the record ``START`` in this turn's assignment phase; None outside it or without
    the record."""
    return _this_assignment(view, START)


@BOOK.invariant(
    "E4",
    "one elder, colonist or husband at most comes back in the assignment phase, and only to a"
    " culture that began it with one or no unassigned hunters",
    # the cubes permanently assigned (elders, colonists, husbands) and Valhalla's, beside the
    # record the phase's start writes
    places=("elder-", "valhalla_", NEW_WORLD_CARD),
    spots=("exogamy",),
)
def e4_taken_back_at_most_one(view: Greenland, colour: str) -> Iterable[Finding]:
    start = _assignment_start(view)
    if start is None:
        return ()
    was: dict[str, str] = (start.get("permanent") or {}).get(colour) or {}
    if not was:
        return ()
    ids = placement(view, colour).permanent  # permanent_ids, read here: every check
    if ids is None:
        ids = permanent_ids(view, colour)
    if ids.issuperset(was):
        return ()  # all of them still permanently assigned
    pieces, places = view.state.pieces, view.state.places
    mine = _cube_ids(view, colour)
    back = [  # those no longer among the culture's permanently assigned cubes, nor dead
        cube
        for cube in was
        if cube in pieces
        and not (cube in mine and _permanent_kind(view, pieces[cube], places) is not None)
        and not pieces[cube].place.startswith("valhalla_")
    ]
    if not back:
        return ()
    now = permanent_cubes(view, colour)
    if "colonist" not in now.values():  # the whole colony left: E4's colony abandonment
        back = [cube for cube in back if was[cube] != "colonist"]
    unassigned = int((start.get("unassigned") or {}).get(colour, 0))
    allowed = 1 if unassigned <= 1 else 0
    if len(back) <= allowed:
        return ()
    kinds = sorted({was[cube] for cube in back})
    what = " and ".join(f"{k}s" for k in kinds)
    if allowed:
        why = f"{len(back)} {what} come back: one at most may"
    else:
        why = (
            f"{colour} began the assignment phase with {unassigned} unassigned hunters: only a"
            " culture that begins it with one or none takes one back"
        )
    return (illegal("E4", f"elders, colonists and husbands are assigned for good; {why}", *back),)


def _for_good(view: Greenland) -> bool:
    """E4: none comes back in this phase: neither the assignment (the invariant above) nor the
    negotiations (F: divorce and leaving)."""
    return view.state.counters.get("phase") not in ("assignment", "negotiation")


@BOOK.transition(
    "E4",
    "elders, colonists and husbands are assigned for good: none comes back to the unassigned"
    " hunters outside the assignment phase (its exception) and the negotiations (F)",
    places=("hunters_",),
    when=_for_good,
)
def e4_permanent_assignment(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not move.dst.place.startswith("hunters_") or not _for_good(view):
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    colour = cube[0]
    if move.dst.place != f"hunters_{colour}":
        return ()
    origin = _card(view, move.src.place)
    if origin is None:
        return ()
    kind = view.row(origin).get("type")
    if kind not in ("elder", "new_world") and move.src.spot != "exogamy":
        return ()
    what = {"elder": "an elder", "new_world": "a colonist"}.get(kind or "", "a husband")
    return (
        illegal(
            "E4",
            f"{what} is assigned for good; one may come back only as the assignment phase"
            " begins, to a culture with one or no unassigned hunters",
            move.piece,
        ),
    )


SETTLED = "assignment.settled"  # E6: where a culture's hunters stood once the others assigned


def reassign_limit(view: Greenland, colour: str) -> int:
    """E6: how many hunters the culture's Sun Stone reassigns ('reassign N'), 0 without one."""
    return max(
        [int(a.split()[1]) for a in view.abilities(colour) if a.startswith("reassign ")], default=0
    )


def hunters_placed(view: Greenland, colour: str) -> dict[str, str]:
    """The culture's cubes in the hunting areas of cards outside the New World: {cube: card}."""
    places = view.state.places
    found: dict[str, str] = {}
    for cube in view.cube_pieces(colour):
        if cube.spot != "hunters" or cube.place not in places:
            continue
        card = places[cube.place].parent
        if card is not None and not view.is_new_world(card):
            found[cube.id] = card
    return found


def settle(view: Greenland, done: Sequence[str], turn: int) -> dict[str, Any] | None:
    """E6: the counter ``assignment.settled`` once ``done`` have finished assigning: for each
    culture whose others have all finished, where its hunters stand then (kept from the first
    time); None when it does not change."""
    record = view.state.counters.get(SETTLED)
    current = record if isinstance(record, dict) and record.get("turn") == turn else None
    placed = dict(current["placed"]) if current is not None else {}
    for colour in view.seats():
        if colour not in placed and all(c in done for c in view.seats() if c != colour):
            placed[colour] = hunters_placed(view, colour)
    if placed == (current["placed"] if current is not None else {}):
        return None
    return {"turn": turn, "placed": placed}


def reassigned(view: Greenland, colour: str) -> list[str]:
    """E6: the culture's hunters its Sun Stone has reassigned in this assignment phase: those
    standing on another card than when everyone else had assigned ([] without a Sun Stone)."""
    record = _settled(view)
    if record is None:
        return []
    before = (record.get("placed") or {}).get(colour)
    if not before or not reassign_limit(view, colour):
        return []  # without a Sun Stone each move is refused (e6_reassignment)
    now = hunters_placed(view, colour)
    return [cube for cube, card in before.items() if cube in now and now[cube] != card]


def _settled(view: Greenland) -> dict[str, Any] | None:
    """E6: the record ``SETTLED`` in this turn's assignment phase; None outside it or before
    everyone else has assigned."""
    return _this_assignment(view, SETTLED)


def _reassigning(view: Greenland) -> bool:
    return _settled(view) is not None


def _assigning(view: Greenland) -> bool:
    return view.state.counters.get("phase") == "assignment"


@BOOK.invariant(
    "E6", "a Sun Stone reassigns as many hunters as it says (three), no more", when=_reassigning
)
def e6_reassignments_at_most(view: Greenland, colour: str) -> Iterable[Finding]:
    moved = reassigned(view, colour)
    if not moved:  # none reassigned: within any limit
        return ()
    limit = reassign_limit(view, colour)
    if len(moved) <= limit:
        return ()
    return (
        illegal(
            "E6",
            f"the Sun Stone reassigns {limit} hunters at most; {len(moved)} have been reassigned",
            *moved,
        ),
    )


@BOOK.transition(
    "E6",
    "an assigned hunter moves on only by a Sun Stone, after everyone assigned, to a card where"
    " its culture has cubes (not the New World) or its own daughter or livestock",
)
def e6_reassignment(view: Greenland, move: Move, moves: Sequence[Move]) -> Iterable[Finding]:
    if move.src[2] != "hunters" or not _assigning(view):  # the spot (by index: quicker)
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    origin, target = _card(view, move.src.place), _card(view, move.dst.place)
    if origin is None or target is None or origin == target or view.is_new_world(origin):
        return ()
    colour, pid = cube[0], move.piece
    if not reassign_limit(view, colour):
        return (
            illegal(
                "E6",
                "an assigned hunter stays where he was put; only a Sun Stone reassigns hunters",
                pid,
            ),
        )
    done = set(view.counter("phase.done") or [])
    others = [c for c in view.seats() if c != colour and c not in done]
    if others:
        return (
            illegal(
                "E6",
                f"the Sun Stone reassigns after everyone else has assigned ({', '.join(others)} still to go)",
                pid,
            ),
        )
    if view.is_new_world(target):
        return (illegal("E6", "a reassigned hunter cannot go to the New World", pid),)
    row = view.row(target)
    own_card = view.tableau_owner(target) == colour and (
        row.get("type") in ("daughter", "norse_animal") or row.get("hand") == "D"
    )
    if own_card or _cubes_there(view, target, colour, pid):
        return ()
    return (
        illegal(
            "E6",
            "a reassigned hunter joins a card where the culture has cubes (not the New World), or"
            " a daughter or livestock card in its own tableau",
            pid,
        ),
    )


def _cubes_there(view: Greenland, card: str, colour: str, moving: str) -> bool:
    """E6: the culture has cubes on the card, hunters or a husband (not its elders: a hunter
    reassigned goes to a card's hunting area, and an elder card takes promotions, E3)."""
    if view.row(card).get("type") == "elder":
        return False
    pieces = view.state.pieces
    return any(
        pieces[c].owner == colour and c != moving and pieces[c].spot in ("hunters", "exogamy")
        for c in view.state.contents(card)
    )
