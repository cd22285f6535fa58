"""A seat's copy of a whole Greenland game (``tabletop export``, docs/hidden-information.md):
the bots play a seeded standard game, and between their actions Norse and Thule draw the top
card of a Greenland deck face down into their hands (B2, G6), so hands hold cards only their
owner has seen; some leave the hand face up later (discarded down to the hand size, B2;
played by an elder, I1/I4).

Each seat's copy and a spectator's is checked against the full game entry by entry
(tests/persist/seatview_checks.py): its table is exactly what the seat may see, each entry
carries its view's digest, and no byte names a card the seat had not seen by then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.greenland.bots import GreedyBot, RandomBot
from rules_assist.greenland.selfplay import play_game, seats_for
from tabletop.cli import main
from tabletop.core import actions
from tabletop.modules import new_game
from tabletop.persist import Game
from tests.persist.seatview_checks import check_copies

SEED = 3


def _faces(module) -> dict[str, str]:  # noqa: ANN001
    return {str(row["id"]): str(row["name"]) for d in module.decks.values() for row in d.cards}


def _game_with_hands(greenland, path: Path) -> Game:  # noqa: ANN001
    calls = [0]

    def draws(session) -> None:  # noqa: ANN001
        calls[0] += 1
        table, state = session.table, session.state
        if calls[0] % 12:
            return
        hand = "hand_red" if calls[0] % 24 else "hand_yellow"
        for deck in ("south_deck", "north_deck"):
            if state.places[deck].contents:
                card = state.places[deck].contents[-1]
                table.submit(actions.move(state, card, hand), hand.removeprefix("hand_"))
                return

    seats = seats_for("standard")
    bots = {c: GreedyBot() if c == "red" else RandomBot(SEED * 10 + i) for i, c in enumerate(seats)}
    return play_game(greenland, "standard", bots, SEED, path=path, after_action=draws)


@pytest.fixture(scope="module")
def hands_game(greenland, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: ANN001
    """The game's file (played once for the tests of this file)."""
    path = tmp_path_factory.mktemp("hands") / "game.jsonl"
    _game_with_hands(greenland, path).close()
    return path


def test_b2_g6_every_seats_copy_shows_that_seat_exactly_its_view_and_no_hidden_card(
    greenland,
    hands_game: Path,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    game = Game.open(hands_game, writable=False)
    try:
        cards = {pid for pid, p in game.state.pieces.items() if "deck" in p.props}
        report = check_copies(game, _faces(greenland), tmp_path, cards)
    finally:
        game.close()
    # Norse and Thule held cards the others never saw; every reader saw fewer than all
    assert report["red"]["seen"] > report["green"]["seen"]
    assert report["yellow"]["seen"] > report["green"]["seen"]
    assert report["spectator"]["never"] >= report["green"]["never"] > 0
    assert all(report[v]["shuffles"] >= 3 for v in report)  # the three decks, at the setup


def test_g6_a_seats_copy_reads_in_the_log_panels_words(
    hands_game: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for seat, flag in (("red", ["--seat", "red"]), ("spectator", ["--spectator"])):
        out = tmp_path / f"{seat}.jsonl"
        who = ["--for", seat] if seat != "spectator" else ["--spectator"]
        assert main(["export", str(hands_game), *who, "-o", str(out)]) == 0
        capsys.readouterr()
        assert main(["log", str(hands_game), *flag]) == 0
        full = capsys.readouterr().out
        assert main(["log", str(out)]) == 0
        assert capsys.readouterr().out == full
        assert "a Greenland card" in full


def _lines_without_time(path: Path) -> list[dict]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        line.pop("t", None)
        line.pop("created", None)
    return lines


def test_a_deck_order_is_in_no_copy_two_setups_differing_only_in_their_shuffles(
    greenland, tmp_path: Path
) -> None:  # noqa: ANN001
    """Two games set up with different seeds: their decks are shuffled differently, so the full
    logs differ from the first shuffle; each copy is the same line for line up to the first
    entry that shows a card face up (the setup laying cards out)."""
    copies = {}
    for seed in (1, 2):
        full = tmp_path / f"full-{seed}.jsonl"
        new_game(greenland, seats=["red", "yellow", "green"], seed=seed, path=full).close()
        for viewer in ("red", None):
            out = tmp_path / f"copy-{seed}-{viewer}.jsonl"
            who = ["--for", viewer] if viewer else ["--spectator"]
            assert main(["export", str(full), *who, "-o", str(out)]) == 0
            copies[seed, viewer] = _lines_without_time(out)
    one, two = (_lines_without_time(tmp_path / f"full-{s}.jsonl") for s in (1, 2))
    shuffled = next(i for i, line in enumerate(one) if '"shuffle"' in json.dumps(line))
    assert one[shuffled] != two[shuffled]  # the full logs write each deck's order
    for viewer in ("red", None):
        a, b = copies[1, viewer], copies[2, viewer]
        first_apart = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        assert first_apart > shuffled  # the shuffles are the same in both copies
        assert a[:first_apart] == b[:first_apart]
        assert _reveals(a[first_apart]) and _reveals(b[first_apart])  # cards laid face up


def _reveals(line: object) -> bool:
    """Whether a copy's line shows a card: a replacement whose new piece is not anonymous."""
    if isinstance(line, dict):
        if line.get("op") == "replace" and not line["new"].get("props", {}).get("anonymous"):
            return True
        return any(_reveals(v) for v in line.values())
    if isinstance(line, list):
        return any(_reveals(v) for v in line)
    return False


def test_a_hidden_cards_stand_in_shows_the_back_of_its_deck(greenland, tmp_path: Path) -> None:
    """A stand-in holds the back its card shows across the table (the game's card view names
    it: a North Greenland deck's cards show North Greenland backs), drawn as the card's own."""
    full = tmp_path / "full.jsonl"
    new_game(greenland, seats=["red", "yellow", "green"], seed=5, path=full).close()
    out = tmp_path / "copy.jsonl"
    assert main(["export", str(full), "--spectator", "-o", str(out)]) == 0
    with Game.open(full, writable=False) as game, Game.open(out, writable=False) as copy:
        for deck, label in (
            ("north_deck", "North"),
            ("south_deck", "South"),
            ("event_deck", "Event"),
        ):
            cards = game.state.places[deck].contents
            stand_ins = copy.state.places[deck].contents
            assert len(stand_ins) == len(cards) > 0
            backs = {tuple(copy.state.pieces[p].props["back"]) for p in stand_ins}
            assert len(backs) == 1 and label in next(iter(backs))[1], backs
            assert not set(stand_ins) & set(cards)
