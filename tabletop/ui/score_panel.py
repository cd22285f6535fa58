"""The score panel: each seat's points as the table lies, final once the game is over.

The game's ``score`` turns the table into plain rows (one per seat, its id
under ``seat``: its points by kind and in total, and whether the game is
over); the panel
shows them in a table and reads them again whenever the table changes. It
knows no game: the columns are the rows' numbers, in the hook's order.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from tabletop.core import TableError
from tabletop.modules import not_laid_out

from .session import TableSession


def _numbers(row: dict[str, Any]) -> list[str]:
    return [k for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool)]


class ScorePanel(QWidget):
    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        game = session.rules
        self._score_of = game.score if game is not None and game.has_score else None
        self.seat_word = game.seat_word if game is not None else "Seat"
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        self.rows: list[dict[str, Any]] = []
        self.final = False
        session.changed.connect(lambda _change: self.refresh())
        session.reset.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self._score_of is None:
            self.title.setText("This module has no scoring.")
            self.table.setRowCount(0)
            return
        state = self.session.state
        unready = not_laid_out(self.session.module, state) if self.session.module else None
        if unready is not None:  # looking back before entry 1: nothing to count yet
            self.title.setText(f"The score cannot be counted: {unready}")
            self.rows, self.final = [], False
            self.table.setRowCount(0)
            return
        try:
            rows = list(self._score_of(state))
        except TableError as exc:  # a table the rules cannot read: say so, keep the window
            self.title.setText(f"The score cannot be counted: {exc}")
            return
        self.rows = rows
        self.final = any(row.get("final") for row in rows)
        ending = next((row.get("ending") for row in rows if row.get("ending")), None)
        self.title.setText(
            f"Final score — {ending}" if self.final else "Projected score (if the game ended now)"
        )
        kinds = _numbers(rows[0]) if rows else []
        if "total" in kinds:  # the total first: a narrow dock still shows it
            kinds.remove("total")
            kinds.insert(0, "total")
        self.table.setColumnCount(len(kinds) + 1)
        self.table.setHorizontalHeaderLabels([self.seat_word, *[k.capitalize() for k in kinds]])
        for c, kind in enumerate(kinds, start=1):
            self.table.horizontalHeaderItem(c).setToolTip(f"{kind.capitalize()} victory points")
        self.table.setRowCount(len(rows))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter  # worked out once
        bold = None  # the totals' font: an item's own font made bold, the same for every total
        for r, row in enumerate(rows):
            name = self.session.seat_name(row.get("seat"))
            if row.get("extinct"):
                name += " (extinct)"
            self.table.setItem(r, 0, QTableWidgetItem(name))
            for c, kind in enumerate(kinds, start=1):
                item = QTableWidgetItem(str(row.get(kind, "")))
                item.setTextAlignment(right)
                if kind == "total":
                    if bold is None:
                        bold = item.font()
                        bold.setBold(True)
                    item.setFont(bold)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def totals(self) -> dict[str, int]:
        """Each seat's total as shown (for tests and tooltips)."""
        return {row["seat"]: row.get("total", 0) for row in self.rows}
