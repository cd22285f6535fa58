"""The prototyping module's game interface: its summary for ``tabletop inspect`` (per seat, hand,
reserve and score), and nothing else (no rules, procedures or bots)."""

from __future__ import annotations

from typing import Any

from tabletop.core import TableState

from .game import Game


def summary(state: TableState, module: Any) -> list[str]:
    """One line per seat: cards in hand, pieces in reserve and tableau, the score marker's space."""
    lines = ["Seats:"]
    for seat in state.seats:
        hand = state.places.get(f"hand_{seat.id}")
        reserve = state.places.get(f"reserve_{seat.id}")
        tableau = state.places.get(f"tableau_{seat.id}")
        marker = state.pieces.get(f"marker-{seat.id}")
        score = marker.spot if marker is not None and marker.place == "track" else "off the track"
        lines.append(
            f"  {seat.name}: {len(hand.contents) if hand else 0} in hand, {len(reserve.contents) if reserve else 0} in reserve, "
            f"{len(tableau.contents) if tableau else 0} in tableau, score {score}"
        )
    return lines


class ProtoGame(Game):
    """The prototyping table: a summary of each seat, no rules."""

    def summary(self, state: TableState) -> list[str]:
        return summary(state, self.module)
