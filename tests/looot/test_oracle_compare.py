"""The step-by-step comparison with Game Park's transcripts (``oracle.compare_move`` and
``oracle.compare_result``): what agrees gives nothing, and each kind of difference one plain
line saying what Game Park did and what we did."""

from __future__ import annotations

import dataclasses

from tests.looot import oracle
from tests.looot.oracle import Completes, Disagreement, OurResult, Refill, Step, Tiles

GAME = next(oracle.transcripts(oracle.read_records(oracle.fixture_files()[0])))  # seed 1189
MOVES = {m.n: m for m in GAME.moves}


def agreeing(move: oracle.Move) -> Step:
    """The step our game would show if it agreed with ``move`` in everything."""
    legal = move.options or tuple(f"x{i}" for i in range(move.legal - 1)) + (move.code,)
    return Step(
        legal=tuple(legal),
        gain=move.gain,
        discarded=move.discarded,
        completes=move.completes,
        refill=move.refill,
        scores=move.scores,
        next_player=move.next_player,
    )


def test_a_move_that_agrees_gives_nothing():
    for move in GAME.moves:
        assert oracle.compare_move(move, agreeing(move)) == [], move.code


def test_legality_count_and_lists():
    move = MOVES[1]
    assert move.options is not None and move.code in move.options
    fewer = tuple(c for c in move.options if c != move.code)
    assert oracle.compare_move(move, dataclasses.replace(agreeing(move), legal=fewer)) == [
        f"not legal for us (we have {len(fewer)} legal moves)",
        f"{move.legal} distinct legal moves for Game Park, {len(fewer)} for us",
        f"legal for Game Park only: {move.code}",
    ]
    more = (*move.options, "viking 99,99")
    assert oracle.compare_move(move, dataclasses.replace(agreeing(move), legal=more)) == [
        f"{move.legal} distinct legal moves for Game Park, {move.legal + 1} for us",
        "legal for us only: viking 99,99",
    ]


def test_tiles_gained_and_game_parks_overdraw():
    move = next(m for m in GAME.moves if m.kind == "viking" and m.gain.buildings)
    step = agreeing(move)
    fewer = dataclasses.replace(step, gain=Tiles(move.gain.resources))
    (problem,) = oracle.compare_move(move, fewer)
    assert problem == f"gain: Game Park {move.gain}, ours {Tiles(move.gain.resources)}"
    # a building Game Park overdrew from a stack already empty is taken out of its gain
    empty = oracle.StackBook({cell: (tile, 0) for tile, cell in move.gain.buildings})
    corrected, overdrawn = empty.correct(move)
    assert overdrawn == Tiles((), move.gain.buildings)
    assert oracle.compare_move(corrected, fewer) == []
    reordered = dataclasses.replace(
        step, gain=Tiles(move.gain.resources[::-1], move.gain.buildings[::-1])
    )
    assert oracle.compare_move(move, reordered) == []


def test_completions_refill_scores_and_next_player():
    place = MOVES[81]
    assert place.completes == Completes((), (421,))
    assert oracle.compare_move(
        place, dataclasses.replace(agreeing(place), completes=Completes())
    ) == ["completes: Game Park [longship 421], ours nothing"]
    passing = next(m for m in GAME.moves if m.refill)
    step = dataclasses.replace(
        agreeing(passing),
        refill=Refill(passing.refill.hex, 999),
        scores=tuple(s + 1 for s in passing.scores),
        next_player=None,
    )
    assert oracle.compare_move(passing, step) == [
        f"refill: Game Park {passing.refill}, ours longship 999 onto {oracle.key(passing.refill.hex)}",
        f"scores: Game Park {list(passing.scores)}, ours {[s + 1 for s in passing.scores]}",
        f"next player: Game Park {passing.next_player}, ours none (over)",
    ]


def ours_from(result: oracle.PlayerResult) -> OurResult:
    return OurResult(
        player=result.player,
        total=result.total,
        categories=dict(result.categories),
        tiles=dict(result.tiles),
        sites={kind: s.completed for kind, s in result.sites.items()},
        trophy=result.trophy[0] if result.trophy else None,
        longships_completed=result.longships_completed,
        longships_incomplete=result.longships_incomplete,
    )


def test_final_scores_by_category_and_winners():
    ours = [ours_from(r) for r in GAME.result]
    assert oracle.compare_result(GAME, ours, GAME.winners) == []
    first = ours[0]
    wood = first.tiles["wood"]
    changed = dataclasses.replace(
        first,
        total=first.total + 1,
        categories={**first.categories, "resources": first.categories["resources"] + 1},
        tiles={
            **first.tiles,
            "wood": oracle.TileScore(wood.count + 1, wood.value, wood.points + wood.value),
        },
    )
    problems = oracle.compare_result(GAME, [changed, *ours[1:]], (2,))
    assert problems == [
        f"player 1 total: Game Park {first.total}, ours {first.total + 1}",
        f"player 1 resources: Game Park {first.categories['resources']}, ours {first.categories['resources'] + 1}",
        f"player 1 wood: Game Park {wood}, ours {changed.tiles['wood']}",
        "winners: Game Park [1], ours [2]",
    ]


def test_a_disagreement_names_the_game_the_move_and_the_code():
    found = Disagreement(
        1189, 2, 81, "place sheep 2,5", "completes: Game Park [longship 421], ours nothing"
    )
    assert str(found) == (
        "seed 1189 (2 players), move 81 'place sheep 2,5': "
        "completes: Game Park [longship 421], ours nothing"
    )
    assert str(Disagreement(1189, 2, None, "", "winners: Game Park [1], ours [2]")) == (
        "seed 1189 (2 players), the result: winners: Game Park [1], ours [2]"
    )
