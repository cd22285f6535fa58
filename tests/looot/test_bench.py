"""Looot's figures for ``tabletop bench`` (rules_assist/looot/bench.py): what the JSON holds
with and without Game Park's engine. The figures themselves are not tested."""

from __future__ import annotations

import shutil

import pytest

from rules_assist.looot import bench
from rules_assist.looot.moves import looot_game


def test_without_the_engine_the_comparison_is_null_with_the_reason(monkeypatch, tmp_path):
    monkeypatch.setenv(bench.ORACLE_ENV, str(tmp_path / "missing.cjs"))
    heard: list[str] = []
    results = bench.run(looot_game(), heard.append, turns=1, games=2)
    assert results["looot_sim_games_per_s"] > 0
    assert results["looot_vs_oracle_speed"] is None
    assert results["looot_oracle_games_per_s"] is None
    assert "missing.cjs is not a file" in results["looot_vs_oracle_why"]
    assert heard and all("Game Park" not in line for line in heard)


def test_without_node_the_comparison_is_null_with_the_reason(monkeypatch):
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    command, why = bench.oracle()
    assert command is None and why == "node is not installed"


def test_a_failing_engine_gives_a_null_comparison(monkeypatch, tmp_path):
    broken = tmp_path / "broken.cjs"
    broken.write_text("process.stderr.write('looot-oracle: error: broken\\n'); process.exit(2)")
    monkeypatch.setenv(bench.ORACLE_ENV, str(broken))
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    results = bench.run(looot_game(), lambda _: None, turns=1, games=1, oracle_games=1)
    assert results["looot_vs_oracle_speed"] is None
    assert results["looot_vs_oracle_why"].endswith("looot-oracle: error: broken")


def test_with_the_engine_both_are_measured_in_the_same_run():
    command, why = bench.oracle()
    if command is None:
        pytest.skip(why)
    results = bench.run(looot_game(), lambda _: None, turns=1, games=2, oracle_games=2)
    assert results["looot_oracle_games_per_s"] > 0
    assert results["looot_vs_oracle_speed"] > 0
    assert "looot_vs_oracle_why" not in results


def test_the_game_gives_its_figures_to_tabletop_bench(monkeypatch, tmp_path):
    """The module's ``bench`` hook (rules_assist/game.py) gives Looot's figures, so
    tabletop/bench.py needs no word of Looot."""
    monkeypatch.setenv(bench.ORACLE_ENV, str(tmp_path / "missing.cjs"))
    monkeypatch.setattr(bench, "GAMES", 1)
    monkeypatch.setattr(bench, "TURNS", 1)
    results = looot_game().bench(lambda _: None)
    assert set(results) >= {"looot_sim_games_per_s", "looot_vs_oracle_speed"}
