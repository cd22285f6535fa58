"""Looot's turn for the driver: who is to move, what may be done now, the end and the result."""

from __future__ import annotations

from typing import Any

from rules_assist.driver import TERMINAL, Action, Status
from tabletop.core import TableState

from .reading import END, OVER, PHASES, TILES, VIKINGS, Looot
from .rules.legal import longship_offers, shield_offers, trophy_offers, viking_spaces
from .scoring import total, winners

LABELS = {VIKINGS: "Vikings", TILES: "Tiles", END: "End of turn", OVER: "Game over"}


class LoootFlow:
    """A turn: shields and Vikings, the gained tiles onto the fjord, then a longship, a trophy
    and the pass (LO-R1..R20)."""

    phases = PHASES

    def __init__(self, game: Any) -> None:
        self.game = game

    def phase(self, state: TableState) -> str:
        return Looot(state, self.game).phase

    def phase_label(self, phase: str) -> str:
        return LABELS.get(phase, phase)

    def status(self, state: TableState) -> Status:
        lo = Looot(state, self.game)
        seat = lo.to_move
        lines = [
            f"{lo.name(s)}: {len(lo.vikings_left(s))} Vikings left, {total(lo, s)} points"
            for s in lo.seats
        ]
        if lo.phase == OVER:
            won = " and ".join(lo.name(s) for s in winners(lo))
            return Status(lo.turn, OVER, LABELS[OVER], TERMINAL, (f"{won} wins", *lines))
        actions: list[Action] = []
        who = lo.name(seat)
        if lo.phase == VIKINGS:
            head = f"{who} to put a Viking ({lo.placements_left} to place this turn)"
            if lo.vikings_left(seat) and viking_spaces(lo, seat):
                actions.append(Action(f"{who}: put a Viking", "viking", actor=seat, help="LO-R3"))
            if shield_offers(lo, seat):
                actions.append(Action(f"{who}: use a shield", "shield", actor=seat, help="LO-R15"))
        elif lo.phase == TILES:
            head = f"{who} to lay {len(lo.gained(seat))} tile(s) on the fjord"
            actions.append(Action(f"{who}: lay a tile", "place", actor=seat, help="LO-R6"))
        else:
            head = f"{who} to end the turn"
            actions.append(Action(f"{who}: end the turn", "pass", actor=seat, help="LO-R20"))
            if longship_offers(lo, seat):
                actions.append(
                    Action(f"{who}: take a longship", "longship", actor=seat, help="LO-R13")
                )
            if trophy_offers(lo, seat):
                actions.append(
                    Action(f"{who}: claim a trophy", "trophy", actor=seat, help="LO-R19")
                )
        return Status(lo.turn, lo.phase, LABELS[lo.phase], seat, (head, *lines), tuple(actions))

    def is_terminal(self, state: TableState) -> bool:
        return Looot(state, self.game).phase == OVER

    def returns(self, state: TableState) -> dict[str, float]:
        """Each seat's total (LO-R21, LO-R22)."""
        lo = Looot(state, self.game)
        return {s: float(total(lo, s)) for s in lo.seats}
