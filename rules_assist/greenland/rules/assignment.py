"""Elders and the assignments that last: promotion (E3), permanent assignment (E4),
the Sun Stone's reassignment (E6), and whose cubes an elder card holds (E3, E5).

- Invariant (E3, E5): a culture's cubes on an elder card are its elders, on
  its own card. Another culture's cube stands on an elder card only as an
  emissary (I5), on the first rank; hunters are never put on another
  culture's elders (E5; E3 alone in the beginners' game, C2, which has no E5).
- Transitions: a hand move onto that emissary's rank is no emissary (the
  Emissary action, I5, puts them there); promotion costs one energy, paid in
  the same command (E3; in the solitaire game an ivory or an iron may stand in for
  it, K); an elder never changes rank (E3); elders,
  colonists and husbands come back only to a culture with one or no
  unassigned hunters (E4); an assigned hunter moves on only by a Sun Stone,
  once everyone else has assigned (E6).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletop.core import Finding, Move

from ..payments import promotion_means
from ..view import Greenland
from .book import BOOK, illegal, moved_cube, placement, plays_without

EMISSARY_SPOT = "rank1"  # I5: an emissary goes to the first rank of the other card


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


@BOOK.transition("E4", "elders, colonists and husbands are assigned for good", places=("hunters_",))
def e4_permanent_assignment(
    view: Greenland, move: Move, moves: Sequence[Move]
) -> Iterable[Finding]:
    if not move.dst.place.startswith("hunters_"):
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
    if len(view.unassigned(colour)) <= 1:
        return ()
    what = {"elder": "an elder", "new_world": "a colonist"}.get(kind or "", "a husband")
    return (
        illegal(
            "E4",
            f"{what} is assigned for good; only a culture with one or no unassigned hunters may take one back",
            move.piece,
        ),
    )


@BOOK.transition("E6", "an assigned hunter moves on only by a Sun Stone, after everyone assigned")
def e6_reassignment(view: Greenland, move: Move, moves: Sequence[Move]) -> Iterable[Finding]:
    if move.src.spot != "hunters" or view.state.counters.get("phase") != "assignment":
        return ()
    cube = moved_cube(view, move)
    if cube is None:
        return ()
    origin, target = _card(view, move.src.place), _card(view, move.dst.place)
    if origin is None or target is None or origin == target or view.is_new_world(origin):
        return ()
    colour, pid = cube[0], move.piece
    limit = max(
        (int(a.split()[1]) for a in view.abilities(colour) if a.startswith("reassign ")), default=0
    )
    if not limit:
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
    mine = view.tableau_owner(target) == colour and view.row(target).get("type") in (
        "daughter",
        "norse_animal",
    )
    if not mine and not view.hunters_on(target, colour) and view.row(target).get("hand") != "D":
        return (
            illegal(
                "E6",
                "a reassigned hunter joins a card where the culture has cubes, or its own daughter or livestock",
                pid,
            ),
        )
    return ()
