"""Typed questions: whose a question is and what kind of answer it needs, as data.

A procedure that needs a decision the rules leave to a player asks a
``Question``. The question says

- whose it is (``owner``: a seat id, or None for the table as a whole),
- what kind of answer it needs (``kind``):

  ``one_of``   one of ``options``;
  ``yes_no``   yes or no; ``safe`` is the answer that is safe to take by
               mistake (no unless the game says yes): a window offers it
               as the default, so Enter never picks the other one;
  ``subset``   between ``low`` and ``high`` of ``options``, each at most once
               (a discard of two cards, the dice to re-roll);
  ``split``    ``total`` shared among ``groups``, each ``(name, cap)``
               (the hits of an attack among the cultures present);
  ``payment``  ``total`` units paid from ``groups``, each ``(means, available)``,
               or one of ``alternatives`` instead of paying (energy or an elder;
               slaughter the animal).

Options, limits and labels are data: a bot or a dialog acts on the kind and
its data, never on the question's wording or the spelling of its key. The
``text`` is for people only.

Answers are read generously (``parse``): a yes/no also as true/false, a
subset as a list or 'a,b', a split or a payment as a dict, 'red=2,green=1'
or a list of names with repeats ('cube,cube,alpha'). ``encode`` writes the
canonical text that ``--choice KEY=VALUE`` takes back.
"""

from __future__ import annotations

import random as _random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.core import TableError

ONE_OF = "one_of"
YES_NO = "yes_no"
SUBSET = "subset"
SPLIT = "split"
PAYMENT = "payment"
KINDS = (ONE_OF, YES_NO, SUBSET, SPLIT, PAYMENT)
YES, NO = "yes", "no"


class AnswerError(TableError):
    """An answer that does not fit its question (names the question and what would fit)."""


@dataclass(unsafe_hash=True)
class Question:
    """A decision a procedure needs, with whose it is and what would answer it.

    Set once, when asked, and never changed after; compared and hashed by its fields. (Not
    ``frozen=True``: a frozen dataclass sets each field through ``object.__setattr__``, and a
    question is made for every decision of every procedure.)"""

    key: str
    text: str
    kind: str = ONE_OF
    owner: str | None = None
    options: tuple[str, ...] = ()
    low: int = 0  # subset: at least this many
    high: int = 0  # subset: at most this many
    total: int = 0  # split: the number shared; payment: the units owed
    groups: tuple[tuple[str, int], ...] = ()  # split: (group, cap); payment: (means, available)
    alternatives: tuple[str, ...] = ()  # payment: answers instead of paying
    labels: tuple[tuple[str, str], ...] = ()  # how an option or group reads on screen
    section: str = ""
    safe: str = NO  # yes_no: the answer safe to take by mistake (the default button), yes or no

    # ---- making questions ------------------------------------------------------------
    @classmethod
    def one_of(
        cls, key: str, text: str, options: Iterable[Any], owner: str | None = None, **kw: Any
    ) -> Question:
        return cls(key, text, ONE_OF, owner, tuple([str(o) for o in options]), **kw)

    @classmethod
    def yes_no(
        cls, key: str, text: str, owner: str | None = None, safe: bool = False, **kw: Any
    ) -> Question:
        """A yes/no question; ``safe`` True where yes is the answer safe to take by mistake
        (the cautious one, which loses or spends nothing), else no is."""
        return cls(key, text, YES_NO, owner, (YES, NO), safe=YES if safe else NO, **kw)

    @classmethod
    def subset(
        cls,
        key: str,
        text: str,
        options: Iterable[Any],
        count: int | None = None,
        *,
        low: int | None = None,
        high: int | None = None,
        owner: str | None = None,
        **kw: Any,
    ) -> Question:
        opts = tuple(dict.fromkeys(str(o) for o in options))
        lo = count if count is not None else (low if low is not None else 0)
        hi = count if count is not None else (high if high is not None else len(opts))
        return cls(key, text, SUBSET, owner, opts, low=lo, high=hi, **kw)

    @classmethod
    def split(
        cls,
        key: str,
        text: str,
        total: int,
        groups: Iterable[tuple[str, int]],
        owner: str | None = None,
        **kw: Any,
    ) -> Question:
        found = tuple((str(g), int(cap)) for g, cap in groups)
        return cls(
            key, text, SPLIT, owner, tuple(g for g, _ in found), total=total, groups=found, **kw
        )

    @classmethod
    def payment(
        cls,
        key: str,
        text: str,
        total: int,
        means: Iterable[tuple[str, int]],
        alternatives: Iterable[str] = (),
        owner: str | None = None,
        **kw: Any,
    ) -> Question:
        found = tuple((str(m), int(n)) for m, n in means)
        alts = tuple(str(a) for a in alternatives)
        options = tuple(m for m, _ in found) + alts
        return cls(
            key, text, PAYMENT, owner, options, total=total, groups=found, alternatives=alts, **kw
        )

    # ---- reading it ------------------------------------------------------------------
    def label(self, option: str) -> str:
        """How an option or group reads on screen (itself unless labelled)."""
        return dict(self.labels).get(option, option)

    def caps(self) -> dict[str, int]:
        return dict(self.groups)

    def answerable(self) -> bool:
        """Some answer fits (a payment with too little to pay and no alternative has none)."""
        try:
            self.default()
        except AnswerError:
            return False
        return True

    def describe(self) -> str:
        """One line for a person at a terminal: the key and what would answer it."""
        if self.kind == YES_NO:
            what = "yes or no"
        elif self.kind == ONE_OF:
            what = ", ".join(self.options)
        elif self.kind == SUBSET:
            many = str(self.low) if self.low == self.high else f"{self.low} to {self.high}"
            what = f"{many} of {', '.join(self.options)}, comma-separated"
        elif self.kind == SPLIT:
            shares = ", ".join(f"{g}≤{cap}" for g, cap in self.groups)
            what = f"{self.total} shared as NAME=N among {shares}"
        else:
            means = ", ".join(f"{m}≤{n}" for m, n in self.groups)
            what = f"{self.total} paid as MEANS=N from {means}"
            if self.alternatives:
                what += f", or {' or '.join(self.alternatives)}"
        return f"{self.text} (choice '{self.key}': {what})"

    # ---- answers -----------------------------------------------------------------------
    def _fail(self, message: str) -> AnswerError:
        return AnswerError(f"{self.text}: {message}")

    def parse(self, answer: Any) -> Any:
        """The answer in its canonical form (str, bool, tuple of options, or dict of counts);
        AnswerError when it does not fit."""
        if self.kind == YES_NO:
            return _yes_no(self, answer)
        if self.kind == ONE_OF:
            text = str(answer).strip()
            for option in self.options:
                if text == option or text.lower() == option.lower():
                    return option
            raise self._fail(f"{answer!r} is not one of {', '.join(self.options)}")
        if self.kind == SUBSET:
            items = [i for i in _items(answer) if i.lower() != "none"]
            chosen: list[str] = []
            for item in items:
                match = next(
                    (o for o in self.options if o == item or o.lower() == item.lower()), None
                )
                if match is None:
                    raise self._fail(f"{item!r} is not one of {', '.join(self.options)}")
                if match in chosen:
                    raise self._fail(f"{item!r} is named twice")
                chosen.append(match)
            if not self.low <= len(chosen) <= self.high:
                many = str(self.low) if self.low == self.high else f"{self.low} to {self.high}"
                raise self._fail(f"choose {many}, not {len(chosen)}")
            return tuple(chosen)
        if self.kind == PAYMENT and not isinstance(answer, Mapping):
            text = str(answer).strip()
            for alternative in self.alternatives:
                if text.lower() == alternative.lower():
                    return alternative
        counts = _counts(self, answer)
        caps = self.caps()
        for name, n in counts.items():
            if name not in caps:
                raise self._fail(f"{name!r} is not one of {', '.join(caps)}")
            if n > caps[name]:
                raise self._fail(f"{name} takes at most {caps[name]}, not {n}")
        if sum(counts.values()) != self.total:
            verb = "share" if self.kind == SPLIT else "pay"
            raise self._fail(f"{verb} {self.total} in all, not {sum(counts.values())}")
        return {g: counts[g] for g, _cap in self.groups if counts.get(g)}

    def encode(self, value: Any) -> str:
        """The canonical text of an answer (what ``--choice KEY=VALUE`` takes)."""
        value = self.parse(value)
        if self.kind == YES_NO:
            return YES if value else NO
        if self.kind == ONE_OF:
            return value
        if self.kind == SUBSET:
            return ",".join(value) or "none"
        if isinstance(value, str):  # a payment's alternative
            return value
        return ",".join(f"{g}={n}" for g, n in value.items()) or "none"

    def safe_answer(self) -> bool:
        """A yes/no question's safe answer (``safe``): True for yes, False for no."""
        return self.safe == YES

    def default(self) -> Any:
        """A fitting answer, the plainest one: the first option, a yes/no's safe answer (no
        unless it says yes), the first ``low`` options, the groups filled in order;
        AnswerError when nothing fits."""
        if self.kind == YES_NO:
            return self.safe_answer()
        if self.kind == ONE_OF:
            if not self.options:
                raise self._fail("there is nothing to choose")
            return self.options[0]
        if self.kind == SUBSET:
            if self.low > len(self.options):
                raise self._fail(f"fewer than {self.low} to choose from")
            return tuple(self.options[: self.low])
        return self.fill([g for g, _ in self.groups])

    def fill(self, order: Sequence[str]) -> Any:
        """A split or payment filling the groups in ``order`` up to their caps; a payment's
        first alternative when there is not enough."""
        caps = self.caps()
        left = self.total
        shares: dict[str, int] = {}
        for group in order:
            take = min(caps.get(group, 0) - shares.get(group, 0), left)
            if take > 0:
                shares[group] = shares.get(group, 0) + take
                left -= take
        if left:
            if self.kind == PAYMENT and self.alternatives:
                return self.alternatives[0]
            raise self._fail(f"only {self.total - left} of {self.total} can be found")
        return {g: shares[g] for g, _cap in self.groups if shares.get(g)}

    def random_answer(self, rng: _random.Random) -> Any:
        """A fitting answer drawn at random (a random bot's)."""
        if self.kind == YES_NO:
            return rng.random() < 0.5
        if self.kind == ONE_OF:
            return rng.choice(self.options) if self.options else self.default()
        if self.kind == SUBSET:
            if self.low > len(self.options):
                return self.default()  # nothing fits: the default says why
            hi = min(self.high, len(self.options))
            n = rng.randint(min(self.low, hi), hi)
            return tuple(rng.sample(self.options, n))
        if self.kind == PAYMENT and self.alternatives and rng.random() < 0.1:
            return rng.choice(self.alternatives)
        units = [g for g, cap in self.groups for _ in range(cap)]
        if len(units) < self.total:
            return self.default()
        counts = Counter(rng.sample(units, self.total))
        return {g: counts[g] for g, _cap in self.groups if counts.get(g)}


def _yes_no(question: Question, answer: Any) -> bool:
    if isinstance(answer, bool):
        return answer
    text = str(answer).strip().lower()
    if text in ("yes", "y", "true", "1"):
        return True
    if text in ("no", "n", "false", "0"):
        return False
    raise question._fail(f"answer yes or no, not {answer!r}")


def _items(answer: Any) -> list[str]:
    if answer is None:
        return []
    if isinstance(answer, list | tuple | set | frozenset):
        return [str(a).strip() for a in answer if str(a).strip()]
    return [part.strip() for part in str(answer).split(",") if part.strip()]


def _counts(question: Question, answer: Any) -> dict[str, int]:
    """A split or payment answer as counts: a dict, 'a=2,b=1', or names with repeats."""
    if isinstance(answer, Mapping):
        pairs = [(str(k).strip(), v) for k, v in answer.items()]
    else:
        pairs = []
        for item in _items(answer):
            if item.lower() == "none":
                continue
            name, eq, n = item.partition("=")
            pairs.append((name.strip(), n.strip() if eq else 1))
    counts: dict[str, int] = {}
    groups = [g for g, _ in question.groups]
    for name, n in pairs:
        match = next((g for g in groups if g == name or g.lower() == name.lower()), name)
        try:
            number = int(n)
        except (TypeError, ValueError):
            raise question._fail(f"{name}={n!r}: give a whole number") from None
        if number < 0:
            raise question._fail(f"{name}={number}: a share is never negative")
        counts[match] = counts.get(match, 0) + number
    return counts
