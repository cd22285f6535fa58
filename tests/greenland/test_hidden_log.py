"""Hidden hand cards (B2, G6) stay hidden in every reader's log: a long bot game, read entry by
entry as each seat and a spectator may read it.

The bots play a seeded standard game through selfplay.play_game (what ``tabletop simulate``
runs); between their actions Norse draws the top card of a Greenland deck face down into its
hand, as a player would at the table (a move submitted to the table), so the hand holds cards
no one else has seen. Some of them leave the hand face up later (discarded down to the hand
size, B2; played by an elder, I1/I4): from then on they are public. Every entry's line, for
every reader, is checked against the table itself, replayed beside it: no line names a card
(its id, or the name on its face) that its reader could see neither before nor after the
entry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules_assist.greenland.bots import GreedyBot, RandomBot
from rules_assist.greenland.selfplay import play_game, seats_for
from tabletop.cli import main
from tabletop.core import actions
from tabletop.log_view import LogReader
from tabletop.modules.words import piece_words
from tabletop.visibility import can_see

SEED = 3


def _names(module) -> dict[str, str]:  # noqa: ANN001
    """The name on each card's face, by deck row id (what a label calls a card)."""
    return {
        str(row["id"]): str(row["name"]) for deck in module.decks.values() for row in deck.cards
    }


def _said(name: str, line: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line) is not None


def _game_with_drawn_cards(greenland, path: Path) -> tuple:  # noqa: ANN001
    drawn: list[tuple[int, str]] = []  # (entry, card) of every face-down draw into Norse's hand
    calls = [0]

    def norse_draws(session) -> None:  # noqa: ANN001
        calls[0] += 1
        table, state = session.table, session.state
        if calls[0] % 15:
            return
        for deck in ("south_deck", "north_deck"):
            if state.places[deck].contents:
                card = state.places[deck].contents[-1]
                table.submit(actions.move(state, card, "hand_red"), "red")
                drawn.append((table.seq, card))
                return

    seats = seats_for("standard")
    bots = {c: GreedyBot() if c == "red" else RandomBot(SEED * 10 + i) for i, c in enumerate(seats)}
    game = play_game(greenland, "standard", bots, SEED, path=path, after_action=norse_draws)
    return game, drawn


def test_b2_g6_a_hand_card_is_named_only_to_the_readers_who_could_see_it(
    greenland,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # noqa: ANN001
) -> None:
    path = tmp_path / "drawn.jsonl"
    game, drawn = _game_with_drawn_cards(greenland, path)
    try:
        table = game.table
        assert table.seq >= 300 and len(drawn) >= 10
        seat_names = {s.id: s.name for s in game.header.seats}
        readers = (*seat_names, None)
        faces = _names(greenland)
        reader = LogReader(table, seat_names, piece_words(greenland))
        state = table.state_at(0)
        named_later = 0
        drawn_at = dict(drawn)
        for entry in table.entries:
            cards = [p for p in state.pieces.values() if "deck" in p.props]
            before = {v: {p.id for p in cards if can_see(state, p, v)} for v in readers}
            entry.command.apply(state)
            cards = [p for p in state.pieces.values() if "deck" in p.props]
            for viewer in readers:
                seen = before[viewer] | {p.id for p in cards if can_see(state, p, viewer)}
                public = {faces.get(p.props["card"], p.id) for p in cards if p.id in seen}
                line = reader.line(entry, viewer)
                for piece in cards:
                    if piece.id in seen:
                        continue
                    assert not _said(piece.id, line), (entry.seq, viewer, line)
                    face = faces.get(piece.props["card"])
                    if face and face not in public:  # two cards alike: the other may be seen
                        assert not _said(face, line), (entry.seq, viewer, line)
            # the draws themselves: Norse reads its card, the others read its back
            card = drawn_at.get(entry.seq)
            if card is not None:
                face = faces.get(state.pieces[card].props["card"], card)
                assert _said(face, reader.line(entry, "red"))  # the card by its name
                for viewer in ("yellow", "green", None):
                    line = reader.line(entry, viewer)
                    assert not _said(face, line) and "a Greenland card" in line
            elif any(
                _said(faces[c], reader.line(entry, None)) or _said(c, reader.line(entry, None))
                for s, c in drawn
                if s < entry.seq
            ):
                named_later += 1
        assert named_later >= 1  # a drawn card played or discarded face up: public from then
    finally:
        game.close()
    # the command line reads the file the same way
    assert main(["log", str(path), "--spectator"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "Rules: strict throughout: yes"  # the whole log: how it was refereed
    assert "\n".join(printed[:-1]) == "\n".join(reader.line(e, None) for e in table.entries)
