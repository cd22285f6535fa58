"""Conformance: seeded random games of any game with rules, the invariants after every entry.

``run_game(game, variant, seed, seats, path)`` sets a game up, lets random bots
(or the bots given) play it to the end through the turn driver, and checks,
after the setup and after every entry, that the table is whole
(``consistency_problem``) and that no invariant of the game's rulebook is
broken (an 'illegal' finding of ``Rulebook.audit``: the same rules the move
checker and ``tabletop check`` use). It then opens the log again and checks
that it replays to the same table. Any game whose module names a rulebook and
a flow gets this for free.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.core import Severity
from tabletop.persist import Game as Session

from .bots import random_bots
from .simulate import outcome, play_game


@dataclass
class Report:
    """What one conformance game found: problems (empty when all is well), entries checked."""

    seed: int
    problems: list[str] = field(default_factory=list)
    entries: int = 0
    over: bool = False


def table_problems(game: Any, state: Any) -> list[str]:
    """What is wrong with a table: pieces not in exactly one place, broken invariants."""
    problems = []
    problem = state.consistency_problem()
    if problem:
        problems.append(problem)
    found = game.audit(state) or []
    problems += [f.describe() for f in found if f.severity is Severity.ILLEGAL]
    return problems


def run_game(
    game: Any,
    variant: str,
    seed: int,
    seats: Sequence[str],
    path: str | os.PathLike[str],
    bots: Mapping[str, Any] | None = None,
    limit: int = 5,
) -> Report:
    """One seeded game, checked after every entry and replayed from its log."""
    report = Report(seed)
    players = dict(bots) if bots is not None else random_bots(seats, seed)

    def after(session: Any) -> None:
        if not report.entries:  # the setup; then every entry as it goes in
            session.table.subscribe(lambda _change: check(session))
            check(session)

    def check(session: Any) -> None:
        report.entries += 1
        if len(report.problems) < limit:
            report.problems += [
                f"entry {len(session.table.entries)}: {p}"
                for p in table_problems(game, session.state)
            ]

    session = play_game(game, variant, players, seed, path=path, after_action=after)
    try:
        report.over = outcome(game, session.state)["over"]
        digest = session.state.digest()
    finally:
        session.close()
    with Session.open(path, writable=False) as again:
        if again.state.digest() != digest:
            report.problems.append("the log replays to a different table")
    return report
