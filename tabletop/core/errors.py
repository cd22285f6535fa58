"""The errors the table raises. Each carries one plain sentence for a person."""

from __future__ import annotations


class TableError(Exception):
    """Base of every error the table reports to a person."""


class CommandError(TableError):
    """A command does not fit the table it was applied to (stale, unknown piece, full place)."""


class UnknownId(CommandError, KeyError):
    """A piece, place or seat id that is not on the table."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class FormatError(TableError):
    """A serialized record (a command, a state, a log line) is malformed."""


class Refused(TableError):
    """A strict rules check refused a command; the table is unchanged."""

    def __init__(self, findings: list) -> None:
        self.findings = list(findings)
        reasons = "; ".join(f"{f.rule}: {f.message}" for f in self.findings)
        super().__init__(f"refused by the rules: {reasons}")
