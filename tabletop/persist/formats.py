"""Versions of the log format and how older ones are brought up to date.

Each migration takes the parsed header and the parsed records of version N and
returns them as version N + 1. A file from a newer version than this program
reads is refused with a clear message; it is never rewritten.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.core.textsafe import quoted

FORMAT_NAME = "tabletop-log"
CURRENT_VERSION = 1

Migration = Callable[
    [dict[str, Any], list[dict[str, Any]]], tuple[dict[str, Any], list[dict[str, Any]]]
]

# version N -> function taking (header, records) of version N to version N + 1
MIGRATIONS: dict[int, Migration] = {}


class VersionError(Exception):
    pass


def migrate(
    header: dict[str, Any],
    records: list[dict[str, Any]],
    migrations: dict[int, Migration] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Bring a log up to the current version, one step at a time."""
    steps = MIGRATIONS if migrations is None else migrations
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise VersionError(
            f"the format version must be a whole number from 1, not {quoted(version)}"
        )
    if version > CURRENT_VERSION:
        raise VersionError(
            f"it was written in format version {version}, by a newer tabletop; "
            f"this one reads up to version {CURRENT_VERSION}: please update tabletop"
        )
    while version < CURRENT_VERSION:
        step = steps.get(version)
        if step is None:
            raise VersionError(f"there is no way to read format version {version}")
        header, records = step(header, records)
        version += 1
        header = {**header, "version": version}
    return header, records
