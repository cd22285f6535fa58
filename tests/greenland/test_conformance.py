"""Conformance: 1,000 seeded random-bot games per variant finish, keep the invariants and replay.

Part of the whole suite (about four minutes on two cores); marked slow, so
``pytest -m "not slow"`` leaves it out for a quick run. The games of a variant
go in blocks of 100 seeds, each a test of its own. test_bots.py has the first
20 of each variant with more to say about each game.
"""

from __future__ import annotations

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.selfplay import outcome
from tabletop.persist import Game

from .test_bots import VARIANTS, play_checked, random_bots

GAMES = 1000
BLOCK = 100

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("first", range(0, GAMES, BLOCK), ids=lambda n: f"seeds{n}-{n + BLOCK - 1}")
@pytest.mark.parametrize("variant", VARIANTS)
def test_thousand_games(greenland, variant, first, tmp_path):
    cards = Cards.of(greenland)
    for seed in range(first, first + BLOCK):
        path = tmp_path / f"{variant}-{seed}.jsonl"
        game, problems, _phases = play_checked(
            greenland, variant, random_bots(variant, seed), seed, path
        )
        try:
            assert problems == [], f"seed {seed}: {problems[:3]}"
            assert outcome(game, cards)["over"], f"seed {seed} did not end"
            digest = game.state.digest()
        finally:
            game.close()
        with Game.open(path, writable=False) as again:
            assert again.state.digest() == digest, f"seed {seed}: the log replays differently"
        path.unlink()
