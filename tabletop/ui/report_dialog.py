"""Game > Playtest report…: choose the folders of games and the file, make the report in the
background (tabletop/report/: the same report as ``tabletop report``) with its progress shown.

``ReportDialog`` asks for the folders (Add folder…), the output (.pdf or .html), a revision
to keep (optional) and how many bot games to show beside the played ones; ``ReportJob`` reads
the games, works out the figures and writes the file in a thread of its own, telling its
progress as it goes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tabletop.core import TableError
from tabletop.modules import ModuleError
from tabletop.report.data import ReportError, report_data
from tabletop.report.render import SUFFIXES, write_report

MAX_BOT_GAMES = 10_000


class ReportJob(QThread):
    """Make one report away from the window's thread: ``progress`` says what it is doing,
    ``done`` ends with '' or the reason it could not be made."""

    progress = Signal(str)
    done = Signal(str)

    def __init__(
        self,
        folders: list[str],
        output: str,
        revision: str | None = None,
        compare: int = 0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.folders, self.output, self.revision, self.compare = folders, output, revision, compare
        self.error = ""

    def run(self) -> None:
        try:
            data = report_data(
                self.folders,
                revision=self.revision,
                compare_simulated=self.compare,
                progress=self.progress.emit,
            )
            write_report(data, self.output, progress=self.progress.emit)
        except (ReportError, ModuleError, TableError, OSError) as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - the thread's end: said, not left hanging
            self.error = f"the report could not be made ({type(exc).__name__}: {exc})"
        self.done.emit(self.error)


class ReportDialog(QDialog):
    """The report's folders, file, revision and bot games."""

    def __init__(self, parent: QWidget, folder: str, output: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Playtest report")
        self.folders = QListWidget()
        self.folders.setToolTip("Every game file (*.jsonl) in these folders and below them")
        add = QPushButton("Add folder…")
        add.clicked.connect(self._choose_folder)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove_folder)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        self.output = QLineEdit(output)
        self.output.setToolTip("A .pdf or an .html file")
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._choose_output)
        out_row = QHBoxLayout()
        out_row.addWidget(self.output, 1)
        out_row.addWidget(browse)
        self.revision = QLineEdit()
        self.revision.setPlaceholderText("every revision")
        self.revision.setToolTip("Only this revision: a deck's name or the start of its sha256")
        self.bot_games = QSpinBox()
        self.bot_games.setRange(0, MAX_BOT_GAMES)
        self.bot_games.setSpecialValueText("none")
        self.bot_games.setToolTip(
            "Beside each revision's figures, the same from this many games of the module's bots"
        )
        self.problem = QLabel("")
        self.problem.setStyleSheet("color: #b03030")
        self.problem.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Report file:", out_row)
        form.addRow("Revision:", self.revision)
        form.addRow("Bot games beside:", self.bot_games)
        box = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.make_button = box.button(QDialogButtonBox.StandardButton.Ok)
        self.make_button.setText("Make report")
        box.accepted.connect(self._accept)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Folders of games:"))
        layout.addWidget(self.folders)
        layout.addLayout(buttons)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(box)
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> None:
        """Add a folder of games (what Add folder… does with the folder chosen)."""
        names = [self.folders.item(i).text() for i in range(self.folders.count())]
        if folder and folder not in names:
            self.folders.addItem(folder)

    def chosen_folders(self) -> list[str]:
        return [self.folders.item(i).text() for i in range(self.folders.count())]

    def _choose_folder(self) -> None:
        start = self.folders.currentItem().text() if self.folders.currentItem() else ""
        folder = QFileDialog.getExistingDirectory(self, "A folder of games", start)
        if folder:
            self.add_folder(folder)

    def _remove_folder(self) -> None:
        row = self.folders.currentRow()
        if row >= 0:
            self.folders.takeItem(row)

    def _choose_output(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "The report", self.output.text(), "PDF (*.pdf);;Web page (*.html)"
        )
        if path:
            self.output.setText(path)

    def _accept(self) -> None:
        output = self.output.text().strip()
        if not self.chosen_folders():
            self.problem.setText("Add a folder of games first.")
        elif Path(output).suffix.lower() not in SUFFIXES:
            self.problem.setText("The report file ends in .pdf or .html.")
        elif not Path(output).parent.is_dir():
            self.problem.setText(f"There is no folder {Path(output).parent}.")
        else:
            self.accept()
