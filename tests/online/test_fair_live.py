"""Fair dice and shuffles in live play (docs/fairness.md, docs/online.md): the referee
publishes the commitment to its secret seed on every stream before any seat contributes,
each seat's client draws its contribution on its own and sends it as a request, the game is
set up only once every contribution is in, and at the end the revealed seed re-derives every
roll and shuffle (`tabletop verify`). A real Redis; the referee is `tabletop host` run as a
process of its own, killed and started again while it waits."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from rules_assist.driver import Action
from tabletop.cli import main
from tabletop.core.randomness import Contribute, commitment_of
from tabletop.online.client import BotClient, Client, UnfairReferee
from tabletop.online.fairstart import FairStart, setup_record
from tabletop.online.referee import Referee, sidecar_of, wait_for
from tabletop.online.server import RedisServer
from tabletop.online.streams import Address, decode, public_key, request_key, view_key
from tabletop.persist import Game
from tests.online.helpers import Players, check_game, readable

SEATS = ["red", "green"]
HOST = [sys.executable, "-c", "import sys; from tabletop.cli import main; sys.exit(main())"]
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


class Host:
    """``tabletop host --new greenland --fair ...`` as a process of its own; its join
    addresses read from what it prints."""

    def __init__(self, path: Path, url: str, name: str, *more: str) -> None:
        self.command = [
            *HOST,
            "host",
            "--new",
            "greenland",
            "--fair",
            "--seats",
            ",".join(SEATS),
            "--variant",
            "two-player",
            "--game-seed",
            "11",
            "--rules",
            "strict",
            "-o",
            str(path),
            "--redis",
            url,
            "--name",
            name,
            *more,
        ]
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> dict[str | None, Address]:
        self.lines = []
        self.process = subprocess.Popen(
            self.command, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        addresses: dict[str | None, Address] = {}
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if line.startswith("  ") and ": redis://" in line:
                viewer, text = line.strip().split(": ", 1)
                addresses[None if viewer == "spectator" else viewer] = Address.parse(text)
            if line.startswith("waiting for every seat's contribution"):
                return addresses
        raise AssertionError(f"the host stopped: {self.lines} {self.process.stderr.read()}")  # type: ignore[union-attr]

    def finish(self, timeout: float = 300) -> str:
        assert self.process is not None
        out, err = self.process.communicate(timeout=timeout)
        assert self.process.returncode == 0, err
        return "".join(self.lines) + out

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process.stdout.close()  # type: ignore[union-attr]
        self.process.stderr.close()  # type: ignore[union-attr]


def messages(url: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    client = redis.Redis.from_url(url, decode_responses=True)
    found = [(i, decode(f)) for i, f in client.xrange(key)]
    client.close()
    return found


def stream_order(stream_id: str) -> tuple[int, int]:
    ms, _, n = stream_id.partition("-")
    return int(ms), int(n)


@pytest.fixture(scope="module")
def fair_game(module_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A whole fair two-player Greenland game hosted with --new ... --fair --reveal, played by
    two bot clients that contribute on joining (played once for this file)."""
    path = tmp_path_factory.mktemp("fair") / "game.jsonl"
    host = Host(path, module_redis.url, "fair", "--reveal")
    addresses = host.start()
    waiting = {}
    for viewer, address in addresses.items():  # before anyone has contributed
        waiting[viewer] = readable(address)
    spectator = Client(addresses[None])
    players = Players(addresses, SEATS)
    players.start_all()
    assert wait_for(lambda: spectator.poll() >= 0 and spectator.over, 240)
    players.join()
    out = host.finish()
    return {
        "path": path,
        "out": out,
        "addresses": addresses,
        "players": players,
        "spectator": spectator,
        "waiting": waiting,
    }


def test_fair_live_greenland_set_up_after_the_contributions_and_verify_accepts_it(
    module_redis: RedisServer,
    fair_game: dict,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, players = fair_game["path"], fair_game["players"]
    assert "every seat has contributed" in fair_game["out"]
    assert "the seed is revealed" in fair_game["out"]
    clients = [*players.clients.values(), fair_game["spectator"]]
    game = check_game(path, module_redis.url, "fair", clients)
    entries = game.table.entries
    # the contributions are the first entries, before the setup, each the seat's own, once
    first = entries[:2]
    assert all(e.kind == "chance" and isinstance(e.command, Contribute) for e in first)
    assert {e.command.seat: e.command.contribution for e in first} == {  # type: ignore[attr-defined]
        seat: client.contribution for seat, client in players.clients.items()
    }
    assert entries[2].kind == "setup" and entries[-1].command.op == "reveal"
    for client in clients:
        assert client.problems == [] and client.unfair is None
    game.close()
    assert main(["verify", str(path)]) == 0
    assert "fair:" in capsys.readouterr().out


def test_the_commitment_a_seat_was_shown_before_contributing_is_the_headers(
    module_redis: RedisServer, fair_game: dict
) -> None:
    game = Game.open(fair_game["path"], writable=False)
    commitment = game.header.randomness["commitment"]  # type: ignore[index]
    game.close()
    for seat, client in fair_game["players"].clients.items():
        assert client.commitment == commitment, seat
        # on the seat's stream the commitment came first; its request came after it
        shown = messages(module_redis.url, view_key("fair", seat))
        assert shown[0][1] == {
            "type": "commitment",
            "scheme": "hmac-sha256/v1",
            "commitment": commitment,
            "seats": SEATS,
        }
        sent = [
            (i, m)
            for i, m in messages(module_redis.url, request_key("fair", seat))
            if m["kind"] == "contribute"
        ]
        assert len(sent) == 1 and sent[0][1]["commitment"] == commitment
        assert stream_order(sent[0][0]) > stream_order(shown[0][0])
    # what each viewer could read while the referee waited: the commitment, no header yet
    for viewer, streams in fair_game["waiting"].items():
        for key, found in streams.items():
            kinds = [m["type"] for _i, m in found]
            assert kinds[0] == "commitment" and "header" not in kinds, (viewer, key)


def test_no_stream_a_seat_or_spectator_reads_holds_the_secret_seed(fair_game: dict) -> None:
    """Not while the referee waits, not during the game, not at the end: the reveal reaches
    the streams as an entry that says only that the seed was shown (with it every shuffle,
    the decks' orders too, could be worked out again); the full file the referee publishes
    after the game holds it, for `tabletop verify`."""
    game = Game.open(fair_game["path"], writable=False)
    secret = game.header.randomness["secret"]  # type: ignore[index]
    game.close()
    for viewer, address in fair_game["addresses"].items():
        for key, found in readable(address).items():
            assert secret not in json.dumps([m for _i, m in found]), (viewer, key)
            last = [m for _i, m in found if m["type"] == "entry"][-1]["entry"]
            assert last["cmd"] == {"op": "unseen", "what": "reveal"}, (viewer, key)
    for streams in fair_game["waiting"].values():
        assert secret not in json.dumps(streams)
    # the bookkeeping forgot the seed once the game's file held it (its one place)
    assert secret not in sidecar_of(fair_game["path"]).read_text()


def test_a_referee_restarted_while_waiting_keeps_its_seed_and_refuses_a_second_contribution(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    host = Host(path, redis_server.url, "restart")
    addresses = host.start()
    red = Client(addresses["red"])
    assert wait_for(lambda: red.poll(50) >= 0 and "red" in red.contributed, 30)
    shown, given = red.commitment, red.contribution
    assert red.waiting_for == ["green"]
    bookkeeping = sidecar_of(path)
    assert stat.S_IMODE(bookkeeping.stat().st_mode) == 0o600
    host.kill()
    assert not path.exists()
    # started again on the file it is to write: it goes on with the start it waits for
    host.command = [*HOST, "host", str(path), "--redis", redis_server.url]
    addresses_again = host.start()
    assert addresses_again == addresses
    again = Client(addresses["red"])  # red's client started again: it has contributed already
    again.poll(200)
    assert again.contribution is None and again.contributed["red"] == given
    # a second contribution of red, and bad ones, are refused with the reason
    repeated = again.send_contribution("ab" * 32)
    short = again.send_contribution("ab" * 4)
    not_hex = again.send_contribution("zz" * 32)
    assert wait_for(lambda: again.poll(50) >= 0 and len(again.errors) == 3, 30)
    said = dict(again.errors)
    assert "red has added its contribution already" in said[repeated]
    assert "16 to 64 bytes" in said[short]
    assert "hexadecimal" in said[not_hex]
    green = Client(addresses["green"])
    assert wait_for(lambda: green.poll(50) >= 0 and green.table is not None, 60)
    assert wait_for(lambda: red.poll(50) >= 0 and red.seq > 2, 60)
    game = Game.open(path, writable=False)
    assert game.header.randomness["commitment"] == shown == red.commitment  # type: ignore[index]
    contributions = [e.command for e in game.table.entries if e.kind == "chance"]
    assert contributions == [Contribute("red", given), Contribute("green", green.contribution)]  # type: ignore[arg-type]
    game.close()
    # late: the game is set up and played; the referee refuses another contribution
    bots = [BotClient(addresses[seat], seed=i) for i, seat in enumerate(SEATS)]
    late = bots[1].send_contribution("cd" * 32)

    def answered() -> bool:
        for bot in bots:
            bot.step()
        return late in dict(bots[1].errors)

    assert wait_for(answered, 60)
    assert "green has added its contribution already (entry 2)" in dict(bots[1].errors)[late]
    host.kill()
    for client in (red, again, green, *bots):
        assert client.unfair is None
        client.close()


def test_a_referee_that_changes_its_seed_after_the_contributions_is_caught(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    host = Host(path, redis_server.url, "rigged")
    addresses = host.start()
    red = Client(addresses["red"])
    assert wait_for(lambda: red.poll(50) >= 0 and "red" in red.contributed, 30)
    host.kill()
    # a referee that would choose its seed knowing the contributions: a new seed in its books
    bookkeeping = sidecar_of(path)
    record = json.loads(bookkeeping.read_text())
    record["fair_start"]["secret"] = "00" * 32
    bookkeeping.write_text(json.dumps(record))
    host.command += ["--bots", "green"]  # green's contribution drawn by the referee
    host.start()
    with pytest.raises(UnfairReferee, match="the secret seed was changed"):
        wait_for(lambda: red.poll(50) >= 0 and red.table is not None, 60)
    assert red.commitment != commitment_of(bytes(32))
    with pytest.raises(UnfairReferee):  # it has stopped: it reads nothing more
        red.poll(0)
    host.kill()
    red.close()


def test_a_fair_looot_made_without_contributions_gets_them_through_the_streams(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Looot's setup draws nothing, so its fair game is made first and hosted as it is: the
    seat the referee's bot plays gets its contribution drawn by the referee, the other's
    comes from its client; nothing else is run before both are in."""
    path = tmp_path / "looot.jsonl"
    assert main(["new", "looot", "--fair", "--seats", "2", "--seed", "3", "-o", str(path)]) == 0
    game = Game.open(path, writable=False)
    seats = [s.id for s in game.header.seats]
    commitment = game.header.randomness["commitment"]  # type: ignore[index]
    game.close()
    remote, bot = seats
    referee = Referee(path, redis_server.url, name="looot", bots=[bot])
    addresses = referee.open_seats()
    stop = threading.Event()
    thread = threading.Thread(target=lambda: referee.run(until=stop.is_set), daemon=True)
    thread.start()
    client = Client(addresses[remote], contribute=False)
    assert wait_for(lambda: client.poll(50) >= 0 and client.waiting_for == [remote], 30)
    early = client.act(Action("Pass", name="pass", params={}))
    assert wait_for(lambda: client.poll(50) >= 0 and early in dict(client.errors), 30)
    assert "waits for every seat's contribution" in dict(client.errors)[early]
    client.contribute = True  # as a client does by itself on joining
    assert wait_for(lambda: client.poll(50) >= 0 and client.waiting_for == [], 30)
    stop.set()
    thread.join(30)
    referee.close()
    assert client.commitment == commitment and client.unfair is None
    game = Game.open(path, writable=False)
    chance = {e.command.seat: e.command for e in game.table.entries if e.kind == "chance"}  # type: ignore[attr-defined]
    assert set(chance) == set(seats)
    assert chance[remote].contribution == client.contribution  # type: ignore[attr-defined]
    game.close()
    client.close()
    assert main(["reveal", str(path)]) == 0
    assert main(["verify", str(path)]) == 0


def test_public_stream_of_a_fair_start_names_every_contribution_once(
    fair_game: dict, module_redis: RedisServer
) -> None:
    told = [
        m["seat"]
        for _i, m in messages(module_redis.url, public_key("fair"))
        if m["type"] == "contributed"
    ]
    assert sorted(told) == sorted(SEATS)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--new", "greenland", "-o", "new.jsonl"], "--new sets up a game with committed dice"),
        (["--new", "greenland", "--fair"], "--new needs -o FILE"),
        (["old.jsonl", "--fair"], "--fair is for a new game (--new MODULE)"),
        (["--new", "greenland", "--fair", "-o", "old.jsonl"], "old.jsonl: already exists"),
        (
            ["--new", "greenland", "--fair", "-o", "new.jsonl", "--variant", "nonesuch"],
            "greenland: the game cannot be set up: Greenland has no variant 'nonesuch'",
        ),
        (["--new", "nonesuch", "--fair", "-o", "new.jsonl"], "nonesuch"),
        (["--new", "greenland", "--fair", "-o", "new.jsonl", "--seats", "3"], "127.0.0.1:1"),
    ],
)
def test_host_new_bad_input_is_one_line_and_nothing_is_written(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("old.jsonl").write_text("")
    assert main(["host", *args, "--redis", "redis://referee:x@127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.jsonl"]


def test_a_waiting_start_given_other_options_or_kept_damaged_is_refused_in_one_line(
    redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    setup = setup_record("greenland", "red,green", "two-player", 11)
    start = FairStart(path, redis_server.url, "waits", setup)
    start.open_seats()
    start.close()
    again = ["--redis", redis_server.url, "--name", "waits"]
    other = ["host", "--new", "greenland", "--fair", "--seats", "red,green,yellow", "-o"]
    assert main([*other, str(path), *again]) == 2
    err = capsys.readouterr().err.strip()
    assert "a start of greenland with other options waits" in err and len(err.splitlines()) == 1
    bookkeeping = sidecar_of(path)
    record = json.loads(bookkeeping.read_text())
    record["fair_start"]["secret"] = "not hex"
    bookkeeping.write_text(json.dumps(record))
    assert main(["host", str(path), *again]) == 2
    err = capsys.readouterr().err.strip()
    assert "the fair start it keeps is damaged" in err and len(err.splitlines()) == 1
    assert not path.exists()
