"""The take-back policy of games played apart (tabletop/persist/takeback.py), on the small
table of cards of test_seatview.py: each case through the table's own submit, undo and redo,
and the policy read on the asking seat's view."""

from __future__ import annotations

from pathlib import Path

from tabletop.core import actions, bot_actor
from tabletop.persist import Game
from tabletop.persist.seatview import SeatView
from tabletop.persist.takeback import ASK, OWN, REFUSED, take_back_verdict
from tests.persist.test_seatview import _game


def _verdict(game: Game, seat: str, kind: str = "undo"):  # noqa: ANN202
    return take_back_verdict(kind, game.table, seat, SeatView(game.table, seat))


def test_table_a_seats_own_last_move_is_its_own_to_take_back(tmp_path: Path) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    game.table.submit(actions.move(game.state, "cube-red", "row"), "red")
    seq = game.table.seq
    own = _verdict(game, "red")
    assert (own.verdict, own.seq, own.ask) == (OWN, seq, ())
    assert own.text.startswith(f"entry {seq} (moved ") and "red's own last move" in own.text
    asked = _verdict(game, "yellow")  # not yellow's: red must say yes
    assert (asked.verdict, asked.ask) == (ASK, ("red",))
    assert "is not yellow's move" in asked.text
    game.close()


def test_table_a_move_after_which_another_seat_acted_needs_the_others_yes(tmp_path: Path) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    table = game.table
    table.submit(actions.move(game.state, "cube-red", "row"), "red")
    table.submit(actions.move(game.state, "cube-red", "supply"), "yellow")
    table.undo("yellow")  # yellow played and took it back: red's move is no longer its alone
    verdict = _verdict(game, "red")
    assert verdict.verdict == ASK and verdict.ask == ("yellow",)
    assert f"others have played since (entry {table.seq - 1})" in verdict.text
    game.close()


def test_table_a_bots_move_and_the_tables_step_are_nobodys_own(tmp_path: Path) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    game.table.submit(actions.move(game.state, "cube-red", "row"), bot_actor("red"))
    assert _verdict(game, "red").verdict == ASK
    game.table.submit(actions.move(game.state, "cube-red", "supply"), "table")
    assert _verdict(game, "red").verdict == ASK
    game.close()


def test_b_a_draw_into_the_hand_or_a_peek_is_never_taken_back_by_who_saw(tmp_path: Path) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    table, state = game.table, game.state
    table.submit(actions.move(state, state.top("deck"), "hand_red"), "red")
    drawn = _verdict(game, "red")
    assert drawn.verdict == REFUSED and "showed red what it could not see before" in drawn.text
    # yellow saw nothing of it (a card back into red's hand): yellow may ask red
    assert _verdict(game, "yellow").verdict == ASK
    table.submit(actions.peek(state, "yellow", "deck", 2), "yellow")
    assert _verdict(game, "yellow").verdict == REFUSED
    assert _verdict(game, "red").verdict == ASK  # red did not see the peeked cards
    game.close()


def test_table_nothing_to_take_back_or_put_back_is_refused(tmp_path: Path) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    assert _verdict(game, "red").text == "there is no move to take back"
    assert _verdict(game, "red", "redo").text == "there is no move taken back to put back"
    game.close()


def test_table_only_the_mover_puts_back_its_move_right_after_it_took_it_back(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path / "g.jsonl", seed=3)
    table = game.table
    table.submit(actions.move(game.state, "cube-red", "row"), "red")
    table.undo("red")
    assert _verdict(game, "red", "redo").verdict == OWN
    assert _verdict(game, "yellow", "redo").verdict == REFUSED
    table.redo("red")
    table.undo("yellow")  # another seat took it back (agreed): red may not put it back alone
    assert _verdict(game, "red", "redo").verdict == REFUSED
    game.close()
