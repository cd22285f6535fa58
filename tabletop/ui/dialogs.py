"""Dialogs and overlays: a new game, the hot-seat curtain, the large card preview, peeking and searching."""

from __future__ import annotations

import random

# PySide6 makes a class (and its enums' Python types) when it is first asked for:
# the dialogs' own widget classes are read from QtWidgets when a dialog is made
# (the window's start uses none of them).
from PySide6 import QtWidgets
from PySide6.QtCore import QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import Piece
from tabletop.modules import ModuleError, find_module, module_ids
from tabletop.modules.gamecode import game_of


class NewGameDialog(QDialog):
    """Module, variant, seats (with players' names), seed and notes of a new game."""

    def __init__(self, parent: QWidget | None = None, module_id: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.module_box = QComboBox()
        self.variant_box = QComboBox()
        self.seats_grid = QGridLayout()
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1)
        self.seed.setValue(random.SystemRandom().randrange(2**31))
        self.seed.setToolTip("The same seed gives the same shuffles and dice")
        self.notes = QtWidgets.QPlainTextEdit()
        self.notes.setPlaceholderText("Session notes: testers' names, what is being tried…")
        self.notes.setFixedHeight(70)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b71c1c")
        self._seat_rows: list[tuple[QCheckBox, QtWidgets.QLineEdit, str]] = []
        self._bot_boxes: dict[str, QComboBox] = {}  # seat -> who plays it: a person or a bot
        self.deck_box = QComboBox()
        self.deck_box.setToolTip("The revision of the game's deck (its card data) to play with")
        self.options_form = QtWidgets.QFormLayout()
        self._option_boxes: dict[str, QComboBox] = {}
        form = QtWidgets.QFormLayout()
        form.addRow("Game", self.module_box)
        form.addRow("Variant", self.variant_box)
        form.addRow("Deck", self.deck_box)
        options_widget = QWidget()
        options_widget.setLayout(self.options_form)
        form.addRow(options_widget)
        seats_widget = QWidget()
        seats_widget.setLayout(self.seats_grid)
        form.addRow("Seats", seats_widget)
        form.addRow("Seed", self.seed)
        form.addRow("Notes", self.notes)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText("Start")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        for mid in module_ids():
            self.module_box.addItem(mid, mid)
        if module_id is not None and self.module_box.findData(module_id) >= 0:
            self.module_box.setCurrentIndex(self.module_box.findData(module_id))
        self.module_box.currentIndexChanged.connect(self._module_changed)
        self._module_changed()

    def _module_changed(self) -> None:
        while self.seats_grid.count():
            widget = self.seats_grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._seat_rows.clear()
        self._bot_boxes.clear()
        self.variant_box.clear()
        self.module = None
        mid = self.module_box.currentData()
        if mid is None:
            return
        try:
            self.module = find_module(mid)
        except ModuleError as exc:
            self.error.setText(str(exc))
            return
        self.error.clear()
        if "standard" not in self.module.variants:
            self.variant_box.addItem("Standard", "")
        for vid, name in self.module.variants.items():
            self.variant_box.addItem(name, vid)
        self.deck_box.clear()
        if self.module.decks:
            from tabletop.modules.revisions import revisions

            main = next(iter(self.module.decks.values())).path.stem
            for name in revisions(self.module):
                self.deck_box.addItem(name, name)
            self.deck_box.setCurrentIndex(max(0, self.deck_box.findData(main)))
        self.deck_box.setEnabled(self.deck_box.count() > 1)
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        self._option_boxes.clear()
        for option in self.module.options.values():
            box = QComboBox()
            for choice in option.choices:
                box.addItem(choice, choice)
            box.setCurrentIndex(box.findData(option.default))
            box.setToolTip(option.help)
            self.options_form.addRow(option.label, box)
            self._option_boxes[option.id] = box
        bots = self._module_bots()
        for row, seat in enumerate(self.module.seats):
            check = QCheckBox(seat.name)
            check.setChecked(row < self.module.default_seats)
            check.setStyleSheet(f"QCheckBox {{ color: {seat.colour}; font-weight: bold; }}")
            name = QtWidgets.QLineEdit()
            name.setPlaceholderText("player's name")
            name.setToolTip(f"The player's name in the log; left empty, {seat.name}")
            self.seats_grid.addWidget(check, row, 0)
            self.seats_grid.addWidget(name, row, 1)
            self._seat_rows.append((check, name, seat.id))
            if bots:
                box = QComboBox()
                box.addItem("a person", None)
                for bot in bots:
                    box.addItem(f"the {bot} bot", bot)
                box.setToolTip("Who plays this seat: a person, or one of the game's bots")
                self.seats_grid.addWidget(box, row, 2)
                self._bot_boxes[seat.id] = box

    def _module_bots(self) -> list[str]:
        """The bots the game offers a seat to (its ``bots``), by name."""
        if self.module is None or not self.module.game_path:
            return []
        try:
            game = game_of(self.module)
            return list(game.bots) if game is not None else []
        except ModuleError as exc:
            self.error.setText(str(exc))
            return []

    def seats_text(self) -> str:
        parts = []
        for check, name, sid in self._seat_rows:
            if check.isChecked():
                parts.append(f"{sid}={name.text().strip()}" if name.text().strip() else sid)
        return ",".join(parts)

    def _accept(self) -> None:
        if self.module is None:
            self.error.setText("Choose a game.")
            return
        chosen = sum(1 for check, _, _ in self._seat_rows if check.isChecked())
        if not self.module.min_seats <= chosen <= self.module.max_seats:
            self.error.setText(
                f"{self.module.name} seats {self.module.min_seats} to {self.module.max_seats} players."
            )
            return
        self.accept()

    def choices(self) -> dict:
        return {
            "module": self.module,
            "seats": self.seats_text(),
            "variant": self.variant_box.currentData() or "",
            "seed": self.seed.value(),
            "notes": self.notes.toPlainText().strip(),
            "options": {key: box.currentData() for key, box in self._option_boxes.items()},
            "deck": self.deck_box.currentData() if self.deck_box.count() > 1 else None,
            "bots": {
                sid: box.currentData()
                for (check, _name, sid) in self._seat_rows
                if check.isChecked()
                and (box := self._bot_boxes.get(sid)) is not None
                and box.currentData()
            },
        }


class Curtain(QWidget):
    """Hot-seat privacy: covers the table until the next player says only they can see the screen."""

    confirmed = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet("background: #1d2b24;")
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = QFont()
        font.setPixelSize(28)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setStyleSheet("color: #f4f1e8;")
        self.body = QLabel(
            "The other players' hands are hidden. Click when only you can see the screen."
        )
        self.body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.body.setStyleSheet("color: #c8d6cc; font-size: 16px;")
        self.button = QPushButton("I am ready")
        self.button.setStyleSheet("font-size: 18px; padding: 10px 28px;")
        self.button.clicked.connect(self._confirm)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addSpacing(20)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(1)
        self.seat: str | None = None
        self.hide()

    def show_for(self, seat_id: str, name: str, colour: str) -> None:
        self.seat = seat_id
        self.title.setText(f"Pass the screen to {name}")
        self.title.setStyleSheet(f"color: {colour};")
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        self.button.setFocus()

    def _confirm(self) -> None:
        self.hide()
        self.confirmed.emit()

    def resize_to_parent(self) -> None:
        if self.isVisible():
            self.setGeometry(self.parentWidget().rect())


class Preview(QLabel):
    """A large picture of the piece under the pointer (only what the viewer may see)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.ToolTip)
        self.setStyleSheet("background: #1d2b24; border: 2px solid #ffd54a; padding: 4px;")
        self.hide()

    def show_piece(self, art, piece: Piece, visible: bool, at: QPoint) -> None:  # noqa: ANN001 - FaceArt
        size = art.size(piece)
        if size.width() < 120:  # cubes and disks need no preview
            self.hide()
            return
        scale = 420 / max(size.height(), 1)
        image = QPixmap(int(size.width() * scale), int(size.height() * scale))
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
        )
        painter.scale(scale, scale)
        art.paint(painter, QRectF(0, 0, size.width(), size.height()), piece, visible)
        painter.end()
        self.setPixmap(image)
        self.adjustSize()
        self.move(at + QPoint(24, 24))
        self.show()


class PickDialog(QDialog):
    """A list of pieces to look at (peek) or to take one from (search)."""

    def __init__(
        self, parent: QWidget | None, title: str, art, pieces: list[Piece], choose: bool
    ) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.setWindowTitle(title)
        self.list = QListWidget()
        self.list.setViewMode(QListWidget.ViewMode.IconMode)
        self.list.setIconSize(QPixmap(126, 176).size())
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setMinimumSize(720, 420)
        for piece in pieces:
            pixmap = art.pixmap(piece, True, 0.5)
            item = QListWidgetItem(piece.id)
            item.setIcon(pixmap)
            item.setData(Qt.ItemDataRole.UserRole, piece.id)
            self.list.addItem(item)
        buttons = QtWidgets.QDialogButtonBox(
            (
                QtWidgets.QDialogButtonBox.StandardButton.Ok
                | QtWidgets.QDialogButtonBox.StandardButton.Cancel
            )
            if choose
            else QtWidgets.QDialogButtonBox.StandardButton.Close
        )
        if choose:
            buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText("Take")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept() if choose else None)

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None
