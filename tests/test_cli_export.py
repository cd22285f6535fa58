"""``tabletop export FILE --for SEAT | --spectator -o OUT``: a seat's copy of a game, and how
the other commands treat a copy (read as its seat, never written to); one clear line, exit 2,
for each bad input, and nothing written then."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.core import actions
from tabletop.persist import Game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """A proto game where Red draws the deck's top card face down into its hand."""
    path = tmp_path / "game.jsonl"
    code, _, _ = run(
        capsys, "new", "proto", "--seats", "red=Ann,blue=Bo", "--seed", "4", "-o", str(path)
    )
    assert code == 0
    with Game.open(path) as game:
        card = game.state.top("deck")
        game.table.submit(actions.move(game.state, card, "hand_red"), "red")
    return path, card


def test_export_writes_each_seats_copy_read_as_that_seat(
    played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, card = played
    for who, flag, reader in (
        ("red", ["--for", "red"], ["--seat", "red"]),
        ("blue", ["--for", "blue"], ["--seat", "blue"]),
        ("spectator", ["--spectator"], ["--spectator"]),
    ):
        out = tmp_path / f"{who}.jsonl"
        code, said, err = run(capsys, "export", str(path), *flag, "-o", str(out))
        assert code == 0 and not err
        assert f"{out}:" in said and "(read-only)" in said
        assert ("Ann's copy" in said) == (who == "red")
        text = out.read_text()
        header = json.loads(text.splitlines()[0])
        assert header["seed"] == 0 and "seat_view" in header["extra"]
        assert (f'"{card}"' in text) == (who == "red")  # the drawn card: only in Red's copy
        _, full_lines, _ = run(capsys, "log", str(path), *reader)
        code, copy_lines, _ = run(capsys, "log", str(out))
        assert code == 0 and copy_lines == full_lines
        code, inspected, _ = run(capsys, "inspect", str(out))
        assert code == 0 and "seed" not in inspected.splitlines()[0]
        assert ("Ann's copy" if who == "red" else "copy") in inspected.splitlines()[0]


def test_a_copy_is_drawn_as_its_seat_sees_it(
    played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    out = tmp_path / "red.jsonl"
    assert main(["export", str(path), "--for", "red", "-o", str(out)]) == 0
    code, said, _ = run(capsys, "render", str(out), "-o", str(tmp_path / "red.png"))
    assert code == 0 and "as Ann sees it" in said
    assert (tmp_path / "red.png").stat().st_size > 0


def test_nothing_is_played_on_a_copy(
    played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    out = tmp_path / "red.jsonl"
    assert run(capsys, "export", str(path), "--for", "red", "-o", str(out))[0] == 0
    before = out.read_bytes()
    moved = tmp_path / "moved.jsonl"
    for argv in (
        ["move", str(out), "--piece", "cube-red-1", "--to", "map:1,1", "-o", str(moved)],
        ["note", str(out), "--tag", "idea", "a remark"],
        ["export", str(out), "--for", "red", "-o", str(tmp_path / "again.jsonl")],
    ):
        code, said, err = run(capsys, *argv)
        assert code == 2 and not said and len(err.strip().splitlines()) == 1, err
        assert "copy" in err and "Traceback" not in err
    assert (
        "Ann's copy of a game (tabletop export): it is read-only"
        in run(capsys, "note", str(out), "--tag", "idea", "x")[2]
    )
    assert out.read_bytes() == before
    assert not moved.exists() and not (tmp_path / "again.jsonl").exists()


def test_export_names_what_is_wrong(
    played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    out = tmp_path / "copy.jsonl"
    code, _, err = run(capsys, "export", str(path), "--for", "green", "-o", str(out))
    assert code == 2 and "there is no seat 'green' (seats: red, blue)" in err
    out.write_text("taken")
    code, _, err = run(capsys, "export", str(path), "--for", "red", "-o", str(out))
    assert code == 2 and "already exists" in err and out.read_text() == "taken"
    with pytest.raises(SystemExit) as exited:  # argparse's own exit, one line on stderr
        main(["export", str(path), "-o", str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "--for" in err and "--spectator" in err
    code, _, err = run(
        capsys,
        "export",
        str(tmp_path / "none.jsonl"),
        "--spectator",
        "-o",
        str(tmp_path / "y.jsonl"),
    )
    assert code == 2 and "no such file" in err
    assert not (tmp_path / "x.jsonl").exists() and not (tmp_path / "y.jsonl").exists()


def test_a_copy_whose_digests_disagree_is_refused(
    played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each entry of a copy carries the digest of the table it makes: a copy changed on the
    way (here a card's stand-in moved elsewhere) is refused, naming the entry."""
    path, _ = played
    out = tmp_path / "blue.jsonl"
    assert run(capsys, "export", str(path), "--for", "blue", "-o", str(out))[0] == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    last = lines[-1]
    assert last["cmd"]["op"] == "move" and last["cmd"]["to"]["place"] == "hand_red"
    last["cmd"]["to"]["index"] = 0
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, said, err = run(capsys, "log", str(out))
    assert code == 2 and not said
    assert f"entry {last['seq']} does not make the table its digest says" in err


def test_a_copy_of_a_game_with_committed_dice_keeps_the_commitment_and_never_the_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game with committed dice and shuffles (``new --fair``): a copy holds the public
    commitment and every seat's contribution, never the referee's secret seed, neither before
    its reveal nor after (with the seed, every shuffle could be worked out again)."""
    full, revealed = tmp_path / "fair.jsonl", tmp_path / "revealed.jsonl"
    contributions = [f"--contribution={seat}=random" for seat in ("red", "yellow", "green")]
    code, _, err = run(
        capsys,
        "new",
        "greenland",
        "--fair",
        "--seats",
        "red,yellow,green",
        *contributions,
        "-o",
        str(full),
    )
    assert code == 0, err
    assert run(capsys, "reveal", str(full), "-o", str(revealed))[0] == 0
    secret = json.loads(full.read_text().splitlines()[0])["randomness"]["secret"]
    assert secret in revealed.read_text().split("\n", 1)[1]  # the reveal entry holds it
    for source in (full, revealed):
        for who in (["--for", "yellow"], ["--spectator"]):
            out = tmp_path / f"{source.stem}-{who[-1].strip('-')}.jsonl"
            assert run(capsys, "export", str(source), *who, "-o", str(out))[0] == 0
            text = out.read_text()
            assert secret not in text
            header = json.loads(text.splitlines()[0])
            assert set(header["randomness"]) == {"scheme", "commitment"}
            assert text.count('"op":"contribute"') == 3
            code, lines, _ = run(capsys, "log", str(out))
            assert code == 0
            if source is revealed:
                assert "revealed the seed of the dice and shuffles (kept in the full game" in lines
