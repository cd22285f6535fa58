"""Cubes on tableau cards: raids and defence (E5), husbands (F1), and what the beginners'
game allows instead (C2).

Invariants, each about one culture's cubes:

- E5: a cube on another culture's tableau card is a raider (unless it
  defends a daughter its culture is married to), and a raid needs a war
  chief (a rank 4 elder); only daughters, livestock and D cards are raided,
  and not a D card marked 'no raid'; no cube ever stands on an invention (an
  I card), in any tableau.
- F1: one husband a daughter (read for the daughters in a culture's tableau).
- The beginners' game (C2) has no raids, defence, husbands or New World, so
  section E leaves a hunter the biomes in the rows (E1) and the culture's own
  elder card (E3): no cube on a tableau card (rule E), none on Markland or
  Vinland, which are out of that game (rule C2).
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.core import Finding

from ..view import Greenland
from .book import BOOK, illegal, placement

RAIDABLE = ("daughter", "norse_animal")


def _foreign(view: Greenland, colour: str) -> Iterable[tuple[str, dict, list[str]]]:
    """(card, its row, the culture's cubes on it) for the cards in other cultures' tableaus the
    culture raids: not inventions (E5's invention rule), not its wives (it defends them, E5)."""
    here = placement(view, colour)
    for card, (owner, cubes) in here.tableau.items():
        if owner != colour and not any(wife == card for wife, _husband in here.exogamy):
            row = view.row(card)
            if row.get("hand") != "I":
                yield card, row, cubes


@BOOK.invariant(
    "E5",
    "no cube ever stands on an invention (an I card)",
    places=("tableau_",),  # the cubes on the cards of tableaus (touching)
)
def e5_no_cube_on_an_invention(view: Greenland, colour: str) -> Iterable[Finding]:
    tableau = placement(view, colour).tableau
    if not tableau:
        return ()
    found = []
    for card, (_owner, cubes) in tableau.items():
        if view.row(card).get("hand") == "I":
            found.append(
                illegal(
                    "E5", f"{view.name(card)} is an invention: no cube is ever placed on it", *cubes
                )
            )
    return found


@BOOK.invariant(
    "E5",
    "only daughters and livestock (D cards) in another tableau are raided",
    places=("tableau_",),  # the cubes on the cards of tableaus (touching)
    spots=("exogamy",),  # the culture's wives, which it defends
)
def e5_only_daughters_and_livestock_are_raided(view: Greenland, colour: str) -> Iterable[Finding]:
    if not placement(view, colour).tableau:
        return ()
    return [
        illegal(
            "E5",
            f"only daughters and livestock in another tableau can be raided, not {row.get('name', card)}",
            *cubes,
        )
        for card, row, cubes in _foreign(view, colour)
        if row.get("type") not in RAIDABLE and row.get("hand") != "D"
    ]


@BOOK.invariant(
    "E5",
    "a raid needs a war chief (a rank 4 elder)",
    places=("tableau_", "elder-"),  # the cubes on the cards of tableaus, the elders
    spots=("exogamy",),
)
def e5_a_raid_needs_a_war_chief(view: Greenland, colour: str) -> Iterable[Finding]:
    if not placement(view, colour).tableau:
        return ()
    raids = [
        (row.get("name", card), cubes)
        for card, row, cubes in _foreign(view, colour)
        if row.get("type") in RAIDABLE or row.get("hand") == "D"
    ]
    if not raids or placement(view, colour).war_chiefs:
        return ()
    return [
        illegal("E5", f"raiding {name} needs a war chief (a rank 4 elder)", *cubes)
        for name, cubes in raids
    ]


@BOOK.invariant(
    "E5",
    "a D card marked 'no raid' is never livestock raided",
    places=("tableau_",),
    spots=("exogamy",),
)
def e5_no_raid_cards(view: Greenland, colour: str) -> Iterable[Finding]:
    if not placement(view, colour).tableau:
        return ()
    return [
        illegal("E5", f"{row.get('name', card)} cannot be livestock raided", *cubes)
        for card, row, cubes in _foreign(view, colour)
        if "no_raid" in (row.get("abilities") or ())
    ]


@BOOK.invariant(
    "F1",
    "one husband a daughter",
    places=("tableau_",),  # the culture's tableau: a daughter coming or going with her husbands
    spots=("exogamy",),  # a husband coming or going
)
def f1_one_husband_a_daughter(view: Greenland, colour: str) -> Iterable[Finding]:
    places, pieces = view.state.places, view.state.pieces
    tableau = places.get(f"tableau_{colour}")
    found = []
    for card in tableau.contents if tableau is not None else ():
        regions = places.get(card)
        if regions is None or len(regions.contents) < 2:
            continue
        husbands = [c for c in regions.contents if pieces[c].spot == "exogamy"]
        if len(husbands) > 1:
            found.append(
                illegal(
                    "F1",
                    f"{view.name(card)} has {len(husbands)} husbands: one husband a daughter;"
                    " hunters never attack husbands (E5)",
                    *husbands,
                )
            )
    return found


@BOOK.invariant(
    "E",
    "the beginners' game: a hunter goes on a biome in a row or is promoted",
    only_without=("E5",),
)
def e_beginners_hunt_biomes_only(view: Greenland, colour: str) -> Iterable[Finding]:
    here = placement(view, colour)
    on_cards = {card: list(cubes) for card, (_owner, cubes) in here.tableau.items()}
    for daughter, husband in here.exogamy:
        on_cards.setdefault(daughter, []).append(husband)
    return [
        illegal(
            "E",
            f"in the beginners' game a hunter goes on a biome in a row (E1) or is promoted (E3),"
            f" not onto {view.name(card)} in a tableau (C2 skips raids and defence, E5, and"
            " exogamy, F1)",
            *cubes,
        )
        for card, cubes in on_cards.items()
    ]


@BOOK.invariant("C2", "the beginners' game: no cube on a New World card", only_without=("E2",))
def c2_no_new_world(view: Greenland, colour: str) -> Iterable[Finding]:
    return [  # C2 puts Markland and Vinland out of the game
        illegal("C2", f"{view.name(card)} is not in the beginners' game (C2)", *cubes)
        for card, cubes in placement(view, colour).hunting.items()
        if view.is_new_world(card)
    ]
