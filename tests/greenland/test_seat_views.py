"""``tabletop check --seat`` and ``tabletop score --seat`` say nothing a seat may not see, as
``tabletop inspect --seat`` (tabletop/visibility.py): other hands and face-down cards stay
unnamed (B2: a hand is its owner's)."""

from __future__ import annotations

import json
import re

import pytest

from tabletop.modules import find_module
from tabletop.visibility import can_see

from .tables import cli, game_file, opened

# Yellow holds three cards with room for one (B2: the reminder names the cards); the decks and
# the events lie face down
OVER = """
phase = "negotiation"
turn = 2
[cultures.yellow]
unassigned = 3
hand = ["Slit Goggles", "Toggle-head Harpoon", "Dogs"]
"""


def hidden_names(path, seat: str) -> set[str]:
    """Every id and name of a card ``seat`` may not see on the game's table."""
    state = opened(path).state
    rows = find_module("greenland").decks["greenland"].cards
    names: set[str] = set()
    for pid, piece in state.pieces.items():
        if can_see(state, piece, seat):
            continue
        names |= {pid, str(piece.props.get("card", pid))}
        names |= {r["name"] for r in rows if r["card"] == pid or r["id"] == piece.props.get("card")}
    return names


def named(text: str, names: set[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I)]


@pytest.mark.parametrize("command", ["check", "score"])
@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["text", "json"])
def test_b2_a_seats_view_never_names_a_card_hidden_from_it(
    tmp_path, capsys, command, json_flag
) -> None:
    path = game_file(tmp_path, OVER)
    code, referee, err = cli(capsys, command, str(path), *json_flag)
    assert code == 0, err
    for seat in ("red", "green"):
        code, seen, err = cli(capsys, command, str(path), "--seat", seat, *json_flag)
        assert code == 0, err
        assert named(seen, hidden_names(path, seat)) == []
    if command == "check":  # the referee names yellow's cards; red reads the reminder without them
        assert "slit-goggles" in referee
        code, seen, _ = cli(capsys, "check", str(path), "--seat", "red", "--json")
        (finding,) = [f for f in json.loads(seen) if f["rule"] == "B2"]
        assert finding["pieces"] == ["(hidden)"] * 3
        assert finding["message"].startswith("yellow holds 3 hand cards")
        code, own, _ = cli(capsys, "check", str(path), "--seat", "yellow")
        assert "slit-goggles" in own  # its own hand it sees


def test_a_seat_not_at_the_table_is_one_line(tmp_path, capsys) -> None:
    path = game_file(tmp_path, OVER)
    for command in ("check", "score"):
        code, printed, err = cli(capsys, command, str(path), "--seat", "blue")
        assert code == 2 and printed == "" and err.count("\n") == 1 and "no seat 'blue'" in err
