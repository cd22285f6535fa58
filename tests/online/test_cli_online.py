"""``tabletop host`` and ``tabletop join`` on the command line: a whole game refereed with
every seat given to the referee's bots, and bad input answered by one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.online.server import RedisServer
from tabletop.online.streams import Address
from tests.online.helpers import new_greenland


def test_host_with_every_seat_a_bot_plays_the_game_and_prints_the_spectators_address(
    redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", ["red", "green"], seed=4)
    code = main(
        ["host", str(path), "--redis", redis_server.url, "--name", "solo", "--bots", "red,green"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "game solo: over after" in out
    spectator = next(line.split(": ", 1)[1] for line in out.splitlines() if "spectator:" in line)
    address = Address.parse(spectator.strip())
    assert (address.game, address.seat, address.user) == ("solo", None, "solo.spectator")
    assert "red:" not in out  # a seat played by the referee's bot has no address to give


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["join", "nonsense", "--bot"], "is not a join address"),
        (["join", "redis://a:b@127.0.0.1:1/?game=g&seat=red"], "cannot connect"),
        (["host", "missing.jsonl", "--redis", "redis://referee:x@127.0.0.1:1"], "no such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_host_with_a_wrong_password_says_so_in_one_line(
    redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = new_greenland(tmp_path / "game.jsonl", ["red", "green"], seed=4)
    url = f"redis://referee:wrong@127.0.0.1:{redis_server.port}"
    assert main(["host", str(path), "--redis", url]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "tabletop host" in err
