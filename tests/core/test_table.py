"""The one pipeline: submit, undo and redo, change summaries, chance, policy, history, builders."""

from __future__ import annotations

import random

import pytest

from tabletop.core import (
    CommandError,
    Compound,
    Entry,
    Finding,
    FormatError,
    Mode,
    Note,
    Place,
    Policy,
    Refused,
    Roll,
    Severity,
    Shuffle,
    Table,
    TableError,
    TableState,
)
from tabletop.core import actions as act
from tabletop.core.boards import build_graph
from tests.sample_table import SEATS, sample_state, sample_table, setup_commands


@pytest.fixture
def table():
    return sample_table(seed=11)


def setup_count() -> int:
    return len(setup_commands())


# ---- submit, undo, redo ------------------------------------------------------------------


def test_setup_entries_are_logged_but_not_undoable(table):
    n = setup_count()
    assert table.seq == n
    assert all(e.kind == "setup" and e.actor == "setup" for e in table.entries)
    assert [e.seq for e in table.entries] == list(range(1, n + 1))
    assert not table.can_undo and table.undo("red") is None
    assert not table.can_redo and table.redo("red") is None
    assert table.seq == n  # nothing to undo is not an entry


def test_submit_undo_redo_and_their_stacks(table):
    n = table.seq
    d0 = table.state.digest()
    c1 = table.submit(act.move(table.state, "card9", "hand-red"), "red")
    d1 = table.state.digest()
    c2 = table.submit(act.flip(table.state, "card9"), "red")
    d2 = table.state.digest()
    assert (c1.seq, c2.seq) == (n + 1, n + 2)
    assert c1.entry.kind == "do" and c1.entry.actor == "red"
    assert table.undo_stack == (n + 1, n + 2) and table.redo_stack == ()
    assert table.undo_text() == c2.entry.command.describe()

    u = table.undo("blue")
    assert u.entry.kind == "undo" and u.entry.ref == n + 2 and u.entry.actor == "blue"
    assert u.seq == n + 3
    assert table.state.digest() == d1
    assert table.undo_stack == (n + 1,) and table.redo_stack == (n + 2,)
    assert table.redo_text() == c2.entry.command.describe()

    table.undo("blue")
    assert table.state.digest() == d0
    assert table.undo_stack == () and table.redo_stack == (n + 2, n + 1)
    assert table.undo("blue") is None  # the setup below cannot be undone

    r = table.redo("red")
    assert r.entry.kind == "redo" and r.entry.ref == n + 1
    assert table.state.digest() == d1
    table.redo("red")
    assert table.state.digest() == d2
    assert table.redo("red") is None
    assert table.undo_stack == (n + 1, n + 2) and table.redo_stack == ()
    # the log only grows: 2 dos, 2 undos, 2 redos
    assert [e.kind for e in table.entries[n:]] == ["do", "do", "undo", "undo", "redo", "redo"]
    assert table.seq == n + 6


def test_a_new_command_clears_redo(table):
    table.submit(act.flip(table.state, "elder"), "red")
    table.submit(act.rotate(table.state, "elder"), "red")
    table.undo("red")
    assert table.can_redo
    table.submit(act.set_counter(table.state, "round", 1), "red")
    assert not table.can_redo and table.redo("red") is None
    assert len(table.undo_stack) == 2


def test_a_setup_entry_also_clears_redo(table):
    table.submit(act.flip(table.state, "elder"), "red")
    table.undo("red")
    table.submit(act.set_counter(table.state, "round", 1), "setup", undoable=False)
    assert not table.can_redo
    assert not table.can_undo


def test_a_failed_command_is_neither_applied_nor_logged(table):
    before = table.state.digest()
    seq = table.seq
    with pytest.raises(CommandError):
        table.submit(act.move(table.state, "cube0", "display", spot="s2"), "red")
    assert table.state.digest() == before and table.seq == seq and not table.can_undo


def test_undo_and_redo_of_a_compound_are_one_step(table):
    before = table.state.digest()
    table.submit(act.deal(table.state, "deck", ["hand-red", "hand-blue"], 3), "red")
    assert len(table.state.contents("hand-red")) == 3
    table.undo("red")
    assert table.state.digest() == before
    table.redo("red")
    assert table.state.contents("hand-blue") == ["card8", "card6", "card4"]


# ---- change summaries and listeners -------------------------------------------------------


def test_change_names_exactly_what_was_touched(table):
    c = table.submit(act.move(table.state, "card9", "hand-red"), "red")
    assert c.pieces == {"card9"} and c.places == {"deck", "hand-red"} and c.counters == set()
    c = table.submit(act.flip(table.state, "card9"), "red")
    assert c.pieces == {"card9"} and c.places == set()
    c = table.submit(act.set_counter(table.state, "round", 2), "red")
    assert c.counters == {"round"} and not c.pieces and not c.places
    c = table.submit(act.peek(table.state, "red", "deck", 2), "red")
    assert not (c.pieces or c.places or c.counters)
    c = table.submit(Note("a ruling"), "red")
    assert not (c.pieces or c.places or c.counters)
    c = table.shuffle("stack", "red")
    assert c.places == {"stack"} and c.pieces == {"disk0", "disk1", "disk2"}
    c = table.roll(["die0", "die2"], "red")
    assert c.pieces == {"die0", "die2"} and not c.places
    c = table.submit(act.move_many(table.state, ["cube0", "cube5"], "track", spot="t3"), "red")
    assert c.pieces == {"cube0", "cube5"} and c.places == {"supply", "track"}
    c = table.submit(act.set_place_property(table.state, "row", "season", "winter"), "red")
    assert c.places == {"row"} and not c.pieces
    # an undo touches the same things as the command it takes back
    u = table.undo("red")
    assert u.places == {"row"} and not u.pieces
    u = table.undo("red")
    assert u.pieces == {"cube0", "cube5"} and u.places == {"supply", "track"}
    assert isinstance(u.entry.command, Compound)


def test_a_moving_card_names_only_itself(table):
    # what it carries moves along but is not itself changed
    c = table.submit(act.move(table.state, "elder", "discard"), "red")
    assert c.pieces == {"elder"} and c.places == {"table", "discard"}


def test_listeners_hear_every_entry(table):
    heard = []
    table.subscribe(heard.append)
    c1 = table.submit(act.flip(table.state, "elder"), "red")
    c2 = table.undo("red")
    c3 = table.redo("red")
    assert heard == [c1, c2, c3]
    table.unsubscribe(heard.append)
    table.submit(act.flip(table.state, "elder"), "red")
    assert len(heard) == 3


def test_a_listener_sees_the_table_after_the_change(table):
    seen = []
    table.subscribe(lambda change: seen.append(table.state.piece("card9").place))
    table.submit(act.move(table.state, "card9", "discard"), "red")
    assert seen == ["discard"]


def test_a_listener_may_unsubscribe_itself(table):
    calls = []

    def once(change):
        calls.append(change.seq)
        table.unsubscribe(once)

    table.subscribe(once)
    table.submit(Note("a"), "red")
    table.submit(Note("b"), "red")
    assert len(calls) == 1


# ---- chance --------------------------------------------------------------------------


def test_forced_dice_are_logged_as_forced(table):
    for i in range(4):
        table.submit(
            act.add_piece(
                table.state,
                {"id": f"d{i}", "kind": "die", "props": {"faces": [1, 2, 3, 4, 5, 6]}},
                "supply",
            ),
            "setup",
            undoable=False,
        )
    draws = table.random.draws
    table.random.force_faces([1, 3, 3, 6])
    assert table.random.forced_pending == 4
    change = table.roll(["d0", "d1", "d2", "d3"], "red")
    roll = change.entry.command
    assert isinstance(roll, Roll)
    assert roll.new == (1, 3, 3, 6) and roll.forced == (True, True, True, True)
    assert [table.state.piece(f"d{i}").value for i in range(4)] == [1, 3, 3, 6]
    assert table.random.draws == draws  # forced faces draw nothing
    assert roll.to_dict()["forced"] == [True] * 4
    assert "(forced)" in roll.describe()
    # one forced, one drawn
    table.random.force_faces([2])
    roll = table.roll(["d0", "d1"], "red").entry.command
    assert roll.forced == (True, False) and roll.new[0] == 2
    assert table.random.draws == draws + 1
    assert change.entry.draws is not None


def test_a_forced_face_not_on_the_die_is_refused(table):
    before = table.state.digest()
    seq = table.seq
    table.random.force_faces([7])
    with pytest.raises(CommandError, match="not on this die"):
        table.roll(["die1"], "red")
    assert table.random.forced_pending == 1  # the refused face waits, not dropped silently
    table.random.clear_forced()
    table.random.force_faces(["miss"])
    with pytest.raises(CommandError):
        table.roll(["die1"], "red")
    assert table.state.digest() == before and table.seq == seq
    table.roll(["die2"], "red")
    assert table.state.piece("die2").value == "miss"


def test_rolling_a_piece_without_faces_is_refused(table):
    with pytest.raises(CommandError, match="not a die"):
        table.roll(["cube0"], "red")


def test_same_seed_same_rolls_and_shuffles():
    def play(seed):
        t = sample_table(seed=seed)
        out = []
        for _ in range(20):
            out.append(t.roll(["die0", "die1", "die2"], "red").entry.command.new)
        out.append(t.shuffle("deck", "red").entry.command.new)
        return out, t.state.digest(), t.random.draws

    assert play(5) == play(5)
    assert play(5)[0] != play(6)[0]


def test_rolls_draw_one_generator_per_roll(table):
    assert table.random.draws == 0
    table.roll(["die0", "die1"], "red")
    assert table.random.draws == 1
    entry = table.roll(["die0"], "red").entry
    assert table.random.draws == 2 and entry.draws == 2
    assert table.shuffle("deck", "red").entry.draws == 3
    assert table.submit(Note("x"), "red").entry.draws is None


def test_proposals_are_those_the_logs_were_written_with():
    # each draw is a generator seeded from "seed/draw": games replay from logs written so
    t = sample_table(seed=5)
    dice = ["die0", "die1", "die2"]
    faces = [t.state.piece(d).props["faces"] for d in dice]
    for draw in range(6):
        expected = random.Random(f"5/{draw}")
        want = tuple(expected.choice(list(f)) for f in faces)
        assert t.roll(dice, "red").entry.command.new == want
    deck = list(t.state.contents("deck"))
    random.Random("5/6").shuffle(deck)
    assert list(t.shuffle("deck", "red").entry.command.new) == deck


def test_forced_order_shuffle(table):
    order = [f"card{i}" for i in (3, 1, 4, 0, 5, 9, 2, 6, 8, 7)]
    table.random.force_order(order)
    shuffle = table.shuffle("deck", "red").entry.command
    assert isinstance(shuffle, Shuffle) and shuffle.forced
    assert table.state.contents("deck") == order
    assert "forced" in shuffle.describe()
    table.random.force_order(["card0"])
    with pytest.raises(CommandError, match="same pieces"):
        table.shuffle("deck", "red")


def test_undoing_a_roll_of_a_fresh_die(table):
    assert table.state.piece("die0").value is None
    table.roll(["die0"], "red")
    assert table.state.piece("die0").value in range(1, 7)
    table.undo("red")
    assert table.state.piece("die0").value is None
    table.redo("red")
    assert table.state.piece("die0").value in range(1, 7)


# ---- rules policy ---------------------------------------------------------------------


def checker_for(calls):
    """E1: nothing goes into Blue's hand. E2.1: no flipping the elder. W: counters are noted."""

    def check(state, command, actor):
        calls.append((command, actor))
        found = []
        moves = command.commands if isinstance(command, Compound) else (command,)
        for c in moves:
            if getattr(c, "dst", None) is not None and c.dst.place == "hand-blue":
                found.append(Finding("E1", "only Blue may take cards", pieces=(c.piece,)))
            if c.op == "flip" and c.piece == "elder":
                found.append(Finding("E2.1", "the elder stays as it lies"))
            if c.op == "counter":
                found.append(Finding("W", "the counter moved", Severity.WARNING))
        return found

    return check


def policy_table(policy):
    calls = []
    t = sample_table(checker=checker_for(calls), policy=policy)
    calls.clear()
    return t, calls


def test_policy_off_does_not_even_ask():
    t, calls = policy_table(Policy(Mode.OFF))
    c = t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    assert c.findings == () and calls == []
    assert t.check(act.flip(t.state, "elder"), "red") == []


def test_policy_advisory_attaches_findings():
    t, calls = policy_table(Policy(Mode.ADVISORY))
    c = t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    assert [f.rule for f in c.findings] == ["E1"]
    assert c.findings[0].pieces == ("card9",)
    assert t.state.piece("card9").place == "hand-blue"
    assert c.entry.override is None
    assert calls and calls[0][1] == "red"
    assert Entry.from_dict(c.entry.to_dict()).findings == c.findings


def test_policy_strict_refuses_with_reasons():
    t, _ = policy_table(Policy(Mode.STRICT))
    before, seq = t.state.digest(), t.seq
    with pytest.raises(Refused) as info:
        t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    assert [f.rule for f in info.value.findings] == ["E1"]
    assert "E1: only Blue may take cards" in str(info.value)
    for blank in ("", "   "):
        with pytest.raises(Refused):
            t.submit(act.move(t.state, "card9", "hand-blue"), "red", force=blank)
    assert t.state.digest() == before and t.seq == seq
    # a warning never blocks, even under strict
    c = t.submit(act.set_counter(t.state, "round", 1), "red")
    assert [f.severity for f in c.findings] == [Severity.WARNING] and c.entry.override is None


def test_policy_strict_forced_with_a_reason_is_an_override():
    t, _ = policy_table(Policy(Mode.STRICT))
    c = t.submit(act.move(t.state, "card9", "hand-blue"), "red", force="  teaching example  ")
    assert c.entry.override == "teaching example"
    assert [f.rule for f in c.findings] == ["E1"]
    assert t.state.piece("card9").place == "hand-blue"
    assert Entry.from_dict(c.entry.to_dict()).override == "teaching example"
    # forcing where nothing blocks records no override
    c = t.submit(act.flip(t.state, "card9"), "red", force="just because")
    assert c.entry.override is None


def test_per_rule_modes_and_section_fallback():
    # section E is strict, the rest advisory
    t, _ = policy_table(Policy(Mode.ADVISORY, per_rule={"E": Mode.STRICT}))
    with pytest.raises(Refused):
        t.submit(act.move(t.state, "card9", "hand-blue"), "red")  # E1 follows E
    with pytest.raises(Refused):
        t.submit(act.flip(t.state, "elder"), "red")  # E2.1 follows E

    # a house rule switches E1 off while the rest stays strict
    t, _ = policy_table(Policy(Mode.STRICT, per_rule={"E1": Mode.OFF}))
    c = t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    assert c.findings == ()
    with pytest.raises(Refused):
        t.submit(act.flip(t.state, "elder"), "red")

    # the exact rule wins over its section
    t, _ = policy_table(Policy(Mode.OFF, per_rule={"E": Mode.STRICT, "E1": Mode.ADVISORY}))
    c = t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    assert [f.rule for f in c.findings] == ["E1"]
    with pytest.raises(Refused):
        t.submit(act.flip(t.state, "elder"), "red")
    # W is not in any per-rule setting: it follows the overall mode (off)
    assert t.submit(act.set_counter(t.state, "round", 1), "red").findings == ()


def test_policy_mode_for():
    p = Policy(Mode.ADVISORY, per_rule={"E": Mode.STRICT, "F3": Mode.OFF})
    assert p.mode_for("E") is Mode.STRICT
    assert p.mode_for("E1") is Mode.STRICT
    assert p.mode_for("E1.2") is Mode.STRICT
    assert p.mode_for("F3") is Mode.OFF
    assert p.mode_for("F4") is Mode.ADVISORY
    assert p.mode_for("G") is Mode.ADVISORY
    assert Policy(Mode.OFF, per_rule={"E": Mode.ADVISORY}).checking
    assert not Policy(Mode.OFF).checking


def test_findings_round_trip_and_refuse_bad_records():
    f = Finding("H2", "hunt with two dice", Severity.INFO, ("die0",))
    assert Finding.from_dict(f.to_dict()) == f
    assert "H2" in f.describe()
    for bad in (
        None,
        {"rule": "E"},
        {"rule": 1, "message": "m"},
        {"rule": "E", "message": "m", "severity": "fatal"},
    ):
        with pytest.raises(FormatError):
            Finding.from_dict(bad)


# ---- history --------------------------------------------------------------------------


def test_state_at_equals_the_table_as_it_was():
    t = sample_table(seed=3, checkpoint_every=4)
    digests = {t.seq: t.state.digest()}

    def step(result):
        digests[t.seq] = t.state.digest()
        return result

    step(t.submit(act.move(t.state, "card9", "hand-red"), "red"))
    step(t.submit(act.set_property(t.state, "card9", "n", 100), "red"))
    step(t.roll(["die0", "die1"], "red"))
    step(t.submit(act.set_property(t.state, "card9", "n", 101), "red"))
    step(t.submit(act.set_place_property(t.state, "row", "season", "spring"), "red"))
    step(t.shuffle("deck", "red"))
    step(t.undo("red"))
    step(t.submit(act.set_place_property(t.state, "row", "season", "summer"), "red"))
    step(t.submit(act.set_counter(t.state, "round", [1, 2]), "red"))
    step(t.undo("red"))
    step(t.undo("red"))
    step(t.redo("red"))
    step(t.submit(act.move(t.state, "elder", "discard"), "red"))
    step(t.submit(act.remove_piece(t.state, "elder"), "red"))
    step(t.undo("red"))
    step(t.submit(act.set_property(t.state, "elder", "wounds", 1), "red"))
    assert len(t.checkpoints) > 5
    for seq in range(t.seq + 1):
        if seq in digests:
            assert t.state_at(seq).digest() == digests[seq], seq
        state = t.state_at(seq)
        assert state.consistency_problem() is None
    assert t.state_at(t.seq).digest() == t.state.digest()
    assert t.state_at(0).digest() == TableState(SEATS).digest()
    # a replay of the entries into a fresh table agrees at every step
    fresh = Table(TableState(SEATS), seed=3)
    for entry in t.entries:
        fresh.replay(entry)
        assert fresh.state.digest() == t.state_at(entry.seq).digest()
    assert fresh.undo_stack == t.undo_stack and fresh.redo_stack == t.redo_stack
    assert fresh.random.draws == t.random.draws
    with pytest.raises(TableError):
        t.state_at(t.seq + 1)
    with pytest.raises(TableError):
        t.state_at(-1)


def test_state_at_returns_a_new_state(table):
    table.submit(act.flip(table.state, "elder"), "red")
    old = table.state_at(table.seq - 1)
    old.piece("elder").face_up = False
    act.move(old, "card9", "discard").apply(old)
    assert table.state.piece("card9").place == "deck"
    assert table.state_at(table.seq - 1).piece("card9").place == "deck"


def test_replay_refuses_a_broken_sequence(table):
    t = sample_table()
    t.submit(act.flip(t.state, "elder"), "red")
    fresh = sample_table()
    with pytest.raises(FormatError, match="sequence is broken"):
        fresh.replay(t.entries[-2])
    undo_entry = Entry(fresh.seq + 1, 0.0, "red", "undo", Note("x"), ref=3)
    with pytest.raises(FormatError, match="not the last undoable"):
        fresh.replay(undo_entry)


# ---- builders -------------------------------------------------------------------------


def test_draw_from_the_top_and_the_bottom(table):
    s = table.state
    table.submit(act.draw(s, "deck", "hand-red", 3, face_up=True), "red")
    assert s.contents("hand-red") == ["card9", "card8", "card7"]
    assert all(s.piece(p).face_up for p in s.contents("hand-red"))
    table.submit(act.draw(s, "deck", "hand-red", 2, bottom=True), "red")
    assert s.contents("hand-red")[3:] == ["card0", "card1"]
    assert not s.piece("card0").face_up
    assert s.contents("deck") == ["card2", "card3", "card4", "card5", "card6"]
    table.submit(act.draw(s, "deck", "display", 1, spot="s1", face_up=True), "red")
    assert s.contents("display", "s1") == ["card6"]
    for bad in (
        lambda: act.draw(s, "deck", "hand-red", 6),
        lambda: act.draw(s, "deck", "hand-red", 0),
        lambda: act.draw(s, "deck", "deck", 1),
    ):
        with pytest.raises(CommandError):
            bad()


def test_deal_goes_round_the_hands(table):
    s = table.state
    table.submit(act.deal(s, "deck", ["hand-red", "hand-blue"], 3), "red")
    assert s.contents("hand-red") == ["card9", "card7", "card5"]
    assert s.contents("hand-blue") == ["card8", "card6", "card4"]
    with pytest.raises(CommandError):
        act.deal(s, "deck", ["hand-red", "hand-blue"], 3)


def test_peek_changes_nothing_but_is_logged(table):
    s = table.state
    before = s.digest()
    assert act.peek(s, "red", "deck", 2).pieces == ("card9", "card8")
    assert act.peek(s, "red", "deck", 2, bottom=True).pieces == ("card0", "card1")
    assert len(act.peek(s, "red", "deck").pieces) == 10
    c = table.submit(act.peek(s, "blue", "deck", 3), "blue")
    assert c.entry.command.seat == "blue" and "blue looked at 3" in c.entry.command.describe()
    assert s.digest() == before
    table.undo("blue")
    assert s.digest() == before


def test_search_takes_one_card_and_logs_the_look(table):
    s = table.state
    command = act.search(s, "red", "deck", "card4", "hand-red", face_up=True)
    assert s.piece("card4").place == "deck"  # building changes nothing
    assert [c.op for c in command.commands] == ["peek", "move", "flip"]
    table.submit(command, "red")
    assert s.contents("hand-red") == ["card4"] and s.piece("card4").face_up
    assert "card4" not in s.contents("deck")
    with pytest.raises(CommandError):
        act.search(s, "red", "deck", "cube0", "hand-red")


def test_move_many_and_build_sequence(table):
    s = table.state
    before = s.digest()
    command = act.move_many(s, ["cube0", "cube1", "card9"], "discard")
    assert s.digest() == before
    table.submit(command, "red")
    assert s.contents("discard") == ["cube0", "cube1", "card9"]
    # each step sees the ones before it
    seq = act.build_sequence(
        s,
        "two moves into one slot place",
        [
            lambda t: act.move(t, "cube0", "track", spot="t2"),
            lambda t: act.move(t, "cube1", "track", spot="t2"),
        ],
        procedure="stack-up",
    )
    assert seq.procedure == "stack-up"
    assert [c.src.index for c in seq.commands] == [0, 0]
    table.submit(seq, "red")
    assert s.contents("track", "t2") == ["cube0", "cube1"]
    with pytest.raises(CommandError):
        act.build_sequence(s, "bad", [lambda t: act.move(t, "cube2", "display", spot="s2")])
    assert s.piece("cube2").place == "supply"


def test_small_builders(table):
    s = table.state
    assert act.set_owner(s, "cube0", "blue").old == "red"
    assert act.set_counter(s, "round", 3).old is None
    assert act.rotate(s, "elder", 3).new == 3
    assert act.flip(s, "elder", face_up=True).new is True
    assert act.where_is(s, "token3").spot == "s2"
    with pytest.raises(CommandError):
        act.move(s, "cube0", "nowhere")
    with pytest.raises(CommandError):
        act.add_piece(s, {"id": "x", "kind": "k"}, "nowhere")


# ---- board graphs ----------------------------------------------------------------------


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_interior_spaces_have_six_neighbours(orientation):
    g = build_graph({"shape": "hex", "cols": 6, "rows": 6, "orientation": orientation})
    assert g.number_of_nodes() == 36
    for c in range(1, 5):
        for r in range(1, 5):
            assert g.degree(f"{c},{r}") == 6, (c, r)
    assert max(d for _, d in g.degree()) == 6
    assert min(d for _, d in g.degree()) in (2, 3)
    assert g.nodes["2,3"] == {"col": 2, "row": 3}


def test_hex_pointy_neighbours_of_an_odd_row():
    g = build_graph({"shape": "hex", "cols": 5, "rows": 5})
    assert set(g.neighbors("2,1")) == {"1,1", "3,1", "2,0", "3,0", "2,2", "3,2"}
    assert set(g.neighbors("2,2")) == {"1,2", "3,2", "1,1", "2,1", "1,3", "2,3"}


def test_grid_with_and_without_diagonals():
    g = build_graph({"shape": "grid", "cols": 4, "rows": 3})
    assert g.degree("1,1") == 4 and g.degree("0,0") == 2
    assert g.number_of_edges() == 3 * 3 + 4 * 2
    d = build_graph({"shape": "grid", "cols": 4, "rows": 3, "diagonal": True})
    assert d.degree("1,1") == 8 and d.degree("0,0") == 3
    assert d.has_edge("0,1", "1,0")


def test_graph_board_with_a_river_removed_spaces_and_attributes():
    spec = {
        "shape": "graph",
        "nodes": ["a", "b", {"id": "c", "terrain": "forest"}, "d"],
        "edges": [{"a": "a", "b": "b"}, {"a": "b", "b": "c"}],
        "edge_attrs": [{"a": "b", "b": "c", "river": True}],
        "remove": ["d"],
        "node_attrs": {"a": {"start": True}},
    }
    g = build_graph(spec)
    assert set(g.nodes) == {"a", "b", "c"}
    assert g.edges["b", "c"]["river"] is True
    assert "river" not in g.edges["a", "b"]
    assert g.nodes["c"]["terrain"] == "forest" and g.nodes["a"]["start"] is True
    place = Place("isles", "board", board=spec)
    assert set(place.spots) == {"a", "b", "c"} and place.graph is not None
    assert "board" in place.spec() and "spots" not in place.spec()


def test_hex_board_with_removed_spaces_and_extra_edges():
    g = build_graph(
        {
            "shape": "hex",
            "cols": 3,
            "rows": 3,
            "remove": ["1,1"],
            "edges": [{"a": "0,0", "b": "2,2", "ferry": True}],
            "node_attrs": {"0,0": {"terrain": "lake"}},
        }
    )
    assert "1,1" not in g and g.number_of_nodes() == 8
    assert g.edges["0,0", "2,2"]["ferry"] and g.nodes["0,0"]["terrain"] == "lake"


BAD_BOARDS = [
    {"shape": "octagon"},
    {},
    {"shape": "hex", "cols": 0, "rows": 3},
    {"shape": "hex", "cols": 2, "rows": True},
    {"shape": "hex", "cols": 2, "rows": 2, "orientation": "sideways"},
    {"shape": "grid", "cols": "3", "rows": 3},
    {"shape": "graph", "nodes": []},
    {"shape": "graph", "nodes": [3]},
    {"shape": "graph", "nodes": ["a"], "remove": ["b"]},
    {"shape": "graph", "nodes": ["a"], "node_attrs": {"b": {}}},
    {"shape": "graph", "nodes": ["a", "b"], "edges": [{"a": "a"}]},
    {"shape": "graph", "nodes": ["a", "b"], "edges": [{"a": "a", "b": "z"}]},
    {"shape": "graph", "nodes": ["a", "b"], "edge_attrs": [{"a": "a", "b": "b", "river": True}]},
]


@pytest.mark.parametrize("spec", BAD_BOARDS, ids=[str(i) for i in range(len(BAD_BOARDS))])
def test_bad_board_specs_are_named(spec):
    with pytest.raises(FormatError, match="board spec"):
        build_graph(spec)


def test_board_places_and_their_spaces():
    s = sample_state()
    board = s.place("map")
    assert "3,2" not in board.spots and board.has_spot("1,1") and not board.has_spot(None)
    assert board.graph.nodes["0,0"]["terrain"] == "lake"
    assert s.place("isles").graph.edges["south", "east"]["river"] is True
    with pytest.raises(AttributeError):
        _ = s.place("deck").graph
    assert s.place("deck").has_spot(None) and not s.place("deck").has_spot("x")
    # capacity is per space: two pieces fit on one space, and any number across spaces
    table = sample_table()
    for pid, spot in (("cube0", "1,1"), ("cube1", "2,1"), ("cube2", "2,1")):
        table.submit(act.move(table.state, pid, "map", spot=spot), "red")
    with pytest.raises(CommandError, match="full"):
        table.submit(act.move(table.state, "cube3", "map", spot="2,1"), "red")
    assert table.state.contents("map", "2,1") == ["cube1", "cube2"]


def test_place_properties():
    s = sample_state()
    assert s.place("hand-red").private and not s.place("deck").private
    assert s.place("deck").ordered and not s.place("supply").ordered
    with pytest.raises(FormatError):
        Place("p", "bowl", spots=["a"])
    with pytest.raises(FormatError):
        Place("p", "slots", spots=["a", "a"])
    with pytest.raises(FormatError):
        Place("p", "bowl", capacity=-1)
    with pytest.raises(FormatError):
        Place("p", "board")
    with pytest.raises(FormatError):
        Place.from_spec({"kind": "bowl"})


# ---- regions --------------------------------------------------------------------------


def test_regions_on_a_live_table(table):
    s = table.state
    assert s.regions_of("elder").parent == "elder"
    assert s.regions_of("card0") is None
    table.submit(act.move(s, "cube0", "elder", spot="rank2"), "red")
    table.submit(act.move(s, "scout", "elder", spot="rank3"), "red")
    c = table.submit(act.move(s, "elder", "hand-blue"), "blue")
    assert c.pieces == {"elder"}
    assert s.piece("cube0").place == "elder" and s.piece("scout").place == "elder"
    assert s.ancestors("scout") == ["scout", "elder"]
    with pytest.raises(CommandError):
        table.submit(act.move(s, "elder", "scout", spot="rank1"), "blue")
    # remove the card with all it carries, then take it back
    before = s.digest()
    tally = s.tally()
    table.submit(act.remove_piece(s, "elder"), "blue")
    assert "cube0" not in s.pieces and "scout" not in s.places
    table.undo("blue")
    assert s.digest() == before and s.tally() == tally
    # opening regions for a card and closing them again
    table.submit(
        act.add_place({"id": "card0", "kind": "regions", "parent": "card0", "spots": ["x"]}), "red"
    )
    assert s.regions_of("card0") is not None
    table.submit(act.remove_place(s, "card0"), "red")
    assert s.regions_of("card0") is None


def test_state_copy_and_consistency():
    s = sample_state()
    c = s.copy()
    assert c.digest() == s.digest() and c is not s
    assert TableState.from_dict(s.to_dict()).digest() == s.digest()
    s.place("deck").contents.append("ghost")
    assert "unknown piece" in s.consistency_problem()
    broken = sample_state().to_dict()
    discard = next(p for p in broken["places"] if p["id"] == "discard")
    discard["contents"].append("card0")  # after the deck: in two places
    with pytest.raises(FormatError, match="two places"):
        TableState.from_dict(broken)
    s = sample_state()
    s.place("deck").contents.remove("card0")
    assert "no place" in s.consistency_problem()
    with pytest.raises(FormatError):
        TableState.from_dict([])


def test_digest_ignores_which_piece_was_added_first():
    s = sample_state()
    d = s.to_dict()
    d["pieces"].reverse()
    d["places"].reverse()
    assert TableState.from_dict(d).digest() == s.digest()
    # but the order inside a place matters
    d["places"][-1]["contents"].reverse()  # table area: die0 .. elder
    assert TableState.from_dict(d).digest() != s.digest()


def test_policy_modes_given_by_name():
    policy = Policy("strict", {"E": "off"})
    assert policy.mode is Mode.STRICT and policy.mode_for("E1") is Mode.OFF
    t, _ = policy_table(Policy("advisory", {"E1": "strict"}))
    with pytest.raises(Refused):
        t.submit(act.move(t.state, "card9", "hand-blue"), "red")
    with pytest.raises(ValueError):
        Policy("lenient")


def test_a_refused_roll_uses_up_no_chance_and_no_forced_face():
    def no_rolls(state, command, actor):
        return [Finding("G1", "no chance now")] if command.op in ("roll", "shuffle") else []

    strict = sample_table(checker=no_rolls, policy=Policy(Mode.STRICT))
    free = sample_table()
    for t in (strict, free):
        t.random.force_faces([5])
    draws = strict.random.draws
    with pytest.raises(Refused):
        strict.roll(["die0", "die1"], "red")
    assert strict.random.draws == draws and strict.random.forced_pending == 1
    with pytest.raises(Refused):
        strict.shuffle("deck", "red")
    assert strict.random.draws == draws
    strict.policy = Policy(Mode.OFF)
    assert (
        strict.roll(["die0", "die1"], "red").entry.command.new
        == free.roll(["die0", "die1"], "red").entry.command.new
    )


def test_builders_name_unknown_ids_as_command_errors():
    state = sample_state()
    for build in (
        lambda: act.move(state, "ghost", "table"),
        lambda: act.move(state, "card9", "nowhere"),
        lambda: act.flip(state, "ghost"),
        lambda: act.draw(state, "nowhere", "table"),
        lambda: state.seat("green"),
    ):
        with pytest.raises(CommandError, match="there is no"):
            build()


def test_a_compound_rolls_back_on_any_error(table):
    class Broken(Note):
        def apply(self, state):
            raise RuntimeError("boom")

    before = table.state.digest()
    steps = (act.flip(table.state, "card9"), Broken("x"))
    with pytest.raises(RuntimeError):
        Compound("broken", steps).apply(table.state)
    assert table.state.digest() == before
