"""Where things are drawn: the table's geometry, worked out from the state alone (no Qt).

Places take the rectangle their layout gives (millimetres, from the module);
per-seat places without a position are lined up in one zone per seat under
the shared ones (the seat's name up the zone's left edge); places with no layout at all are flowed into a grid. Inside
a place, pieces are put where its kind says: free x, y in an area, cells for
slots, a line for rows and hands, a pile for stacks and decks, a packed heap
in a bowl, the spaces of a board, the regions of a card. A place whose layout
says ``piles = true`` lays the pieces of one kind and owner on each other (per
space on a board) and counts each pile; ``zone_columns = true`` on a per-seat
place puts the seats' zones side by side.

A board whose shape is known only at setup (hex spaces listed in axial
coordinates) and gives no ``w`` and ``h`` takes the size its spaces need at
``cell`` millimetres across each (BOARD_CELL unless its layout says); any hex or
grid board may give ``cell`` instead of ``w`` and ``h``.

Places sized to what they hold, so a table is as dense as its contents allow:
``grow = true`` on a row or hand makes its ``w`` the least width, and it widens
to line up what it holds side by side (an empty row stays narrow until cards
arrive); on a stack or deck, it widens to its largest piece. A shared place may give ``after = "id"`` (or a list of ids) instead of
``x``: it starts right of the rightmost of them, so it moves along as they
grow; ``below`` likewise gives ``y`` under the lowest of them (a label's height
apart). In a seat's zone, ``stack_under = true`` puts a place under the one
before it when both fit in the height of the zone's tallest place (small bowls
two to a column).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tabletop.core import Place, TableState, hexes

from .units import PX_PER_MM

Size = Callable[[str], tuple[float, float]]  # piece id -> (w, h) in scene units

GAP = 4 * PX_PER_MM
ZONE_GAP = 6 * PX_PER_MM
ZONE_LABEL = 16 * PX_PER_MM  # a zone's label along its top (zones side by side)
ZONE_SIDE = 9 * PX_PER_MM  # a zone's label up its left edge (zones one under another)
LABEL_BAND = 8 * PX_PER_MM  # room above a place for its label (items.PlaceItem draws it there)
LINE_PAD = 2 * PX_PER_MM  # around and between the pieces of a row or hand
PILE_STEP = 0.5 * PX_PER_MM  # how far each piece of a pile lies above the one under it
PILE_DEPTH = 3  # a pile shows at most this many edges under its top
DEFAULT_PLACE = (70 * PX_PER_MM, 95 * PX_PER_MM)
BOARD_CELL = 28.0  # millimetres across one space of a board sized from its spaces


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.right and self.y <= y <= self.bottom

    def united(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)


@dataclass(frozen=True)
class Zone:
    """A seat's part of the table, with its label."""

    seat: str
    label: str
    colour: str
    rect: Rect
    side: bool = False  # the label runs up the zone's left edge (else along its top)


def _mm(layout: dict, key: str, default: float | None = None) -> float | None:
    value = layout.get(key)
    return value * PX_PER_MM if isinstance(value, int | float) else default


def place_size(place: Place, size: Size | None = None) -> tuple[float, float]:
    """The width and height of a place in scene units: its layout's, or for a board sized from
    its spaces (see the module's docstring), what its spaces need; a growing row or hand
    (``grow = true``) as wide as its pieces side by side need, when ``size`` gives theirs."""
    w, h = _mm(place.layout, "w"), _mm(place.layout, "h")
    if w is not None and h is not None:
        if size is not None and place.layout.get("grow") and place.kind in GROWS:
            return _grown(place, size, w, h)
        return w, h
    natural = _natural_size(place)
    if natural is None:
        return (w if w is not None else DEFAULT_PLACE[0]), (
            h if h is not None else DEFAULT_PLACE[1]
        )
    nw, nh = natural
    if w is not None:
        return w, w * nh / nw
    if h is not None:
        return h * nw / nh, h
    return nw, nh


GROWS = ("row", "hand", "stack", "deck")  # the kinds ``grow`` sizes to their contents


def _grown(place: Place, size: Size, w: float, h: float) -> tuple[float, float]:
    """A growing place's size: at least its layout's; a row or hand wide enough for its pieces
    side by side, a stack or deck for its largest piece."""
    sizes = [size(pid) for pid in place.contents]
    if not sizes:
        return w, h
    if place.kind in ("stack", "deck"):
        return (
            max(w, max(sw for sw, _ in sizes) + 2 * LINE_PAD),
            max(h, max(sh for _, sh in sizes) + 2 * LINE_PAD),
        )
    need_w = LINE_PAD + sum(sw + LINE_PAD for sw, _ in sizes)
    need_h = max(sh for _, sh in sizes) + 2 * LINE_PAD
    return max(w, need_w), max(h, need_h)


def _natural_size(place: Place) -> tuple[float, float] | None:
    spaces = place.spaces
    if spaces is None or not spaces.nodes or spaces.shape not in ("hex", "grid"):
        return None
    cell = place.layout.get("cell")
    if not isinstance(cell, int | float) or isinstance(cell, bool) or cell <= 0:
        if spaces.coords != "axial":
            return None  # a board with a fixed shape keeps the size its layout gives
        cell = BOARD_CELL
    centres, extent = _unit_centres(place)
    width, height = _extent_box(centres, extent)
    unit = cell * PX_PER_MM / (2 * extent[0])  # one space is ``cell`` across
    return width * unit, height * unit


def _unit_centres(place: Place) -> tuple[dict[str, tuple[float, float]], tuple[float, float]]:
    """The centres of a hex or grid board's spaces in units of one space, and half a space's size."""
    spaces = place.spaces
    if spaces.shape == "hex":
        orientation = spaces.orientation or "pointy"
        centres = {n: hexes.centre(spaces.axial(n), orientation) for n in spaces.nodes}
        return centres, hexes.half_extent(orientation)
    centres = {n: (float(d.get("col", 0)), float(d.get("row", 0))) for n, d in spaces.nodes.items()}
    return centres, (0.5, 0.5)


def _extent_box(
    centres: dict[str, tuple[float, float]], extent: tuple[float, float]
) -> tuple[float, float]:
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    return max(xs) - min(xs) + 2 * extent[0], max(ys) - min(ys) + 2 * extent[1]


class TableLayout:
    """The geometry of one table state. Rebuild it when places are added or removed."""

    def __init__(self, state: TableState, size: Size) -> None:
        self.state = state
        self.size = size
        self.places: dict[str, Rect] = {}
        self.zones: list[Zone] = []
        self._spots: dict[str, dict[str, Rect]] = {}
        self._board_cells: dict[str, float] = {}
        # where pieces lie, and the regions' cells on the cards, for the table's positions as
        # they are now (see _memo): a card's position is asked again for each piece on it
        self._placed: tuple[dict | None, dict] = (None, {})
        self._place_sizes: dict[str, tuple[float, float]] = {}
        self._arrange()

    # ---- places ----------------------------------------------------------
    def _place_size(self, place: Place) -> tuple[float, float]:
        """``place_size`` of a place, worked out once: arranging the places reads each size
        several times (the tallest of a line, the widest zone, then the place itself), and a
        growing place's size is the sum of its pieces'. Kept with the rectangles made of it,
        for this layout's life (a place that grows gets a new layout)."""
        size = self._place_sizes.get(place.id)
        if size is None:
            size = self._place_sizes[place.id] = place_size(place, self.size)
        return size

    def _arrange(self) -> None:
        fixed: dict[str, Rect] = {}
        relative: list[Place] = []
        by_seat: dict[str, list[Place]] = {}
        loose: list[Place] = []
        for place in self.state.places.values():
            if place.kind == "regions":
                continue
            w, h = self._place_size(place)
            x, y = _mm(place.layout, "x"), _mm(place.layout, "y")
            if x is not None and y is not None:
                fixed[place.id] = Rect(x, y, w, h)
            elif place.layout.get("after") or place.layout.get("below"):
                relative.append(place)
            elif place.owner is not None:
                by_seat.setdefault(place.owner, []).append(place)
            else:
                loose.append(place)
        loose += self._relative(relative, fixed)
        self.places.update(fixed)
        shared = _bounds(fixed.values()) or Rect(0, 0, 0, 0)
        widest_seat = max(
            (self._flow(places, 0.0, 0.0, math.inf, {})[1] for places in by_seat.values()),
            default=0.0,
        )
        seated = [s for s in self.state.seats if by_seat.get(s.id)]
        columns = any(p.layout.get("zone_columns") for s in seated for p in by_seat[s.id])
        if not columns:
            widest_seat += ZONE_SIDE  # the seat's name up the zone's edge
        width = max(shared.w, 300 * PX_PER_MM, min(widest_seat, 2 * shared.w))
        top = shared.bottom + (ZONE_GAP if fixed else 0)
        if loose:
            top = self._flow(loose, shared.x, top, width)[0] + ZONE_GAP
        if columns and seated:  # the seats' zones side by side, each as wide as its widest place
            column = max(self._place_size(p)[0] for s in seated for p in by_seat[s.id])
            column = max(column, (width - GAP * (len(seated) - 1)) / len(seated))
            left, bottom_all = shared.x, top
            for seat in seated:
                places = by_seat.pop(seat.id)
                bottom = self._flow(places, left, top + ZONE_LABEL, column)[0]
                rect = Rect(left - GAP / 2, top, column + GAP, bottom - top + GAP / 2)
                self.zones.append(Zone(seat.id, seat.name or seat.id, seat.colour, rect))
                left += column + GAP * 1.5
                bottom_all = max(bottom_all, rect.bottom)
            top = bottom_all + ZONE_GAP / 2
        for seat in self.state.seats:
            places = by_seat.pop(seat.id, [])
            if not places:
                continue
            left = shared.x + ZONE_SIDE
            bottom = self._flow(places, left, top + LABEL_BAND, width - ZONE_SIDE)[0]
            rect = Rect(shared.x - GAP / 2, top, width + GAP, bottom - top + GAP / 2)
            self.zones.append(Zone(seat.id, seat.name or seat.id, seat.colour, rect, side=True))
            top = rect.bottom + ZONE_GAP / 2
        for places in by_seat.values():  # owners that are not seats
            top = self._flow(places, shared.x, top, width)[0] + ZONE_GAP

    def _relative(self, places: list[Place], fixed: dict[str, Rect]) -> list[Place]:
        """Place what is laid out ``after`` or ``below`` others (into ``fixed``), in the order
        the places they name are known; returns those naming no place that is laid out."""
        todo = list(places)
        while todo:
            left = []
            for place in todo:
                after = _names(place.layout.get("after"))
                below = _names(place.layout.get("below"))
                if any(n not in fixed for n in after + below):
                    left.append(place)
                    continue
                w, h = self._place_size(place)
                x = _mm(place.layout, "x")
                y = _mm(place.layout, "y")
                if after:
                    x = max(fixed[n].right for n in after) + GAP
                if below:
                    y = max(fixed[n].bottom for n in below) + LABEL_BAND
                    if x is None:
                        x = min(fixed[n].x for n in below)
                fixed[place.id] = Rect(x or 0.0, y or 0.0, w, h)
            if len(left) == len(todo):
                return left  # they name places that are not there: flowed as any other
            todo = left
        return []

    def _flow(
        self,
        places: list[Place],
        left: float,
        top: float,
        width: float,
        into: dict[str, Rect] | None = None,
    ) -> tuple[float, float]:
        """Line places up left to right, wrapping at ``width``, into ``into`` (the table's
        places unless given); returns the bottom and the widest line's width. A place with
        ``stack_under`` goes under the one before it when both fit in the tallest's height."""
        rects = self.places if into is None else into
        x, y, row_h, widest = left, top, 0.0, 0.0
        tallest = max((self._place_size(p)[1] for p in places), default=0.0)
        below: Rect | None = None  # the place the next may go under
        for place in places:
            w, h = self._place_size(place)
            if (
                below is not None
                and place.layout.get("stack_under")
                and w <= below.w + 0.01
                and below.bottom + LABEL_BAND + h <= y + tallest + 0.01
            ):
                rect = Rect(below.x, below.bottom + LABEL_BAND, w, h)
                rects[place.id] = rect
                below = rect
                row_h = max(row_h, rect.bottom - y)
                continue
            if x > left and x + w > left + width:
                x, y, row_h = left, y + row_h + GAP, 0.0
            rect = Rect(x, y, w, h)
            rects[place.id] = rect
            below = rect
            x += w + GAP
            row_h = max(row_h, h)
            widest = max(widest, rect.right - left)
        return y + row_h, widest

    def bounds(self) -> Rect:
        """Everything on the table, places and zones."""
        rects = list(self.places.values()) + [z.rect for z in self.zones]
        return _bounds(rects) or Rect(0, 0, 100 * PX_PER_MM, 100 * PX_PER_MM)

    def _memo(self) -> dict:
        """What this layout worked out of where the pieces lie, kept as long as the table's
        positions memo (TableState.positions_memo, which _order uses too) is the one it was
        worked out beside: a command that moves, flips, adds or removes a piece or place or
        sets a property starts a new one, and a table taken back to a mark (back_to) has the
        one of that time again. The places' rectangles are this layout's own, fixed for its
        life (a place that grows gets a new layout): positions depend on nothing else."""
        table_memo = self.state.positions_memo()
        kept_for, memo = self._placed
        if kept_for is not table_memo:
            memo = {}
            self._placed = (table_memo, memo)
        return memo

    def place_rect(self, place_id: str) -> Rect:
        """The rectangle of a place; a card's regions take the card's rectangle."""
        place = self.state.places[place_id]
        if place.parent is not None:
            x, y = self.piece_pos(place.parent)
            w, h = self.size(place.parent)
            return Rect(x, y, w, h)
        return self.places[place_id]

    # ---- spots -----------------------------------------------------------
    def spots(self, place_id: str) -> dict[str, Rect]:
        """The rectangle of each spot (slots, board spaces, regions), in scene units."""
        place = self.state.places[place_id]
        if place.parent is not None:  # a card's regions move with the card
            memo = self._memo()
            key = ("regions", place_id)
            cells = memo.get(key)
            if cells is None:
                cells = memo[key] = region_cells(place.spots, self.place_rect(place_id))
            return cells
        rect = self.place_rect(place_id)
        cached = self._spots.get(place_id)
        if cached is None:
            if place.kind == "board":
                cached = self._board_spots(place, rect)
            else:
                cached = _grid_cells(place.spots, rect)
            self._spots[place_id] = cached
        return cached

    def _board_spots(self, place: Place, rect: Rect) -> dict[str, Rect]:
        nodes = place.spaces.nodes
        shape = place.spaces.shape
        centres: dict[str, tuple[float, float]] = {}
        if shape in ("hex", "grid"):
            centres, extent = _unit_centres(place)
        else:
            given = {n: (d["x"], d["y"]) for n, d in nodes.items() if "x" in d and "y" in d}
            if len(given) == len(nodes):
                centres = {n: (float(x), float(y)) for n, (x, y) in given.items()}
            elif len(nodes) > 1:
                # no coordinates: round a ring, in the order a walk along the edges meets them
                # (networkx's spring layout needs numpy, which the table does not depend on)
                order = _walk(list(nodes), place.spaces.edges)
                turn = 2 * math.pi / len(order)
                centres = {n: (math.cos(i * turn), math.sin(i * turn)) for i, n in enumerate(order)}
            else:
                centres = {n: (0.0, 0.0) for n in nodes}
            span = _span(centres.values())
            radius = 0.22 * max(span[0], span[1], 1e-6) / max(1.0, math.sqrt(len(centres)) - 1)
            extent = (radius, radius)
        return _fit_cells(centres, extent, rect, hexes=shape == "hex")

    def is_hex(self, place_id: str) -> bool:
        spaces = self.state.places[place_id].spaces
        return spaces is not None and spaces.shape == "hex"

    def cell_radius(self, place_id: str) -> float:
        """Half the width of a board space."""
        spots = self.spots(place_id)
        first = next(iter(spots.values()), None)
        return first.w / 2 if first else 0.0

    def spot_at(self, place_id: str, x: float, y: float) -> str | None:
        """The spot under a point, or the nearest one within reach (on a hex board the boxes
        of neighbouring hexes overlap: the nearest centre is the hex under the point)."""
        hex_board = self.state.places[place_id].kind == "board" and self.is_hex(place_id)
        best, best_d = None, math.inf
        for spot, cell in self.spots(place_id).items():
            if cell.contains(x, y) and not hex_board:
                return spot
            cx, cy = cell.centre
            d = math.hypot(cx - x, cy - y)
            if d < best_d:
                best, best_d = spot, d
        return best

    # ---- pieces ----------------------------------------------------------
    def _order(self, place: Place) -> _Order:
        """Where each piece lies in ``place``: worked out in one pass over its contents and
        kept in the table's positions memo until a command moves something, so laying out
        all the pieces of a place costs one pass, not one pass a piece."""
        memo = self.state.positions_memo()
        key = (_Order, place.id)
        order = memo.get(key)
        if order is None:
            order = memo[key] = _Order(place, self.state)
        return order

    def piece_pos(self, pid: str) -> tuple[float, float]:
        """The top-left corner of a piece in scene units."""
        memo = self._memo()
        pos = memo.get(pid)
        if pos is None:
            pos = memo[pid] = self._piece_pos(pid)
        return pos

    def _piece_pos(self, pid: str) -> tuple[float, float]:
        piece = self.state.pieces[pid]
        place = self.state.places[piece.place]
        rect = self.place_rect(place.id)
        w, h = self.size(pid)
        order = self._order(place)
        index = order.index[pid]
        count = len(place.contents)
        kind = place.kind
        if self.piles(place.id):
            return self._pile_pos(place, pid, rect)
        if place.spots:
            cell = self.spots(place.id).get(piece.spot or "")
            if cell is None:
                return rect.x, rect.y
            same = order.on_spot[piece.spot]
            if kind == "board" and self.is_hex(place.id):
                pointy = place.spaces.orientation == "pointy"
                sizes = [self.size(p) for p in same]
                return _hex_cluster(cell, pointy, order.spot_index[pid], sizes)
            return _cluster(cell, order.spot_index[pid], len(same), w, h)
        if kind == "area":
            if piece.x is not None and piece.y is not None:
                return rect.x + piece.x * PX_PER_MM, rect.y + piece.y * PX_PER_MM
            return _packed(rect, index, count, w, h)
        if kind in ("row", "hand"):
            return _line(rect, index, count, w, h, overlap=kind == "hand")
        if kind in ("stack", "deck"):
            shift = min(index, 4) * 0.6 * PX_PER_MM
            return rect.x + (rect.w - w) / 2 - shift, rect.y + (rect.h - h) / 2 - shift
        if kind == "bowl":
            return _in_bowl(rect, index, count, w, h, self._bowl_step(place))
        return _packed(rect, index, count, w, h)

    def _bowl_step(self, place: Place) -> tuple[float, float]:
        """The cell a bowl packs its pieces in: its smallest piece's size (kept in the
        positions memo, like the order of its contents)."""
        memo = self.state.positions_memo()
        key = ("bowl step", place.id)
        step = memo.get(key)
        if step is None:
            sizes = [self.size(p) for p in place.contents]
            step = memo[key] = (min(s[0] for s in sizes), min(s[1] for s in sizes))
        return step

    # ---- piles: pieces of one kind on one spot (or in one bowl) lie on each other --------
    def piles(self, place_id: str) -> bool:
        """Whether the place piles its pieces by kind (``layout = { piles = true }``)."""
        return bool(self.state.places[place_id].layout.get("piles"))

    def _groups(self, place: Place, spot: str | None) -> dict[tuple, list[str]]:
        """The piles of one spot (or of the whole place when it has no spots), by kind and
        owner, in the order each first lies there; within a pile, later lies above."""
        return self._order(place).piles(spot if place.spots else None)

    def _pile_pos(self, place: Place, pid: str, rect: Rect) -> tuple[float, float]:
        piece = self.state.pieces[pid]
        groups = self._groups(place, piece.spot)
        names = list(groups)
        group = groups[(piece.kind, piece.owner)]
        heads = [self.size(g[-1]) for g in groups.values()]
        w, h = self.size(pid)
        i = names.index((piece.kind, piece.owner))
        if place.spots:
            cell = self.spots(place.id).get(piece.spot or "")
            if cell is None:
                return rect.x, rect.y
            if place.kind == "board" and self.is_hex(place.id):
                pointy = place.spaces.orientation == "pointy"
                x, y = _hex_cluster(cell, pointy, i, heads)
            else:
                x, y = _cluster(cell, i, len(names), w, h)
        else:
            step_w = max(s[0] for s in heads)
            step_h = max(s[1] for s in heads)
            pack = _in_bowl if place.kind == "bowl" else _packed
            x, y = pack(rect, i, len(names), step_w, step_h)
        depth = min(self._order(place).pile_index[pid], PILE_DEPTH)
        lift = depth * PILE_STEP - min(len(group) - 1, PILE_DEPTH) * PILE_STEP / 2
        return x - lift, y - lift

    def pile_count(self, pid: str) -> int:
        """How many pieces lie in the pile whose top is ``pid`` (0: not a pile's top, or a
        place that does not pile)."""
        piece = self.state.pieces[pid]
        place = self.state.places[piece.place]
        if not self.piles(place.id):
            return 0
        group = self._groups(place, piece.spot).get((piece.kind, piece.owner), [])
        return len(group) if group and group[-1] == pid else 0

    def piece_z(self, pid: str) -> float:
        """Stacking order: later in a place lies above; what lies on a card lies above the card."""
        piece = self.state.pieces[pid]
        place = self.state.places[piece.place]
        index = self._order(place).index[pid]
        if place.parent is not None:
            return self.piece_z(place.parent) + 0.5 + index * 0.001
        return 10.0 + index * 0.01

    def index_at(self, place_id: str, x: float, y: float, moving: str | None = None) -> int | None:
        """Where a piece dropped at x, y goes in an ordered place (None: on top / at the end)."""
        place = self.state.places[place_id]
        if place.kind not in ("row", "hand"):
            return None
        others = [p for p in place.contents if p != moving]
        for i, pid in enumerate(others):
            px, _ = self.piece_pos(pid)
            w, _ = self.size(pid)
            if x < px + w / 2:
                return i
        return len(others)


class _Order:
    """One place's contents read in one pass: each piece's index, the pieces on each spot in
    order and each piece's index among them, and (for a place that piles) the piles of each
    spot by kind and owner with each piece's depth in its pile."""

    __slots__ = ("index", "on_spot", "spot_index", "_piles", "pile_index", "_pieces", "_place")

    def __init__(self, place: Place, state: TableState) -> None:
        pieces = state.pieces
        self.index: dict[str, int] = {}
        self.on_spot: dict[str | None, list[str]] = {}
        self.spot_index: dict[str, int] = {}
        for i, pid in enumerate(place.contents):
            self.index[pid] = i
            same = self.on_spot.setdefault(pieces[pid].spot, [])
            self.spot_index[pid] = len(same)
            same.append(pid)
        self._piles: dict[str | None, dict[tuple, list[str]]] | None = None
        self.pile_index: dict[str, int] = {}
        self._pieces = pieces
        self._place = place

    def piles(self, spot: str | None) -> dict[tuple, list[str]]:
        """The piles on ``spot`` (None: the whole place), by (kind, owner) in the order each
        first lies there."""
        if self._piles is None:
            self._piles = {}
            spotted = bool(self._place.spots)
            for pid in self._place.contents:
                other = self._pieces[pid]
                groups = self._piles.setdefault(other.spot if spotted else None, {})
                group = groups.setdefault((other.kind, other.owner), [])
                self.pile_index[pid] = len(group)
                group.append(pid)
        return self._piles.get(spot, {})


def _names(value: object) -> list[str]:
    """A layout's ``after``/``below``: one place id or a list of them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return []


def _bounds(rects) -> Rect | None:
    result = None
    for rect in rects:
        result = rect if result is None else result.united(rect)
    return result


def _walk(nodes: list[str], edges) -> list[str]:  # noqa: ANN001 - {(a, b): attrs}
    """The spaces in the order a depth-first walk along the edges meets them."""
    near: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    order: list[str] = []
    seen: set[str] = set()
    for start in nodes:
        todo = [start]
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            order.append(node)
            todo.extend(reversed(near[node]))
    return order


def _span(points) -> tuple[float, float]:
    xs, ys = zip(*points, strict=True) if points else ((0.0,), (0.0,))
    return max(xs) - min(xs), max(ys) - min(ys)


def _fit_cells(
    centres: dict[str, tuple[float, float]], extent: tuple[float, float], rect: Rect, hexes: bool
) -> dict[str, Rect]:
    """Scale unit-sized cells around their centres to fill ``rect``, keeping their shape."""
    if not centres:
        return {}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    width = max(xs) - min(xs) + 2 * extent[0]
    height = max(ys) - min(ys) + 2 * extent[1]
    scale = min(rect.w / width, rect.h / height)
    ox = rect.x + (rect.w - width * scale) / 2 - (min(xs) - extent[0]) * scale
    oy = rect.y + (rect.h - height * scale) / 2 - (min(ys) - extent[1]) * scale
    cells = {}
    for node, (cx, cy) in centres.items():
        w, h = 2 * extent[0] * scale, 2 * extent[1] * scale
        cells[node] = Rect(ox + cx * scale - w / 2, oy + cy * scale - h / 2, w, h)
    return cells


def _grid_cells(names: tuple[str, ...], rect: Rect, prefer_rows: bool = False) -> dict[str, Rect]:
    n = len(names)
    if not n:
        return {}
    if prefer_rows:
        cols = 2 if n > 3 else 1
    elif rect.w >= rect.h:
        cols = max(1, min(n, round(math.sqrt(n * rect.w / max(rect.h, 1)))))
    else:
        cols = max(1, round(math.sqrt(n * rect.w / max(rect.h, 1))))
    rows = math.ceil(n / cols)
    cw, ch = rect.w / cols, rect.h / rows
    if prefer_rows:  # regions: fill down the first column, then the next (ranks read top to bottom)
        return {
            name: Rect(rect.x + (i // rows) * cw, rect.y + (i % rows) * ch, cw, ch)
            for i, name in enumerate(names)
        }
    return {
        name: Rect(rect.x + (i % cols) * cw, rect.y + (i // cols) * ch, cw, ch)
        for i, name in enumerate(names)
    }


def region_cells(names: tuple[str, ...], card: Rect) -> dict[str, Rect]:
    """Where a card's regions lie: a lone region is a strip along the card's bottom edge, under
    the printed lines, so what lies in it hides none of them; several (an elder's ranks)
    share the card under its title."""
    if len(names) == 1:
        return {names[0]: strip_area(card)}
    return _grid_cells(names, _region_area(card), prefer_rows=True)


STRIP_HEIGHT = 0.12  # of a card's height: a cube and a margin on a 88 mm card
STRIP_MARGIN = 0.035  # between the strip and the card's bottom edge


def strip_area(card: Rect) -> Rect:
    """A card's bottom strip, inside its border, where the pieces of a lone region lie."""
    h = card.h * STRIP_HEIGHT
    return Rect(card.x + card.w * 0.06, card.bottom - card.h * STRIP_MARGIN - h, card.w * 0.88, h)


def _region_area(card: Rect) -> Rect:
    """Regions fill the lower part of a card, under its title."""
    top = card.y + card.h * 0.3
    return Rect(card.x + card.w * 0.06, top, card.w * 0.88, card.bottom - card.h * 0.05 - top)


def _cluster(cell: Rect, i: int, n: int, w: float, h: float) -> tuple[float, float]:
    """Several pieces in one cell: side by side if they fit, else fanned from the centre."""
    cx, cy = cell.centre
    if n == 1:
        return cx - w / 2, cy - h / 2
    cols = max(1, min(n, int(cell.w // max(w * 1.05, 1))))
    if cols >= 2:
        rows = math.ceil(n / cols)
        step_x = min(w * 1.1, cell.w / cols)
        step_y = min(h * 1.1, cell.h / max(rows, 1))
        col, row = i % cols, i // cols
        x0 = cx - step_x * (min(n, cols) - 1) / 2
        y0 = cy - step_y * (rows - 1) / 2
        return x0 + col * step_x - w / 2, y0 + row * step_y - h / 2
    step = 2 * PX_PER_MM
    return cx - w / 2 + (i - (n - 1) / 2) * step, cy - h / 2 + (i - (n - 1) / 2) * step


def _hex_cluster(
    cell: Rect, pointy: bool, i: int, sizes: list[tuple[float, float]]
) -> tuple[float, float]:
    """The top-left corner of the i-th of the pieces on a hex: in the fewest centred rows that
    fit inside the hexagon, else side by side overlapping along its middle."""
    if pointy:  # work on the hex turned a quarter, so its flat sides are at top and bottom
        turned = Rect(cell.y, cell.x, cell.h, cell.w)
        y, x = _hex_cluster(turned, False, i, [(h, w) for w, h in sizes])
        return x, y
    n = len(sizes)
    w = max(s[0] for s in sizes)
    h = max(s[1] for s in sizes)
    own_w, own_h = sizes[i]
    cx, cy = cell.centre
    size = cell.w / 2  # centre to corner
    gap = 0.06 * min(w, h)
    for rows in range(1, n + 1):
        cols = math.ceil(n / rows)
        block_w = cols * w + (cols - 1) * gap
        block_h = rows * h + (rows - 1) * gap
        # a flat-topped hex is 2 * (size - |y| / √3) wide at height y from its centre
        if block_h / 2 <= size * math.sqrt(3) / 2 and block_w / 2 <= size - block_h / 2 / math.sqrt(
            3
        ):
            row, col = divmod(i, cols)
            in_row = min(cols, n - row * cols)  # the last row is centred too
            x = cx - (in_row * w + (in_row - 1) * gap) / 2 + col * (w + gap) + (w - own_w) / 2
            y = cy - block_h / 2 + row * (h + gap) + (h - own_h) / 2
            return x, y
    room = 2 * (size - h / 2 / math.sqrt(3))  # one overlapping row along the middle
    step = (room - w) / (n - 1) if n > 1 else 0.0
    step = max(min(step, w + gap), w * 0.25)
    x = cx - (step * (n - 1) + w) / 2 + i * step + (w - own_w) / 2
    return x, cy - own_h / 2


def _line(rect: Rect, i: int, n: int, w: float, h: float, overlap: bool) -> tuple[float, float]:
    pad = 2 * PX_PER_MM
    step = w + pad
    room = rect.w - 2 * pad - w
    if n > 1 and step * (n - 1) > room:
        step = max(room / (n - 1), w * 0.15)
    elif overlap and n > 1:
        step = min(step, w * 0.75 if n > 6 else step)
    return rect.x + pad + i * step, rect.y + (rect.h - h) / 2


def bowl_radius(rect: Rect) -> float:
    """How round a bowl's corners are drawn."""
    return min(rect.h / 2.5, rect.w / 2, rect.h / 2)


def bowl_inside(rect: Rect) -> Rect:
    """The largest box inside a bowl's rounded outline (its corners cut by the rounding)."""
    inset = bowl_radius(rect) * (1 - 1 / math.sqrt(2))
    return Rect(rect.x + inset, rect.y + inset, rect.w - 2 * inset, rect.h - 2 * inset)


def _in_bowl(
    rect: Rect, i: int, n: int, w: float, h: float, step: tuple[float, float] | None = None
) -> tuple[float, float]:
    """Pieces in a bowl: packed in rows of ``step`` (the smallest piece's size: one piece a
    cell, a larger one centred on its cell), the block centred inside the bowl's rounded
    outline; rows that do not fit overlap, and every piece is kept inside the outline."""
    pad = 2 * PX_PER_MM
    sw, sh = step or (w, h)
    inner = bowl_inside(rect)
    if w > inner.w or h > inner.h:  # a bowl too small for the piece: over its whole box
        return _packed(rect, i, n, w, h)
    cols = max(1, int((inner.w + pad) // (sw + pad)))
    rows = math.ceil(max(n, 1) / cols)
    step_y = sh + pad
    if rows > 1 and (rows - 1) * step_y + sh > inner.h:
        step_y = (inner.h - sh) / (rows - 1)  # the rows overlap
    block_w = min(n, cols) * (sw + pad) - pad
    block_h = (rows - 1) * step_y + sh
    x0 = inner.x + (inner.w - block_w) / 2
    y0 = inner.y + max(0.0, (inner.h - block_h) / 2)
    col, row = i % cols, i // cols
    x = x0 + col * (sw + pad) + (sw - w) / 2
    y = y0 + row * step_y + (sh - h) / 2
    return min(max(x, inner.x), inner.right - w), min(max(y, inner.y), inner.bottom - h)


def _packed(rect: Rect, i: int, n: int, w: float, h: float) -> tuple[float, float]:
    """Pieces packed in rows inside a rectangle, squeezed if they do not fit."""
    pad = 2 * PX_PER_MM
    cols = max(1, int((rect.w - pad) // (w + pad)))
    rows_needed = math.ceil(n / cols)
    step_y = h + pad
    if rows_needed > 1 and pad + rows_needed * step_y > rect.h:
        step_y = max((rect.h - pad - h) / (rows_needed - 1), h * 0.2)
    col, row = i % cols, i // cols
    return rect.x + pad + col * (w + pad), rect.y + pad + row * step_y
