"""Greenland's deck in the game's own terms, and the check of its rows.

The deck is a CSV a designer edits (resources/greenland/decks/). Besides the
typed columns the manifest declares, rows are checked here: the abilities
vocabulary, the event icons, and the composition of the 60 cards (B).

Abilities (the ``abilities`` column, ';'-separated; the rules assistant reads them):

=============================  ==================================================
``reroll F TYPE``              re-roll dice showing F when TYPE (G2, F2)
``modify A->B TYPE``           dice showing A count as B when TYPE (G3)
``hand_size +N``               hand size +N (B2); ``hand_size +N D``: D cards only
``sled``                       one card outside the homeland without a mariner (E1)
``no_raid``                    cannot be livestock raided (E5)
``hunt_first TYPE``            hunts first on cards of TYPE (A4)
``wins_auction_ties``          wins tied auctions (D10)
``snowflake -N``               snowflake losses reduced by N (D3)
``free_promotion``             promotion to elder costs no energy
``reassign N``                 reassign N hunters after everyone has assigned (E6)
``falcon_value N``             gyrfalcons are worth N ivory this turn (B3)
``snowflake_on_success N``     a successful hunt costs a snowflake event of N (G4)
=============================  ==================================================

TYPE is one of land, maritime, fishing, metallurgy, raid, attack, any.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from tabletop.core.limits import MAX_PIECES
from tabletop.modules import ModuleError, Problem

from ..game import Variant, variants_of

TYPES = ("land", "maritime", "fishing", "metallurgy", "raid", "attack", "any")
COMPOSITION = {
    "event": 16,
    "north": 14,
    "south": 15,
    "new_world": 2,
    "elder": 3,
    "daughter": 8,
    "norse_animal": 2,
}
DAUGHTERS_PER_COLOUR = {"red": 2, "yellow": 3, "green": 3}
CULTURES = {"red": "Norse", "yellow": "Thule", "green": "Tunit"}
NORSE_ANIMALS = ("cattle", "sheep", "pony", "goat")

_ABILITY = [
    (re.compile(r"^reroll [1-6] (\w+)$"), "type"),
    (re.compile(r"^modify [1-6]->[1-6] (\w+)$"), "type"),
    (re.compile(r"^hand_size \+[1-9]( D)?$"), None),
    (re.compile(r"^(sled|no_raid|wins_auction_ties|free_promotion)$"), None),
    (re.compile(r"^hunt_first (\w+)$"), "type"),
    (re.compile(r"^snowflake -[1-9]$"), None),
    (re.compile(r"^reassign [1-9]$"), None),
    (re.compile(r"^falcon_value [1-9]$"), None),
    (re.compile(r"^snowflake_on_success [1-9]$"), None),
]
_EVENT_ICON = re.compile(
    r"^(first:(red|yellow|green)(/(red|yellow|green))?|migration:(north|south)|decimate:crowd:\d+|"
    r"decimate:venereal:(red|yellow|green)|decimate:feud|snowflake:(\d|per_d)|cooling|die_off|breakage|"
    r"no_maritime|storm|no_markland|auction)$"
)


def ability_problem(text: str) -> str | None:
    """Why an ability is not in the vocabulary, or None."""
    for pattern, group in _ABILITY:
        match = pattern.match(text)
        if match:
            if group == "type" and match.group(1) not in TYPES:
                return f"{match.group(1)!r} is not a biome type ({', '.join(TYPES)})"
            return None
    return f"{text!r} is not an ability of the vocabulary (see resources/greenland/README.md)"


def check_rows(deck: Any) -> list[tuple[int | None, str, str]]:
    """Problems in a Greenland deck beyond the column types: (line, column, message)."""
    problems: list[tuple[int | None, str, str]] = []
    lines = dict(zip((c["id"] for c in deck.cards), deck.lines, strict=False))
    by_card: dict[str, list[dict[str, Any]]] = {}
    for row in deck.cards:
        line = lines.get(row["id"])
        for ability in row.get("abilities") or []:
            problem = ability_problem(ability)
            if problem:
                problems.append((line, "abilities", problem))
        for icon in row.get("event_icons") or []:
            if not _EVENT_ICON.match(icon):
                problems.append((line, "event_icons", f"{icon!r} is not an event icon"))
        if row.get("type") in ("elder", "daughter", "norse_animal") and not row.get("colour"):
            problems.append((line, "colour", f"a {row['type']} card needs its colour"))
        if row.get("type") in ("north", "south", "new_world") and row.get("climax") is None:
            problems.append((line, "climax", "a biome needs its climax (0 to 15)"))
        other = row.get("other_side")
        if other and other not in lines:
            problems.append((line, "other_side", f"names no row of the deck ({other!r})"))
        by_card.setdefault(row["card"], []).append(row)
    kinds = Counter(rows[0]["type"] for rows in by_card.values())
    for kind, wanted in COMPOSITION.items():
        if kinds.get(kind, 0) != wanted:
            problems.append(
                (
                    None,
                    "type",
                    f"the deck has {kinds.get(kind, 0)} {kind} cards; Greenland has {wanted} (B)",
                )
            )
    daughters = Counter(
        rows[0].get("colour") for rows in by_card.values() if rows[0]["type"] == "daughter"
    )
    for colour, wanted in DAUGHTERS_PER_COLOUR.items():
        if kinds.get("daughter") == 8 and daughters.get(colour, 0) != wanted:
            problems.append(
                (
                    None,
                    "colour",
                    f"{daughters.get(colour, 0)} {colour} daughters; C5 gives {wanted}",
                )
            )
    sides = {row.get("side") for row in deck.cards if row["type"] == "norse_animal"}
    if kinds.get("norse_animal") == 2 and sides != set(NORSE_ANIMALS):
        problems.append(
            (None, "side", f"the Norse animal sides must be {', '.join(NORSE_ANIMALS)}")
        )
    for card, rows in by_card.items():
        if len(rows) > 2:
            problems.append(
                (lines.get(rows[2]["id"]), "card", f"card {card!r} has more than two sides")
            )
    return problems


@dataclass(frozen=True)
class Constants:
    """The rules' numbers, as the module's ``[constants]`` give them (read once a deck)."""

    small_cubes: int  # B4: a culture's small cubes
    alphas: int  # B4, E7: its Alphas
    disks: dict[str, int]  # B4: the supply of each kind of disk
    mariner_load: int  # E1: cubes one mariner carries
    woodpile: int  # B4: the most energy a culture holds

    @classmethod
    def of(cls, module: Any) -> Constants:
        data = getattr(module, "constants", None) or {}
        where = str(Path(getattr(module, "folder", ".")) / "module.toml")

        def count(value: Any, name: str) -> int:
            if type(value) is not int or not 0 <= value <= MAX_PIECES:
                message = f"must be a whole number from 0 to {MAX_PIECES:,}, not {value!r:.40}"
                raise ModuleError([Problem(where, None, f"constants.{name}", message)])
            return value

        disks = data.get("disks")
        if not isinstance(disks, dict):
            message = f"must be a table such as {{ energy = 24 }}, not {disks!r:.40}"
            raise ModuleError([Problem(where, None, "constants.disks", message)])
        return cls(
            count(data.get("small_cubes"), "small_cubes"),
            count(data.get("alphas"), "alphas"),
            {str(k): count(v, f"disks.{k}") for k, v in disks.items()},
            count(data.get("mariner_load"), "mariner_load"),
            count(data.get("woodpile"), "woodpile"),
        )


@dataclass(frozen=True)
class Cards:
    """The deck's rows by row id, with lookups by physical card and by name; the module they
    come from gives the rules' numbers (``constants``) and the variants (``variants``)."""

    rows: dict[str, dict[str, Any]]
    module: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, module: Any, deck_id: str = "greenland") -> Cards:
        return cls({row["id"]: row for row in module.decks[deck_id].cards}, module)

    @cached_property
    def constants(self) -> Constants:
        return Constants.of(self.module)

    @cached_property
    def variants(self) -> dict[str, Variant]:
        """The module's variants (rules_assist/game.py ``Variant``), by id."""
        return variants_of(self.module)

    def physical(self) -> dict[str, list[dict[str, Any]]]:
        """Rows grouped by physical card, in deck order (first side first)."""
        cards: dict[str, list[dict[str, Any]]] = {}
        for row in self.rows.values():
            cards.setdefault(row["card"], []).append(row)
        return cards

    def of_type(self, kind: str) -> list[str]:
        """Physical card ids of one type, in deck order."""
        return [card for card, rows in self.physical().items() if rows[0]["type"] == kind]

    def by_name(self, name: str) -> list[dict[str, Any]]:
        """Rows whose name matches, without regard to case."""
        wanted = name.strip().casefold()
        return [row for row in self.rows.values() if row["name"].casefold() == wanted]

    def row_for(self, state: Any, piece_id: str) -> dict[str, Any] | None:
        piece = state.pieces.get(piece_id)
        if piece is None:
            return None
        return self.rows.get(piece.props.get("card", ""))


def piece_kind(row: dict[str, Any]) -> str:
    """The module's piece kind for a deck row."""
    return {
        "north": "biome",
        "south": "biome",
        "new_world": "new_world",
        "event": "event",
        "elder": "elder",
        "daughter": "daughter",
        "norse_animal": "animal",
    }[row["type"]]


# The values printed on a card. A filled one not named in the row's provenance is a placeholder.
PRINTED_FIELDS = (
    "name",
    "biome_type",
    "climax",
    "dice",
    "attrition",
    "babies",
    "energy",
    "ivory",
    "iron",
    "trophy",
    "vp",
    "hand",
    "hand_dice",
    "raid_faces",
    "value_ivory",
    "value_iron",
    "value_energy",
    "hay",
    "event_icons",
    "import",
    "abilities",
    "colour",
    "homeland",
)


def sourced_fields(row: dict[str, Any]) -> set[str]:
    """The fields whose values the provenance column names a source for."""
    fields = set()
    for part in (row.get("provenance") or "").split(";"):
        key = part.partition("=")[0].strip()
        if key:
            fields.add(key)
    return fields


def placeholder_fields(row: dict[str, Any]) -> set[str]:
    """The printed values of a row that are invented placeholders (filled, with no source)."""
    sourced = sourced_fields(row)
    # the empty values compared one by one: ``in (None, "", [])`` makes a list every time
    return {
        key
        for key in PRINTED_FIELDS
        if key not in sourced
        and (value := row.get(key)) is not None
        and value != ""
        and value != []
    }


def mark_placeholder(
    row: dict[str, Any], column: str, placeholder: bool, source: str
) -> dict[str, str]:
    """The provenance cell that makes a printed value a placeholder again (its source
    dropped) or a sourced value (``column=source`` added); {} for a column that is not printed."""
    if column not in PRINTED_FIELDS:
        return {}
    parts = [p.strip() for p in (row.get("provenance") or "").split(";") if p.strip()]
    kept = [p for p in parts if p.partition("=")[0].strip() != column]
    if not placeholder:
        named = source.replace(";", ",").strip() or "entered"
        existing = [p for p in parts if p.partition("=")[0].strip() == column]
        kept = parts if existing else [*parts, f"{column}={named}"]
    return {"provenance": "; ".join(kept)}


# The words a card's list columns take (README "Abilities vocabulary", "Event icons"):
# (the word with its parameters in capitals, what it means).
VOCABULARY: dict[str, tuple[tuple[str, str], ...]] = {
    "abilities": (
        ("reroll F TYPE", "re-roll dice showing F when TYPE (G2, F2)"),
        ("modify A->B TYPE", "dice showing A count as B when TYPE (G3)"),
        ("hand_size +N", "hand size +N (B2)"),
        ("hand_size +N D", "hand size +N for D cards only (B2)"),
        ("sled", "one card outside the homeland without a mariner (E1)"),
        ("no_raid", "cannot be livestock raided (E5)"),
        ("hunt_first TYPE", "hunts first on cards of TYPE (A4)"),
        ("wins_auction_ties", "wins tied auctions (D10)"),
        ("snowflake -N", "snowflake losses reduced by N (D3)"),
        ("free_promotion", "promotion to elder costs no energy"),
        ("reassign N", "reassign N hunters after everyone has assigned (E6)"),
        ("falcon_value N", "gyrfalcons are worth N ivory this turn (B3)"),
        ("snowflake_on_success N", "a successful hunt costs a snowflake event of N (G4)"),
    ),
    "event_icons": (
        ("first:COLOUR/COLOUR", "the first player, and who goes first if that colour is out (A2)"),
        ("migration:north", "northern migration (D1)"),
        ("migration:south", "southern migration (D1)"),
        ("decimate:crowd:N", "crowding decimation above N (D2)"),
        ("decimate:venereal:COLOUR", "venereal decimation of a colour (D2)"),
        ("decimate:feud", "feud decimation (D2)"),
        ("snowflake:N", "a snowflake event of N (D3)"),
        ("snowflake:per_d", "a snowflake for each D card (D3)"),
        ("cooling", "global cooling (D4)"),
        ("die_off", "elder die-off (D5)"),
        ("breakage", "iron import breakage (D6)"),
        ("no_maritime", "no maritime hunts (D7)"),
        ("storm", "storm (D8)"),
        ("no_markland", "no Markland (D9)"),
        ("auction", "an import auction (D10)"),
    ),
}


def vocabulary(column: str) -> tuple[tuple[str, str], ...]:
    """The words a column takes beyond the manifest's declared choices (TYPE is one of
    land, maritime, fishing, metallurgy, raid, attack, any)."""
    return VOCABULARY.get(column, ())


def placeholder_count(row: dict[str, Any]) -> int:
    """How many printed values of a row are invented placeholders (filled, with no source)."""
    return len(placeholder_fields(row))
