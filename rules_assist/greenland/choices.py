"""The players' answers to a procedure's questions, one culture at a time.

A procedure asks through ``Asker``: each question is a typed ``Question``
(rules_assist/questions.py) owned by the culture asked. The answer comes from
the procedure's choices, where a plain key ('alpha') answers for every
culture and a qualified one ('yellow.alpha') for one culture only. Without an
answer the procedure stops with ChoiceNeeded (rules_assist/procedures.py),
naming the qualified key when several cultures take part, so it is clear
whose choice it is. Answers are read generously (``Question.parse``): yes/no
also as true/false, faces as a list, '4,5' or 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_assist.procedures import ProcedureContext, ProcedureError
from rules_assist.questions import AnswerError, Question

YES, NO = "yes", "no"


class Asker:
    """One culture's answers; with ``qualify`` the key asked for is 'colour.key'."""

    def __init__(self, ctx: ProcedureContext, colour: str, qualify: bool) -> None:
        self.ctx = ctx
        self.colour = colour
        self.qualify = qualify

    def name(self, key: str) -> str:
        """The key the question is asked by: 'colour.key' when several cultures take part."""
        return f"{self.colour}.{key}" if self.qualify else key

    def answer(self, key: str, question: Question) -> Any:
        """The parsed answer to ``question`` (asked by ``name(key)``): the culture's own answer,
        else the plain key's, else the answerer's, else ChoiceNeeded."""
        choices = self.ctx.choices
        for k in (f"{self.colour}.{key}", key):
            if k in choices:
                self.ctx.answered.append((question, k))
                try:
                    return question.parse(choices[k])
                except AnswerError as exc:
                    raise ProcedureError(str(exc)) from None
        return self.ctx.answer(question)

    def one_of(self, key: str, question: str, options: Sequence[str], section: str = "") -> str:
        asked = Question.one_of(self.name(key), question, options, self.colour, section=section)
        return self.answer(key, asked)

    def yes_no(self, key: str, question: str, section: str = "", safe: bool = False) -> bool:
        """Yes or no; ``safe`` True where yes is the answer safe to take by mistake."""
        asked = Question.yes_no(self.name(key), question, self.colour, safe, section=section)
        return bool(self.answer(key, asked))

    def faces(
        self, key: str, question: str, offered: Sequence[int], section: str = ""
    ) -> list[int]:
        """Faces chosen among ``offered`` (a list, '4,5', 4 or 'none'): a subset of the faces."""
        faces = sorted(set(offered))
        asked = Question.subset(
            self.name(key),
            question,
            [str(f) for f in faces],
            low=0,
            high=len(faces),
            owner=self.colour,
            section=section,
        )
        return sorted(int(f) for f in self.answer(key, asked))


def one_of(
    ctx: ProcedureContext,
    key: str,
    text: str,
    options: Sequence[Any],
    owner: str | None,
    section: str,
    labels: Sequence[tuple[str, str]] = (),
) -> Any:
    """One of ``options`` (the option itself, not its text): a ``one_of`` question with its
    owner and its section."""
    asked = Question.one_of(key, text, options, owner, section=section, labels=tuple(labels))
    chosen = ctx.answer(asked)
    return next((o for o in options if str(o) == chosen), chosen)
