"""A whole Greenland table for three as SVG and PDF: small enough to attach to a message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop.export import render_game
from tabletop.modules import find_module, new_game

LIMIT = 2 * 1024 * 1024


@pytest.mark.parametrize("suffix", [".svg", ".pdf"])
def test_a_whole_greenland_table_for_three_is_under_2_mb(
    qapp,  # noqa: ANN001
    tmp_path: Path,
    suffix: str,
) -> None:
    module = find_module("greenland")
    game = new_game(module, seats=3, seed=1, path=tmp_path / "game.jsonl")
    try:
        out = tmp_path / f"table{suffix}"
        render_game(game, module, out, viewer=game.header.seats[0].id)
    finally:
        game.close()
    data = out.read_bytes()
    assert 0 < len(data) < LIMIT, f"{out.name} is {len(data):,} bytes"
    if suffix == ".svg":
        # each look is embedded once; a piece that looks the same points at it
        pictures = re.findall(rb'<image id="(picture\d+)"', data)
        uses = re.findall(rb'<use xlink:href="#(picture\d+)"', data)
        assert pictures and uses and set(uses) <= set(pictures)
        embedded = re.findall(rb'base64,([^"]*)"', data)
        assert len(embedded) == len(set(embedded)) == len(pictures)
    else:
        # the cards are drawn, not pasted in as pictures: what pictures there are (cubes,
        # disks, dice) are small, each look once
        assert data.startswith(b"%PDF")
        widths = [int(w) for w in re.findall(rb"/Width\s+(\d+)", data)]
        assert widths and max(widths) <= 256
        assert len(widths) < 60
