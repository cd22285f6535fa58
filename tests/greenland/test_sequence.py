"""The turn and its phases (A1) and who goes when (A2–A5), on positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.driver import CHANCE
from rules_assist.greenland import events, sequence, turn
from rules_assist.greenland.deck import Cards
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from tabletop.modules import find_module

from .tables import build, contents, put, run, take, turn_status, view


# ---- A2 player order and the first player -----------------------------------------------
def test_a2_player_order_goes_clockwise_from_the_first_player(tmp_path: Path) -> None:
    game = build(tmp_path, "")
    v = view(game)
    assert sequence.player_order(v, "red") == ["red", "yellow", "green"]
    assert sequence.player_order(v, "green") == ["green", "red", "yellow"]
    assert sequence.player_order(v, "yellow") == ["yellow", "green", "red"]


def test_a2_c1_first_player_when_the_named_colour_is_not_in_play(tmp_path: Path) -> None:
    """C1: 'first:yellow/green' in a game of Red and Green: Green goes first; the icon
    reference's 'first:red/yellow' without Red: Yellow goes first."""
    game = build(tmp_path, 'variant = "two-player"\n', seats="red,green", variant="two-player")
    v = view(game)
    assert v.row("event-10")["event_icons"][0] == "first:yellow/green"
    assert sequence.first_player(v, "event-10") == "green"
    assert sequence.first_player(v, "syphilis") == "red"  # first:red/yellow, Red is here
    assert sequence.player_order(v, "green") == ["green", "red"]
    game = build(tmp_path, 'variant = "two-player"\n', seats="yellow,green", variant="two-player")
    assert sequence.first_player(view(game), "syphilis") == "yellow"


def test_a2_reveal_sets_the_first_player_without_a_war_chief(tmp_path: Path) -> None:
    game = build(
        tmp_path,
        'variant = "two-player"\n[cultures.green]\nunassigned = 3\nelders = {1 = 1}\n',
        seats="red,green",
        variant="two-player",
    )
    put(game, "event-10", "event_deck")
    run(game, events.reveal)
    assert game.state.counters["first_player"] == "green"
    assert game.state.pieces["event-10"].place == "event_current"
    assert game.state.pieces["event-10"].face_up


def test_a2_council_of_war(tmp_path: Path) -> None:
    """A2: the first player, with a war chief at the start of the turn, names another."""
    game = build(tmp_path, "")
    put(game, "syphilis", "event_deck")  # first:red/yellow
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.reveal)
    assert need.value.key == "council" and need.value.options == ["red", "yellow", "green"]
    change = run(game, events.reveal, {"council": "green"})
    assert game.state.counters["first_player"] == "green"
    assert sequence.player_order(view(game), "green") == ["green", "red", "yellow"]
    assert "Council of War: red names green the first player" in change.entry.command.label


def test_a2_an_extinct_culture_is_skipped(tmp_path: Path) -> None:
    """J1: a culture with every cube in Valhalla is out of the game and of the order."""
    game = build(tmp_path, '[cultures.red]\nunassigned = 0\nalpha = "valhalla"\n')
    v = view(game)
    assert sequence.in_play(v) == ["yellow", "green"]
    assert sequence.player_order(v, "green") == ["green", "yellow"]
    assert sequence.first_player(v, "syphilis") == "yellow"  # first:red/yellow


# ---- A3, A4, A5 -------------------------------------------------------------------------
def test_a4_least_hunters_roll_first(tmp_path: Path) -> None:
    """A4, G4 example: two Thule and three Tunit hunt dogs: the Thule go first; a tie goes
    in player order."""
    game = build(
        tmp_path,
        """
first_player = "green"
[rows.north]
warm = ["Dogs", "Walrus"]
[cultures.yellow]
unassigned = 1
hunters = {Dogs = 2, Walrus = 2}
[cultures.green]
unassigned = 1
hunters = {Dogs = 3}
[cultures.red]
unassigned = 1
hunters = {Walrus = 2}
""",
    )
    v = view(game)
    assert sequence.hunt_order(v, "dogs") == ["yellow", "green"]
    assert sequence.hunt_order(v, "walrus") == ["red", "yellow"]  # green, red, yellow


def test_a4_hunt_first_ability(tmp_path: Path) -> None:
    """A4: a 'hunt first' card goes before the least-hunter order (a test revision gives
    Dogs the ability; no card of the shipped deck has it)."""
    from .tables import revised_module

    module = revised_module(tmp_path, {"dogs": {"abilities": "sled;hunt_first maritime"}})
    game = build(
        tmp_path,
        """
[rows.north]
warm = ["Walrus"]
[cultures.yellow]
unassigned = 1
hunters = {Walrus = 1}
[cultures.green]
unassigned = 1
hunters = {Walrus = 3}
tableau = ["Dogs"]
""",
        module,
    )
    v = view(game, module)
    assert sequence.hunt_order(v, "walrus") == ["green", "yellow"]


def test_a5_polytheists_act_first(tmp_path: Path) -> None:
    """A5: all polytheists in player order, then all monotheists in player order."""
    game = build(
        tmp_path,
        """
first_player = "yellow"
[cultures.yellow]
religion = "monotheist"
unassigned = 2
""",
    )
    v = view(game)
    assert sequence.player_order(v, "yellow") == ["yellow", "green", "red"]
    assert sequence.elder_order(v) == ["green", "red", "yellow"]


def test_a3_most_iron_negotiates_first(tmp_path: Path) -> None:
    game = build(tmp_path, 'first_player = "red"\n[cultures.green]\nunassigned = 2\niron = 3\n')
    assert sequence.iron_order(view(game)) == ["green", "red", "yellow"]


# ---- A1 the turn ------------------------------------------------------------------------
def test_a1_six_phases_then_the_next_turn(tmp_path: Path) -> None:
    game = build(tmp_path, 'turn = 2\n[rows.north]\nwarm = ["Walrus"]\n')
    seen = []
    for _ in range(6):
        run(game, turn.next_phase)
        seen.append((game.state.counters["turn"], game.state.counters["phase"]))
    assert "game_over" not in game.state.counters
    assert seen == [
        (2, "assignment"),
        (2, "negotiation"),
        (2, "hunt"),
        (2, "animals"),
        (2, "elders"),
        (3, "event"),
    ]


def test_j_the_game_ends_after_the_last_event(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "elders"\nturn = 10\n[rows.south]\ncold = ["Shark"]\n')
    for pid in list(contents(game, "event_deck")):
        put(game, pid, "events_out")
    change = run(game, turn.next_phase)
    assert game.state.counters["game_over"] == 10
    assert "the event deck is used up: the game ends (J)" in change.entry.command.label
    with pytest.raises(ProcedureError):
        run(game, turn.next_phase)
    assert turn.status(view(game))["game_over"]


def test_j_the_game_ends_when_both_rows_are_empty(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "elders"\nturn = 4\n')
    change = run(game, turn.next_phase)
    assert game.state.counters["game_over"] == 4 and game.state.counters["turn"] == 4
    assert "no cards remain in either row" in change.entry.command.label


def test_status_says_whose_move_and_what_comes_next(tmp_path: Path) -> None:
    game = build(tmp_path, 'first_player = "yellow"\nturn = 3\n')
    status = turn.status(view(game))
    assert (status["turn"], status["phase"], status["phase_number"]) == (3, "event", 1)
    assert status["whose_move"] == "yellow" and status["text"] == "Reveal the event card (D)"
    run(game, turn.next_phase)
    run(game, turn.finish, colour="yellow")
    status = turn.status(view(game))
    assert status["phase_name"] == "Hunter assignment" and status["section"] == "E"
    assert status["order"] == ["yellow", "green", "red"] and status["done"] == ["yellow"]
    assert status["whose_move"] == "green"
    run(game, turn.finish, colour="green")
    run(game, turn.finish, colour="red")
    status = turn.status(view(game))
    assert status["whose_move"] is None
    assert status["text"] == "Next: Negotiate & attacks (F), turn 3"
    run(game, turn.next_phase)
    assert "phase.done" not in game.state.counters


def test_status_shows_the_bans(tmp_path: Path) -> None:
    game = build(tmp_path, "turn = 4\n")
    run(game, events.no_maritime)
    assert turn.status(view(game))["bans"] == ["no maritime hunting (D7)"]


def test_the_turn_flows_status_for_the_window(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "animals"\n')
    status = turn_status(game)
    assert status.phase == "animals" and status.phase_label == "Domestic animals (H)"
    assert status.to_move == CHANCE  # the table's own steps: anyone may take them
    assert [a.name for a in status.actions] == ["animals", "next-phase"]
    assert all(a.actor is None for a in status.actions)
    take(game, status.actions[-1], actor="test")
    assert game.state.counters["phase"] == "elders"
    assert game.table.entries[-1].command.procedure == "greenland.next_phase"


def test_the_game_deck_is_found_from_the_counters(tmp_path: Path) -> None:
    game = build(tmp_path, "")
    cards = sequence.cards_for(game.state)
    assert cards.rows == Cards.of(find_module("greenland")).rows
    game.state.counters["deck.sha256"] = "0" * 64
    sequence._CARDS.clear()
    with pytest.raises(ProcedureError, match="rows differ"):
        sequence.cards_for(game.state)


def test_cli_next_phase(tmp_path: Path, capsys) -> None:
    from .tables import cli_run, game_file, opened

    file = game_file(tmp_path, 'turn = 5\nphase = "hunt"\n[rows.north]\nwarm = ["Walrus"]\n')
    code, text, err, out = cli_run(capsys, tmp_path, file, "next-phase")
    assert code == 0, err
    assert text.strip() == f"{out}: next-phase: Turn 5: Domestic animals (H)"
    assert opened(out).state.counters["phase"] == "animals"
