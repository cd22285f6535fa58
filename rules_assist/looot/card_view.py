"""How Looot's pieces look and are named: the display roles of each token
(tabletop/ui/token_art.py draws them, each icon from ``resources/looot/icons/<name>.svg``),
and the words a player uses for tiles, terrain, shields and longships in log lines. No Qt.

``token_view(piece)`` takes what the viewer may see of a piece (``kind``, ``face_up``, and
``value`` and ``props`` only when its face may be seen) and returns:
- a tile (wood, sheep, gold, axe, house, watchtower, castle): a hexagon in its colour with
  its picture;
- a shield face up: a round shield in the owner's colour with its power's picture (two
  Vikings: PlayAgain; a plus and gold: DoubleGain; a Viking on a Viking:
  PlaceOnOccupiedSpace); face down (used, LO-R15): washed out and struck through;
- a longship: the type it improves as its picture, ``+bonus`` in the corner and its three
  resource tiles along the bottom; completed (LO-R12): its type and bonus on a light deck;
  face down in the bag: the plain back;
- a construction site: its name, its value in the corner and the tiles it needs; completed
  (LO-R11): its name and value on gold;
- a trophy: the cup, the axes it needs ('4 axes') and its points in the corner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .layout import BUILDINGS, RESOURCES, load_data

TILE_COLOURS = {
    "wood": "#3c6e2f",
    "sheep": "#a8d08d",
    "gold": "#d4a017",
    "axe": "#9b4a3c",
    "house": "#c9a26b",
    "watchtower": "#8e8e8e",
    "castle": "#5d4e75",
}
SHIELD_ICONS = {
    "PlayAgain": "shield_again",
    "DoubleGain": "shield_double",
    "PlaceOnOccupiedSpace": "shield_occupied",
}
SHIELD_NAMES = {
    "PlayAgain": "Play again",
    "DoubleGain": "Double gain",
    "PlaceOnOccupiedSpace": "Place on an occupied hex",
}
TERRAIN_NAMES = {
    "wood": "forest",
    "sheep": "pasture",
    "gold": "gold mine",
    "axe": "battlefield",
    "house": "house",
    "watchtower": "watchtower",
    "castle": "castle",
    "water": "sea",
    "trophy": "trophy",
}
SITE_NAMES = {"port": "Port", "altar": "Altar", "palace": "Jarl's palace"}
SITE_SHORT = {"port": "Port", "altar": "Altar", "palace": "Palace"}
LONGSHIP_DECK = "#6b4226"
LONGSHIP_DONE = "#d9c7a3"
SITE_COLOURS = {"port": "#2b6ca3", "altar": "#8e44ad", "palace": "#b8892b"}
SITE_DONE = "#e8c547"

ICONS = (
    *TILE_COLOURS,
    *SHIELD_ICONS.values(),
    "longship",
    "trophy",
    "water",
    "viking",
)


def token_view(piece: Mapping[str, Any]) -> dict[str, Any] | None:
    """The display roles of one Looot token as its viewer sees it (module docstring)."""
    kind = str(piece.get("kind", ""))
    props = piece.get("props") or {}
    seen = "props" in piece
    if kind in TILE_COLOURS:
        return {"outline": "hex", "colour": TILE_COLOURS[kind], "icon": kind}
    if kind == "shield":
        if not seen or not piece.get("face_up", True):
            return {"outline": "round", "dim": True}
        return {"outline": "round", "icon": SHIELD_ICONS.get(str(piece.get("value")), "")}
    if kind == "longship":
        if not seen:
            return {"colour": LONGSHIP_DECK, "icon": "longship"}
        bonus = f"+{props.get('bonus')}" if props.get("bonus") is not None else None
        ship_type = str(props.get("type", ""))
        if props.get("complete"):
            return {"colour": LONGSHIP_DONE, "icon": ship_type, "number": bonus}
        return {
            "colour": LONGSHIP_DECK,
            "icon": ship_type,
            "number": bonus,
            "icons": [str(n) for n in props.get("needs") or []],
            "number_colour": "#f4f1e8",
        }
    if kind == "site":
        site_type = str(props.get("type", ""))
        value = props.get("value")
        if props.get("complete"):
            return {
                "outline": "hex",
                "colour": SITE_DONE,
                "title": SITE_SHORT.get(site_type, site_type),
                "icon": "trophy",
                "number": value,
            }
        return {
            "outline": "hex",
            "colour": SITE_COLOURS.get(site_type, "#b9770e"),
            "title": SITE_SHORT.get(site_type, site_type),
            "number": value,
            "icons": [str(n) for n in site_needs(str(props.get("site", "")))],
        }
    if kind == "trophy":
        axes = int(props.get("axes", 0) or 0)
        return {
            "outline": "hex",
            "colour": "#f5d76e",
            "icon": "trophy",
            "number": props.get("points"),
            "caption": f"{axes} axes",
        }
    return None


def site_needs(site: str) -> tuple[str, ...]:
    """The tiles a construction site needs (its deck row), () for an unknown name."""
    found = load_data().sites.get(site)
    return tuple(found.needs) if found else ()


# ---- words for log lines -------------------------------------------------------------------
def tile_word(kind: str) -> str:
    """A tile in a player's words: 'a wood tile', 'a watchtower'."""
    if kind in BUILDINGS:
        return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    if kind in RESOURCES:
        return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} tile"
    return kind


def tiles_words(kinds: list[str]) -> str:
    """Tiles counted out: '2 sheep, a house'."""
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = [tile_word(k) if n == 1 else f"{n} {k}" for k, n in counts.items()]
    return ", ".join(parts) if parts else "nothing"


def terrain_word(terrain: str) -> str:
    return TERRAIN_NAMES.get(terrain, terrain)


def shield_word(name: str) -> str:
    return SHIELD_NAMES.get(name, name)


def longship_word(props: Mapping[str, Any]) -> str:
    """A longship in a player's words: 'the wood longship +1 (axe, axe, wood)'."""
    needs = ", ".join(str(n) for n in props.get("needs") or [])
    return f"the {props.get('type')} longship +{props.get('bonus')} ({needs})"


def site_word(props: Mapping[str, Any]) -> str:
    """A construction site in a player's words: "the Jarl's palace (9 points)"."""
    name = SITE_NAMES.get(str(props.get("type", "")), str(props.get("site", "site")))
    return f"the {name} ({props.get('value')} points)"
