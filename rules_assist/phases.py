"""Where a game stands, for the window's phase panel: whose move it is, what comes next, one button.

A module names a function ``phase_status(state, module) -> PhaseStatus`` (its
``phases`` hook). The panel shows the status and offers the next step: a
procedure the window runs through ``run_procedure``, asking the players any
choice it needs (ChoiceNeeded) before running it again with the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    """A procedure the panel offers: its button text, the procedure and its parameters."""

    label: str
    name: str
    procedure: Callable[..., str]
    params: dict[str, Any] = field(default_factory=dict)
    actor: str | None = None
    help: str = ""


@dataclass(frozen=True)
class PhaseStatus:
    turn: int | None
    phase: str
    phase_label: str
    to_move: str | None = None
    lines: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()  # the first is the main "next" button
