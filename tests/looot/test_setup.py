"""The table at the start (spec 1.7), from the seed and from a given layout."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules_assist.looot.layout import assemble, key
from rules_assist.looot.setup import layout_to_json, start_from_layout
from tabletop.modules import load_module, new_game
from tabletop.modules.catalogue import resources_dir
from tabletop.modules.setup import SetupError
from tests.looot.samples import layout_of, sample


@pytest.fixture(scope="module")
def module():
    return load_module(resources_dir() / "looot")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_lays_out_the_landscape_and_each_seats_things(module, players):
    session = new_game(module, seats=players, seed=players)
    state = session.state
    graph = state.place("landscape").graph
    assert len(graph) == 25 * players + 14
    terrain = Counter(d["terrain"] for _, d in graph.nodes(data=True))
    assert terrain["water"] == 5 and terrain["trophy"] == 5
    kinds = Counter(p.kind for p in state.pieces.values())
    assert kinds["viking"] == 13 * players and kinds["shield"] == 3 * players
    assert kinds["longship"] == 30 and len(state.place("bag").contents) == 25
    assert kinds["site"] == 3 * players and kinds["trophy"] == 5
    assert kinds["house"] == 2 * terrain["house"] and kinds["castle"] == 3 * terrain["castle"]
    assert not any(state.pieces[p].face_up for p in state.place("bag").contents)
    seats = [s.id for s in state.seats]
    assert seats == ["blue", "red", "grey", "yellow"][:players]
    sites = sorted(state.pieces[p].spot for p in state.place("fjord_blue").contents)
    assert sites == ["1,2", "4,4", "5,1"]
    assert state.counters["seat"] == "blue" and state.counters["phase"] == "vikings"


def test_the_same_seed_gives_the_same_landscape():
    one = assemble(3, random.Random("7/looot-layout"))
    two = assemble(3, random.Random("7/looot-layout"))
    assert one == two
    assert len({cell for cell in one.hexes}) == 25 * 3 + 14


def test_start_from_a_recorded_layout(tmp_path):
    game = sample("gamepark-3p-seed2")
    layout = layout_of(game)
    session = start_from_layout(layout, 3, path=tmp_path / "g.jsonl")
    state = session.state
    ocean = sorted(game["setup"]["ocean"], key=lambda o: o["space"])
    for water in ocean:
        (ship,) = [
            p
            for p in state.place("landscape").contents
            if state.pieces[p].spot == key(tuple(water["hex"]))
        ]
        assert ship == f"longship-{water['longship']}"
    bag = [state.pieces[p].props["longship"] for p in reversed(state.place("bag").contents)]
    assert bag == game["setup"]["bag"]
    red = {state.pieces[p].value for p in state.place("fjord_red").contents}
    assert red == set(game["setup"]["sites"][1][k] for k in ("port", "altar", "palace"))
    assert (tmp_path / "g.jsonl").exists()


def test_a_layout_file_is_read_by_tabletop_new(tmp_path, module):
    layout = layout_of(sample("gamepark-2p-seed1"))
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(layout_to_json(layout)))
    session = new_game(module, seats="blue,red", position=str(path))
    assert len(session.state.place("landscape").graph) == 64
    path.write_text('{"boards": []}')
    with pytest.raises(SetupError, match="layout.json: needs boards, ocean, bag and sites"):
        new_game(module, seats="blue,red", position=str(path))
    with pytest.raises(SetupError, match="the layout is for 2 players, not 3"):
        start_from_layout(layout, 3)


def test_the_ocean_and_trophy_boards_lie_against_the_faces():
    """Each side board's land hexes touch a face, and the two side boards never touch, so the
    first Vikings (next to the longships) can spread over the faces."""
    from rules_assist.looot.layout import neighbours

    for seed in range(40):
        layout = assemble(2 + seed % 3, random.Random(seed))
        side = {c: h for c, h in layout.hexes.items() if not h.board.startswith("face")}
        for cell, found in side.items():
            touches = {layout.hexes[n].board for n in neighbours(cell) if n in layout.hexes}
            assert not {b for b in touches if b != found.board and not b.startswith("face")}
            if found.local[1] == 1:
                assert any(b.startswith("face") for b in touches), (seed, cell)
