"""The deck editor (Game > Edit deck…): a module's deck card by card, saved as a new revision.

The window works from the deck's schema alone (its columns' types, ranges and allowed
words, tabletop/modules/deck.py) and what the module's game says of its rows (the check of
the whole deck, which values are placeholders, the words a list column takes): it knows no
game. On the left the cards (search, a filter, each card's count of placeholder values, a
mark on cards with problems); in the middle a form built from the columns (a spin box for
a whole number with its range, a list of choices, boxes to tick for a small set of words or
faces, a line of text with the game's vocabulary to insert); on the right the card's face,
drawn by the table's own painter as the card now reads, and the card's problems.

Each cell is checked as it is typed: a cell that cannot be read turns red and the message
names the column and what it takes; a spin box refuses a number out of its range (the red
shows while it is typed, and the value is not taken). A value the game marks as a
placeholder has an amber '≈' beside it; entering a value gives it the source named in the
toolbar (the mark goes), and the '≈' button marks it a placeholder again. Every change is
one step of an undo stack. "Save as revision…" shows what changed since the revision the
editor started from (``tabletop deck diff``), then imports the cards as a new revision with
exactly the checks of ``tabletop deck import``; a refusal names the problem and keeps every
edit. After a save the window offers a new game with the new revision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QRectF, QSettings, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPixmap,
    QUndoCommand,
    QUndoStack,
    QValidator,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import Piece
from tabletop.modules import Column, Module, ModuleError, find_module, module_ids
from tabletop.modules.deck_diff import diff_text
from tabletop.modules.deck_draft import DeckDraft, describe
from tabletop.modules.revisions import revisions

from .faces import FaceArt

RED = "#c62828"
AMBER = "#d98a00"
PREVIEW_HEIGHT = 400
CHECK_LIMIT = 12  # a list column with this many allowed values or fewer gets boxes to tick
DEFAULT_SOURCE = "printed card"
FILTERS = (
    ("all", "All cards"),
    ("placeholders", "With placeholder values"),
    ("problems", "With problems"),
    ("changed", "Changed"),
)
ERROR_STYLE = f"border: 2px solid {RED}; background: #fdecea;"


def modules_with_decks() -> list[Module]:
    """The modules in the resources folder that have a deck (a module that cannot load is left out)."""
    found = []
    for module_id in module_ids():
        try:
            module = find_module(module_id)
        except ModuleError:
            continue
        if module.decks:
            found.append(module)
    return found


def _undo_key(event: QEvent) -> bool:
    """Whether a shortcut override is Undo or Redo (left to the editor's own stack)."""
    return event.type() == QEvent.Type.ShortcutOverride and (
        event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)
    )


# ---- fields: one widget a column, each giving its cell's text ----------------------------
class Field(QWidget):
    """A column's editor: ``edited(text)`` when the person changes the value, ``typing(text)``
    while it is typed (for the live check); ``set_text`` shows a cell without signalling."""

    edited = Signal(str)
    typing = Signal(str)

    def __init__(self, column: Column) -> None:
        super().__init__()
        self.column = column
        self.error: str | None = None
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.setSpacing(4)

    def set_text(self, text: str) -> None:  # pragma: no cover - every field overrides it
        raise NotImplementedError

    def text(self) -> str:  # pragma: no cover - every field overrides it
        raise NotImplementedError

    def set_error(self, message: str | None) -> None:
        """Red, with the message as its tooltip, while the value cannot be read."""
        self.error = message
        self.focus_widget().setStyleSheet(ERROR_STYLE if message else "")
        self.setToolTip(message or describe(self.column))

    def focus_widget(self) -> QWidget:
        return self


class _Line(QLineEdit):
    def event(self, event: QEvent) -> bool:
        if _undo_key(event):
            event.ignore()
            return False
        return super().event(event)


class LineField(Field):
    """Text; for a list column, the game's words to insert from a menu."""

    def __init__(self, column: Column, words: list[tuple[str, str]], read_only: bool) -> None:
        super().__init__(column)
        self.line = _Line()
        self.line.setReadOnly(read_only)
        self.line.setPlaceholderText("(empty)")
        self.line.textEdited.connect(self.typing)
        self.line.textEdited.connect(self.edited)
        self.layout_.addWidget(self.line, 1)
        if words:
            button = QToolButton()
            button.setText("+ word")
            button.setToolTip(f"Insert a word of the vocabulary into {column.name}")
            button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            menu = QMenu(button)
            for word, meaning in words:
                action = menu.addAction(f"{word}    — {meaning}")
                action.setToolTip(meaning)
                action.triggered.connect(lambda _=False, w=word: self.insert(w))
            button.setMenu(menu)
            self.words_button = button
            self.layout_.addWidget(button)

    def insert(self, word: str) -> None:
        current = self.line.text().strip().rstrip(";").strip()
        text = f"{current}; {word}" if current else word
        self.line.setText(text)
        self.line.setFocus()
        self.edited.emit(text)

    def set_text(self, text: str) -> None:
        if self.line.text() != text:
            self.line.setText(text)

    def text(self) -> str:
        return self.line.text()

    def focus_widget(self) -> QWidget:
        return self.line


class _Spin(QSpinBox):
    """A spin box that shows an out-of-range number while it is typed (so it can be marked red)
    but takes only a number in range; the lowest step below the range is 'empty'."""

    def __init__(self, low: int, high: int, empty: bool) -> None:
        super().__init__()
        self.low, self.high, self.empty = low, high, empty
        self.setRange(low - 1 if empty else low, high)
        if empty:
            self.setSpecialValueText("—")
        self.setCorrectionMode(QSpinBox.CorrectionMode.CorrectToPreviousValue)
        self.setKeyboardTracking(False)  # the value is taken on Enter or leaving the field

    def validate(self, text: str, pos: int) -> object:
        stripped = text.strip()
        if stripped.lstrip("-").isdigit():
            value = int(stripped)
            if not self.low <= value <= self.high:
                return QValidator.State.Intermediate, text, pos
        return super().validate(text, pos)

    def event(self, event: QEvent) -> bool:
        if _undo_key(event):
            event.ignore()
            return False
        return super().event(event)


class SpinField(Field):
    """A whole number in its column's range (an optional column may be empty: '—')."""

    def __init__(self, column: Column) -> None:
        super().__init__(column)
        low = int(column.minimum) if column.minimum is not None else -9999
        high = int(column.maximum) if column.maximum is not None else 9999
        self.spin = _Spin(low, high, not column.required)
        self.spin.setMinimumWidth(90)
        self.spin.lineEdit().textEdited.connect(self.typing)
        self.spin.valueChanged.connect(lambda _v: self.edited.emit(self.text()))
        self.spin.editingFinished.connect(lambda: self.typing.emit(self.text()))  # after a revert
        self.layout_.addWidget(self.spin)
        if column.minimum is not None and column.maximum is not None:
            shown = f"{column.minimum:g} to {column.maximum:g}"
        else:
            shown = describe(column).replace("a whole number", "").strip(" ,") or "any"
        self.range_label = QLabel(shown)
        self.range_label.setToolTip(describe(column))
        self.range_label.setStyleSheet("color: #666;")
        self.layout_.addWidget(self.range_label)
        self.layout_.addStretch(1)

    def set_text(self, text: str) -> None:
        text = text.strip()
        self.spin.blockSignals(True)
        try:
            if not text:
                self.spin.setValue(self.spin.minimum())
            else:
                try:
                    self.spin.setValue(int(text))
                except ValueError:
                    self.spin.setValue(self.spin.minimum())
        finally:
            self.spin.blockSignals(False)

    def text(self) -> str:
        if self.spin.specialValueText() and self.spin.value() == self.spin.minimum():
            return ""
        return str(self.spin.value())

    def focus_widget(self) -> QWidget:
        return self.spin


class ChoiceField(Field):
    """One of the column's allowed words (or yes/no), or empty."""

    def __init__(self, column: Column) -> None:
        super().__init__(column)
        self.box = QComboBox()
        self.box.addItem("—", "")
        for choice in column.choices if column.type != "bool" else ("yes", "no"):
            self.box.addItem(choice, choice)
        self.box.activated.connect(lambda _i: self.edited.emit(self.text()))
        self.layout_.addWidget(self.box)
        self.layout_.addStretch(1)

    def set_text(self, text: str) -> None:
        text = text.strip()
        if self.column.type == "bool" and text:
            text = "yes" if text.lower() in ("true", "yes", "1", "y", "x") else "no"
        index = self.box.findData(text)
        if index < 0:
            self.box.addItem(text, text)
            index = self.box.count() - 1
        self.box.blockSignals(True)
        self.box.setCurrentIndex(index)
        self.box.blockSignals(False)

    def text(self) -> str:
        return str(self.box.currentData() or "")

    def focus_widget(self) -> QWidget:
        return self.box


class CheckField(Field):
    """A list of the column's allowed words, or of the whole numbers in its range: one box each."""

    def __init__(self, column: Column, values: list[str]) -> None:
        super().__init__(column)
        self.boxes: dict[str, QCheckBox] = {}
        for value in values:
            box = QCheckBox(value)
            box.setToolTip(f"{column.name}: {value}")
            box.clicked.connect(lambda _c=False: self.edited.emit(self.text()))
            self.boxes[value] = box
            self.layout_.addWidget(box)
        self.layout_.addStretch(1)

    def set_text(self, text: str) -> None:
        chosen = {part.strip() for part in text.split(";") if part.strip()}
        for value, box in self.boxes.items():
            box.setChecked(value in chosen)

    def text(self) -> str:
        return ";".join(v for v, box in self.boxes.items() if box.isChecked())

    def set_error(self, message: str | None) -> None:
        self.error = message
        for box in self.boxes.values():
            box.setStyleSheet(f"color: {RED};" if message else "")
        self.setToolTip(message or describe(self.column))

    def focus_widget(self) -> QWidget:
        return next(iter(self.boxes.values()), self)


def field_for(column: Column, words: list[tuple[str, str]]) -> Field:
    """The widget for a column, from its type, range and allowed words."""
    small_range = (
        column.minimum is not None
        and column.maximum is not None
        and column.maximum - column.minimum < CHECK_LIMIT
    )
    if (
        column.type in ("list", "int_list")
        and column.choices
        and len(column.choices) <= CHECK_LIMIT
    ):
        return CheckField(column, list(column.choices))
    if column.type == "int_list" and small_range:
        values = range(int(column.minimum), int(column.maximum) + 1)  # type: ignore[arg-type]
        return CheckField(column, [str(v) for v in values])
    if column.type == "int":
        return SpinField(column)
    if column.type == "bool" or (column.type == "text" and column.choices):
        return ChoiceField(column)
    return LineField(column, words, read_only=column.name == "id")


# ---- the undo steps ----------------------------------------------------------------------
class EditCells(QUndoCommand):
    """One edit of a card: each changed cell's old and new text. Typing into one field merges
    into one step."""

    TYPING = 1

    def __init__(
        self, editor: DeckEditor, index: int, changes: dict[str, tuple[str, str]], typing: str
    ) -> None:
        column = typing or next(iter(changes))
        super().__init__(f"{column} of {editor.draft.title(index)}")
        self.editor, self.index, self.changes, self.typing = editor, index, changes, typing

    def id(self) -> int:
        return self.TYPING if self.typing else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCells) or (other.index, other.typing) != (
            self.index,
            self.typing,
        ):
            return False
        for column, (old, new) in other.changes.items():
            first = self.changes.get(column, (old, new))[0]
            self.changes[column] = (first, new)
        return True

    def redo(self) -> None:
        self.editor.apply(self.index, {c: new for c, (_old, new) in self.changes.items()})

    def undo(self) -> None:
        self.editor.apply(self.index, {c: old for c, (old, _new) in self.changes.items()})


# ---- saving ------------------------------------------------------------------------------
class SaveRevisionDialog(QDialog):
    """The new revision's name, what changed since the revision the editor started from, and
    the import's answer (a refusal keeps the dialog and every edit)."""

    def __init__(self, editor: DeckEditor) -> None:
        super().__init__(editor)
        self.editor = editor
        draft = editor.draft
        self.setWindowTitle("Save as revision")
        self.resize(640, 520)
        self.name = QLineEdit(_free_name(draft))
        self.name.setToolTip(
            "The revision's name (letters, digits, '.', '-' and '_'): the file"
            f" decks/<name>.csv beside {draft.revision}.csv; an existing one is never replaced"
        )
        self.changes = QPlainTextEdit()
        self.changes.setReadOnly(True)
        self.changes.setFont(QFont("monospace", 9))
        self.changes.setToolTip(f"tabletop deck diff {draft.revision} <the edited cards>")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {RED};")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setToolTip(
            "Check every card as 'tabletop deck import' does, then add the revision"
        )
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Revision name", self.name)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(f"What changes from {draft.revision}:"))
        layout.addWidget(self.changes, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        try:
            self.changes.setPlainText("\n".join(diff_text(draft.diff())))
        except ModuleError as exc:
            self.changes.setPlainText("(the changes show here once every card can be read)")
            self.error.setText(f"As they are, the cards would be refused: {exc}")

    def save(self) -> None:
        name = self.name.text().strip()
        try:
            target = self.editor.draft.save(name)
        except (ModuleError, OSError) as exc:
            self.error.setText(f"Not saved: {exc}")
            return
        self.accept()
        self.editor.saved(name, str(target))


def _free_name(draft: DeckDraft) -> str:
    known = set(revisions(draft.module, draft.deck_id))
    base = f"{draft.revision}-edited"
    name, n = base, 2
    while name in known:
        name, n = f"{base}-{n}", n + 1
    return name


# ---- the window --------------------------------------------------------------------------
class DeckEditor(QMainWindow):
    """A module's deck, card by card; saved as a new revision (see the module docstring).

    ``start_game(module_id, revision)`` is called when, after a save, the person asks for a
    new game with the new revision."""

    def __init__(
        self,
        parent: QWidget | None,
        module: Module,
        settings: QSettings | None = None,
        start_game: Callable[[str, str], Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.settings = settings
        self.start_game = start_game
        self.undo_stack = QUndoStack(self)
        self.fields: dict[str, Field] = {}
        self.markers: dict[str, QToolButton] = {}
        self.labels: dict[str, QLabel] = {}
        self.current = -1
        self._discard = False
        self.save_dialog: SaveRevisionDialog | None = None
        self.close_prompt: QMessageBox | None = None
        self.offer: QMessageBox | None = None
        self._build()
        self.load(DeckDraft.open(module))
        self.resize(1320, 860)
        self._sized = False

    # ---- building ----------------------------------------------------------------------
    def _build(self) -> None:
        bar = self.addToolBar("Deck")
        bar.setMovable(False)
        self.module_box = QComboBox()
        self.module_box.setToolTip("The module whose deck is edited")
        self.revision_box = QComboBox()
        self.revision_box.setToolTip(
            "The revision the edits start from (the changes are shown against it)"
        )
        self.source = QLineEdit()
        self.source.setMinimumWidth(160)
        self.source.setMaximumWidth(260)
        self.source.setToolTip(
            "Where the values you enter come from: recorded with each value you enter, so it"
            " is no longer a placeholder"
        )
        bar.addWidget(QLabel(" Module "))
        bar.addWidget(self.module_box)
        bar.addWidget(QLabel("  Revision "))
        bar.addWidget(self.revision_box)
        self.source_actions = (
            bar.addWidget(QLabel("  Source of entered values ")),
            bar.addWidget(self.source),
        )
        bar.addSeparator()
        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.save_action = self._act(
            "&Save as revision…",
            self.save_dialog_open,
            ["Ctrl+S"],
            "Show what changed, then check every card and add the cards as a new revision",
        )
        self.find_action = self._act(
            "&Find a card", self.find, ["Ctrl+F"], "Search the cards by name or id"
        )
        self.next_action = self._act(
            "&Next card", lambda: self.step(1), ["PgDown"], "The next card in the list"
        )
        self.previous_action = self._act(
            "&Previous card", lambda: self.step(-1), ["PgUp"], "The previous card in the list"
        )
        self.close_action = self._act("&Close", self.close, ["Ctrl+W"], "Close the editor")
        for action in (self.undo_action, self.redo_action):
            self.addAction(action)
        bar.addAction(self.undo_action)
        bar.addAction(self.redo_action)
        bar.addSeparator()
        bar.addAction(self.save_action)
        menu = self.menuBar().addMenu("&Deck")
        for action in (self.save_action, None, self.close_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        edit = self.menuBar().addMenu("&Edit")
        for action in (
            self.undo_action,
            self.redo_action,
            None,
            self.find_action,
            self.previous_action,
            self.next_action,
        ):
            edit.addSeparator() if action is None else edit.addAction(action)

        # the cards
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search cards (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show the cards whose name or id holds this text")
        self.filter_box = QComboBox()
        for key, text in FILTERS:
            self.filter_box.addItem(text, key)
        self.filter_box.setToolTip("Which cards the list shows")
        self.card_list = QListWidget()
        self.card_list.setToolTip(
            "≈N: the card's placeholder values; ⚠: the card has a problem; •: changed"
        )
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        left_layout.addWidget(self.search)
        left_layout.addWidget(self.filter_box)
        left_layout.addWidget(self.card_list, 1)
        self.count_label = QLabel()
        self.count_label.setStyleSheet("color: #555;")
        self.count_label.setWordWrap(True)
        left_layout.addWidget(self.count_label)

        # the form
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.form_host = QWidget()
        self.grid = QGridLayout(self.form_host)
        self.grid.setColumnStretch(1, 1)
        self.grid.setVerticalSpacing(5)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form_host)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {RED}; font-weight: bold;")
        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(8, 4, 8, 4)
        middle_layout.addWidget(self.heading)
        middle_layout.addWidget(scroll, 1)
        middle_layout.addWidget(self.message)

        # the face and the problems
        self.preview = QLabel()
        self.preview.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.preview.setMinimumSize(QSize(290, PREVIEW_HEIGHT + 8))
        self.preview.setToolTip("The card's face as the table draws it, with the values as edited")
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.problems.setTextFormat(Qt.TextFormat.RichText)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 4, 4, 4)
        right_layout.addWidget(self.preview)
        right_layout.addWidget(self.problems, 1)

        splitter = self.splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(middle)
        splitter.addWidget(right)
        splitter.setSizes([260, 640, 380])
        splitter.setStretchFactor(1, 1)
        self.setCentralWidget(splitter)

        self.search.textChanged.connect(self.refill_list)
        self.filter_box.currentIndexChanged.connect(self.refill_list)
        self.card_list.currentItemChanged.connect(self._card_chosen)
        self.undo_stack.cleanChanged.connect(self._update_title)
        self.source.editingFinished.connect(self._remember_source)
        self.module_box.activated.connect(self._module_chosen)
        self.revision_box.activated.connect(self._revision_chosen)

    def showEvent(self, event: Any) -> None:  # noqa: ANN401 - a QShowEvent
        super().showEvent(event)
        if not self._sized:  # the list and the face keep their width; the form takes the rest
            self._sized = True
            width = max(self.splitter.width(), 1000)
            self.splitter.setSizes([260, width - 260 - 400, 400])

    def _act(self, text: str, slot: Callable[[], Any], keys: list[str], tip: str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setToolTip(f"{tip} ({', '.join(keys)})")
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # ---- loading a deck ----------------------------------------------------------------
    def load(self, draft: DeckDraft) -> None:
        """Edit this draft: the form is built from its columns."""
        self.draft = draft
        self.base = [dict(row) for row in draft.cells]
        self.undo_stack.clear()
        self.art_module = draft.module
        self.module_box.blockSignals(True)
        self.module_box.clear()
        for module in modules_with_decks():
            self.module_box.addItem(module.name, str(module.folder))
        if self.module_box.findData(str(draft.module.folder)) < 0:
            self.module_box.addItem(draft.module.name, str(draft.module.folder))
        self.module_box.setCurrentIndex(self.module_box.findData(str(draft.module.folder)))
        self.module_box.blockSignals(False)
        self._fill_revisions()
        remembered = (
            self.settings.value(f"deck_editor/source/{draft.module.id}") if self.settings else None
        )
        self.source.setText(str(remembered) if remembered else DEFAULT_SOURCE)
        for action in self.source_actions:  # only where the game marks placeholders
            action.setVisible(draft.marks_placeholders)
        self._build_form()
        self.current = -1
        self.refill_list()
        if self.card_list.count():
            self.card_list.setCurrentRow(0)
        self._update_title()

    def _fill_revisions(self) -> None:
        self.revision_box.blockSignals(True)
        self.revision_box.clear()
        for name in revisions(self.draft.module, self.draft.deck_id):
            self.revision_box.addItem(name, name)
        self.revision_box.setCurrentIndex(self.revision_box.findData(self.draft.revision))
        self.revision_box.blockSignals(False)

    def _build_form(self) -> None:
        while self.grid.count():
            widget = self.grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.fields.clear()
        self.markers.clear()
        self.labels.clear()
        for row, column in enumerate(self.draft.columns):
            label = QLabel(column.name)
            label.setToolTip(f"{column.name}: {describe(column)}")
            field = field_for(column, self.draft.vocabulary(column.name))
            field.setToolTip(describe(column))
            field.edited.connect(lambda text, name=column.name: self.edit(name, text))
            field.typing.connect(lambda text, name=column.name: self.check_typing(name, text))
            label.setBuddy(field.focus_widget())
            marker = QToolButton()
            marker.setText("≈")
            marker.setCheckable(True)
            marker.setAutoRaise(True)
            marker.setFixedWidth(28)
            marker.clicked.connect(lambda checked, name=column.name: self.mark(name, checked))
            self.grid.addWidget(label, row, 0)
            self.grid.addWidget(field, row, 1)
            self.grid.addWidget(marker, row, 2)
            self.fields[column.name] = field
            self.markers[column.name] = marker
            self.labels[column.name] = label
        self.grid.setRowStretch(len(self.draft.columns), 1)

    # ---- the card list -----------------------------------------------------------------
    def _shown(self, i: int) -> bool:
        text = self.search.text().strip().casefold()
        if (
            text
            and text not in self.draft.title(i).casefold()
            and text not in self.draft.card_id(i).casefold()
        ):
            return False
        key = self.filter_box.currentData()
        if key == "placeholders":
            return bool(self.draft.placeholders(i))
        if key == "problems":
            return bool(self.draft.card_problems(i))
        if key == "changed":
            return self.draft.cells[i] != self.base[i]
        return True

    def _item_text(self, i: int) -> str:
        count = len(self.draft.placeholders(i))
        marks = []
        if self.draft.cells[i] != self.base[i]:
            marks.append("•")
        if count:
            marks.append(f"≈{count}")
        prefix = "⚠ " if self.draft.card_problems(i) else ""
        title = self.draft.title(i)
        if self._titles.get(title, 0) > 1:  # cards of one name: their ids tell them apart
            title = f"{title} ({self.draft.card_id(i)})"
        return f"{prefix}{title}" + (f"   {' '.join(marks)}" if marks else "")

    def refill_list(self) -> None:
        self._titles: dict[str, int] = {}
        for i in range(len(self.draft.cells)):
            self._titles[self.draft.title(i)] = self._titles.get(self.draft.title(i), 0) + 1
        self.card_list.blockSignals(True)
        self.card_list.clear()
        for i in range(len(self.draft.cells)):
            if self._shown(i):
                item = QListWidgetItem(self._item_text(i))
                item.setData(Qt.ItemDataRole.UserRole, i)
                self._style_item(item, i)
                self.card_list.addItem(item)
        self.card_list.blockSignals(False)
        row = self._row_of(self.current)
        if row is not None:
            self.card_list.setCurrentRow(row)
        elif self.card_list.count():
            self.card_list.setCurrentRow(0)
            self._card_chosen(self.card_list.currentItem(), None)
        self._update_counts()

    def _style_item(self, item: QListWidgetItem, i: int) -> None:
        problems = self.draft.card_problems(i)
        count = len(self.draft.placeholders(i))
        tip = [f"{self.draft.card_id(i)}"]
        if count:
            tip.append(
                f"{count} placeholder values: {', '.join(sorted(self.draft.placeholders(i)))}"
            )
        tip += [f"{column}: {message}" for column, message in problems]
        item.setToolTip("\n".join(tip))
        item.setForeground(QColor(RED) if problems else QColor("#222"))

    def _row_of(self, index: int) -> int | None:
        for row in range(self.card_list.count()):
            if self.card_list.item(row).data(Qt.ItemDataRole.UserRole) == index:
                return row
        return None

    def _update_counts(self) -> None:
        total = sum(len(self.draft.placeholders(i)) for i in range(len(self.draft.cells)))
        with_problems = len({i for i, _c, _m in self.draft.problems() if i is not None})
        self.count_label.setText(
            f"{self.card_list.count()} of {len(self.draft.cells)} cards shown ·"
            f" {total} placeholder values · {with_problems} cards with problems"
        )

    def _card_chosen(self, item: QListWidgetItem | None, _previous: Any) -> None:
        if item is None:
            return
        self.show_card(int(item.data(Qt.ItemDataRole.UserRole)))

    def find(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def step(self, by: int) -> None:
        row = self.card_list.currentRow() + by
        if 0 <= row < self.card_list.count():
            self.card_list.setCurrentRow(row)

    def select_card(self, card_id: str) -> bool:
        """Show the card with this id (the search and filter are cleared if they hide it);
        False if the deck has no such card."""
        ids = [self.draft.card_id(i) for i in range(len(self.draft.cells))]
        if card_id not in ids:
            self.statusBar().showMessage(f"The deck has no card {card_id!r}", 10000)
            return False
        index = ids.index(card_id)
        if self._row_of(index) is None:
            self.search.clear()
            self.filter_box.setCurrentIndex(0)
        self.card_list.setCurrentRow(self._row_of(index))
        return True

    # ---- one card ----------------------------------------------------------------------
    def show_card(self, i: int) -> None:
        self.current = i
        row = self.draft.cells[i]
        for name, field in self.fields.items():
            field.set_text(row.get(name, ""))
        self.refresh_card()

    def refresh_card(self) -> None:
        """The marks, messages and face of the card shown, from the draft."""
        i = self.current
        if i < 0:
            return
        draft = self.draft
        placeholders = draft.placeholders(i)
        problems = draft.card_problems(i)
        by_column: dict[str, list[str]] = {}
        for column, message in problems:
            by_column.setdefault(column, []).append(message)
        self.heading.setText(
            f"{draft.title(i)}  <span style='color:#777; font-size:10pt'>{draft.card_id(i)}</span>"
        )
        for name, field in self.fields.items():
            messages = by_column.get(name)
            field.set_error(
                f"{name}: {'; '.join(messages)} (allowed: {describe(field.column)})"
                if messages
                else None
            )
            label = self.labels[name]
            label.setStyleSheet(f"color: {RED}; font-weight: bold;" if messages else "")
            marker = self.markers[name]
            filled = bool(draft.cells[i].get(name, "").strip())
            markable = (
                draft.marks_placeholders
                and bool(draft.placeholder_cells(i, name, name not in placeholders, "x"))
                or name in placeholders
            )
            marker.setVisible(markable)
            marker.setEnabled(filled)
            marker.setChecked(name in placeholders)
            marker.setStyleSheet(
                f"color: white; background: {AMBER}; border-radius: 4px; font-weight: bold;"
                if name in placeholders
                else "color: #aaa;"
            )
            marker.setToolTip(
                f"{name} is a placeholder (a value with no source). Enter the real value, or"
                " click to record it as coming from the source in the toolbar"
                if name in placeholders
                else f"{name} has a source. Click to mark it a placeholder again"
                if filled
                else f"{name} is empty"
            )
            if name in placeholders:
                label.setText(f"{name} ≈")
                label.setToolTip(f"{name}: {describe(field.column)} · a placeholder value")
            else:
                label.setText(name)
        lines = [f"{column}: {message}" for column, message in problems]
        self.message.setText(
            "\n".join(lines[:4]) + (f"\n… and {len(lines) - 4} more" if len(lines) > 4 else "")
        )
        self._paint_preview(i)
        self._show_problems(i)

    def _show_problems(self, i: int) -> None:
        draft = self.draft
        parts = []
        count = len(draft.placeholders(i))
        if count:
            parts.append(
                f"<p><span style='color:{AMBER}; font-weight:bold'>≈ {count} placeholder values</span>"
                f" on this card: {', '.join(sorted(draft.placeholders(i)))}</p>"
            )
        problems = draft.card_problems(i)
        if problems:
            parts.append(f"<p style='color:{RED}'><b>Problems of this card</b><br>")
            parts.append("<br>".join(f"{c}: {_html(m)}" for c, m in problems) + "</p>")
        whole = draft.deck_wide_problems()
        if whole:
            parts.append(f"<p style='color:{RED}'><b>Problems of the deck</b><br>")
            parts.append("<br>".join(_html(m) for _c, m in whole) + "</p>")
        if not problems and not whole:
            parts.append(
                "<p style='color:#2e7d32'>✓ Every card reads as <i>deck import</i> reads it.</p>"
            )
        self.problems.setText("".join(parts))

    def _paint_preview(self, i: int) -> None:
        draft = self.draft
        module = draft.module_now()
        deck = module.decks[draft.deck_id]
        art = FaceArt(module, [])
        card_id = draft.card_id(i)
        piece = Piece(card_id, deck.kind, props={"deck": draft.deck_id, "card": card_id})
        size = art.size(piece)
        scale = PREVIEW_HEIGHT / max(size.height(), 1)
        ratio = self.devicePixelRatioF() or 1.0
        image = QPixmap(int(size.width() * scale * ratio), int(size.height() * scale * ratio))
        image.setDevicePixelRatio(ratio)
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
        )
        painter.scale(scale, scale)
        art.paint(painter, QRectF(0, 0, size.width(), size.height()), piece, True)
        painter.end()
        self.preview.setPixmap(image)

    # ---- editing -----------------------------------------------------------------------
    def check_typing(self, column: str, text: str) -> None:
        """The live check of a cell being typed (a spin box's out-of-range number is shown red
        here and never taken)."""
        if self.current < 0:
            return
        try:
            self.draft.column(column).parse(text)
        except ValueError as exc:
            message = f"{column}: {exc} (allowed: {describe(self.draft.column(column))})"
            self.fields[column].set_error(message)
            self.labels[column].setStyleSheet(f"color: {RED}; font-weight: bold;")
            self.message.setText(message)
            return
        if not any(c == column for c, _m in self.draft.card_problems(self.current)):
            self.fields[column].set_error(None)
            self.labels[column].setStyleSheet("")

    def edit(self, column: str, text: str) -> None:
        """The person changed a cell: one undo step (typing into one field merges), and a value
        entered gets the toolbar's source, so it is no longer a placeholder."""
        i = self.current
        if i < 0 or self.draft.cells[i].get(column, "") == text:
            return
        old = self.draft.cells[i].get(column, "")
        changes = {column: (old, text)}
        if self.draft.marks_placeholders:  # a value entered has the source; an empty one none
            before = dict(self.draft.cells[i])
            self.draft.cells[i][column] = text  # the game reads the row with the new value
            marks = self.draft.placeholder_cells(i, column, not text.strip(), self.source.text())
            self.draft.cells[i] = before
            changes.update({c: (before.get(c, ""), v) for c, v in marks.items()})
        typing = column if isinstance(self.fields.get(column), LineField | SpinField) else ""
        self.undo_stack.push(EditCells(self, i, changes, typing))

    def mark(self, column: str, placeholder: bool) -> None:
        """Mark a value a placeholder again, or record it as coming from the toolbar's source."""
        i = self.current
        cells = self.draft.placeholder_cells(i, column, placeholder, self.source.text())
        if not cells:
            self.refresh_card()
            return
        changes = {c: (self.draft.cells[i].get(c, ""), v) for c, v in cells.items()}
        command = EditCells(self, i, changes, "")
        word = "a placeholder" if placeholder else f"from {self.source.text() or 'a source'}"
        command.setText(f"{column} of {self.draft.title(i)} marked {word}")
        self.undo_stack.push(command)

    def apply(self, i: int, cells: dict[str, str]) -> None:
        """Set cells of card ``i`` (the undo steps call this) and show the result."""
        for column, text in cells.items():
            self.draft.set(i, column, text)
        if i != self.current:
            self.select_card(self.draft.card_id(i))
        else:
            for column, text in cells.items():
                if column in self.fields:
                    self.fields[column].set_text(text)
        self.refresh_card()
        row = self._row_of(i)
        if row is not None:
            item = self.card_list.item(row)
            item.setText(self._item_text(i))
            self._style_item(item, i)
        self._update_counts()

    def _update_title(self, *_args: Any) -> None:
        self.setWindowTitle(
            f"Deck editor — {self.draft.module.name}, from revision {self.draft.revision}[*]"
        )
        self.setWindowModified(not self.undo_stack.isClean())

    def _remember_source(self) -> None:
        if self.settings is not None:
            self.settings.setValue(f"deck_editor/source/{self.draft.module.id}", self.source.text())

    # ---- switching deck ----------------------------------------------------------------
    def _refuse_switch(self) -> bool:
        if self.undo_stack.isClean():
            return False
        self.statusBar().showMessage(
            "Save the edits as a revision (or undo them) before starting from another deck", 10000
        )
        self.module_box.setCurrentIndex(self.module_box.findData(str(self.draft.module.folder)))
        self.revision_box.setCurrentIndex(self.revision_box.findData(self.draft.revision))
        return True

    def _module_chosen(self, _index: int) -> None:
        if self._refuse_switch():
            return
        try:
            self.load(DeckDraft.open(find_module(self.module_box.currentData())))
        except (ModuleError, OSError) as exc:
            self.statusBar().showMessage(str(exc), 15000)

    def _revision_chosen(self, _index: int) -> None:
        if self._refuse_switch():
            return
        try:
            self.load(DeckDraft.open(self.draft.module, self.revision_box.currentData()))
        except (ModuleError, OSError) as exc:
            self.statusBar().showMessage(str(exc), 15000)

    # ---- saving and closing ------------------------------------------------------------
    def save_dialog_open(self) -> SaveRevisionDialog:
        """Show the changes and ask for the new revision's name (window-modal, not blocking)."""
        self._remember_source()
        self.save_dialog = SaveRevisionDialog(self)
        self.save_dialog.open()
        self.save_dialog.name.setFocus()
        self.save_dialog.name.selectAll()
        return self.save_dialog

    def saved(self, name: str, target: str) -> None:
        """After a save: the new revision is the one the edits now start from; offer a game."""
        self.base = [dict(row) for row in self.draft.cells]
        self.undo_stack.setClean()
        self._fill_revisions()
        self._update_title()
        self.refill_list()
        self.statusBar().showMessage(f"Saved as revision {name!r} ({target})", 15000)
        if self._discard:  # saved on the way out
            self.close()
            return
        self.offer = QMessageBox(
            QMessageBox.Icon.Question,
            "Revision saved",
            f"The cards are saved as revision {name!r} of {self.draft.module.name}'s deck.\n\n"
            f"Start a new game with it? (Later: New game, Deck: {name}; or"
            f" tabletop new {self.draft.module.id} --deck {name})",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        self.offer.button(QMessageBox.StandardButton.Yes).setText("New game with it…")
        self.offer.button(QMessageBox.StandardButton.No).setText("Not now")
        self.offer.finished.connect(lambda result, n=name: self._offer_answered(result, n))
        self.offer.open()

    def _offer_answered(self, result: int, name: str) -> None:
        if result == QMessageBox.StandardButton.Yes and self.start_game is not None:
            self.start_game(str(self.draft.module.folder), name)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.undo_stack.isClean() or self._discard:
            self._remember_source()
            event.accept()
            return
        event.ignore()
        self.close_prompt = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved changes",
            f"The deck has {self.undo_stack.count()} unsaved changes. Save them as a revision?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            self,
        )
        self.close_prompt.finished.connect(self._close_answered)
        self.close_prompt.open()

    def _close_answered(self, result: int) -> None:
        if result == QMessageBox.StandardButton.Discard:
            self._discard = True
            self.close()
        elif result == QMessageBox.StandardButton.Save:
            self._discard = True  # close once saved; a refusal leaves the editor open
            dialog = self.save_dialog_open()
            dialog.rejected.connect(lambda: setattr(self, "_discard", False))


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


__all__ = ["DeckEditor", "SaveRevisionDialog", "modules_with_decks"]
