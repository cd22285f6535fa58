"""Game Park's recorded games played again move by move through ``play_code`` in the gamepark
variant: at every move the number of distinct legal moves, the tiles gained, what completes,
what is discarded, the scores after each turn and who plays next; at the end each player's
score by category and the winners."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_assist.looot.moves import legal_codes, looot_game, play_code
from rules_assist.looot.reading import Looot
from rules_assist.looot.scoring import breakdown, winners
from tests.looot.play import SEATS, start
from tests.looot.samples import FOLDER, sample

NAMES = sorted(p.stem for p in FOLDER.glob("*.json"))


def _new(lo: Looot, seat: str, before: set[str]) -> tuple[list[str], list[tuple[str, str]]]:
    pieces = lo.state.pieces
    new = [p for p in lo.gained(seat) if p not in before]
    resources = sorted(pieces[p].kind for p in new if not pieces[p].props.get("from"))
    buildings = sorted(
        (pieces[p].kind, pieces[p].props["from"]) for p in new if pieces[p].props.get("from")
    )
    return resources, buildings


@pytest.mark.parametrize("name", NAMES)
def test_gamepark_game_replays_move_by_move(name):
    record = sample(name)
    session = start(name, "gamepark")
    game = looot_game()
    for move in record["moves"]:
        codes = legal_codes(session.state)
        assert move["code"] in codes, (move["n"], move["code"])
        assert len(codes) == move["legal"], (move["n"], len(codes), move["legal"])
        lo = Looot(session.state, game)
        seat = lo.to_move
        assert seat == SEATS[move["player"] - 1]
        pending = set(lo.gained(seat))
        done = {p for p, piece in session.state.pieces.items() if piece.props.get("complete")}
        discarded = len(session.state.place("discard").contents)
        play_code(session, move["code"])
        lo = Looot(session.state, game)
        if move["kind"] == "viking":
            resources, buildings = _new(lo, seat, pending)
            assert resources == sorted(move["gain"]["resources"]), move["n"]
            recorded = Counter(
                (b["tile"], f"{b['from'][0]},{b['from'][1]}") for b in move["gain"]["buildings"]
            )
            assert not Counter(buildings) - recorded, move["n"]  # the record lists the turn's
        completed = {
            p for p, piece in session.state.pieces.items() if piece.props.get("complete")
        } - done
        expected = move.get("completes", {})
        assert completed == {f"site-{s}" for s in expected.get("sites", [])} | {
            f"longship-{n}" for n in expected.get("longships", [])
        }, move["n"]
        assert len(session.state.place("discard").contents) - discarded == len(
            move.get("discarded", [])
        )
        if move["kind"] == "pass":
            assert [breakdown(lo, s)["total"] for s in lo.seats] == move["scores"], move["n"]
            if move["next"] is None:
                assert lo.phase == "over"
            else:
                assert lo.to_move == SEATS[move["next"] - 1]
            if "refill" in move:
                refill = move["refill"]
                space = f"{refill['hex'][0]},{refill['hex'][1]}"
                assert lo.ship_on(space) == f"longship-{refill['longship']}"
    lo = Looot(session.state, game)
    assert game.flow.is_terminal(session.state)
    for result in record["result"]:
        found = breakdown(lo, SEATS[result["player"] - 1])
        assert found["categories"] == result["categories"]
        assert found["total"] == result["total"]
        assert found["tieBreaker"] == result["tieBreaker"]
        for tile, row in result["tiles"].items():
            assert found["tiles"][tile] == row
    assert winners(lo) == [SEATS[w - 1] for w in record["winners"]]
    assert game.audit(session.state) == []
