"""Looot's own bot: greedy play by a projected score, through the turn driver like any bot
(rules_assist/bots.py).

``GreedyBot(seed)`` looks one move ahead and takes the move that most raises what its fjord
is worth by its own projection:

- a Viking (LO-R3) goes on the hex whose gains (LO-R5, LO-R7..R10: the resource and the
  buildings it captures, read by the rules' ``captures`` on the table with the Viking put
  there and taken back) are worth most; a tile is worth its value (LO-R21, with its completed
  longships' bonuses), more when an unfinished site or longship of the seat still needs it,
  an axe what it adds towards the best trophy left (LO-R19), and nothing once the fjord has
  no room for it (LO-R6);
- a shield (LO-R15..R18) is used when it pays: DoubleGain on a tile worth enough (or before
  the Vikings run out), PlaceOnOccupiedSpace when an occupied hex is clearly better than a
  free one, PlayAgain when a second good hex is there to take now;
- a gained tile goes where it completes a site or a longship (LO-R11, LO-R12), else where it
  brings one closer, else where it blocks none; when not all fit, the best ones first;
- a longship (LO-R13) is taken only when it completes at once or can still be completed
  (room around it and Vikings enough left), and when its bonus outweighs the risk of its
  penalty (LO-R22);
- a trophy (LO-R19) is claimed at once, unless a bigger one is one axe away with time left.

Ties are broken by the bot's own seeded generator, so seeded games repeat exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rules_assist.driver import Action, Driver
from rules_assist.questions import Question
from tabletop.core import TableState, actions

from .layout import BUILDINGS, RESOURCES, TILES
from .procedures import tile_code
from .reading import END, LANDSCAPE, VIKINGS, Looot
from .reading import TILES as TILES_PHASE
from .rules.legal import (
    DOUBLE_GAIN,
    OCCUPIED,
    PLAY_AGAIN,
    around,
    captures,
    longship_offers,
    shield_offers,
    trophy_offers,
    viking_spaces,
)

GOOD_TILE = 3.0  # a tile worth this much is worth a DoubleGain
OCCUPIED_MARGIN = 2.0  # how much better an occupied hex must be to spend PlaceOnOccupiedSpace
TAKE_LONGSHIP = 0.5  # the least projected gain for which a longship is taken
CHANCE_BY_MISSING = {1: 0.7, 2: 0.35, 3: 0.12}  # of completing a longship still missing n tiles


class Item:
    """An unfinished site or longship on the seat's fjord: what it still needs, its free
    neighbouring spaces, and what completing it would bring."""

    def __init__(self, lo: Looot, seat: str, pid: str, free: set[str]) -> None:
        piece = lo.state.pieces[pid]
        self.pid = pid
        self.spot = str(piece.spot)
        self.site = piece.kind == "site"
        if self.site:
            site = lo.data.sites[piece.props["site"]]
            needs, kinds = site.needs, TILES
            self.value = float(site.value)
        else:
            needs, kinds = tuple(piece.props["needs"]), RESOURCES
            self.type = str(piece.props["type"])
            self.bonus = int(piece.props["bonus"])
            penalty = float(lo.number("longship_penalty"))
            self.value = penalty + self.bonus * lo.tiles(seat)[self.type]
        self.kinds = set(kinds)
        self.missing = Counter(needs) - around(lo, seat, self.spot, kinds)
        self.slots = [n for n in lo.fjord_neighbours(self.spot) if n in free]

    @property
    def short(self) -> int:
        return sum(self.missing.values())

    def feasible(self, vikings: int) -> bool:
        """Room enough around it, and Vikings enough left to gain what it lacks."""
        return self.short <= len(self.slots) and (self.short <= vikings or self.short == 0)

    def completed_by(self, kind: str) -> float:
        """What one more ``kind`` beside it brings: all of it when it is the last one lacking,
        a share when it brings it closer, nothing when it is not needed."""
        if kind not in self.missing or kind not in self.kinds:
            return 0.0
        extra = self.bonus if not self.site and kind == self.type else 0
        if self.short == 1:
            return self.value + extra
        return (self.value + extra) / self.short * 0.7


class Projection:
    """The seat's fjord as the greedy bot reads it for one decision."""

    def __init__(self, lo: Looot, seat: str) -> None:
        self.lo, self.seat = lo, seat
        self.free = lo.free_spaces(seat)
        self.pending = lo.gained(seat)
        self.vikings = len(lo.vikings_left(seat))
        free = set(self.free)
        pieces = lo.state.pieces
        self.bonus: Counter[str] = Counter()
        self.items: list[Item] = []
        for pid in lo.fjord_pieces(seat).values():
            piece = pieces[pid]
            if piece.kind not in ("site", "longship"):
                continue
            if lo.complete(pid):
                if piece.kind == "longship":
                    self.bonus[piece.props["type"]] += int(piece.props["bonus"])
                continue
            self.items.append(Item(lo, seat, pid, free))
        self.by_spot = {item.spot: item for item in self.items}
        self.axes = lo.tiles(seat)["axe"]
        self.has_trophy = lo.trophy_of(seat) is not None
        self.trophies = {n: lo.data.trophies[n] for n in lo.trophies_left()}

    @property
    def room(self) -> int:
        """Fjord spaces left once the tiles gained already are laid."""
        return len(self.free) - len(self.pending)

    def trophy_points(self, axes: int) -> int:
        return max((p for n, p in self.trophies.items() if n <= axes), default=0)

    def worth(self, kind: str) -> float:
        """What one more tile of ``kind`` is worth to the seat (before where it goes)."""
        value = self.lo.data.tiles[kind].base + self.bonus[kind]
        needed = [
            item.completed_by(kind)
            for item in self.items
            if item.feasible(self.vikings) and item.slots
        ]
        value += max(needed, default=0.0)
        if kind == "axe" and not self.has_trophy:
            value += self.trophy_points(self.axes + 1) - self.trophy_points(self.axes)
        return value

    def gains_worth(self, tiles: Iterable[str]) -> float:
        """The tiles' worth, the best first, as many as the fjord has room for (LO-R6)."""
        values = sorted((self.worth(k) for k in tiles), reverse=True)
        return sum(values[: max(self.room, 0)])

    # ---- where a tile or a longship goes ------------------------------------------------
    def placing(self, kind: str, space: str) -> float:
        """What laying ``kind`` on ``space`` does to the sites and longships around it."""
        value = 0.0
        for n in self.lo.fjord_neighbours(space):
            item = self.by_spot.get(n)
            if item is None:
                continue
            gain = item.completed_by(kind) if item.feasible(self.vikings) else 0.0
            if gain:
                value += gain
            elif item.short:
                # one of its spaces spent on something it does not need
                left = len(item.slots) - 1
                value -= item.value * 0.5 if left < item.short else 0.3
        return value

    def longship(self, pid: str, space: str) -> float:
        """The projected gain of taking longship ``pid`` onto ``space`` (LO-R12, LO-R13,
        LO-R22): its bonus on the tiles of its type if completed, its penalty if not."""
        lo = self.lo
        props = lo.state.pieces[pid].props
        missing = Counter(props["needs"]) - around(lo, self.seat, space, RESOURCES)
        short = sum(missing.values())
        bonus, kind = int(props["bonus"]), str(props["type"])
        count = lo.tiles(self.seat)[kind]
        penalty = float(lo.number("longship_penalty"))
        free = set(self.free) - {space}
        slots = [n for n in lo.fjord_neighbours(space) if n in free]
        if short == 0:
            value = bonus * (count + 1)
        elif short > len(slots) or short > self.vikings or short not in CHANCE_BY_MISSING:
            value = -penalty
        else:
            chance = CHANCE_BY_MISSING[short] * min(1.0, self.vikings / (2 * short))
            value = chance * (penalty + bonus * (count + 1)) - penalty
        for n in lo.fjord_neighbours(space):  # a space a site or longship beside it wanted
            item = self.by_spot.get(n)
            if item is not None and item.short:
                value -= item.value * 0.5 if len(item.slots) - 1 < item.short else 0.3
        return value


def viking_gains(lo: Looot, seat: str, space: str, double: bool) -> list[str]:
    """The tiles a Viking of the seat put on ``space`` would gain (LO-R5, LO-R7..R10): the
    rules' ``captures`` read on the table with the Viking put there, then taken back."""
    gained = [lo.terrain[space]] * (2 if double else 1)
    own = lo.own_spaces(seat)
    near = lo.adjacent[space]
    if not any(lo.terrain.get(n) in BUILDINGS or n in own for n in near):
        return gained  # a group of one touching no building captures nothing
    state = lo.state
    before = lo.groups(seat)
    mark = state.mark()
    move = actions.move(state, lo.vikings_left(seat)[-1], LANDSCAPE, spot=space)
    move.apply(state)
    try:
        capture = captures(Looot(state, lo.game), seat, space, before)
        kinds = [state.pieces[pid].kind for pid, _ in capture.tiles]
    finally:
        move.inverse().apply(state)
        state.back_to(mark)
    return gained + kinds


class GreedyBot:
    """One move ahead by a projected score (the module docstring says how it weighs)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.plan: dict[str, str] = {}

    # ---- the bot protocol ---------------------------------------------------------------
    def act(self, driver: Driver, seat: str | None, offered: Sequence[Action]) -> Action:
        by_name = {a.name: a for a in offered}
        lo = Looot(driver.table.state, driver.game)
        if seat is None or seat != lo.to_move:
            return self.rng.choice(list(offered))
        if lo.phase == VIKINGS:
            name, self.plan = self._vikings(lo, seat, by_name)
        elif lo.phase == TILES_PHASE:
            name, self.plan = "place", self._place(lo, seat)
        elif lo.phase == END:
            name, self.plan = self._end(lo, seat, by_name)
        else:
            name, self.plan = "", {}
        return by_name.get(name) or self.rng.choice(list(offered))

    def moves(self, driver: Driver, seat: str) -> list[Any]:
        return []  # Looot is played by procedures only

    def answer(self, state: TableState, question: Question) -> Any:
        planned = self.plan.get(question.key)
        if planned is not None and planned in question.options:
            return planned
        return question.random_answer(self.rng)

    # ---- choosing -----------------------------------------------------------------------
    def _best(self, scored: dict[Any, float]) -> tuple[Any, float]:
        """The highest scoring choice, a tie settled by the bot's generator."""
        top = max(scored.values())
        ties = [c for c, v in scored.items() if v >= top - 1e-9]
        return self.rng.choice(ties), top

    def _vikings(
        self, lo: Looot, seat: str, by_name: dict[str, Action]
    ) -> tuple[str, dict[str, str]]:
        """A Viking's hex, or first a shield when it pays (LO-R3, LO-R15..R18)."""
        view = Projection(lo, seat)
        armed = lo.armed
        double = DOUBLE_GAIN in armed
        spaces = viking_spaces(lo, seat) if "viking" in by_name else []
        values = {s: view.gains_worth(viking_gains(lo, seat, s, double)) for s in spaces}
        offers = shield_offers(lo, seat) if "shield" in by_name else []
        best_value = max(values.values(), default=float("-inf"))
        if OCCUPIED in offers:
            occupied = viking_spaces(lo, seat, (*armed, OCCUPIED))
            better = [
                view.gains_worth(viking_gains(lo, seat, s, double))
                for s in occupied
                if s not in values
            ]
            if better and max(better) >= best_value + OCCUPIED_MARGIN:
                return "shield", {"shield": OCCUPIED}
        if not values:
            return ("shield", {"shield": offers[0]}) if offers else ("", {})
        best, top = self._best(values)
        if DOUBLE_GAIN in offers and view.room >= 2:
            extra = view.worth(lo.terrain[best])
            if extra >= GOOD_TILE or (view.vikings <= 2 and extra > 0):
                return "shield", {"shield": DOUBLE_GAIN}
        if PLAY_AGAIN in offers and view.vikings >= 2 and len(values) >= 2:
            second = sorted(values.values(), reverse=True)[1]
            if second >= max(GOOD_TILE, 0.75 * top):
                return "shield", {"shield": PLAY_AGAIN}
        return "viking", {"hex": best}

    def _place(self, lo: Looot, seat: str) -> dict[str, str]:
        """The gained tile and fjord space that do most (LO-R6, LO-R11, LO-R12)."""
        view = Projection(lo, seat)
        short_of_room = view.room < 0
        scored: dict[tuple[str, str], float] = {}
        for code in dict.fromkeys(tile_code(lo, p) for p in view.pending):
            kind = code.partition(" from ")[0]
            first = view.worth(kind) if short_of_room else 0.0
            for space in view.free:
                scored[code, space] = first + view.placing(kind, space)
        if not scored:
            return {}
        (code, space), _ = self._best(scored)
        return {"tile": code, "space": space}

    def _end(self, lo: Looot, seat: str, by_name: dict[str, Action]) -> tuple[str, dict[str, str]]:
        """A trophy, then a longship worth taking, then the pass (LO-R13, LO-R19, LO-R20)."""
        if "trophy" in by_name:
            offers = trophy_offers(lo, seat)
            if offers and self._claim_now(lo, seat, offers):
                return "trophy", {"trophy": str(max(offers))}
        if "longship" in by_name:
            view = Projection(lo, seat)
            scored = {
                (pid, space): view.longship(pid, space)
                for pid in longship_offers(lo, seat)
                for space in view.free
            }
            if scored:
                (pid, space), value = self._best(scored)
                if value >= TAKE_LONGSHIP:
                    number = str(lo.state.pieces[pid].props["longship"])
                    return "longship", {"longship": number, "space": space}
        return "pass", {}

    @staticmethod
    def _claim_now(lo: Looot, seat: str, offers: list[int]) -> bool:
        """Claim the best trophy offered, unless a bigger one needs just one more axe and
        Vikings enough are left to get it."""
        have = lo.tiles(seat)["axe"]
        bigger = [n for n in lo.trophies_left() if n > max(offers)]
        return not (bigger and min(bigger) == have + 1 and len(lo.vikings_left(seat)) > 3)
