"""The deck editor (Game > Edit deck…), driven as a person would: the menu, keys typed into
fields, clicks on buttons; what it saved is read back through ``tabletop deck list``,
``tabletop deck diff`` and the module loaded with the new revision."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QMessageBox

from tabletop.cli import main as cli
from tabletop.modules import default_module, find_module, resources_dir
from tabletop.modules.revisions import with_revision
from tabletop.ui.deck_editor import RED, DeckEditor

Ctrl = Qt.KeyboardModifier.ControlModifier
Shift = Qt.KeyboardModifier.ShiftModifier
NoMod = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def resources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the modules, so a saved revision lands in tmp_path."""
    folder = tmp_path / "resources"
    shutil.copytree(resources_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("TABLETOP_RESOURCES", str(folder))
    return folder


def menu_action(window, menu_title: str, text: str):  # noqa: ANN001, ANN201
    """The action a click on ``menu_title`` > ``text`` in the menu bar triggers."""
    for top in window.menuBar().actions():
        if top.text().replace("&", "") == menu_title:
            for action in top.menu().actions():
                if action.text().replace("&", "") == text:
                    return action
    raise AssertionError(f"no {menu_title} > {text}")


def open_editor(window, qtbot) -> DeckEditor:  # noqa: ANN001
    menu_action(window, "Game", "Edit deck…").trigger()
    editor = window.deck_editor
    assert editor is not None
    qtbot.waitExposed(editor)
    editor.activateWindow()  # the editor's shortcuts answer in its own window
    QApplication.processEvents()
    return editor


def retype(qtbot, widget, text: str) -> None:  # noqa: ANN001
    """Select what the field holds and type ``text`` over it, key by key."""
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_A, Ctrl)
    qtbot.keyClick(widget, Qt.Key.Key_Backspace)
    if text:
        qtbot.keyClicks(widget, text)


def click(qtbot, button) -> None:  # noqa: ANN001
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def cli_out(capsys, *argv: str) -> str:  # noqa: ANN001
    capsys.readouterr()
    assert cli(list(argv)) == 0
    return capsys.readouterr().out


def test_b1_edit_a_greenland_card_refuse_bad_input_and_save_a_revision(
    table, qtbot, resources: Path, capsys, tmp_path: Path
) -> None:  # noqa: ANN001
    """B1: a biome's climax is 0 to 15. Walrus's climax, a placeholder, is entered as 3: an
    out-of-range 99 is refused as it is typed, the value takes the toolbar's source (no longer a
    placeholder), undo and redo step through it, a word outside the abilities vocabulary is
    refused at saving with nothing written, and the saved revision holds the new value and
    nothing else changed."""
    table.start(find_module("greenland"), seed=2)
    editor = open_editor(table.window, qtbot)
    assert editor.draft.module.id == "greenland" and editor.draft.revision == "reconstructed"
    assert "Greenland" in editor.windowTitle() and not editor.isWindowModified()

    qtbot.keyClick(editor.card_list, Qt.Key.Key_F, Ctrl)  # Ctrl+F: the search field
    assert editor.search.hasFocus()
    qtbot.keyClicks(editor.search, "walrus")
    assert editor.card_list.count() == 1
    assert editor.card_list.item(0).text().startswith("Walrus")
    assert editor.draft.card_id(editor.current) == "walrus"
    assert "climax" in editor.draft.placeholders(editor.current)
    assert editor.markers["climax"].isChecked()  # the amber ≈ of a placeholder
    assert "placeholder" in editor.markers["climax"].toolTip()

    spin = editor.fields["climax"].spin
    retype(qtbot, spin, "99")
    assert RED in editor.fields["climax"].focus_widget().styleSheet()  # red as it is typed
    assert "climax" in editor.message.text() and "from 0 to 15" in editor.message.text()
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert editor.draft.cells[editor.current]["climax"] == "15"  # refused: not taken
    assert spin.value() == 15 and RED not in editor.fields["climax"].focus_widget().styleSheet()
    assert editor.undo_stack.count() == 0
    retype(qtbot, spin, "3")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    row = editor.draft.cells[editor.current]
    assert row["climax"] == "3"
    assert RED not in editor.fields["climax"].focus_widget().styleSheet()
    assert "climax=printed card" in row["provenance"]
    assert "climax" not in editor.draft.placeholders(editor.current)
    assert not editor.markers["climax"].isChecked()
    assert editor.isWindowModified()

    qtbot.keyClick(spin, Qt.Key.Key_Z, Ctrl)  # undo: the value and its source go together
    assert editor.draft.cells[editor.current]["climax"] == "15"
    assert "climax" in editor.draft.placeholders(editor.current)
    assert spin.value() == 15
    qtbot.keyClick(spin, Qt.Key.Key_Z, Ctrl | Shift)
    assert editor.draft.cells[editor.current]["climax"] == "3" and spin.value() == 3

    # the name has a source (S001); the ≈ button marks it a placeholder again
    assert "name" not in editor.draft.placeholders(editor.current)
    click(qtbot, editor.markers["name"])
    assert "name" in editor.draft.placeholders(editor.current)
    click(qtbot, editor.markers["name"])  # and back: its source is the toolbar's now
    assert "name" not in editor.draft.placeholders(editor.current)

    # a word the abilities vocabulary does not have: the field turns red, the card is marked
    abilities = editor.fields["abilities"].line
    abilities.setFocus()
    qtbot.keyClicks(abilities, "fly")
    assert RED in editor.fields["abilities"].focus_widget().styleSheet()
    assert "abilities" in editor.message.text() and "vocabulary" in editor.message.text()
    assert editor.card_list.item(0).text().startswith("⚠")
    qtbot.keyClick(editor.card_list, Qt.Key.Key_S, Ctrl)
    dialog = editor.save_dialog
    assert dialog is not None and dialog.isVisible()
    retype(qtbot, dialog.name, "printed")
    click(qtbot, dialog.save_button)
    assert dialog.isVisible() and "Not saved" in dialog.error.text()
    assert "card 'walrus' (Walrus): column 'abilities'" in dialog.error.text()
    assert not (resources / "greenland" / "decks" / "printed.csv").exists()
    assert editor.draft.cells[editor.current]["climax"] == "3"  # nothing lost
    click(qtbot, dialog.cancel_button)
    assert not dialog.isVisible()
    retype(qtbot, abilities, "")
    assert RED not in editor.fields["abilities"].focus_widget().styleSheet()
    assert not editor.card_list.item(0).text().startswith("⚠")
    # a word from the vocabulary menu, then undone
    words = editor.fields["abilities"].words_button.menu().actions()
    next(a for a in words if a.text().startswith("sled")).trigger()
    assert editor.draft.cells[editor.current]["abilities"] == "sled"
    editor.undo_action.trigger()
    assert editor.draft.cells[editor.current]["abilities"] == ""

    qtbot.keyClick(editor.card_list, Qt.Key.Key_S, Ctrl)
    dialog = editor.save_dialog
    changes = dialog.changes.toPlainText()
    assert "walrus (Walrus)" in changes and "climax" in changes and "15 -> 3" in changes
    assert "1 cards changed" in changes
    retype(qtbot, dialog.name, "printed")
    click(qtbot, dialog.save_button)
    assert not dialog.isVisible(), dialog.error.text()
    assert (resources / "greenland" / "decks" / "printed.csv").exists()
    assert editor.draft.revision == "printed" and not editor.isWindowModified()
    assert editor.offer is not None and editor.offer.isVisible()

    # through the public paths: deck list, deck diff, the module with that revision
    listed = cli_out(capsys, "deck", "list", "greenland")
    assert "printed" in listed and "reconstructed" in listed
    diff = json.loads(cli_out(capsys, "deck", "diff", "reconstructed", "printed", "--module", "greenland", "--json"))  # fmt: skip
    (walrus,) = diff["cards"]
    assert walrus["id"] == "walrus"
    assert walrus["values"] == [
        {"column": "climax", "a": 15, "b": 3},
        {
            "column": "provenance",
            "a": with_revision(find_module("greenland"), "reconstructed")
            .decks["greenland"]
            .card("walrus")["provenance"],  # fmt: skip
            "b": walrus["values"][1]["b"],
        },
    ]
    assert walrus["placeholders"] == [{"column": "climax", "a": True, "b": False}]
    old = find_module("greenland").decks["greenland"]
    new = with_revision(find_module("greenland"), "printed").decks["greenland"]
    assert new.card("walrus")["climax"] == 3
    assert [c for c in new.cards if c["id"] != "walrus"] == [
        c for c in old.cards if c["id"] != "walrus"
    ]

    # the offer: a new game with the new revision
    click(qtbot, editor.offer.button(QMessageBox.StandardButton.Yes))
    new_dialog = table.window.new_dialog
    assert new_dialog is not None and new_dialog.isVisible()
    assert new_dialog.deck_box.currentData() == "printed"
    new_dialog._accept()  # the dialog's Start button
    QApplication.processEvents()
    header = table.window.session.game.header
    assert Path(header.decks[0]["file"]).stem == "printed"
    assert editor.close()


def test_unsaved_changes_are_asked_about_on_close(table, qtbot, resources: Path) -> None:  # noqa: ANN001
    """Closing the editor with edits asks first: Cancel keeps it open, Discard closes it and
    writes nothing."""
    editor = open_editor(table.window, qtbot)
    assert editor.draft.module.id == default_module()  # no game open: what New game offers
    editor.select_card(editor.draft.card_id(0))
    retype(qtbot, editor.fields["name"].line, "Great Harvest")
    decks = editor.draft.module.decks[editor.draft.deck_id].path.parent
    before = sorted(p.name for p in decks.iterdir())
    assert not editor.close()
    prompt = editor.close_prompt
    assert prompt is not None and prompt.isVisible() and editor.isVisible()
    click(qtbot, prompt.button(QMessageBox.StandardButton.Cancel))
    assert editor.isVisible() and editor.draft.cells[0]["name"] == "Great Harvest"
    editor.close()
    click(qtbot, editor.close_prompt.button(QMessageBox.StandardButton.Discard))
    assert not editor.isVisible()
    assert sorted(p.name for p in decks.iterdir()) == before


def test_another_module_deck_opens_and_saves(table, qtbot, resources: Path, capsys) -> None:  # noqa: ANN001
    """The editor works from the deck's schema alone: the prototyping module's deck opens
    with its own columns, PgDn steps through the cards, a cost out of range is refused and an
    edit saves as a revision."""
    table.start(find_module("proto"), seed=1)
    editor = open_editor(table.window, qtbot)
    assert set(editor.fields) == {"id", "name", "type", "cost", "points", "icons", "text"}
    assert not editor.markers["cost"].isVisible()  # this game marks no placeholders
    first = editor.current
    qtbot.keyClick(editor.card_list, Qt.Key.Key_PageDown)
    assert editor.current == first + 1
    qtbot.keyClick(editor.card_list, Qt.Key.Key_PageUp)
    assert editor.current == first
    retype(qtbot, editor.fields["cost"].spin, "12")
    assert (
        RED in editor.fields["cost"].focus_widget().styleSheet()
        and "from 0 to 9" in editor.message.text()
    )
    retype(qtbot, editor.fields["cost"].spin, "4")
    qtbot.keyClick(editor.fields["cost"].spin, Qt.Key.Key_Return)
    assert editor.draft.cells[first]["cost"] == "4"
    editor.fields["type"].box.setCurrentIndex(editor.fields["type"].box.findData("event"))
    editor.fields["type"].box.activated.emit(editor.fields["type"].box.currentIndex())
    assert editor.draft.cells[first]["type"] == "event"
    assert not editor.preview.pixmap().isNull()
    dialog = editor.save_dialog_open()
    retype(qtbot, dialog.name, "cheaper")
    click(qtbot, dialog.save_button)
    assert not dialog.isVisible(), dialog.error.text()
    click(qtbot, editor.offer.button(QMessageBox.StandardButton.No))
    assert "cheaper" in cli_out(capsys, "deck", "list", "proto")
    card = editor.draft.card_id(first)
    saved = with_revision(find_module("proto"), "cheaper").decks["cards"].card(card)
    assert (saved["cost"], saved["type"]) == (4, "event")
    # a name already used is refused plainly, and nothing is replaced
    retype(qtbot, editor.fields["cost"].spin, "5")
    qtbot.keyClick(editor.fields["cost"].spin, Qt.Key.Key_Return)
    dialog = editor.save_dialog_open()
    retype(qtbot, dialog.name, "cheaper")
    click(qtbot, dialog.save_button)
    assert dialog.isVisible() and "exists already" in dialog.error.text()
    assert with_revision(find_module("proto"), "cheaper").decks["cards"].card(card)["cost"] == 4
    click(qtbot, dialog.cancel_button)
    editor.undo_action.trigger()
    assert editor.close()


def test_looot_has_no_deck_to_edit(table, qtbot) -> None:  # noqa: ANN001
    """Looot's components are data tables its game reads, not a manifest deck: the editor says
    so plainly and does not open; its module list holds only modules with decks."""
    table.start(find_module("looot"), seats=2, seed=1)
    menu_action(table.window, "Game", "Edit deck…").trigger()
    assert table.window.deck_editor is None
    assert "Looot has no deck of cards to edit" in table.status()


def test_deck_editor_renders(table, qtbot, resources: Path, tmp_path: Path) -> None:  # noqa: ANN001
    """The editor drawn to PNG: the card list, the form and the card's face."""
    table.start(find_module("greenland"), seed=2)
    editor = open_editor(table.window, qtbot)
    editor.select_card("polar-bear")
    names = [editor.module_box.itemText(i) for i in range(editor.module_box.count())]
    assert "Greenland" in names and "Looot" not in names
    out = tmp_path / "deck-editor.png"
    assert editor.grab().save(str(out))
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 600
    preview = editor.preview.pixmap().toImage()
    colours = {preview.pixel(x, y) for x in range(0, preview.width(), 5) for y in range(0, preview.height(), 5)}  # fmt: skip
    assert len(colours) > 50, "the card's face is drawn"
