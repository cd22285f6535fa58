"""A seat's view of a game (tabletop/persist/seatview.py) on a small table of cards: a deck
shuffled, cards drawn into hands, turned up and down, peeked at, a cube on a card.

Each copy is written by ``export`` and read back as any log is (``Game.open``); the checks
of tests/persist/seatview_checks.py compare it entry by entry with the full game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tabletop.core import Seat, Table, actions
from tabletop.persist import Game, Header, LogError
from tabletop.persist.seatview import SeatView, ViewError, export, project, seat_view_of
from tests.persist.seatview_checks import picture, steps

SEATS = [Seat("red", "Ann"), Seat("yellow", "Bo")]
CARDS = [f"card-{n}" for n in range(1, 9)]


def _lay_out(table: Table) -> None:
    for spec in (
        {"id": "deck", "kind": "deck", "label": "Deck"},
        {"id": "row", "kind": "row", "label": "Row"},
        {"id": "hand_red", "kind": "hand", "owner": "red"},
        {"id": "hand_yellow", "kind": "hand", "owner": "yellow"},
        {"id": "supply", "kind": "bowl"},
    ):
        table.submit(actions.add_place(spec), "setup", undoable=False)
    for card in CARDS:
        record = {"id": card, "kind": "card", "face_up": False, "props": {"deck": "toy"}}
        table.submit(actions.add_piece(table.state, record, "deck"), "setup", undoable=False)
        regions = {"id": card, "kind": "regions", "parent": card, "spots": ["top"]}
        table.submit(actions.add_place(regions), "setup", undoable=False)
    cube = {"id": "cube-red", "kind": "cube", "owner": "red"}
    table.submit(actions.add_piece(table.state, cube, "supply"), "setup", undoable=False)


def _game(path: Path, seed: int) -> Game:
    game = Game.create(Header("toy", seats=list(SEATS), seed=seed), _lay_out, path)
    game.table.clock = lambda: 0.0
    game.table.shuffle("deck", "setup", undoable=False)
    return game


def _play(game: Game) -> None:
    table, state = game.table, game.state
    top = state.top("deck")
    table.submit(actions.move(state, top, "hand_red"), "red")  # red draws: only red sees it
    table.submit(actions.move(state, state.top("deck"), "hand_yellow"), "yellow")
    table.submit(actions.peek(state, "yellow", "deck", 2), "yellow")
    card = state.top("deck")
    table.submit(actions.move(state, card, "row"), "red")
    table.submit(actions.flip(state, card), "red")  # turned up in the row: everyone sees it
    table.submit(actions.move(state, "cube-red", card, spot="top"), "red")
    table.submit(actions.flip(state, card), "red")  # face down again, the cube still on it
    table.submit(actions.move(state, card, "hand_yellow"), "yellow")  # the cube rides along
    table.undo("yellow")
    table.submit(actions.move(state, top, "deck"), "red")  # back into the deck
    table.shuffle("deck", "red")


def _copy(game: Game, viewer: str | None, path: Path) -> list[dict[str, Any]]:
    export(game.table, game.header, viewer, path)
    return [json.loads(line) for line in path.read_text().splitlines()]


def _without_time(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in line.items() if k not in ("t", "created")} for line in lines]


def test_a_copy_replays_to_exactly_what_its_seat_sees_after_every_entry(tmp_path: Path) -> None:
    game = _game(tmp_path / "game.jsonl", 1)
    _play(game)
    for viewer in ("red", "yellow", None):
        out = tmp_path / f"copy-{viewer}.jsonl"
        lines = _copy(game, viewer, out)
        copy = Game.open(out, writable=False)
        assert seat_view_of(copy.header) == (True, viewer)
        full, view = game.table.state_at(0), copy.table.state_at(0)
        for entry, shown, line in zip(
            game.table.entries, copy.table.entries, lines[1:], strict=True
        ):
            for step in steps(entry.command):
                step.apply(full)
            shown.command.apply(view)
            assert picture(view, viewer) == picture(full, viewer), (viewer, entry.seq)
            assert line["digest"] == view.digest()
        copy.close()
    game.close()


def test_a_shuffled_decks_order_is_in_no_copy(tmp_path: Path) -> None:
    """Two games alike but for their shuffles: each seat's copy is the same, byte for byte, up
    to the first entry showing that seat a card (red's draw for red; nothing for yellow and a
    spectator until a card is turned up in the row)."""
    copies: dict[tuple[int, str | None], list[dict[str, Any]]] = {}
    fulls = []
    for seed in (1, 2):
        game = _game(tmp_path / f"game-{seed}.jsonl", seed)
        _play(game)
        fulls.append([e.command.to_dict() for e in game.table.entries])
        for viewer in ("red", "yellow", None):
            copies[seed, viewer] = _without_time(
                _copy(game, viewer, tmp_path / f"copy-{seed}-{viewer}.jsonl")
            )
        game.close()
    shuffle = next(i for i, c in enumerate(fulls[0]) if c["op"] == "shuffle")
    assert fulls[0][shuffle] != fulls[1][shuffle]
    # the line after the header is entry 1: red's draw is line shuffle + 2, yellow's the next
    reds, yellows = shuffle + 2, shuffle + 3
    assert copies[1, "red"][:reds] == copies[2, "red"][:reds]
    assert copies[1, "yellow"][:yellows] == copies[2, "yellow"][:yellows]
    one, two = copies[1, None], copies[2, None]
    turned_up = next(i for i, line in enumerate(one) if '"flip"' in json.dumps(line.get("cmd")))
    assert turned_up > yellows and one[:turned_up] == two[:turned_up]
    for seed in (1, 2):  # what the seats drew, each sees: the copies part there
        assert copies[seed, "red"][reds] != copies[3 - seed, "red"][reds]


def test_a_card_seen_and_hidden_again_comes_back_under_a_fresh_id(tmp_path: Path) -> None:
    """The card turned up in the row and down again: a spectator's copy shows it (its
    stand-in replaced by the card), then hides it under a stand-in never used before, so
    nothing ties it to the card it was."""
    game = _game(tmp_path / "game.jsonl", 1)
    _play(game)
    lines = _copy(game, None, tmp_path / "copy.jsonl")
    game.close()
    used: list[str] = []  # the stand-ins in the order they turn up
    shown, hidden = [], []
    for line in lines[1:]:
        for text in re.findall(r'"(hidden-\d+)"', json.dumps(line)):
            if text not in used:
                used.append(text)
        for replaced in _replacements(line.get("cmd")):
            old, new = replaced["old"]["id"], replaced["new"]["id"]
            (hidden if new.startswith("hidden-") else shown).append((old, new, line["seq"]))
    (stand_in, card, at), *_ = shown
    again = next(h for h in hidden if h[0] == card)
    assert stand_in.startswith("hidden-") and again[2] > at
    assert used.index(again[1]) > used.index(stand_in)  # a new stand-in, first seen there
    assert all(again[1] not in json.dumps(line) for line in lines[: again[2]])


def _replacements(command: Any) -> list[dict[str, Any]]:
    if isinstance(command, dict):
        found = [command] if command.get("op") == "replace" else []
        return found + [r for v in command.values() for r in _replacements(v)]
    if isinstance(command, list):
        return [r for v in command for r in _replacements(v)]
    return []


def test_a_peek_shows_the_cards_to_the_peeker_only(tmp_path: Path) -> None:
    game = _game(tmp_path / "game.jsonl", 1)
    _play(game)
    peeked = next(e for e in game.table.entries if e.command.op == "peek").command.pieces
    for viewer in ("yellow", "red", None):
        text = (tmp_path / f"{viewer}.jsonl").name
        lines = _copy(game, viewer, tmp_path / text)
        line = next(json.dumps(x) for x in lines[1:] if "peek" in json.dumps(x.get("cmd")))
        for card in peeked:
            assert (f'"{card}"' in line) == (viewer == "yellow")
    game.close()


def test_a_copy_opens_read_only_and_cannot_be_exported_again(tmp_path: Path) -> None:
    game = _game(tmp_path / "game.jsonl", 1)
    _play(game)
    _copy(game, "red", tmp_path / "copy.jsonl")
    with pytest.raises(ViewError, match="no seat 'blue'"):
        export(game.table, game.header, "blue", tmp_path / "blue.jsonl")
    game.close()
    with pytest.raises(LogError, match="Ann.s copy of a game .* read-only"):
        Game.open(tmp_path / "copy.jsonl")
    copy = Game.open(tmp_path / "copy.jsonl", writable=False)
    with pytest.raises(ViewError, match="already a seat's copy"):
        export(copy.table, copy.header, "red", tmp_path / "again.jsonl")
    assert not (tmp_path / "again.jsonl").exists() and not (tmp_path / "blue.jsonl").exists()


def test_a_counter_naming_a_hidden_card_names_its_stand_in(tmp_path: Path) -> None:
    """A game's counter may name a card (the one a seat chose): in the copy of a seat that
    cannot see it, the counter names the card's stand-in, never the card."""
    game = _game(tmp_path / "game.jsonl", 1)
    _play(game)
    card = game.state.places["hand_yellow"].contents[0]
    game.table.submit(actions.set_counter(game.state, "chosen", {"yellow": [card]}), "yellow")
    for viewer, sees in (("yellow", True), ("red", False), (None, False)):
        out = tmp_path / f"copy-{viewer}.jsonl"
        _copy(game, viewer, out)
        assert (card in out.read_text()) == sees
        copy = Game.open(out, writable=False)
        named = copy.state.counters["chosen"]["yellow"][0]
        assert named == copy.state.places["hand_yellow"].contents[0]
        assert (named == card) == sees
        copy.close()
    game.close()


def test_a_seat_view_follows_a_live_table_entry_by_entry(tmp_path: Path) -> None:
    """What a referee sends a seat as the game goes (``SeatView.follow`` after each entry)
    is what the finished game's copy holds, and its table is the seat's after each entry."""
    game = _game(tmp_path / "game.jsonl", 1)
    live = SeatView(game.table, "yellow")
    sent = list(live.follow())
    game.table.subscribe(lambda _change: sent.extend(live.follow()))
    _play(game)
    finished = project(game.table, "yellow")
    assert [(e.to_dict(), d) for e, d in sent] == [(e.to_dict(), d) for e, d in finished]
    assert live.state.digest() == sent[-1][1]
    game.close()


def test_a_copys_header_keeps_nothing_of_the_full_games_secrets(tmp_path: Path) -> None:
    """The copy's header says what the game is (module, decks, seats, options, the rules'
    policy) and whose copy it is; never the seed nor another extra (a commitment's secret
    seed, where the game was branched from)."""
    header = Header(
        "toy",
        seats=list(SEATS),
        seed=987654321,
        notes="Tuesday's group",
        extra={
            "options": {"colours": "chosen"},
            "randomness": {"secret": "5ecret-seed-material", "commitment": "ab12"},
            "branched_from": {"file": "earlier.jsonl", "seq": 3},
        },
    )
    game = Game.create(header, _lay_out, tmp_path / "game.jsonl")
    game.table.shuffle("deck", "setup", undoable=False)
    lines = _copy(game, "red", tmp_path / "copy.jsonl")
    game.close()
    copied = lines[0]
    assert copied["seed"] == 0 and copied["notes"] == "Tuesday's group"
    assert copied["extra"] == {
        "options": {"colours": "chosen"},
        "seat_view": {"seat": "red", "entries": len(lines) - 1},
    }
    text = (tmp_path / "copy.jsonl").read_text()
    for secret in ("987654321", "5ecret-seed-material", "earlier.jsonl", '"draws"'):
        assert secret not in text
