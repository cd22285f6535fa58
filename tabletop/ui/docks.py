"""The window's docks: the log (and timeline), the seats, the rules findings, the dice tray."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import Change, Roll, actor_label, seat_of
from tabletop.inspection import entry_text

from .faces import FaceArt
from .session import TableSession

UNDONE_GREY = "#8a8a8a"  # findings of a move taken back


def is_undone(session: TableSession, entry) -> bool:  # noqa: ANN001 - an Entry
    """The move was taken back and not made again (its findings no longer stand)."""
    return entry.kind == "do" and entry.seq not in session.table.undo_stack


def swatch(colour: str, size: int = 14) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


NOTE_MARK = "✎"  # an entry a playtest note is tied to
NOTE_TINT = "#fff4c2"


class LogPanel(QWidget):
    """Every entry as a readable line, coloured by seat. Selecting one shows the table as it was
    then (and, for an entry a playtest note is tied to, the note: ``noteChosen``)."""

    noteChosen = Signal(int)  # the seq of an entry with notes

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self._notes: dict[int, list] = {}  # entry seq -> the playtest notes tied to it
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(False)
        self.list.setWordWrap(True)
        self.list.setToolTip("Select a line to see the table as it was after it (read-only)")
        self.back = QToolButton(text="◀", toolTip="One entry back (Alt+Left)")
        self.forward = QToolButton(text="▶", toolTip="One entry forward (Alt+Right)")
        self.now = QPushButton("Back to now", toolTip="Return to the live table (End)")
        self.branch = QPushButton(
            "Branch from here…", toolTip="Start a new game file from the entry shown"
        )
        self.where = QLabel()
        buttons = QHBoxLayout()
        for widget in (self.back, self.forward, self.now, self.branch):
            buttons.addWidget(widget)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.where)
        layout.addLayout(buttons)
        self.back.clicked.connect(lambda: self.step(-1))
        self.forward.clicked.connect(lambda: self.step(1))
        self.now.clicked.connect(lambda: self.session.show_history(None))
        # a line chosen by click or keys; not the current row Qt sets when the list takes focus
        # (after the hot-seat curtain, or by Tab), which would jump the table back to entry 1
        self.list.itemSelectionChanged.connect(self._selection_changed)
        session.changed.connect(self._append)
        session.reset.connect(self._viewer_changed)
        session.notes_changed.connect(self._notes_changed)
        self._reload()

    def _colour(self, actor: str) -> QColor:
        seat_id = seat_of(actor)  # a bot's entries in its seat's colour
        for seat in self.session.game.header.seats:
            if seat.id == seat_id:
                return QColor(seat.colour)
        return QColor("#555555")

    def _text(self, entry, undone: bool | None = None) -> str:  # noqa: ANN001 - an Entry
        """An entry's line as the viewer may read it, its findings marked if its move was
        taken back."""
        if undone is None:
            undone = bool(entry.findings) and is_undone(self.session, entry)
        names = {s.id: s.name for s in self.session.game.header.seats}
        text = entry_text(entry, names, undone=undone, names=self.session.log_reader.names)
        return self.session.entry_words(entry.seq, text).strip()

    def _item(self, entry) -> QListWidgetItem:  # noqa: ANN001 - an Entry
        undone = bool(entry.findings) and is_undone(self.session, entry)
        item = QListWidgetItem(self._text(entry, undone))
        self._mark_notes(item, entry.seq)
        item.setIcon(swatch(self._colour(entry.actor).name()))
        if entry.findings:
            item.setForeground(QBrush(QColor(UNDONE_GREY if undone else "#b71c1c")))
        if entry.kind in ("undo", "redo", "policy"):
            font = item.font()
            font.setItalic(entry.kind != "policy")
            font.setBold(entry.kind == "policy")  # the rules' policy changed: a game's landmark
            item.setFont(font)
        item.setData(Qt.ItemDataRole.UserRole, entry.seq)
        return item

    def _mark_notes(self, item: QListWidgetItem, seq: int) -> None:
        """An entry with playtest notes tied to it: a mark, the notes in its tooltip, a tint."""
        notes = self._notes.get(seq, [])
        text = item.text().split(f"  {NOTE_MARK}")[0]
        if not notes:
            item.setText(text)
            item.setToolTip("")
            item.setBackground(QBrush())
            return
        item.setText(f"{text}  {NOTE_MARK}{len(notes) if len(notes) > 1 else ''}")
        names = {s.id: s.name for s in self.session.game.header.seats}
        item.setToolTip(
            "\n".join(
                f"{NOTE_MARK} [{n.tag_text}] {actor_label(n.author, names)}: "
                + self.session.entry_words(n.words_seq, n.text)
                for n in notes
            )
        )
        item.setBackground(QBrush(QColor(NOTE_TINT)))

    def _read_notes(self) -> set[int]:
        """Read which entries have notes; the entries whose marks may have changed."""
        before = set(self._notes)
        self._notes = {}
        for note in self.session.table.notes():
            self._notes.setdefault(note.at, []).append(note)
        return before | set(self._notes)

    def _notes_changed(self) -> None:
        self._catch_up()  # a note written while looking back is an entry the list lacks yet
        self.list.blockSignals(True)
        for seq in self._read_notes():
            if 1 <= seq <= self.list.count():
                self._mark_notes(self.list.item(seq - 1), seq)
        self.list.blockSignals(False)

    def _catch_up(self) -> None:
        self.list.blockSignals(True)
        for entry in self.session.table.entries[self.list.count() :]:
            self.list.addItem(self._item(entry))
        self.list.blockSignals(False)

    def _viewer_changed(self) -> None:
        """The lines are read again as the new viewer may read them (a seat its own cards)."""
        if self.session.viewer != self._viewer:
            self._viewer = self.session.viewer
            entries = self.session.table.entries
            for row in range(min(self.list.count(), len(entries))):
                item = self.list.item(row)
                item.setText(self._text(entries[row]))
                self._mark_notes(item, row + 1)
        self._sync_position()

    def _reload(self) -> None:
        self._viewer = self.session.viewer
        self._read_notes()
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self.session.table.entries:
            self.list.addItem(self._item(entry))
        self.list.blockSignals(False)
        # the last line in sight; a list not shown yet is scrolled when it is first shown, at
        # its real width (scrolling now would lay every line out at a width it never shows)
        self._scroll_when_shown = not self.list.isVisible()
        if not self._scroll_when_shown:
            self.list.scrollToBottom()
        self._sync_position()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._scroll_when_shown:
            self._scroll_when_shown = False
            self.list.scrollToBottom()

    def _append(self, change: Change) -> None:
        self.list.blockSignals(True)
        for entry in self.session.table.entries[self.list.count() : change.entry.seq]:
            self.list.addItem(self._item(entry))
        ref = change.entry.ref if change.entry.kind in ("undo", "redo") else None
        if ref is not None and self.session.table.entries[ref - 1].findings:
            # the move taken back or made again: its findings go stale or stand again
            self.list.takeItem(ref - 1)
            self.list.insertItem(ref - 1, self._item(self.session.table.entries[ref - 1]))
        self.list.clearSelection()
        self.list.blockSignals(False)
        self.list.scrollToBottom()
        self._sync_position()

    def _selection_changed(self) -> None:
        chosen = self.list.selectedItems()
        if chosen:
            self._row_chosen(self.list.row(chosen[0]))

    def _row_chosen(self, row: int) -> None:
        if row < 0:
            return
        self.session.show_history(row + 1)
        if row + 1 in self._notes:
            self.noteChosen.emit(row + 1)

    def step(self, delta: int) -> None:
        current = (
            self.session.history_seq
            if self.session.history_seq is not None
            else self.session.table.seq
        )
        target = max(0, min(self.session.table.seq, current + delta))
        self.session.show_history(target)

    def _sync_position(self) -> None:
        seq = self.session.history_seq
        looking_back = seq is not None
        self.now.setEnabled(looking_back)
        self.branch.setEnabled(looking_back)
        self.forward.setEnabled(looking_back)
        self.back.setEnabled((seq if looking_back else self.session.table.seq) > 0)
        if looking_back:
            self.where.setText(f"Showing the table after entry {seq} of {self.session.table.seq}")
            self.list.blockSignals(True)
            self.list.setCurrentRow(seq - 1)
            self.list.blockSignals(False)
        else:
            self.where.setText(f"Live table · {self.session.table.seq} entries")
            self.list.blockSignals(True)
            self.list.clearSelection()
            self.list.blockSignals(False)


class SeatsPanel(QWidget):
    """The seats: colour, name, cards in hand, who is at the screen; double-click passes the screen."""

    passScreen = Signal(str)

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self.list = QListWidget()
        self.list.setToolTip("Double-click a seat to pass the screen to its player")
        self.pass_button = QPushButton("Pass the screen…")
        self.bot_button = QPushButton(
            "Seat to a bot…", toolTip="Give the selected seat to a bot, or back to a person"
        )
        self.bot_button.setVisible(session.has_bots)  # the bots load when first asked for
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list)
        buttons = QHBoxLayout()
        buttons.addWidget(self.pass_button)
        buttons.addWidget(self.bot_button)
        layout.addLayout(buttons)
        self.list.itemDoubleClicked.connect(
            lambda item: self.passScreen.emit(item.data(Qt.ItemDataRole.UserRole))
        )
        self.pass_button.clicked.connect(self._pass_selected)
        self.bot_button.clicked.connect(self._bot_menu_for_selected)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        session.changed.connect(lambda _change: self.refresh())
        session.reset.connect(self.refresh)
        session.bots_changed.connect(self.refresh)
        self.refresh()

    def seat_menu(self, seat_id: str) -> QMenu:
        """Give the seat to one of the module's bots, or back to a person."""
        menu = QMenu(self)
        playing = self.session.bot_seats.get(seat_id)
        for name in self.session.bot_kinds():
            action = menu.addAction(
                f"Seat to a bot: {name}", lambda n=name: self.session.set_bot(seat_id, n)
            )
            action.setCheckable(True)
            action.setChecked(name == playing)
        person = menu.addAction("Back to a person", lambda: self.session.set_bot(seat_id, None))
        person.setEnabled(playing is not None)
        return menu

    def _context_menu(self, pos) -> None:  # noqa: ANN001 - a QPoint
        item = self.list.itemAt(pos)
        if item is None or not self.session.has_bots:
            return
        self.seat_menu(item.data(Qt.ItemDataRole.UserRole)).exec(
            self.list.viewport().mapToGlobal(pos)
        )

    def _bot_menu_for_selected(self) -> None:
        item = self.list.currentItem()
        if item is None:
            self.session.message.emit("Select a seat first, then give it to a bot")
            return
        self.seat_menu(item.data(Qt.ItemDataRole.UserRole)).exec(
            self.bot_button.mapToGlobal(self.bot_button.rect().bottomLeft())
        )

    def _pass_selected(self) -> None:
        item = self.list.currentItem()
        seats = [s.id for s in self.session.game.header.seats]
        if item is not None:
            self.passScreen.emit(item.data(Qt.ItemDataRole.UserRole))
        elif seats:
            current = seats.index(self.session.viewer) if self.session.viewer in seats else -1
            self.passScreen.emit(seats[(current + 1) % len(seats)])

    def refresh(self) -> None:
        state = self.session.state
        turn = state.counters.get("active_seat") or state.counters.get("turn_seat")
        self.list.clear()
        for seat in self.session.game.header.seats:
            hand = sum(
                len(p.contents)
                for p in state.places.values()
                if p.kind == "hand" and p.owner == seat.id
            )
            marks = []
            if seat.id == self.session.viewer:
                marks.append("at the screen")
            if seat.id == turn:
                marks.append("to play")
            if seat.id in self.session.bot_seats:
                marks.append(f"(bot: {self.session.bot_seats[seat.id]})")
            text = f"{seat.name}  ·  {hand} in hand" + (f"  ·  {', '.join(marks)}" if marks else "")
            item = QListWidgetItem(swatch(seat.colour, 16), text)
            item.setData(Qt.ItemDataRole.UserRole, seat.id)
            if seat.id == self.session.viewer:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.list.addItem(item)


class FindingsPanel(QWidget):
    """What the rules assistant says of the moves; empty while no assistant watches."""

    findingChosen = Signal(tuple)  # the pieces a finding names

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self.list = QListWidget()
        # a long finding wraps onto more lines, nothing cut off (its tooltip holds it whole)
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.empty = QLabel(
            "No findings. The rules assistant reports here when a game module has one."
        )
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.empty)
        layout.addWidget(self.list, 1)
        self.list.itemClicked.connect(
            lambda item: self.findingChosen.emit(tuple(item.data(Qt.ItemDataRole.UserRole)))
        )
        session.changed.connect(self._add)
        self._items: dict[int, list[QListWidgetItem]] = {}  # a move's seq -> its findings' lines
        session.reset.connect(self._viewer_changed)
        self._reload()

    def _viewer_changed(self) -> None:
        if self.session.viewer != self._viewer:
            self.list.clear()
            self._items.clear()
            self._reload()

    def _reload(self) -> None:
        self._viewer = self.session.viewer
        for entry in self.session.table.entries:
            self._add_entry(entry)
        self._update_empty()

    def _add(self, change: Change) -> None:
        entry = change.entry
        self._add_entry(entry)
        if entry.kind in ("undo", "redo") and entry.ref in self._items:
            self._show(entry.ref, undone=entry.kind == "undo")
        self._update_empty()

    def _add_entry(self, entry) -> None:  # noqa: ANN001 - an Entry
        words = self.session.entry_words  # a finding may name a card the viewer cannot see
        for finding in entry.findings:
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, list(finding.pieces))
            item.setToolTip(
                words(
                    entry.seq,
                    finding.describe() + (f"\nForced: {entry.override}" if entry.override else ""),
                )
            )
            self.list.addItem(item)
            self._items.setdefault(entry.seq, []).append(item)
        if entry.findings:
            self._show(entry.seq, undone=is_undone(self.session, entry))

    def _show(self, seq: int, undone: bool) -> None:
        """A move's findings as standing, or greyed and struck through, '(undone)': the move was
        taken back, so they no longer hold (redone, they stand again)."""
        findings = self.session.table.entries[seq - 1].findings
        for item, finding in zip(self._items[seq], findings, strict=True):
            # marked up front, where a narrow dock still shows it
            item.setText(
                self.session.entry_words(
                    seq, f"#{seq} {finding.rule}{' (undone)' if undone else ''}: {finding.message}"
                )
            )
            colour = "#b71c1c" if finding.severity.value == "illegal" else "#8d6e00"
            item.setForeground(QBrush(QColor(UNDONE_GREY if undone else colour)))
            font = item.font()
            font.setStrikeOut(undone)
            item.setFont(font)

    def _update_empty(self) -> None:
        self.empty.setVisible(self.list.count() == 0)


class DicePanel(QWidget):
    """The dice on the table, drawn as they lie (their faces up), where they are in the tooltip;
    roll the selected ones, or N from the tray."""

    rollRequested = Signal(list)
    DIE_PIXELS = 44

    def __init__(self, session: TableSession, art: FaceArt | None = None) -> None:
        super().__init__()
        self.session = session
        self.art = art or FaceArt(session.module, session.game.header.seats)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setViewMode(QListView.ViewMode.IconMode)
        self.list.setIconSize(QSize(self.DIE_PIXELS, self.DIE_PIXELS))
        self.list.setGridSize(QSize(self.DIE_PIXELS + 14, self.DIE_PIXELS + 14))
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setMovement(QListView.Movement.Static)
        self.list.setWrapping(True)
        self.count = QSpinBox(minimum=1, maximum=1, toolTip="How many dice to roll")
        self.roll_n = QPushButton("Roll")
        self.roll_selected = QPushButton("Roll selected")
        self.last = QLabel()
        self.last.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.count)
        row.addWidget(self.roll_n)
        row.addWidget(self.roll_selected)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(self.last)
        self.roll_n.clicked.connect(
            lambda: self.rollRequested.emit(self.dice()[: self.count.value()])
        )
        self.roll_selected.clicked.connect(
            lambda: self.rollRequested.emit(
                [i.data(Qt.ItemDataRole.UserRole) for i in self.list.selectedItems()]
            )
        )
        self.count.valueChanged.connect(lambda n: self.roll_n.setText(f"Roll {n}"))
        session.changed.connect(self._on_change)
        session.reset.connect(self.refresh)
        self.refresh()

    def dice(self) -> list[str]:
        state = self.session.state
        return [p.id for p in state.pieces.values() if p.props.get("faces")]

    def die_picture(self, pid: str) -> QPixmap:
        """The die as the table draws it, face up, DIE_PIXELS wide."""
        piece = self.session.state.pieces[pid]
        size = self.art.size(piece)
        scale = self.DIE_PIXELS / max(1.0, size.width(), size.height())
        return self.art.pixmap(piece, True, scale * self.devicePixelRatioF())

    def refresh(self) -> None:
        state = self.session.state
        self.list.clear()
        dice = self.dice()
        for pid in dice:
            piece = state.pieces[pid]
            words = f"{pid}: {piece.value}  ({state.places[piece.place].label or piece.place})"
            item = QListWidgetItem(QIcon(self.die_picture(pid)), "")
            item.setToolTip(words)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, words)
            item.setData(Qt.ItemDataRole.UserRole, pid)
            self.list.addItem(item)
        self.count.setMaximum(max(1, len(dice)))
        self.count.setValue(min(max(self.count.value(), 1), max(1, len(dice))))
        self.roll_n.setText(f"Roll {self.count.value()}")
        enabled = bool(dice) and not self.session.read_only
        for widget in (self.roll_n, self.roll_selected, self.count):
            widget.setEnabled(enabled)

    def _on_change(self, change: Change) -> None:
        command = change.entry.command
        rolls = (
            [command]
            if isinstance(command, Roll)
            else [c for c in getattr(command, "commands", ()) if isinstance(c, Roll)]
        )
        if rolls:
            self.last.setText(
                "Last roll: "
                + "; ".join(
                    r.describe(self.session.log_reader.names).removeprefix("rolled ") for r in rolls
                )
            )
        if any(pid in change.pieces for pid in self.dice()) or rolls:
            self.refresh()
