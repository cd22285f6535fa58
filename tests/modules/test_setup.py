"""Setting games up from modules: seats, variants, seeds, and the board shapes later games need."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from tabletop.core import CommandError, Table, actions
from tabletop.modules import ModuleError, SetupError, find_module, load_module, new_game
from tabletop.modules.gamecode import import_function
from tabletop.persist import Game, read_log

BOARDS = Path(__file__).parent.parent / "fixtures" / "modules" / "boards"


@pytest.fixture(scope="module")
def proto():
    return find_module("proto")


@pytest.fixture(scope="module")
def boards():
    return load_module(BOARDS)


def test_proto_setup_deals_and_conserves(proto) -> None:
    game = new_game(proto, seats=3, seed=11)
    state = game.state
    assert [s.id for s in state.seats] == ["red", "yellow", "green"]
    assert len(state.place("deck").contents) == 24 - 3 * 4 - 4
    for seat in ("red", "yellow", "green"):
        assert len(state.place(f"hand_{seat}").contents) == 4
        owners = Counter(state.pieces[p].kind for p in state.place(f"reserve_{seat}").contents)
        assert owners == {"cube": 10, "disk": 5}
        assert state.piece(f"marker-{seat}").spot == "0"
    market = state.place("market")
    assert sorted(state.pieces[p].spot for p in market.contents) == ["1", "2", "3", "4"]
    assert all(state.pieces[p].face_up for p in market.contents)
    assert all(not state.pieces[p].face_up for p in state.place("deck").contents)
    assert sum(1 for p in state.pieces.values() if p.kind == "card") == 24
    assert state.consistency_problem() is None
    assert not game.table.can_undo, "setup is not undoable"


def test_same_seed_same_table_other_seed_other_deck(proto) -> None:
    a = new_game(proto, seats=2, seed=5)
    b = new_game(proto, seats=2, seed=5)
    c = new_game(proto, seats=2, seed=6)
    assert a.state.digest() == b.state.digest()
    assert a.state.place("deck").contents != c.state.place("deck").contents


def test_seat_choices_and_names(proto) -> None:
    game = new_game(proto, seats="blue=Ann,red", seed=1)
    assert [(s.id, s.name) for s in game.state.seats] == [("blue", "Ann"), ("red", "Red")]
    assert game.state.place("hand_blue").label == "Ann's hand"
    assert game.state.place("hand_blue").owner == "blue"
    assert len(new_game(proto, seed=1).state.seats) == proto.default_seats


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (7, "1 to 4 players, not 7"),
        ("purple", "no seat 'purple'"),
        ("red,red", "named twice"),
        ([], "not 0"),
    ],
)
def test_bad_seats(proto, seats, message) -> None:
    with pytest.raises(SetupError, match=message):
        new_game(proto, seats=seats)


def test_variant(proto) -> None:
    game = new_game(proto, seats=2, variant="open-hands", seed=3)
    assert all(game.state.pieces[p].face_up for p in game.state.place("hand_red").contents)
    assert game.header.variant == "open-hands"
    with pytest.raises(SetupError, match="no variant 'speed'.*open-hands"):
        new_game(proto, variant="speed")


def test_log_header_records_module_decks_seed_and_notes(proto, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = new_game(proto, seats=2, seed=9, notes="testers: Ann, Bo", path=path)
    game.close()
    contents = read_log(path)
    header = contents.header
    assert (header.module, header.module_version, header.seed, header.notes) == (
        "proto",
        "1.0",
        9,
        "testers: Ann, Bo",
    )
    assert header.decks == [
        {"id": "cards", "file": "decks/cards.csv", "sha256": proto.decks["cards"].sha256}
    ]
    assert all(e.kind == "setup" for e in contents.entries)
    assert Game.open(path, writable=False).state.digest() == game.state.digest()


def test_failed_setup_leaves_no_file(proto, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with pytest.raises(SetupError):
        new_game(proto, seats=9, path=path)
    assert not path.exists()


def test_hex_valley_with_river(boards) -> None:
    game = new_game(boards, seed=1)
    valley = game.state.place("valley").graph
    assert valley.number_of_nodes() == 30
    assert valley.degree("2,2") == 6
    assert valley.edges["2,2", "3,2"]["river"] is True
    assert not valley.edges["2,2", "2,3"].get("river")


def test_island_graph_and_boat_on_a_fjord(boards) -> None:
    game = new_game(boards, seed=1)
    sea = game.state.place("sea")
    assert sea.graph.nodes["isle-a"]["rune"] == "raven"
    assert sea.graph.edges["isle-a", "fjord-1"]["dock"] is True
    assert game.state.contents("sea", "fjord-1") == ["boat-red", "boat-blue"]
    table = Table(game.state)
    table.submit(actions.move(table.state, "boat-red", "sea", spot="fjord-2"), "red")
    assert table.state.piece("boat-red").spot == "fjord-2"
    with pytest.raises(CommandError, match="no spot 'atlantis'"):
        actions.move(table.state, "boat-red", "sea", spot="atlantis").apply(table.state)


def test_personal_grid_boards(boards) -> None:
    game = new_game(boards, seed=1)
    grid = game.state.place("grid_red")
    assert grid.owner == "red" and grid.graph.number_of_nodes() == 12
    assert sorted(grid.graph.neighbors("0,0")) == ["0,1", "1,0"]


def test_card_regions_carry_cubes(boards) -> None:
    game = new_game(boards, seed=1)
    table = game.table
    state = table.state
    assert state.regions_of("elder-red").spots == (
        "rank1",
        "rank2",
        "rank3",
        "rank4",
        "rank5",
        "rank6",
    )
    table.submit(actions.move(state, "cube-red-1", "elder-red", spot="rank3"), "red")
    table.submit(actions.move(state, "cube-red-2", "elder-red", spot="rank3"), "red")
    with pytest.raises(CommandError, match="elder-red/rank3 is full"):
        table.submit(actions.move(state, "cube-red-3", "elder-red", spot="rank3"), "red")
    table.submit(actions.move(state, "elder-red", "tableau_blue"), "red")
    assert state.contents("elder-red", "rank3") == ["cube-red-1", "cube-red-2"]
    assert state.ancestors("elder-red") == ["elder-red"]
    with pytest.raises(CommandError, match="onto itself"):
        table.submit(actions.move(state, "elder-red", "elder-red", spot="rank1"), "red")
    table.submit(actions.remove_piece(state, "elder-red"), "red")
    assert "cube-red-1" not in state.pieces and "elder-red" not in state.places
    table.undo("red")
    assert state.contents("elder-red", "rank3") == ["cube-red-1", "cube-red-2"]


def test_import_function_only_reaches_rules_assist() -> None:
    assert callable(import_function("rules_assist.proto:summary", "module.summary"))
    with pytest.raises(ModuleError, match="rules_assist"):
        import_function("os:system", "module.setup")
    with pytest.raises(ModuleError, match="cannot be found"):
        import_function("rules_assist.proto:nothing_here", "module.summary")


def _proto_with(tmp_path: Path, variant: str):
    """A copy of the proto module with one more variant (TOML text)."""
    folder = tmp_path / "proto"
    shutil.copytree(find_module("proto").folder, folder)
    with (folder / "module.toml").open("a", encoding="utf-8") as f:
        f.write("\n" + variant)
    return load_module(folder)


def test_a_variant_seats_its_own_number_drawn_by_the_seed(tmp_path: Path) -> None:
    """A variant's ``seats`` is how many it seats when none are named; ``random_seats`` draws
    them by the seed (in the module's order) unless the players name them."""
    module = _proto_with(
        tmp_path, '[[variants]]\nid = "duel"\nname = "Duel"\nseats = 2\nrandom_seats = true\n'
    )
    drawn = set()
    for seed in range(10):
        chosen = [s.id for s in new_game(module, variant="duel", seed=seed).state.seats]
        assert chosen == [
            s.id for s in new_game(module, variant="duel", seats=2, seed=seed).state.seats
        ]
        assert len(chosen) == 2 and chosen == sorted(
            chosen, key=["red", "yellow", "green", "blue"].index
        )
        drawn.add(tuple(chosen))
    assert len(drawn) > 1
    named = new_game(module, variant="duel", seats="blue,red", seed=1)
    assert [s.id for s in named.state.seats] == ["blue", "red"]
    with pytest.raises(SetupError, match=r"Proto.*\(Duel\) seats 2 players, not 3"):
        new_game(module, variant="duel", seats=3)
    assert len(new_game(module, seats=None, seed=1).state.seats) == module.default_seats


def test_a_variant_seats_within_the_module_seats(tmp_path: Path) -> None:
    with pytest.raises(ModuleError, match="seats"):
        _proto_with(tmp_path, '[[variants]]\nid = "crowd"\nname = "Crowd"\nseats = 9\n')
