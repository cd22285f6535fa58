"""The main window: the table, its docks, menus, keys and files."""

from __future__ import annotations

import errno
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

# PySide6 makes a class (and its enums' Python types) when it is first asked for:
# the file, message, input and progress dialogs' classes are read from QtWidgets when a dialog
# opens, the games' folder from QStandardPaths only where TABLETOP_GAMES does not name it,
# and the URL of a report to show from QtCore and QtGui when it is shown (the window's start
# uses none of them).
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import (
    QByteArray,
    QPoint,
    QSettings,
    Qt,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
)

from rules_assist.questions import Question
from tabletop import __version__
from tabletop.core import (
    Annotate,
    Command,
    Compound,
    Mode,
    Policy,
    Record,
    TableError,
    actions,
    printable,
)
from tabletop.core.notes import png_text
from tabletop.modules import (
    Module,
    ModuleError,
    default_module,
    find_module,
    new_game,
    not_laid_out,
    saved_module,
)
from tabletop.modules.results import game_result, record_result
from tabletop.modules.words import piece_words
from tabletop.persist import Game, SeatCopyError, atomic_copy, atomic_write_bytes
from tabletop.persist.record import record_lines, session_record, testers_and_place
from tabletop.persist.seatview import check_copy, copy_owner_text
from tabletop.visibility import can_see

from .dialogs import Curtain, NewGameDialog, PickDialog, Preview
from .docks import DicePanel, FindingsPanel, LogPanel, SeatsPanel
from .notes_panel import NoteDialog, NotesPanel
from .png import png_bytes
from .question_dialog import ask as ask_question
from .record_panel import IDLE_MINUTES, ActivityClock, FormDialog, RecordDialog
from .scene import TableScene
from .send_menu import Group, fill_send_menu, send_groups
from .session import TableSession
from .view import Overview, TableView

if TYPE_CHECKING:
    from .deck_editor import DeckEditor

    # Live play is imported when a game is hosted or joined: its Redis client library costs
    # more start-up than the rest of the window (tests/ui/test_bench_table.py).
    from .host_online import HostDialog, HostedGame
    from .online_session import OnlineSession

# The snapshots (tabletop/export: SVG, PDF, tiles, headers) are imported when one is taken:
# the window opens without them (tests/ui/test_bench_table.py).

RECENT_MAX = 10
TWO_SIDED_SHAPES = ("card", "token")  # the shapes with a face and a back (Flip)

ACTING_TIP = (
    "Who makes the moves: automatic credits each move to the owner of the piece moved (else"
    " the seat whose turn it is); a seat chosen here is credited, and judged by the rules,"
    " for every move until changed"
)

FINDINGS_TITLE = "Rules findings"


def games_folder() -> Path:
    """Where new games are written: the user's data folder (TABLETOP_GAMES overrides it)."""
    override = os.environ.get("TABLETOP_GAMES")
    if override:
        folder = Path(override)
    else:
        base = QtCore.QStandardPaths.writableLocation(
            QtCore.QStandardPaths.StandardLocation.AppDataLocation
        ) or str(Path.home() / ".tabletop")
        folder = Path(base) / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_game_path(module_id: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = games_folder() / f"{module_id}-{stamp}.jsonl"
    n = 2
    while path.exists():
        path = games_folder() / f"{module_id}-{stamp}-{n}.jsonl"
        n += 1
    return path


def parse_house_rules(text: str) -> dict[str, Mode]:
    """Per-rule modes from lines such as 'E1 off' or 'B4 strict'; ValueError naming the line."""
    per_rule: dict[str, Mode] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or parts[1] not in ("off", "advisory", "strict"):
            raise ValueError(
                f"line {number}: write a rule and a mode, e.g. 'E1 off' (not {line.strip()!r})"
            )
        per_rule[parts[0]] = Mode(parts[1])
    return per_rule


def module_for(game: Game) -> Module | None:
    """The game's module, with the deck revision the game was set up with."""
    from tabletop.modules.revisions import module_for_game

    try:
        module, warnings = module_for_game(
            saved_module(game.header.module, game.path), game.header.decks
        )
    except ModuleError:
        return None
    game.warnings.extend(warnings)
    return module


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None, ask: bool = True) -> None:
        super().__init__()
        self.settings = settings if settings is not None else QSettings("tabletop", "tabletop")
        self.ask = ask  # False in screenshots and tests: no questions at start
        self.setWindowTitle("tabletop")
        self.resize(1400, 900)
        self.session: TableSession | None = None
        self.hosted: HostedGame | None = None  # the game refereed from this window (Host online)
        self.scene: TableScene | None = None
        self.view: TableView | None = None
        self.docks: dict[str, QDockWidget] = {}
        self._context_pid: str | None = None
        self.write_failure_box: QtWidgets.QMessageBox | None = (
            None  # shown when the game's file is full
        )
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self.placeholder = QLabel("Open a game or start a new one (File menu).")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(self.placeholder)
        self.curtain: Curtain | None = None
        self.preview = Preview(self)
        self._hover_timer = QTimer(self, singleShot=True, interval=450)
        self._hover_timer.timeout.connect(self._show_preview)
        self._hover_pid = ""
        self._build_actions()
        self._build_menus()
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)

    # ---- actions and menus -------------------------------------------------
    def _action(self, name: str, text: str, slot, shortcut=None, tip: str = "") -> QAction:  # noqa: ANN001
        action = QAction(text, self)
        if shortcut is not None:
            shortcuts = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setToolTip(tip or text.replace("&", "").replace("…", ""))
        action.setIconText(
            text.replace("&", "").replace("…", "")
        )  # the toolbar keeps the short name
        action.setStatusTip(action.toolTip())
        action.triggered.connect(slot)
        self.actions_by_name[name] = action
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}
        a = self._action
        a("new", "&New game…", self.new_game_dialog, QKeySequence.StandardKey.New)
        a("open", "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        a("save_as", "Save &as…", self.save_as_dialog, QKeySequence.StandardKey.SaveAs)
        a(
            "export",
            "&Export snapshot…",
            self.export_dialog,
            "Ctrl+E",
            "Save the table as PNG, SVG or PDF for a rules discussion",
        )
        a(
            "copy_snapshot",
            "&Copy snapshot",
            self.copy_snapshot,
            "Ctrl+Shift+C",
            "Copy a picture of the selected pieces (or of the part in view) to the clipboard,"
            " as a spectator sees it, with the game's header",
        )
        a(
            "edit_deck",
            "Edit &deck…",
            self.open_deck_editor,
            None,
            "Edit the game's deck card by card and save it as a new revision",
        )
        a(
            "import_deck",
            "&Import deck revision…",
            self.import_deck_dialog,
            None,
            "Check a CSV of card data row by row and add it as a revision of the game's deck",
        )
        a(
            "host",
            "&Host online…",
            self.host_online_dialog,
            None,
            "Referee the open game live on a Redis server from this window and show each"
            " seat's join address",
        )
        a(
            "report",
            "Playtest &report…",
            self.report_dialog,
            None,
            "A report of the games in folders, per revision: win rates, scores, length, the"
            " rules flagged and forced, the notes (PDF or web page)",
        )
        a("quit", "&Quit", self.close, QKeySequence.StandardKey.Quit)
        a("undo", "&Undo", self.undo, ["Ctrl+Z"])
        a("redo", "&Redo", self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"])
        a(
            "select_all",
            "Select &all",
            lambda: self.scene and self.scene.select(self.scene.pieces),
            QKeySequence.StandardKey.SelectAll,
        )
        a(
            "flip",
            "&Flip",
            lambda: self.flip(),
            "F",
            "Turn the selected pieces over (or double-click)",
        )
        a("rotate", "&Rotate", lambda: self.rotate(1), "R", "Turn the selected pieces a quarter")
        a("rotate180", "Rotate 180°", lambda: self.rotate(2), "Shift+R")
        a(
            "roll",
            "Roll &dice",
            self.roll_selected_or_tray,
            "Ctrl+R",
            "Roll the selected dice, or every die in view",
        )
        a(
            "clone",
            "&Clone",
            self.clone_selected,
            "Ctrl+D",
            "Copy the selected pieces (prototyping module)",
        )
        a(
            "delete",
            "&Delete",
            self.delete_selected,
            QKeySequence.StandardKey.Delete,
            "Remove the selected pieces (prototyping module)",
        )
        a(
            "zoom_in",
            "Zoom &in",
            lambda: self.view and self.view.zoom_by(1.25),
            ["+", "=", "Ctrl++"],
        )
        a("zoom_out", "Zoom &out", lambda: self.view and self.view.zoom_by(0.8), ["-", "Ctrl+-"])
        a("fit", "&Fit the table", lambda: self.view and self.view.fit_table(), ["Ctrl+0", "Home"])
        a("actual", "Actual si&ze", lambda: self.view and self.view.set_zoom(1.0), "Ctrl+1")
        a("overview", "&Overview map", self.toggle_overview, "M")
        self.actions_by_name["overview"].setCheckable(True)
        # a map on demand, in its own dock beside the table (never over it); hidden at first
        self.actions_by_name["overview"].setChecked(
            str(self.settings.value("view/overview", "false")).lower() == "true"
        )
        a(
            "pass",
            "&Pass the screen…",
            self.pass_screen_dialog,
            "Ctrl+P",
            "Hot-seat: hide the hands and hand over to the next player",
        )
        a(
            "bots_play",
            "Let the &bots play",
            self.let_bots_play,
            "Ctrl+B",
            "The seats given to bots play their moves now",
        )
        a(
            "bots_auto",
            "Bots play by &themselves",
            self.set_bots_auto,
            None,
            "A seat given to a bot plays as soon as its turn comes",
        )
        self.actions_by_name["bots_auto"].setCheckable(True)
        self.actions_by_name["bots_auto"].setChecked(
            str(self.settings.value("bots/auto", "true")).lower() == "true"
        )
        a(
            "back",
            "Step &back in the log",
            lambda: self.log_panel and self.log_panel.step(-1),
            "Alt+Left",
        )
        a(
            "forward",
            "Step for&ward in the log",
            lambda: self.log_panel and self.log_panel.step(1),
            "Alt+Right",
        )
        a("now", "Back to &now", lambda: self.session and self.session.show_history(None), "End")
        a(
            "branch",
            "&Branch from here…",
            self.branch_dialog,
            None,
            "Start a new game file from the entry shown",
        )
        a(
            "note",
            "Add a &note…",
            self.add_note_dialog,
            "N",
            "A playtest note at the entry the table shows: tagged, tied to the selected pieces,"
            " with a snapshot of the view if wished",
        )
        a(
            "record",
            "Session &record…",
            self.record_dialog,
            None,
            "Who played, the revision, the rules, where and when, the playing time, the result"
            " and the forms; the testers' names and the place",
        )
        a(
            "form",
            "End-of-session &form…",
            self.form_dialog,
            None,
            "A player's ratings (fun, length, clarity) and comments, kept in the game's log",
        )
        a(
            "idle",
            "&Idle after…",
            self.idle_dialog,
            None,
            "How long without input before the window counts a pause (not playing time)",
        )
        a("shortcuts", "&Keyboard shortcuts", self.show_shortcuts, "F1")
        a("about", "&About tabletop", self.show_about)
        self.log_panel: LogPanel | None = None
        self.notes_panel: NotesPanel | None = None
        self.note_dialog: NoteDialog | None = None
        self.activity: ActivityClock | None = None
        self.record_window: RecordDialog | None = None
        self.form_window: FormDialog | None = None
        self.report_window = None  # the report's dialog (ui/report_dialog.py) while open
        self.report_job = None  # the report being made, then the last one made
        self.report_progress: QtWidgets.QProgressDialog | None = None
        self._end_seen = False  # the game's end was seen (its result recorded, the form offered)
        self.deck_editor: DeckEditor | None = None
        self.new_dialog: NewGameDialog | None = None

    def _build_menus(self) -> None:
        bar = self.menuBar()
        names = self.actions_by_name
        file_menu = bar.addMenu("&File")
        for name in ("new", "open"):
            file_menu.addAction(names[name])
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        for name in ("save_as", "export", "import_deck"):
            file_menu.addAction(names[name])
        file_menu.addSeparator()
        file_menu.addAction(names["quit"])
        edit = bar.addMenu("&Edit")
        for name in (
            "undo",
            "redo",
            None,
            "select_all",
            "flip",
            "rotate",
            "rotate180",
            "roll",
            None,
            "clone",
            "delete",
            None,
            "copy_snapshot",
        ):
            edit.addSeparator() if name is None else edit.addAction(names[name])
        view = bar.addMenu("&View")
        for name in ("zoom_in", "zoom_out", "fit", "actual", "overview"):
            view.addAction(names[name])
        self.docks_menu = view.addMenu("&Panels")
        game = bar.addMenu("&Game")
        for name in (
            "pass",
            "bots_play",
            "bots_auto",
            None,
            "back",
            "forward",
            "now",
            "branch",
            None,
            "note",
            None,
            "edit_deck",
            None,
            "record",
            "form",
            "idle",
            None,
            "host",
            None,
            "report",
        ):
            game.addSeparator() if name is None else game.addAction(names[name])
        rules = bar.addMenu("&Rules")
        self.mode_group = QActionGroup(self)
        for mode, text, tip in (
            ("off", "&Off", "The rules assistant says nothing"),
            (
                "advisory",
                "&Advisory",
                "Moves stand; problems are marked on the table and in the log",
            ),
            (
                "strict",
                "&Strict",
                "Illegal moves are refused with the reason; forcing one needs a reason, logged",
            ),
        ):
            action = QAction(text, self, checkable=True)
            action.setToolTip(tip)
            action.setStatusTip(tip)
            action.setData(mode)
            action.triggered.connect(lambda _checked=False, m=mode: self.set_mode(m))
            self.mode_group.addAction(action)
            rules.addAction(action)
            self.actions_by_name[f"mode_{mode}"] = action
        rules.addSeparator()
        house = QAction("&House rules…", self)
        house.setToolTip("Set the mode of single rules or sections (e.g. E1 off, B4 strict)")
        house.triggered.connect(self.house_rules_dialog)
        rules.addAction(house)
        self.actions_by_name["house_rules"] = house
        rules.addSeparator()
        self.acting_menu = rules.addMenu("Acting &as")
        self.acting_menu.setToolTip(ACTING_TIP)
        self.acting_menu.aboutToShow.connect(self._fill_acting_menu)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(names["shortcuts"])
        help_menu.addAction(names["about"])
        tools = self.addToolBar("Table")
        tools.setObjectName("table-toolbar")
        for name in (
            "new",
            "open",
            None,
            "undo",
            "redo",
            None,
            "flip",
            "rotate",
            "roll",
            None,
            "fit",
            "pass",
            None,
            "export",
        ):
            tools.addSeparator() if name is None else tools.addAction(names[name])
        tools.addSeparator()
        self.mode_label = QLabel(" Rules: ")
        tools.addWidget(self.mode_label)
        for mode in ("off", "advisory", "strict"):
            tools.addAction(names[f"mode_{mode}"])
        tools.addSeparator()
        tools.addWidget(QLabel(" Acting as: "))
        self.acting_box = QComboBox()
        self.acting_box.setObjectName("acting-as")
        self.acting_box.setToolTip(ACTING_TIP)
        self.acting_box.activated.connect(
            lambda index: self.set_acting_as(self.acting_box.itemData(index))
        )
        tools.addWidget(self.acting_box)

    # ---- who acts at a shared table ---------------------------------------------
    def acting_choices(self) -> list[tuple[str, str | None]]:
        """(text, seat) for the "Acting as" choices: automatic, then each seat."""
        seats = self.session.game.header.seats if self.session is not None else []
        return [("Automatic", None), *((s.name or s.id, s.id) for s in seats)]

    def set_acting_as(self, seat: str | None) -> None:
        """Say who makes the moves from now on (None: the owner of what is moved)."""
        if self.session is not None:
            self.session.set_acting_as(seat or None)

    def _fill_acting_box(self) -> None:
        box = self.acting_box
        box.blockSignals(True)
        box.clear()
        current = self.session.acting_as if self.session is not None else None
        for text, seat in self.acting_choices():
            box.addItem(text, seat)
            if seat == current:
                box.setCurrentIndex(box.count() - 1)
        box.setEnabled(self.session is not None)
        box.blockSignals(False)

    def _fill_acting_menu(self) -> None:
        menu = self.acting_menu
        menu.clear()
        group = QActionGroup(menu)
        current = self.session.acting_as if self.session is not None else None
        for text, seat in self.acting_choices():
            action = QAction(text, menu, checkable=True)
            action.setChecked(seat == current)
            action.triggered.connect(lambda _checked=False, s=seat: self.set_acting_as(s))
            group.addAction(action)
            menu.addAction(action)

    # ---- a game on the table ---------------------------------------------
    def show_game(
        self, game: Game, module: Module | None = None, session: TableSession | None = None
    ) -> None:
        """Put a game on the table (closing the one there was); ``session``: a seat's window
        on a live game (OnlineSession) holding ``game``."""
        self._close_game()
        module = module if module is not None else module_for(game)
        self.session = session if session is not None else TableSession(game, module)
        table = self.session.table
        if self.session.remote:
            self.session.question.connect(self._online_question)
            self.session.snap_back.connect(lambda pids: self.scene.place_again(pids))
            self.session.connection_changed.connect(lambda _c: self._online_title())
        elif self.session.has_rules and table.policy_at(table.seq) is None:
            # a log from before policies were logged: the remembered policy, logged from here
            table.set_policy(self.remembered_policy(module), "table")
        self.scene = TableScene(self.session, cached=True)
        self.view = TableView(self.scene)
        self.setCentralWidget(self.view)
        self.curtain = Curtain(self.view)
        self.curtain.confirmed.connect(self._curtain_lifted)
        self.session.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.session.changed.connect(lambda _c: self._update_status())
        self.session.reset.connect(self._update_status)
        self.session.refused.connect(self._offer_force)
        self.session.write_failed.connect(self._write_failed)
        self.session.acting_changed.connect(self._fill_acting_box)
        self._fill_acting_box()
        self._start_clock()
        self._end_seen = False
        self._check_end(offer=False)  # a game opened finished: its result, no form offered
        self.session.changed.connect(lambda _c: self._check_end())
        self.scene.pieceActivated.connect(lambda pid: self.flip([pid]))
        self.scene.selectionChanged.connect(self._update_status)
        self.view.zoomChanged.connect(lambda _z: self._update_status())
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.viewport().setMouseTracking(True)
        self.view.viewport().installEventFilter(self)
        self._build_docks()
        self._restore_bots()
        self.session.bots_changed.connect(self._save_bots)
        title = module.name if module else game.header.module
        self.setWindowTitle(
            f"{title} — {Path(game.path).name if game.path else 'unsaved'} — tabletop"
        )
        if self.session.remote:
            self._online_title()
        if game.path:
            self._remember(game.path)
            self.settings.setValue("session/open", game.path)
        for warning in game.warnings:
            self.statusBar().showMessage(warning, 15000)
        QTimer.singleShot(0, self.view, self.view.fit_table)
        self._update_status()

    # ---- a seat's window on a live game (online_session.py) --------------------------
    def show_online(self, session: OnlineSession) -> None:
        """Show a seat's view of a live game; its moves go to the referee as requests."""
        self.show_game(session.game, session.module, session)

    def join_online(self, address: str) -> OnlineSession:
        """Join a live game as the address's seat and show it (OnlineError if it cannot be
        joined). A game waiting for the seats' contributions to its dice before it is set up
        is said in the status bar while the window waits for it."""
        from .online_session import OnlineSession, joined

        def waiting(text: str) -> None:
            self.statusBar().showMessage(text)
            QApplication.processEvents()

        client = joined(address, waiting=waiting)
        self.statusBar().clearMessage()
        session = OnlineSession(client, module_for(Game(client.table, client.header)))
        self.show_online(session)
        return session

    def host_online_dialog(self) -> None:
        """Game > Host online…: ask for the Redis server, then host the open game there."""
        if self.hosted is not None and self.hosted.running:
            self._show_host_dialog()
            return
        default = str(
            self.settings.value("online/redis", "redis://referee:PASSWORD@127.0.0.1:6379")
        )
        url, ok = QtWidgets.QInputDialog.getText(
            self,
            "Host online",
            "The Redis server, as its referee user: redis://referee:PASSWORD@HOST:PORT\n"
            "(`python -m tabletop.online.server FOLDER` starts one and prints it)",
            text=default,
        )
        if ok and url.strip():
            self.host_online(url.strip())

    def host_online(self, url: str, name: str | None = None) -> HostDialog | None:
        """Referee the open game on the Redis server at ``url`` in a background thread (the
        referee becomes its file's only writer), join it here as the seat at the screen, and
        show the join addresses. None (with a message) if it cannot be hosted."""
        session = self.session
        if session is None or session.remote or session.copy or not session.game.path:
            self._error("Host online", "Host a game saved in a file (File > Save as…) first.")
            return None
        if self.hosted is not None and self.hosted.running:
            self._error("Host online", f"This window already hosts {self.hosted.name}.")
            return None
        from .host_online import HostedGame
        from .online_session import OnlineSession, joined

        path, seat = session.game.path, session.viewer
        self._close_game()  # the referee writes the file from now on
        try:
            hosted = HostedGame(path, url, name)
        except (TableError, OSError) as exc:
            self._error("Cannot host the game", str(exc))
            self.open_path(path)
            return None
        self.settings.setValue("online/redis", url)
        self.hosted = hosted
        address = hosted.addresses.get(seat) or hosted.addresses[None]
        try:
            client = joined(str(address))
        except TableError as exc:
            self._error("Cannot join the hosted game", str(exc))
            return self._show_host_dialog()
        self.show_online(OnlineSession(client, module_for(Game(client.table, client.header))))
        return self._show_host_dialog()

    def _show_host_dialog(self) -> HostDialog | None:
        from .host_online import HostDialog

        hosted = self.hosted
        if hosted is None:
            return None
        names = {s.id: s.name or s.id for s in hosted.referee.header.seats}
        dialog = HostDialog(hosted, names, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        self.host_dialog = dialog
        return dialog

    def _online_title(self) -> None:
        session = self.session
        if session is None or not session.remote:
            return
        self.setWindowTitle(f"{session.online_text()} — tabletop")
        self._update_status()

    def _online_question(self, qid: str, question: Question) -> None:
        """A question for the seat at the screen: its dialog; the answer goes to the referee."""
        session = self.session
        if not self.ask:
            session.message.emit(f"A question for you: {question.describe()}")
            return
        answer = ask_question(self, question, name=session.seat_name)
        if self.session is session:
            session.answer(qid, answer)

    # ---- the seats a game's bots play, remembered with the game's file ------------
    def _bots_key(self) -> str | None:
        game = self.session.game if self.session is not None else None
        if game is None or not game.path:
            return None
        digest = hashlib.sha1(os.path.abspath(game.path).encode()).hexdigest()[:16]
        return f"game_bots/{digest}"

    def _save_bots(self) -> None:
        key = self._bots_key()
        if key is None:
            return
        seats = self.session.bot_seats
        if seats:
            self.settings.setValue(key, ",".join(f"{s}={b}" for s, b in seats.items()))
        else:
            self.settings.remove(key)

    def _restore_bots(self) -> None:
        """Give a reopened game's seats to the bots that played them (unknown ones are skipped)."""
        key = self._bots_key()
        text = str(self.settings.value(key, "") or "") if key else ""
        if not text or not self.session.has_bots:
            return
        seats = {s.id for s in self.session.game.header.seats}
        kinds = self.session.bot_kinds()
        for pair in text.split(","):
            seat, _, kind = pair.partition("=")
            if seat in seats and kind in kinds:
                self.session.set_bot(seat, kind)

    def _build_docks(self) -> None:
        for dock in self.docks.values():
            self.removeDockWidget(dock)
            dock.deleteLater()
        self.docks.clear()
        self.docks_menu.clear()
        session = self.session
        self.log_panel = LogPanel(session)
        self.log_panel.branch.clicked.connect(self.branch_dialog)
        seats = SeatsPanel(session)
        seats.passScreen.connect(self.pass_screen)
        findings = FindingsPanel(session)
        findings.findingChosen.connect(lambda pids: self.scene.select(pids))
        dice = DicePanel(session, self.scene.art)
        dice.rollRequested.connect(session.roll)
        self.notes_panel = NotesPanel(session)
        self.notes_panel.editRequested.connect(self.edit_note_dialog)
        self.notes_panel.removeRequested.connect(self.remove_note)
        self.log_panel.noteChosen.connect(self._show_notes_at)
        from .phase_panel import PhasePanel

        self.phase_panel = PhasePanel(session, ask=self.ask)
        self.phase_panel.auto_bots = self.actions_by_name["bots_auto"].isChecked()
        for key, title, widget, area in (
            ("phase", "Phase", self.phase_panel, Qt.DockWidgetArea.RightDockWidgetArea),
            ("log", "Log", self.log_panel, Qt.DockWidgetArea.RightDockWidgetArea),
            ("seats", "Seats", seats, Qt.DockWidgetArea.RightDockWidgetArea),
            ("findings", FINDINGS_TITLE, findings, Qt.DockWidgetArea.RightDockWidgetArea),
            ("dice", "Dice tray", dice, Qt.DockWidgetArea.RightDockWidgetArea),
            ("notes", "Notes", self.notes_panel, Qt.DockWidgetArea.RightDockWidgetArea),
        ):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"dock-{key}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[key] = dock
            self.docks_menu.addAction(dock.toggleViewAction())
        self.tabifyDockWidget(self.docks["seats"], self.docks["findings"])
        self.tabifyDockWidget(self.docks["findings"], self.docks["dice"])
        self.tabifyDockWidget(self.docks["dice"], self.docks["notes"])
        if session.rules is not None and session.rules.has_score:  # a game that keeps score
            from .score_panel import ScorePanel

            self.score_panel = ScorePanel(session)
            dock = QDockWidget("Score", self)
            dock.setObjectName("dock-score")
            dock.setWidget(self.score_panel)
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            self.docks["score"] = dock
            self.docks_menu.addAction(dock.toggleViewAction())
            self.tabifyDockWidget(self.docks["findings"], dock)
        self._new_findings = 0
        self.docks["findings"].visibilityChanged.connect(self._findings_seen)
        session.changed.connect(self._announce_findings)
        self._build_overview_dock()
        self.docks["seats"].raise_()
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        self.toggle_overview()  # the View menu's choice, over what the saved layout says

    def _build_overview_dock(self) -> None:
        """The overview map in a dock under the log: beside the table, so it never hides a
        piece. Shown on demand (View > Overview map, key M)."""
        dock = QDockWidget("Overview map", self)
        dock.setObjectName("dock-overview")
        dock.setWidget(Overview(self.view))
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.splitDockWidget(self.docks["log"], dock, Qt.Orientation.Vertical)
        self.docks["overview"] = dock
        self.docks_menu.addAction(dock.toggleViewAction())
        dock.toggleViewAction().triggered.connect(self._overview_dock_toggled)

    # ---- new findings announced ---------------------------------------------------
    def _announce_findings(self, change) -> None:  # noqa: ANN001 - a Change
        """A move's findings: the status bar names the first one's rule, and the findings tab,
        when out of sight, counts them as new until it is looked at."""
        entry = change.entry
        if entry.kind in ("undo", "redo") or not entry.findings or self.session is None:
            return
        first = entry.findings[0]
        text = self.session.entry_words(entry.seq, f"{first.rule}: {first.message}")
        more = len(entry.findings) - 1
        if more:
            text += f" (and {more} more under Rules findings)"
        self.statusBar().showMessage(text, 15000)
        dock = self.docks.get("findings")
        if dock is not None and (not dock.isVisible() or dock.visibleRegion().isEmpty()):
            self._new_findings += len(entry.findings)
            dock.setWindowTitle(f"{FINDINGS_TITLE} ({self._new_findings} new)")

    def _findings_seen(self, visible: bool) -> None:
        dock = self.docks.get("findings")
        if visible and dock is not None and self._new_findings:
            self._new_findings = 0
            dock.setWindowTitle(FINDINGS_TITLE)

    # ---- playtest notes ----------------------------------------------------------
    def add_note_dialog(self) -> NoteDialog | None:
        """The note dialog (key N), at the entry the table shows; the note is written when it
        is accepted. Not modal to the application: the table stays in view."""
        if self.session is None or self.scene is None:
            return None
        session = self.session
        seq = session.shown_seq
        looking = " (looking back)" if session.read_only else ""
        where = (
            f"entry {seq} of {session.table.seq}{looking}, by "
            f"{session.seat_name(session.note_author) if session.note_author != 'table' else 'the table'}"
        )
        pieces = tuple(self.scene.selected_pieces())
        dialog = NoteDialog(self, title="Add a note", where=where, pieces=pieces, snapshot=False)
        dialog.accepted.connect(lambda: self._add_note(dialog, seq))
        self._open_note_dialog(dialog)
        return dialog

    def _open_note_dialog(self, dialog: NoteDialog) -> None:
        self.note_dialog = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(self._back_to_table)
        dialog.open()

    def _back_to_table(self) -> None:
        """The keys go to the table again (N for the next note, F, R...)."""
        self.activateWindow()
        if self.view is not None:
            self.view.setFocus()

    def note_snapshot(self) -> str | None:
        """A PNG of the part of the table in view as the note's author may see it (a spectator's
        view if the author is not the seat at the screen), as base64; None with a message."""
        from tabletop.export.snapshot import ExportError, png_bytes_of_view

        session = self.session
        source = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        try:
            data = png_bytes_of_view(
                self.scene, source, as_spectator=session.note_author != session.viewer
            )
        except ExportError as exc:
            self.statusBar().showMessage(f"No snapshot: {exc}", 8000)
            return None
        return png_text(data)

    def _add_note(self, dialog: NoteDialog, seq: int) -> bool:
        png = self.note_snapshot() if dialog.snapshot.isChecked() else None
        command = Annotate(
            "add", None, dialog.chosen_tag, dialog.chosen_text, seq, dialog.chosen_pieces, png
        )
        return self.session.annotate(command)

    def _note(self, note_id: int):  # noqa: ANN202 - a PlaytestNote or None
        return next((n for n in self.session.table.notes() if n.id == note_id), None)

    def edit_note_dialog(self, note_id: int) -> NoteDialog | None:
        """Edit a note's tag, text and pieces: a later entry; the log keeps the old words."""
        note = self._note(note_id) if self.session is not None else None
        if note is None:
            return None
        dialog = NoteDialog(
            self,
            title=f"Edit note #{note.id}",
            where=f"entry {note.at}",
            tag=note.tag,
            text=note.text,
            pieces=note.pieces,
            snapshot=None,
        )
        dialog.accepted.connect(
            lambda: self.session.annotate(
                Annotate(
                    "edit",
                    note.id,
                    dialog.chosen_tag,
                    dialog.chosen_text,
                    note.at,
                    dialog.chosen_pieces,
                )
            )
        )
        self._open_note_dialog(dialog)
        return dialog

    def remove_note(self, note_id: int) -> bool:
        """Remove a note (a later entry: the log keeps it), after asking."""
        if self.session is None or self._note(note_id) is None:
            return False
        if self.ask:
            answer = QtWidgets.QMessageBox.question(
                self,
                "Remove note",
                f"Remove note #{note_id}? The log keeps its history.",
                QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
                QtWidgets.QMessageBox.StandardButton.No,  # Enter keeps the note
            )
            if answer != QtWidgets.QMessageBox.StandardButton.Yes:
                return False
        return self.session.annotate(Annotate("remove", note_id))

    def _show_notes_at(self, seq: int) -> None:
        """An entry with notes was chosen in the log: its notes in the Notes dock."""
        if self.notes_panel is not None and self.notes_panel.select_at(seq):
            self.docks["notes"].raise_()

    # ---- the session record ----------------------------------------------------------
    @property
    def idle_minutes(self) -> float:
        try:
            minutes = float(self.settings.value("session/idle_minutes", IDLE_MINUTES))
        except (TypeError, ValueError):
            return IDLE_MINUTES
        return minutes if minutes > 0 else IDLE_MINUTES

    def _start_clock(self) -> None:
        """Measure active play on this game: input to the application keeps it going.

        The clock listens once the event loop has handled what the window system had queued
        (a zero timer's timeout): no input reaches the window before then. Listening while the
        window is still being built and first painted would hand every event of that to
        Python, and the first object of a class Qt keeps private that such an event names is
        looked up among all of Qt's classes (making Python types for some eighty Qt enums).
        A picture taken at once (``tabletop play --screenshot``) needs no clock at all."""
        session = self.session
        clock = ActivityClock(
            lambda data: session.record(Record("played", data), quiet=True),
            self.idle_minutes * 60,
        )
        self.activity = clock
        listen = QTimer(clock, singleShot=True, interval=0)
        listen.timeout.connect(lambda: self._listen(clock))
        listen.start()

    def _listen(self, clock: ActivityClock) -> None:
        if self.activity is clock:  # not stopped (or replaced) before the loop came round
            QApplication.instance().installEventFilter(clock)

    def _stop_clock(self) -> None:
        if self.activity is not None:
            QApplication.instance().removeEventFilter(self.activity)
            self.activity.flush()
            self.activity = None

    def idle_dialog(self) -> None:
        minutes, ok = QtWidgets.QInputDialog.getDouble(
            self,
            "Idle after",
            "Minutes without input before the window counts a pause (not playing time):",
            self.idle_minutes,
            0.5,
            120.0,
            1,
        )
        if ok:
            self.set_idle_minutes(minutes)

    def set_idle_minutes(self, minutes: float) -> None:
        """The idle limit, remembered, and used from now on."""
        self.settings.setValue("session/idle_minutes", minutes)
        if self.activity is not None:
            self.activity.flush()
            self.activity.idle_seconds = minutes * 60

    def _check_end(self, offer: bool = True) -> None:
        """When the game is over: log the stretch of play, the result (once), and offer the
        players the end-of-session form."""
        session = self.session
        if self._end_seen or session is None or session.rules is None:
            return
        flow = session.rules.flow
        if flow is None or not flow.is_terminal(session.table.state):
            return
        self._end_seen = True
        if offer:  # seen in a change of the table: written after it, not inside it
            QTimer.singleShot(0, lambda: self._game_ended(session, offer))
        else:
            self._game_ended(session, offer)

    def _game_ended(self, session: TableSession, offer: bool) -> None:
        if session is not self.session:
            return
        if self.activity is not None:
            self.activity.flush()
        if record_result(session.table, session.rules):
            session.record_changed.emit()
            self.statusBar().showMessage(
                "The game is over: its result is in the session record", 10000
            )
        if offer:  # not modal to the application: the table stays in view
            self.form_dialog()

    def session_lines(self) -> list[str]:
        """The session record as lines (tabletop/persist/record.py)."""
        session = self.session
        result, why = (None, "")
        if session.table.session_parts().result is None:
            result, why = game_result(session.rules, session.table.state)
        record = session_record(
            session.game, idle=self.idle_minutes * 60, result=result, no_result=why
        )
        return record_lines(record)

    def _seat_choices(self) -> list[tuple[str, str]]:
        return [(s.id, s.name or s.id) for s in self.session.game.header.seats]

    def record_dialog(self) -> RecordDialog | None:
        """The session record, with the testers' names and the place to fill in."""
        if self.session is None:
            return None
        if self.activity is not None:
            self.activity.flush()
        testers, where = testers_and_place(self.session.game)
        dialog = RecordDialog(self, self.session_lines(), self._seat_choices(), testers, where)
        dialog.accepted.connect(lambda: self._save_record(dialog))
        dialog.form_button.clicked.connect(lambda: (dialog.reject(), self.form_dialog()))
        self.record_window = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _save_record(self, dialog: RecordDialog) -> bool:
        command = dialog.command()
        return command is not None and self.session.record(command)

    def form_dialog(self, seat: str | None = None) -> FormDialog | None:
        """A player's end-of-session form (offered when the game ends; at any time from the
        Game menu). The seat is the one acting, else the seat at the screen."""
        if self.session is None:
            return None
        session = self.session
        parts = session.table.session_parts()
        dialog = FormDialog(
            self,
            self._seat_choices(),
            parts.forms,
            seat or session.acting_as or session.viewer,
        )
        dialog.accepted.connect(
            lambda: self.session is session and session.record(dialog.command(), dialog.chosen_seat)
        )
        self.form_window = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _close_game(self) -> None:
        self._stop_clock()
        if self.session is not None:
            try:
                self.session.game.close()
            finally:
                if self.session.remote:
                    self.session.close()  # the live game goes on without this window
                else:
                    self.settings.remove("session/open")
        if self.scene is not None:
            self.scene.blockSignals(True)  # no selection signals from items being deleted
            self.scene.clear()  # items go before the scene, in Qt's order, not the collector's
            self.scene.pieces.clear()
            self.scene.places.clear()
        self.session = None

    def remembered_policy(self, module: Module | None) -> Policy:
        """The policy last chosen for a module's games (advisory at first), for a new game."""
        if module is None:
            return Policy(Mode.ADVISORY)
        mode = str(self.settings.value(f"rules/{module.id}", "advisory"))
        try:
            per_rule = parse_house_rules(str(self.settings.value(f"house_rules/{module.id}", "")))
            return Policy(Mode(mode), per_rule)
        except ValueError:  # a settings file edited by hand: the default
            return Policy(Mode.ADVISORY)

    def set_mode(self, mode: str) -> None:
        """Switch the rules assistant off, to advisory or to strict: logged in the game (by the
        seat at the screen) and remembered per module for new games."""
        if self.session is None:
            return
        if self.session.set_mode(mode) and self.session.module is not None:
            self.settings.setValue(f"rules/{self.session.module.id}", mode)
        self._update_status()

    def house_rules_dialog(self) -> None:
        """Per-rule modes: a line each, such as 'E1 off' or 'B4 strict'."""
        if self.session is None or not self.session.has_rules:
            return
        per_rule = self.session.table.policy.per_rule
        current = "\n".join(f"{rule} {mode.value}" for rule, mode in per_rule.items())
        text, ok = QtWidgets.QInputDialog.getMultiLineText(
            self,
            "House rules",
            "One rule or section a line, then its mode (off, advisory or strict), e.g. 'E1 off'.\n"
            "Rules not named follow the general mode.",
            current,
        )
        if ok:
            self.set_house_rules(text)

    def set_house_rules(self, text: str) -> bool:
        """Set per-rule modes from lines such as 'E1 off': logged in the game (by the seat at the
        screen) and remembered per module for new games."""
        try:
            per_rule = parse_house_rules(text)
        except ValueError as exc:
            self._error("House rules", str(exc))
            return False
        if not self.session.set_policy(Policy(self.session.table.policy.mode, per_rule)):
            return False
        if self.session.module is not None:
            self.settings.setValue(f"house_rules/{self.session.module.id}", text)
        self.statusBar().showMessage(f"House rules: {len(per_rule)} set", 6000)
        return True

    def _update_status(self) -> None:
        if self.session is None or self.view is None:
            return
        s = self.session
        parts = [
            f"At the screen: {s.seat_name(s.viewer)}",
            f"{s.table.seq} entries",
            f"zoom {self.view.zoom * 100:.0f}%",
        ]
        counters = s.state.counters
        if "deck.name" in counters:  # a module that records its deck revision (Greenland)
            placeholders = counters.get("deck.placeholders") or 0
            marked = f" ({placeholders} placeholder values ≈)" if placeholders else ""
            parts.insert(0, f"Deck: {counters['deck.name']}{marked}")
            self.status.setToolTip(
                "The deck revision this game plays with. Values on cards marked ≈ are placeholders, "
                "not the printed numbers (see the module's README)."
                if placeholders
                else "The deck revision this game plays with."
            )
        chosen = len(self.scene.selected_pieces()) if self.scene else 0
        if chosen:
            parts.insert(0, f"{chosen} selected")
        if s.remote:
            parts.insert(0, s.online_text())
        if s.history_seq is not None:
            parts.insert(0, f"LOOKING BACK at entry {s.history_seq}")
        elif s.read_only and not s.remote:
            parts.insert(0, f"READ-ONLY: {copy_owner_text(s.game.header)}")
        self.status.setText("   ·   ".join(parts))
        self.actions_by_name["undo"].setEnabled(s.table.can_undo and not s.read_only)
        self.actions_by_name["redo"].setEnabled(s.table.can_redo and not s.read_only)
        undo_text, redo_text = s.undo_text(), s.redo_text()
        self.actions_by_name["undo"].setText(f"&Undo {undo_text}" if undo_text else "&Undo")
        self.actions_by_name["redo"].setText(f"&Redo {redo_text}" if redo_text else "&Redo")
        self.actions_by_name["branch"].setEnabled(s.read_only)
        for mode in ("off", "advisory", "strict"):
            action = self.actions_by_name[f"mode_{mode}"]
            action.setEnabled(s.has_rules)
            action.setChecked(s.has_rules and s.mode == mode)
        self.actions_by_name["pass"].setEnabled(not s.remote)
        self.actions_by_name["host"].setEnabled(not s.remote and not s.copy)
        prototyping = bool(s.module and s.module.id == "proto")
        self.actions_by_name["clone"].setEnabled(prototyping)
        self.actions_by_name["delete"].setEnabled(prototyping)

    # ---- commands from gestures and keys ------------------------------------
    def _targets(self, pids: list[str] | None = None) -> list[str]:
        if pids is not None:
            return pids
        if self.scene is None:
            return []
        chosen = self.scene.selected_pieces()
        if not chosen and self._context_pid:
            chosen = [self._context_pid]
        return chosen

    def _submit_each(self, label: str, commands: list[Command]) -> bool:
        if not commands or self.session is None:
            return False
        command = commands[0] if len(commands) == 1 else Compound(label, tuple(commands))
        return self.session.submit(command)

    def flip(self, pids: list[str] | None = None) -> None:
        """Turn pieces over; a double-sided card (its deck row names its other side) shows its other side."""
        if self.session is None:
            return
        state = self.session.state
        commands = []
        for pid in self._targets(pids):
            if pid not in state.pieces or not self._two_sided(state.pieces[pid]):
                continue  # a cube, disk or die has no other face to show
            other = self._other_side(state.pieces[pid])
            commands.append(
                actions.set_property(state, pid, "card", other)
                if other
                else actions.flip(state, pid)
            )
        self._submit_each("flip", commands)

    def _two_sided(self, piece) -> bool:  # noqa: ANN001 - a Piece
        """A piece with two faces: a card or token, or a kind the module gives a back."""
        module = self.session.module if self.session else None
        kind = module.kinds.get(piece.kind) if module else None
        return kind is None or kind.shape in TWO_SIDED_SHAPES or bool(kind.back)

    def _other_side(self, piece) -> str | None:  # noqa: ANN001 - a Piece
        module = self.session.module if self.session else None
        deck = module.decks.get(piece.props.get("deck", "")) if module else None
        if deck is None or not piece.face_up:
            return None
        try:
            return deck.card(piece.props.get("card", "")).get("other_side") or None
        except KeyError:
            return None

    def rotate(self, quarters: int, pids: list[str] | None = None) -> None:
        if self.session is None:
            return
        state = self.session.state
        self._submit_each(
            "rotate",
            [
                actions.rotate(state, pid, quarters)
                for pid in self._targets(pids)
                if pid in state.pieces
            ],
        )

    def undo(self) -> None:
        if self.session is not None:
            self.session.undo()

    def redo(self) -> None:
        if self.session is not None:
            self.session.redo()

    def roll_selected_or_tray(self) -> None:
        if self.session is None:
            return
        state = self.session.state
        dice = [pid for pid in self._targets() if state.pieces[pid].props.get("faces")]
        if not dice:
            dice = [
                p.id
                for p in state.pieces.values()
                if p.props.get("faces") and state.places[p.place].kind == "area"
            ]
        self.session.roll(dice)

    def clone_selected(self) -> None:
        if self.session is None or not self.actions_by_name["clone"].isEnabled():
            return
        state = self.session.state
        commands = []
        taken = set(state.pieces)
        for pid in self._targets():
            piece = state.pieces[pid]
            n = 2
            while f"{pid}~{n}" in taken:
                n += 1
            record = piece.record()
            record["id"] = f"{pid}~{n}"
            taken.add(record["id"])
            x = piece.x + 6 if piece.x is not None else None
            y = piece.y + 6 if piece.y is not None else None
            commands.append(
                actions.add_piece(
                    state,
                    record,
                    piece.place,
                    spot=piece.spot,
                    x=x,
                    y=y,
                    index=len(state.places[piece.place].contents) + len(commands),
                )
            )
        self._submit_each("clone", commands)

    def delete_selected(self) -> None:
        if self.session is None or not self.actions_by_name["delete"].isEnabled():
            return
        state = self.session.state
        pids = self._targets()
        if not pids:
            return
        builders = [
            lambda s, p=pid: actions.remove_piece(s, p) for pid in pids if pid in state.pieces
        ]
        try:
            command = actions.build_sequence(state, f"delete {len(builders)} pieces", builders)
        except TableError as exc:
            self.statusBar().showMessage(f"Not deleted: {exc}", 8000)
            return
        self.session.submit(command)

    def send_groups(self, pids: list[str]) -> list[Group]:
        """Where the context menu's "Send to" offers to send ``pids``, by owner (send_menu.py)."""
        session = self.session
        names = {s.id: s.name or s.id for s in session.game.header.seats}
        face = piece_words(session.module).face
        return send_groups(session.state, pids, session.viewer, names, face)

    def send_to(self, pids: list[str], place_id: str, spot: str | None = None) -> None:
        """Move ``pids`` to a place: to ``spot`` if given, else each to the first free spot."""
        if self.session is None:
            return
        builders = [
            lambda s, p=pid: actions.move(
                s, p, place_id, spot=spot if spot is not None else _first_free_spot(s, place_id)
            )
            for pid in pids
        ]
        names = self.session.log_reader.names  # the label is read by people: names, not ids
        what = ", ".join(map(names.piece, pids)) if len(pids) <= 3 else f"{len(pids)} pieces"
        where = names.spot(place_id, spot) if spot is not None else names.place(place_id)
        try:
            command = actions.build_sequence(
                self.session.state, f"send {what} to {where}", builders
            )
        except TableError as exc:
            self.statusBar().showMessage(f"Not moved: {exc}", 8000)
            return
        self.session.submit(command)

    def _offer_force(self, command: Command, refusal) -> None:  # noqa: ANN001
        if not self.ask:
            return
        reasons = "\n".join(f"• {f.rule}: {f.message}" for f in refusal.findings)
        reason, ok = QtWidgets.QInputDialog.getText(
            self,
            "Refused by the rules",
            f"{reasons}\n\nTo make this move anyway, give a reason (it is logged):",
        )
        if ok and reason.strip():
            self.session.submit(command, force=reason.strip())

    # ---- context menu ---------------------------------------------------------
    def _context_menu(self, pos: QPoint) -> None:
        if self.scene is None or self.session is None:
            return
        scene_pos = self.view.mapToScene(pos)
        item = self.scene.piece_at(scene_pos)
        menu = QMenu(self)
        state = self.session.state
        if item is not None:
            self._context_pid = item.pid
            if not item.isSelected():
                self.scene.select([item.pid])
            pids = self.scene.selected_pieces()
            piece = state.pieces[item.pid]
            place = state.places[piece.place]
            if any(self._two_sided(state.pieces[p]) for p in pids):
                menu.addAction(self.actions_by_name["flip"])
            menu.addAction(self.actions_by_name["rotate"])
            menu.addAction(self.actions_by_name["rotate180"])
            if piece.props.get("faces"):
                menu.addAction(
                    "Roll",
                    lambda: self.session.roll(
                        [p for p in pids if state.pieces[p].props.get("faces")]
                    ),
                )
            fill_send_menu(
                menu.addMenu("Send to"),
                self.send_groups(pids),
                lambda t: self.send_to(pids, t.place, spot=t.spot),
            )
            if place.kind in ("deck", "stack"):
                self._deck_menu(menu, place.id)
            steps = self.card_steps(item.pid)
            if steps:
                menu.addSection("Rules assistant")
                for step in steps:
                    menu.addAction(step.label, lambda s=step: self.phase_panel.run(s))
            menu.addSeparator()
            menu.addAction(self.actions_by_name["clone"])
            menu.addAction(self.actions_by_name["delete"])
        else:
            for place_item in self.scene.places.values():
                if place_item.rect.contains(scene_pos) and place_item.kind in ("deck", "stack"):
                    self._deck_menu(menu, place_item.place_id)
            menu.addAction(self.actions_by_name["fit"])
            menu.addAction(self.actions_by_name["roll"])
        menu.addSeparator()
        menu.addAction(self.actions_by_name["copy_snapshot"])
        menu.addAction(self.actions_by_name["export"])
        menu.exec(self.view.viewport().mapToGlobal(pos))
        self._context_pid = None

    def card_steps(self, pid: str) -> list:
        """The rules assistant's procedures for a card just now (e.g. its hunt), for its context menu."""
        panel = getattr(self, "phase_panel", None)
        offered = panel.offered if panel is not None else ()
        return [a for a in offered if a.params.get("card") == pid]

    def _deck_menu(self, menu: QMenu, deck: str) -> None:
        session = self.session
        state = session.state
        count = len(state.places[deck].contents)
        menu.addSection(f"{state.places[deck].label or deck} ({count})")
        menu.addAction("Shuffle", lambda: session.shuffle(deck))
        hand = self._viewer_hand()
        if hand and count:
            menu.addAction(
                "Draw one into my hand", lambda: session.submit(actions.draw(state, deck, hand, 1))
            )
        hands = [p.id for p in state.places.values() if p.kind == "hand"]
        if hands and count:
            deal = menu.addMenu("Deal to every hand")
            for n in range(1, min(count // len(hands), 8) + 1):
                deal.addAction(
                    f"{n} each", lambda n=n: session.submit(actions.deal(state, deck, hands, n))
                )
        if count:
            menu.addAction("Peek at the top 3…", lambda: self.peek(deck, 3))
            menu.addAction("Search…", lambda: self.search(deck))

    def _viewer_hand(self) -> str | None:
        state = self.session.state
        for place in state.places.values():
            if place.kind == "hand" and place.owner == self.session.viewer:
                return place.id
        return None

    def peek(self, deck: str, count: int) -> None:
        session = self.session
        command = actions.peek(session.state, session.looker, deck, count)
        if not session.submit(command, actor=session.acting_as or session.looker):
            return
        pieces = [session.state.pieces[pid] for pid in command.pieces]
        PickDialog(
            self,
            f"The top {len(pieces)} of {deck} (only you see this)",
            self.scene.art,
            pieces,
            choose=False,
        ).exec()

    def search(self, deck: str) -> None:
        session = self.session
        state = session.state
        pieces = [state.pieces[pid] for pid in reversed(state.places[deck].contents)]
        dialog = PickDialog(self, f"Search {deck}: take one", self.scene.art, pieces, choose=True)
        if dialog.exec() and dialog.chosen():
            target = self._viewer_hand() or deck
            seat = session.looker
            session.submit(
                actions.search(state, seat, deck, dialog.chosen(), target),
                actor=session.acting_as or seat,
            )

    # ---- hover preview ---------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:  # noqa: ANN001
        if self.view is not None and watched is self.view.viewport():
            kind = event.type()
            if kind == event.Type.MouseMove and not event.buttons():
                item = self.scene.piece_at(self.view.mapToScene(event.position().toPoint()))
                pid = item.pid if item else ""
                if pid != self._hover_pid:
                    self._hover_pid = pid
                    self.preview.hide()
                    if pid:
                        self._hover_timer.start()
            elif kind in (event.Type.Leave, event.Type.MouseButtonPress, event.Type.Wheel):
                self._hover_pid = ""
                self._hover_timer.stop()
                self.preview.hide()
        return super().eventFilter(watched, event)

    def _show_preview(self) -> None:
        if (
            not self._hover_pid
            or self.session is None
            or self._hover_pid not in self.session.state.pieces
        ):
            return
        state = self.session.state
        piece = state.pieces[self._hover_pid]
        self.preview.show_piece(
            self.scene.art, piece, can_see(state, piece, self.session.viewer), self.cursor().pos()
        )

    # ---- hot seat -----------------------------------------------------------
    def let_bots_play(self) -> None:
        """The seats given to bots play what they have to play now (Ctrl+B)."""
        panel = getattr(self, "phase_panel", None)
        if self.session is None or panel is None:
            return
        if not self.session.bot_seats:
            self.statusBar().showMessage(
                "No seat is played by a bot: right-click a seat in the Seats panel", 8000
            )
            return
        if not panel.play_bots():
            self.statusBar().showMessage("The bots have nothing to play now", 5000)

    def set_bots_auto(self, on: bool) -> None:
        """Whether the bot seats play by themselves when their turn comes (remembered)."""
        self.settings.setValue("bots/auto", "true" if on else "false")
        panel = getattr(self, "phase_panel", None)
        if panel is not None:
            panel.auto_bots = on
            panel.schedule_bots()

    def pass_screen_dialog(self) -> None:
        if self.session is None:
            return
        seats = self.session.game.header.seats
        names = [s.name for s in seats]
        current = next((i for i, s in enumerate(seats) if s.id == self.session.viewer), -1)
        name, ok = QtWidgets.QInputDialog.getItem(
            self, "Pass the screen", "To whom?", names, (current + 1) % max(len(names), 1), False
        )
        if ok:
            self.pass_screen(seats[names.index(name)].id)

    def pass_screen(self, seat_id: str) -> None:
        """Hide every hand behind the curtain; the new player lifts it when alone at the screen."""
        if self.session is None:
            return
        seat = next((s for s in self.session.game.header.seats if s.id == seat_id), None)
        if seat is None:
            return
        if self.session.remote:  # a live game's screen is its seat's own: it says so
            self.session.set_viewer(seat.id)
            return
        self.session.set_viewer(None)
        self.curtain.show_for(seat.id, seat.name, seat.colour)

    def _curtain_lifted(self) -> None:
        if self.session is not None and self.curtain is not None:
            self.session.set_viewer(self.curtain.seat)

    def resizeEvent(self, event) -> None:  # noqa: ANN001
        super().resizeEvent(event)
        if self.curtain is not None:
            self.curtain.resize_to_parent()

    def toggle_overview(self) -> None:
        """Show or hide the overview map's dock as the View menu says, and remember it."""
        shown = self.actions_by_name["overview"].isChecked()
        self.settings.setValue("view/overview", "true" if shown else "false")
        dock = self.docks.get("overview")
        if dock is not None:
            dock.setVisible(shown)
            if shown:
                dock.raise_()

    def _overview_dock_toggled(self, shown: bool) -> None:
        """The dock was closed or opened from its own button or the Panels menu."""
        self.actions_by_name["overview"].setChecked(shown)
        self.toggle_overview()

    # ---- files ---------------------------------------------------------------
    def new_game_dialog(self) -> None:
        dialog = NewGameDialog(
            self,
            self.session.module.id if self.session and self.session.module else default_module(),
        )
        if dialog.exec():
            self._start_from(dialog)

    def start_new(self, module: Module, deck: str | None = None, **options) -> Game | None:  # noqa: ANN003
        try:
            if deck:
                from tabletop.modules.revisions import with_revision

                module = with_revision(module, deck)
            game = new_game(
                module,
                path=new_game_path(module.id),
                policy=self.remembered_policy(module),
                **options,
            )
        except (TableError, OSError) as exc:
            self._error("Cannot start the game", str(exc))
            return None
        self.show_game(game, module)
        return game

    def open_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, "Open a game", str(games_folder()), "Game logs (*.jsonl);;All files (*)"
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> Game | None:
        """Open a game log; a broken one gives a clear message and changes nothing."""
        try:
            try:
                game = Game.open(path)
            except SeatCopyError:  # a seat's copy: shown as its seat saw it, never written to
                game = Game.open(path, writable=False)
                check_copy(game)  # each entry against the digest it carries
        except (TableError, OSError) as exc:
            self._error("Cannot open the game", str(exc))
            return None
        module = module_for(game)
        unready = not_laid_out(module, game.state) if module is not None else None
        if unready is not None:  # a crash while setting up: nothing the game can show yet
            game.close()
            self._error("Cannot open the game", f"{path}: {unready}")
            return None
        self.show_game(game, module)
        return game

    def save_as_dialog(self) -> None:
        if self.session is None:
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Save the game as", str(games_folder()), "Game logs (*.jsonl)"
        )
        if path:
            self.save_as(path)

    def save_as(self, path: str) -> bool:
        """The log is the save: copy it (atomically) and go on writing to the copy."""
        game = self.session.game
        chosen = path
        if not path.endswith(".jsonl"):
            path += ".jsonl"
        replace = path == chosen  # the file chooser asked before replacing the file it named
        if os.path.abspath(path) == os.path.abspath(game.path or ""):
            return True
        viewer = self.session.viewer
        bots = dict(self.session.bot_seats)
        if self.activity is not None:  # the play so far goes with the copy
            self.activity.flush()
        try:
            atomic_copy(game.path, path, replace=replace)
            reopened = Game.open(path)
        except FileExistsError:
            self._error("Cannot save the game", f"{path} already exists; choose another name")
            return False
        except (OSError, TableError) as exc:
            self._error("Cannot save the game", str(exc))
            return False
        self.show_game(reopened)
        self.session.set_viewer(viewer)
        for seat, kind in bots.items():  # the bots go on playing in the copy
            self.session.set_bot(seat, kind)
        self.statusBar().showMessage(f"Saved as {path}; play goes on in that file", 8000)
        return True

    def branch_dialog(self) -> None:
        if self.session is None or self.session.history_seq is None:
            return
        seq = self.session.history_seq
        default = str(new_game_path(self.session.game.header.module)).replace(
            ".jsonl", f"-branch{seq}.jsonl"
        )
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, f"Branch from entry {seq}", default, "Game logs (*.jsonl)"
        )
        if path:
            self.branch(seq, path)

    def branch(self, seq: int, path: str) -> bool:
        try:
            self.session.game.branch(seq, path)
        except (TableError, OSError) as exc:
            self._error("Cannot branch", str(exc))
            return False
        return self.open_path(path) is not None

    def export_dialog(self) -> None:
        if self.scene is None:
            return
        from .export_dialog import ExportDialog

        ExportDialog(self, self.scene, self.view).exec()

    def copy_snapshot(self) -> bool:
        """A picture of the selected pieces, or else of the part in view, on the clipboard: as
        a spectator sees it (what any reader of a message may see), with the game's header,
        at most OPENS_ANYWHERE pixels wide."""
        from tabletop.export.header import snapshot_header
        from tabletop.export.snapshot import (
            OPENS_ANYWHERE,
            REGION_MARGIN,
            ExportError,
            fitting_width_scale,
            snapshot_image,
        )

        if self.scene is None or self.session is None:
            return False
        selected = [self.scene.pieces[p] for p in self.scene.selected_pieces()]
        if selected:
            source = selected[0].sceneBoundingRect()
            for item in selected[1:]:
                source = source.united(item.sceneBoundingRect())
            source = source.adjusted(-REGION_MARGIN, -REGION_MARGIN, REGION_MARGIN, REGION_MARGIN)
            what = "the selected pieces"
        else:
            source = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
            what = "the part in view"
        header = snapshot_header(self.session, None)
        scale = fitting_width_scale(source, 2.0, OPENS_ANYWHERE, header=header)
        try:
            picture = snapshot_image(self.scene, source, scale, header=header, as_spectator=True)
        except ExportError as exc:
            self._error("Cannot copy a snapshot", str(exc))
            return False
        QApplication.clipboard().setImage(picture)
        self.statusBar().showMessage(
            f"Copied a snapshot of {what} ({picture.width():,} x {picture.height():,}) "
            "as a spectator sees it",
            8000,
        )
        return True

    def import_deck_dialog(self) -> None:
        module_id = (
            self.session.module.id if self.session and self.session.module else default_module()
        )
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, "Import a deck revision", str(Path.home()), "CSV files (*.csv)"
        )
        if not path:
            return
        name, ok = QtWidgets.QInputDialog.getText(
            self, "Import a deck revision", "The revision's name:", text=Path(path).stem
        )
        if ok and name.strip():
            self.import_deck(module_id, path, name.strip())

    def import_deck(self, module_id: str, path: str, name: str) -> bool:
        """Check a CSV row by row; if every row is right, add it as a revision of the module's deck."""
        from tabletop.modules.revisions import import_revision

        try:
            target = import_revision(find_module(module_id), path, name)
        except (TableError, OSError) as exc:
            self._error("Cannot import the deck", str(exc))
            return False
        self.statusBar().showMessage(
            f"Added revision {name!r} ({target}); choose it in New game", 10000
        )
        return True

    def open_deck_editor(self) -> DeckEditor | None:
        """The deck editor on the open game's module and deck revision (else the module a new
        game starts with); a module without a deck gets a plain message."""
        if self.deck_editor is not None and self.deck_editor.isVisible():
            self.deck_editor.raise_()
            self.deck_editor.activateWindow()
            return self.deck_editor
        try:
            if self.session is not None and self.session.module is not None:
                module = self.session.module
            else:
                module = find_module(default_module())
            if not module.decks:
                self._error(
                    "No deck to edit",
                    f"{module.name} has no deck of cards to edit (its module.toml declares no [[decks]])",
                )
                return None
            from .deck_editor import DeckEditor  # here for start-up speed: opened on demand

            self.deck_editor = DeckEditor(self, module, self.settings, self.new_game_with_deck)
        except (TableError, OSError) as exc:
            self._error("Cannot edit the deck", str(exc))
            return None
        self.deck_editor.show()
        return self.deck_editor

    def new_game_with_deck(self, module_id: str, deck: str) -> NewGameDialog:
        """The new-game dialog with a module and a deck revision chosen (not blocking)."""
        dialog = self.new_dialog = NewGameDialog(self, None)
        index = dialog.module_box.findData(find_module(module_id).id)
        if index >= 0:
            dialog.module_box.setCurrentIndex(index)
        chosen = dialog.deck_box.findData(deck)
        if chosen >= 0:
            dialog.deck_box.setCurrentIndex(chosen)
        dialog.accepted.connect(lambda: self._start_from(dialog))
        dialog.open()
        return dialog

    def _start_from(self, dialog: NewGameDialog) -> None:
        c = dialog.choices()
        game = self.start_new(
            c["module"],
            deck=c["deck"],
            seats=c["seats"],
            variant=c["variant"],
            seed=c["seed"],
            notes=c["notes"],
            options=c["options"],
        )
        if game is not None:
            for seat, bot in c["bots"].items():
                self.session.set_bot(seat, bot)

    def _remember(self, path: str) -> None:
        recent = [p for p in self.recent_files() if p != path]
        self.settings.setValue("recent", [path, *recent][:RECENT_MAX])

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent") or []
        return [value] if isinstance(value, str) else list(value)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(path, lambda p=path: self.open_path(p))
            action.setEnabled(os.path.exists(path))
        if not self.recent_files():
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def screenshot(self, path: str) -> None:
        """Grab the window into a PNG at ``path``, written whole (replacing a file there; the
        quick writer of png.py). Raises OSError if it cannot be drawn or written."""
        picture = self.grab().toImage()
        if picture.isNull():
            raise OSError(errno.EIO, "the window could not be drawn", path)
        atomic_write_bytes(path, png_bytes(picture), replace=True)

    def offer_resume(self) -> bool:
        """After a crash (a game still marked open), offer to pick it up again."""
        path = self.settings.value("session/open")
        if not path or not os.path.exists(path):
            return False
        if self.ask:
            answer = QtWidgets.QMessageBox.question(
                self,
                "Resume?",
                f"The last game did not close cleanly:\n{path}\n\nEvery move up to the crash is in its log. Resume it?",
            )
            if answer != QtWidgets.QMessageBox.StandardButton.Yes:
                self.settings.remove("session/open")
                return False
        return self.open_path(path) is not None

    def _write_failed(self, path: str, reason: str) -> None:
        """The game's file refused an entry (the disk is full): say so in a box that does not
        stop the window; the table stays as the file has it, and play can go on."""
        text = (
            f"The game's file could not be written:\n{path}\n\nReason: {reason}.\n\n"
            "What was just done has not been made: the table stays as the file has it. "
            "Make room and do it again, or save the game elsewhere (File › Save as)."
        )
        self.statusBar().showMessage(f"{path}: cannot be written ({reason}); not done", 15000)
        if self.write_failure_box is not None:
            self.write_failure_box.close()
        box = QtWidgets.QMessageBox(
            QtWidgets.QMessageBox.Icon.Critical,
            "Cannot write the game",
            text,
            QtWidgets.QMessageBox.StandardButton.Ok,
            self,
        )
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result: setattr(self, "write_failure_box", None))
        self.write_failure_box = box
        box.open()

    def _error(self, title: str, message: str) -> None:
        message = printable(message)  # what a file holds: escaped, and cut if long
        self.statusBar().showMessage(message, 15000)
        if self.ask:
            QtWidgets.QMessageBox.critical(self, title, message)

    # ---- help ------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        lines = [
            f"{action.text().replace('&', '')}: {', '.join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())}"
            for action in self.actions_by_name.values()
            if action.shortcuts()
        ]
        lines += [
            "Drag a piece: move it (onto a place, a slot, a space or a card's region)",
            "Drag the ⠿ tab of a deck: move the whole deck",
            "Shift+drag on the table: select with a rubber band",
            "Drag on the table, middle button, arrow keys: pan",
            "Wheel or pinch: zoom",
            "Double-click: flip",
        ]
        QtWidgets.QMessageBox.information(self, "Keyboard and mouse", "\n".join(lines))

    def show_about(self) -> None:
        QtWidgets.QMessageBox.about(
            self,
            "About tabletop",
            f"tabletop {__version__}\nA digital tabletop for playtesting rules-heavy board games.",
        )

    # ---- the playtest report (tabletop/report/) -----------------------------------
    def report_dialog(self) -> None:
        """Game > Playtest report…: the folders, the file, a revision, bot games beside."""
        from .report_dialog import ReportDialog  # here: matplotlib loads only for a report

        folder = str(games_folder())
        dialog = ReportDialog(self, folder, str(Path(folder) / "playtest-report.pdf"))
        dialog.accepted.connect(
            lambda: self.make_report(
                dialog.chosen_folders(),
                dialog.output.text().strip(),
                dialog.revision.text().strip() or None,
                dialog.bot_games.value(),
            )
        )
        self.report_window = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def make_report(
        self, folders: list[str], output: str, revision: str | None = None, compare: int = 0
    ) -> None:
        """Make the report in the background, its progress in a dialog; then open it."""
        from .report_dialog import ReportJob

        if self.report_job is not None and self.report_job.isRunning():
            self.statusBar().showMessage("A report is being made already", 8000)
            return
        progress = QtWidgets.QProgressDialog("Reading the games…", "", 0, 0, self)
        progress.setWindowTitle("Playtest report")
        progress.setCancelButton(None)
        progress.setMinimumDuration(0)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        job = ReportJob(folders, output, revision, compare, self)
        job.progress.connect(progress.setLabelText)
        job.done.connect(self._report_done)
        self.report_job, self.report_progress = job, progress
        progress.show()
        job.start()

    def _report_done(self, error: str) -> None:
        job = self.report_job
        job.wait()
        if self.report_progress is not None:
            self.report_progress.close()
        if error:
            self._error("Cannot make the report", error)
            return
        self.statusBar().showMessage(f"Report written: {job.output}", 15000)
        if self.ask:  # a window that asks nothing opens nothing either
            QtGui.QDesktopServices.openUrl(QtCore.QUrl.fromLocalFile(job.output))

    def closeEvent(self, event: QCloseEvent) -> None:
        editor = self.deck_editor
        if editor is not None and editor.isVisible() and not editor.close():
            event.ignore()  # unsaved edits: the editor asks first
            return
        if self.report_job is not None:
            self.report_job.wait()  # a report being written is finished first
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self._close_game()
        if self.hosted is not None:
            self.hosted.stop()  # the game stays in its file: hosting it again goes on
        self.settings.sync()
        super().closeEvent(event)


def _first_free_spot(state, place_id: str) -> str | None:  # noqa: ANN001
    place = state.places[place_id]
    if not place.spots:
        return None
    for spot in place.spots:
        held = sum(1 for p in place.contents if state.pieces[p].spot == spot)
        if place.capacity is None or held < place.capacity:
            return spot
    return place.spots[0]


def _quiet(mode: QtMsgType, context, message: str) -> None:  # noqa: ANN001
    """Qt's messages go to stderr, but for the offscreen platform's chatter about window hints."""
    if "propagateSizeHints" in message:
        return
    sys.stderr.write(message + "\n")


def application() -> QApplication:
    # Qt's painter hands each large fill (a panel, a face, a row's backdrop) to a pool of
    # threads in slices and waits for them: at a table's sizes the hand-offs cost more than the
    # slices save (the window opened some 75 ms later with it, using as much CPU; exporting a
    # snapshot and opening a 10,000-piece table were slower too: docs/performance.md). One
    # thread paints. Qt reads this once, at its first fill.
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
    qInstallMessageHandler(_quiet)
    app = QApplication.instance() or QApplication([])
    app.setApplicationName("tabletop")
    app.setOrganizationName("tabletop")
    # the desktop entry and icon of `make install-desktop` (packaging/), when installed
    app.setDesktopFileName("tabletop")
    if QIcon.hasThemeIcon("tabletop"):
        app.setWindowIcon(QIcon.fromTheme("tabletop"))
    return app


__all__ = ["MainWindow", "application", "games_folder", "new_game_path"]
