"""Findings of a rules checker, and the enforcement policy around submit."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .errors import FormatError
from .textsafe import quoted


class Severity(StrEnum):
    ILLEGAL = "illegal"  # the move breaks a rule
    ERROR = "illegal"  # the same, by its older name
    WARNING = "warning"  # legal, but probably not meant (a wasted action)
    INFO = "info"  # a reminder


class Mode(StrEnum):
    OFF = "off"  # no checking at all
    ADVISORY = "advisory"  # the move stands; findings are attached to it
    STRICT = "strict"  # a move with an error finding is refused unless forced with a reason


@dataclass(frozen=True)
class Finding:
    """What a checker says of a command: the rule, how bad, a plain sentence, the pieces."""

    rule: str
    message: str
    severity: Severity = Severity.ERROR
    pieces: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.pieces:
            d["pieces"] = list(self.pieces)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Finding:
        if (
            not isinstance(d, dict)
            or not isinstance(d.get("rule"), str)
            or not isinstance(d.get("message"), str)
        ):
            raise FormatError("a finding needs a text 'rule' and 'message'")
        try:
            raw = d.get("severity", "illegal")
            severity = Severity("illegal" if raw == "error" else raw)
        except ValueError:
            raise FormatError(f"unknown finding severity {quoted(d.get('severity'))}") from None
        pieces = d.get("pieces", [])
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise FormatError("a finding's 'pieces' must be a list of piece ids")
        return cls(d["rule"], d["message"], severity, tuple(pieces))

    def describe(self) -> str:
        return f"{self.rule} ({self.severity.value}): {self.message}"


@dataclass
class Policy:
    """How findings are enforced: one mode for all rules, with per-rule exceptions (house rules)."""

    mode: Mode = Mode.ADVISORY
    per_rule: dict[str, Mode] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Modes may be given by name ("strict"), as settings files and the command line do.
        self.mode = Mode(self.mode)
        self.per_rule = {rule: Mode(mode) for rule, mode in self.per_rule.items()}

    def mode_for(self, rule: str) -> Mode:
        """The mode for a rule; a rule 'E1' also follows a setting for its section 'E'."""
        if rule in self.per_rule:
            return self.per_rule[rule]
        section = rule.rstrip("0123456789.")
        return self.per_rule.get(section, self.mode) if section != rule else self.mode

    @property
    def checking(self) -> bool:
        return self.mode is not Mode.OFF or any(m is not Mode.OFF for m in self.per_rule.values())

    def kept(self, findings: list[Finding]) -> list[Finding]:
        """The findings whose rule is not switched off."""
        if not self.per_rule:  # one mode for every rule: all or none
            return findings if self.mode is not Mode.OFF else []
        return [f for f in findings if self.mode_for(f.rule) is not Mode.OFF]

    @property
    def strict(self) -> bool:
        """Every rule strict: no rule is let through with only a warning or unchecked."""
        return self.mode is Mode.STRICT and all(m is Mode.STRICT for m in self.per_rule.values())

    def describe(self) -> str:
        """'strict', or 'strict (house rules: E1 off, B4 advisory)'."""
        if not self.per_rule:
            return self.mode.value
        rules = ", ".join(f"{rule} {mode.value}" for rule, mode in self.per_rule.items())
        return f"{self.mode.value} (house rules: {rules})"

    def copy(self) -> Policy:
        return Policy(self.mode, dict(self.per_rule))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"mode": self.mode.value}
        if self.per_rule:
            d["per_rule"] = {rule: mode.value for rule, mode in self.per_rule.items()}
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Policy:
        modes = {m.value for m in Mode}
        per_rule = d.get("per_rule", {}) if isinstance(d, dict) else None
        if (
            not isinstance(d, dict)
            or not isinstance(d.get("mode"), str)  # a list or object is no mode (nor hashable)
            or d.get("mode") not in modes
            or not isinstance(per_rule, dict)
            or not all(
                isinstance(r, str) and isinstance(m, str) and m in modes
                for r, m in per_rule.items()
            )
        ):
            raise FormatError(
                "a rules policy needs a 'mode' (off, advisory or strict) and may give "
                "'per_rule' modes"
            )
        return cls(Mode(d["mode"]), {rule: Mode(mode) for rule, mode in per_rule.items()})

    def blocking(self, findings: list[Finding]) -> list[Finding]:
        """The findings that refuse a move: errors under a strict rule."""
        return [
            f
            for f in findings
            if f.severity is Severity.ERROR and self.mode_for(f.rule) is Mode.STRICT
        ]
