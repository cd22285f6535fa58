"""A module's rules on a table: its checker (for the submit pipeline) and its audit of a whole table."""

from __future__ import annotations

from typing import Any

from tabletop.core import Finding, Table, TableState

from .manifest import Module
from .setup import import_function


def game_of(module: Module | None) -> Any | None:
    """The module's game interface (``game`` in module.toml, made with the module once, on first
    use: start-up does not load game code it does not need), or None."""
    if module is None or not module.game_path:
        return None
    if module.game_object is None:
        module.game_object = import_function(module.game_path, "module.game")(module)
    return module.game_object


def attach_checker(table: Table, module: Module | None) -> bool:
    """Give the table the module's checker, when the module has one; True if it did."""
    if module is None or not module.checker_path:
        return False
    table.checker = import_function(module.checker_path, "module.checker")(module)
    return True


def audit(module: Module | None, state: TableState) -> list[Finding] | None:
    """The module's findings on a whole table, or None when it has no rules to check."""
    if module is None or not module.audit_path:
        return None
    return list(import_function(module.audit_path, "module.audit")(state, module))


def finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "pieces": list(finding.pieces),
    }
