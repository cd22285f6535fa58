"""Invariants of the components (B4) and of the hands (B2).

A culture owns 18 small cubes and an Alpha; its unassigned hunters and its
part of Valhalla hold only its own cubes; it holds at most 8 energy (the
woodpile) and each of its bowls only disks of that bowl's kind. The disk
supply (24 energy, 12 ivory, 12 iron) stays on the table; ivory and iron may
run out and be made up with substitutes, energy may not. Every piece lies in
exactly one place. A hand within its hand size is B2's reminder (INFO): the
culture discards down at once. The numbers are the module's ``[constants]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.core import Finding, Severity

from ..hands import excess, hand, hand_size
from ..view import Greenland
from .book import BOOK, FOREIGN_BOWL, illegal, placement

DISKS = ("energy", "ivory", "iron")


# A move neither makes nor destroys a piece, so the checker (which judges moves) leaves the
# counts of cubes and disks to the audit (``moves=False``).
@BOOK.invariant("B4", "a culture owns 18 small cubes and one Alpha", moves=False)
def b4_cubes_a_culture_owns(view: Greenland, colour: str) -> Iterable[Finding]:
    if f"hunters_{colour}" not in view.state.places:
        return ()
    found = placement(view, colour)
    wanted = view.constants
    if (found.small, found.alphas) == (wanted.small_cubes, wanted.alphas):
        return ()
    return (
        illegal(
            "B4",
            f"{colour} has {found.small} small cubes and {found.alphas} Alpha;"
            f" a culture has {wanted.small_cubes} and {wanted.alphas}",
        ),
    )


@BOOK.invariant(
    "B4",
    "a culture's unassigned hunters and Valhalla hold only its own cubes",
    places=(FOREIGN_BOWL,),  # a piece coming to or going from another culture's bowl (touching)
)
def b4_own_bowls(view: Greenland, colour: str) -> Iterable[Finding]:
    astray = placement(view, colour).astray
    if not astray:
        return ()
    found = []
    for bowl, cube in astray:
        if bowl.startswith("hunters_"):
            text = f"a {colour} cube goes among {colour}'s own unassigned hunters, not another culture's"
        else:
            text = f"a {colour} cube goes to {colour}'s part of Valhalla"
        found.append(illegal("B4", text, cube))
    return found


@BOOK.invariant("B4", "the woodpile: a culture holds at most 8 energy", places=("energy_",))
def b4_woodpile(view: Greenland, colour: str) -> Iterable[Finding]:
    place = view.state.places.get(f"energy_{colour}")
    woodpile = view.woodpile
    if place is None or len(place.contents) <= woodpile:
        return ()
    return (
        illegal(
            "B4",
            f"{colour} holds {len(place.contents)} energy; the woodpile rots above {woodpile}",
            *place.contents[woodpile:],
        ),
    )


@BOOK.invariant(
    "B4",
    "a culture's energy, ivory and iron bowls hold disks of their kind",
    places=tuple(f"{kind}_" for kind in DISKS),
)
def b4_disks_of_their_kind(view: Greenland, colour: str) -> Iterable[Finding]:
    state = view.state
    found = []
    for kind in DISKS:
        place = state.places.get(f"{kind}_{colour}")
        for pid in place.contents if place else ():
            if pid.startswith(kind):
                continue  # energy-3, ivory-13: a disk of the kind (or its substitute)
            other = state.pieces[pid].kind
            if other != kind:
                found.append(illegal("B4", f"a {other} disk cannot stand in for {kind}", pid))
    return found


@BOOK.invariant(
    "B4",
    "the disk supply stays whole; substitutes only for ivory and iron",
    per_seat=False,
    moves=False,
)
def b4_disk_supply(view: Greenland, seat: str | None) -> Iterable[Finding]:
    memo = view.state.layout_memo()  # the same until a piece comes or goes
    found = memo.get("greenland.b4_disk_supply")
    if found is None:
        found = memo["greenland.b4_disk_supply"] = tuple(_disk_supply(view))
    return found


def _disk_supply(view: Greenland) -> Iterable[Finding]:
    supply = view.constants.disks
    held: dict[str, set[str]] = {kind: set() for kind in supply}
    for pid, piece in view.state.pieces.items():
        if piece.kind in held:
            held[piece.kind].add(pid)
    for kind, count in supply.items():
        ids = held[kind]
        missing = {f"{kind}-{n}" for n in range(1, count + 1)} - ids
        if missing:
            yield illegal(
                "B4",
                f"{len(missing)} {kind} disks are gone from the table; the supply has {count}",
            )
        extra = sorted(ids - {f"{kind}-{n}" for n in range(1, count + 1)})
        if extra and kind == "energy":
            yield illegal(
                "B4",
                f"{len(extra)} substitute energy disks: energy is limited to the {count} disks"
                " (only ivory and iron may be made up)",
                *extra,
            )


@BOOK.invariant("B", "every piece lies in exactly one place", per_seat=False, moves=False)
def b_every_piece_in_one_place(view: Greenland, seat: str | None) -> Iterable[Finding]:
    problem = view.state.consistency_problem()
    return (illegal("B", problem),) if problem else ()


@BOOK.invariant(
    "B2",
    "a hand within its hand size (a reminder to discard down at once)",
    # the hand; the size: rank 3 elders, the abilities of the tableau's cards and of the
    # wives (daughters in any tableau where a husband of the culture stands)
    places=("hand_", "elder-", "tableau_"),
    spots=("exogamy",),
)
def b2_hand_size(view: Greenland, colour: str) -> Iterable[Finding]:
    held = hand(view, colour)
    if not held:
        return ()
    over = excess(view, hand_size(view, colour), held)
    if not over:
        return ()
    return (
        Finding(
            "B2",
            f"{colour} holds {len(held)} hand cards, {over} more than its hand size:"
            " it must discard down at once",
            Severity.INFO,
            tuple(held),
        ),
    )
