"""Game Park's transcripts as read by ``tests/looot/oracle.py``: the kept fixtures parse, their
setups fit the spec (1.2 to 1.7) and our data files, and every transcript is consistent with
itself move by move (tiles, stacks, fjord spaces, water spaces, bag, scores). These checks
use no rules of ours; the agreement with our rules is ``test_oracle_agreement.py``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules_assist.looot.layout import (
    axial_to_offset,
    build_layout,
    load_data,
    neighbours,
    offset_to_axial,
    place_cells,
)
from tests.looot import oracle
from tests.looot.oracle import Crashed, OracleError, Transcript

FILES = oracle.fixture_files()
GAMES = [t for path in FILES for t in oracle.transcripts(oracle.read_records(path))]
IDS = [f"{t.players}p-seed{t.seed}" for t in GAMES]
BUILDING_TILES = {"house": 2, "watchtower": 2, "castle": 3}
TROPHY_POINTS = {2: 3, 3: 6, 4: 10, 5: 15, 6: 21}
Axial = tuple[int, int]


def test_fixtures_hold_a_few_games_of_each_player_count():
    assert [p.name for p in FILES] == [f"oracle-{n}p.jsonl" for n in (2, 3, 4)]
    assert Counter(t.players for t in GAMES) == {2: 7, 3: 3, 4: 3}
    assert sorted(t.seed for t in GAMES if t.longships == "any") == [1259, 1319, 5121, 5302]
    listed = [t for t in GAMES if t.moves[0].options is not None]
    assert sorted(t.players for t in listed) == [2, 3, 4]


def test_a_crashed_game_is_read_and_left_out():
    records = oracle.read_records(FILES[1])
    crashed = [r for r in records if isinstance(r, Crashed)]
    assert [(c.seed, c.stage, c.known, c.moves) for c in crashed] == [
        (1065, "setup", "setup-merge", 0)
    ]
    assert "unshift" in crashed[0].message
    assert all(isinstance(t, Transcript) for t in oracle.transcripts(records))
    assert len(list(oracle.transcripts(records))) == len(records) - 1


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_setup_has_25n_plus_14_hexes_on_n_faces(game: Transcript):
    setup = game.setup
    assert len(setup.hexes) == 25 * game.players + 14
    boards = [b for b, _, _ in setup.boards]
    assert len([b for b in boards if b.startswith("face")]) == game.players
    assert len([b for b in boards if b.startswith("ocean")]) == 1
    assert len([b for b in boards if b.startswith("trophy")]) == 1
    data = load_data()
    # one side of each physical board at most
    assert len({data.physical[b] for b in boards if b.startswith("face")}) == game.players
    # one connected map
    seen, todo = set(), [next(iter(setup.hexes))]
    while todo:
        cell = todo.pop()
        if cell not in seen:
            seen.add(cell)
            todo.extend(n for n in neighbours(cell) if n in setup.hexes)
    assert seen == set(setup.hexes)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_hex_is_its_board_cell_placed_and_turned(game: Transcript):
    """Spec 1.2: local even-q -> axial, turned k times, moved by the origin; and back."""
    where = {board: (origin, k) for board, origin, k in game.setup.boards}
    for cell, found in game.setup.hexes.items():
        origin, k = where[found.board]
        assert place_cells([found.local], origin, k)[found.local] == cell, (found, cell)
        assert axial_to_offset(*offset_to_axial(*found.local)) == found.local
        assert offset_to_axial(*axial_to_offset(*cell)) == cell


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_setup_is_the_layout_our_board_data_builds(game: Transcript):
    """The Layout taken from the transcript field by field equals the one rebuilt from the
    boards' positions alone with our data files (faces, ocean and trophy boards)."""
    setup = game.setup
    layout = oracle.layout_of(setup)
    ours = build_layout(
        list(setup.boards), [ship for _, ship in setup.ocean], setup.bag, setup.sites
    )
    assert layout.hexes == ours.hexes
    assert layout.ocean == ours.ocean
    assert layout.trophies == ours.trophies
    assert dict(layout.stacks) == dict(ours.stacks)
    assert layout == ours


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_stacks_ocean_and_trophies_lie_on_their_terrain(game: Transcript):
    setup, data = game.setup, load_data()
    for cell, (building, tiles) in setup.stacks.items():
        assert setup.hexes[cell].terrain == building
        assert tiles == BUILDING_TILES[building]
    buildings = {c for c, h in setup.hexes.items() if h.terrain in BUILDING_TILES}
    assert set(setup.stacks) == buildings
    for space, (cell, ship) in enumerate(setup.ocean):
        found = setup.hexes[cell]
        assert (found.terrain, found.board[:5], found.local) == ("water", "ocean", (space, 0))
        assert ship in data.longships
    assert sorted(setup.bag + tuple(s for _, s in setup.ocean)) == sorted(data.longships)
    assert [(a, p) for a, p, _ in setup.trophies] == sorted(TROPHY_POINTS.items())
    for _, _, cell in setup.trophies:
        assert setup.hexes[cell].terrain == "trophy"
    # the ocean and trophy boards: 5 spaces in row 0, two resource hexes at (1,1) and (3,1)
    for board in (b for b, _, _ in setup.boards if not b.startswith("face")):
        cells = {h.local: h.terrain for h in setup.hexes.values() if h.board == board}
        space = "water" if board.startswith("ocean") else "trophy"
        assert {c for c, t in cells.items() if t == space} == {(c, 0) for c in range(5)}
        assert set(cells) - {(c, 0) for c in range(5)} == {(1, 1), (3, 1)}
        assert {cells[(1, 1)], cells[(3, 1)]} <= {"wood", "sheep", "gold", "axe"}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_sites_fjord_and_constants(game: Transcript):
    setup, data = game.setup, load_data()
    assert len(setup.sites) == game.players
    for column, kind in enumerate(("port", "altar", "palace")):
        names = [s[column] for s in setup.sites]
        assert len(set(names)) == len(names)
        assert all(data.sites[n].type == kind for n in names)
    assert dict(setup.fjord_sites) == data.fjord_sites
    assert setup.fjord_free == data.fjord_free
    assert (setup.vikings, setup.first_player) == (13, 1)
    assert setup.shields == ("PlayAgain", "DoubleGain", "PlaceOnOccupiedSpace")


def ledger(game: Transcript) -> tuple[list[str], list[str]]:
    """Walk a transcript with bookkeeping only (no rules of placement or capture): tiles
    gained are placed, from stacks that have them, on free fjord spaces; longships come from
    the water space holding them and refills come from the bag in order; each player places
    13 Vikings; the turn scores end at the result, whose parts add up. Returns the problems,
    and Game Park's known defects met on the way (``oracle.StackBook``)."""
    setup, problems = game.setup, []
    book = oracle.StackBook(setup.stacks)
    defects: list[str] = []
    ocean = dict(setup.ocean)
    bag = list(setup.bag)
    free = {p: set(setup.fjord_free) for p in range(1, game.players + 1)}
    tiles: dict[int, Counter] = {p: Counter() for p in free}
    vikings = Counter()
    pending: Counter = Counter()
    double = False
    taken_from: Axial | None = None  # the water space emptied this turn
    player = setup.first_player
    for index, move in enumerate(game.moves, start=1):
        say = f"move {move.n} {move.code!r}"
        move, overdrawn = book.correct(move)  # Game Park's copies taken out
        if overdrawn:
            defects.append(f"{say}: stack-overdraw {overdrawn}")
        if move.n != index or move.player != player:
            problems.append(f"{say}: number or player out of order")
        if move.options is not None and (
            list(move.options) != sorted(set(move.options))
            or move.code not in move.options
            or len(move.options) != move.legal
        ):
            problems.append(f"{say}: options not sorted, distinct, holding the move")
        if move.kind == "shield":
            double = double or move.shield == "DoubleGain"
        elif move.kind == "viking":
            vikings[player] += 1
            terrain = setup.hexes[move.hex].terrain
            if list(move.gain.resources) != [terrain] * (2 if double else 1):
                problems.append(f"{say}: gained {move.gain} on {terrain}")
            double = False
            pending.update(move.gain.buildings)
            for tile in move.gain.resources:
                pending[(tile, None)] += 1
        elif move.kind in ("place", "longship"):
            if move.fjord not in free[player]:
                problems.append(f"{say}: fjord space not free")
            free[player].discard(move.fjord)
            if move.kind == "place":
                if pending[(move.tile, move.source)] < 1:
                    problems.append(f"{say}: no such tile pending")
                pending[(move.tile, move.source)] -= 1
                tiles[player][move.tile] += 1
            else:
                if ocean.get(move.source) != move.longship:
                    problems.append(f"{say}: longship not on that water space")
                ocean[move.source] = None
                taken_from = move.source
        if move.discarded:  # a full fjord: the tiles still to lay go, buildings to their stacks
            if len(free[player]) != 0:
                problems.append(f"{say}: tiles discarded with the fjord not full")
            for tile in move.discarded.resources:
                pending[(tile, None)] -= 1
            pending.subtract(move.discarded.buildings)
        if move.kind == "pass":
            if +pending:
                problems.append(f"{say}: tiles left unplaced {dict(+pending)}")
            pending.clear()
            if taken_from is not None:
                want = (taken_from, bag.pop(0)) if bag else None
                got = (move.refill.hex, move.refill.longship) if move.refill else None
                if got != want:
                    problems.append(f"{say}: refill {got}, the bag's next is {want}")
                if want:
                    ocean[want[0]] = want[1]
            elif move.refill is not None:
                problems.append(f"{say}: a refill with no longship taken")
            taken_from = None
            if len(move.scores) != game.players:
                problems.append(f"{say}: {len(move.scores)} scores")
            player = move.next_player
            if player is None and index != len(game.moves):
                problems.append(f"{say}: the game ends before its last move")
    last = game.moves[-1]
    if last.kind != "pass" or last.next_player is not None:
        problems.append("the last move does not end the game")
    if set(vikings.values()) != {13}:
        problems.append(f"Vikings placed {dict(vikings)}, not 13 each")
    for result in game.result:
        p = result.player
        if sum(result.categories.values()) != result.total or result.gp_score != result.total:
            problems.append(f"player {p}: categories {dict(result.categories)} != {result.total}")
        if last.scores[p - 1] != result.total:
            problems.append(f"player {p}: last turn's score {last.scores[p - 1]} != total")
        for tile, score in result.tiles.items():
            if score.count != tiles[p][tile] or score.points != score.count * score.value:
                problems.append(f"player {p}: {tile} {score} but {tiles[p][tile]} placed")
        if result.longship_penalty != -5 * len(result.longships_incomplete):
            problems.append(f"player {p}: longship penalty {result.longship_penalty}")
        if result.tie_breaker != (result.trophy[1] if result.trophy else 0):
            problems.append(f"player {p}: tie-breaker {result.tie_breaker}")
    best = max((r.total, r.tie_breaker) for r in game.result)
    winners = tuple(r.player for r in game.result if (r.total, r.tie_breaker) == best)
    if winners != game.winners:
        problems.append(f"winners {game.winners}, the scores say {winners}")
    return problems, defects


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_transcript_is_consistent_move_by_move(game: Transcript):
    problems, _ = ledger(game)
    assert problems == []


def test_game_parks_stack_overdraw_shows_in_the_fixtures():
    """In seed 1259 (2 players, every longship taken) the overdrawn copies come back among
    the tiles a full fjord discards (move 110), and are taken out of them too.

    Seed 1147, 3 players: blue took one of the two houses at -4,2 (move 1); grey's first
    Viking of a PlayAgain turn took the last (move 11), and the second Viking (move 12) is
    given it once more, with a house from -6,2. Grey lays one house from -4,2 (move 14) and
    the copy is gone: the next lists of legal moves hold no house from -4,2."""
    defects = {t.seed: ledger(t)[1] for t in GAMES}
    assert {seed: d for seed, d in defects.items() if d} == {
        1147: ["move 12 'viking -5,2': stack-overdraw [house from -4,2]"],
        1143: ["move 9 'viking 4,0': stack-overdraw [house from 4,1]"],
        1259: [
            "move 104 'viking 0,4': stack-overdraw [watchtower from 0,-2, watchtower from 1,0, "
            "watchtower from -2,4, watchtower from 1,3]"
        ],
    }
    game = next(t for t in GAMES if t.seed == 1147)
    after = game.moves[14]  # move 15, after the house from -4,2 was laid
    assert not [c for c in after.options if c.endswith("from -4,2")]
    assert game.result[2].tiles["house"].count == 5


def test_every_kind_of_move_and_effect_occurs_in_the_fixtures():
    moves = [m for t in GAMES for m in t.moves]
    assert {m.kind for m in moves} == set(oracle.KINDS)
    assert {m.shield for m in moves if m.shield} == {
        "PlayAgain",
        "DoubleGain",
        "PlaceOnOccupiedSpace",
    }
    kinds = {m.kind for m in moves if m.completes.sites} | {
        f"{m.kind} ship" for m in moves if m.completes.longships
    }
    assert kinds == {"place", "place ship", "longship ship"}
    gained = Counter(tile for m in moves if m.gain for tile, _ in m.gain.buildings)
    assert set(gained) == set(BUILDING_TILES)
    assert any(m.gp_legal for m in moves) and any(m.refill for m in moves)
    discarded = [m for m in moves if m.discarded]
    assert {m.kind for m in discarded} == {"viking", "place"}


def test_codes_are_written_from_the_fields():
    move = GAMES[0].moves[0]
    assert oracle.move_code(move) == move.code
    line = Path(FILES[0]).read_text().splitlines()[0]
    broken = line.replace('"code":"' + move.code + '"', '"code":"viking 99,99"', 1)
    with pytest.raises(OracleError, match=r"seed 1189\), move 1: code 'viking 99,99' does not"):
        oracle.parse_record(broken, where="line 1")


def test_bad_lines_are_one_plain_message():
    with pytest.raises(OracleError, match=r"^x, line 3: not JSON"):
        oracle.parse_record("{nope", where="x, line 3")
    with pytest.raises(OracleError, match=r"unknown record type 'other'"):
        oracle.parse_record('{"type":"other"}')
