"""The rulebook: the move checker (transition rules and the invariants a move newly breaks) and
the audit (every invariant), with rules a variant switches off."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest

from rules_assist.rules import INVARIANT, TRANSITION, Rulebook, hand_moves
from tabletop.core import Compound, Finding, Mode, Move, Policy, Refused, TableState, actions
from tests.sample_table import sample_table


@dataclass
class Reading:
    state: TableState

    def on_track(self, seat: str) -> list[str]:
        return [
            pid
            for pid in self.state.place("track").contents
            if self.state.pieces[pid].kind == "cube" and self.state.pieces[pid].owner == seat
        ]


def owners(reading: Reading, moves: Sequence[Move]) -> Iterator[str]:
    for move in moves:
        owner = reading.state.pieces[move.piece].owner
        if owner:
            yield owner


def make_book() -> Rulebook:
    book = Rulebook(
        reading=Reading,
        seats=lambda r: [s.id for s in r.state.seats],
        seats_touched=owners,
        off=lambda r: r.state.counters.get("off", ()),
    )

    @book.invariant("T1", "a seat has at most two cubes on the track")
    def two_on_track(reading: Reading, seat: str) -> Iterator[Finding]:
        cubes = reading.on_track(seat)
        if len(cubes) > 2:
            yield Finding("T1", f"{seat} has more than two cubes on the track", pieces=tuple(cubes))

    @book.invariant("T2", "nothing lies in the discard", per_seat=False)
    def empty_discard(reading: Reading, seat: None) -> Iterator[Finding]:
        assert seat is None
        if reading.state.place("discard").contents:
            yield Finding("T2", "the discard holds something")

    @book.transition("M1", "a cube moves only onto the track")
    def onto_the_track(reading: Reading, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
        if reading.state.pieces[move.piece].kind == "cube" and move.dst.place != "track":
            yield Finding("M1", f"{move.piece} may only go onto the track")

    return book


def to_track(state: TableState, pid: str, spot: str = "t0") -> Move:
    return actions.move(state, pid, "track", spot=spot)


def put(table, command) -> None:
    table.submit(command, "setup", undoable=False)


def rules_of(findings) -> list[str]:
    return [f.rule for f in findings]


def test_the_rules_are_listed_by_kind_and_section():
    book = make_book()
    assert [(r.section, r.kind) for r in book.rules()] == [
        ("T1", INVARIANT),
        ("T2", INVARIANT),
        ("M1", TRANSITION),
    ]
    assert book.sections() == ["M1", "T1", "T2"]
    assert [r.per_seat for r in book.invariants] == [True, False]


def test_check_gives_the_transition_rules_findings():
    book, table = make_book(), sample_table()
    assert rules_of(book.check(table.state, actions.move(table.state, "cube0", "row"), "red")) == [
        "M1"
    ]
    assert book.check(table.state, to_track(table.state, "cube0"), "red") == []


def test_check_gives_an_invariant_the_move_newly_breaks_for_the_seats_it_touches():
    book, table = make_book(), sample_table()
    for pid in ("cube0", "cube1"):
        put(table, to_track(table.state, pid))
    found = book.check(table.state, to_track(table.state, "cube2"), "red")
    assert rules_of(found) == ["T1"]
    assert found[0].pieces == ("cube0", "cube1", "cube2")
    for pid in ("cube5", "cube6", "cube7"):  # blue breaks T1 already
        put(table, to_track(table.state, pid))
    assert book.check(table.state, to_track(table.state, "cube8"), "blue") == []  # not new
    put(table, to_track(table.state, "cube2"))
    assert rules_of(book.audit(table.state)) == ["T1", "T1"]


def test_a_whole_table_problem_that_was_there_is_not_the_moves_fault():
    book, table = make_book(), sample_table()
    put(table, actions.move(table.state, "card0", "discard"))
    assert book.check(table.state, to_track(table.state, "cube0"), "red") == []
    clean = sample_table()
    found = book.check(clean.state, actions.move(clean.state, "card0", "discard"), "red")
    assert rules_of(found) == ["T2"]  # no seat touched: the whole-table rules still run


def test_check_leaves_the_table_as_it_was():
    book, table = make_book(), sample_table()
    for pid in ("cube0", "cube1"):
        put(table, to_track(table.state, pid))
    digest, version = table.state.digest(), table.state.version
    book.check(table.state, to_track(table.state, "cube2"), "red")
    assert (table.state.digest(), table.state.version) == (digest, version)


def test_the_audit_runs_every_invariant_for_every_seat():
    book, table = make_book(), sample_table()
    assert book.audit(table.state) == []
    for pid in ("cube0", "cube1", "cube2", "cube5", "cube6", "cube7"):
        put(table, to_track(table.state, pid))
    put(table, actions.move(table.state, "card0", "discard"))
    found = book.audit(table.state)
    assert [(f.rule, f.message.split()[0]) for f in found] == [
        ("T1", "red"),
        ("T1", "blue"),
        ("T2", "the"),
    ]


def test_a_variant_switches_rules_off_by_section_or_by_its_letter():
    book, table = make_book(), sample_table()
    for pid in ("cube0", "cube1", "cube2"):
        put(table, to_track(table.state, pid))
    put(table, actions.move(table.state, "card0", "discard"))
    put(table, actions.set_counter(table.state, "off", ["T1"]))
    assert rules_of(book.audit(table.state)) == ["T2"]
    assert book.check(table.state, to_track(table.state, "cube3"), "red") == []
    put(table, actions.set_counter(table.state, "off", ["T"]))
    assert book.audit(table.state) == []
    assert rules_of(book.check(table.state, actions.move(table.state, "cube3", "row"), "red")) == [
        "M1"
    ]
    put(table, actions.set_counter(table.state, "off", ["M1"]))
    assert book.check(table.state, actions.move(table.state, "cube3", "row"), "red") == []


def test_only_hand_moves_are_checked():
    table = sample_table()
    state = table.state
    move = to_track(state, "cube0")
    other = actions.move(state, "cube5", "row")
    assert hand_moves(move) == [move]
    assert hand_moves(Compound("two", (move, Compound("one", (other,))))) == [move, other]
    assert hand_moves(Compound("a procedure", (move,), "game.step")) == []
    assert hand_moves(actions.set_counter(state, "turn", 2)) == []
    book = make_book()
    assert book.check(state, Compound("a procedure", (other,), "game.step"), "red") == []


def test_the_checker_refuses_a_broken_rule_and_trusts_procedures():
    book, table = make_book(), sample_table()
    checker = book.checker()
    assert checker.trusts_procedures is True
    table.checker, table.policy = checker, Policy(Mode.STRICT)
    with pytest.raises(Refused) as refused:
        table.submit(actions.move(table.state, "cube0", "row"), "red")
    assert rules_of(refused.value.findings) == ["M1"]
    stepped = Compound("a procedure", (actions.move(table.state, "cube0", "row"),), "game.step")
    table.submit(stepped, "red")
    assert table.state.pieces["cube0"].place == "row"


def test_a_rule_that_names_its_places_is_checked_only_for_moves_through_them():
    """``places``: the move checker skips a rule for a move elsewhere; the audit runs it."""
    book = make_book()
    read: list[str] = []

    @book.invariant("T3", "at most one card in the discard", per_seat=False, places=("disc",))
    def one_in_discard(reading: Reading, seat: None) -> Iterator[Finding]:
        read.append("T3")
        if len(reading.state.place("discard").contents) > 1:
            yield Finding("T3", "the discard holds more than one card")

    @book.transition("M2", "a card leaves the discard only to the row", places=("discard",))
    def out_of_the_discard(
        reading: Reading, move: Move, moves: Sequence[Move]
    ) -> Iterator[Finding]:
        read.append("M2")
        if move.src.place == "discard" and move.dst.place != "row":
            yield Finding("M2", f"{move.piece} leaves the discard only for the row")

    table = sample_table()
    assert rules_of(book.check(table.state, to_track(table.state, "cube0"), "red")) == []
    assert read == []  # the move went from the bowl to the track: neither rule was asked
    found = book.check(table.state, actions.move(table.state, "card0", "discard"), "red")
    assert rules_of(found) == ["T2"]  # one card: T3 holds, and M2 is about leaving
    assert read[:2] == ["M2", "T3"]  # (T3 again on the table before, to tell what is new)
    put(table, actions.move(table.state, "card0", "discard"))
    found = book.check(table.state, actions.move(table.state, "card1", "discard"), "red")
    assert rules_of(found) == ["T3"]
    put(table, actions.move(table.state, "card1", "discard"))
    assert rules_of(book.audit(table.state)) == ["T2", "T3"]  # the audit reads everywhere


def test_a_rule_that_names_its_spots_is_checked_only_for_moves_from_or_to_them():
    """``spots``: besides its places, a rule may name the spots it reads; the move checker asks
    it about a move from or to one of them, and not about a move elsewhere on the same place."""
    book = make_book()
    read: list[str] = []

    @book.invariant("T4", "a seat has one cube at most on the last space", spots=("t3",))
    def one_at_the_end(reading: Reading, seat: str) -> Iterator[Finding]:
        read.append("T4")
        pieces = reading.state.pieces
        last = [p for p in reading.on_track(seat) if pieces[p].spot == "t3"]
        if len(last) > 1:
            yield Finding("T4", f"{seat} has two cubes on the last space", pieces=tuple(last))

    table = sample_table()
    assert rules_of(book.check(table.state, to_track(table.state, "cube0", "t1"), "red")) == []
    assert read == []  # onto the track, not its last space: T4 was not asked
    put(table, to_track(table.state, "cube0", "t3"))
    found = book.check(table.state, to_track(table.state, "cube1", "t3"), "red")
    assert rules_of(found) == ["T4"]
    assert rules_of(book.audit(table.state)) == []  # one cube there: the audit asks, all is well


def test_a_game_may_say_what_a_move_touches_besides_the_places_ids():
    """``touching``: the game names what a move touches in one look, the places with what else
    it calls them (here the track's last space is 'the goal') and the seats; a rule naming
    'goal' in its places is asked about a move onto that space and not about one elsewhere."""
    book = make_book()
    read: list[str] = []
    asked: list[int] = []

    def touching(reading: Reading, moves: Sequence[Move]) -> tuple[tuple[str, ...], list[str]]:
        asked.append(len(moves))
        names = tuple(p for m in moves for p in (m.src.place, m.dst.place))
        if any(m.dst.place == "track" and m.dst.spot == "t3" for m in moves):
            names += ("goal",)
        return names, sorted(set(owners(reading, moves)))

    book.touching = touching

    @book.invariant("T5", "one cube at most reaches the goal", per_seat=False, places=("goal",))
    def one_at_the_goal(reading: Reading, seat: None) -> Iterator[Finding]:
        read.append("T5")
        pieces = reading.state.place("track").contents
        if sum(1 for p in pieces if reading.state.pieces[p].spot == "t3") > 1:
            yield Finding("T5", "two cubes reached the goal")

    table = sample_table()
    assert rules_of(book.check(table.state, to_track(table.state, "cube0", "t1"), "red")) == []
    assert read == [] and asked == [1]  # onto the track short of the goal: T5 was not asked
    put(table, to_track(table.state, "cube0", "t3"))
    found = book.check(table.state, to_track(table.state, "cube1", "t3"), "red")
    assert rules_of(found) == ["T5"]
    first = to_track(table.state, "cube1", "t1")
    first.apply(table.state)
    second = to_track(table.state, "cube2", "t3")
    first.inverse().apply(table.state)
    found = book.check(table.state, Compound("two", (first, second)), "red")
    assert rules_of(found) == ["T1", "T5"] and asked[-1] == 2  # three of red's, two at the goal


def test_a_rule_of_the_variants_without_a_section_is_played_only_by_them():
    """``only_without``: a beginners' rule comes into play when its variant switches the
    advanced rule off, in the move checker and in the audit alike."""
    book = make_book()

    @book.invariant("B1", "without T1, no cube at all on the track", only_without=("T1",))
    def no_cube_on_track(reading: Reading, seat: str) -> Iterator[Finding]:
        if reading.on_track(seat):
            yield Finding("B1", f"{seat} has a cube on the track")

    table = sample_table()
    put(table, to_track(table.state, "cube0"))
    assert rules_of(book.audit(table.state)) == []
    put(table, actions.set_counter(table.state, "off", ["T1"]))
    assert rules_of(book.audit(table.state)) == ["B1"]
    assert rules_of(book.check(table.state, to_track(table.state, "cube1"), "red")) == []
    assert rules_of(book.check(table.state, to_track(table.state, "cube5"), "blue")) == ["B1"]


def test_the_findings_for_a_command_are_kept_while_the_table_stays():
    """A command checked again on the same table (a bot's candidate, then the table when it is
    submitted) is not judged twice; an equal command of its own is, and so is the same command
    once the table has changed."""
    book = make_book()
    asked: list[str] = []

    @book.transition("M3", "counted", places=())
    def counted(reading: Reading, move: Move, moves: Sequence[Move]) -> Iterator[Finding]:
        asked.append(move.piece)
        return iter(())

    table = sample_table()
    table.checker = book.checker()
    move = actions.move(table.state, "cube0", "discard")
    first = book.check(table.state, move, "red")
    assert rules_of(first) == ["M1", "T2"] and asked == ["cube0"]
    assert book.check(table.state, move, "red") == first and asked == ["cube0"]
    assert table.check(move, "red") == first and asked == ["cube0"]  # the table's checker too
    assert book.check(table.state, actions.move(table.state, "cube0", "discard"), "red") == first
    assert asked == ["cube0", "cube0"]  # an equal command of its own is judged
    table.checker = None  # the moves below go in unchecked
    put(table, to_track(table.state, "cube1"))
    move = actions.move(table.state, "cube0", "discard")
    book.check(table.state, move, "red")
    put(table, to_track(table.state, "cube2"))
    assert rules_of(book.check(table.state, move, "red")) == ["M1", "T2"]
    assert asked == ["cube0", "cube0", "cube0", "cube0"]  # the table changed: judged again
