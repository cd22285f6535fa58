"""Conformance: 1,000 seeded random-bot games per variant finish, keep the invariants and replay.

Through rules_assist/conformance.py (the audit after every entry, the log
replayed). Part of the whole suite (minutes on two cores); marked slow, so
``pytest -m "not slow"`` leaves it out for a quick run. The games of a variant
go in blocks of 100 seeds, each a test of its own. test_bots.py has the first
20 of each variant with more to say about each game.
"""

from __future__ import annotations

import pytest

from .test_bots import VARIANTS, conformance

GAMES = 1000
BLOCK = 100

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("first", range(0, GAMES, BLOCK), ids=lambda n: f"seeds{n}-{n + BLOCK - 1}")
@pytest.mark.parametrize("variant", VARIANTS)
def test_thousand_games(greenland, variant, first, tmp_path):
    for seed in range(first, first + BLOCK):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        report = conformance(greenland, variant, seed, path)
        assert report.problems == [], f"seed {seed}: {report.problems[:3]}"
        assert report.over, f"seed {seed} did not end"
        path.unlink()
