"""``tabletop play``: the window, on a new game, a module's new game, or a game file."""

from __future__ import annotations

import contextlib
import gc
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from .window import MainWindow

NO_DISPLAY = (
    "there is no display here to open a window on; for a picture of a game use "
    "'tabletop render FILE -o board.png' (or 'tabletop play --screenshot out.png')"
)


NO_DISPLAY_EXIT = 3  # distinct from bad input (2), so `make run` can tell the two apart

# The parts of a module's game (rules_assist/game.py) read before Qt is imported (see play).
READ_BEFORE_QT = ("setup", "rulebook", "flow", "procedures")


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def play(
    target: str | None = None,
    screenshot: str | None = None,
    seed: int | None = None,
    bots: dict[str, str] | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Open the window; with ``screenshot``, grab it into that PNG and quit. Returns an exit code.

    ``bots`` gives seats to the module's bots ({seat: bot name}); ``size`` is the window's
    (width, height) in pixels, 1600x1000 for a screenshot unless given.
    """
    if screenshot is None and not has_display():
        print(f"tabletop play: {NO_DISPLAY}", file=sys.stderr)
        return NO_DISPLAY_EXIT
    if screenshot is not None and not has_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # a picture must not depend on, or change, the user's settings: scratch ones, removed when
    # play() returns
    scratch = tempfile.TemporaryDirectory(prefix="tabletop-") if screenshot is not None else None
    with _start_up(last=screenshot is not None):
        opened = _open(target, scratch.name if scratch else None, seed, bots, size)
    if isinstance(opened, int):
        return opened
    app, window = opened
    if screenshot is not None:
        return _grab(app, window, screenshot)
    return app.exec()


@contextlib.contextmanager
def _start_up(last: bool) -> Iterator[None]:
    """Opening the window makes some fifty thousand objects that live as long as it does (Qt's
    bindings, the game's code, the table): the cycle collector would walk them again and again
    while they are made (some 40 ms of start-up). It is paused until the window is up.

    ``last``: the window is the last thing the program does (a screenshot, then the end): what
    start-up made is then also kept out of the collector's walks from here on, the last one at
    the program's end included (some 90 ms). Not for a window that stays open: a game closed
    in it would keep what start-up made of it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if last:
            gc.freeze()
        if was_enabled:
            gc.enable()


def _open(
    target: str | None,
    scratch: str | None,
    seed: int | None,
    bots: dict[str, str] | None,
    size: tuple[int, int] | None,
) -> tuple[QApplication, MainWindow] | int:
    """The window shown on its game; an exit code if it cannot be. ``scratch``: the folder of
    a screenshot's settings (None: the user's)."""
    from tabletop.modules import ModuleError, default_module, find_module
    from tabletop.modules.gamecode import game_of

    # The module (and its game's code) is read before Qt is imported: once PySide6 is loaded it
    # reads the source of every module imported after it (for its ``__feature__`` switches),
    # about a millisecond each for the game's fifty-odd modules.
    from_file = target is not None and (target.endswith(".jsonl") or Path(target).is_file())
    module = module_error = None
    if not from_file:
        try:
            module = find_module(target or default_module())
        except ModuleError as exc:
            module_error = exc
        else:
            with contextlib.suppress(ModuleError):  # the window says what is wrong, as before
                game = game_of(module)
                for part in READ_BEFORE_QT:  # what a new game in the window asks for first
                    getattr(game, part, None)

    from PySide6.QtCore import QSettings

    from .window import MainWindow, application

    app = application()
    settings = None
    if scratch is not None:
        settings = QSettings(str(Path(scratch) / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, ask=scratch is None)
    if size is not None:
        window.resize(*size)
    elif scratch is not None:
        window.resize(1600, 1000)
    opened = None
    if from_file:
        opened = window.open_path(target)
        if opened is None:
            print(f"tabletop play: {window.statusBar().currentMessage()}", file=sys.stderr)
            return 2
    elif target is None and scratch is None and window.offer_resume():
        opened = window.session.game
    else:
        if module_error is not None:
            print(f"tabletop play: {module_error}", file=sys.stderr)
            return 2
        opened = window.start_new(
            module, seed=seed if seed is not None else random.SystemRandom().randrange(2**31)
        )
        if opened is None:
            print(f"tabletop play: {window.statusBar().currentMessage()}", file=sys.stderr)
            return 2
    problem = _seat_bots(window.session, bots or {})
    if problem:
        print(f"tabletop play: --bot: {problem}", file=sys.stderr)
        return 2
    window.show()
    return app, window


def join(address: str, size: tuple[int, int] | None = None) -> int:
    """Open the window on a seat of a live game (``tabletop join ADDRESS``); an exit code.
    OnlineError (a plain message) when the address or the server will not do."""
    if not has_display():
        print(f"tabletop join: {NO_DISPLAY.split(';')[0]}; join with --bot", file=sys.stderr)
        return NO_DISPLAY_EXIT
    from .window import MainWindow, application

    app = application()
    window = MainWindow()
    if size is not None:
        window.resize(*size)
    window.show()  # a fair game's start is awaited in it (its status bar says so)
    window.join_online(address)
    return app.exec()


def _seat_bots(session, bots: dict[str, str]) -> str | None:  # noqa: ANN001 - a TableSession
    """Give the seats to their bots; what is wrong, or None."""
    if not bots:
        return None
    seats = [s.id for s in session.game.header.seats]
    kinds = session.bot_kinds()
    if not kinds:
        return f"the module {session.game.header.module} has no bots"
    for seat, kind in bots.items():
        if seat not in seats:
            return f"there is no seat {seat!r} (seats: {', '.join(seats)})"
        if kind not in kinds:
            return f"there is no bot {kind!r} (bots: {', '.join(kinds)})"
    for seat, kind in bots.items():
        session.set_bot(seat, kind)
    return None


def _grab(app, window, path: str) -> int:  # noqa: ANN001
    app.sendPostedEvents()  # lay the window out (no painting yet): the grab paints it once
    window.view.fit_table()
    app.sendPostedEvents()
    try:
        window.screenshot(path)
    except OSError as exc:
        print(
            f"tabletop play: {path}: cannot write the screenshot ({exc.strerror or exc})",
            file=sys.stderr,
        )
        return 2
    finally:
        window.close()
    return 0
