"""Greenland in the window: the deck revision in the status bar, the setup's choices, double-sided cards, a snapshot."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainterPath

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.reading import read
from tabletop.export import render_game
from tabletop.modules import find_module
from tabletop.ui.dialogs import NewGameDialog
from tabletop.ui.layout import bowl_radius


def test_status_bar_names_the_deck_revision_and_its_placeholders(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=2)
    text = table.window.status.text()
    count = table.state.counters["deck.placeholders"]
    assert f"Deck: reconstructed ({count} placeholder values ≈)" in text
    assert "placeholders" in table.window.status.toolTip()


def test_new_game_dialog_offers_the_norse_animal_and_the_revision(qtbot, window) -> None:  # noqa: ANN001
    dialog = NewGameDialog(window, "greenland")
    qtbot.addWidget(dialog)
    animal = dialog._option_boxes["norse_animal"]
    assert [animal.itemData(i) for i in range(animal.count())] == [
        "cattle",
        "sheep",
        "pony",
        "goat",
    ]
    animal.setCurrentIndex(animal.findData("goat"))
    assert dialog.variant_box.findData("two-player") >= 0 and dialog.variant_box.findData("") < 0
    choices = dialog.choices()
    assert choices["options"]["norse_animal"] == "goat"
    game = window.start_new(
        choices["module"],
        deck=choices["deck"],
        seats=choices["seats"],
        variant="standard",
        seed=1,
        options=choices["options"],
    )
    assert read(game.state, Cards.of(choices["module"]))["cultures"]["red"]["tableau"][-1] == "Goat"


def test_flipping_markland_turns_it_hostile(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=3)
    table.scene.select(["markland"])
    table.key(Qt.Key.Key_F)
    assert table.state.pieces["markland"].props["card"] == "markland-hostile"
    assert table.state.pieces[
        "markland"
    ].face_up  # a double-sided card shows its other side, never its back
    table.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert table.state.pieces["markland"].props["card"] == "markland-peaceful"


def test_a_fresh_standard_setup_snapshot(tmp_path: Path) -> None:
    from tabletop.modules import new_game

    module = find_module("greenland")
    game = new_game(module, seed=7)
    out = tmp_path / "greenland.png"
    render_game(
        game, module, out, scale=0.5, caption="Greenland, a fresh standard setup", log_count=4
    )
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 800 and image.height() > 500
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 200, "a snapshot of a whole table is not blank"


def test_import_deck_revision_from_the_window(window, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import shutil

    from tabletop.modules import resources_dir

    folder = tmp_path / "resources"
    shutil.copytree(resources_dir(), folder)
    monkeypatch.setenv("TABLETOP_RESOURCES", str(folder))
    good = tmp_path / "good.csv"
    shutil.copy(folder / "greenland" / "decks" / "reconstructed.csv", good)
    assert window.import_deck("greenland", str(good), "printed")
    assert (folder / "greenland" / "decks" / "printed.csv").exists()
    bad = tmp_path / "bad.csv"
    bad.write_text(
        good.read_text().replace(
            "Walrus,north,,north,maritime,15", "Walrus,north,,north,maritime,99"
        )
    )
    assert not window.import_deck("greenland", str(bad), "broken")
    assert "column 'climax'" in window.statusBar().currentMessage()
    assert not (folder / "greenland" / "decks" / "broken.csv").exists()


def test_rules_mode_and_house_rules_in_the_window(table) -> None:  # noqa: ANN001
    from tabletop.core import Mode

    table.start(find_module("greenland"), seed=2)
    window = table.window
    assert window.actions_by_name["mode_advisory"].isChecked()
    window.actions_by_name["mode_strict"].trigger()
    assert table.live.policy.mode is Mode.STRICT
    assert window.settings.value("rules/greenland") == "strict"
    assert window.set_house_rules("E1 off\nB4 advisory\n")
    assert (
        table.live.policy.mode_for("E1") is Mode.OFF
        and table.live.policy.mode_for("B4") is Mode.ADVISORY
    )
    assert not window.set_house_rules("E1 sometimes")
    assert "line 1" in window.statusBar().currentMessage()


def test_card_context_menu_offers_the_rules_assistants_steps(table) -> None:  # noqa: ANN001
    from tabletop.core import actions

    table.start(find_module("greenland"), seed=5)
    window, state = table.window, table.state
    panel = window.phase_panel
    panel.answerer = lambda need: need.options[0]
    card = state.places["south_warm"].contents[1]
    while panel.status.phase != "hunt":
        if panel.status.phase == "assignment" and not state.contents(card, "hunters"):
            cube = next(p for p in state.places["hunters_red"].contents if p.startswith("cube"))
            assert window.session.submit(actions.move(state, cube, card, spot="hunters"))
            continue
        assert panel.run(panel.offered[0])
    steps = window.card_steps(card)
    name = steps[0].label
    assert len(steps) == 1 and name.startswith("Hunt ") and "red 1" in name
    assert panel.run(steps[0])
    assert window.card_steps(card) == []


def _image(icon) -> QImage:  # noqa: ANN001 - a QIcon
    return icon.pixmap(44, 44).toImage()


def test_the_dice_tray_shows_the_dice_as_they_lie(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=4)
    panel = table.window.docks["dice"].widget()
    dice = panel.dice()
    assert len(dice) == panel.list.count() == 6
    for row, pid in enumerate(dice):
        item = panel.list.item(row)
        assert item.text() == ""  # a picture, not words
        assert not item.icon().isNull()
        assert f"{pid}: {table.state.pieces[pid].value}" in item.toolTip()
    # two dice showing the same face look the same; after a roll the tray shows the new faces
    before = {pid: _image(panel.list.item(i).icon()) for i, pid in enumerate(dice)}
    values = {pid: table.state.pieces[pid].value for pid in dice}
    panel.count.setValue(6)
    panel.roll_n.click()
    changed = [pid for pid in dice if table.state.pieces[pid].value != values[pid]]
    assert changed, "six dice rolled and none changed face"
    for i, pid in enumerate(dice):
        same = _image(panel.list.item(i).icon()) == before[pid]
        assert same == (pid not in changed), pid


def test_a_bowls_pieces_lie_inside_the_bowl(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=4)
    bowls = [p for p in table.state.places.values() if p.kind == "bowl" and p.contents]
    assert bowls
    for place in bowls:
        item = table.scene.places[place.id]
        outline = QPainterPath()
        outline.addRoundedRect(item.rect, *(2 * [bowl_radius(table.layout.place_rect(place.id))]))
        for pid in place.contents:
            box = table.scene.pieces[pid].mapRectToScene(QRectF(0, 0, *table.scene.size_of(pid)))
            for corner in (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight()):
                assert outline.contains(corner), (place.id, pid)
