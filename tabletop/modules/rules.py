"""A module's rules on a table: its checker (for the submit pipeline) and its audit of a whole table."""

from __future__ import annotations

from typing import Any

from tabletop.core import Finding, Table, TableState

from .manifest import Module
from .setup import import_function


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
