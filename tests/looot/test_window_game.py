"""A whole game of Looot in the window: Blue plays with the mouse against two bots (Red and
Grey) at a 3-player table, strict throughout, to the end and the final scores (DE:52).

Blue drags its Vikings onto legal hexes (DE:20), drags each gained tile onto an empty space of
its fjord (DE:20, DE:32), drags a longship from the ocean onto its fjord (DE:36), and presses
the phase panel's buttons for shields (DE:40-44), trophies (DE:48) and the end of the turn,
answering the panel's question of which shield or trophy; the bots play their own turns when
'Let the bots play' is pressed. What Blue does is what an adviser (the module's greedy bot,
asked on Blue's behalf) suggests, so the game is a fair one; every move of it is made by hand."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton

from rules_assist.looot.bots import GreedyBot
from rules_assist.looot.card_view import SITE_DONE
from rules_assist.looot.moves import looot_game
from rules_assist.looot.reading import Looot
from rules_assist.looot.rules.legal import viking_spaces
from tabletop.modules import find_module
from tabletop.ui.token_art import seen_of
from tabletop.visibility import can_see
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


def play_blue_by_hand(table, panel, adviser, asked, counts) -> None:  # noqa: ANN001
    """Blue's next step, by the mouse or the panel's buttons, as the adviser suggests."""
    lo = Looot(table.live.state, looot_game())
    step = adviser.act(panel.driver, "blue", list(panel.offered))
    plan = dict(adviser.plan)
    asked.clear()
    asked.update(plan)
    if step.name == "viking":
        viking, target = lo.vikings_left("blue")[-1], plan["hex"]
        assert target in viking_spaces(lo, "blue")
        table.drag(table.piece_point(viking), table.spot_point("landscape", target))
        moved = table.live.state.pieces[viking]
        assert (moved.place, moved.spot) == ("landscape", target), table.status()
    elif step.name == "place":
        kind = plan["tile"].partition(" from ")[0]  # the top tile of that kind's pile
        tile = [p for p in lo.gained("blue") if lo.state.pieces[p].kind == kind][-1]
        table.drag(table.piece_point(tile), table.spot_point("fjord_blue", plan["space"]))
        laid = table.live.state.pieces[tile]
        assert (laid.place, laid.spot) == ("fjord_blue", plan["space"]), table.status()
    elif step.name == "longship":
        ship = f"longship-{plan['longship']}"
        table.drag(table.piece_point(ship), table.spot_point("fjord_blue", plan["space"]))
        taken = table.live.state.pieces[ship]
        assert (taken.place, taken.spot) == ("fjord_blue", plan["space"]), table.status()
    else:  # a shield, a trophy, the end of the turn: the panel's button
        label = {"shield": "use a shield", "trophy": "claim a trophy", "pass": "end the turn"}
        assert press(panel, f"Blue: {label[step.name]}"), [b.text() for b in buttons(panel)]
    counts[step.name] = counts.get(step.name, 0) + 1


def test_de52_a_whole_three_player_game_in_the_window_against_two_bots(table) -> None:  # noqa: ANN001
    table.start(find_module("looot"), seats="blue,red,grey", seed=1)
    main, session = table.window, table.session
    main.actions_by_name["mode_strict"].trigger()
    panel = main.phase_panel
    panel.auto_bots = False  # 'Let the bots play' is pressed as a person would
    for seat in ("red", "grey"):
        assert session.set_bot(seat, "greedy")
    plan: dict[str, str] = {}
    questions: list[str] = []

    def blue_answers(need):  # noqa: ANN001, ANN202 - Blue's answer in the panel's dialog
        questions.append(need.question.key)
        return plan[need.question.key]

    panel.answerer = blue_answers
    adviser = GreedyBot(1)
    counts: dict[str, int] = {}
    game = looot_game()
    for _ in range(1500):
        lo = Looot(table.live.state, game)
        if lo.phase == "over":
            break
        if lo.to_move != "blue":
            assert press(panel, "Let the bots play"), [b.text() for b in buttons(panel)]
            continue
        play_blue_by_hand(table, panel, adviser, plan, counts)
    else:
        raise AssertionError("the game does not end")

    state = table.live.state
    lo = Looot(state, game)
    assert lo.phase == "over"
    assert not lo.vikings_left("blue") and counts["viking"] == 13  # DE:52: every Viking placed
    assert counts["place"] >= 13 and counts["pass"] >= 13 - counts.get("shield", 0)
    assert counts.get("longship") and counts.get("trophy") and counts.get("shield")
    assert set(questions) >= {"shield", "trophy"}  # asked in the panel, answered by Blue
    assert all(e.override is None for e in table.live.entries), "strict: nothing forced"
    assert {e.actor for e in table.live.entries} >= {"bot:red", "bot:grey"}
    score = main.docks["score"].widget()
    score.refresh()
    assert score.final
    rows = {row["seat"]: row for row in game.score(state)}
    assert set(rows) == set(SEATS) and all(row["final"] for row in rows.values())
    assert any(row["winner"] for row in rows.values())
    assert rows["blue"]["sites"] > 0  # Blue finished a construction site by hand (DE:32)
    # on the table: Blue's used shields struck through, its completed sites on their gold side
    for piece in state.pieces.values():
        if piece.owner != "blue" or piece.kind not in ("shield", "site"):
            continue
        view = game.token_view(seen_of(piece, can_see(state, piece, "blue")))
        if piece.kind == "shield":
            assert bool(view.get("dim")) == (not piece.face_up), piece.id
        else:
            assert (view["colour"] == SITE_DONE) == bool(piece.props.get("complete")), piece.id
    # the log speaks of seats, terrain and tiles as players do, never of piece ids
    words = [e.command.describe() for e in table.live.entries if e.actor == "blue"]
    assert any(w.startswith("Blue puts a Viking on the ") for w in words), words[:5]
    assert any(w.startswith("Blue lays a") for w in words), words[:5]
    assert not any("viking-blue" in w for w in words), words
