"""``tabletop pbem``: a procedure's questions answered by the seat that owns them.

Greenland's event (D) with the seed 1 asks three seats: yellow, the first player, holds the
Council of War (A2) and may name another first player; then every culture with ivory bids for
the import (D10), each its own bid. Red, the mover, runs the event; the host keeps it waiting
in its folder until yellow and green have answered by file, then applies it. Everything goes
through the command line, as the players would use it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.persist import Game
from tabletop.persist.pbem import read_envelope, read_private, seal
from tabletop.persist.seatview import SeatView
from tests.pbem.test_pbem import SEATS, TESTS, Players

COUNCIL = "Council of War (A2)"


@pytest.fixture
def greenland(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Players:
    return Players(tmp_path, capsys, "greenland", "--seed", "1")


def _pending(players: Players) -> dict | None:
    return json.loads((players.host / "pbem.json").read_text()).get("pending")


def _waits(players: Players, seat: str) -> Path:
    """The seat's turn file with the question, taken in by the seat. The question is sealed to
    the seat, and names no piece that is not on the seat's own copy (hidden stays hidden)."""
    turn = players.send(seat)
    said = players.ok("pbem", "receive", players.folders[seat], turn)
    assert "asks you" in said
    state = json.loads((players.folders[seat] / "pbem.json").read_text())
    envelope, _, _ = read_envelope(turn)
    question = envelope.open(read_private(state["key"]))["question"]
    assert question == state["question"]
    with players.game() as game, players.copy(seat) as copy:
        for asked in question["questions"]:
            named = [*asked["options"], *(group for group, _ in asked["groups"])]
            assert all(o in copy.state.pieces for o in named if o in game.state.pieces)
    return turn


def _red_runs_the_event(players: Players) -> None:
    """Red runs the event, answering only its own question (its bid): it waits for yellow."""
    request = players.request("red", "--run", "event --choice bid_red=0")
    said = players.ok("pbem", "receive", players.host, request)
    assert "red's request 1 (event) waits: nothing applied yet" in said
    assert f"waiting for yellow's answer to 'council' ({COUNCIL}" in said
    with players.game() as game:
        assert len(game.table.entries) == 9  # nothing applied


def test_a2_d10_questions_of_other_seats_are_answered_by_file_as_a_local_replay(
    greenland: Players,
) -> None:
    players = greenland
    _red_runs_the_event(players)
    pending = _pending(players)
    assert pending is not None and pending["waiting"] == "yellow"
    assert [q["key"] for q in pending["questions"]] == ["council", "bid_yellow"]
    status = players.ok("pbem", "status", players.host)
    assert "waiting for yellow's answer to 'council'" in status
    assert "send yellow its turn file: it carries the question" in status
    turn = _waits(players, "yellow")
    assert COUNCIL not in turn.read_text()  # the question is sealed to yellow
    status = players.ok("pbem", "status", players.folders["yellow"])
    assert "choice 'council': red, yellow, green" in status
    # yellow keeps the first place and bids nothing; the bids go on in the new order (A2):
    # green next, then red, who answered already
    answer = players.request("yellow", "--answer", "council=yellow", "--answer", "bid_yellow=0")
    said = players.ok("pbem", "receive", players.host, answer)
    assert "yellow's answer taken; red's request 1 still waits" in said
    assert "waiting for green's answer to 'bid_green'" in said
    _waits(players, "green")
    answer = players.request("green", "--answer", "bid_green=0")
    said = players.ok("pbem", "receive", players.host, answer)
    assert "red's request 1 applied with green's answer" in said
    assert _pending(players) is None
    assert "no procedure waits" in players.ok("pbem", "status", players.host)
    players.deliver()
    local = players.root / "local.jsonl"
    players.ok("new", "greenland", "--seats", ",".join(SEATS), "--seed", "1", "-o", local)
    after = players.root / "local-event.jsonl"
    answers = ["council=yellow", "bid_red=0", "bid_yellow=0", "bid_green=0"]
    choices = [a for answer in answers for a in ("--choice", answer)]
    players.ok("run", local, "event", *choices, "--seat", "red", "-o", after)
    with players.game() as hosted, Game.open(after, writable=False) as replayed:
        assert hosted.state.digest() == replayed.state.digest()
        assert len(hosted.table.entries) == len(replayed.table.entries) == 10
        assert hosted.state.counters["first_player"] == "yellow"
        for seat in SEATS:
            view = SeatView(hosted.table, seat)
            view.follow()
            with players.copy(seat) as copy:
                assert copy.state.digest() == view.state.digest()
            assert "no question waits" in players.ok("pbem", "status", players.folders[seat])


def test_a2_d10_the_mover_is_asked_its_own_question_by_file_when_its_turn_comes(
    greenland: Players,
) -> None:
    """Red gives no bid: after yellow and green, the event waits for red's own answer."""
    players = greenland
    request = players.request("red", "--run", "event")
    assert "waiting for yellow's answer" in players.ok("pbem", "receive", players.host, request)
    _waits(players, "yellow")
    answer = players.request("yellow", "--answer", "council=green", "--answer", "bid_yellow=1")
    players.ok("pbem", "receive", players.host, answer)
    _waits(players, "green")
    answer = players.request("green", "--answer", "bid_green=0")
    said = players.ok("pbem", "receive", players.host, answer)
    assert "waiting for red's answer to 'bid_red'" in said
    _waits(players, "red")
    answer = players.request("red", "--answer", "bid_red=0")
    assert "applied" in players.ok("pbem", "receive", players.host, answer)
    players.deliver()
    local = players.root / "local.jsonl"
    players.ok("new", "greenland", "--seats", ",".join(SEATS), "--seed", "1", "-o", local)
    after = players.root / "local-event.jsonl"
    answers = ["council=green", "bid_red=0", "bid_yellow=1", "bid_green=0"]
    choices = [a for answer in answers for a in ("--choice", answer)]
    players.ok("run", local, "event", *choices, "--seat", "red", "-o", after)
    with players.game() as hosted, Game.open(after, writable=False) as replayed:
        assert hosted.state.digest() == replayed.state.digest()
        assert hosted.state.counters["first_player"] == "green"
        for seat in SEATS:
            with players.copy(seat) as copy:
                assert len(copy.table.entries) == 10


def test_a2_d10_the_movers_answer_to_another_seats_question_is_refused(
    greenland: Players,
) -> None:
    players = greenland
    request = players.request("red", "--run", "event --choice council=yellow --choice bid_red=0")
    err = players.refused(players.host, request)
    assert f"'council' ({COUNCIL}: yellow has a war chief" in err
    assert "is yellow's question to answer, not red's" in err
    # --bid fills in every culture left out with 0 (D10): those bids are not red's to give
    request = players.request("red", "--run", "event --bid red=0")
    err = players.refused(players.host, request)
    assert "'bid_yellow'" in err and "is yellow's question to answer, not red's" in err
    assert _pending(players) is None


def test_a2_while_a_question_waits_other_requests_and_other_seats_answers_are_refused(
    greenland: Players,
) -> None:
    players = greenland
    _red_runs_the_event(players)
    _waits(players, "yellow")
    waiting = f"waiting for yellow's answer to 'council' ({COUNCIL}"
    other = players.request("red", "--run", "event --choice bid_red=0")
    assert waiting in players.refused(players.host, other)
    code, _, err = players.run(
        "pbem", "request", players.folders["green"], "--answer", "council=green", "-o", "x.json"
    )
    assert code == 2 and "no question waits for green's answer" in err
    # green's answer made by hand, signed with green's key: refused all the same
    state = json.loads((players.folders["green"] / "pbem.json").read_text())
    green = read_private(state["key"])
    host = read_private(players.host / "host.key").public
    forged = players.root / "green-answer.json"
    payload = {
        "game": state["game"],
        "digest": state["entries"][-1]["digest"],
        "answer": {"ask": _pending(players)["ask"], "choices": {"council": "green"}},
    }
    forged.write_text(seal("request", state["game"], green, host, 9, 9, payload))
    assert waiting in players.refused(players.host, forged)
    # yellow answers a question it was not asked, or leaves the first one out
    code, _, err = players.run(
        "pbem", "request", players.folders["yellow"], "--answer", "bid_green=0", "-o", "x.json"
    )
    assert code == 2 and "not a question for yellow" in err
    code, _, err = players.run(
        "pbem", "request", players.folders["yellow"], "--answer", "council=blue", "-o", "x.json"
    )
    assert code == 2 and "'blue' is not one of red, yellow, green" in err
    assert not (players.root / "x.json").exists()
    assert _pending(players)["waiting"] == "yellow"


def test_a2_a_changed_or_replayed_answer_file_is_refused(greenland: Players) -> None:
    players = greenland
    _red_runs_the_event(players)
    _waits(players, "yellow")
    answer = players.request("yellow", "--answer", "council=yellow", "--answer", "bid_yellow=0")
    text = answer.read_text()
    at = text.index(json.loads(text)["sealed"]) + 10
    changed = players.root / "changed.json"
    changed.write_text(text[:at] + ("B" if text[at] != "B" else "C") + text[at + 1 :])
    assert "the signature is not yellow's" in players.refused(players.host, changed)
    as_green = players.root / "as-green.json"
    as_green.write_text(text.replace('"from": "yellow"', '"from": "green"'))
    assert "the signature is not green's" in players.refused(players.host, as_green)
    players.ok("pbem", "receive", players.host, answer)  # the true file goes through
    assert "a replay: yellow's request 1 was already taken" in players.refused(players.host, answer)
    assert _pending(players)["waiting"] == "green"


def test_a2_a_question_file_received_twice_is_a_replay(greenland: Players) -> None:
    players = greenland
    _red_runs_the_event(players)
    turn = _waits(players, "yellow")
    assert "a replay: this copy has had question 1" in players.refused(
        players.folders["yellow"], turn
    )
    again = players.send("yellow")  # a lost question file is sent again: same question
    assert "a replay" in players.refused(players.folders["yellow"], again)


def test_r5_a_procedure_missing_the_movers_own_answer_is_refused_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race's R5 share is the mover's own question: without it the request is refused with
    the list, as 'tabletop run' refuses it, and nothing waits."""
    monkeypatch.setenv("TABLETOP_RESOURCES", str(TESTS))  # tests/toy is the module 'toy'
    players = Players(tmp_path, capsys, "toy", "--seed", "5")
    players.play("red", "--run", "roll")
    request = players.request("red", "--run", "advance")
    before = (players.host / "pbem.json").read_bytes()
    code, out, err = players.run("pbem", "receive", players.host, request)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "advance needs answers (nothing was written)" in err
    assert "answer with --choice move=VALUE" in err
    assert (players.host / "pbem.json").read_bytes() == before
    assert _pending(players) is None


# F: red's two hunters and green's one on the Shark, in the negotiations (tests/greenland's
# MARRIAGE position)
SHARED_SHARK = """
phase = "negotiation"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 1
hunters = {Shark = 2}
[cultures.green]
unassigned = 1
elders = {4 = 1}
hunters = {Shark = 1}
"""


def _shark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Players:
    position = tmp_path / "shark.toml"
    position.write_text(SHARED_SHARK)
    return Players(tmp_path, capsys, "greenland", "--seed", "1", "--position", position)


def test_f_leaving_waits_for_the_consent_of_green_by_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Green has not had red's last move yet: its turn file carries that entry and the
    question together."""
    players = _shark(tmp_path, capsys)
    players.play("red", "--move", "cube-red-3", "--to", "hunters_red", everyone=False)
    request = players.request("red", "--run", "leave --card Shark")
    said = players.ok("pbem", "receive", players.host, request)
    assert "waiting for green's answer to 'consent_green' (Green: let Red leave Shark (F)?)" in said
    turn = players.send("green")
    said = players.ok("pbem", "receive", players.folders["green"], turn)
    assert "entries 11..11 received (green's copy)" in said
    assert "Green: let Red leave Shark (F)? (choice 'consent_green': yes or no)" in said
    answer = players.request("green", "--answer", "consent_green=yes")
    assert "applied with green's answer" in players.ok("pbem", "receive", players.host, answer)
    players.deliver()
    with players.game() as game:
        label = game.table.entries[-1].command.label
        assert "everyone present agrees (F)" in label and label.endswith("2 unassigned")
        for seat in SEATS:
            view = SeatView(game.table, seat)
            view.follow()
            with players.copy(seat) as copy:
                assert copy.state.digest() == view.state.digest()


def test_f_green_refuses_its_consent_and_the_request_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F: without everyone's consent a culture does not leave: green's 'no' is taken, red's
    request is refused by the rules, nothing is applied and nothing waits any more."""
    players = _shark(tmp_path, capsys)
    with players.game() as game:
        before = game.state.digest()
    request = players.request("red", "--run", "leave --card Shark")
    players.ok("pbem", "receive", players.host, request)
    _waits(players, "green")
    answer = players.request("green", "--answer", "consent_green=no")
    said = players.ok("pbem", "receive", players.host, answer)
    assert "green's answer taken, but red's request 1 (leave) is refused" in said
    assert "leaving needs the consent of everyone present (F)" in said
    assert _pending(players) is None
    with players.game() as game:
        assert game.state.digest() == before
    again = players.request("red", "--run", "leave --card Shark")  # red may ask again
    assert "waiting for green's answer" in players.ok("pbem", "receive", players.host, again)
