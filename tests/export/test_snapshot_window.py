"""Snapshots from the window: the export dialog's defaults and parts, and Ctrl+Shift+C."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRectF, QSettings, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication

from tabletop.core import actions
from tabletop.export import snapshot, snapshot_size, table_source
from tabletop.export.snapshot import region_source, snapshot_image
from tabletop.modules import find_module
from tabletop.ui.export_dialog import ExportDialog
from tabletop.ui.window import MainWindow


def window_with(qtbot, tmp_path: Path, module_id: str, monkeypatch) -> MainWindow:  # noqa: ANN001
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    window = MainWindow(
        QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), ask=False
    )
    qtbot.addWidget(window)
    window.start_new(find_module(module_id), seats=3, seed=1)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_default_png_of_a_greenland_table_opens_anywhere(
    qtbot,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_with(qtbot, tmp_path, "greenland", monkeypatch)
    dialog = ExportDialog(window, window.scene, window.view)
    qtbot.addWidget(dialog)
    assert dialog.whole.isChecked() and Path(dialog.file_edit.text()).suffix == ".png"
    assert dialog.scale_box.value() < 2  # at 2 the table would be some 6,000 pixels wide
    assert "opens anywhere" in dialog.size_label.text()
    assert not dialog.preview.pixmap().isNull()  # a preview of what will be written
    assert dialog.export()
    written = QImage(str(dialog.written))
    assert not written.isNull(), "Qt's own reader refuses the default snapshot"
    assert 3000 < written.width() <= 4096
    shown = dialog.size_label.text().split(" pixels")[0]
    assert shown == f"{written.width():,} x {written.height():,}"
    # a chosen scale is kept, and the form says such a picture may not open everywhere
    dialog = ExportDialog(window, window.scene, window.view)
    qtbot.addWidget(dialog)
    dialog.scale_box.setValue(2.0)
    assert "some viewers will not open" in dialog.size_label.text()
    window.close()


def test_the_dialog_exports_the_selection_or_a_named_place(
    qtbot,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_with(qtbot, tmp_path, "proto", monkeypatch)
    scene, state = window.scene, window.session.state
    dialog = ExportDialog(window, scene, window.view)
    qtbot.addWidget(dialog)
    assert not dialog.selection.isEnabled()  # nothing is selected
    picked = state.places["market"].contents[:2]
    scene.select(picked)
    dialog = ExportDialog(window, scene, window.view)
    qtbot.addWidget(dialog)
    dialog.selection.setChecked(True)
    bounds = QRectF()
    for pid in picked:
        bounds = bounds.united(scene.pieces[pid].sceneBoundingRect())
    assert dialog.source().contains(bounds)
    assert dialog.source().width() < bounds.width() + 2 * snapshot.REGION_MARGIN + 1
    dialog.scale_box.setValue(1.0)
    dialog.log_box.setValue(0)
    dialog.file_edit.setText(str(tmp_path / "selection.png"))
    assert dialog.export()
    img = QImage(str(tmp_path / "selection.png"))
    assert (img.width(), img.height()) == snapshot_size(
        dialog.source(), 1.0, dialog.caption_edit.text(), [], dialog.header()
    )

    dialog = ExportDialog(window, scene, window.view)
    qtbot.addWidget(dialog)
    dialog.named.setChecked(True)
    dialog.place_box.setCurrentIndex(dialog.place_box.findData("supply"))
    assert dialog.source() == region_source(scene, ["supply"])
    assert dialog.source().width() < table_source(scene).width()
    window.close()


def test_ctrl_shift_c_copies_a_spectators_snapshot_to_the_clipboard(
    qtbot,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_with(qtbot, tmp_path, "proto", monkeypatch)
    window.windowHandle().requestActivate()  # a window's shortcuts work while it is active
    qtbot.waitUntil(window.isActiveWindow)
    clipboard = QApplication.clipboard()
    clipboard.clear()
    chord = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_C, chord)
    in_view = clipboard.image()
    assert not in_view.isNull() and 0 < in_view.width() <= 4096
    assert "Copied a snapshot of the part in view" in window.statusBar().currentMessage()

    # the selected pieces: the picture is their bounds (and the header above them)
    scene, game = window.scene, window.session.game
    hand = game.state.places["hand_red"].contents[0]
    scene.select([hand])
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_C, chord)
    first = clipboard.image()
    box = scene.pieces[hand].sceneBoundingRect()
    assert "the selected pieces" in window.statusBar().currentMessage()
    margin = snapshot.REGION_MARGIN
    assert abs(first.width() - (box.width() + 2 * margin) * 2) <= 2  # at scale 2

    # hidden stays hidden: the seat at the screen sees its own card, the clipboard does not
    window.session.set_viewer("red")
    scene = window.scene
    scene.select([hand])  # drawn anew for the seat: selected again
    assert scene.pieces[hand].visible_face
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_C, chord)
    seen = clipboard.image()
    own = snapshot_image(scene, box, 1.0)  # what red sees there
    other = next(p for p in game.state.places["deck"].contents)
    game.table.submit(
        actions.set_property(game.state, hand, "card", game.state.pieces[other].props["card"]),
        "red",
    )
    scene.select([hand])
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_C, chord)
    swapped = clipboard.image()
    assert seen.size() == swapped.size()
    top = seen.height() - round((box.height() + 2 * margin) * 2)
    table = seen.copy(0, top, seen.width(), seen.height() - top)
    assert table == swapped.copy(0, top, seen.width(), seen.height() - top)
    assert snapshot_image(window.scene, box, 1.0) != own  # red would have seen the change
    window.close()


def test_the_tables_context_menu_offers_copy_and_export(
    qtbot,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_with(qtbot, tmp_path, "proto", monkeypatch)
    seen: list[list[str]] = []

    def read_menu() -> None:
        menu = QApplication.activePopupWidget()
        assert menu is not None
        seen.append([a.text() for a in menu.actions()])
        menu.close()

    QTimer.singleShot(0, read_menu)
    viewport = window.view.viewport()
    corner = viewport.rect().bottomRight() - QPoint(5, 5)  # felt, no piece
    # the event a right click gives the table (QTest's clicks do not make one)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, corner, viewport.mapToGlobal(corner))
    QApplication.sendEvent(viewport, event)
    assert seen and "&Copy snapshot" in seen[0] and "&Export snapshot…" in seen[0]
    window.close()
