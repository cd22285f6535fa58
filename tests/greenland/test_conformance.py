"""Conformance: 1,000 seeded random-bot games per variant finish, keep the invariants and replay.

Slow (minutes): skipped unless the environment variable TABLETOP_CONFORMANCE=1
is set (``TABLETOP_CONFORMANCE=1 pytest -m slow tests/greenland/test_conformance.py``).
CI runs the 20-game version in test_bots.py.
"""

from __future__ import annotations

import os

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.selfplay import outcome
from tabletop.persist import Game

from .test_bots import VARIANTS, play_checked, random_bots

GAMES = 1000

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("TABLETOP_CONFORMANCE") != "1",
        reason="1,000 games a variant: set TABLETOP_CONFORMANCE=1 to run",
    ),
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_thousand_games(greenland, variant, tmp_path):
    cards = Cards.of(greenland)
    for seed in range(GAMES):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        game, problems, _phases = play_checked(
            greenland, variant, random_bots(variant, seed), seed, path
        )
        try:
            assert problems == [], f"seed {seed}: {problems[:3]}"
            assert outcome(game, cards)["over"]
            digest = game.state.digest()
        finally:
            game.close()
        with Game.open(path, writable=False) as again:
            assert again.state.digest() == digest, f"seed {seed}"
        path.unlink()
