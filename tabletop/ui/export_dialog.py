"""The export dialog: a snapshot of the table (PNG, SVG or PDF) for a rules discussion."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEventLoop, QRectF
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tabletop.export import snapshot
from tabletop.export.snapshot import ExportError, export_scene, snapshot_size, table_source

from .scene import TableScene
from .view import TableView

DEFAULT_SCALE = {".png": 2.0, ".svg": 1.0, ".pdf": 1.0}
FILTERS = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"


class ExportDialog(QDialog):
    """Whole table or the part in view, scale, file, caption and log lines; errors stay here."""

    def __init__(self, parent: QWidget | None, scene: TableScene, view: TableView) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view = view
        self.session = scene.session
        self.setWindowTitle("Export snapshot")
        self._scale_touched = False
        self._confirmed: str | None = None  # a file the chooser already asked to replace
        self.written: Path | None = None

        self.whole = QRadioButton("The whole table")
        self.visible = QRadioButton("The part in view")
        self.whole.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.whole)
        group.addButton(self.visible)
        part = QHBoxLayout()
        part.addWidget(self.whole)
        part.addWidget(self.visible)
        part.addStretch(1)

        self.file_edit = QLineEdit(str(self._default_path()))
        self.file_edit.setMinimumWidth(420)
        choose = QPushButton("Choose…")
        choose.clicked.connect(self.choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_edit, 1)
        file_row.addWidget(choose)

        self.scale_box = QDoubleSpinBox(minimum=0.25, maximum=8.0, singleStep=0.25, decimals=2)
        self.scale_box.setValue(DEFAULT_SCALE.get(self._suffix(), 1.0))
        self.scale_box.setToolTip(
            "Pixels (points in a PDF) per unit of the table; 1 is 4 to the millimetre"
        )
        self.size_label = QLabel()

        self.caption_edit = QLineEdit(self._default_caption())
        self.caption_edit.setPlaceholderText("A title above the table (none if empty)")
        self.log_box = QSpinBox(minimum=0, maximum=40)
        self.log_box.setValue(8)
        self.log_box.setSuffix(" entries")
        self.log_box.setToolTip("The last entries of the log, up to the one shown, under the table")

        seat = self.session.viewer
        seats = {s.id: s.name or s.id for s in self.session.game.header.seats}
        self.show_hand = QCheckBox(f"Show what {seats.get(seat, seat)} sees (their hand)")
        self.show_hand.setToolTip(
            "Left unticked, the snapshot shows only what any spectator sees: "
            "face-down cards and every hand show their backs"
        )
        self._seat_view = seat in seats
        self.show_hand.setVisible(self._seat_view)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(False)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b71c1c")
        self.error.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Show", part)
        form.addRow("File", file_row)
        form.addRow("Scale", self.scale_box)
        form.addRow("Size", self.size_label)
        form.addRow("Caption", self.caption_edit)
        form.addRow("Log", self.log_box)
        form.addRow("", self.show_hand)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        self.buttons.accepted.connect(self.export)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        self.scale_box.valueChanged.connect(self._scale_edited)
        self.file_edit.textChanged.connect(self._file_edited)
        for signal in (
            self.whole.toggled,
            self.caption_edit.textChanged,
            self.log_box.valueChanged,
        ):
            signal.connect(self._update_size)
        self._update_size()

    # ---- what is asked -------------------------------------------------------
    def _default_path(self) -> Path:
        from .window import games_folder

        game = self.session.game
        stem = Path(game.path).stem if game.path else game.header.module
        shown = self._shown_seq()
        base = games_folder() / f"{stem}-entry{shown}"
        path, n = base.with_suffix(".png"), 2
        while path.exists():
            path = base.parent / f"{base.name}-{n}.png"
            n += 1
        return path

    def _default_caption(self) -> str:
        module = self.session.module
        name = module.name if module else self.session.game.header.module
        return f"{name}, after entry {self._shown_seq()} of {self.session.table.seq}"

    def _shown_seq(self) -> int:
        seq = self.session.history_seq
        return self.session.table.seq if seq is None else seq

    def _suffix(self) -> str:
        return Path(self.file_edit.text().strip()).suffix.lower()

    def source(self) -> QRectF | None:
        """None for the whole table, else the part of the scene the view shows."""
        if self.whole.isChecked():
            return None
        return self.view.mapToScene(self.view.viewport().rect()).boundingRect()

    def log_lines(self) -> list[str]:
        count = self.log_box.value()
        if not count:
            return []
        shown = self._shown_seq()
        entries = [e for e in self.session.table.entries if e.seq <= shown][-count:]
        return self.session.log_reader.lines(self.viewer(), entries)

    def viewer(self) -> str | None:
        """Whose view the snapshot shows: the seat at the screen if its hand is shown, else a
        spectator's (the log band follows it: a card the viewer could not see is not named)."""
        shown = self._seat_view and self.show_hand.isChecked()
        return self.session.viewer if shown else None

    # ---- keeping the form in step ----------------------------------------------
    def choose_file(self) -> None:
        current = self.file_edit.text().strip()
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the table as", current, FILTERS, _filter_for(self._suffix())
        )
        if path:
            self._confirmed = path  # the chooser asked before replacing a file
            self.file_edit.setText(path)

    def _scale_edited(self) -> None:
        self._scale_touched = True
        self._update_size()

    def _file_edited(self) -> None:
        suffix = self._suffix()
        if not self._scale_touched and suffix in DEFAULT_SCALE:
            self.scale_box.blockSignals(True)
            self.scale_box.setValue(DEFAULT_SCALE[suffix])
            self.scale_box.blockSignals(False)
        self._update_size()

    def _update_size(self) -> None:
        suffix = self._suffix()
        source = self.source() or table_source(self.scene)
        w, h = snapshot_size(
            source, self.scale_box.value(), self.caption_edit.text(), self.log_lines()
        )
        unit = "points" if suffix == ".pdf" else "pixels"
        text = f"{w:,} x {h:,} {unit}"
        limit = {".png": snapshot.MAX_PNG_SIDE, ".pdf": snapshot.MAX_PDF_SIDE}.get(suffix)
        too_large = limit is not None and max(w, h) > limit
        if too_large:
            text += f": too large (at most {limit:,} on a side); lower the scale"
        self.size_label.setText(text)
        self.size_label.setStyleSheet("color: #b71c1c" if too_large else "")

    # ---- exporting ---------------------------------------------------------------
    def export(self) -> bool:
        """Write the snapshot; on success the dialog closes, otherwise it says why."""
        self.error.clear()
        text = self.file_edit.text().strip()
        if not text:
            return self._fail("Choose a file to export to.")
        path = Path(text).expanduser()
        if path.exists() and text != self._confirmed:
            return self._fail(
                f"{path} already exists; choose another name, or pick it with 'Choose…' to replace it."
            )
        self.buttons.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        try:
            export_scene(
                self.scene,
                path,
                scale=self.scale_box.value(),
                source=self.source(),
                caption=self.caption_edit.text(),
                log_lines=self.log_lines(),
                progress=self._progress,
                as_spectator=not (self._seat_view and self.show_hand.isChecked()),
            )
        except (ExportError, OSError) as exc:
            return self._fail(_plain(str(exc)))
        finally:
            self.buttons.setEnabled(True)
        self.written = path
        parent = self.parent()
        if parent is not None and hasattr(parent, "statusBar"):
            parent.statusBar().showMessage(f"Snapshot saved: {path}", 8000)
        self.accept()
        return True

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)

    def _fail(self, message: str) -> bool:
        self.error.setText(message)
        self.progress.setValue(0)
        return False


def _filter_for(suffix: str) -> str:
    for name in FILTERS.split(";;"):
        if f"*{suffix})" in name:
            return name
    return FILTERS.split(";;")[0]


def _plain(message: str) -> str:
    """One sentence for a person: no exception class, no trailing noise."""
    return re.sub(r"\s+", " ", message).strip()
