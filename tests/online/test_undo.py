"""Undo and redo requests in a live Greenland game on a real Redis, under the take-back policy
(tabletop/persist/takeback.py): a seat takes back its own last move alone; anything else
needs every other seat's yes; a move that showed the seat a card (a draw into its hand, B2)
is never taken back at its request. The referee runs the table's own undo, so the undo is an
entry of the log, on every viewer's stream as that viewer sees it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_assist.bots import random_bots
from rules_assist.driver import MOVES, Driver
from rules_assist.simulate import play
from tabletop.core import actions
from tabletop.modules import find_module
from tabletop.modules.gamecode import game_of
from tabletop.online.client import Client
from tabletop.online.referee import Referee
from tabletop.online.server import RedisServer
from tabletop.persist import Game
from tests.online.helpers import check_game, new_greenland

SEATS = ["red", "green"]


def played_to_red_placing(path: Path) -> Path:
    """A two-player game played on a local table by bots up to red's first hunter to place
    (E), ready to be hosted."""
    new_greenland(path, SEATS, seed=5)
    game = game_of(find_module("greenland"))
    with Game.open(path, writable=True, checker=game.checker()) as local:
        driver = Driver(game, local.table)

        def red_places() -> bool:
            player, choices = driver.turn()
            return player == "red" and any(a.kind == MOVES for a in choices)

        play(game, local.table, random_bots(SEATS, 5), until=red_places)
    return path


@dataclass
class Hosted:
    path: Path
    url: str
    referee: Referee
    red: Client
    green: Client

    def serve(self) -> None:
        """The referee takes the next request; each client reads its stream."""
        self.referee._serve_requests()
        self.poll()

    def poll(self) -> None:
        self.red.poll(0)
        self.green.poll(0)

    def place_a_hunter(self) -> int:
        """Red puts a hunter on the first North Greenland card (E): its entry's number."""
        state = self.red.table.state
        card = state.places["north_warm"].contents[1]
        regions = state.regions_of(card)
        assert regions is not None
        self.red.moves([actions.move(state, "cube-red-1", regions.id, spot="hunters")])
        self.serve()
        assert self.red.errors == []
        return len(self.referee.table.entries)

    def answered(self, seat: Client, answer: str) -> str:
        """The referee serves a request that asks ``seat`` a question; ``seat`` answers it.
        The question's text."""
        failures: list[BaseException] = []

        def serve() -> None:
            try:
                self.referee._serve_requests()
            except BaseException as exc:  # reported below
                failures.append(exc)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not seat.questions:
            assert time.monotonic() < deadline, "no question came"
            seat.poll(50)
        qid, question = seat.questions[0]
        assert question.kind == "yes_no" and question.safe == "no"
        assert question.owner == seat.seat and question.section == "table"
        seat.answer(qid, answer)
        thread.join(30)
        assert not failures, failures
        self.poll()
        return question.text

    def check(self) -> None:
        """The file replayed locally, every stream and both clients' tables agree."""
        check_game(self.path, self.url, self.referee.name, [self.red, self.green]).close()


@pytest.fixture
def hosted(redis_server: RedisServer, tmp_path: Path) -> Iterator[Hosted]:
    path = played_to_red_placing(tmp_path / "game.jsonl")
    referee = Referee(path, redis_server.url, name="undo")
    addresses = referee.open_seats()
    referee.publish()
    red, green = Client(addresses["red"]), Client(addresses["green"])
    game = Hosted(path, redis_server.url, referee, red, green)
    game.poll()
    try:
        yield game
    finally:
        red.close()
        green.close()
        referee.close()


def test_table_a_seat_takes_back_its_own_move_and_every_table_agrees(hosted: Hosted) -> None:
    seq = hosted.place_a_hunter()
    hosted.red.undo()
    hosted.serve()
    assert hosted.red.errors == []
    undo = hosted.referee.table.entries[-1]
    assert (undo.kind, undo.actor, undo.ref, undo.seq) == ("undo", "red", seq, seq + 1)
    for client in (hosted.red, hosted.green):
        assert client.table is not None and client.table.entries[-1].kind == "undo"
        assert "cube-red-1" in client.table.state.places["hunters_red"].contents
        assert client.problems == [], client.seat
    hosted.check()
    hosted.red.redo()  # put back, by the seat that took it back, right after
    hosted.serve()
    assert hosted.red.errors == []
    assert hosted.referee.table.entries[-1].kind == "redo"
    assert "cube-red-1" not in hosted.red.table.state.places["hunters_red"].contents
    hosted.check()


def test_table_a_seat_cannot_redo_a_move_another_took_back(hosted: Hosted) -> None:
    hosted.place_a_hunter()
    hosted.red.undo()
    hosted.serve()
    before = len(hosted.referee.table.entries)
    hosted.green.redo()
    hosted.serve()
    assert len(hosted.referee.table.entries) == before
    assert "only by the seat whose move it was" in hosted.green.errors[-1][1]


def test_table_an_undo_of_a_move_not_the_seats_asks_the_other_seat(hosted: Hosted) -> None:
    """The last move standing is the table's own step into the hunter assignment phase (E):
    red's undo is put to green as a yes/no question; no refuses it, yes takes it back."""
    top = hosted.referee.table.undo_stack[-1]
    assert hosted.referee.table.entries[top - 1].actor == "greenland"
    before = len(hosted.referee.table.entries)
    hosted.red.undo()
    text = hosted.answered(hosted.green, "no")
    assert text.startswith(f"Norse asks to take back entry {top} (")
    assert len(hosted.referee.table.entries) == before
    assert "is not Norse's move, and Tunit said no" in hosted.red.errors[-1][1]
    hosted.red.undo()
    hosted.answered(hosted.green, "yes")
    undo = hosted.referee.table.entries[-1]
    assert (undo.kind, undo.actor, undo.ref) == ("undo", "red", top)
    hosted.check()


def test_table_a_seats_undo_of_anothers_move_asks_the_mover(hosted: Hosted) -> None:
    seq = hosted.place_a_hunter()
    hosted.green.undo()  # red's move, not green's: red is asked, and says no
    hosted.answered(hosted.red, "no")
    assert "Norse said no" in hosted.green.errors[-1][1]
    assert hosted.referee.table.undo_stack[-1] == seq


def test_b2_an_undo_after_a_draw_into_the_hand_is_refused(hosted: Hosted) -> None:
    """Red draws the South Greenland deck's top card into its hand: it has seen the card, so
    taking the draw back would leave it knowing the deck's top; the referee refuses."""
    state = hosted.red.table.state
    hosted.red.moves([actions.move(state, state.top("south_deck"), "hand_red")])
    hosted.serve()
    assert hosted.red.errors == []
    before = len(hosted.referee.table.entries)
    hosted.red.undo()
    hosted.serve()
    assert len(hosted.referee.table.entries) == before
    text = hosted.red.errors[-1][1]
    assert f"entry {before} (" in text and "showed Norse what it could not see before" in text
    assert "to Norse's hand" in text
    hosted.check()


def test_table_a_bot_seat_on_the_referee_answers_the_question(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Green is the referee's bot: red's undo of the table's step is put to the bot, which
    answers at once; the outcome follows its answer."""
    path = played_to_red_placing(tmp_path / "game.jsonl")
    referee = Referee(path, redis_server.url, name="botundo", bots=["green"])
    addresses = referee.open_seats()
    referee.publish()
    red = Client(addresses["red"])
    red.poll(0)
    before = len(referee.table.entries)
    red.undo()
    referee._serve_requests()
    red.poll(0)
    if red.errors:
        assert "and Tunit said no" in red.errors[-1][1]
        assert len(referee.table.entries) == before
    else:
        assert referee.table.entries[-1].kind == "undo"
        assert red.table is not None and red.table.entries[-1].kind == "undo"
    red.close()
    referee.close()
