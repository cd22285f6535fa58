"""Race's reading of the table: the table in the game's words, read by the rules, the
procedures and the flow alike."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tabletop.core import TableState

TRACK, START, HOME = "track", "start", "home"
ROLL, MOVE, OVER = "roll", "move", "over"


@dataclass
class Race:
    """The table in the game's words: whose turn, the roll, where each cube stands."""

    state: TableState
    game: Any

    @property
    def variant(self) -> Any:
        return self.game.variant(self.state)

    def number(self, name: str) -> int:
        """One of the rules' numbers: the variant's, else the module's constant."""
        return self.game.number(self.variant, name)

    @cached_property
    def seats(self) -> list[str]:
        return [s.id for s in self.state.seats]

    @property
    def phase(self) -> str:
        return str(self.state.counters.get("phase", ROLL))

    @property
    def to_move(self) -> str:
        return str(self.state.counters.get("seat", self.seats[0]))

    @property
    def pips(self) -> int:
        return int(self.state.counters.get("pips") or 0)

    @property
    def turn(self) -> int:
        return int(self.state.counters.get("turn") or 1)

    def cubes(self, seat: str) -> list[str]:
        """The seat's cubes (kept while no piece comes or goes: the table's layout memo)."""
        memo = self.state.layout_memo()
        found = memo.get("race.cubes")
        if found is None:
            found = memo["race.cubes"] = {}
            for piece in sorted(self.state.pieces.values(), key=lambda p: p.id):
                if piece.kind == "cube":
                    found.setdefault(piece.owner, []).append(piece.id)
        return found.get(seat, [])

    def space(self, cube: str) -> str | None:
        piece = self.state.pieces[cube]
        return piece.spot if piece.place == TRACK else None

    @cached_property
    def steps(self) -> dict[str, int]:
        """Each space's distance from the start (the board's node attribute ``step``)."""
        graph = self.state.place(TRACK).graph
        return {space: int(graph.nodes[space]["step"]) for space in graph.nodes}

    def left(self, cube: str) -> int:
        """The spaces a cube has left to home."""
        return self.steps[HOME] - self.steps[self.space(cube) or START]

    def ahead(self, cube: str, pips: int) -> str:
        """The space ``pips`` forward along the track's edges (home when fewer are left)."""
        graph = self.state.place(TRACK).graph
        space = self.space(cube) or START
        for _ in range(pips):
            if space == HOME:
                break
            space = next(n for n in graph[space] if self.steps[n] > self.steps[space])
        return space

    def crowded(self, space: str) -> bool:
        """R3 is in force and the space holds as many cubes as it may."""
        if space in (START, HOME) or self.variant.off("R3"):
            return False
        return len(self.on(space)) >= self.number("crowd")

    def on(self, space: str) -> list[str]:
        place = self.state.place(TRACK)
        return [pid for pid in place.contents if self.state.pieces[pid].spot == space]

    def home(self, seat: str) -> int:
        return sum(self.space(c) == HOME for c in self.cubes(seat))

    def finished(self) -> list[str]:
        """The seats with every cube home (R6)."""
        return [s for s in self.seats if self.cubes(s) and self.home(s) == len(self.cubes(s))]
