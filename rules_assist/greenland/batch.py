"""Setup steps gathered into one logged entry: the setup (setup.py) and a position's table
(position.py) are laid out in batches, each step built on the state the steps before leave.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.core import Command, Compound, TableState, actions
from tabletop.modules import SetupContext


class Batch:
    """Setup steps gathered into one logged entry; each step is built on the state the steps before leave."""

    def __init__(self, ctx: SetupContext, label: str) -> None:
        self.ctx = ctx
        self.label = label
        self.builders: list[Callable[[TableState], Command]] = []

    def add(
        self,
        kind: str,
        pid: str,
        place: str,
        *,
        spot: str | None = None,
        owner: str | None = None,
        face_up: bool = True,
        props: dict[str, Any] | None = None,
        x: float | None = None,
        y: float | None = None,
    ) -> None:
        def build(state: TableState) -> Command:
            steps = self.ctx.piece_commands(
                kind,
                pid,
                place,
                spot=spot,
                owner=owner,
                face_up=face_up,
                props=props,
                x=x,
                y=y,
                index=len(state.places[place].contents),
            )
            return steps[0] if len(steps) == 1 else Compound(f"add {pid}", tuple(steps))

        self.builders.append(build)

    def move(
        self, pid: str, place: str, *, spot: str | None = None, index: int | None = None
    ) -> None:
        self.builders.append(lambda state: actions.move(state, pid, place, spot=spot, index=index))

    def flip(self, pid: str, face_up: bool) -> None:
        self.builders.append(lambda state: actions.flip(state, pid, face_up))

    def submit(self) -> Compound | None:
        """Lay the steps on the table as one logged entry; the compound logged (None: no steps)."""
        if not self.builders:
            return None
        built = actions.build_sequence(self.ctx.state, self.label, self.builders, keep=True)
        self.ctx.submit(built, applied=True)
        self.builders = []
        return built
