"""The log's text: written as itself, except a line holding a lone surrogate (no UTF-8 file can
hold one), which is written with every non-ASCII character escaped and reads back the same."""

from __future__ import annotations

from pathlib import Path

from tabletop.modules import find_module, new_game
from tabletop.persist import Game


def test_log_lines_keep_their_text_and_escape_only_a_lone_surrogate(tmp_path: Path) -> None:
    plain, lone = tmp_path / "plain.jsonl", tmp_path / "lone.jsonl"
    module = find_module("proto")
    new_game(module, seed=1, notes="café ☕", path=plain).close()
    new_game(module, seed=1, notes="café \udce9", path=lone).close()
    plain_header = plain.read_bytes().split(b"\n")[0]
    lone_header = lone.read_bytes().split(b"\n")[0]
    assert "café ☕".encode() in plain_header
    assert b"caf\\u00e9 \\udce9" in lone_header and max(lone_header) < 0x80
    for path, notes in ((plain, "café ☕"), (lone, "café \udce9")):
        with Game.open(path, writable=False) as game:
            assert game.header.notes == notes
