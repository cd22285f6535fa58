"""Running Game Park's engine (the Looot oracle) from the tests: found through LOOOT_ORACLE or
beside the repository, skipped with its reason where Node or the oracle is missing, its
failures one plain message, and the kept fixtures what it prints for their seeds."""

from __future__ import annotations

import dataclasses

import pytest

from tests.looot import oracle
from tests.looot.oracle import Crashed, OracleError, Summary, Transcript

needs_oracle = pytest.mark.skipif(
    oracle.unavailable() is not None, reason=str(oracle.unavailable())
)


def test_a_missing_oracle_is_a_reason_to_skip(monkeypatch, tmp_path):
    monkeypatch.setenv(oracle.ORACLE_ENV, str(tmp_path / "nowhere.cjs"))
    assert oracle.oracle_path() is None
    reason = oracle.unavailable()
    assert reason is not None and "nowhere.cjs" in reason
    with pytest.raises(OracleError, match="nowhere.cjs"):
        oracle.run_oracle(2, 1, 1)


def test_seed_and_games_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(oracle.GAMES_ENV, "12")
    assert oracle.env_int(oracle.GAMES_ENV, 5) == 12
    monkeypatch.setenv(oracle.GAMES_ENV, "")
    assert oracle.env_int(oracle.GAMES_ENV, 5) == 5
    monkeypatch.setenv(oracle.GAMES_ENV, "many")
    with pytest.raises(OracleError, match=r"^LOOOT_ORACLE_GAMES='many' is not a whole number$"):
        oracle.env_int(oracle.GAMES_ENV, 5)


@needs_oracle
def test_a_run_gives_games_crashes_and_a_summary():
    records = oracle.run_oracle(3, 3, 1064)
    assert [type(r) for r in records] == [Transcript, Crashed, Transcript, Summary]
    crashed, summary = records[1], records[3]
    assert (crashed.seed, crashed.known, crashed.stage) == (1065, "setup-merge", "setup")
    assert (summary.games, summary.normal, summary.crashed) == (3, 2, 1)
    assert dict(summary.crashes) == {"setup-merge": 1}


@needs_oracle
def test_the_oracles_refusal_is_one_plain_line():
    with pytest.raises(OracleError) as error:
        oracle.run_oracle(5, 1, 1)
    assert str(error.value) == (
        "the Looot oracle (players 5, games 1, seed 1) failed (exit code 2): "
        "looot-oracle: error: --players must be between 2 and 4"
    )


@needs_oracle
def test_the_fixtures_are_what_the_oracle_prints_for_their_seeds():
    for path in oracle.fixture_files():
        for kept in oracle.read_records(path):
            lists = 20 if isinstance(kept, Transcript) and kept.moves[0].options else 0
            (fresh, _summary) = oracle.run_oracle(
                kept.players, 1, kept.seed, legal_lists=lists, longships=kept.longships
            )
            assert dataclasses.replace(fresh, game=kept.game) == kept, kept.seed
