"""The window when the game's file cannot take a move (the disk is full): a box says so, naming
the file and the system's reason; the move is not made; the window goes on ("table")."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QMessageBox

from tabletop.persist import Game

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs RLIMIT_FSIZE")


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Files of this process cannot grow past ``limit`` bytes: a write beyond fails with EFBIG
    (SIGXFSZ ignored), as on a full disk."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def test_table_a_move_the_full_disk_refuses_is_not_made_and_a_box_says_so(table, proto_module):
    table.start(proto_module, seats=3)
    game = table.session.game
    path = game.path
    was = table.state.pieces["cube-red-1"].place
    home = table.scene.pieces["cube-red-1"].pos()
    seq = table.live.seq
    with file_size_limit(os.path.getsize(path) + 10):
        table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "0,0"))
    box = table.window.write_failure_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert path in box.text() and os.strerror(27) in box.text()  # EFBIG: File too large
    assert "has not been made" in box.text()
    assert table.state.pieces["cube-red-1"].place == was
    assert table.scene.pieces["cube-red-1"].pos() == home  # the cube is back where it was
    assert table.live.seq == seq
    assert "cannot be written" in table.status(), table.status()
    with Game.open(path, writable=False) as again:  # the table as the file has it
        assert again.state.to_dict() == table.live.state.to_dict()
        assert again.table.seq == seq
    box.button(QMessageBox.StandardButton.Ok).click()
    assert table.window.write_failure_box is None
    # there is room again: the same gesture is made, and written
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "0,0"))
    assert table.state.pieces["cube-red-1"].place == "map"
    assert table.live.seq == seq + 1
    with Game.open(path, writable=False) as again:
        assert again.state.to_dict() == table.live.state.to_dict()
