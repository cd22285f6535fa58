"""The export dialog: a snapshot of the table (PNG, SVG or PDF) for a rules discussion."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEventLoop, QRectF, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
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
from tabletop.export.header import snapshot_header
from tabletop.export.snapshot import (
    OPENS_ANYWHERE,
    ExportError,
    export_scene,
    fitting_width_scale,
    region_source,
    snapshot_image,
    snapshot_size,
    table_source,
)

from .scene import TableScene
from .view import TableView

DEFAULT_SCALE = {".png": 2.0, ".svg": 1.0, ".pdf": 1.0}  # lowered to fit OPENS_ANYWHERE wide
FILTERS = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
PREVIEW_SIDE = 360  # pixels: the preview of the chosen part


class ExportDialog(QDialog):
    """The whole table, the part in view, the selected pieces or a named place; scale, file,
    caption and log lines; a preview and the size; errors stay here. Every snapshot has the
    game's header (tabletop/export/header.py)."""

    def __init__(self, parent: QWidget | None, scene: TableScene, view: TableView) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view = view
        self.session = scene.session
        self.setWindowTitle("Export snapshot")
        self._scale_touched = False
        self._confirmed: str | None = None  # a file the chooser already asked to replace
        self.written: Path | None = None
        self._headers: dict[str | None, list[str]] = {}

        self.whole = QRadioButton("The whole table")
        self.visible = QRadioButton("The part in view")
        self.selection = QRadioButton("The selected pieces")
        self.named = QRadioButton("A place:")
        self.whole.setChecked(True)
        self._selected = scene.selected_pieces()
        self.selection.setEnabled(bool(self._selected))
        self.place_box = QComboBox()
        for place in self.session.state.places.values():
            if place.kind != "regions":
                self.place_box.addItem(place.label or place.id, place.id)
        for seat in self.session.game.header.seats:
            if seat.id in scene.zones:
                self.place_box.addItem(f"{seat.name or seat.id}'s area", seat.id)
        self.place_box.setToolTip("The place with its pieces (a seat's area: all its places)")
        group = QButtonGroup(self)
        part = QHBoxLayout()
        for button in (self.whole, self.visible, self.selection, self.named):
            group.addButton(button)
            part.addWidget(button)
        part.addWidget(self.place_box)
        part.addStretch(1)

        self.file_edit = QLineEdit(str(self._default_path()))
        self.file_edit.setMinimumWidth(420)
        choose = QPushButton("Choose…")
        choose.clicked.connect(self.choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_edit, 1)
        file_row.addWidget(choose)

        self.scale_box = QDoubleSpinBox(
            minimum=snapshot.MIN_SCALE, maximum=8.0, singleStep=0.25, decimals=2
        )
        self.scale_box.setToolTip(
            "Pixels (points in a PDF) per unit of the table; 1 is 4 to the millimetre"
        )
        self.size_label = QLabel()
        self.preview = QLabel()
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(PREVIEW_SIDE, PREVIEW_SIDE // 2)
        self.preview.setToolTip(
            "The part of the table the snapshot will show, as its viewer sees it "
            "(the caption and header above it, the log band below)"
        )

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
        form.addRow("Preview", self.preview)
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

        self._propose_scale()
        self.scale_box.valueChanged.connect(self._scale_edited)
        self.file_edit.textChanged.connect(self._file_edited)
        for signal in (self.caption_edit.textChanged, self.log_box.valueChanged):
            signal.connect(self._update_size)
        for signal in (
            group.buttonToggled,
            self.place_box.currentIndexChanged,
            self.show_hand.toggled,
        ):
            signal.connect(self._part_changed)
        self._update_size()
        self._update_preview()

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
        """None for the whole table, else the part chosen: in view, the selected pieces (with a
        margin), or a place or seat's area with its pieces."""
        if self.visible.isChecked():
            return self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if self.selection.isChecked() and self._selected:
            bounds = QRectF()
            for pid in self._selected:
                item = self.scene.pieces.get(pid)
                if item is not None:
                    bounds = bounds.united(item.sceneBoundingRect())
            m = snapshot.REGION_MARGIN
            return bounds.adjusted(-m, -m, m, m)
        if self.named.isChecked() and self.place_box.currentData():
            return region_source(self.scene, [self.place_box.currentData()])
        return None

    def header(self) -> list[str]:
        """The game's facts above the table, and whose view it is (counted once a viewer:
        the table does not change while the dialog is open)."""
        viewer = self.viewer()
        if viewer not in self._headers:
            self._headers[viewer] = snapshot_header(self.session, viewer)
        return self._headers[viewer]

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
        self._propose_scale()
        self._update_size()

    def _part_changed(self, *_args: object) -> None:
        self._propose_scale()
        self._update_size()
        self._update_preview()

    def _propose_scale(self) -> None:
        """Unless a scale was chosen: the format's own, lowered so the picture is at most
        OPENS_ANYWHERE wide (a picture any viewer opens)."""
        suffix = self._suffix()
        if self._scale_touched or suffix not in DEFAULT_SCALE:
            return
        scale = fitting_width_scale(
            self._chosen(),
            DEFAULT_SCALE[suffix],
            OPENS_ANYWHERE,
            self.caption_edit.text(),
            self.log_lines(),
            self.header(),
        )
        self.scale_box.blockSignals(True)
        self.scale_box.setValue(scale)
        self.scale_box.blockSignals(False)

    def _chosen(self) -> QRectF:
        try:
            return self.source() or table_source(self.scene)
        except ExportError:
            return table_source(self.scene)

    def _update_size(self) -> None:
        suffix = self._suffix()
        w, h = snapshot_size(
            self._chosen(),
            self.scale_box.value(),
            self.caption_edit.text(),
            self.log_lines(),
            self.header(),
        )
        unit = "points" if suffix == ".pdf" else "pixels"
        text = f"{w:,} x {h:,} {unit}"
        limit = {".png": snapshot.MAX_PNG_SIDE, ".pdf": snapshot.MAX_PDF_SIDE}.get(suffix)
        too_large = limit is not None and max(w, h) > limit
        if too_large:
            text += f": too large (at most {limit:,} on a side); lower the scale"
        elif suffix == ".png" and w > OPENS_ANYWHERE:
            text += f": wider than {OPENS_ANYWHERE:,}, which some viewers will not open"
        elif suffix == ".png":
            text += ", opens anywhere"
        self.size_label.setText(text)
        self.size_label.setStyleSheet("color: #b71c1c" if too_large else "")

    def _update_preview(self) -> None:
        """The chosen part as it will look, small: what the snapshot's viewer may see."""
        source = self._chosen()
        scale = min(1.0, PREVIEW_SIDE / max(source.width(), source.height(), 1.0))
        try:
            picture = snapshot_image(
                self.scene,
                source,
                max(snapshot.MIN_SCALE, scale),
                as_spectator=self.viewer() is None,
            )
        except ExportError as exc:
            self.preview.setText(_plain(str(exc)))
            return
        self.preview.setPixmap(
            QPixmap.fromImage(picture).scaled(
                PREVIEW_SIDE,
                PREVIEW_SIDE,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        )

    # ---- exporting ---------------------------------------------------------------
    def export(self) -> bool:
        """Write the snapshot; on success the dialog closes, otherwise it says why."""
        self.error.clear()
        text = self.file_edit.text().strip()
        if not text:
            return self._fail("Choose a file to export to.")
        path = Path(text).expanduser()
        if (path.exists() or path.is_symlink()) and text != self._confirmed:
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
                header=self.header(),
                log_lines=self.log_lines(),
                progress=self._progress,
                as_spectator=not (self._seat_view and self.show_hand.isChecked()),
                replace=text == self._confirmed,
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
