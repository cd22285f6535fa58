"""A deck revision being edited: the cells as text, checked as they change, saved as a new revision.

``DeckDraft.open(module)`` reads a revision of the module's deck (the one the module has, or
a named one) as the CSV holds it: one dict of cell texts a card. An edit changes a cell's
text; ``error(i, column)`` says why a cell cannot be read (the column's type, range or
allowed words, as ``deck import`` reads it), ``problems()`` adds the game's own check of the
whole deck (its ``deck_check``), and ``placeholders(i)`` names the values the game marks as
placeholders. The game decides what a placeholder is; ``placeholder_cells`` asks it which
cells to change so a value is, or stops being, one (``mark_placeholder`` of its game object;
a game without one marks none). ``save(name)`` writes the cells to a CSV and imports it as a
revision (``import_revision``: every check of ``tabletop deck import``, nothing written unless
every row passes); ``diff(...)`` compares the draft with a revision (``deck_diff``).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .deck import Column, Deck
from .deck_diff import DeckDiff
from .deck_diff import diff as deck_diff
from .gamecode import game_of
from .manifest import Module
from .problems import ModuleError, Problem
from .revisions import import_revision, main_deck, with_revision


def describe(column: Column) -> str:
    """What a column takes, for a person: its type, range and allowed words."""
    kinds = {
        "text": "text",
        "int": "a whole number",
        "float": "a number",
        "bool": "yes or no",
        "list": "words separated by ';'",
        "int_list": "whole numbers separated by ';'",
    }
    parts = [kinds.get(column.type, column.type)]
    if column.minimum is not None and column.maximum is not None:
        parts.append(f"from {column.minimum:g} to {column.maximum:g}")
    elif column.minimum is not None:
        parts.append(f"at least {column.minimum:g}")
    elif column.maximum is not None:
        parts.append(f"at most {column.maximum:g}")
    if column.choices:
        parts.append("one of " + ", ".join(column.choices))
    if column.required:
        parts.append("required")
    return ", ".join(parts)


@dataclass
class DeckDraft:
    """The cells of one deck revision, as text, and what the module says of them."""

    module: Module  # the module with the revision the draft started from
    deck_id: str
    revision: str  # the revision the draft started from
    columns: list[Column]  # in the file's order
    cells: list[dict[str, str]]
    line_end: str = "\n"
    header: tuple[str, ...] = ()  # the columns the file names, in its order
    _game: Any = field(default=None, repr=False)
    _problems: list[tuple[int | None, str, str]] | None = field(default=None, repr=False)

    @classmethod
    def open(
        cls, module: Module, revision: str | None = None, deck_id: str | None = None
    ) -> DeckDraft:
        """The draft of a revision of the module's deck (the module's own when none is named)."""
        deck_id = deck_id or main_deck(module)
        if revision:
            module = with_revision(module, revision, deck_id)
        deck = module.decks[deck_id]
        data = deck.path.read_bytes().decode("utf-8-sig")
        rows = [row for row in csv.reader(io.StringIO(data, newline="")) if row]
        header = [name.strip() for name in rows[0]]
        by_name = {c.name: c for c in deck.columns}
        columns = [by_name.get(name, Column(name)) for name in header]
        columns += [c for c in deck.columns if c.name not in header]
        cells = [
            {c.name: (row[i] if i < len(row) else "") for i, c in enumerate(columns)}
            for row in rows[1:]
            if any(cell.strip() for cell in row)
        ]
        line_end = "\r\n" if "\r\n" in data else "\n"
        return cls(module, deck_id, deck.path.stem, columns, cells, line_end, tuple(header))

    # ---- reading the cells -----------------------------------------------------------------
    @property
    def game(self) -> Any:
        if self._game is None:
            self._game = game_of(self.module)
        return self._game

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def card_id(self, i: int) -> str:
        return self.cells[i].get("id", "")

    def title(self, i: int) -> str:
        name = self.cells[i].get("name", "").strip()
        return name or self.card_id(i)

    def error(self, i: int, column: str) -> str | None:
        """Why a cell cannot be read (its column's type, range, allowed words), or None."""
        try:
            self.column(column).parse(self.cells[i].get(column, ""))
        except ValueError as exc:
            return str(exc)
        return None

    def typed(self, i: int) -> dict[str, Any]:
        """The card's values as the deck reader types them (a cell that cannot be read: its
        column's default)."""
        row: dict[str, Any] = {}
        for column in self.columns:
            try:
                row[column.name] = column.parse(self.cells[i].get(column.name, ""))
            except ValueError:
                row[column.name] = column.default
        return row

    def deck(self) -> Deck:
        """The draft as a deck (each card on the line it would have in the written CSV)."""
        base = self.module.decks[self.deck_id]
        cards = tuple(self.typed(i) for i in range(len(self.cells)))
        lines = tuple(range(2, len(self.cells) + 2))
        return dataclasses.replace(base, cards=cards, lines=lines, columns=tuple(self.columns))

    def module_now(self) -> Module:
        """The module with the draft as its deck (for drawing the cards as they now read)."""
        return dataclasses.replace(
            self.module, decks={**self.module.decks, self.deck_id: self.deck()}
        )

    def problems(self) -> list[tuple[int | None, str, str]]:
        """Every problem of the draft: (card index or None for the whole deck, column,
        message): the cells that cannot be read, ids used twice, then the game's own check."""
        if self._problems is not None:
            return self._problems
        found: list[tuple[int | None, str, str]] = []
        seen: dict[str, int] = {}
        for i in range(len(self.cells)):
            for column in self.columns:
                message = self.error(i, column.name)
                if message:
                    found.append((i, column.name, message))
            card_id = self.card_id(i).strip()
            if card_id in seen:
                found.append((i, "id", f"{card_id!r} is already the id of another card"))
            seen.setdefault(card_id, i)
        check = getattr(self.game, "deck_check", None)
        if check is not None:
            try:
                for line, column, message in check(self.deck()):
                    index = line - 2 if isinstance(line, int) and line >= 2 else None
                    found.append((index, column or "", message))
            except Exception as exc:  # a check that breaks on a half-edited card: say so plainly
                found.append((None, "", f"the game's check of the deck failed ({exc})"))
        self._problems = found
        return found

    def card_problems(self, i: int) -> list[tuple[str, str]]:
        return [(column, message) for index, column, message in self.problems() if index == i]

    def deck_wide_problems(self) -> list[tuple[str, str]]:
        return [(column, message) for index, column, message in self.problems() if index is None]

    def placeholders(self, i: int) -> set[str]:
        """The columns whose values the game marks as placeholders on this card."""
        marked = getattr(self.game, "placeholder_fields", None)
        return set(marked(self.typed(i))) if marked is not None else set()

    @property
    def marks_placeholders(self) -> bool:
        return callable(getattr(self.game, "mark_placeholder", None))

    def placeholder_cells(
        self, i: int, column: str, placeholder: bool, source: str
    ) -> dict[str, str]:
        """The cells to change so the card's value in ``column`` is (or stops being) a
        placeholder, as the game marks them; {} when the game marks none or nothing changes."""
        mark = getattr(self.game, "mark_placeholder", None)
        if mark is None:
            return {}
        changes = mark(self.typed(i), column, placeholder, source) or {}
        return {k: v for k, v in changes.items() if self.cells[i].get(k, "") != v}

    def vocabulary(self, column: str) -> list[tuple[str, str]]:
        """The words the game reads in a column beyond its declared choices: (word, meaning)."""
        words = getattr(self.game, "deck_vocabulary", None)
        return list(words(column)) if words is not None else []

    # ---- changing and writing -------------------------------------------------------------
    def set(self, i: int, column: str, text: str) -> None:
        self.cells[i][column] = text
        self._problems = None

    def csv_text(self) -> str:
        """The draft as the CSV a revision holds (declared columns no card fills are left out)."""
        header = [
            c.name
            for c in self.columns
            if c.name in self.header or any(row.get(c.name, "").strip() for row in self.cells)
        ]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator=self.line_end)
        writer.writerow(header)
        for row in self.cells:
            writer.writerow([row.get(name, "") for name in header])
        return out.getvalue()

    def _named(self, problem: Problem, path: Path, name: str) -> Problem:
        """A problem of the written CSV, named by its card rather than by the file's line."""
        if problem.file != str(path):
            return problem
        index = problem.line - 2 if problem.line is not None else -1
        if 0 <= index < len(self.cells):
            card = f"card {self.card_id(index)!r} ({self.title(index)})"
            return dataclasses.replace(problem, file=card, line=None)
        return dataclasses.replace(problem, file=f"revision {name!r}")

    @contextmanager
    def _written(self) -> Iterator[Path]:
        with tempfile.TemporaryDirectory(prefix="deck-draft-") as folder:
            path = Path(folder) / f"{self.revision}-draft.csv"
            path.write_text(self.csv_text(), encoding="utf-8", newline="")
            yield path

    def diff(self, against: str | None = None) -> DeckDiff:
        """What the draft changes from a revision (the one it started from when none is named),
        read and checked like a revision being imported. Raises ModuleError if it cannot be read."""
        with self._written() as path:
            result = deck_diff(against or self.revision, str(path), str(self.module.folder))
        return dataclasses.replace(result, b=dataclasses.replace(result.b, label="edited"))

    def save(self, name: str) -> Path:
        """Import the draft as the revision ``name``: every check of ``tabletop deck import``
        runs first, and nothing is written unless every row passes. Raises ModuleError."""
        name = name.strip()
        if not name:
            raise ModuleError([Problem("the revision", None, "", "needs a name")])
        with self._written() as path:
            try:
                target = import_revision(self.module, path, name, self.deck_id)
            except ModuleError as exc:
                raise ModuleError([self._named(p, path, name) for p in exc.problems]) from None
        self.module = with_revision(self.module, name, self.deck_id)
        self.revision = name
        self._game = None
        self._problems = None
        return target


__all__ = ["DeckDraft", "describe"]
