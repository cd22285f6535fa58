"""What changed between two revisions of a module's deck (``tabletop deck diff A B``).

Each side is a revision of the module's deck named as ``tabletop deck list`` shows it
(``printed``), a revision of a named module (``greenland:printed``), or a CSV file, read and
checked like a revision being imported (nothing is written). Cards are matched by their
``id``; for each card the diff lists every column whose value differs, the cards only on one
side, and the values that stop or start being placeholders, as the module's game marks them
(``placeholder_fields(row)`` of its game object; a module without one marks none).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalogue import default_module, find_module
from .deck import Deck
from .gamecode import game_of
from .manifest import Module
from .problems import ModuleError, Problem
from .revisions import main_deck, with_file, with_revision


@dataclass(frozen=True)
class Side:
    """One side of a diff: the label a person gave it and the deck it names."""

    label: str
    revision: str | None  # the revision's name, None for a file
    file: str | None  # the file, None for a revision
    deck: Deck


@dataclass
class CardDiff:
    """One card's differences: ``status`` is ``changed``, ``only_in_a`` or ``only_in_b``."""

    id: str
    name: str
    status: str
    values: list[tuple[str, Any, Any]] = field(default_factory=list)  # column, A's, B's
    placeholders: list[tuple[str, bool, bool]] = field(default_factory=list)  # column, A, B
    placeholder_columns: list[str] = field(default_factory=list)  # a card on one side only


@dataclass(frozen=True)
class DeckDiff:
    module: str
    deck: str
    a: Side
    b: Side
    cards: list[CardDiff]


def _is_file(spec: str) -> bool:
    return spec.lower().endswith(".csv") or "/" in spec or "\\" in spec


def _split(spec: str) -> tuple[str | None, str]:
    """A side's module (when it names one, ``MODULE:REVISION``) and the rest."""
    if not _is_file(spec) and ":" in spec:
        module_id, _, rest = spec.partition(":")
        return module_id, rest
    return None, spec


def _one_module(a: str, b: str, module_id: str | None) -> str:
    named = [(spec, m) for spec, m in ((a, _split(a)[0]), (b, _split(b)[0])) if m]
    if module_id:
        named.insert(0, ("--module", module_id))
    for spec, other in named[1:]:
        if find_module(other).id != find_module(named[0][1]).id:
            raise ModuleError(
                [
                    Problem(
                        spec,
                        None,
                        "",
                        f"is a deck of the module {other!r}, {named[0][0]} of {named[0][1]!r}:"
                        " a diff compares two revisions of one module's deck",
                    )
                ]
            )
    return named[0][1] if named else default_module()


def _side(module: Module, deck_id: str, spec: str) -> Side:
    _, rest = _split(spec)
    if _is_file(rest):
        try:
            loaded = with_file(module, rest, deck_id)
        except ModuleError as exc:
            first = exc.problems[0]
            where = ", ".join(
                part for part in (f"line {first.line}" if first.line else "", first.field) if part
            )
            more = len(exc.problems) - 1
            message = first.message + (f" (and {more} more problems)" if more > 0 else "")
            if first.message == "no such file":
                raise ModuleError([Problem(rest, None, "", "no such file")]) from None
            raise ModuleError(
                [
                    Problem(
                        rest,
                        None,
                        "",
                        f"is not a deck of the module {module.id!r}"
                        f" ({where + ': ' if where else ''}{message})",
                    )
                ]
            ) from None
        return Side(rest, None, rest, loaded.decks[deck_id])
    loaded = with_revision(module, rest, deck_id)
    return Side(rest, rest, None, loaded.decks[deck_id])


def _value(card: dict[str, Any], deck: Deck, column: str) -> Any:
    if column in card:
        return card[column]
    return next((c.default for c in deck.columns if c.name == column), None)


def _name(card: dict[str, Any]) -> str:
    name = card.get("name")
    return str(name) if name not in (None, "") else str(card["id"])


def diff(a: str, b: str, module_id: str | None = None) -> DeckDiff:
    """The differences between deck revisions ``a`` and ``b`` of one module (``module_id``
    unless a side names its module). Raises ModuleError with one plain problem on bad input."""
    module = find_module(_one_module(a, b, module_id))
    deck_id = main_deck(module)
    side_a, side_b = _side(module, deck_id, a), _side(module, deck_id, b)
    game = game_of(module)
    marked = getattr(game, "placeholder_fields", None) or _no_placeholders
    columns = [c.name for c in side_a.deck.columns if c.name != "id"]
    columns += [c.name for c in side_b.deck.columns if c.name != "id" and c.name not in columns]
    rows_a = {card["id"]: card for card in side_a.deck.cards}
    rows_b = {card["id"]: card for card in side_b.deck.cards}
    cards: list[CardDiff] = []
    for card_id, row_a in rows_a.items():
        row_b = rows_b.get(card_id)
        if row_b is None:
            cards.append(
                CardDiff(
                    card_id,
                    _name(row_a),
                    "only_in_a",
                    placeholder_columns=_ordered(marked(row_a), columns),
                )
            )
            continue
        changed = CardDiff(card_id, _name(row_b), "changed")
        for column in columns:
            value_a = _value(row_a, side_a.deck, column)
            value_b = _value(row_b, side_b.deck, column)
            if value_a != value_b:
                changed.values.append((column, value_a, value_b))
        marked_a, marked_b = marked(row_a), marked(row_b)
        for column in columns:
            if (column in marked_a) != (column in marked_b):
                changed.placeholders.append((column, column in marked_a, column in marked_b))
        if changed.values or changed.placeholders:
            cards.append(changed)
    for card_id, row_b in rows_b.items():
        if card_id not in rows_a:
            cards.append(
                CardDiff(
                    card_id,
                    _name(row_b),
                    "only_in_b",
                    placeholder_columns=_ordered(marked(row_b), columns),
                )
            )
    return DeckDiff(module.id, deck_id, side_a, side_b, cards)


def _no_placeholders(row: dict[str, Any]) -> set[str]:
    return set()


def _ordered(names: set[str], columns: list[str]) -> list[str]:
    return [c for c in columns if c in names]


def shown(value: Any) -> str:
    """A cell's value as the CSV would hold it, ``(empty)`` for none."""
    if value is None or value == "" or value == []:
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    return str(value)


def _side_json(side: Side) -> dict[str, Any]:
    return {
        "label": side.label,
        "revision": side.revision,
        "file": side.file,
        "sha256": side.deck.sha256,
        "cards": len(side.deck.cards),
    }


def diff_json(result: DeckDiff) -> dict[str, Any]:
    """The diff as plain data: the two sides, then one entry per card that differs."""
    cards: list[dict[str, Any]] = []
    for card in result.cards:
        entry: dict[str, Any] = {"id": card.id, "name": card.name, "status": card.status}
        if card.status == "changed":
            entry["values"] = [{"column": c, "a": va, "b": vb} for c, va, vb in card.values]
            entry["placeholders"] = [
                {"column": c, "a": pa, "b": pb} for c, pa, pb in card.placeholders
            ]
        else:
            entry["placeholders"] = card.placeholder_columns
        cards.append(entry)
    return {
        "module": result.module,
        "deck": result.deck,
        "a": _side_json(result.a),
        "b": _side_json(result.b),
        "cards": cards,
    }


def diff_text(result: DeckDiff) -> list[str]:
    """The diff for a person: a heading, then each card that differs with its changes."""
    a, b = result.a.label, result.b.label
    changed = [c for c in result.cards if c.status == "changed"]
    only_a = [c for c in result.cards if c.status == "only_in_a"]
    only_b = [c for c in result.cards if c.status == "only_in_b"]
    lines = [
        f"{result.module} deck: {a} (sha256 {result.a.deck.sha256[:12]}…) ->"
        f" {b} (sha256 {result.b.deck.sha256[:12]}…)"
    ]
    if not result.cards:
        lines.append("no differences")
        return lines
    lines.append(
        f"{len(changed)} cards changed, {len(only_a)} only in {a}, {len(only_b)} only in {b}"
    )
    for card in changed:
        lines.append("")
        lines.append(f"{card.id} ({card.name})")
        width = max((len(c) for c, _, _ in card.values + card.placeholders), default=0)
        for column, value_a, value_b in card.values:
            lines.append(f"  {column:<{width}}  {shown(value_a)} -> {shown(value_b)}")
        for column, _was, now in card.placeholders:
            status = "now a placeholder" if now else "no longer a placeholder"
            lines.append(f"  {column:<{width}}  {status}")
    for title, group in ((f"only in {a}", only_a), (f"only in {b}", only_b)):
        if group:
            lines.append("")
            lines.append(f"{title}:")
            for card in group:
                count = len(card.placeholder_columns)
                marks = f" ({count} placeholder values)" if count else ""
                lines.append(f"  {card.id} ({card.name}){marks}")
    return lines


__all__ = ["CardDiff", "DeckDiff", "Side", "diff", "diff_json", "diff_text", "shown"]
