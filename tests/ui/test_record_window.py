"""The session record in the window: a game played to its end by bots records its result and
offers the end-of-session form; a form filled in the dialog with real clicks and typing is in
the log, and still there after saving and reopening; the Game menu's Session record shows it
all, with the testers' names and the place to fill in. The window's clock of active play
leaves pauses longer than the idle limit out (its clock driven by the test, never the wall
clock). Race (tests/toy) shows it knows no game (table: no rulebook section applies)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from rules_assist.driver import CHANCE, TERMINAL
from tabletop.modules import load_module
from tabletop.persist import Game
from tabletop.persist.record import session_record

RACE = Path(__file__).parent.parent / "toy"


class Clock:
    def __init__(self, t: float = 2_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def play_to_the_end(table) -> None:  # noqa: ANN001
    panel = table.window.phase_panel
    panel.auto_bots = False
    for seat in ("red", "blue"):
        assert table.session.set_bot(seat, "random")
    for _ in range(400):
        if panel.status.to_move == TERMINAL:
            return
        if panel.bots_to_play():
            assert panel.play_bots()
        else:
            assert panel.status.to_move == CHANCE
            assert panel.run(panel.offered[0])
    raise AssertionError("the race does not end")


def choose(qtbot, box, text: str) -> None:  # noqa: ANN001
    """Pick an item of a combo box by typing it, as a player would."""
    box.setFocus()
    qtbot.keyClicks(box, text)
    assert box.currentText() == text


def test_table_the_end_offers_the_form_which_survives_saving_and_reopening(
    table, qtbot, tmp_path
) -> None:  # noqa: ANN001
    table.start(load_module(RACE), seed=3)
    window = table.window
    play_to_the_end(table)
    QApplication.processEvents()  # the form is offered once the game is over
    parts = table.live.session_parts()
    flow = table.session.rules.flow
    assert parts.result is not None
    assert parts.result["scores"] == flow.returns(table.live.state)
    dialog = window.form_window
    assert dialog is not None and dialog.isVisible()
    choose(qtbot, dialog.seat, "Blue (blue)")
    choose(qtbot, dialog.ratings["fun"], "4")
    choose(qtbot, dialog.ratings["length"], "2")
    dialog.text.setFocus()
    qtbot.keyClicks(dialog.text, "over too soon")
    qtbot.mouseClick(
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save),
        Qt.MouseButton.LeftButton,
    )
    QApplication.processEvents()
    assert table.live.session_parts().forms["blue"] == {
        "seat": "blue",
        "fun": 4,
        "length": 2,
        "text": "over too soon",
    }
    path = tmp_path / "race.jsonl"
    assert window.save_as(str(path))
    window._close_game()
    assert window.open_path(str(path)) is not None
    assert window.form_window is dialog or not dialog.isVisible()  # no form offered on opening
    record = window.record_dialog()
    text = record.findChild(type(dialog.text)).toPlainText()
    assert "Form of blue" in text and "(fun 4, length 2, clarity -): over too soon" in text
    assert "Winner: " in text
    # the testers' names and the place, typed into the record dialog
    record.names["red"].setFocus()
    qtbot.keyClicks(record.names["red"], "Ann")
    qtbot.keyClicks(record.where, "kitchen table")
    qtbot.mouseClick(
        record.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save),
        Qt.MouseButton.LeftButton,
    )
    QApplication.processEvents()
    window._close_game()
    saved = session_record(Game.open(path, writable=False))
    assert {t["seat"]: t["tester"] for t in saved["testers"]}["red"] == "Ann"
    assert saved["where"] == "kitchen table"
    assert saved["forms"]["blue"]["text"] == "over too soon"
    assert saved["result"]["winners"]


def test_table_the_form_from_the_menu_at_any_time(table, qtbot) -> None:  # noqa: ANN001
    table.start(load_module(RACE), seed=3)
    window = table.window
    window.actions_by_name["form"].trigger()
    dialog = window.form_window
    assert dialog.isVisible() and dialog.chosen_seat == "red"  # the seat at the screen
    choose(qtbot, dialog.ratings["clarity"], "5")
    dialog.accept()
    assert table.live.session_parts().forms["red"] == {"seat": "red", "clarity": 5}
    assert table.live.session_parts().result is None  # the game goes on: no scores recorded


def test_table_the_window_counts_active_play_and_leaves_idle_pauses_out(
    table, qtbot, tmp_path
) -> None:  # noqa: ANN001
    table.start(load_module(RACE), seed=3)
    window = table.window
    window.set_idle_minutes(5)
    clock = Clock()
    window.activity.flush()
    window.activity.now = clock
    path = window.session.game.path

    def press(at: float) -> None:
        clock.t = at
        table.key(Qt.Key.Key_Right)  # a key into the table: input, as a player gives it

    start = clock.t
    for minute in range(0, 4):  # four presses, a minute apart: 3 minutes of play
        press(start + 60 * minute)
    press(start + 180 + 1200)  # twenty minutes later: a pause, not play
    press(start + 180 + 1200 + 120)  # two minutes more of play
    window._close_game()  # closing ends the stretch under way
    game = Game.open(path, writable=False)
    played = [e.command.data for e in game.table.entries if e.kind == "record"]
    assert [(p["seconds"], p["idle"]) for p in played] == [(180.0, 300.0), (120.0, 300.0)]
    assert played[0]["from"] == start and played[0]["to"] == start + 180
    record = session_record(game)
    assert record["playing_time"]["window_seconds"] == 300.0


def test_table_long_play_is_logged_in_stretches_of_ten_minutes(table) -> None:  # noqa: ANN001
    """A crash loses at most the stretch under way: every ten minutes of play are logged."""
    table.start(load_module(RACE), seed=3)
    window = table.window
    clock = Clock()
    window.activity.flush()
    window.activity.now = clock
    path = window.session.game.path
    start = clock.t
    for minute in range(13):  # twelve minutes of play, a key a minute
        clock.t = start + 60 * minute
        table.key(Qt.Key.Key_Right)
    game = Game.open(path, writable=False)  # read while the window plays on
    logged = [e.command.data["seconds"] for e in game.table.entries if e.kind == "record"]
    assert logged == [600.0]
    window._close_game()
    game = Game.open(path, writable=False)
    logged = [e.command.data["seconds"] for e in game.table.entries if e.kind == "record"]
    assert logged == [600.0, 120.0]
