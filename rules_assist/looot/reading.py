"""Looot's reading of the table: the table in the game's words, read by the rules, the
procedures, the moves and the flow alike.

Where things lie:
- ``landscape`` (board, axial ``"q,r"`` spaces with ``terrain``): Vikings, building stacks,
  the longships on the water spaces and the trophies on the trophy spaces;
- ``fjord_{seat}`` (board, even-q ``"col,row"``): the seat's tiles, longships and sites;
- ``vikings_{seat}``: the Vikings still to place; ``shields_{seat}``: the three shields (face
  up until used, LO-R15) and the trophy slot; ``gained_{seat}``: the tiles gained this turn
  and not yet laid on the fjord;
- ``bag`` (a hidden deck, drawn from the top), ``supply`` (resource tiles), ``discard``.

Counters: ``seat`` (to move), ``phase`` (vikings, tiles, end, over), ``turn``, ``left`` (the
Viking placements still open this turn), ``armed`` (shields chosen for the next placement,
comma-separated), ``longship`` (the ocean space a longship was taken from this turn, or
empty). Per seat, place properties of the fjord: ``pairs`` (watchtower pairs claimed, LO-R8),
``towers`` (watchtower tiles taken per watchtower hex, with ``tiles_owed``, LO-R8) and
``castles`` (castle tiles taken per castle hex, LO-R9).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tabletop.core import TableState

from .layout import BUILDINGS, RESOURCES, SHIELDS, LoootData, cell_of, load_data

LANDSCAPE, BAG, SUPPLY, DISCARD = "landscape", "bag", "supply", "discard"
VIKINGS, TILES, END, OVER = "vikings", "tiles", "end", "over"
PHASES = (VIKINGS, TILES, END, OVER)
TROPHY_SLOT = "trophy"


def fjord(seat: str) -> str:
    return f"fjord_{seat}"


def supply_of(seat: str) -> str:
    return f"vikings_{seat}"


def shields(seat: str) -> str:
    return f"shields_{seat}"


def gained(seat: str) -> str:
    return f"gained_{seat}"


def seat_name(state: TableState, seat: str) -> str:
    """A seat as players call it ('Blue'): the name given at the new game, else the seat's id."""
    found = next((s for s in state.seats if s.id == seat), None)
    return str(found.name or seat) if found is not None else seat


@dataclass
class Looot:
    """The table in Looot's words: the turn, the landscape, each seat's fjord and supplies."""

    state: TableState
    game: Any

    # ---- the variant and its numbers ----------------------------------------------------
    @property
    def variant(self) -> Any:
        return self.game.variant(self.state)

    def number(self, name: str) -> Any:
        """One of the rules' numbers or readings: the variant's, else the module's constant."""
        key = (self.state.counters.get("variant"), name)
        found = self._numbers.get(key, self._numbers)
        if found is self._numbers:
            found = self._numbers[key] = self.game.number(self.variant, name)
        return found

    @cached_property
    def _numbers(self) -> dict[tuple[Any, str], Any]:
        """The numbers read so far, by the variant recorded and the name."""
        return {}

    @cached_property
    def data(self) -> LoootData:
        return load_data()

    # ---- the turn -----------------------------------------------------------------------
    @cached_property
    def seats(self) -> list[str]:
        return [s.id for s in self.state.seats]

    def name(self, seat: str) -> str:
        """A seat as players call it: the name given at the new game, else the seat's own name."""
        return seat_name(self.state, seat)

    @property
    def to_move(self) -> str:
        return str(self.state.counters.get("seat") or self.seats[0])

    @property
    def phase(self) -> str:
        return str(self.state.counters.get("phase") or VIKINGS)

    @property
    def turn(self) -> int:
        return int(self.state.counters.get("turn") or 1)

    @property
    def placements_left(self) -> int:
        """Viking placements still open this turn (1, or 2 after PlayAgain)."""
        return int(self.state.counters.get("left") or 0)

    @property
    def armed(self) -> tuple[str, ...]:
        """The shields chosen for the coming placement."""
        text = str(self.state.counters.get("armed") or "")
        return tuple(s for s in text.split(",") if s)

    @property
    def longship_taken(self) -> str:
        """The ocean space a longship was taken from this turn ('' for none, LO-R13)."""
        return str(self.state.counters.get("longship") or "")

    # ---- the landscape ------------------------------------------------------------------
    @cached_property
    def terrain(self) -> dict[str, str]:
        """Each landscape space's terrain (static: the layout memo)."""
        memo = self.state.layout_memo()
        found = memo.get("looot.terrain")
        if found is None:
            nodes = self._board(LANDSCAPE).nodes
            found = memo["looot.terrain"] = {n: str(d.get("terrain", "")) for n, d in nodes.items()}
        return found

    @cached_property
    def adjacent(self) -> dict[str, tuple[str, ...]]:
        """Each landscape space's neighbours (static: the layout memo)."""
        memo = self.state.layout_memo()
        found = memo.get("looot.adjacent")
        if found is None:
            found = memo["looot.adjacent"] = neighbours_of(self._board(LANDSCAPE))
        return found

    def _board(self, place: str) -> Any:
        """A board place's spaces and edges (plain data: no graph is built for the rules)."""
        return self.state.place(place).spaces

    @property
    def _where(self) -> dict[str, Any]:
        """What lies on each landscape space, by kind (the positions memo: read afresh each
        time, so what is kept from it in the memo is of the table as it is now)."""
        memo = self.state.positions_memo()
        found = memo.get("looot.where")
        if found is None:
            vikings: dict[str, list[str]] = {}
            stacks: dict[str, list[str]] = {}
            ships: dict[str, str] = {}
            trophies: dict[str, str] = {}
            pieces = self.state.pieces
            for pid in self.state.place(LANDSCAPE).contents:
                piece = pieces[pid]
                if piece.kind == "viking":
                    vikings.setdefault(piece.spot, []).append(pid)
                elif piece.kind in BUILDINGS:
                    stacks.setdefault(piece.spot, []).append(pid)
                elif piece.kind == "longship":
                    ships[piece.spot] = pid
                elif piece.kind == "trophy":
                    trophies[piece.spot] = pid
            found = memo["looot.where"] = {
                "vikings": vikings,
                "stacks": stacks,
                "ships": ships,
                "trophies": trophies,
            }
        return found

    def occupied(self) -> list[str]:
        """The landscape spaces holding a Viking of any colour."""
        return list(self._where["vikings"])

    def vikings_on(self, space: str) -> list[str]:
        return self._where["vikings"].get(space, [])

    def owners_on(self, space: str) -> set[str]:
        pieces = self.state.pieces
        return {pieces[v].owner for v in self.vikings_on(space)}

    def stack(self, space: str) -> list[str]:
        """The building tiles still on a building space (LO-R10), top last."""
        return self._where["stacks"].get(space, [])

    def stacks(self) -> dict[str, list[str]]:
        """Each building space with tiles left -> its tiles, top last (LO-R10)."""
        return self._where["stacks"]

    def ship_on(self, space: str) -> str | None:
        return self._where["ships"].get(space)

    def trophy_on(self, space: str) -> str | None:
        return self._where["trophies"].get(space)

    @cached_property
    def water(self) -> list[str]:
        """The water spaces, in the ocean board's order 0..4."""
        memo = self.state.layout_memo()
        found = memo.get("looot.water")
        if found is None:
            nodes = self._board(LANDSCAPE).nodes
            found = memo["looot.water"] = [
                n
                for _, n in sorted(
                    (int(str(d.get("local", "0,0")).split(",")[0]), n)
                    for n, d in nodes.items()
                    if d.get("terrain") == "water"
                )
            ]
        return found

    def own_spaces(self, seat: str) -> set[str]:
        """The landscape spaces holding one of the seat's Vikings."""
        memo = self.state.positions_memo()
        found = memo.get(("looot.own", seat))
        if found is None:
            pieces = self.state.pieces
            found = memo["looot.own", seat] = frozenset(
                space
                for space, ids in self._where["vikings"].items()
                if any(pieces[v].owner == seat for v in ids)
            )
        return set(found)

    def group_of(self, seat: str, space: str) -> set[str]:
        """The connected group of the seat's own Vikings holding ``space`` (LO-R8, LO-R9)."""
        own = self.own_spaces(seat)
        if space not in own:
            return set()
        group, todo = {space}, [space]
        while todo:
            for n in self.adjacent[todo.pop()]:
                if n in own and n not in group:
                    group.add(n)
                    todo.append(n)
        return group

    def groups(self, seat: str) -> list[set[str]]:
        own, found = self.own_spaces(seat), []
        seen: set[str] = set()
        for space in sorted(own):
            if space not in seen:
                group = self.group_of(seat, space)
                seen |= group
                found.append(group)
        return found

    def touching(self, spaces: set[str], terrain: str) -> set[str]:
        """The spaces of ``terrain`` next to any of ``spaces``."""
        return {n for s in spaces for n in self.adjacent[s] if self.terrain.get(n) == terrain}

    # ---- the seats' own things -----------------------------------------------------------
    def vikings_left(self, seat: str) -> list[str]:
        return list(self.state.place(supply_of(seat)).contents)

    def _shields(self, seat: str, face_up: bool) -> list[str]:
        """The seat's shields lying face up (or down), by name, in the printed order. Read by
        the spot each lies on, which names it (the setup puts each on its own), not by piece
        id: in a seat's view of the table (a live game's, a play-by-email copy) a face-down
        shield is an anonymous stand-in, and its spot still says which it was."""
        place = self.state.place(shields(seat))
        pieces = self.state.pieces
        found = {
            pieces[p].spot
            for p in place.contents
            if pieces[p].kind == "shield" and pieces[p].face_up == face_up
        }
        return [s for s in SHIELDS if s in found]

    def shields_unused(self, seat: str) -> list[str]:
        """The shields not used yet (face up), by name, in the printed order."""
        return self._shields(seat, True)

    def shields_used(self, seat: str) -> list[str]:
        """The shields used (turned face down), by name, in the printed order."""
        return self._shields(seat, False)

    def trophy_of(self, seat: str) -> int | None:
        """The axes the seat's trophy needed (LO-R19), or None."""
        for pid in self.state.place(shields(seat)).contents:
            piece = self.state.pieces[pid]
            if piece.kind == "trophy":
                return int(piece.props["axes"])
        return None

    def gained(self, seat: str) -> list[str]:
        """The tiles gained this turn and not yet laid, in the order gained."""
        return list(self.state.place(gained(seat)).contents)

    def fjord_pieces(self, seat: str) -> dict[str, str]:
        """Each occupied fjord space -> the piece on it (a tile, a longship or a site)."""
        pieces = self.state.pieces
        return {pieces[p].spot: p for p in self.state.place(fjord(seat)).contents}

    def free_spaces(self, seat: str) -> list[str]:
        """The empty fjord spaces, in the order of the board's rows then columns."""
        taken = self.fjord_pieces(seat)
        memo = self.state.layout_memo()
        order = memo.get("looot.free_order")
        if order is None:
            cells = sorted(self.data.fjord_free, key=lambda cell: (cell[1], cell[0]))
            order = memo["looot.free_order"] = tuple(f"{c},{r}" for c, r in cells)
        return [space for space in order if space not in taken]

    def fjord_neighbours(self, space: str) -> tuple[str, ...]:
        memo = self.state.layout_memo()
        found = memo.get("looot.fjord_adjacent")
        if found is None:
            found = memo["looot.fjord_adjacent"] = neighbours_of(self._board(fjord(self.seats[0])))
        return found[space]

    def tiles(self, seat: str) -> Counter[str]:
        """The seat's tiles on the fjord, by type (resources and buildings)."""
        pieces = self.state.pieces
        return Counter(
            pieces[p].kind
            for p in self.state.place(fjord(seat)).contents
            if pieces[p].kind in RESOURCES + BUILDINGS
        )

    def longships(self, seat: str) -> list[str]:
        pieces = self.state.pieces
        return [p for p in self.state.place(fjord(seat)).contents if pieces[p].kind == "longship"]

    def sites(self, seat: str) -> list[str]:
        pieces = self.state.pieces
        return [p for p in self.state.place(fjord(seat)).contents if pieces[p].kind == "site"]

    def complete(self, pid: str) -> bool:
        return bool(self.state.pieces[pid].props.get("complete"))

    def pairs(self, seat: str) -> list[str]:
        """The watchtower pairs the seat has claimed (LO-R8), as 'A|B'."""
        return list(self.state.place(fjord(seat)).props.get("pairs") or [])

    def towers(self, seat: str) -> dict[str, int]:
        """Watchtower tiles the seat has taken, per watchtower space (LO-R8, ``tiles_owed``)."""
        return dict(self.state.place(fjord(seat)).props.get("towers") or {})

    def castles(self, seat: str) -> dict[str, int]:
        """Castle tiles the seat has taken, per castle space (LO-R9)."""
        return dict(self.state.place(fjord(seat)).props.get("castles") or {})

    # ---- the market ---------------------------------------------------------------------
    def ocean(self) -> list[tuple[str, str | None]]:
        """The water spaces in order and the longship on each (None: empty)."""
        return [(space, self.ship_on(space)) for space in self.water]

    def trophies_left(self) -> dict[int, str]:
        """Axes needed -> the trophy still on the trophy board."""
        pieces = self.state.pieces
        return {int(pieces[pid].props["axes"]): pid for pid in self._where["trophies"].values()}

    def bag(self) -> list[str]:
        """The longships in the bag, next draw first."""
        return list(reversed(self.state.place(BAG).contents))

    # ---- the end -----------------------------------------------------------------------
    def over(self) -> bool:
        return self.phase == OVER


def neighbours_of(board: Any) -> dict[str, tuple[str, ...]]:
    """Each space of a board (its ``BoardSpec``: spaces and edges) -> its neighbours, sorted."""
    found: dict[str, list[str]] = {n: [] for n in board.nodes}
    for a, b in board.edges:
        found[a].append(b)
        found[b].append(a)
    return {n: tuple(sorted(ns)) for n, ns in found.items()}


def space_cell(space: str) -> tuple[int, int]:
    return cell_of(space)
