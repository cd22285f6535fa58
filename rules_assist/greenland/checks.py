"""The module.toml hooks ``checker`` and ``audit``, and the checker's entry for the bots: thin
calls of Greenland's rulebook (rules_assist/greenland/rules/), where the rules are written.

The game object (rules_assist/greenland/game.py) gives the same rulebook to
the table; these stay while code still names them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.core import Command, Finding, TableState

from .deck import Cards
from .rules import rulebook_for


def checker_for(module: Any) -> Callable[[TableState, Command, str], list[Finding]]:
    """The table's checker for a game of this module (its deck revision's rows)."""
    return rulebook_for(Cards.of(module)).checker()


def check(state: TableState, command: Command, actor: str, cards: Cards) -> list[Finding]:
    """The findings for a command a player submits, before it applies."""
    return rulebook_for(cards).check(state, command, actor)


def audit(state: TableState, cards: Cards) -> list[Finding]:
    """Every finding on a whole table."""
    return rulebook_for(cards).audit(state)


def audit_table(state: TableState, module: Any) -> list[Finding]:
    """The module's audit hook: every finding on a Greenland table."""
    return audit(state, Cards.of(module))
