"""The table's limits: how large a file, a board, a table may be before it is refused.

Every file the program reads may come from someone else (a log, a position, a deck or a
whole module sent by email). Each limit below lies far above the largest real game (the
bench's 10,000-piece wargame table, tabletop/bench.py; Greenland's module is 9 KB, its
deck 9 KB) and far below what would exhaust memory or time. Beyond a limit the file is
refused with one line naming it; nothing is changed. The README's "Limits" table and
docs/modules.md list these numbers.
"""

from __future__ import annotations

import math

KB = 1024
MB = 1024 * KB

# ---- what lies on a table -------------------------------------------------------------
MAX_BOARD_SPACES = 40_000  # spaces of one board (a 200 x 200 hex map)
MAX_PIECES = 100_000  # pieces on one table (ten times the bench's wargame table)
MAX_PLACES = 20_000  # places on one table (the regions of every card count)
MAX_LAYOUT = 1_000_000.0  # a place's or a piece's position and size, in millimetres (1 km)

# ---- files ----------------------------------------------------------------------------
MAX_LOG_BYTES = 512 * MB  # a game log (.jsonl)
MAX_LOG_LINE = 64 * MB  # one line of a log (a checkpoint holds the whole table)
MAX_MODULE_BYTES = 4 * MB  # a module's module.toml
MAX_DECK_BYTES = 16 * MB  # a deck's CSV
MAX_POSITION_BYTES = 4 * MB  # a position file
MAX_NESTING = 100  # how deep lists and tables may nest in JSON and TOML


def size_text(n: int) -> str:
    """A byte count as a person reads it: '4 MB', '512 KB', '300 bytes'."""
    if n >= MB and n % MB == 0:
        return f"{n // MB} MB"
    if n >= KB and n % KB == 0:
        return f"{n // KB} KB"
    return f"{n} bytes"


def layout_number(value: object) -> bool:
    """A finite number (not true/false) within the layout bound, as positions and sizes are."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return -MAX_LAYOUT <= value <= MAX_LAYOUT  # exact for whole numbers of any size


LAYOUT_BOUND_TEXT = f"a finite number between -{MAX_LAYOUT:,.0f} and {MAX_LAYOUT:,.0f}"

__all__ = [
    "LAYOUT_BOUND_TEXT",
    "MAX_BOARD_SPACES",
    "MAX_DECK_BYTES",
    "MAX_LAYOUT",
    "MAX_LOG_BYTES",
    "MAX_LOG_LINE",
    "MAX_MODULE_BYTES",
    "MAX_NESTING",
    "MAX_PIECES",
    "MAX_PLACES",
    "MAX_POSITION_BYTES",
    "layout_number",
    "size_text",
]
