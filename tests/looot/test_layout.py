"""The data files and the layout value (spec 1.2 to 1.6): counts, provenance, geometry, and
Game Park's setups rebuilt from their boards alone."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from rules_assist.looot.layout import (
    DataError,
    axial_to_offset,
    data_folder,
    load_data,
    offset_neighbours,
    offset_to_axial,
    rotate,
)
from tests.looot.samples import NAMES, layout_of, sample


def test_faces_have_the_counts_of_the_box():
    data = load_data()
    for n in range(1, 9):
        counts = Counter(data.boards[f"face{n}"].values())
        houses, castles = (2, 1) if n <= 6 else (3, 0)
        assert counts == Counter(
            wood=6, sheep=5, gold=3, axe=6, house=houses, watchtower=2, castle=castles
        ), n
        assert data.physical[f"face{n}"] == (n + 1) // 2
    stacks = sum(
        data.tiles[t].stack * c
        for n in range(1, 9, 2)
        for t, c in Counter(data.boards[f"face{n}"].values()).items()
        if t in ("house", "watchtower", "castle")
    )
    assert stacks <= 18 + 16 + 9


def test_fjord_sites_longships_trophies():
    data = load_data()
    assert len(data.fjord_free) == 34
    assert data.fjord_sites == {"port": (5, 1), "altar": (1, 2), "palace": (4, 4)}
    port = {n for n in offset_neighbours(5, 1) if n in data.fjord_spaces}
    palace = {n for n in offset_neighbours(4, 4) if n in data.fjord_spaces}
    assert port == {(4, 0), (4, 1), (5, 2), (6, 1)}
    assert len(palace) == 6
    assert data.longships[510].type == "wood" and data.longships[510].needs == (
        "axe",
        "axe",
        "wood",
    )
    assert data.trophies == {2: 3, 3: 6, 4: 10, 5: 15, 6: 21}
    assert {s.value for s in data.sites.values() if s.type == "palace"} == {9}
    assert data.tiles["axe"].base == 0 and data.tiles["gold"].box is None  # UNSOURCED split


def test_geometry_round_trips():
    for col in range(-5, 6):
        for row in range(-5, 6):
            assert axial_to_offset(*offset_to_axial(col, row)) == (col, row)
    assert rotate((1, 0), 1) == (0, 1)
    assert rotate((2, -1), 6) == (2, -1)


@pytest.mark.parametrize("name", NAMES)
def test_gamepark_setups_rebuilt_from_their_boards(name):
    game = sample(name)
    layout = layout_of(game)
    setup = game["setup"]
    assert len(layout.hexes) == 25 * game["players"] + 14
    assert {
        (h["q"], h["r"]): (h["terrain"], h["board"], tuple(h["local"])) for h in setup["hexes"]
    } == {cell: (h.terrain, h.board, h.local) for cell, h in layout.hexes.items()}
    assert [(t["axes"], tuple(t["hex"])) for t in setup["trophies"]] == list(layout.trophies)
    assert {tuple(s["hex"]): (s["building"], s["tiles"]) for s in setup["stacks"]} == dict(
        layout.stacks
    )
    assert [tuple(c) for c in setup["fjord"]["free"]] == list(load_data().fjord_free)


def test_a_bad_data_file_is_one_plain_line(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(data_folder(), folder)
    path = folder / "trophies.csv"
    path.write_text(path.read_text().replace("4,10,", "4,ten,"))
    with pytest.raises(DataError) as error:
        load_data(folder)
    assert str(error.value) == "trophies.csv, line 4: column 'points': 'ten' is not a whole number"
    path.write_text("axes,points\n2,3\n")
    with pytest.raises(DataError, match=r"trophies.csv, line 1: missing column\(s\) source"):
        load_data(folder)
