"""Files: the session log (JSON Lines), checkpoints, opening and verifying, atomic writes."""

from .atomic import (
    atomic_copy,
    atomic_path,
    atomic_write_bytes,
    atomic_write_text,
    atomic_writer,
    leftovers,
)
from .formats import CURRENT_VERSION, FORMAT_NAME
from .logfile import (
    Header,
    LogContents,
    LogError,
    LogWriteError,
    LogWriter,
    read_log,
    write_log,
)
from .session import Game, SeatCopyError

__all__ = [
    "CURRENT_VERSION",
    "FORMAT_NAME",
    "Game",
    "Header",
    "LogContents",
    "LogError",
    "LogWriteError",
    "LogWriter",
    "SeatCopyError",
    "atomic_copy",
    "atomic_path",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_writer",
    "leftovers",
    "read_log",
    "write_log",
]
