"""Edit > Undo (Ctrl+Z) in the window on a live Greenland game: the window sends an undo
request, the referee takes red's own last move back and the window draws the undo entry; an
undo that needs green's yes and gets a no comes back to the status bar; an undo green asks
for is approved in red's window (tabletop/persist/takeback.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tabletop.online.server import RedisServer
from tests.online.test_window import Live

Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def live(qtbot: Any, redis_server: RedisServer, tmp_path: Path) -> Iterator[Live]:  # noqa: ANN401
    game = Live(qtbot, redis_server, tmp_path)  # red's questions answered with their first option
    try:
        yield game
    finally:
        game.close()


def _red_places_a_hunter(live: Live) -> int:
    """Red drags a hunter onto the first North Greenland card (E); green waits."""
    live.wait(live.red_to_place, "red's hunters to place")
    live.green_plays = False
    north = live.session.state.places["north_warm"].contents[1]
    seq = live.session.table.seq
    live.table.drag(live.table.piece_point("cube-red-1"), live.table.piece_point(north))
    live.wait(lambda: live.session.table.seq > seq, "red's hunter placed")
    assert "cube-red-1" in live.referee.table.state.contents(north, "hunters")
    return live.session.table.seq


def test_table_ctrl_z_takes_back_reds_own_move_and_a_refusal_shows_in_the_status_bar(
    live: Live,
) -> None:
    seq = _red_places_a_hunter(live)
    live.table.key(Qt.Key.Key_Z, Ctrl)
    live.wait(lambda: live.session.table.seq > seq, "the undo entry")
    undo = live.session.table.entries[-1]
    assert (undo.kind, undo.actor, undo.ref) == ("undo", "red", seq)
    assert live.referee.table.entries[-1].kind == "undo"
    assert "cube-red-1" in live.session.state.places["hunters_red"].contents
    x, y = live.table.layout.piece_pos("cube-red-1")
    assert live.table.scene.pieces["cube-red-1"].pos().toTuple() == (x, y)
    # the move before red's is not red's: green is asked, and says no
    live.table.key(Qt.Key.Key_Z, Ctrl)

    def green_asked() -> bool:
        live.green.poll(0)
        return bool(live.green.questions)

    live.wait(green_asked, "green's question")
    qid, question = live.green.questions[0]
    assert question.kind == "yes_no" and question.owner == "green"
    live.green.answer(qid, "no")
    live.wait(lambda: "Refused by the referee" in live.table.status(), "the refusal")
    assert "Tunit said no" in live.table.status()
    assert live.session.table.seq == seq + 1 == len(live.referee.table.entries)


def test_table_reds_window_approves_greens_undo_of_reds_move(live: Live) -> None:
    seq = _red_places_a_hunter(live)

    def green_saw_it() -> bool:
        live.green.poll(0)
        return live.green.seq == seq

    live.wait(green_saw_it, "red's move on green's stream")
    live.green.undo()
    live.wait(lambda: live.session.table.seq > seq, "green's undo, approved in red's window")
    undo = live.session.table.entries[-1]
    assert (undo.kind, undo.actor, undo.ref) == ("undo", "green", seq)
    assert "cube-red-1" in live.session.state.places["hunters_red"].contents
