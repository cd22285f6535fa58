"""Snapshots of the table (PNG, SVG, PDF) for rules discussions, from the window or headless."""

from .headless import application_for_snapshots, render_game
from .snapshot import (
    FORMATS,
    ExportError,
    band_heights,
    export_scene,
    snapshot_size,
    table_source,
)

__all__ = [
    "FORMATS",
    "application_for_snapshots",
    "ExportError",
    "band_heights",
    "export_scene",
    "render_game",
    "snapshot_size",
    "table_source",
]
