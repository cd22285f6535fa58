"""The table seen as Greenland, for checks and procedures: who owns what, homelands, elders, abilities.

Read-only helpers over a TableState and the deck's rows. Place names follow
resources/greenland/module.toml: ``north_warm``, ``hunters_red``, ``elder-red``
(the elder card's regions), and so on.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import Piece, TableState

from .deck import Cards, Constants
from .variants import off_rules

COLOURS = ("red", "yellow", "green")
NORTH_CULTURES = ("yellow", "green")  # the Thule and the Tunit share North Greenland (E1)
ROW_PLACES = ("north_warm", "north_cold", "south_warm", "south_cold")
_CUBE_IDS: dict[tuple[str, int], list[str]] = {}


class Greenland:
    """A read-only view of a Greenland table."""

    def __init__(self, state: TableState, cards: Cards) -> None:
        self.state = state
        self.cards = cards
        self._off: tuple[str, ...] | None = None
        self._seats: tuple[str, ...] | None = None
        # rules/book.py placement: (the table's positions, placements read): for a view of the
        # table after a move, those the move carries over (after_moves)
        self._placements: tuple[int, dict[str, Any]] | None = None
        self._tried = 0  # rules/book.py after_moves: moves checked on this table

    @property
    def rules_off(self) -> tuple[str, ...]:
        """The sections the game's variant plays without (module.toml ``rules_off``)."""
        if self._off is None:
            self._off = off_rules(self)
        return self._off

    # ---- the rules' numbers (module.toml [constants]) -------------------------------
    @property
    def constants(self) -> Constants:
        return self.cards.constants

    @property
    def woodpile(self) -> int:
        """B4: the most energy a culture holds."""
        return self.cards.constants.woodpile

    # ---- cards -------------------------------------------------------------------
    def row(self, pid: str) -> dict[str, Any]:
        piece = self.state.pieces.get(pid)  # Cards.row_for, read here: the rules ask it often
        if piece is None:
            return {}
        return self.cards.rows.get(piece.props.get("card", "")) or {}

    def name(self, pid: str) -> str:
        piece = self.state.pieces.get(pid)  # as ``row``, read here: names go in every log line
        row = self.cards.rows.get(piece.props.get("card", "")) if piece is not None else None
        return row.get("name", pid) if row else pid

    def card_at(self, place_id: str) -> str | None:
        """The card whose regions a place is (a cube on a card lies in the card's regions)."""
        place = self.state.places.get(place_id)
        return place.parent if place is not None else None

    def card_place(self, pid: str) -> str:
        return self.state.pieces[pid].place

    def row_of(self, pid: str) -> str | None:
        """north or south for a card in a row, None elsewhere."""
        place = self.card_place(pid)
        return place.split("_")[0] if place in ROW_PLACES else None

    def side(self, pid: str) -> str | None:
        """warm or cold for a card in a row, 'tableau' for a tableau card."""
        place = self.card_place(pid)
        if place in ROW_PLACES:
            return place.split("_")[1]
        if place.startswith("tableau_"):
            return "tableau"
        return None

    def tableau_owner(self, pid: str) -> str | None:
        place = self.card_place(pid)
        return place.removeprefix("tableau_") if place.startswith("tableau_") else None

    def is_new_world(self, pid: str) -> bool:
        piece = self.state.pieces.get(pid)  # as ``row``, read here: the rules ask it often
        row = self.cards.rows.get(piece.props.get("card", "")) if piece is not None else None
        return row is not None and row.get("type") == "new_world"

    def biome_type(self, pid: str) -> str | None:
        piece = self.state.pieces.get(pid)  # as ``row``
        row = self.cards.rows.get(piece.props.get("card", "")) if piece is not None else None
        return row.get("biome_type") if row else None

    def in_homeland(self, colour: str, pid: str) -> bool:
        """E1: the Norse hold South Greenland, the Thule and Tunit North Greenland; tableaus are home."""
        if self.is_new_world(pid):
            return False
        owner = self.tableau_owner(pid)
        if owner is not None:
            return owner == colour or (owner in NORTH_CULTURES and colour in NORTH_CULTURES)
        row = self.row_of(pid)
        if row is None:
            return False
        return row == ("south" if colour == "red" else "north")

    # ---- cubes -------------------------------------------------------------------
    def cubes(self, colour: str) -> list[Piece]:
        """A colour's cubes: the Alpha and cube-<colour>-1 to 18 (the module's number) as set up
        (others, if added, by a scan)."""
        return list(self.cube_pieces(colour))

    def cube_pieces(self, colour: str) -> tuple[Piece, ...]:
        """``cubes``, as the tuple kept in the table's memo (not to be changed)."""
        memo = self.state.layout_memo()  # the same pieces until one comes or goes
        found = memo.get(("greenland.cubes", colour))
        if found is None:
            found = memo[("greenland.cubes", colour)] = tuple(self._cubes(colour))
        return found

    def seated_cubes(self) -> tuple[tuple[str, tuple[Piece, ...]], ...]:
        """Each seat's colour with its cubes (``cube_pieces``), as seated (kept in the table's
        memo: not to be changed)."""
        memo = self.state.layout_memo()
        found = memo.get("greenland.seated_cubes")
        if found is None:
            found = memo["greenland.seated_cubes"] = tuple(
                (colour, self.cube_pieces(colour)) for colour in self.seats()
            )
        return found

    def _cubes(self, colour: str) -> list[Piece]:
        pieces = self.state.pieces
        small = self.cards.constants.small_cubes
        ids = _CUBE_IDS.get((colour, small)) or _CUBE_IDS.setdefault(
            (colour, small),
            [f"alpha-{colour}"] + [f"cube-{colour}-{n}" for n in range(1, small + 1)],
        )
        found = [pieces[pid] for pid in ids if pid in pieces]
        if len(found) == len(ids):
            return found
        return [p for p in pieces.values() if p.owner == colour and p.kind in ("cube", "alpha")]

    def unassigned(self, colour: str) -> list[str]:
        place = self.state.places.get(f"hunters_{colour}")
        return list(place.contents) if place else []

    def elders(self, colour: str, rank: int, on: str | None = None) -> int:
        """Cubes of ``colour`` on rank ``rank`` of an elder card (its own, unless ``on`` names another)."""
        return self._ranks(f"elder-{on or colour}").get((colour, f"rank{rank}"), 0)

    def _ranks(self, card: str) -> dict[tuple[str, str | None], int]:
        """(colour, rank spot): how many cubes, on an elder card (read once a table)."""
        memo = self.state.positions_memo()
        key = ("greenland.ranks", card)
        found = memo.get(key)
        if found is None:
            found = {}
            place = self.state.places.get(card)
            pieces = self.state.pieces
            for pid in place.contents if place is not None else ():
                piece = pieces[pid]
                at = (piece.owner, piece.spot)
                found[at] = found.get(at, 0) + 1
            memo[key] = found
        return found

    def mariners(self, colour: str) -> int:
        return self.elders(colour, 6)

    def war_chiefs(self, colour: str) -> int:
        return self.elders(colour, 4)

    def hunters_on(self, pid: str, colour: str | None = None) -> list[str]:
        """Cubes in a card's hunting area (not elders, not husbands)."""
        memo = self.state.positions_memo()
        key = ("greenland.hunters_on", pid)
        found = memo.get(key)
        if found is None:
            place = self.state.places.get(pid)
            if place is None:
                return []
            pieces = self.state.pieces
            found = memo[key] = tuple([c for c in place.contents if pieces[c].spot == "hunters"])
        if colour is None:
            return list(found)
        pieces = self.state.pieces
        return [c for c in found if pieces[c].owner == colour]

    def husband(self, daughter: str) -> str | None:
        place = self.state.places.get(daughter)
        if place is None:
            return None
        pieces = self.state.pieces
        for pid in place.contents:
            if pieces[pid].spot == "exogamy":
                return pid
        return None

    def assigned_cards(self, colour: str, cubes: list[Piece] | None = None) -> dict[str, int]:
        """Cards (not elder cards) where ``colour`` has hunters or colonists, with how many."""
        found: dict[str, int] = {}
        places = self.state.places
        for cube in cubes if cubes is not None else self.cubes(colour):
            if cube.spot != "hunters":
                continue
            card = places[cube.place].parent
            if card is not None:
                found[card] = found.get(card, 0) + 1
        return found

    # ---- tableaus and abilities --------------------------------------------------
    def tableau(self, colour: str) -> list[str]:
        place = self.state.places.get(f"tableau_{colour}")
        return list(place.contents) if place else []

    def wives(self, colour: str) -> list[str]:
        """Daughters in other tableaus married to a husband of ``colour`` (F1: abilities are shared)."""
        return list(self._wives().get(colour, ()))

    def _wives(self) -> dict[str | None, tuple[str, ...]]:
        """Each culture's wives (``wives``), read in one pass over the tableaus once a table."""
        memo = self.state.positions_memo()
        found = memo.get("greenland.wives")
        if found is None:
            married: dict[str | None, list[str]] = {}
            places, pieces = self.state.places, self.state.pieces
            for other in COLOURS:
                tableau = places.get(f"tableau_{other}")
                for pid in tableau.contents if tableau is not None else ():
                    regions = places.get(pid)  # a card without regions cannot hold a husband
                    for cube in regions.contents if regions is not None else ():
                        husband = pieces[cube]
                        if husband.spot == "exogamy":  # as ``husband``: the first there
                            if husband.owner != other:
                                married.setdefault(husband.owner, []).append(pid)
                            break
            found = memo["greenland.wives"] = {c: tuple(d) for c, d in married.items()}
        return found

    def ability_cards(self, colour: str) -> list[str]:
        return self.tableau(colour) + self.wives(colour)

    def abilities(self, colour: str) -> list[str]:
        """The abilities of the cards in ``colour``'s tableau and of its wives (kept in the
        table's memo until the next command)."""
        return list(self._abilities(colour))

    def _abilities(self, colour: str) -> tuple[str, ...]:
        memo = self.state.positions_memo()
        key = ("greenland.abilities", colour, id(self.cards))
        found = memo.get(key)
        if found is None:
            cards = tuple(self.ability_cards(colour))
            kept = self.state.layout_memo()  # the same cards, the same abilities
            found = kept.get(("greenland.abilities", cards, id(self.cards)))
            if found is None:
                found = kept[("greenland.abilities", cards, id(self.cards))] = tuple(
                    ability for pid in cards for ability in self.row(pid).get("abilities") or ()
                )
            memo[key] = found
        return found

    def has(self, colour: str, ability: str) -> bool:
        return ability in self._abilities(colour)

    def sleds(self, colour: str) -> int:
        place = self.state.places.get(f"tableau_{colour}")
        if place is None:
            return 0
        pieces, rows = self.state.pieces, self.cards.rows
        count = 0
        for pid in place.contents:  # each card's row as ``row`` reads it
            piece = pieces.get(pid)
            row = rows.get(piece.props.get("card", "")) if piece is not None else None
            if row and "sled" in (row.get("abilities") or []):
                count += 1
        return count

    def religion(self, colour: str) -> str:
        piece = self.state.pieces.get(f"elder-{colour}")  # as ``row``
        row = self.cards.rows.get(piece.props.get("card", "")) if piece is not None else None
        return row.get("side", "polytheist") if row else "polytheist"

    def disks(self, colour: str, kind: str) -> int:
        place = self.state.places.get(f"{kind}_{colour}")
        return len(place.contents) if place else 0

    def seats(self) -> list[str]:
        ids = self._seats  # the seats never change in a game: read once a view
        if ids is None:
            memo = self.state.layout_memo()
            ids = memo.get("greenland.seats")
            if ids is None:
                ids = memo["greenland.seats"] = tuple([s.id for s in self.state.seats])
            self._seats = ids
        return list(ids)

    def counter(self, name: str, default: Any = None) -> Any:
        return self.state.counters.get(name, default)
