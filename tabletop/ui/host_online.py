"""Game ▸ Host online…: the open game refereed live on Redis from the window.

``HostedGame`` runs the referee (tabletop/online/referee.py) on the game's file in a thread
of its own: the referee becomes the file's only writer, so the window lets go of the file
first and then joins the game as the seat at its screen, like any other player
(online_session.py). ``HostDialog`` shows each seat's join address (and the spectators'),
each with a button that copies it for sending to the player.
"""

from __future__ import annotations

import threading

import redis
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tabletop.online.referee import Referee
from tabletop.online.streams import Address, OnlineError


class HostedGame:
    """A game refereed in a background thread until ``stop``."""

    def __init__(self, path: str, url: str, name: str | None = None) -> None:
        self.said: list[str] = []  # the referee's own remarks
        try:
            self.referee = Referee(path, url, name, say=self.said.append)
        except redis.exceptions.RedisError as exc:
            raise OnlineError(f"{url.rsplit('@', 1)[-1]}: {exc}") from None
        try:
            self.addresses: dict[str | None, Address] = self.referee.open_seats()
        except redis.exceptions.RedisError as exc:
            self.referee.close()
            raise OnlineError(f"{url.rsplit('@', 1)[-1]}: {exc}") from None
        self.name = self.referee.name
        self.failures: list[BaseException] = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"referee {self.name}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.referee.run(until=self._stop.is_set, stop_when_over=False)
        except Exception as exc:  # noqa: BLE001 - kept for the window to say
            self.failures.append(exc)

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop refereeing (the game stays in its file and on Redis; hosting it again goes on)."""
        self._stop.set()
        self.thread.join(timeout)
        self.referee.close()


class HostDialog(QDialog):
    """The join addresses of a hosted game, each with a Copy button."""

    def __init__(
        self, hosted: HostedGame, names: dict[str, str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Hosting {hosted.name} online")
        layout = QVBoxLayout(self)
        intro = QLabel(
            f"The game {hosted.name} is refereed from this window while it is open. Send each"
            " player their seat's address; they join with 'tabletop join ADDRESS'."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        grid = QGridLayout()
        self.fields: dict[str | None, QLineEdit] = {}
        self.copy_buttons: dict[str | None, QPushButton] = {}
        for row, (viewer, address) in enumerate(hosted.addresses.items()):
            who = names.get(viewer, viewer) if viewer is not None else "Spectators"
            grid.addWidget(QLabel(who), row, 0)
            field = QLineEdit(str(address))
            field.setReadOnly(True)
            field.setMinimumWidth(420)
            grid.addWidget(field, row, 1)
            button = QPushButton("Copy")
            button.setToolTip(f"Copy {who}'s join address")
            button.clicked.connect(lambda _checked=False, text=str(address): self.copy(text))
            grid.addWidget(button, row, 2)
            self.fields[viewer] = field
            self.copy_buttons[viewer] = button
        layout.addLayout(grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def copy(self, text: str) -> None:
        QApplication.clipboard().setText(text)
