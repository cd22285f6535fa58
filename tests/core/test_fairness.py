"""Committed dice and shuffles (tabletop/core/randomness.py, docs/fairness.md) on a live table
and its log: nothing drawn before every seat has contributed, contributions once each and
before any draw, no forcing, no draw after the reveal; draws counted as the table counts
them (a move taken back keeps its draws, redo draws none) so ``verify_log`` re-derives them;
a game reopened (replayed, or resumed from a checkpoint) draws on as before; a copy without
the secret draws nothing. The derivation pinned by known answers, and its properties: faces
on the die, shuffles permutations, choices unbiased."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core import CommandError, FormatError, Note, Roll, Table, TableState
from tabletop.core.randomness import (
    SCHEME,
    Contribute,
    DrawStream,
    Reveal,
    SecretSeed,
    commitment_of,
    derive_faces,
    derive_order,
    draw_message,
)
from tabletop.persist import Game, Header
from tabletop.persist.fairness import FAIR, UNDECIDED, UNFAIR, verify_log
from tests.sample_table import SEATS, sample_header, setup_commands

SECRET = SecretSeed(bytes(range(32)))
RED, BLUE = "01" * 16, "02" * 16


def committed_header(secret: SecretSeed = SECRET) -> Header:
    header = sample_header()
    header.randomness = secret.header_record()
    return header


def fair_game(path=None, contributions=(("red", RED), ("blue", BLUE))) -> Game:  # noqa: ANN001
    def setup(table: Table) -> None:
        for seat, hex_text in contributions:
            table.chance(Contribute(seat, hex_text), seat)
        for command in setup_commands():
            table.submit(command, "setup", undoable=False)

    return Game.create(committed_header(), setup, path)


def test_known_answers_pin_the_derivation() -> None:
    """The derivation never changes under a game already played: these were derived once."""
    seats, contributions = ["red", "blue"], {"red": b"\x01" * 16, "blue": b"\x02" * 16}
    seed = SECRET.secret
    assert commitment_of(seed) == (
        "b665c8342beb13fb591f819b6a7476bc052767cf952eff0ea744e11eced78265"
    )
    assert (
        commitment_of(seed) == hashlib.sha256(b"tabletop/fair/v1/commitment\x00" + seed).hexdigest()
    )
    d6 = [1, 2, 3, 4, 5, 6]
    assert [derive_faces(seed, seats, contributions, d, [d6] * 3) for d in range(3)] == [
        [4, 1, 3],
        [3, 3, 6],
        [3, 3, 2],
    ]
    assert derive_order(seed, seats, contributions, 3, [f"card{i}" for i in range(10)]) == [
        f"card{i}" for i in (5, 6, 9, 0, 1, 7, 4, 3, 8, 2)
    ]
    # the first choice of a draw is HMAC-SHA256(seed, message || block 0)'s first 8 bytes
    block = hmac.new(seed, draw_message(seats, contributions, 0) + bytes(4), hashlib.sha256)
    assert int.from_bytes(block.digest()[:8], "big") % 6 == 4 - 1


def test_nothing_is_drawn_before_every_seat_has_contributed() -> None:
    game = fair_game(contributions=(("red", RED),))
    table = game.table
    with pytest.raises(CommandError, match=r"missing: blue"):
        table.roll(["die0"], "red")
    with pytest.raises(CommandError, match=r"missing: blue"):
        table.shuffle("deck", "red")
    assert table.random.draws == 0 and table.state.piece("die0").value is None
    table.chance(Contribute("blue", BLUE), "blue")
    table.roll(["die0"], "red")
    assert table.random.draws == 1


def test_contributions_once_each_before_any_draw_and_no_forcing() -> None:
    table = fair_game().table
    with pytest.raises(CommandError, match=r"red has added its contribution already \(entry 1\)"):
        table.chance(Contribute("red", RED), "red")
    with pytest.raises(CommandError, match="no outcome can be forced"):
        table.random.force_faces([6])
    with pytest.raises(CommandError, match="no outcome can be forced"):
        table.random.force_order([f"card{i}" for i in range(10)])
    with pytest.raises(CommandError, match="written with chance, not as a move"):
        table.submit(Contribute("red", RED), "red")
    with pytest.raises(CommandError, match="does not match the game's commitment"):
        table.chance(Reveal("ff" * 32), "referee")
    plain = Table(TableState(SEATS))
    with pytest.raises(CommandError, match="not committed"):
        plain.chance(Contribute("red", RED), "red")


def test_draws_are_counted_as_the_table_counts_them_undo_and_redo_included(tmp_path) -> None:
    """A roll taken back keeps its draw (the next roll is the next draw: nobody rolls again by
    undoing); redo repeats the outcome and draws nothing; notes and moves draw nothing."""
    path = tmp_path / "fair.jsonl"
    game = fair_game(path)
    table = game.table
    first = table.roll(["die0", "die1"], "red").entry
    table.undo("red")
    second = table.roll(["die0", "die1"], "red").entry
    assert (first.draws, second.draws) == (1, 2)
    table.undo("red")
    table.redo("red")
    assert table.random.draws == 2
    table.submit(Note("a remark"), "blue")
    table.shuffle("deck", "blue")
    d6 = [1, 2, 3, 4, 5, 6]
    contributions = {"red": bytes.fromhex(RED), "blue": bytes.fromhex(BLUE)}
    assert list(first.command.new) == derive_faces(
        SECRET.secret, ["red", "blue"], contributions, 0, [d6, d6]
    )
    assert list(second.command.new) == derive_faces(
        SECRET.secret, ["red", "blue"], contributions, 1, [d6, d6]
    )
    game.close()
    assert verify_log(path).status == UNDECIDED  # not revealed yet
    # reopened, the game draws on from where it stood, as if it had never been closed
    again = Game.open(path)
    assert again.table.random.draws == 3
    third = again.table.roll(["die2"], "blue").entry
    assert list(third.command.new) == derive_faces(
        SECRET.secret, ["red", "blue"], contributions, 3, [["hunt", "miss"]]
    )
    again.table.chance(Reveal(SECRET.secret.hex()), "referee")
    with pytest.raises(CommandError, match="the seed was revealed at entry"):
        again.table.roll(["die0"], "red")
    with pytest.raises(CommandError, match="the seed was revealed"):
        again.table.chance(Reveal(SECRET.secret.hex()), "referee")
    again.close()
    verdict = verify_log(path)
    assert (verdict.status, verdict.rolls, verdict.shuffles) == (FAIR, 3, 1), verdict.message
    assert verdict.message == "fair: 3 rolls and 1 shuffle re-derived from the revealed seed"


def test_a_game_resumed_from_a_checkpoint_knows_its_contributions(tmp_path) -> None:
    path = tmp_path / "long.jsonl"
    game = fair_game(path)
    while game.table.seq < 1001:  # past the first checkpoint (every 1000 entries)
        game.table.submit(Note("waiting"), "red")
    game.close()
    resumed = Game.open(path, verify=False)  # from the checkpoint: contributions not replayed
    entry = resumed.table.roll(["die0"], "red").entry
    resumed.close()
    contributions = {"red": bytes.fromhex(RED), "blue": bytes.fromhex(BLUE)}
    assert list(entry.command.new) == derive_faces(
        SECRET.secret, ["red", "blue"], contributions, 0, [[1, 2, 3, 4, 5, 6]]
    )


def test_a_copy_without_the_secret_draws_nothing(tmp_path) -> None:
    path = tmp_path / "referee.jsonl"
    game = fair_game(path)
    game.table.roll(["die0"], "red")
    game.close()
    lines = path.read_text().splitlines()
    header = Header.from_dict(json.loads(lines[0]))
    assert header.randomness is not None and "secret" in header.randomness
    header.randomness = header.public_randomness()
    seat_copy = tmp_path / "seat.jsonl"
    seat_copy.write_text(json.dumps(header.to_dict()) + "\n" + "\n".join(lines[1:]) + "\n")
    copy = Game.open(seat_copy)
    with pytest.raises(CommandError, match="does not hold the referee's secret seed"):
        copy.table.roll(["die0"], "red")
    copy.close()
    assert SECRET.secret.hex() not in seat_copy.read_text()


def test_a_header_whose_secret_does_not_match_its_commitment_is_refused() -> None:
    record = SECRET.header_record()
    record["secret"] = "00" * 32
    with pytest.raises(FormatError, match="the secret does not match the commitment"):
        Header.from_dict({**committed_header().to_dict(), "randomness": record})
    with pytest.raises(FormatError, match="unknown scheme"):
        Header.from_dict({**committed_header().to_dict(), "randomness": {"scheme": "x"}})
    assert SCHEME in str(committed_header().to_dict()["randomness"])


def test_a_roll_set_by_hand_is_unfair(tmp_path) -> None:
    """A roll put in as a move of its own (faces chosen, not drawn) is caught: the table's
    count of draws and the seed's faces disagree with it."""
    path = tmp_path / "hand.jsonl"
    game = fair_game(path)
    game.table.roll(["die0"], "red")
    die = game.state.piece("die1")
    game.table.submit(Roll(("die1",), (die.value,), (6,)), "red")
    game.table.chance(Reveal(SECRET.secret.hex()), "referee")
    seq = game.table.seq - 1
    game.close()
    verdict = verify_log(path)
    assert verdict.status == UNFAIR and verdict.entry == seq
    assert verdict.message == f"entry {seq}: rolled die1=6 where the seed gives die1=3 (draw 1)"


def test_an_entry_claiming_another_draw_number_is_unfair(tmp_path) -> None:
    """Picking a favourable draw number (the entry's 'draws' changed, the log written again by
    the game's own replay) is caught: verify counts draws itself."""
    path = tmp_path / "draws.jsonl"
    game = fair_game(path)
    for _ in range(3):
        game.table.roll(["die0"], "red")
    game.table.chance(Reveal(SECRET.secret.hex()), "referee")
    game.close()
    assert verify_log(path).status == FAIR
    opened = Game.open(path, writable=False)
    entries = opened.table.entries
    last_roll = entries[-2]
    entries[-2] = last_roll._replace(draws=7)
    out = tmp_path / "changed.jsonl"
    opened.branch(opened.table.seq, out)
    opened.close()
    verdict = verify_log(out)
    assert verdict.status == UNFAIR and verdict.entry == last_roll.seq
    assert "the entry says the game had made 7 draws, where its rolls and shuffles count 3" in (
        verdict.message
    )


# ---- the derivation's properties --------------------------------------------------
seeds = st.binary(min_size=32, max_size=32)
contribution = st.binary(min_size=16, max_size=64)


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    red=contribution,
    blue=contribution,
    draw=st.integers(0, 10_000),
    dice=st.lists(
        st.lists(st.one_of(st.integers(), st.text(max_size=4)), min_size=1, max_size=20),
        min_size=1,
        max_size=8,
    ),
)
def test_derived_faces_are_on_their_die(seed, red, blue, draw, dice) -> None:  # noqa: ANN001
    contributions = {"red": red, "blue": blue}
    faces = derive_faces(seed, ["red", "blue"], contributions, draw, dice)
    assert len(faces) == len(dice)
    assert all(face in die for face, die in zip(faces, dice, strict=True))
    assert faces == derive_faces(seed, ["red", "blue"], contributions, draw, dice)


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    red=contribution,
    draw=st.integers(0, 10_000),
    pieces=st.lists(st.text(min_size=1, max_size=6), max_size=60, unique=True),
)
def test_derived_shuffles_are_permutations(seed, red, draw, pieces) -> None:  # noqa: ANN001
    order = derive_order(seed, ["red"], {"red": red}, draw, pieces)
    assert sorted(order) == sorted(pieces) and len(order) == len(pieces)
    assert order == derive_order(seed, ["red"], {"red": red}, draw, pieces)


def test_choices_are_unbiased_and_depend_on_every_contribution() -> None:
    """Rejection sampling: a choice among 3 taken many times falls evenly (each third within a
    few percent); one seat's other contribution gives other outcomes."""
    counts = Counter(
        DrawStream(SECRET.secret, bytes([i % 256, i // 256])).below(3) for i in range(6000)
    )
    assert all(1800 < counts[k] < 2200 for k in range(3)), counts
    a = {"red": b"\x01" * 16, "blue": b"\x02" * 16}
    b = {"red": b"\x01" * 16, "blue": b"\x03" * 16}
    d20 = [list(range(1, 21))] * 8
    assert derive_faces(SECRET.secret, ["red", "blue"], a, 0, d20) != derive_faces(
        SECRET.secret, ["red", "blue"], b, 0, d20
    )


def test_a_referee_draws_a_new_secret_each_game_and_publishes_only_its_hash() -> None:
    one, two = SecretSeed.draw(), SecretSeed.draw()
    assert len(one.secret) == 32 and one.secret != two.secret
    record = one.header_record()
    assert record == {"scheme": SCHEME, "commitment": one.commitment, "secret": one.secret.hex()}
    header = committed_header(one)
    public = header.public_randomness()
    assert public == {"scheme": SCHEME, "commitment": one.commitment}
    assert one.secret.hex() not in json.dumps(public)


def test_a_roll_marked_forced_in_a_committed_game_is_unfair(tmp_path) -> None:
    """Forcing is refused in a committed game, so a forced roll in its log was put there
    afterwards (the log written again by the game's own replay): verify names it."""
    path = tmp_path / "forced.jsonl"
    game = fair_game(path)
    roll = game.table.roll(["die0"], "red").entry
    game.table.chance(Reveal(SECRET.secret.hex()), "referee")
    game.close()
    opened = Game.open(path, writable=False)
    command = roll.command
    forced = Roll(command.pieces, command.old, command.new, (True,))
    opened.table.entries[roll.seq - 1] = roll._replace(command=forced)
    out = tmp_path / "changed.jsonl"
    opened.branch(opened.table.seq, out)
    opened.close()
    verdict = verify_log(out)
    assert (verdict.status, verdict.entry) == (UNFAIR, roll.seq)
    assert verdict.message == f"entry {roll.seq}: a roll with forced faces"
