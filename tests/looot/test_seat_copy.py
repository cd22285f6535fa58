"""A seat's copy of a whole Looot game (``tabletop export``, docs/hidden-information.md): the
longships wait face down in the bag (LO-R2) and are drawn face up one by one; random bots
play a seeded game through the turn driver (``simulate``).

Each seat's copy and a spectator's is checked against the full game entry by entry
(tests/persist/seatview_checks.py): its table is exactly what the seat may see, each entry
carries its view's digest, no byte names a longship still in the bag, and the bag's order is
nowhere: a stand-in holds only the tile's back.
"""

from __future__ import annotations

from pathlib import Path

from rules_assist.looot.moves import looot_game
from rules_assist.simulate import play_game
from tests.persist.seatview_checks import check_copies, ever_hidden

SEATS = ["blue", "red", "grey"]


def test_lo_r2_every_seats_copy_keeps_the_bag_hidden(tmp_path: Path) -> None:
    game = looot_game()
    bots = {seat: game.bots["random"](70 + n) for n, seat in enumerate(SEATS)}
    session = play_game(game, "standard", bots, 7, path=tmp_path / "game.jsonl")
    try:
        secret = ever_hidden(session)
        assert any(pid.startswith("longship-") for pid in secret)
        report = check_copies(session, {}, tmp_path, secret)
    finally:
        session.close()
    for viewer in (*SEATS, "spectator"):
        assert 0 < report[viewer]["never"] < len(secret)  # some drawn, some left in the bag
