"""The fuzzing suite's pool of workers and its seed logs, made once a session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fuzz.cases import Seed, deck_seeds, log_seeds, module_seeds, position_seeds
from tests.fuzz.harness import Pool


@pytest.fixture(scope="session")
def fuzz_pool() -> Iterator[Pool]:
    with Pool() as pool:
        yield pool


@pytest.fixture(scope="session")
def fuzz_seeds(fuzz_pool: Pool) -> dict[str, list[Seed]]:
    return {
        "log": log_seeds(fuzz_pool),
        "module": module_seeds(),
        "deck": deck_seeds(),
        "position": position_seeds(),
    }
