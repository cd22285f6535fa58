"""What the rules allow and what they give, computed once for the procedures, the moves, the
flow and the rulebook: where a Viking may go (LO-R1..R4, LO-R17), which shields may be used
(LO-R15..R18), what a placement captures (LO-R7..R10), when a site or a longship is complete
(LO-R11, LO-R12), what may be done at the end of a turn (LO-R13, LO-R19) and who plays next
(LO-R4, LO-R20)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..layout import RESOURCES, SHIELDS, TILES
from ..reading import VIKINGS, Looot

PLAY_AGAIN, DOUBLE_GAIN, OCCUPIED = SHIELDS


# ---- placing a Viking (DE:20, DE:42-44) ----------------------------------------------------
def resource_space(lo: Looot, space: str) -> bool:
    """LO-R1: a Viking goes on a wood, sheep, gold or axe hex only."""
    return lo.terrain.get(space) in RESOURCES


def next_to_viking_or_longship(lo: Looot, space: str) -> bool:
    """LO-R3 (DE:20): next to a Viking of any colour, or to a longship (the gamepark variant:
    to any water space, D1)."""
    any_water = bool(lo.number("any_water"))
    for n in lo.adjacent[space]:
        if lo.vikings_on(n):
            return True
        if lo.terrain.get(n) == "water" and (any_water or lo.ship_on(n)):
            return True
    return False


def occupied_target(lo: Looot, seat: str, space: str) -> bool:
    """LO-R17 (DE:43): PlaceOnOccupiedSpace puts a Viking on a hex holding an opponent's
    Viking, next to a Viking or a longship; the gamepark variant: any hex holding a Viking,
    with no adjacency test (D2)."""
    owners = lo.owners_on(space)
    if not owners or not resource_space(lo, space):
        return False
    if lo.number("occupied_any"):
        return True
    return bool(owners - {seat}) and next_to_viking_or_longship(lo, space)


def viking_spaces(lo: Looot, seat: str, armed: Iterable[str] | None = None) -> list[str]:
    """The spaces the seat may put its next Viking on (LO-R1..R3, LO-R17), sorted."""
    armed = lo.armed if armed is None else tuple(armed)
    if OCCUPIED in armed:
        return sorted(s for s in lo.terrain if occupied_target(lo, seat, s))
    any_water = bool(lo.number("any_water"))
    memo = lo.state.positions_memo()
    found = memo.get(("looot.viking_spaces", any_water))
    if found is None:
        # LO-R3 read from the other side: the spaces around each Viking and each longship (or
        # water space), the same spaces as next_to_viking_or_longship finds one by one
        occupied = set(lo.occupied())
        near: set[str] = set()
        for space in occupied:
            near.update(lo.adjacent[space])
        for space in lo.water:
            if any_water or lo.ship_on(space):
                near.update(lo.adjacent[space])
        found = memo["looot.viking_spaces", any_water] = tuple(
            sorted(s for s in near - occupied if resource_space(lo, s))
        )
    return list(found)


def shield_offers(lo: Looot, seat: str) -> list[str]:
    """The shields the seat may use now (LO-R15): unused, not chosen already; and
    PlaceOnOccupiedSpace only when it has a target (in the gamepark variant, once any Viking
    stands on the map, D2)."""
    if lo.phase != VIKINGS or not lo.vikings_left(seat):
        return []
    offers = []
    for shield in lo.shields_unused(seat):
        if shield in lo.armed:
            continue
        if shield == OCCUPIED and not any(occupied_target(lo, seat, s) for s in lo.occupied()):
            continue
        offers.append(shield)
    return offers


# ---- captures (DE:24-28) --------------------------------------------------------------------
@dataclass(frozen=True)
class Capture:
    """What one placement earns in buildings: tiles by the space they come from, the pairs of
    watchtowers newly claimed and the castle tiles taken per castle after it (and, with
    ``tiles_owed``, the watchtower tiles taken per tower after it)."""

    tiles: tuple[tuple[str, str], ...]  # (building tile piece, its space), in order of taking
    pairs: tuple[str, ...]  # the seat's claimed pairs after it ('A|B')
    castles: tuple[tuple[str, int], ...]  # the seat's castle tiles per castle after it
    towers: tuple[tuple[str, int], ...] = ()  # with ``tiles_owed``: watchtower tiles per tower


def pair_name(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def captures(lo: Looot, seat: str, space: str, before: list[set[str]]) -> Capture:
    """LO-R7..R10 for a Viking just put on ``space``; ``before`` is the seat's groups as they
    were before it (for the gamepark variant's pair per group, D3). With ``tiles_owed`` (the
    gamepark variant) watchtower and castle tiles are debts per building (``_owed_captures``)."""
    taken: list[tuple[str, str]] = []
    left = {s: list(tiles) for s, tiles in lo.stacks().items()}

    def take(building: str) -> None:
        if left.get(building):
            taken.append((left[building].pop(), building))

    # LO-R7 (DE:26): one tile of each house stack next to the new Viking.
    for n in lo.adjacent[space]:
        if lo.terrain.get(n) == "house":
            take(n)
    group = lo.group_of(seat, space)
    if lo.number("tiles_owed"):
        return _owed_captures(lo, seat, group, taken, left)
    # LO-R8 (DE:27): each pair of watchtowers joined by a route of the seat's own Vikings.
    pairs = lo.pairs(seat)
    towers = sorted(lo.touching(group, "watchtower"))
    per_group = bool(lo.number("pair_per_group"))
    for i, a in enumerate(towers):
        for b in towers[i + 1 :]:
            name = pair_name(a, b)
            if per_group:
                joined_before = any(
                    old <= group
                    and a in lo.touching(old, "watchtower")
                    and b in lo.touching(old, "watchtower")
                    for old in before
                )
                if joined_before:
                    continue
            elif name in pairs:
                continue
            if name not in pairs:
                pairs.append(name)
            take(a)
            take(b)
    # LO-R9 (DE:28): a castle tile for each four Vikings of the largest own group next to it.
    castles = lo.castles(seat)
    size = int(lo.number("castle_group"))
    groups = lo.groups(seat)
    for castle in sorted(lo.touching(group, "castle")):
        largest = max(len(g) for g in groups if castle in lo.touching(g, "castle"))
        owed = largest // size - castles.get(castle, 0)
        for _ in range(max(owed, 0)):
            if left.get(castle):
                take(castle)
                castles[castle] = castles.get(castle, 0) + 1
    return Capture(tuple(taken), tuple(pairs), tuple(sorted(castles.items())))


def _owed_captures(
    lo: Looot,
    seat: str,
    group: set[str],
    taken: list[tuple[str, str]],
    left: dict[str, list[str]],
) -> Capture:
    """LO-R8 and LO-R9 as debts (the gamepark variant's ``tiles_owed``, D3 and D7).

    Each watchtower is owed one tile for every own group touching it and every other tower
    that group touches (a pair pays once per group joining it, D3); each castle is owed a tile
    for every four Vikings of the largest own group next to it (LO-R9). What the seat took
    from a building is kept per building (``towers``, ``castles``) and counts as taken even
    when a full fjord sent the tile back (D7). A stack short of tiles pays what it has; the
    rest stays owed and is paid at a later placement of the seat, anywhere, once the stack
    has tiles again, which only a full fjord's surplus brings about (``surplus_stays``). The
    German text (DE:27, a pair pays once) knows no such debt: the standard variant has none.
    """
    groups = lo.groups(seat)
    pairs = lo.pairs(seat)
    mine = sorted(lo.touching(group, "watchtower"))
    for i, a in enumerate(mine):
        for b in mine[i + 1 :]:
            if pair_name(a, b) not in pairs:
                pairs.append(pair_name(a, b))
    owed: Counter[str] = Counter()
    for g in groups:
        touched = lo.touching(g, "watchtower")
        for tower in touched:
            owed[tower] += len(touched) - 1
    towers = lo.towers(seat)
    for tower in sorted(owed):
        for _ in range(min(owed[tower] - towers.get(tower, 0), len(left.get(tower, [])))):
            taken.append((left[tower].pop(), tower))
            towers[tower] = towers.get(tower, 0) + 1
    castles = lo.castles(seat)
    size = int(lo.number("castle_group"))
    largest: Counter[str] = Counter()
    for g in groups:
        for castle in lo.touching(g, "castle"):
            largest[castle] = max(largest[castle], len(g))
    for castle in sorted(largest):
        for _ in range(
            min(largest[castle] // size - castles.get(castle, 0), len(left.get(castle, [])))
        ):
            taken.append((left[castle].pop(), castle))
            castles[castle] = castles.get(castle, 0) + 1
    return Capture(
        tuple(taken),
        tuple(pairs),
        tuple(sorted(castles.items())),
        tuple(sorted(towers.items())),
    )


# ---- the fjord (DE:20, DE:32, DE:36) --------------------------------------------------------
def contains(have: Counter[str], needs: Iterable[str]) -> bool:
    """The multiset ``needs`` is inside ``have``."""
    return not (Counter(needs) - have)


def around(lo: Looot, seat: str, space: str, kinds: Iterable[str]) -> Counter[str]:
    """The tiles of ``kinds`` on the fjord spaces next to ``space``."""
    on = lo.fjord_pieces(seat)
    pieces = lo.state.pieces
    wanted = set(kinds)
    return Counter(
        pieces[on[n]].kind
        for n in lo.fjord_neighbours(space)
        if n in on and pieces[on[n]].kind in wanted
    )


def site_done(lo: Looot, seat: str, site: str) -> bool:
    """LO-R11 (DE:32): the tiles around a site hold its requirements, resources and buildings."""
    piece = lo.state.pieces[site]
    needs = lo.data.sites[piece.props["site"]].needs
    return contains(around(lo, seat, piece.spot, TILES), needs)


def longship_done(lo: Looot, seat: str, ship: str) -> bool:
    """LO-R12 (DE:36): the resource tiles around a longship hold its three requirements."""
    piece = lo.state.pieces[ship]
    return contains(around(lo, seat, piece.spot, RESOURCES), piece.props["needs"])


def completions(lo: Looot, seat: str, space: str) -> list[str]:
    """The sites and longships next to (or on) ``space`` that are complete now and were not."""
    on = lo.fjord_pieces(seat)
    found = []
    for n in (space, *lo.fjord_neighbours(space)):
        pid = on.get(n)
        if pid is None or lo.complete(pid):
            continue
        kind = lo.state.pieces[pid].kind
        if (kind == "site" and site_done(lo, seat, pid)) or (
            kind == "longship" and longship_done(lo, seat, pid)
        ):
            found.append(pid)
    return found


# ---- the end of a turn (DE:36, DE:48, DE:52) -------------------------------------------------
def axes(lo: Looot, seat: str) -> int:
    return lo.tiles(seat)["axe"]


def trophy_offers(lo: Looot, seat: str) -> list[int]:
    """LO-R19 (DE:48): the trophies the seat may claim: it holds none, enough axes, and the
    trophy is still there."""
    if lo.trophy_of(seat) is not None:
        return []
    have = axes(lo, seat)
    return sorted(n for n in lo.trophies_left() if n <= have)


def longship_offers(lo: Looot, seat: str) -> list[str]:
    """LO-R13 (DE:36): the longships the seat may take now (one a turn, room on the fjord)."""
    if lo.longship_taken or not lo.free_spaces(seat):
        return []
    return [ship for _, ship in lo.ocean() if ship is not None]


def next_seat(lo: Looot) -> str | None:
    """LO-R4, LO-R20 (DE:52): the next seat round the table with a Viking left; None when
    nobody has one (the game is over)."""
    seats = lo.seats
    start = seats.index(lo.to_move)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if lo.vikings_left(seat):
            return seat
    return None
