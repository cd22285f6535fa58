"""The command line's error for a plain message: its own module, so that tabletop/cli.py can
tell it from a traceback's cause without loading the commands that raise it (each loads with
its command only)."""

from __future__ import annotations


class CliError(Exception):
    """A plain message for the person at the terminal."""
