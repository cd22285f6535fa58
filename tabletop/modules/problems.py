"""Problems found while loading a module: each names its file, line and field."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.core import TableError


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file + (f", line {self.line}" if self.line is not None else "")
        return (
            f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


class ModuleError(TableError):
    """A module cannot be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            text = f"{len(self.problems)} problems:\n" + "\n".join(f"  {p}" for p in self.problems)
        super().__init__(text)


_TABLE = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=")


class LineFinder:
    """Finds the line of a field in a TOML text, e.g. ('places', 2, 'kind').

    tomllib gives values without positions; this reads the text once and
    remembers where each table, each array-of-tables item and each key begins.
    """

    def __init__(self, text: str) -> None:
        self._lines: dict[tuple, int] = {}
        counts: dict[str, int] = {}
        current: tuple = ()
        for number, line in enumerate(text.splitlines(), start=1):
            match = _TABLE.match(line)
            if match:
                name = match.group(2).replace('"', "").replace("'", "").strip()
                parts = tuple(name.split("."))
                if match.group(1) == "[[":
                    index = counts.get(name, 0)
                    counts[name] = index + 1
                    current = (*_nest(parts, counts), index)
                else:
                    current = _nest(parts, counts)
                self._lines.setdefault(current, number)
                continue
            key = _KEY.match(line)
            if key:
                self._lines.setdefault((*current, key.group(1).strip('"')), number)

    def line(self, *path: object) -> int | None:
        """The line of the deepest part of ``path`` that was found."""
        path_t = tuple(path)
        while path_t:
            if path_t in self._lines:
                return self._lines[path_t]
            path_t = path_t[:-1]
        return None


def _nest(parts: tuple[str, ...], counts: dict[str, int]) -> tuple:
    """A sub-table such as [decks.columns] belongs to the last [[decks]] item."""
    out: list[object] = []
    for i, part in enumerate(parts):
        out.append(part)
        prefix = ".".join(parts[: i + 1])
        if prefix in counts and i < len(parts) - 1:
            out.append(counts[prefix] - 1)
    return tuple(out)
