"""Snapshots without a window: a game's table (now or at an earlier entry) drawn straight to a file."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .header import snapshot_header
from .snapshot import ExportError, Progress, check_target, crop_source, export_scene, region_source

if TYPE_CHECKING:
    from tabletop.modules import Module
    from tabletop.persist import Game


def render_game(
    game: Game,
    module: Module | None,
    path: str | Path,
    *,
    at: int | None = None,
    scale: float = 1.0,
    caption: str | None = None,
    log_count: int = 8,
    viewer: str | None = None,
    progress: Progress | None = None,
    region: list[str] | None = None,
    crop: str | None = None,
) -> None:
    """Draw a game's table (after entry ``at``, or now) into a snapshot, without a window.

    ``viewer`` None draws what a spectator sees; a seat id adds that seat's hand.
    The log band holds the last ``log_count`` entries up to the one shown, as the same
    viewer may read them (tabletop/log_view.py: a card it could not see is not named).
    ``region`` (place or seat names) or ``crop`` ("x,y,w,h" in the whole table's units)
    draws a part of the table. A header above the table gives the game's facts and the
    viewer (tabletop/export/header.py).
    """
    table = game.table
    seats = [s.id for s in game.header.seats]
    if viewer is not None and viewer not in seats:
        raise ExportError(f"there is no seat {viewer!r} (seats: {', '.join(seats) or 'none'})")
    if at is not None and not (isinstance(at, int) and 0 <= at <= table.seq):
        raise ExportError(f"there is no entry {at}; the log holds 0 to {table.seq}")
    if log_count < 0:
        raise ExportError("the number of log lines must be 0 or more")
    if region and crop:
        raise ExportError("choose either a region or a crop, not both")
    check_target(Path(path))
    application_for_snapshots()
    from tabletop.ui.scene import TableScene
    from tabletop.ui.session import TableSession

    session = TableSession(game, module)
    session.viewer = viewer  # before the scene is drawn: no redraw for it
    scene = None
    try:
        if at is not None:
            session.show_history(at)
        scene = TableScene(session)
        source = None
        if region:
            source = region_source(scene, region)
        elif crop is not None:
            source = crop_source(scene, crop)
        shown = table.seq if at is None else at
        entries = [e for e in table.entries if e.seq <= shown][-log_count:] if log_count else []
        export_scene(
            scene,
            path,
            scale=scale,
            source=source,
            caption=caption,
            header=snapshot_header(session, viewer),
            log_lines=session.log_reader.lines(viewer, entries) if entries else [],
            progress=progress,
        )
    finally:
        if scene is not None:
            scene.clear()
        with contextlib.suppress(ValueError):
            table.unsubscribe(session._on_change)


def application_for_snapshots() -> Any:
    """The QApplication (made offscreen where there is no display to draw on)."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        from tabletop.ui.app import has_display

        if not has_display():
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from tabletop.ui.window import application

    return application()
