"""Who sees what at the screen (hot seat), looking back through the log, and the game's files."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from tabletop.modules import new_game
from tabletop.ui.layout import TableLayout
from tabletop.ui.window import MainWindow

SEATS = ("red", "yellow", "green")


def _hand_cards(table, seat: str) -> list[str]:  # noqa: ANN001
    return list(table.state.places[f"hand_{seat}"].contents)


def _faces(table, seat: str) -> set[bool]:  # noqa: ANN001
    return {table.scene.pieces[pid].visible_face for pid in _hand_cards(table, seat)}


# ---- hot seat ---------------------------------------------------------------------------


def test_the_viewer_sees_their_own_hand_and_not_the_others(table, proto_module):
    table.start(proto_module, seats=3)
    assert table.session.viewer == "red"
    assert _faces(table, "red") == {True}
    assert _faces(table, "yellow") == {False}
    assert _faces(table, "green") == {False}
    # the cards are face down all the same: only the owner's privilege shows them
    assert {table.state.pieces[p].face_up for p in _hand_cards(table, "red")} == {False}


def test_passing_the_screen_hides_every_hand_until_the_curtain_is_lifted(
    qtbot, table, proto_module
):
    table.start(proto_module, seats=3)
    window = table.window
    window.pass_screen("yellow")
    curtain = window.curtain
    assert curtain.isVisible()
    assert curtain.geometry() == table.view.rect()  # it covers the whole table
    assert "Yellow" in curtain.title.text()
    assert table.session.viewer is None
    for seat in SEATS:
        assert _faces(table, seat) == {False}, seat
    assert "At the screen: nobody" in window.status.text()

    qtbot.mouseClick(curtain.button, Qt.MouseButton.LeftButton)
    assert not curtain.isVisible()
    assert table.session.viewer == "yellow"
    assert _faces(table, "yellow") == {True}
    assert _faces(table, "red") == {False}
    assert _faces(table, "green") == {False}
    # what Yellow does is done as Yellow
    card = _hand_cards(table, "yellow")[0]
    table.drag(table.piece_point(card), table.place_point("table", 0.3, 0.3))
    assert table.state.pieces[card].place == "table"
    assert table.live.entries[-1].actor == "yellow"


def test_face_down_deck_cards_are_never_shown(table, proto_module):
    table.start(proto_module, seats=3)
    deck = list(table.state.places["deck"].contents)
    assert deck
    for viewer in (*SEATS, None):
        table.session.set_viewer(viewer)
        assert {table.scene.pieces[pid].visible_face for pid in deck} == {False}, viewer
    # the market is face up: everyone sees it
    market = table.state.places["market"].contents
    assert {table.scene.pieces[pid].visible_face for pid in market} == {True}


def test_the_log_dock_names_a_drawn_card_only_to_the_seat_that_holds_it(qtbot, table, proto_module):
    """A card drawn face down into Red's hand is named in Red's log and findings, never in
    another seat's, nor behind the curtain; the line is read again as the screen passes."""
    table.start(proto_module, seats=3)
    window = table.window
    card = table.state.places["deck"].contents[-1]
    table.drag(table.place_point("deck", 0.4, 0.6), table.place_point("hand_red", 0.9, 0.5))
    assert table.state.pieces[card].place == "hand_red", table.status()
    panel = window.log_panel
    last = panel.list.count() - 1

    def line() -> str:
        return panel.list.item(last).text()

    name = table.session.log_reader.words.face(table.state.pieces[card])
    assert name and name in line() and "Red's hand" in line()  # Red drew it, at the screen
    assert card not in line() and "hand_red" not in line()  # the players' words, not ids
    window.pass_screen("yellow")
    assert name not in line() and "a Prototype card" in line()  # the curtain: nobody
    qtbot.mouseClick(window.curtain.button, Qt.MouseButton.LeftButton)
    assert table.session.viewer == "yellow"
    assert name not in line()
    assert "moved a Prototype card from Draw deck to Red's hand" in line()
    undo = window.actions_by_name["undo"].text()
    assert name not in undo and "a Prototype card" in undo  # nor the Undo menu item
    window.pass_screen("red")
    qtbot.mouseClick(window.curtain.button, Qt.MouseButton.LeftButton)
    assert name in line()


# ---- looking back ------------------------------------------------------------------------


def _two_moves(table) -> int:  # noqa: ANN001
    """Two moves by hand; returns the seq of the entry before them."""
    before = table.live.seq
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "1,1"))
    table.drag(table.piece_point("cube-red-2"), table.spot_point("map", "2,2"))
    assert table.live.seq == before + 2, table.status()
    return before


def test_selecting_a_log_line_shows_the_earlier_table_read_only(table, proto_module):
    table.start(proto_module, seats=3)
    setup_end = _two_moves(table)
    live_digest = table.live.state.digest()
    panel = table.window.log_panel
    assert panel.list.count() == table.live.seq

    panel.list.setCurrentRow(setup_end - 1)  # the last setup line: before both moves
    QApplication.processEvents()
    session = table.session
    assert session.read_only and session.history_seq == setup_end
    earlier = table.live.state_at(setup_end)
    assert table.scene.state.digest() == earlier.digest()
    assert table.state.pieces["cube-red-1"].place == "reserve_red"
    layout = TableLayout(earlier, table.scene.size_of)
    for pid in ("cube-red-1", "cube-red-2", *earlier.places["deck"].contents[-3:]):
        assert table.scene.pieces[pid].pos().toTuple() == layout.piece_pos(pid)
    assert "LOOKING BACK" in table.window.status.text()
    assert panel.where.text() == f"Showing the table after entry {setup_end} of {setup_end + 2}"
    # the banner across the top of the view
    image = table.viewport.grab().toImage()
    banner = image.pixelColor(image.width() // 2, 3)
    assert (banner.red(), banner.green(), banner.blue()) < (45, 50, 50), banner.name()

    # dragging does nothing to an earlier state
    table.drag(table.piece_point("cube-red-3"), table.spot_point("map", "3,3"))
    assert table.live.seq == setup_end + 2
    assert table.live.state.digest() == live_digest
    assert table.scene.state.digest() == earlier.digest()
    assert table.scene.pieces["cube-red-3"].pos().toTuple() == layout.piece_pos("cube-red-3")
    table.key(Qt.Key.Key_F)  # nor do keys
    assert table.live.seq == setup_end + 2

    # step forward and back with the buttons
    assert panel.forward.isEnabled() and panel.now.isEnabled() and panel.branch.isEnabled()
    panel.forward.click()
    assert session.history_seq == setup_end + 1
    assert table.state.pieces["cube-red-1"].place == "map"
    assert table.state.pieces["cube-red-2"].place == "reserve_red"
    assert panel.list.currentRow() == setup_end
    panel.back.click()
    panel.back.click()
    assert session.history_seq == setup_end - 1
    assert table.scene.state.digest() == table.live.state_at(setup_end - 1).digest()

    panel.now.click()
    assert not session.read_only and session.history_seq is None
    assert table.scene.state is table.live.state
    assert table.state.pieces["cube-red-2"].place == "map"
    assert not panel.now.isEnabled() and not panel.forward.isEnabled()
    assert table.scene.pieces["cube-red-2"].pos().toTuple() == table.layout.piece_pos("cube-red-2")
    # and play goes on
    table.drag(table.piece_point("cube-red-3"), table.spot_point("map", "3,3"))
    assert table.live.seq == setup_end + 3
    assert panel.list.count() == setup_end + 3


def test_focus_on_the_log_does_not_look_back(table, proto_module):
    """Qt makes the first line current when the list takes focus (Tab, a hidden curtain)."""
    table.start(proto_module, seats=3)
    panel = table.window.log_panel
    panel.list.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    assert panel.list.hasFocus()
    assert not table.session.read_only
    table.qtbot.keyClick(panel.list, Qt.Key.Key_Down)  # but choosing a line with the keys does
    assert table.session.read_only


def test_branch_from_an_earlier_entry(table, proto_module, tmp_path):
    table.start(proto_module, seats=3)
    setup_end = _two_moves(table)
    original = table.session.game.path
    with open(original, "rb") as f:
        original_bytes = f.read()
    table.window.log_panel.list.setCurrentRow(setup_end)  # after the first move
    assert table.session.history_seq == setup_end + 1
    branch = tmp_path / "branch.jsonl"
    assert table.window.branch(setup_end + 1, str(branch))
    # the branch is open, live, and ends at that entry
    game = table.session.game
    assert game.path == str(branch)
    assert not table.session.read_only
    assert game.table.seq == setup_end + 1
    assert table.state.pieces["cube-red-1"].place == "map"
    assert table.state.pieces["cube-red-2"].place == "reserve_red"
    assert table.window.log_panel.list.count() == setup_end + 1
    header = json.loads(branch.read_text().splitlines()[0])
    assert "branched_from" in json.dumps(header)
    with open(original, "rb") as f:
        now = f.read()
    # the game branched from is untouched but for the stretch of play the window measured on
    # it, logged when it was closed (the session record's playing time)
    assert now.startswith(original_bytes)
    added = [json.loads(line) for line in now[len(original_bytes) :].splitlines()]
    assert all(r["kind"] == "record" and r["cmd"]["action"] == "played" for r in added)
    # play goes on in the branch
    table.show()
    table.drag(table.piece_point("cube-red-3"), table.spot_point("map", "3,3"))
    assert game.table.seq == setup_end + 2
    lines = branch.read_text().splitlines()
    assert json.loads(lines[-1])["seq"] == setup_end + 2


# ---- files ------------------------------------------------------------------------------------


def test_a_broken_file_leaves_the_game_as_it_was(table, proto_module, tmp_path):
    table.start(proto_module, seats=3)
    game = table.session.game
    with open(game.path, "rb") as f:
        current = f.read()
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format": "tabletop-log"\nnot json at all\n')
    broken_bytes = broken.read_bytes()

    assert table.window.open_path(str(broken)) is None
    assert "broken.jsonl" in table.status(), table.status()
    assert table.session.game is game
    assert broken.read_bytes() == broken_bytes
    with open(game.path, "rb") as f:
        assert f.read() == current
    assert str(broken) not in table.window.recent_files()
    # the game on the table still plays and writes to its own file
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "0,0"))
    assert table.state.pieces["cube-red-1"].place == "map"
    with open(game.path, "rb") as f:
        assert len(f.read()) > len(current)

    missing = tmp_path / "nowhere" / "gone.jsonl"
    assert table.window.open_path(str(missing)) is None
    assert table.session.game is game
    assert not missing.exists()


def test_save_as_copies_and_goes_on_in_the_copy(table, proto_module, tmp_path):
    table.start(proto_module, seats=3)
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "0,0"))
    first = table.session.game.path
    table.session.set_viewer("yellow")
    copy = tmp_path / "saved"
    assert table.window.save_as(str(copy))
    saved = str(copy) + ".jsonl"
    assert table.session.game.path == saved
    assert table.session.viewer == "yellow"
    assert "Saved as" in table.status()
    with open(first, "rb") as f:
        first_bytes = f.read()
    with open(saved, "rb") as f:
        assert f.read() == first_bytes
    assert table.state.pieces["cube-red-1"].place == "map"
    table.show()
    card = table.state.places["hand_yellow"].contents[0]
    table.drag(table.piece_point(card), table.place_point("table", 0.5, 0.5))
    assert table.state.pieces[card].place == "table"
    with open(first, "rb") as f:
        assert f.read() == first_bytes  # the old file is left as it was
    with open(saved) as f:
        last = json.loads(f.read().splitlines()[-1])
    assert last["actor"] == "yellow" and last["seq"] == table.live.seq


def test_offer_resume_opens_a_game_left_open(qtbot, settings, proto_module, games_dir):
    path = games_dir / "left-open.jsonl"
    games_dir.mkdir(parents=True, exist_ok=True)
    game = new_game(proto_module, seats=2, seed=5, path=path)
    seq = game.table.seq
    game.close()
    settings.setValue("session/open", str(path))
    window = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(window)
    assert window.offer_resume()
    assert window.session.game.path == str(path)
    assert window.session.table.seq == seq
    assert settings.value("session/open") == str(path)
    window.close()
    assert settings.value("session/open") is None  # a clean close clears the mark

    again = MainWindow(settings=settings, ask=False)
    qtbot.addWidget(again)
    assert not again.offer_resume()  # nothing to resume
    assert again.session is None


def test_recent_files_are_remembered(qtbot, table, proto_module, settings_path):
    first = table.start(proto_module, seats=2, seed=1).path
    second = table.start(proto_module, seats=2, seed=2).path
    assert first != second
    window = table.window
    assert window.recent_files()[:2] == [second, first]
    # in the settings file, not the user's
    window.settings.sync()
    stored = QSettings(str(settings_path), QSettings.Format.IniFormat)
    recent = stored.value("recent")
    assert list(recent)[:2] == [second, first]
    # the menu lists them and opens them
    window._fill_recent()
    actions = [a for a in window.recent_menu.actions() if a.text() in (first, second)]
    assert [a.text() for a in actions] == [second, first]
    actions[1].trigger()
    assert window.session.game.path == first
    assert window.recent_files()[:2] == [first, second]
    # another window with the same settings knows them too
    other = MainWindow(
        settings=QSettings(str(settings_path), QSettings.Format.IniFormat), ask=False
    )
    qtbot.addWidget(other)
    assert other.recent_files()[:2] == [first, second]
