"""``tabletop pbem request SEATFOLDER --undo|--redo``: a seat takes back its own last move by
file, under the take-back policy of live games (tabletop/persist/takeback.py). The host applies
it as the table's own undo, so the next turn files carry the undo entry to every seat; another
seat's move, or a move that showed the seat a card, is refused in one line, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.persist import Game
from tabletop.persist.seatview import SeatView
from tests.pbem.test_pbem import SEATS, Players


@pytest.fixture
def cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Players:
    """A proto game of three seats (four cards in each hand, a deck); red plays a card from
    its hand onto its tableau, and every seat receives it."""
    players = Players(tmp_path, capsys, "proto", "--seed", "3")
    players.move("red", "hand_red", "tableau_red")
    return players


def _every_copy_is_its_view(players: Players) -> Game:
    hosted = players.game()
    for seat in SEATS:
        view = SeatView(hosted.table, seat)
        view.follow()
        with players.copy(seat) as copy:
            assert copy.state.digest() == view.state.digest(), seat
            assert len(copy.table.entries) == len(hosted.table.entries), seat
    return hosted


def test_table_a_seat_takes_back_its_own_move_by_files_and_puts_it_back(cards: Players) -> None:
    with cards.game() as game:
        seq = len(game.table.entries)
        card = game.state.places["tableau_red"].contents[-1]
    request = cards.request("red", "--undo")
    said = cards.ok("pbem", "receive", cards.host, request)
    assert f"red took back entry {seq} (" in said
    cards.deliver()
    with _every_copy_is_its_view(cards) as hosted:
        undo = hosted.table.entries[-1]
        assert (undo.kind, undo.actor, undo.ref) == ("undo", "red", seq)
        assert card in hosted.state.places["hand_red"].contents
    for seat in SEATS:
        with cards.copy(seat) as copy:
            assert copy.table.entries[-1].kind == "undo" and copy.table.entries[-1].ref == seq
    cards.play("red", "--redo")
    with _every_copy_is_its_view(cards) as hosted:
        assert hosted.table.entries[-1].kind == "redo"
        assert card in hosted.state.places["tableau_red"].contents


def test_table_an_undo_of_another_seats_move_is_refused_by_files(cards: Players) -> None:
    request = cards.request("yellow", "--undo")
    err = cards.refused(cards.host, request)
    assert "yellow's undo is refused" in err and "is not Yellow's move" in err
    assert "nothing was changed" in err


def test_table_a_redo_of_a_move_another_took_back_is_refused_by_files(cards: Players) -> None:
    cards.play("red", "--undo")
    err = cards.refused(cards.host, cards.request("green", "--redo"))
    assert "only by the seat whose move it was" in err


def test_b_an_undo_after_a_draw_into_the_hand_is_refused_by_files(cards: Players) -> None:
    """Green draws the deck's top card into its hand, naming it by its stand-in: it has seen
    the card, so the draw stands."""
    with cards.copy("green") as copy:
        top = copy.state.top("deck")
    cards.play("green", "--move", top, "--to", "hand_green")
    with cards.game() as game:
        seq = len(game.table.entries)
    err = cards.refused(cards.host, cards.request("green", "--undo"))
    assert f"entry {seq} (" in err and "showed Green what it could not see before" in err
