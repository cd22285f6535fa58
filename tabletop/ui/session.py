"""The window's hold on a game: the one object that submits commands for the view.

The view never changes the table itself: every gesture becomes a command that
goes through ``TableSession.submit`` (and so through the table's one
pipeline). The session turns refusals and errors into messages, follows the
table's changes with signals, keeps who is looking (the seat at the screen in
hot-seat play), and shows earlier states of the game read-only.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from tabletop.core import (
    Change,
    Command,
    CommandError,
    Mode,
    Policy,
    Refused,
    TableError,
    TableState,
)
from tabletop.modules import Module
from tabletop.persist import Game


class TableSession(QObject):
    changed = Signal(object)  # a Change of the live table
    reset = Signal()  # everything is to be drawn anew (another game, a seat switch, history)
    message = Signal(str)  # a sentence for the status bar
    refused = Signal(
        object, object
    )  # (command, Refused): strict rules said no; the window may offer to force

    def __init__(self, game: Game, module: Module | None, viewer: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.module = module
        seats = [s.id for s in game.header.seats]
        self.viewer: str | None = viewer if viewer is not None else (seats[0] if seats else None)
        self.history_seq: int | None = None  # None: the live table
        self._history_state: TableState | None = None
        self.last_change: Change | None = None
        game.table.subscribe(self._on_change)
        from tabletop.modules.rules import attach_checker

        self.has_rules = attach_checker(game.table, module)
        self._complete = None
        if module is not None and module.complete_move_path:
            from tabletop.modules.setup import import_function

            self._complete = import_function(module.complete_move_path, "module.complete_move")

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
        return self.history_seq is not None

    @property
    def actor(self) -> str:
        return self.viewer or "table"

    def seat_name(self, seat_id: str | None) -> str:
        for seat in self.game.header.seats:
            if seat.id == seat_id:
                return seat.name or seat.id
        return seat_id or "nobody"

    # ---- changing the table ----------------------------------------------
    def submit(self, command: Command, force: str | None = None) -> bool:
        """Submit a command as the seat at the screen; False (with a message) if it did not apply."""
        if self.read_only:
            self.message.emit(
                "This is an earlier state of the game, shown read-only: press 'Back to now' to play."
            )
            return False
        if self._complete is not None and self.table.policy.checking:
            command = self._complete(self.state, command, self.module)
        try:
            self.game.table.submit(command, self.actor, force=force)
        except Refused as refusal:
            self.message.emit(str(refusal))
            self.refused.emit(command, refusal)
            return False
        except (CommandError, TableError) as exc:
            self.message.emit(f"Not done: {exc}")
            return False
        return True

    def undo(self) -> bool:
        if self.read_only or not self.table.can_undo:
            return False
        text = self.table.undo_text()
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
        text = self.table.redo_text()
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
            change = self.table.roll(dice, self.actor)
        except Refused as refusal:
            self.message.emit(str(refusal))
            return False
        except TableError as exc:
            self.message.emit(f"Not rolled: {exc}")
            return False
        self.message.emit(change.entry.command.describe())
        return True

    def shuffle(self, place_id: str) -> bool:
        if self.read_only:
            return False
        try:
            self.table.shuffle(place_id, self.actor)
        except TableError as exc:
            self.message.emit(f"Not shuffled: {exc}")
            return False
        self.message.emit(f"Shuffled {place_id}")
        return True

    def set_mode(self, mode: str) -> None:
        """How the rules assistant enforces: off, advisory or strict (for every rule)."""
        self.table.policy = Policy(Mode(mode), dict(self.table.policy.per_rule))
        self.message.emit(f"Rules assistant: {Mode(mode).value}")

    @property
    def mode(self) -> str:
        return self.table.policy.mode.value

    def _on_change(self, change: Change) -> None:
        self.last_change = change
        if self.history_seq is None:
            self.changed.emit(change)

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
