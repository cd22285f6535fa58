"""Log lines in the players' words (B2, G6 for the hidden hand): after setup and after hand
moves, `tabletop log` names pieces by owner and kind or by card name, places by their
labels, regions as "card · region" and seats by the names given at New game; never by the
table's ids. A card drawn face down stays "a Greenland card" to whoever did not see it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.persist import Game

SEATS = "red=Ann,yellow=Bo,green=Cy"
# the shapes of the table's ids: pieces (cube-red-2, die-1), places (hunters_red, event_deck)
ID_SHAPES = re.compile(
    r"\b[a-z]+-[a-z]+-\d+\b|\b[a-z]+-\d+\b|_deck\b|\b[a-z]+_(red|yellow|green)\b"
)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0, args
    return capsys.readouterr().out


def _log(capsys: pytest.CaptureFixture[str], path: Path, *reader: str) -> list[str]:
    return _run(capsys, "log", str(path), *reader).splitlines()


def _ids(path: Path) -> set[str]:
    """Every id on the table that is not also a plain word (cube-red-2, hand_red, ...)."""
    game = Game.open(path)
    try:
        state = game.state
        return {i for i in (*state.pieces, *state.places) if "-" in i or "_" in i}
    finally:
        game.close()


def _said(name: str, line: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line) is not None


@pytest.fixture
def new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "g.jsonl"
    _run(capsys, "new", "greenland", "-o", str(path), "--seats", SEATS, "--seed", "3")
    return path


def test_a1_setup_and_a_hunter_placed_by_hand_are_logged_in_names(
    new_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved = tmp_path / "moved.jsonl"
    _run(
        capsys,
        "move",
        str(new_game),
        "--piece",
        "cube-yellow-1",
        "--to",
        "caribou:hunters",
        "-o",
        str(moved),
    )
    ids = _ids(moved)
    for reader in ((), ("--seat", "yellow"), ("--seat", "red"), ("--spectator",)):
        lines = _log(capsys, moved, *reader)
        assert len(lines) >= 10, reader
        for line in lines:
            assert not ID_SHAPES.search(line), (reader, line)
            assert not [i for i in ids if _said(i, line)], (reader, line)
        assert "shuffled Event deck" in "\n".join(lines)
        # the hand move: the mover by name, the piece by owner and kind, places by label
        hand = [line for line in lines if line.split()[:1] == ["10"]]
        assert hand and hand[0].split()[1] == "Bo", (reader, hand)
        assert "moved Bo cube from Bo unassigned hunters to Caribou · hunters" in hand[0]


def test_b2_g6_a_card_drawn_face_down_is_named_only_to_its_hand(
    new_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = tmp_path / "drawn.jsonl"
    game = Game.open(new_game)
    try:
        card = game.state.places["north_deck"].contents[-1]
    finally:
        game.close()
    _run(
        capsys,
        "move",
        str(new_game),
        "--piece",
        card,
        "--to",
        "hand_yellow",
        "--seat",
        "yellow",
        "--mode",
        "off",
        "-o",
        str(drawn),
    )
    everything = _log(capsys, drawn)[-2]  # the file's own words: the card's name
    name = everything.split("moved ", 1)[1].split(" from ", 1)[0]
    assert name and not ID_SHAPES.search(everything) and not _said(card, everything)
    assert f"moved {name} from North Greenland deck to Bo's hand" in everything
    assert name in _log(capsys, drawn, "--seat", "yellow")[-2]
    for reader in (("--spectator",), ("--seat", "red"), ("--seat", "green")):
        lines = _log(capsys, drawn, *reader)
        assert not any(_said(name, line) or _said(card, line) for line in lines), reader
        assert "moved a Greenland card from North Greenland deck to Bo's hand" in lines[-2]
