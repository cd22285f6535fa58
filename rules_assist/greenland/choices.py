"""The players' answers to a procedure's questions, one culture at a time.

A procedure asks through ``Asker``: the answer comes from the procedure's
choices, where a plain key ('alpha') answers for every culture and a
qualified one ('yellow.alpha') for one culture only. Without an answer the
procedure stops with ChoiceNeeded (rules_assist/procedures.py), naming the
qualified key when several cultures take part, so it is clear whose choice it
is. Answers are read generously: yes/no also as true/false, faces as a list,
'4,5' or 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_assist.procedures import ProcedureContext, ProcedureError

YES, NO = "yes", "no"


class Asker:
    """One culture's answers; with ``qualify`` the key asked for is 'colour.key'."""

    def __init__(self, ctx: ProcedureContext, colour: str, qualify: bool) -> None:
        self.ctx = ctx
        self.colour = colour
        self.qualify = qualify

    def _raw(self, key: str) -> tuple[bool, Any]:
        for k in (f"{self.colour}.{key}", key):
            if k in self.ctx.choices:
                return True, self.ctx.choices[k]
        return False, None

    def _missing(self, key: str, question: str, options: Sequence[str]) -> Any:
        """The answerer's answer (read like a given one), or ChoiceNeeded."""
        name = f"{self.colour}.{key}" if self.qualify else key
        return self.ctx.ask(name, question, options)

    def one_of(self, key: str, question: str, options: Sequence[str]) -> str:
        given, answer = self._raw(key)
        if not given:
            answer = self._missing(key, question, options)
        text = str(answer).strip().lower()
        if text not in options:
            raise ProcedureError(f"{question}: {answer!r} is not one of {', '.join(options)}")
        return text

    def yes_no(self, key: str, question: str) -> bool:
        given, answer = self._raw(key)
        if not given:
            answer = self._missing(key, question, [YES, NO])
        if isinstance(answer, bool):
            return answer
        text = str(answer).strip().lower()
        if text in ("yes", "y", "true", "1"):
            return True
        if text in ("no", "n", "false", "0"):
            return False
        raise ProcedureError(f"{question}: answer yes or no, not {answer!r}")

    def faces(self, key: str, question: str, offered: Sequence[int]) -> list[int]:
        """Faces chosen among ``offered`` (a list, '4,5', 4 or 'none')."""
        options = [str(f) for f in offered] + ["none"]
        given, answer = self._raw(key)
        if not given:
            answer = self._missing(key, question, options)
        if answer is None or str(answer).strip().lower() in ("none", ""):
            return []
        items = (
            answer if isinstance(answer, list | tuple) else str(answer).replace(" ", "").split(",")
        )
        chosen: list[int] = []
        for item in items:
            if str(item).strip().lower() == "none":
                continue
            try:
                face = int(item)
            except (TypeError, ValueError):
                raise ProcedureError(f"{question}: {item!r} is not a die face") from None
            if face not in offered:
                raise ProcedureError(
                    f"{question}: no die showing {face} may be re-rolled "
                    f"(choose among {', '.join(options)})"
                )
            chosen.append(face)
        return sorted(set(chosen))
