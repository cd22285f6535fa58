"""A module's rules on a table: its checker (for the submit pipeline) and its audit of a whole table."""

from __future__ import annotations

from typing import Any

from tabletop.core import Finding, Table, TableState

from .gamecode import game_of
from .manifest import Module


def attach_checker(table: Table, module: Module | None) -> bool:
    """Give the table the game's move checker, when the game has rules; True if it did."""
    game = game_of(module)
    checker = game.checker() if game is not None else None
    if checker is None:
        return False
    table.checker = checker
    return True


def audit(module: Module | None, state: TableState) -> list[Finding] | None:
    """The game's findings on a whole table (every invariant), or None when it has no rules."""
    game = game_of(module)
    found = game.audit(state) if game is not None else None
    return None if found is None else list(found)


def finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "pieces": list(finding.pieces),
    }
