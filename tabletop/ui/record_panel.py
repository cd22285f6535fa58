"""The session record in the window: the clock of active play, the end-of-session form and
the session record dialog (tabletop/core/record.py keeps it all in the log).

``ActivityClock`` watches the application's input (mouse, wheel, keys, touch). Play is active
while input keeps coming; a gap longer than the idle limit (a setting, 5 minutes by default)
is a pause and counts nothing. Each stretch of active play is logged as a 'played' entry
when a pause ends it, when the game is closed or ends, and every ``FLUSH_SECONDS`` of active
time (so a crash loses at most that much). Its clock (``now``) can be replaced, so tests
drive time rather than wait for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

# PySide6 makes a class (and its enums' Python types) when it is first asked for:
# the form's and the record's widget classes are read from QtWidgets when made
# (the window's start uses none of them).
from PySide6 import QtWidgets
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import RATINGS, Record
from tabletop.core.record import RATING_WORDS

IDLE_MINUTES = 5.0
FLUSH_SECONDS = 600.0
INPUT_EVENTS = frozenset(
    {
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
        QEvent.Type.KeyPress,
        QEvent.Type.TouchBegin,
        QEvent.Type.TouchUpdate,
    }
)


class ActivityClock(QObject):
    """Measures active play from the input the application gets, and logs it."""

    def __init__(
        self,
        write: Callable[[dict[str, Any]], None],
        idle_seconds: float = IDLE_MINUTES * 60,
        now: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.write = write  # logs a 'played' record's data
        self.idle_seconds = idle_seconds
        self.now = now
        self.start: float | None = None  # the stretch under way: its first input
        self.last: float | None = None  # and its latest
        self.active = 0.0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in INPUT_EVENTS:
            self.touch()
        return False

    def touch(self) -> None:
        """Someone gave input now."""
        t = self.now()
        if self.start is None or self.last is None:
            self.start = self.last = t
            return
        gap = t - self.last
        if gap > self.idle_seconds or gap < 0:  # a pause (or the clock went back): not play
            self.flush()
            self.start = self.last = t
            return
        self.active += gap
        self.last = t
        if self.active >= FLUSH_SECONDS:
            self.flush()
            self.start = self.last = t

    def flush(self) -> None:
        """Log the stretch of play under way (if it holds any active time) and start afresh."""
        if self.start is not None and self.last is not None and self.active > 0:
            self.write(
                {
                    "from": round(self.start, 3),
                    "to": round(self.last, 3),
                    "seconds": round(self.active, 3),
                    "idle": self.idle_seconds,
                }
            )
        self.start = self.last = None
        self.active = 0.0


def _rating_box(value: int | None) -> QComboBox:
    box = QComboBox()
    box.addItem("not rated", None)
    for n in range(1, 6):
        box.addItem(str(n), n)
    box.setCurrentIndex(max(0, box.findData(value)) if value is not None else 0)
    return box


class FormDialog(QDialog):
    """A player's end-of-session form: the seat, ratings 1 to 5 and free text. Choosing a seat
    shows its form as it stands, to be changed."""

    def __init__(
        self,
        parent: QWidget | None,
        seats: list[tuple[str, str]],
        forms: dict[str, dict[str, Any]],
        seat: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("End-of-session form")
        self.setObjectName("form-dialog")
        self.forms = forms
        self.seat = QComboBox()
        for sid, name in seats:
            self.seat.addItem(f"{name} ({sid})" if name != sid else sid, sid)
        if seat is not None:
            self.seat.setCurrentIndex(max(0, self.seat.findData(seat)))
        self.ratings = {key: _rating_box(None) for key in RATINGS}
        self.text = QtWidgets.QPlainTextEdit()
        self.text.setPlaceholderText("What did you think of the game and its rules?")
        self.text.setTabChangesFocus(True)
        form = QtWidgets.QFormLayout()
        form.addRow("Player", self.seat)
        for key in RATINGS:
            form.addRow(RATING_WORDS[key].capitalize(), self.ratings[key])
        form.addRow("Comments", self.text)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Save
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.seat.currentIndexChanged.connect(lambda _i: self._show_form())
        self._show_form()

    def _show_form(self) -> None:
        found = self.forms.get(self.chosen_seat, {})
        for key, box in self.ratings.items():
            value = found.get(key)
            box.setCurrentIndex(max(0, box.findData(value)) if value is not None else 0)
        self.text.setPlainText(found.get("text", ""))

    @property
    def chosen_seat(self) -> str:
        return str(self.seat.currentData())

    def data(self) -> dict[str, Any]:
        """The form as the log keeps it."""
        d: dict[str, Any] = {"seat": self.chosen_seat}
        for key, box in self.ratings.items():
            if box.currentData() is not None:
                d[key] = int(box.currentData())
        text = self.text.toPlainText().strip()
        if text:
            d["text"] = text
        return d

    def command(self) -> Record:
        return Record("form", self.data())


class RecordDialog(QDialog):
    """The session record as it stands (read from the log), with the testers' names and the
    place to fill in or change."""

    def __init__(
        self,
        parent: QWidget | None,
        lines: list[str],
        seats: list[tuple[str, str]],
        testers: dict[str, str],
        where: str,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Session record")
        self.setObjectName("record-dialog")
        self.testers = testers
        self.old_where = where
        summary = QtWidgets.QPlainTextEdit("\n".join(lines))
        summary.setReadOnly(True)
        summary.setMinimumSize(560, 260)
        self.names: dict[str, QtWidgets.QLineEdit] = {}
        form = QtWidgets.QFormLayout()
        for sid, name in seats:
            edit = QtWidgets.QLineEdit(testers.get(sid, ""))
            edit.setPlaceholderText("the player's name")
            self.names[sid] = edit
            form.addRow(f"{name} ({sid})" if name != sid else sid, edit)
        self.where = QtWidgets.QLineEdit(where)
        self.where.setPlaceholderText("where the game is played (optional)")
        form.addRow("Where", self.where)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Save
            | QtWidgets.QDialogButtonBox.StandardButton.Close
        )
        self.form_button = buttons.addButton(
            "Fill a form…", QtWidgets.QDialogButtonBox.ButtonRole.ActionRole
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(QLabel("Testers and place (kept in the game's log):"))
        layout.addLayout(form)
        layout.addWidget(buttons)

    def command(self) -> Record | None:
        """The names and place changed, as a record; None when nothing changed."""
        changed = {
            sid: edit.text().strip()
            for sid, edit in self.names.items()
            if edit.text().strip() and edit.text().strip() != self.testers.get(sid, "")
        }
        data: dict[str, Any] = {"testers": changed}
        where = self.where.text().strip()
        if where and where != self.old_where:
            data["where"] = where
        if not changed and "where" not in data:
            return None
        return Record("session", data)
