"""Greenland's rulebook as declared, and the reading of the table its rules share.

``BOOK`` collects the rules the modules beside this one declare (each a
function named by its section). ``placement(view, colour)`` is where one
culture's cubes are, read once a table (kept in the table's memo): the
invariants about cubes all look at it, so a move checked costs one look at
the culture's nineteen cubes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.core import Finding, Move, Severity

from ...rules import Rulebook
from ..view import COLOURS, NORTH_CULTURES, ROW_PLACES, Greenland


def _no_reading(state: Any) -> Any:
    raise TypeError("Greenland's rulebook reads a table with its deck: use rulebook_for(cards)")


BOOK = Rulebook(reading=_no_reading)


def illegal(rule: str, message: str, *pieces: str) -> Finding:
    return Finding(rule, message, Severity.ILLEGAL, tuple(pieces))


def plays_without(view: Greenland, rule: str) -> bool:
    """The game's variant plays without ``rule`` (or the part it belongs to)."""
    off = view.rules_off
    return bool(off) and (rule in off or rule.rstrip("0123456789") in off)


_PLACE_COLOURS: dict[str, str | None] = {}


def colour_of_place(place_id: str) -> str | None:
    """The culture a per-culture place belongs to (``hunters_red``: red), else None."""
    try:
        return _PLACE_COLOURS[place_id]
    except KeyError:
        pass
    _, _, tail = place_id.rpartition("_")
    found = tail if tail in COLOURS else None
    if len(_PLACE_COLOURS) < 10_000:
        _PLACE_COLOURS[place_id] = found
    return found


class Placement:
    """Where one culture's cubes are."""

    __slots__ = (
        "small",
        "alphas",
        "hunting",
        "visiting",
        "exogamy",
        "astray",
        "tableau",
        "ranks",
        "elders",
        "permanent",
        "away",
        "sleds",
        "base",
        "order",
    )

    def __init__(self, small: int = 0, alphas: int = 0) -> None:
        self.small = small
        self.alphas = alphas
        self.hunting: dict[str, list[str]] = {}  # card -> the cubes hunting on it
        self.visiting: list[tuple[str, str, str]] = []  # (another culture's elder card, rank, cube)
        self.exogamy: list[tuple[str, str]] = []  # (daughter, husband)
        self.astray: list[tuple[str, str]] = []  # (another culture's bowl, cube)
        self.tableau: dict[str, tuple[str, list[str]]] = {}  # card -> (its owner, the cubes
        # hunting on it): the tableau cards among ``hunting``
        self.ranks: dict[str | None, int] = {}  # its elders on its own card, by rank
        self.elders: list[str] = []  # those elders
        self.permanent: frozenset[str] | None = None  # ``permanent_ids``, once read
        # E1 (transport.py): whether each card read is outside the culture's homeland, kept
        # while the cards stay where they are (a placement carried over shares it)
        self.away: dict[str, bool] = {}
        self.sleds: int | None = None  # E1: its sleds (transport.py), once read
        # the placement this one was carried over from (after_moves), which keeps the sleds
        # read for either; None: read from the cubes
        self.base: Placement | None = None
        self.order: dict[str, int] | None = None  # ``_order``, once read

    @property
    def mariners(self) -> int:
        return self.ranks.get("rank6", 0)

    @property
    def war_chiefs(self) -> int:
        return self.ranks.get("rank4", 0)


_BOWLS = ("hunters_", "valhalla_")
_BOWL_COLOURS = {f"{bowl}{colour}": colour for bowl in _BOWLS for colour in COLOURS}
_KEYS: dict[str, tuple[str, str]] = {}
_COUNT_KEYS: dict[str, tuple[str, str]] = {}
CUBES = ("cube", "alpha")


def placement(view: Greenland, colour: str) -> Placement:
    """Where ``colour``'s cubes are on this table (read once a table)."""
    state = view.state
    kept = view._placements  # on the view while no piece moves
    if kept is not None and kept[0] == state.positions:
        found = kept[1].get(colour)
        if found is not None:
            return found
    else:
        kept = view._placements = (state.positions, {})
    memo = state.positions_memo()
    key = _KEYS.get(colour) or _KEYS.setdefault(colour, ("greenland.placement", colour))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _placement(view, colour)
    kept[1][colour] = found
    return found


def after_moves(view: Greenland, moves: Sequence[Move]) -> Greenland:
    """The view of the table once ``moves`` (all that a command does) are made, to be read only
    then (the move checker's reading after a move). On a table where moves are tried in turn
    (a few checked on it already: a player or a bot trying cards), a move that sends a cube from
    its culture's own bowls to a card's hunting area (the commonest) carries the culture's
    placement on this table over with that cube added, rather than have it read from every
    cube again."""
    state = view.state
    after = Greenland(state, view.cards)
    after._off, after._seats = view._off, view._seats
    tried = view._tried  # moves checked on this table (the view is read once a table)
    view._tried = tried + 1
    if tried >= _TRIES and len(moves) == 1:
        move = moves[0]
        # Where's fields by index (no look-up on its class): the place left, the spot reached
        colour = _BOWL_COLOURS.get(move.src[0])
        if colour is not None and move.dst[2] == "hunters":
            piece = state.pieces[move.piece]
            if piece.owner == colour and piece.kind in CUBES:
                # read on this table: the cards and the culture's cubes' order stay as they are
                found = _gone_hunting(view, colour, placement(view, colour), move)
                if found is not None:  # a move raises the table's positions by one
                    after._placements = (state.positions + 1, {colour: found})
    return after


_TRIES = 4  # checked on this table before: reading the placement once for the next pays


def _gone_hunting(view: Greenland, colour: str, before: Placement, move: Move) -> Placement | None:
    """``before`` with the cube the move takes from the culture's own bowls hunting on the card
    it goes to; None when that is not so simply had (read the placement whole)."""
    card = view.state.places[move.dst[0]].parent  # the place's
    order = before.order
    if order is None:
        order = before.order = _order(view, colour)
    at = order.get(move.piece)
    if card is None or at is None or move.piece in view.state.places:
        return None
    hunting = before.hunting
    on = hunting.get(card)
    if on is not None:
        if order[on[0]] > at:
            return None  # the card's first cube would change
        on = [*on]
        i = len(on)
        while order[on[i - 1]] > at:
            i -= 1
        on.insert(i, move.piece)
        hunting = {**hunting, card: on}
    elif not hunting or order[next(reversed(hunting.values()))[0]] < at:
        hunting = {**hunting, card: [move.piece]}  # cards come in the order of their first cube
    elif order[next(iter(hunting.values()))[0]] > at:
        hunting = {card: [move.piece], **hunting}
    else:
        return None
    if view.state.pieces[card].place[:8] == "tableau_":  # (startswith parses its arguments)
        return None  # a tableau card: its hunters change the tableau's reading too: read it whole
    found = Placement.__new__(Placement)
    found.small, found.alphas, found.hunting, found.tableau = (
        before.small,
        before.alphas,
        hunting,
        before.tableau,
    )
    found.visiting, found.exogamy, found.astray = before.visiting, before.exogamy, before.astray
    found.ranks, found.elders, found.away = before.ranks, before.elders, before.away
    found.sleds, found.base, found.order = before.sleds, before, order  # the same tableau cards
    permanent = before.permanent  # the permanent ids as well: a colonist is one more
    if permanent is None:
        permanent = before.permanent = _permanent(view, before)
    found.permanent = permanent | {move.piece} if view.is_new_world(card) else permanent
    return found


def _order(view: Greenland, colour: str) -> dict[str, int]:
    """Each of the culture's cubes (``_cubes``) by its place among them."""
    memo = view.state.layout_memo()
    key = _ORDER_KEYS.get(colour) or ("greenland.cube_order", colour)
    found = memo.get(key)
    if found is None:
        found = memo[key] = {cube.id: i for i, cube in enumerate(_cubes(view, colour)[0])}
    return found


_ORDER_KEYS = {colour: ("greenland.cube_order", colour) for colour in COLOURS}


def _placement(view: Greenland, colour: str) -> Placement:
    cubes, small, alphas = _cubes(view, colour)
    found = Placement(small, alphas)
    places = view.state.places
    own = (f"hunters_{colour}", f"valhalla_{colour}")
    own_elders = f"elder-{colour}"
    hunting, ranks = found.hunting, found.ranks
    for cube in cubes:
        where = cube.place
        if where in own:
            continue
        card = places[where].parent
        if card is None:
            if where.startswith(_BOWLS):
                found.astray.append((where, cube.id))
            continue
        spot = cube.spot
        if spot == "hunters":
            on = hunting.get(card)
            if on is None:
                hunting[card] = [cube.id]
            else:
                on.append(cube.id)
        elif spot == "exogamy":
            found.exogamy.append((card, cube.id))
        elif where == own_elders:
            ranks[spot] = ranks.get(spot, 0) + 1
            found.elders.append(cube.id)
        elif where.startswith("elder-"):
            found.visiting.append((card, spot or "", cube.id))
    if hunting:
        pieces = view.state.pieces
        for card, on in hunting.items():
            holder = pieces[card].place
            if holder.startswith("tableau_"):
                found.tableau[card] = (holder[8:], on)
    return found


def permanent_ids(view: Greenland, colour: str) -> frozenset[str]:
    """The culture's cubes permanently assigned now (E4): its elders, on its own elder card or
    another's, its husbands and its colonists (in the hunting areas of New World cards)."""
    here = placement(view, colour)
    found = here.permanent
    if found is None:
        found = here.permanent = _permanent(view, here)
    return found


def _permanent(view: Greenland, here: Placement) -> frozenset[str]:
    ids = [*here.elders, *[cube for _card, cube in here.exogamy]]
    ids += [cube for _card, _spot, cube in here.visiting]
    for card, cubes in here.hunting.items():
        if view.is_new_world(card):
            ids += cubes
    return frozenset(ids)


def _cubes(view: Greenland, colour: str) -> tuple[tuple[Any, ...], int, int]:
    """A colour's cubes, and how many are small and Alphas: the same until a piece comes or
    goes (kept in the layout memo)."""
    memo = view.state.layout_memo()
    key = _COUNT_KEYS.get(colour) or _COUNT_KEYS.setdefault(
        colour, ("greenland.cube_counts", colour)
    )
    found = memo.get(key)
    if found is None:
        cubes = view.cube_pieces(colour)
        alphas = sum(1 for cube in cubes if cube.kind == "alpha")
        found = memo[key] = (cubes, len(cubes) - alphas, alphas)
    return found


def moved_cube(view: Greenland, move: Move) -> tuple[str, Any] | None:
    """(colour, piece) when the move takes a culture's cube, else None."""
    piece = view.state.pieces[move.piece]
    if piece.kind not in CUBES or piece.owner not in COLOURS:
        return None
    return piece.owner, piece


NEW_WORLD_CARD = "new world card"  # what a New World card's regions are called besides
# what a culture's bowl (unassigned hunters, Valhalla) is called besides for a move of a piece
# that is not the culture's
FOREIGN_BOWL = "another culture's bowl"
# what a card's regions are called besides for a move of a culture's piece when the card lies
# outside the culture's homeland or is a New World card (E1)
AWAY_FROM_HOME = "a card away from home"
CARD_MOVING = "a card moving"  # what the places a card (a piece carrying regions) leaves and
# reaches are called besides


def away_from_home(view: Greenland, colour: str, card: str) -> bool:
    """E1: hunters on this card are outside the culture's homeland (colonists on a New World
    card are not counted here)."""
    piece = view.state.pieces[card]
    place = piece.place
    if place in ROW_PLACES:
        if place.startswith("south" if colour == "red" else "north"):
            return False  # a biome of the homeland: the Norse South, Thule and Tunit North
    elif place.startswith("tableau_"):
        owner = place[8:]
        if owner == colour or (colour in NORTH_CULTURES and owner in NORTH_CULTURES):
            return False  # a tableau of the homeland
    row = view.cards.rows.get(piece.props.get("card", "")) or {}
    return row.get("type") != "new_world"


_FACTS = "greenland.touching"  # in the positions memo: (owner, a card?, place, place) -> touching


def _place_facts(view: Greenland, place_id: str) -> tuple[tuple[str, ...], str | None, str | None]:
    """What a move through a place touches besides it (``touching``: for a card's regions
    the place the card lies in and, for a New World card, ``NEW_WORLD_CARD``), the culture
    whose part of the table it is (``seats_touched``: a card's regions are the culture's whose
    tableau holds the card) and the card whose regions it is."""
    colour = colour_of_place(place_id)
    place = view.state.places.get(place_id)
    card = place.parent if place is not None else None
    holder = view.state.pieces.get(card) if card is not None else None
    if holder is None:
        return (), colour, None
    if colour is None:
        colour = colour_of_place(holder.place)
    if view.is_new_world(card):  # type: ignore[arg-type]
        return (holder.place, NEW_WORLD_CARD), colour, card
    return (holder.place,), colour, card


def _move_names(
    view: Greenland, owner: str | None, card: str | None, ids: tuple[str, ...]
) -> tuple[tuple[str, ...], set[str]]:
    """``touching`` for one move of a piece of ``owner`` (``card``: the piece, when it carries
    regions) from and to the places ``ids``: the names, and the seats."""
    names = ids
    seats = {owner} if owner in COLOURS else set()
    if card is not None:  # the cultures whose pieces ride on it move with it
        seats |= _riders(view, card)
    for place_id in ids:
        more, colour, under = _place_facts(view, place_id)  # under: the card it is a region of
        names += more
        if colour is not None:
            seats.add(colour)
        if _BOWL_COLOURS.get(place_id, owner) != owner and FOREIGN_BOWL not in names:
            names += (FOREIGN_BOWL,)
        if (
            under is not None
            and owner in COLOURS
            and AWAY_FROM_HOME not in names
            and (NEW_WORLD_CARD in more or away_from_home(view, owner, under))  # type: ignore[arg-type]
        ):
            names += (AWAY_FROM_HOME,)
    if card is not None:
        names += (CARD_MOVING,)
    return names, seats


def _riders(view: Greenland, card: str) -> set[str]:
    """The cultures with pieces on a card's regions."""
    regions = view.state.regions_of(card)
    if regions is None:
        return set()
    pieces = view.state.pieces
    return {o for o in (pieces[p].owner for p in regions.contents) if o in COLOURS}


def touching(view: Greenland, moves: Sequence[Move]) -> tuple[Any, tuple[str, ...]]:
    """What the moves touch (the rulebook's ``touching``): the places they leave and reach with
    what else those are called (``_place_facts``: a cube on a card of a tableau is in the
    tableau; a New World card's regions are ``NEW_WORLD_CARD``; a culture's bowl a piece of
    another's leaves or reaches, ``FOREIGN_BOWL``; a card outside the homeland of the culture
    whose piece moves, or in the New World, ``AWAY_FROM_HOME``; the places a card carrying
    regions leaves and reaches, ``CARD_MOVING``), for the rules' ``places``, and the seats
    (``seats_touched``), sorted. One move's is kept in the table's positions memo while no
    piece moves (the same places and pieces are asked about again as moves are tried)."""
    pieces, places = view.state.pieces, view.state.places
    if len(moves) != 1:
        names: dict[str, int] = {}
        seats: set[str] = set()
        for move in moves:
            more, also = _move_names(
                view,
                pieces[move.piece].owner,
                move.piece if move.piece in places else None,
                (move.src.place, move.dst.place),
            )
            names.update(dict.fromkeys(more, 0))
            seats |= also
        return frozenset(names), tuple(sorted(seats))
    move = moves[0]
    piece = move.piece
    # the places by index (Where's named fields cost a look-up on its class)
    # a card carrying regions by its id: who rides on it is its own
    key = (pieces[piece].owner, piece if piece in places else None, move.src[0], move.dst[0])
    memo = view.state.positions_memo()
    known = memo.get(_FACTS)
    if known is None:
        known = memo[_FACTS] = {}
    found = known.get(key)
    if found is None:
        more, also = _move_names(view, key[0], key[1], key[2:])
        found = known[key] = (more, tuple(sorted(also)))
    return found


def seats_touched(view: Greenland, moves: Sequence[Move]) -> set[str]:
    """The cultures whose part of the table the moves change (``touching``'s seats): the owners
    of what moves and of what rides on a card that moves, the owners of the places it leaves
    and reaches, and of the tableau cards it goes to or from."""
    return set(touching(view, moves)[1])
