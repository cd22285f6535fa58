"""The log as each reader may read it (tabletop/log_view.py): a line names a piece only where
its reader could see the piece's face at that entry; the referee reads everything."""

from __future__ import annotations

import pytest

from tabletop.core import (
    AddPiece,
    AddPlace,
    Finding,
    Flip,
    Note,
    RemovePiece,
    Severity,
    Table,
    Where,
    actions,
    compound,
)
from tabletop.log_view import LogReader, PieceWords, log_lines
from tabletop.visibility import REFEREE
from tests.sample_table import sample_table

NAMES = {"red": "Red", "blue": "Blue"}
READERS = ("red", "blue", None)
FACES = {f"card{i}": f"Star {i}" for i in range(10)}  # the names printed on the cards' faces
WORDS = PieceWords(
    face=lambda piece: FACES.get(piece.id), back=lambda piece: f"a {piece.kind} back"
)


@pytest.fixture
def table() -> Table:
    return sample_table()


def _top(table: Table) -> str:
    return table.state.places["deck"].contents[-1]


def _last(table: Table, words: PieceWords = WORDS) -> dict:
    """The last entry's line for every reader (and the referee)."""
    reader = LogReader(table, NAMES, words)
    entry = table.entries[-1]
    return {viewer: reader.line(entry, viewer) for viewer in (*READERS, REFEREE)}


def test_a_face_down_card_drawn_into_a_hand_is_named_to_its_owner_only(table):
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    lines = _last(table)
    assert f"moved {FACES[card]} from deck to hand-red" in lines["red"]
    assert f"moved {FACES[card]} from deck to hand-red" in lines[REFEREE]
    for viewer in ("blue", None):
        assert card not in lines[viewer] and FACES[card] not in lines[viewer]
        assert "moved a card back from deck to hand-red" in lines[viewer]
        assert lines[viewer].split()[1] == "Red"  # who did it stays in the line


def test_a_card_passed_between_hands_is_named_to_both_hands_and_no_one_else(table):
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    table.submit(actions.move(table.state, card, "hand-blue"), "red")
    lines = _last(table)
    assert FACES[card] in lines["red"] and FACES[card] in lines["blue"]
    assert FACES[card] not in lines[None] and card not in lines[None]


def test_a_card_played_face_up_is_named_from_then_on_but_its_draw_stays_hidden(table):
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    table.submit(actions.move(table.state, card, "discard"), "red")  # still face down
    table.submit(actions.flip(table.state, card, True), "red")
    table.submit(actions.move(table.state, card, "row"), "blue")
    name = FACES[card]
    spectator = log_lines(table, None, NAMES, WORDS)[-4:]
    assert [name in line for line in spectator] == [False, False, True, True]
    blue = log_lines(table, "blue", NAMES, WORDS)[-4:]
    assert [name in line for line in blue] == [False, False, True, True]
    assert all(name in line for line in log_lines(table, "red", NAMES, WORDS)[-4:])


def test_a_card_shown_and_hidden_again_within_one_entry_was_seen_by_everyone(table):
    card = _top(table)
    steps = [Flip(card, False, True), Flip(card, True, False)]
    table.submit(compound(f"show {card} to the table", steps), "red")
    assert all(card in line for line in _last(table).values())  # the label names it


def test_a_label_or_a_note_naming_a_hidden_card_by_its_face_is_read_for_each_reader(table):
    card = _top(table)
    name = FACES[card]
    move = actions.move(table.state, card, "hand-blue")
    table.submit(compound(f"Blue takes {name} into the hand", [move]), "blue")
    lines = _last(table)
    assert name in lines["blue"] and name in lines[REFEREE]
    for viewer in ("red", None):
        assert name not in lines[viewer]
        assert "Blue takes a card back into the hand" in lines[viewer]
    table.submit(Note(f"{name} is worth keeping"), "blue")
    lines = _last(table)
    assert name in lines["blue"] and name not in lines["red"]


def test_a_finding_naming_a_hidden_card_is_read_for_each_reader(table):
    card = _top(table)

    def checker(state, command, actor):  # noqa: ANN001, ANN202
        return [Finding("X1", f"{FACES[card]} ({card}) left the deck", Severity.WARNING, (card,))]

    table.checker = checker
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    lines = _last(table)
    assert f"{FACES[card]} ({card}) left the deck" in lines["red"]
    assert "a card back (a card back) left the deck" in lines["blue"]
    assert card not in lines[None] and FACES[card] not in lines[None]


def test_names_stand_alone_a_longer_name_is_not_read_as_a_shorter_one(table):
    # card1 (Star 1) in the deck is hidden from everyone; card10 is a public card added later
    faces = {**FACES, "card10": "Star 10"}
    words = PieceWords(face=lambda piece: faces.get(piece.id), back=WORDS.back)
    table.submit(actions.add_piece(table.state, {"id": "card10", "kind": "card"}, "row"), "red")
    line = _last(table, words)[None]
    assert "added Star 10 to row" in line


def test_the_referee_and_the_plain_words_without_a_game(table):
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    lines = _last(table, PieceWords())
    assert "moved a card from deck to hand-red" in lines[None]
    assert card not in lines[None] and card not in lines[REFEREE]  # no ids, even unnamed
    assert log_lines(table, REFEREE, NAMES)[-1] == lines[REFEREE]
    # a seat the table does not have reads as a spectator
    assert LogReader(table, NAMES).line(table.entries[-1], "nobody") == lines[None]


def test_undo_and_redo_lines_are_read_like_the_move_they_take_back(table):
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-red"), "red")
    table.undo("red")
    table.redo("red")
    reader = LogReader(table, NAMES, WORDS)
    undo, redo = table.entries[-2:]
    for entry in (undo, redo):
        assert FACES[card] in reader.line(entry, "red")
        assert FACES[card] not in reader.line(entry, "blue")


def test_the_reader_follows_a_growing_log(table):
    reader = LogReader(table, NAMES, WORDS)
    reader.follow()
    card = _top(table)
    table.submit(actions.move(table.state, card, "hand-blue"), "blue")
    entry = table.entries[-1]
    name = FACES[card]
    assert name in reader.line(entry, "blue") and name not in reader.line(entry, "red")
    # text written for the entry later (a mark) is read by the same rule; a name the entry
    # never showed stays hidden
    other = table.state.places["deck"].contents[-1]
    marked = reader.redact(entry.seq, f"{reader.text(entry)} (like {other})", "blue")
    assert name in marked and other not in marked


def test_a_card_that_comes_and_goes_within_one_entry_is_named_only_to_its_hand(table):
    record = {"id": "wish", "kind": "card", "face_up": False}
    add = AddPiece(record, Where("hand-red", len(table.state.places["hand-red"].contents)))
    remove = RemovePiece(record, add.at)
    table.submit(compound("red looks at wish and puts it back in the box", [add, remove]), "red")
    lines = _last(table)
    assert "wish" in lines["red"]
    assert "wish" not in lines["blue"] and "Red looks at a card back and puts" in lines["blue"]


def test_a_games_own_words_name_seats_as_the_players_were_named(table):
    card = _top(table)
    move = actions.move(table.state, card, "hand-blue")
    table.submit(compound("red deals blue a card into hand-blue; red's turn ends", [move]), "red")
    for line in _last(table).values():
        # a seat id standing alone is the seat's name; inside another id it is left alone
        assert "Red deals Blue a card into hand-blue; Red's turn ends" in line


def test_pieces_places_and_spots_are_named_in_the_players_words(table):
    layout = {"spot_labels": {"r2": "second rank"}}
    spec = {"id": "ranks", "kind": "slots", "spots": ["r1", "r2"], "label": "Ranks"}
    table.submit(AddPlace({**spec, "layout": layout}), "red")
    table.submit(actions.move(table.state, "cube5", "ranks", spot="r2"), "blue")
    assert "moved Blue cube from supply to Ranks · second rank" in _last(table)[None]
    table.submit(actions.move(table.state, "disk2", "elder", spot="rank2"), "blue")
    line = _last(table)[None]
    assert "moved Blue disk from stack to a card · rank 2" in line  # the card carrying it
    assert "disk2" not in line and "elder" not in line
