"""Playtest notes in the window: the note dialog (key N) and the Notes dock.

A note is written at the entry the table shows (the live table, or the entry looked back
at), tagged, optionally tied to the selected pieces and carrying a snapshot of the view
(tabletop/core/notes.py keeps it in the log). The dock lists the notes by entry with their
tag, author, text and snapshot; a tag filter; Edit and Remove in a context menu (F2 and
Delete); a double-click shows the table at the note's entry.
"""

from __future__ import annotations

# PySide6 makes a class (and its enums' Python types) when it is first asked for:
# the note dialog's widget classes are read from QtWidgets when it is made
# (the window's start uses none of them).
from PySide6 import QtWidgets
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import NOTE_TAGS, PlaytestNote, actor_label

from .session import TableSession

THUMB = QSize(96, 64)
NOTE_MARK = "✎"
PUBLIC_WORDS = (
    "Notes are public: every seat reads them. A snapshot shows only what you see now"
    " (another seat's hidden cards never appear in it)."
)


class NoteDialog(QDialog):
    """Tag, text, "tie to the selected pieces" and "attach a snapshot of the view"."""

    def __init__(
        self,
        parent: QWidget | None,
        *,
        title: str,
        where: str,
        tag: str = "rules",
        text: str = "",
        pieces: tuple[str, ...] = (),
        tie: bool = True,
        snapshot: bool | None = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("note-dialog")
        self.tag = QComboBox()
        for key, words in NOTE_TAGS.items():
            self.tag.addItem(words, key)
        self.tag.setCurrentIndex(max(0, self.tag.findData(tag)))
        self.text = QtWidgets.QPlainTextEdit(text)
        self.text.setPlaceholderText("What did you notice?")
        self.text.setTabChangesFocus(True)
        self.tie = QCheckBox(
            f"Tie to the selected pieces ({', '.join(pieces)})"
            if pieces
            else "Tie to the selected pieces (none selected)"
        )
        self.tie.setChecked(bool(pieces) and tie)
        self.tie.setEnabled(bool(pieces))
        self.pieces = pieces
        self.snapshot = QCheckBox("Attach a snapshot of the view")
        self.snapshot.setChecked(bool(snapshot))
        self.snapshot.setVisible(snapshot is not None)  # an edit keeps the note's snapshot
        form = QtWidgets.QFormLayout()
        form.addRow("At", QLabel(where))
        form.addRow("Tag", self.tag)
        form.addRow("Note", self.text)
        public = QLabel(PUBLIC_WORDS)
        public.setWordWrap(True)
        self.buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.text.textChanged.connect(self._enable)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.tie)
        layout.addWidget(self.snapshot)
        layout.addWidget(public)
        layout.addWidget(self.buttons)
        self._enable()
        self.text.setFocus()

    def _enable(self) -> None:
        ok = self.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.text.toPlainText().strip()))

    @property
    def chosen_tag(self) -> str:
        return str(self.tag.currentData())

    @property
    def chosen_text(self) -> str:
        return self.text.toPlainText().strip()

    @property
    def chosen_pieces(self) -> tuple[str, ...]:
        return self.pieces if self.tie.isChecked() else ()


def thumbnail(note: PlaytestNote, size: QSize = THUMB) -> QPixmap | None:
    """A note's snapshot, small."""
    if note.png is None:
        return None
    pixmap = QPixmap()
    if not pixmap.loadFromData(note.snapshot or b"", "PNG"):
        return None
    return pixmap.scaled(
        size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )


class NotesPanel(QWidget):
    """The notes by entry: tag, author, text, snapshot; filter by tag; edit, remove, go to."""

    editRequested = Signal(int)  # a note's id
    removeRequested = Signal(int)

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self.filter = QComboBox()
        self.filter.addItem("All tags", None)
        for key, words in NOTE_TAGS.items():
            self.filter.addItem(words, key)
        self.filter.setToolTip("Show only the notes with this tag")
        self.list = QListWidget()
        self.list.setObjectName("notes-list")
        self.list.setIconSize(THUMB)
        self.list.setWordWrap(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setToolTip(
            "Double-click: show the table at the note's entry · F2: edit · Delete: remove"
        )
        self.count = QLabel()
        top = QHBoxLayout()
        top.addWidget(QLabel("Tag"))
        top.addWidget(self.filter, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.count)
        self.filter.currentIndexChanged.connect(lambda _i: self.reload())
        self.list.itemDoubleClicked.connect(lambda item: self.go_to(self._id(item)))
        self.list.customContextMenuRequested.connect(self._menu)
        self._keys = {
            Qt.Key.Key_F2: self._edit_current,
            Qt.Key.Key_Return: self._go_current,
            Qt.Key.Key_Enter: self._go_current,
            Qt.Key.Key_Delete: self._remove_current,
            Qt.Key.Key_Backspace: self._remove_current,
        }
        self.list.installEventFilter(self)
        session.notes_changed.connect(self.reload)
        session.reset.connect(self._viewer_changed)
        self._viewer = session.viewer
        self.reload()

    def eventFilter(self, watched, event) -> bool:  # noqa: ANN001
        """F2, Enter, Delete in the list act on the note (before the window's own Delete,
        which removes pieces)."""
        if watched is self.list and event.type() in (
            QEvent.Type.ShortcutOverride,
            QEvent.Type.KeyPress,
        ):
            slot = self._keys.get(event.key())
            if slot is not None and event.modifiers() == Qt.KeyboardModifier.NoModifier:
                event.accept()
                if event.type() == QEvent.Type.KeyPress:
                    slot()
                return True
        return super().eventFilter(watched, event)

    # ---- the list ----------------------------------------------------------------
    def notes(self) -> list[PlaytestNote]:
        """The notes shown: those with the chosen tag, by entry."""
        tag = self.filter.currentData()
        notes = [n for n in self.session.table.notes() if tag is None or n.tag == tag]
        return sorted(notes, key=lambda n: (n.at, n.id))

    def words(self, note: PlaytestNote) -> tuple[str, str]:
        """A note's heading and text as the viewer may read them (a hidden piece not named)."""
        names = {s.id: s.name for s in self.session.game.header.seats}
        author = actor_label(note.author, names)
        head = f"{NOTE_MARK} entry {note.at} · {note.tag_text} · {author} · #{note.id}"
        if note.edited is not None:
            head += " (edited)"
        text = self.session.entry_words(note.words_seq, note.text)
        if note.pieces:
            named = ", ".join(map(self.session.log_reader.names.piece, note.pieces))
            pieces = self.session.entry_words(note.words_seq, named)
            text += f"\n[{pieces}]"
        return head, text

    def reload(self) -> None:
        chosen = self.selected_id()
        self.list.clear()
        notes = self.notes()
        for note in notes:
            head, text = self.words(note)
            item = QListWidgetItem(f"{head}\n{text}")
            item.setData(Qt.ItemDataRole.UserRole, note.id)
            item.setToolTip(f"{head}\n{text}")
            pixmap = thumbnail(note)
            if pixmap is not None:
                item.setIcon(QIcon(pixmap))
            self.list.addItem(item)
            if note.id == chosen:
                item.setSelected(True)
        total = len(self.session.table.notes())
        self.count.setText(
            f"{len(notes)} of {total} notes" if len(notes) != total else f"{total} notes"
        )

    def _viewer_changed(self) -> None:
        if self.session.viewer != self._viewer:  # another seat reads: its own words
            self._viewer = self.session.viewer
            self.reload()

    def _id(self, item: QListWidgetItem | None) -> int | None:
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def selected_id(self) -> int | None:
        chosen = self.list.selectedItems()
        return self._id(chosen[0]) if chosen else None

    def select_at(self, seq: int) -> bool:
        """Select the first note tied to entry ``seq`` (from the log dock); False if none."""
        for row in range(self.list.count()):
            note = self._note(self._id(self.list.item(row)))
            if note is not None and note.at == seq:
                self.list.setCurrentRow(row)
                return True
        return False

    def _note(self, note_id: int | None) -> PlaytestNote | None:
        return next((n for n in self.session.table.notes() if n.id == note_id), None)

    # ---- acting on a note ----------------------------------------------------------
    def go_to(self, note_id: int | None) -> None:
        """Show the table at the note's entry."""
        note = self._note(note_id)
        if note is not None:
            self.session.show_history(note.at)

    def _go_current(self) -> None:
        self.go_to(self.selected_id())

    def _edit_current(self) -> None:
        if self.selected_id() is not None:
            self.editRequested.emit(self.selected_id())

    def _remove_current(self) -> None:
        if self.selected_id() is not None:
            self.removeRequested.emit(self.selected_id())

    def _menu(self, pos) -> None:  # noqa: ANN001 - a QPoint
        item = self.list.itemAt(pos)
        if item is None:
            return
        note_id = self._id(item)
        menu = QMenu(self)
        menu.addAction("Show the table at its entry", lambda: self.go_to(note_id))
        menu.addAction("Edit…", lambda: self.editRequested.emit(note_id))
        menu.addAction("Remove", lambda: self.removeRequested.emit(note_id))
        menu.exec(self.list.viewport().mapToGlobal(pos))
