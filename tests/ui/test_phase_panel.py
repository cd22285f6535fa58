"""The phase panel reads the game's turn driver: who is to move (a seat, the table's step or
nobody), a button for each procedure with its help and rulebook section, hand moves as
guidance; bot seats play through the same driver. Race (tests/toy) shows it knows no game."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QPushButton

from rules_assist.driver import CHANCE, MOVES, TERMINAL
from tabletop.modules import find_module, load_module

RACE = Path(__file__).parent.parent / "toy"


def buttons(panel) -> list[QPushButton]:  # noqa: ANN001
    layout = panel.buttons
    return [layout.itemAt(i).widget() for i in range(layout.count())]


def test_greenland_the_table_s_step_buttons_and_hand_moves_as_guidance(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window = table.window
    panel = window.phase_panel
    panel.answerer = lambda need: need.options[0]
    assert panel.status.to_move == CHANCE  # the event is the table's to reveal (D)
    assert panel.title.text() == "Turn 1 · Event (D)"
    assert "To move: the table's step" in panel.detail.text()
    assert panel.guidance.isHidden()
    shown = buttons(panel)
    assert [b.text() for b in shown] == [a.label.replace("&", "&&") for a in panel.offered]
    assert shown[0].isDefault() and shown[0].text() == "Reveal the event (D)"
    nxt = next(b for b in shown if b.text().startswith("Next"))
    assert nxt.toolTip() == "turn 1, assignment phase\nRulebook A1"  # help, then its section
    shown[0].click()
    assert panel.run(next(a for a in panel.offered if a.name == "next-phase"))

    # E: the Norse place their hunters by hand: words to follow, not a button
    assert panel.status.phase == "assignment" and panel.status.to_move == "red"
    assert "To move: Norse" in panel.detail.text()
    by_hand = [a for a in panel.status.actions if a.kind == MOVES]
    assert [a.actor for a in by_hand] == ["red"]
    assert all(a.kind != MOVES for a in panel.offered)
    assert not panel.guidance.isHidden()
    assert panel.guidance.text().startswith("Norse: Place hunters (E)")
    assert not [b for b in buttons(panel) if b.text().startswith("Place hunters")]
    seq = table.live.seq
    assert not panel.run(by_hand[0])  # nothing runs: the pieces are moved on the table
    assert table.live.seq == seq
    assert "by hand" in window.statusBar().currentMessage()
    finish = buttons(panel)[0]
    assert finish.text() == "Norse: done placing hunters (E)" and finish.isDefault()


def test_race_at_the_window_played_to_its_end_by_two_bots(table) -> None:  # noqa: ANN001
    """Race's roll is the table's step (a button anyone presses); its moves are the seats', each
    given to the game's random bot, which shares its roll or moves a cube by hand."""
    table.start(load_module(RACE), seed=3)
    window, session = table.window, table.session
    panel = window.phase_panel
    panel.auto_bots = False
    assert panel.title.text() == "Turn 1 · Roll" and panel.status.to_move == CHANCE
    assert buttons(panel)[0].text() == "Roll for red"
    assert buttons(panel)[0].toolTip() == "R4"
    assert session.bot_kinds() == ["random"]
    for seat in ("red", "blue"):
        assert session.set_bot(seat, "random")
    presses = 0
    while panel.status.to_move != TERMINAL:
        presses += 1
        assert presses < 400, "the race does not end"
        if panel.bots_to_play():
            assert panel.play_bots()
        else:
            assert panel.status.to_move == CHANCE
            assert panel.run(panel.offered[0])
    assert "To move: nobody: the game is over" in panel.detail.text()
    assert panel.offered == () and not buttons(panel)
    actors = {e.actor for e in table.live.entries}
    assert {"bot:red", "bot:blue"} <= actors  # the bots' moves are in the log as theirs, as bots
