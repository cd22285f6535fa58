"""Conformance: seeded random-bot games of every variant finish, keep the invariants and replay.

Through rules_assist/conformance.py (the audit after every entry, the log
replayed). The whole suite plays 200 games a variant (``GREENLAND_CONFORMANCE_GAMES``
changes it; ``make conformance`` plays 1,000); marked slow, so ``pytest -m "not slow"``
leaves it out for a quick run. The games of a variant go in blocks of 100 seeds, each a
test of its own. test_bots.py has the first 20 of each variant with more to say about
each game.
"""

from __future__ import annotations

import os

import pytest

from .test_bots import VARIANTS, conformance

BLOCK = 100


def _games() -> int:
    """How many games a variant plays: ``GREENLAND_CONFORMANCE_GAMES``, 200 when unset."""
    text = os.environ.get("GREENLAND_CONFORMANCE_GAMES", "").strip() or "200"
    if not text.isdigit():
        raise pytest.UsageError(f"GREENLAND_CONFORMANCE_GAMES={text!r} is not a whole number")
    return int(text)


GAMES = _games()

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("first", range(0, GAMES, BLOCK), ids=lambda n: f"seeds{n}-{n + BLOCK - 1}")
@pytest.mark.parametrize("variant", VARIANTS)
def test_thousand_games(greenland, variant, first, tmp_path):
    for seed in range(first, min(first + BLOCK, GAMES)):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        report = conformance(greenland, variant, seed, path)
        assert report.problems == [], f"seed {seed}: {report.problems[:3]}"
        assert report.over, f"seed {seed} did not end"
        path.unlink()
