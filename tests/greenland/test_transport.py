"""E1 with E2 and E4: a mariner carries 4 cubes to one card a turn, remembered over the turn.

The assignment phase is reached as the game reaches it (``turn.next_phase``), which
records the colonists as the phase begins; then every command is a hand move submitted
to the table with the game's checker, and the audit (``tabletop check``) reads the same
table.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_assist.greenland.turn import next_phase
from tabletop.core import Mode, Policy, actions
from tabletop.modules import find_module
from tabletop.modules.rules import game_of

from .tables import build, cli, run

# The Norse (homeland: the South row) with one mariner; Walrus and Caribou lie in the North
POSITION = """
turn = 3
phase = "event"
[rows.north]
warm = ["Walrus", "Caribou"]
[rows.south]
warm = ["Shark", "Vinland"]
[cultures.red]
unassigned = 9
elders = {6 = MARINERS}
colonists = {Vinland = COLONISTS}
"""


def assigning(tmp_path: Path, mariners: int = 1, colonists: int = 0, **kw):
    """The position, moved on to the assignment phase as the game does, with the checker."""
    text = POSITION.replace("MARINERS", str(mariners)).replace("COLONISTS", str(colonists))
    if not colonists:
        text = text.replace("colonists = {Vinland = 0}\n", "")
    game = build(tmp_path, text, **kw)
    run(game, next_phase)
    assert game.state.counters["phase"] == "assignment"
    game.table.checker = game_of(find_module("greenland")).checker()
    game.table.policy = Policy(Mode.ADVISORY)
    return game


def hunters(game, count: int) -> list[str]:
    return [p for p in game.state.places["hunters_red"].contents if p.startswith("cube")][:count]


def send(game, cubes: list[str], card: str):
    """The cubes to a card, one command (a player's hand moves)."""
    command = actions.build_sequence(
        game.state,
        f"{len(cubes)} to {card}",
        [lambda s, c=c: actions.move(s, c, card, spot="hunters") for c in cubes],
    )
    return game.table.submit(command, "red")


def rules_of(change) -> list[str]:
    return [f.rule for f in change.findings]


def test_e1_a_mariner_that_carried_colonists_carries_no_hunters_the_same_turn(tmp_path) -> None:
    """E1, E2: one mariner takes 4 colonists to Vinland; the same turn it cannot also take 4
    hunters to the North (before, the colonists' trip was forgotten once made)."""
    game = assigning(tmp_path)
    assert rules_of(send(game, hunters(game, 4), "vinland")) == []
    change = send(game, hunters(game, 4), "walrus")
    assert rules_of(change) == ["E1"]
    message = change.findings[0].message
    assert "Walrus (4)" in message and "colonists carried to the New World this turn" in message
    assert "need 2 mariner(s)" in message and "red has 1" in message
    game.table.undo("red")
    assert rules_of(send(game, hunters(game, 4), "shark")) == []  # the homeland needs none


def test_e1_colonists_in_several_commands_count_together(tmp_path) -> None:
    """E1, E2: 4 cubes to one card a mariner a turn, however many commands bring them: 3 then
    1 fill the mariner; a fifth needs another."""
    game = assigning(tmp_path)
    assert rules_of(send(game, hunters(game, 3), "vinland")) == []
    assert rules_of(send(game, hunters(game, 1), "vinland")) == []
    change = send(game, hunters(game, 1), "vinland")
    assert rules_of(change) == ["E1"] and "(Vinland (5), E2)" in change.findings[0].message
    assert len(change.findings[0].pieces) == 5


def test_e1_the_audit_remembers_the_turn(tmp_path, capsys) -> None:
    """The same table judged whole: ``tabletop check`` names E1 for the mariner used twice."""
    path = tmp_path / "game.jsonl"
    game = assigning(tmp_path, path=str(path))
    game.table.checker = None  # the table as a file may hold anything
    send(game, hunters(game, 4), "vinland")
    send(game, hunters(game, 4), "walrus")
    game.close()
    code, text, err = cli(capsys, "check", str(path), "--json")
    assert code == 0, err
    found = [f for f in json.loads(text) if f["rule"] == "E1"]
    assert len(found) == 1 and "colonists carried to the New World this turn" in found[0]["message"]
    assert len(found[0]["pieces"]) == 8


def test_e1_e4_the_mariners_that_evacuate_a_colony_are_used(tmp_path) -> None:
    """E4: a colony is abandoned by unused mariners (E1); those mariners do not also carry
    hunters outside the homeland that turn. With two mariners, one brings the 4 colonists
    home and the other carries 4 hunters North; with one, the second trip is refused."""
    for mariners, expected in ((2, []), (1, ["E1"])):
        game = assigning(tmp_path, mariners=mariners, colonists=4)
        colonists = list(game.state.places["vinland"].contents)
        assert rules_of(send(game, colonists, "shark")) == []  # abandoned whole, to hunt
        change = send(game, hunters(game, 4), "walrus")
        assert rules_of(change) == expected
        if expected:
            assert "4 colonist(s) brought back from the New World" in change.findings[0].message


def test_e1_colonists_of_earlier_turns_need_no_mariner(tmp_path) -> None:
    """E2: colonists who came in an earlier turn stay without a mariner; the one mariner is
    free for hunters outside the homeland."""
    game = assigning(tmp_path, colonists=6)
    assert rules_of(send(game, hunters(game, 4), "walrus")) == []
    assert rules_of(send(game, hunters(game, 1), "caribou")) == ["E1"]  # a second card
