"""Random play with undo and redo: no piece is ever made or lost, and the log rebuilds the table."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.core import CommandError, SetCounter
from tabletop.core import actions as act
from tabletop.persist import Game
from tests.sample_table import sample_header, setup_commands

OPS = (
    "move",
    "move",
    "move",
    "flip",
    "rotate",
    "roll",
    "shuffle",
    "compound",
    "draw",
    "property",
    "counter",
    "peek",
    "undo",
    "undo",
    "redo",
)

steps = st.lists(
    st.tuples(
        st.sampled_from(OPS),
        st.integers(0, 2**16),
        st.integers(0, 2**16),
        st.integers(0, 2**16),
    ),
    min_size=1,
    max_size=40,
)


def build_move(state, a: int, b: int, c: int):
    pieces = sorted(state.pieces)
    places = sorted(state.places)
    pid = pieces[a % len(pieces)]
    place = state.place(places[b % len(places)])
    spot = x = y = None
    if place.spots:
        spot = place.spots[c % len(place.spots)]
    if place.kind == "area":
        x, y = float(c % 7), float(c % 5) / 2
    size = len(place.contents) - (1 if state.piece(pid).place == place.id else 0)
    return act.move(state, pid, place.id, spot=spot, x=x, y=y, index=c % (size + 1))


def build(table, op: str, a: int, b: int, c: int):
    """A command for the op, or None when the op needs no submit (undo, redo, chance)."""
    s = table.state
    pieces = sorted(s.pieces)
    pid = pieces[a % len(pieces)]
    if op == "move":
        return build_move(s, a, b, c)
    if op == "flip":
        return act.flip(s, pid)
    if op == "rotate":
        return act.rotate(s, pid, 1 + c % 3)
    if op == "property":
        return act.set_property(s, pid, "mark", [None, 1, "two", [3]][c % 4])
    if op == "counter":
        return SetCounter("round", s.counters.get("round"), [None, 1, 2, {"phase": "hunt"}][c % 4])
    if op == "peek":
        places = sorted(s.places)
        return act.peek(s, ["red", "blue"][a % 2], places[b % len(places)], c % 4 or None)
    if op == "draw":
        places = sorted(p for p in s.places if s.places[p].kind in ("row", "stack", "hand", "bowl"))
        dest = places[b % len(places)]
        if c % 3 == 0:
            return act.deal(s, "deck", ["hand-red", "hand-blue"], 1 + a % 2)
        return act.draw(s, "deck", dest, 1 + a % 3, face_up=[None, True, False][c % 3])
    if op == "compound":
        return act.build_sequence(
            s,
            "random turn",
            [
                lambda t: build_move(t, a, b, c),
                lambda t: act.flip(t, sorted(t.pieces)[b % len(pieces)]),
                lambda t: build_move(t, c, a, b),
            ][: 1 + c % 3],
            procedure="test",
        )
    raise AssertionError(op)


def play(table, op: str, a: int, b: int, c: int) -> None:
    before, seq = table.state.digest(), table.seq
    try:
        if op == "undo":
            table.undo("red")
        elif op == "redo":
            table.redo("blue")
        elif op == "roll":
            dice = [d for i, d in enumerate(("die0", "die1", "die2")) if (a >> i) & 1] or ["die1"]
            if b % 4 == 0:
                table.random.force_faces([table.state.piece(dice[0]).faces[c % 2]])
            table.roll(dice, "red")
        elif op == "shuffle":
            places = sorted(table.state.places)
            place = places[b % len(places)]
            if c % 4 == 0:
                table.random.force_order(list(reversed(table.state.contents(place))))
            table.shuffle(place, "blue")
        else:
            table.submit(build(table, op, a, b, c), "red")
    except CommandError:
        # a command that does not fit changes nothing and is not logged
        table.random.clear_forced()
        assert table.state.digest() == before
        assert table.seq == seq


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps)
def test_random_play_conserves_pieces_and_replays_from_the_log(moves):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        game = Game.create(sample_header(seed=17), setup_commands(), path)
        table = game.table
        table.checkpoint_every = 5  # checkpoints in the file too, to resume from
        setup_digest = table.state.digest()
        tally = table.state.tally()

        for op, a, b, c in moves:
            play(table, op, a, b, c)
            assert table.state.tally() == tally
            assert table.state.consistency_problem() is None
        game.close()

        # the log rebuilds the very same table, by full replay and by resuming a checkpoint
        for verify in (True, False):
            with Game.open(path, writable=False, verify=verify) as again:
                assert again.warnings == []
                assert again.state.digest() == table.state.digest()
                assert again.table.undo_stack == table.undo_stack
                assert again.table.redo_stack == table.redo_stack
                assert again.table.random.draws == table.random.draws
                assert again.table.seq == table.seq
                for seq in range(0, table.seq + 1, 3):
                    assert again.table.state_at(seq).digest() == table.state_at(seq).digest()

        # undoing everything goes back to the table as it was set up
        while table.can_undo:
            table.undo("red")
            assert table.state.tally() == tally
        assert table.state.digest() == setup_digest
