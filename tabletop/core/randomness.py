"""The game's source of chance.

Outcomes are proposed by a generator seeded from the game's seed and a draw
counter, so a game reopened from its log continues with the same sequence. The
outcome is then stored in the command (a roll's faces, a shuffle's order):
replay reads it and never draws again. For teaching and rules discussions the
next outcomes can be forced; commands mark them as forced.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from .errors import CommandError
from .textsafe import quoted


class Randomizer:
    """Proposes dice faces and orders. ``draws`` counts proposals made so far."""

    def __init__(self, seed: int, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws
        self._forced_faces: deque[Any] = deque()
        self._forced_orders: deque[list[str]] = deque()
        self._random = random.Random()

    def _generator(self) -> random.Random:
        """The generator of this draw, seeded from the seed and the draw's number: one generator
        seeded again each time (making a new one would seed it twice, the second time as
        here, so the proposals are the same)."""
        self._random.seed(f"{self.seed}/{self.draws}")
        self.draws += 1
        return self._random

    # ---- taking back -----------------------------------------------------
    def mark(self) -> tuple[int, tuple[Any, ...], tuple[list[str], ...]]:
        """Where the randomizer stands, to go back there if a proposal is not used."""
        return self.draws, tuple(self._forced_faces), tuple(self._forced_orders)

    def restore(self, mark: tuple[int, tuple[Any, ...], tuple[list[str], ...]]) -> None:
        self.draws = mark[0]
        self._forced_faces = deque(mark[1])
        self._forced_orders = deque(mark[2])

    # ---- forcing ---------------------------------------------------------
    def force_faces(self, faces: Sequence[Any]) -> None:
        """The next dice rolled show these faces, in order."""
        self._forced_faces.extend(faces)

    def force_order(self, order: Sequence[str]) -> None:
        """The next shuffle puts its pieces in this order (bottom first)."""
        self._forced_orders.append(list(order))

    @property
    def forced_pending(self) -> int:
        return len(self._forced_faces) + len(self._forced_orders)

    def clear_forced(self) -> None:
        self._forced_faces.clear()
        self._forced_orders.clear()

    # ---- proposals -------------------------------------------------------
    def faces(
        self, dice_faces: Sequence[Sequence[Any]]
    ) -> tuple[tuple[Any, ...], tuple[bool, ...]]:
        """One face for each die (given each die's faces); and which were forced."""
        result: list[Any] = []
        forced: list[bool] = []
        generator: random.Random | None = None
        for faces in dice_faces:
            if self._forced_faces:
                face = self._forced_faces[0]
                if face not in faces:
                    raise CommandError(
                        f"the forced face {quoted(face)} is not on this die ({list(faces)})"
                    )
                self._forced_faces.popleft()
                result.append(face)
                forced.append(True)
            else:
                if generator is None:
                    generator = self._generator()
                result.append(generator.choice(list(faces)))
                forced.append(False)
        return tuple(result), tuple(forced)

    def order(self, pieces: Sequence[str]) -> tuple[tuple[str, ...], bool]:
        """A new order of the pieces; and whether it was forced."""
        if self._forced_orders:
            forced = self._forced_orders[0]
            if sorted(forced) != sorted(pieces):
                raise CommandError("the forced order does not hold the same pieces as the place")
            self._forced_orders.popleft()
            return tuple(forced), True
        new = list(pieces)
        self._generator().shuffle(new)
        return tuple(new), False
