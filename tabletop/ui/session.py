"""The window's hold on a game: the one object that submits commands for the view.

The view never changes the table itself: every gesture becomes a command that
goes through ``TableSession.submit`` (and so through the table's one
pipeline). The session turns refusals and errors into messages, follows the
table's changes with signals, keeps who is looking (the seat at the screen in
hot-seat play), and shows earlier states of the game read-only.

Who acted is not who is looking: at a shared table anyone moves any piece. A
move is credited (and judged by the rules) as the game's ``who_acted`` says:
the owner of the piece moved, else the seat whose turn it is; a player may
say who they are instead (``acting_as``, the window's "Acting as"). A bot's
moves name it as a bot ('bot:red').
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from tabletop.core import (
    Annotate,
    Change,
    Command,
    CommandError,
    Mode,
    Policy,
    Record,
    Refused,
    TableError,
    TableState,
    owners_moved,
)
from tabletop.log_view import LogReader
from tabletop.modules import Module
from tabletop.modules.gamecode import game_of
from tabletop.modules.rules import attach_checker
from tabletop.modules.words import piece_words
from tabletop.persist import Game
from tabletop.persist.seatview import copy_owner_text, seat_view_of


class TableSession(QObject):
    remote = False  # a seat's window on a live game (online_session.py): moves are requests
    changed = Signal(object)  # a Change of the live table
    reset = Signal()  # everything is to be drawn anew (another game, a seat switch, history)
    message = Signal(str)  # a sentence for the status bar
    refused = Signal(
        object, object
    )  # (command, Refused): strict rules said no; the window may offer to force
    bots_changed = Signal()  # a seat was given to a bot or back to a person
    acting_changed = Signal()  # a player said who they are, or went back to automatic
    notes_changed = Signal()  # a playtest note was added, edited or removed
    record_changed = Signal()  # the session record gained an entry (names, time, result, form)
    # the game's file could not take an entry (path, the system's reason): it was not made
    write_failed = Signal(str, str)

    def __init__(self, game: Game, module: Module | None, viewer: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.module = module
        seats = [s.id for s in game.header.seats]
        # a seat's copy (tabletop export) shows what its seat saw, and nothing is played on it
        self.copy, copy_seat = seat_view_of(game.header)
        if self.copy and viewer is None:
            viewer = copy_seat
        self.viewer: str | None = viewer if viewer is not None else (seats[0] if seats else None)
        self.acting_as: str | None = None  # None: automatic (who_acted); else a seat's id
        self.history_seq: int | None = None  # None: the live table
        self._history_state: TableState | None = None
        self.last_change: Change | None = None
        game.table.subscribe(self._on_change)
        game.on_write_failure(lambda error: self.write_failed.emit(error.path, error.reason))
        self.rules = game_of(module)  # the game interface (rules_assist/game.py), or None
        self.has_rules = attach_checker(game.table, module)
        self._complete = (
            self.rules.complete_move
            if self.rules is not None and self.rules.has_complete_move
            else None
        )
        self.bot_seats: dict[str, str] = {}  # seat -> the name of the bot playing it, this game
        self._bots: dict[str, Any] = {}
        self._bot_factories: dict[str, Any] | None = None
        self._log_reader: LogReader | None = None

    # ---- what is shown ---------------------------------------------------
    @property
    def table(self):  # noqa: ANN201 - a Table
        return self.game.table

    @property
    def state(self) -> TableState:
        """The state on screen: the live table, or an earlier one while looking back."""
        if self.history_seq is not None and self._history_state is not None:
            return self._history_state
        return self.game.table.state

    @property
    def read_only(self) -> bool:
        return self.history_seq is not None or self.copy

    @property
    def read_only_text(self) -> str:
        """Why nothing can be done on the table now, for a message."""
        if self.copy and self.history_seq is None:
            return (
                f"This is {copy_owner_text(self.game.header)} of the game, shown read-only:"
                " moves are made on the full game."
            )
        return "This is an earlier state of the game, shown read-only: press 'Back to now' to play."

    @property
    def actor(self) -> str:
        """Who acts where no piece names anyone (an undo, the table's own step): the seat a
        player said they are, else the table."""
        return self.acting_as or "table"

    @property
    def looker(self) -> str:
        """Who looks: the seat at the screen (a peek shows it the cards), else the table."""
        return self.viewer or "table"

    def credit(self, command: Command | None = None) -> str:
        """The actor a command of a person at the table is logged as and judged as: the seat
        they said they are (``acting_as``); else the game's ``who_acted`` (the owner of what
        moves, else the seat whose turn it is); else the table."""
        if self.acting_as:
            return self.acting_as
        if self.rules is not None:
            seat = self.rules.who_acted(self.game.table.state, command)
        else:
            owners = owners_moved(self.game.table.state, command) if command is not None else []
            seat = owners[0] if owners else None
        return seat or "table"

    def set_acting_as(self, seat: str | None) -> None:
        """A player says who they are (their moves are credited to and judged as ``seat``), or
        (None) leaves it to the owners of the pieces moved."""
        seats = {s.id for s in self.game.header.seats}
        self.acting_as = seat if seat in seats else None
        who = self.seat_name(self.acting_as) if self.acting_as else "automatic"
        self.message.emit(f"Acting as: {who}")
        self.acting_changed.emit()

    def seat_name(self, seat_id: str | None) -> str:
        for seat in self.game.header.seats:
            if seat.id == seat_id:
                return seat.name or seat.id
        return seat_id or "nobody"

    # ---- the log as the seat at the screen may read it ---------------------------
    @property
    def log_reader(self) -> LogReader:
        """The log read for every reader (tabletop/log_view.py), made on first use."""
        if self._log_reader is None:
            names = {s.id: s.name for s in self.game.header.seats}
            self._log_reader = LogReader(self.game.table, names, piece_words(self.module))
        return self._log_reader

    def log_line(self, entry: Any) -> str:
        """An entry's log line as the viewer may read it (a hidden card is not named)."""
        return self.log_reader.line(entry, self.viewer)

    def entry_words(self, seq: int, text: str) -> str:
        """Text written for entry ``seq`` (its command's words, a finding) as the viewer may read it."""
        return self.log_reader.redact(seq, text, self.viewer)

    def undo_text(self) -> str | None:
        """What undo would take back, as the viewer may read it."""
        stack = self.table.undo_stack
        text = self.table.undo_text(self.log_reader.names)
        return self.entry_words(stack[-1], text) if stack and text is not None else None

    def redo_text(self) -> str | None:
        """What redo would apply again, as the viewer may read it."""
        stack = self.table.redo_stack
        text = self.table.redo_text(self.log_reader.names)
        return self.entry_words(stack[-1], text) if stack and text is not None else None

    # ---- changing the table ----------------------------------------------
    def submit(self, command: Command, force: str | None = None, actor: str | None = None) -> bool:
        """Submit a command as ``actor`` (by default as ``credit`` says: the owner of what it
        moves, ...); False (with a message) if it did not apply."""
        if self.read_only:
            self.message.emit(self.read_only_text)
            return False
        who = actor or self.credit(command)
        if self._complete is not None and self.table.policy.checking:
            command = self._complete(self.state, command)
        try:
            change = self.game.table.submit(command, who, force=force)
        except Refused as refusal:
            self.message.emit(str(refusal))
            self.refused.emit(command, refusal)
            return False
        except (CommandError, TableError) as exc:
            self.message.emit(f"Not done: {exc}")
            return False
        if force and change is not None:  # the refusal's message would still stand
            words = self.entry_words(
                change.entry.seq, self.log_reader.describe(change.entry.command)
            )
            self.message.emit(f"{words}: forced past the rules ({force})")
        return True

    def undo(self) -> bool:
        if self.read_only or not self.table.can_undo:
            return False
        text = self.undo_text()
        try:
            self.table.undo(self.actor)
        except TableError as exc:
            self.message.emit(f"Cannot undo: {exc}")
            return False
        self.message.emit(f"Undone: {text}")
        return True

    def redo(self) -> bool:
        if self.read_only or not self.table.can_redo:
            return False
        text = self.redo_text()
        try:
            self.table.redo(self.actor)
        except TableError as exc:
            self.message.emit(f"Cannot redo: {exc}")
            return False
        self.message.emit(f"Redone: {text}")
        return True

    def roll(self, dice: list[str]) -> bool:
        if self.read_only or not dice:
            return False
        try:
            change = self.table.roll(dice, self.credit())
        except Refused as refusal:
            self.message.emit(str(refusal))
            return False
        except TableError as exc:
            self.message.emit(f"Not rolled: {exc}")
            return False
        self.message.emit(
            self.entry_words(change.entry.seq, self.log_reader.describe(change.entry.command))
        )
        return True

    def shuffle(self, place_id: str) -> bool:
        if self.read_only:
            return False
        try:
            self.table.shuffle(place_id, self.credit())
        except TableError as exc:
            self.message.emit(f"Not shuffled: {exc}")
            return False
        self.message.emit(f"Shuffled {place_id}")
        return True

    def set_policy(self, policy: Policy) -> bool:
        """Enforce ``policy`` from now on: a 'policy' entry in the log, by the seat a player said
        they are, else the seat at the screen, else the table (not a move: undo leaves it).
        False (with a message) while looking back."""
        if self.read_only:
            self.message.emit(
                self.read_only_text.replace("to play.", "to change the rules assistant.")
            )
            return False
        try:
            self.table.set_policy(policy, self.acting_as or self.looker)
        except TableError as exc:
            self.message.emit(f"Rules assistant not changed: {exc}")
            return False
        self.message.emit(f"Rules assistant: {self.table.policy.describe()}")
        return True

    def set_mode(self, mode: str) -> bool:
        """How the rules assistant enforces: off, advisory or strict (for every rule)."""
        return self.set_policy(Policy(Mode(mode), dict(self.table.policy.per_rule)))

    @property
    def mode(self) -> str:
        return self.table.policy.mode.value

    # ---- playtest notes (tabletop/core/notes.py) --------------------------------
    @property
    def shown_seq(self) -> int:
        """The entry the table on screen shows: the one looked back at, else the last."""
        return self.history_seq if self.history_seq is not None else self.table.seq

    @property
    def note_author(self) -> str:
        """Who writes a note: the seat a player said they are, else the seat at the screen,
        else the table."""
        return self.acting_as or self.looker

    def annotate(self, command: Annotate) -> bool:
        """Add, edit or remove a note as ``note_author``; allowed while looking back too (a
        note changes nothing on the table). False (with a message) if it was not written."""
        try:
            change = self.table.annotate(command, self.note_author)
        except TableError as exc:
            self.message.emit(f"Note not written: {exc}")
            return False
        self.message.emit(
            self.entry_words(change.entry.seq, self.log_reader.describe(change.entry.command))
        )
        self.notes_changed.emit()
        return True

    # ---- the session record (tabletop/core/record.py) ---------------------------------
    def record(self, command: Record, actor: str = "table", *, quiet: bool = False) -> bool:
        """Add to the session record as ``actor``; allowed while looking back too (it changes
        nothing on the table). False (with a message) if it was not written."""
        try:
            change = self.table.record(command, actor)
        except TableError as exc:
            self.message.emit(f"Session record not written: {exc}")
            return False
        if not quiet:
            self.message.emit(
                self.entry_words(change.entry.seq, self.log_reader.describe(change.entry.command))
            )
        self.record_changed.emit()
        return True

    def _on_change(self, change: Change) -> None:
        self.last_change = change
        if self.history_seq is None:
            self.changed.emit(change)

    # ---- seats played by bots (the game's ``bots``) ----------------------------
    @property
    def has_bots(self) -> bool:
        """The game offers bots, without loading them yet."""
        return self.rules is not None and bool(getattr(self.rules, "has_bots", False))

    def bot_kinds(self) -> list[str]:
        """The bots the game offers a seat to (empty for a game without bots)."""
        if self._bot_factories is None:
            self._bot_factories = {}
            if self.rules is not None:
                self._bot_factories = dict(self.rules.bots)
        return list(self._bot_factories)

    def set_bot(self, seat: str, name: str | None) -> bool:
        """Give ``seat`` to the bot named ``name``, or (None) back to a person."""
        if name is None:
            if self.bot_seats.pop(seat, None) is None:
                return False
            self._bots.pop(seat, None)
            self.message.emit(f"{self.seat_name(seat)} is played by a person again")
        else:
            kinds = self.bot_kinds()
            if name not in kinds:
                self.message.emit(f"No bot {name!r} here: {', '.join(kinds) or 'none'}")
                return False
            seats = [s.id for s in self.game.header.seats]
            if seat not in seats:
                return False
            seed = self.game.header.seed * 10 + seats.index(seat)
            self._bots[seat] = self._bot_factories[name](seed)  # type: ignore[index]
            self.bot_seats[seat] = name
            self.message.emit(f"{self.seat_name(seat)} is played by the {name} bot")
        self.bots_changed.emit()
        return True

    def bot_of(self, seat: str | None) -> Any:
        """The bot playing ``seat``, or None for a person."""
        return self._bots.get(seat) if seat is not None else None

    # ---- who looks, and when ---------------------------------------------
    def set_viewer(self, seat: str | None) -> None:
        self.viewer = seat
        self.reset.emit()

    def show_history(self, seq: int | None) -> None:
        """Show the table as it was after entry ``seq`` (read-only), or the live table (None)."""
        if seq is not None and not 0 <= seq <= self.table.seq:
            return
        if seq == self.table.seq:
            seq = None
        self.history_seq = seq
        self._history_state = self.table.state_at(seq) if seq is not None else None
        self.reset.emit()
