"""Decks: one card a row in a CSV file a designer can edit, with typed columns.

Column types are declared in the module manifest (``[decks.columns]``):
``text``, ``int``, ``float``, ``bool``, ``list`` (values separated by ``;``) and
``int_list``; a column may instead be a table with ``type``, ``required``,
``min``, ``max``, ``choices`` and ``default``. Every deck has a text ``id``
column whose values are unique: they become the cards' piece ids.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.core.limits import MAX_DECK_BYTES, size_text
from tabletop.core.textsafe import clipped, quoted

from .problems import Problem

COLUMN_TYPES = ("text", "int", "float", "bool", "list", "int_list")
_TRUE = {"true", "yes", "1", "y", "x"}
_FALSE = {"false", "no", "0", "n", ""}


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "text"
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    default: Any = None

    def parse(self, raw: str) -> Any:
        """The cell's value; raises ValueError with a sentence for a person."""
        text = raw.strip()
        if not text:
            if self.required:
                raise ValueError("is empty, but this column is required")
            return self.default
        if self.type == "text":
            value: Any = text
        elif self.type == "int":
            value = _int(text)
        elif self.type == "float":
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{quoted(text)} is not a number") from None
        elif self.type == "bool":
            low = text.lower()
            if low not in _TRUE | _FALSE:
                raise ValueError(f"{quoted(text)} is not yes or no")
            value = low in _TRUE
        elif self.type == "list":
            value = [part.strip() for part in text.split(";") if part.strip()]
        else:
            value = [_int(part.strip()) for part in text.split(";") if part.strip()]
        values = value if isinstance(value, list) else [value]
        for item in values:
            if self.choices and str(item) not in self.choices:
                raise ValueError(f"{quoted(item)} is not one of {clipped(', '.join(self.choices))}")
            if isinstance(item, int | float) and not isinstance(item, bool):
                if self.minimum is not None and item < self.minimum:
                    raise ValueError(f"{item} is below the smallest allowed, {self.minimum:g}")
                if self.maximum is not None and item > self.maximum:
                    raise ValueError(f"{item} is above the largest allowed, {self.maximum:g}")
        return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{quoted(text)} is not a whole number") from None


@dataclass(frozen=True)
class Deck:
    """A deck as loaded: its cards (one dict a row, typed) and the file's sha256."""

    id: str
    file: str
    path: Path
    kind: str
    template: str | None
    columns: tuple[Column, ...]
    cards: tuple[dict[str, Any], ...]
    sha256: str
    lines: tuple[int, ...] = ()  # the file line of each card, for messages

    def line_of(self, card_id: str) -> int | None:
        for card, line in zip(self.cards, self.lines, strict=False):
            if card["id"] == card_id:
                return line
        return None

    def card(self, card_id: str) -> dict[str, Any]:
        for card in self.cards:
            if card["id"] == card_id:
                return card
        raise KeyError(f"deck {quoted(self.id)} has no card {quoted(card_id)}")


def read_deck(
    deck_id: str, path: Path, shown_as: str, columns: list[Column], kind: str, template: str | None
) -> tuple[Deck | None, list[Problem]]:
    """Read and check a deck CSV; returns the deck (None if unusable) and every problem found."""
    problems: list[Problem] = []
    try:
        if path.stat().st_size > MAX_DECK_BYTES:
            message = f"is larger than the limit of {size_text(MAX_DECK_BYTES)} for a deck"
            return None, [Problem(shown_as, None, "", message)]
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(shown_as, None, "", f"cannot be read ({exc.strerror or exc})")]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, [Problem(shown_as, line, "", "is not UTF-8 text (save the CSV as UTF-8)")]
    by_name = {c.name: c for c in columns}
    if "id" not in by_name:
        by_name["id"] = Column("id", "text", required=True)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        return None, [Problem(shown_as, 1, "", "is empty: the first line must name the columns")]
    except csv.Error as exc:
        return None, [Problem(shown_as, 1, "", f"is not valid CSV ({exc})")]
    names = [h.strip() for h in header]
    for name in names:
        if name not in by_name:
            problems.append(
                Problem(
                    shown_as,
                    1,
                    f"column {quoted(name)}",
                    "is not declared in the manifest's deck columns",
                )
            )
    for name, column in by_name.items():
        if column.required and name not in names:
            problems.append(
                Problem(shown_as, 1, f"column {quoted(name)}", "is missing from the first line")
            )
    if len(set(names)) != len(names):
        problems.append(Problem(shown_as, 1, "", "names a column twice"))
    if problems:
        return None, problems
    cards: list[dict[str, Any]] = []
    lines: list[int] = []
    seen: dict[str, int] = {}
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(names):
                problems.append(
                    Problem(
                        shown_as,
                        line,
                        "",
                        f"has {len(row)} cells where the first line names {len(names)}",
                    )
                )
                continue
            card: dict[str, Any] = {}
            for name, raw in zip(names, row, strict=True):
                try:
                    card[name] = by_name[name].parse(raw)
                except ValueError as exc:
                    problems.append(Problem(shown_as, line, f"column {quoted(name)}", str(exc)))
            card_id = card.get("id")
            if isinstance(card_id, str):
                if card_id in seen:
                    problems.append(
                        Problem(
                            shown_as,
                            line,
                            "column 'id'",
                            f"{quoted(card_id)} is already used on line {seen[card_id]}",
                        )
                    )
                seen[card_id] = line
            cards.append(card)
            lines.append(line)
    except csv.Error as exc:
        problems.append(Problem(shown_as, reader.line_num, "", f"is not valid CSV ({exc})"))
    if not cards and not problems:
        problems.append(Problem(shown_as, 2, "", "holds no cards"))
    if problems:
        return None, problems
    digest = hashlib.sha256(data).hexdigest()
    columns = tuple(by_name.values())
    return Deck(
        deck_id, shown_as, path, kind, template, columns, tuple(cards), digest, tuple(lines)
    ), []
