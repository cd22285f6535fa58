"""Looot played live on a real Redis: a referee and two bot clients, each playing on its own
view of the table. A used shield lies face down in the slot that names it (LO-R2, DE:20):
in a seat's view it is an anonymous stand-in, and the game reads it by its slot."""

from __future__ import annotations

from pathlib import Path

from rules_assist.looot.reading import Looot
from tabletop.cli import main
from tabletop.core import Mode, Policy
from tabletop.modules import find_module, new_game
from tabletop.modules.gamecode import game_of
from tabletop.online.referee import Referee
from tabletop.online.server import RedisServer
from tabletop.persist import Game
from tabletop.persist.seatview import SeatView
from tabletop.visibility import is_anonymous
from tests.online.helpers import Players, check_game, run_referee

SEATS = ["red", "blue"]


def test_lo_r2_two_bot_clients_play_a_whole_looot_game_and_every_table_equals_the_log(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = tmp_path / "looot.jsonl"
    new_game(
        find_module("looot"), seats=SEATS, seed=3, path=path, policy=Policy(Mode.STRICT)
    ).close()
    referee = Referee(path, redis_server.url, name="looot")
    addresses = referee.open_seats()
    thread, failures = run_referee(referee)
    players = Players(addresses, SEATS)
    players.start_all()
    players.join()
    thread.join(60)
    assert not failures, failures
    assert referee.over()
    referee.close()
    game = check_game(path, redis_server.url, "looot", players.clients.values())
    assert len(game.table.entries) > 50
    for client in players.clients.values():
        assert client.problems == [] and client.resyncs == 0, client.seat
    game.close()


def test_lo_r2_a_seats_view_reads_the_used_shields_as_the_full_table_does(tmp_path: Path) -> None:
    """At the end of bot games, every seat's view reads each seat's used and unused shields,
    and the turn's status, exactly as the full table does, face-down stand-ins and all."""
    logs = tmp_path / "logs"
    args = ["simulate", "looot", "--games", "4", "--seed", "2", "--save-logs", str(logs)]
    assert main([*args, "--jobs", "1"]) == 0
    module = find_module("looot")
    game_code = game_of(module)
    stand_ins = 0
    for log in sorted(logs.glob("*.jsonl")):
        full = Game.open(log, writable=False)
        names = {s.id: s.name for s in full.header.seats}
        whole = Looot(full.table.state, game_code)
        for viewer in [*names, None]:
            view = SeatView(full.table, viewer, names)
            view.follow()
            seen = Looot(view.state, game_code)
            for seat in names:
                assert seen.shields_used(seat) == whole.shields_used(seat), (log, viewer)
                assert seen.shields_unused(seat) == whole.shields_unused(seat), (log, viewer)
                stand_ins += sum(
                    is_anonymous(view.state.pieces[p])
                    for p in view.state.place(f"shields_{seat}").contents
                )
            status = game_code.flow.status(view.state)
            assert status == game_code.flow.status(full.table.state), (log, viewer)
        full.close()
    assert stand_ins > 0  # some shield was used and hidden in the views: the case is met
