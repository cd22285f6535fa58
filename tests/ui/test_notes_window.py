"""Playtest notes in the window: the key N opens the note dialog at the entry the table shows; a
tagged note with the selected pieces and a snapshot of the view goes into the log, shows in
the Notes dock (with its thumbnail) and as a mark on its entry in the log dock, and is still
there after saving and reopening. The snapshot shows what its author sees and no more; edits
and removals from the dock are later entries (table: no rulebook section applies)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from tabletop.core.notes import PNG_SIGNATURE
from tabletop.export.snapshot import png_bytes_of_view
from tabletop.modules import find_module
from tabletop.persist import Game
from tabletop.ui.docks import NOTE_MARK


def ok(dialog) -> None:  # noqa: ANN001
    button = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert button.isEnabled()
    button.click()
    QApplication.processEvents()


def write_note(table, qtbot, tag: str, text: str, snapshot: bool) -> bool:  # noqa: ANN001
    """Press N, choose the tag by typing its first word, type the text, tick the snapshot, OK;
    whether "tie to the selected pieces" was on."""
    window = table.window
    table.key(Qt.Key.Key_N)
    dialog = window.note_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.tag.setFocus()
    qtbot.keyClicks(dialog.tag, tag.split()[0])  # a space would open the list
    assert dialog.chosen_tag == next(k for k, w in NOTE_WORDS.items() if w == tag)
    qtbot.keyClicks(dialog.text, text)
    if snapshot:
        qtbot.mouseClick(dialog.snapshot, Qt.MouseButton.LeftButton)
        assert dialog.snapshot.isChecked()
    assert any("public" in label.text() for label in dialog.findChildren(QLabel))
    tied = dialog.tie.isChecked()
    ok(dialog)
    return tied


NOTE_WORDS = {"rules": "rules question", "balance": "balance", "typo": "typo or graphics"}


def notes_dock(window):  # noqa: ANN001, ANN201
    return window.docks["notes"].widget()


def click_note(window, qtbot, row: int = 0) -> None:  # noqa: ANN001
    """Bring the Notes dock forward (its tab) and click a note in it."""
    window.docks["notes"].raise_()
    QApplication.processEvents()
    notes = notes_dock(window).list
    point = notes.visualItemRect(notes.item(row)).center()
    qtbot.mouseClick(notes.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)  # fmt: skip
    notes.setFocus()


@pytest.mark.parametrize("module", ["greenland", "looot"])
def test_table_a_note_by_key_and_dock_survives_saving_and_reopening(
    table, qtbot, tmp_path, module: str
) -> None:  # noqa: ANN001
    table.start(find_module(module), seats=3, seed=3)
    window, live = table.window, table.live
    piece = next(
        pid
        for pid, item in table.scene.pieces.items()
        if item.isVisible() and table.view.viewport().rect().contains(table.item_point(pid))
    )
    table.click(table.item_point(piece))
    (piece,) = table.scene.selected_pieces()  # the piece on top there
    at, digest = live.seq, live.state.digest()

    assert write_note(table, qtbot, "balance", "This costs too little", snapshot=True)
    (note,) = live.notes()
    assert (note.tag, note.text, note.at, note.pieces) == (
        "balance",
        "This costs too little",
        at,
        (piece,),
    )
    assert note.author == table.session.viewer  # the seat at the screen
    image = QImage.fromData(note.snapshot, "PNG")
    assert note.snapshot.startswith(PNG_SIGNATURE) and not image.isNull() and image.width() > 100
    assert live.state.digest() == digest and live.seq == at + 1

    dock = notes_dock(window)
    assert dock.list.count() == 1
    item = dock.list.item(0)
    assert "balance" in item.text() and "This costs too little" in item.text()
    assert not item.icon().isNull()  # the thumbnail
    log = window.log_panel.list
    assert NOTE_MARK in log.item(at - 1).text()
    assert "This costs too little" in log.item(at - 1).toolTip()

    path = tmp_path / "saved.jsonl"
    assert window.save_as(str(path))
    window._close_game()
    reopened = Game.open(path, writable=False)
    assert [n.to_dict() for n in reopened.table.notes()] == [note.to_dict()]
    reopened.close()
    assert window.open_path(str(path)) is not None
    dock = notes_dock(window)
    assert dock.list.count() == 1 and not dock.list.item(0).icon().isNull()
    assert NOTE_MARK in window.log_panel.list.item(at - 1).text()
    assert window.session.table.notes()[0].snapshot == note.snapshot
    # choosing the marked entry in the log goes to its note in the Notes dock
    log = window.log_panel.list
    log.scrollToItem(log.item(at - 1))
    point = log.visualItemRect(log.item(at - 1)).center()
    qtbot.mouseClick(log.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)  # fmt: skip
    assert window.session.history_seq == at
    assert notes_dock(window).selected_id() == note.id


def test_table_a_note_while_looking_back_is_tied_to_the_entry_shown(table, qtbot) -> None:  # noqa: ANN001
    table.start(find_module("proto"), seats=3)
    window, live = table.window, table.live
    table.drag(table.piece_point("cube-red-1"), table.spot_point("map", "1,1"))
    table.drag(table.piece_point("cube-red-2"), table.spot_point("map", "2,2"))
    earlier = live.seq - 1
    log = window.log_panel.list
    table.qtbot.mouseClick(
        log.viewport(), Qt.MouseButton.LeftButton, pos=log.visualItemRect(log.item(earlier - 1)).center()
    )  # fmt: skip
    assert table.session.history_seq == earlier
    write_note(table, qtbot, "rules question", "May a cube go here?", snapshot=False)
    (note,) = live.notes()
    assert note.at == earlier and note.png is None and note.pieces == ()
    assert table.session.history_seq == earlier  # still looking back
    assert log.count() == live.seq  # the note's own entry is in the log dock
    assert NOTE_MARK in log.item(earlier - 1).text()
    # double-click in the dock shows the table at the note's entry
    window.actions_by_name["now"].trigger()
    click_note(window, qtbot)
    dock = notes_dock(window)
    point = dock.list.visualItemRect(dock.list.item(0)).center()
    qtbot.mouseDClick(dock.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)  # fmt: skip
    assert table.session.history_seq == earlier


def test_table_edit_and_remove_from_the_dock_keep_the_history(table, qtbot) -> None:  # noqa: ANN001
    table.start(find_module("proto"), seats=3)
    window, live = table.window, table.live
    write_note(table, qtbot, "typo or graphics", "Cube colour hard to see", snapshot=False)
    note = live.notes()[0].id
    dock = notes_dock(window)
    click_note(window, qtbot)
    qtbot.keyClick(dock.list, Qt.Key.Key_F2)
    dialog = window.note_dialog
    assert dialog.windowTitle() == f"Edit note #{note}" and not dialog.snapshot.isVisible()
    dialog.text.selectAll()
    qtbot.keyClicks(dialog.text, "Red cubes hard to see on the map")
    ok(dialog)
    (edited,) = live.notes()
    assert edited.text == "Red cubes hard to see on the map" and edited.edited == live.seq
    assert "Red cubes" in dock.list.item(0).text() and "(edited)" in dock.list.item(0).text()
    click_note(window, qtbot)
    qtbot.keyClick(dock.list, Qt.Key.Key_Delete)
    assert live.notes() == [] and dock.list.count() == 0
    (gone,) = live.notes(removed=True)
    assert gone.removed == live.seq and len(gone.history) == 2
    assert [e.kind for e in live.entries[-3:]] == ["note"] * 3


def test_table_a_note_shows_only_what_its_author_sees(table, qtbot) -> None:  # noqa: ANN001
    """Red's note on a card in Red's hand: its snapshot is Red's view (Red's cards face up),
    never drawn for a spectator; Yellow at the screen reads the card by its back. Acting as
    Yellow at Red's screen, the snapshot is a spectator's."""
    table.start(find_module("proto"), seats=3)
    window, session = table.window, table.session
    card = table.state.places["hand_red"].contents[0]
    table.click(table.item_point(card))
    write_note(table, qtbot, "typo or graphics", "The text on this card is cut off", snapshot=True)
    (note,) = session.table.notes()
    assert note.pieces == (card,) and note.author == "red"
    source = table.view.mapToScene(table.view.viewport().rect()).boundingRect()
    red_view = png_bytes_of_view(table.scene, source)
    spectator = png_bytes_of_view(table.scene, source, as_spectator=True)
    assert red_view != spectator
    assert note.snapshot == red_view

    window.pass_screen("yellow")
    qtbot.mouseClick(window.curtain.button, Qt.MouseButton.LeftButton)
    text = notes_dock(window).list.item(0).text()
    assert card not in text and "a Prototype card" in text
    assert card not in window.log_panel.list.item(session.table.seq - 1).text()

    window.pass_screen("red")
    qtbot.mouseClick(window.curtain.button, Qt.MouseButton.LeftButton)
    window.set_acting_as("yellow")
    table.click(table.item_point(card))
    write_note(table, qtbot, "rules question", "Seen from Yellow's chair", snapshot=True)
    latest = session.table.notes()[-1]
    assert latest.author == "yellow"
    assert latest.snapshot == png_bytes_of_view(table.scene, source, as_spectator=True)
