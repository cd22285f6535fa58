"""A seat's copy (``tabletop export``) in the window: opened read-only as its seat saw the
game, the other seats' cards as backs, and every move refused with a plain message."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tabletop.cli import main
from tabletop.visibility import is_anonymous


def test_a_seats_copy_opens_read_only_as_that_seat_saw_the_game(table, proto_module, tmp_path):
    table.start(proto_module, seats=3)
    deck = table.state.places["deck"].contents
    red_card, yellow_card = deck[-1], deck[-2]
    table.drag(table.place_point("deck", 0.4, 0.6), table.place_point("hand_red", 0.9, 0.5))
    table.drag(table.place_point("deck", 0.4, 0.6), table.place_point("hand_yellow", 0.9, 0.5))
    assert table.state.pieces[yellow_card].place == "hand_yellow", table.status()
    full = table.session.game.path
    copy = tmp_path / "yellow.jsonl"
    assert main(["export", full, "--for", "yellow", "-o", str(copy)]) == 0
    before = copy.read_bytes()

    assert table.window.open_path(str(copy)) is not None, table.status()
    QApplication.processEvents()
    session = table.session
    assert session.copy and session.read_only and session.viewer == "yellow"
    assert "READ-ONLY: Yellow's copy" in table.window.status.text()
    state = table.state
    assert yellow_card in state.pieces and red_card not in state.pieces  # only its own draw
    assert table.scene.pieces[yellow_card].visible_face
    red_hand = state.places["hand_red"].contents
    assert red_hand and all(is_anonymous(state.pieces[p]) for p in red_hand)
    assert not any(table.scene.pieces[p].visible_face for p in red_hand)
    panel = table.window.log_panel
    name = session.log_reader.words.face(state.pieces[yellow_card])
    lines = [panel.list.item(i).text() for i in range(panel.list.count())]
    assert any("a Prototype card from Draw deck to Red's hand" in line for line in lines)
    assert any(name and name in line and "Yellow's hand" in line for line in lines)

    seq = table.live.seq
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "1,1"))
    assert table.live.seq == seq and state.pieces["cube-red-1"].place != "map"
    assert "Yellow's copy of the game, shown read-only" in table.status()
    assert copy.read_bytes() == before  # nothing is written to a copy
