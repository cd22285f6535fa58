"""A whole game of Looot in the window: Blue plays with the mouse against two bots (Red and
Grey) at a 3-player table, strict throughout, to the end and the final scores (DE:52).

Blue drags its Vikings onto legal hexes (DE:20), drags each gained tile onto an empty space of
its fjord (DE:20, DE:32), drags a longship from the ocean onto its fjord when one is offered
(DE:36), and presses the phase panel's buttons for shields (DE:40-44), trophies (DE:48) and the
end of the turn; the panel asks Blue which shield or trophy, and the bots play their own turns
when 'Let the bots play' is pressed."""

from __future__ import annotations

import random

import pytest
from PySide6.QtWidgets import QPushButton

from rules_assist.looot.moves import looot_game
from rules_assist.looot.reading import Looot
from rules_assist.looot.rules.legal import longship_offers, viking_spaces
from tabletop.modules import find_module
from tests.ui.conftest import Table, games_dir, settings, settings_path, window  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEATS = ["blue", "red", "grey"]


@pytest.fixture
def table(qtbot, window):  # noqa: ANN001, ANN201, F811
    return Table(qtbot, window)


def buttons(panel) -> list[QPushButton]:  # noqa: ANN001
    layout = panel.buttons
    return [layout.itemAt(i).widget() for i in range(layout.count())]


def press(panel, start: str) -> bool:  # noqa: ANN001
    """Press the panel's button whose label starts with ``start``; False when there is none."""
    found = [b for b in buttons(panel) if b.text().startswith(start)]
    if not found:
        return False
    found[0].click()
    return True


def test_de52_a_whole_three_player_game_in_the_window_against_two_bots(table) -> None:  # noqa: ANN001
    table.start(find_module("looot"), seats="blue,red,grey", seed=4)
    main, session = table.window, table.session
    main.actions_by_name["mode_strict"].trigger()
    panel = main.phase_panel
    panel.auto_bots = False  # 'Let the bots play' is pressed as a person would
    for seat in ("red", "grey"):
        assert session.set_bot(seat, "random")
    pick = random.Random(4)
    asked: list[str] = []

    def blue_answers(need):  # noqa: ANN001, ANN202 - Blue's choice in the panel's dialog
        asked.append(need.question.key)
        return pick.choice(list(need.options))

    panel.answerer = blue_answers
    game = looot_game()
    drags = {"viking": 0, "tile": 0, "longship": 0}
    presses = {"shield": 0, "trophy": 0, "pass": 0}
    for _ in range(1500):
        state = table.live.state
        lo = Looot(state, game)
        if lo.phase == "over":
            break
        if lo.to_move != "blue":
            assert press(panel, "Let the bots play"), [b.text() for b in buttons(panel)]
            continue
        if lo.phase == "vikings":
            if presses["shield"] < 3 and pick.random() < 0.3 and press(panel, "blue: use a shield"):
                presses["shield"] += 1
                continue
            viking = lo.vikings_left("blue")[-1]
            target = pick.choice(viking_spaces(lo, "blue"))
            table.drag(table.piece_point(viking), table.spot_point("landscape", target))
            moved = table.live.state.pieces[viking]
            assert (moved.place, moved.spot) == ("landscape", target), table.status()
            drags["viking"] += 1
        elif lo.phase == "tiles":
            tile = lo.gained("blue")[-1]
            space = pick.choice(lo.free_spaces("blue"))
            table.drag(table.piece_point(tile), table.spot_point("fjord_blue", space))
            laid = table.live.state.pieces[tile]
            assert (laid.place, laid.spot) == ("fjord_blue", space), table.status()
            drags["tile"] += 1
        else:
            ships = longship_offers(lo, "blue")
            free = lo.free_spaces("blue")
            if ships and free and drags["longship"] < 3 and pick.random() < 0.5:
                ship = ships[0]
                space = pick.choice(free)
                table.drag(table.piece_point(ship), table.spot_point("fjord_blue", space))
                taken = table.live.state.pieces[ship]
                assert (taken.place, taken.spot) == ("fjord_blue", space), table.status()
                drags["longship"] += 1
            elif press(panel, "blue: claim a trophy"):
                presses["trophy"] += 1
            else:
                assert press(panel, "blue: end the turn"), [b.text() for b in buttons(panel)]
                presses["pass"] += 1
    else:
        raise AssertionError("the game does not end")

    state = table.live.state
    lo = Looot(state, game)
    assert lo.phase == "over"
    assert not lo.vikings_left("blue") and drags["viking"] == 13  # DE:52: every Viking placed
    assert drags["tile"] >= 13 and presses["pass"] >= 13 - presses["shield"]  # PlayAgain: 2 a turn
    assert all(e.override is None for e in table.live.entries), "strict: nothing forced"
    assert {e.actor for e in table.live.entries} >= {"bot:red", "bot:grey"}
    score = main.docks["score"].widget()
    score.refresh()
    assert score.final
    rows = {row["seat"]: row for row in game.score(state)}
    assert set(rows) == set(SEATS) and all(row["final"] for row in rows.values())
    assert any(row["winner"] for row in rows.values())
    # the log speaks of seats, terrain and tiles as players do, never of piece ids
    words = [e.command.describe() for e in table.live.entries if e.actor == "blue"]
    assert any(w.startswith("Blue puts a Viking on the ") for w in words), words[:5]
    assert not any("viking-blue" in w for w in words), words
