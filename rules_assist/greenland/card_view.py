"""How a Greenland card's face shows its deck row: display roles for the table's card artwork. No Qt.

``card_view(row)`` takes one row of the deck (typed by the manifest, or the raw
CSV strings: both are read) and returns a dict of roles; the window
(tabletop/ui/card_layouts.py) draws them, with each icon from
``resources/greenland/icons/<name>.svg``:

``title``, ``subtitle``
    the card's name, and a line such as 'North biome · maritime', 'Event',
    'Thule daughter', 'New World · hostile side'.
``kind``
    the row's ``type`` (north, south, new_world, event, elder, daughter, norse_animal).
``band_colour``
    '#rrggbb' of the title band.
``corner_icon``, ``corner_number``, ``corner_colour``
    the biome-type icon (caribou, kayak, fish, hammer, archer) drawn top right
    in the homeland's colour with the climax inside: north '#3c9a5f', south
    '#c0392b', none '#f4f1e8'. On an event: the 'first' marker (top left) in
    the first player's colour, with ``corner_second_colour`` for the player
    who goes first when that colour is not in play. None when the card has none.
``corner_letter``
    a letter in the corner instead (the purple D of a Norse animal), in ``corner_colour``.
``icon_rows``, ``row_captions``
    rows of entries, each row with a short caption ('hunt', 'loss', ...). An
    entry is an icon name or a dict: ``icon`` (a name), ``count`` (drawn as that
    many icons, or one and '×N'), ``label`` (small text; ``label_at`` 'centre'
    puts it on the icon, as a die's face; ``label_colour`` fills its pill),
    ``overlay`` and ``overlay_colour`` (a small second icon tinted, as the ♀
    on a venereal decimation),
    ``caption`` (a word under a large event icon); or ``text`` (a word or
    letter, in ``colour``); or ``vp`` (points, in a star).
    Biomes: hunt (the hits needed as that many warm dice and as many cold
    dice, and ∞ on Markland and Vinland), loss (a shark-bite die per face that
    kills, the face on it), yield (babies, energy, ivory, iron), trophy
    (antler, blank dice for doubles/triples/quadruples, the VP), hand (the
    hand, D or I, the blank dice), value (the value disk and what it is worth),
    hay (snowflakes), raid (the faces that succeed), sled.
    Events: one row of their icons left to right, each with a caption.
``text``
    the abilities in plain words, one a line ('' when none).
``upside_down``
    for an event with an import: ``{'title', 'icons', 'text'}``, drawn turned
    180° at the bottom of the card (it reads upright in a tableau); else None.
``regions``
    the drawn spots the table lays cubes on: an elder's six ranks
    (``{'name': 'rank1', 'label': 'Chief', 'number': 1, 'note': ...}``) and a
    daughter's 'exogamy' and 'hunters'. Empty on other cards.
``badge``
    the trophy VP ('' when none).
``back_key``, ``back_label``, ``back_colour``
    what the back shows: the deck a card comes from (North Greenland, South
    Greenland, Event, Elder, Daughter, New World, Norse animal); ``card_back(row)``
    gives these three alone.
``placeholders``
    how many printed values are invented (``placeholder_count``).

``icon_names(view)`` lists every icon a view names; ``ICONS`` every icon the
views use (each is a file in the icons folder).
"""

from __future__ import annotations

from typing import Any

from .deck import PRINTED_FIELDS, placeholder_count

__all__ = [
    "ICONS",
    "PRINTED_FIELDS",
    "ability_text",
    "card_back",
    "card_view",
    "icon_names",
    "placeholder_count",
]

BIOME_ICONS = {
    "land": "caribou",
    "maritime": "kayak",
    "fishing": "fish",
    "metallurgy": "hammer",
    "raid": "archer",
}
HOMELAND_COLOURS = {"north": "#3c9a5f", "south": "#c0392b", "none": "#f4f1e8"}
PLAYER_COLOURS = {"red": "#c0392b", "yellow": "#e0b422", "green": "#2e8b57"}
CULTURES = {"red": "Norse", "yellow": "Thule", "green": "Tunit"}
BANDS = {
    "north": "#2c6a87",
    "south": "#9a3b2b",
    "new_world": "#3d7a48",
    "event": "#5e3b8c",
    "norse_animal": "#8a5a2b",
}
CULTURE_BANDS = {"red": "#a63a2c", "yellow": "#b58a12", "green": "#2f7a4f"}
BACKS = {
    "north": ("North Greenland", "#1f4d63"),
    "south": ("South Greenland", "#5e2219"),
    "event": ("Event", "#3a2360"),
    "elder": ("Elder", "#4a3518"),
    "daughter": ("Daughter", "#5a2346"),
    "new_world": ("New World", "#1e4d2b"),
    "norse_animal": ("Norse animal", "#5a3818"),
}
DICE_OF = {"doubles": 2, "triples": 3, "quadruples": 4}
HAND_COLOUR = "#7d3c98"  # the purple D and I
ACTIVITIES = {
    "land": "land hunting",
    "maritime": "maritime hunting",
    "fishing": "fishing",
    "metallurgy": "in metallurgy",
    "raid": "raiding",
    "attack": "attacking",
    "any": "on any roll",
}
RANKS = {  # rank: (name, what the rank does)
    1: ("Chief", "promotes; no feuds"),
    2: ("Shaman", "domesticates, banishes"),
    3: ("Blacksmith", "makes tools; hand +1"),
    4: ("War chief", "attacks, raids"),
    5: ("Tracker", "tracks game"),
    6: ("Mariner", "sails to the New World"),
}
MONOTHEIST_RANKS = {
    2: ("Bishop", "witch-burns, converts"),
    5: ("Acolyte", "goes as emissary"),
}
RANK_THREE = {"yellow": "Sage", "green": "Artisan"}  # B2 names the Thule and Tunit rank 3
EVENT_ICONS = {
    "cooling": ("sunspot", "cooling"),
    "die_off": ("helmet", "die-off"),
    "breakage": ("breakage", "breakage"),
    "no_maritime": ("no_kayak", "no kayaks"),
    "storm": ("lightning", "storm"),
    "no_markland": ("no_lumberjack", "no Markland"),
    "auction": ("ship", "auction"),
}
ICONS = (
    *BIOME_ICONS.values(),
    "die_warm",
    "die_cold",
    "die_blank",
    "bite",
    "baby",
    "energy",
    "ivory",
    "iron",
    "antler",
    "hand",
    "value",
    "sled",
    "infinity",
    "pawprint",
    "ulu",
    "snowflake",
    *(icon for icon, _ in EVENT_ICONS.values()),
    "first",
    "female",
)


def card_view(row: dict[str, Any]) -> dict[str, Any]:
    """The display roles of one deck row (see the module's docstring)."""
    kind = _text(row.get("type"))
    back_key, back_label, back_colour = card_back(row)
    view: dict[str, Any] = {
        "title": _text(row.get("name")) or _text(row.get("id")),
        "subtitle": "",
        "kind": kind,
        "band_colour": BANDS.get(kind, "#4a5a6a"),
        "corner_icon": None,
        "corner_number": None,
        "corner_colour": None,
        "corner_second_colour": None,
        "corner_letter": None,
        "icon_rows": [],
        "row_captions": [],
        "text": "",
        "upside_down": None,
        "regions": [],
        "badge": "",
        "back_key": back_key,
        "back_label": back_label,
        "back_colour": back_colour,
        "placeholders": placeholder_count(row),
    }
    if kind == "event":
        _event(row, view)
    elif kind == "elder":
        _elder(row, view)
    elif kind == "daughter":
        _daughter(row, view)
    else:
        _biome(row, view, kind)
    return view


def card_back(row: dict[str, Any]) -> tuple[str, str, str]:
    """(key, label, colour) of the back a row's card shows: its deck (the ``back_key``,
    ``back_label`` and ``back_colour`` of its view), without the rest of the view."""
    kind = _text(row.get("type"))
    label, colour = BACKS.get(kind, ("Greenland", "#2b3048"))
    return kind or "card", label, colour


def icon_names(view: dict[str, Any]) -> set[str]:
    """Every icon a view names (corner, rows, overlays, the upside-down import)."""
    names = {view["corner_icon"]} if view.get("corner_icon") else set()
    rows = list(view.get("icon_rows") or [])
    if view.get("upside_down"):
        rows.append(view["upside_down"].get("icons") or [])
    for row in rows:
        for entry in row:
            if isinstance(entry, str):
                names.add(entry)
            else:
                names.update(entry[key] for key in ("icon", "overlay") if entry.get(key))
    return names


# ----- card types -----


def _biome(row: dict[str, Any], view: dict[str, Any], kind: str) -> None:
    biome = _text(row.get("biome_type"))
    homeland = _text(row.get("homeland")) or "none"
    if kind in ("north", "south"):
        view["subtitle"] = f"{kind.capitalize()} biome" + (f" · {biome}" if biome else "")
    elif kind == "new_world":
        side = _text(row.get("side"))
        view["subtitle"] = "New World" + (f" · {side} side" if side else "")
        if side == "hostile":
            view["band_colour"] = "#6e4a2c"
    elif kind == "norse_animal":
        view["subtitle"] = "Norse domestic animal"
    if biome in BIOME_ICONS:
        view["corner_icon"] = BIOME_ICONS[biome]
        view["corner_number"] = _int(row.get("climax"))
        view["corner_colour"] = HOMELAND_COLOURS.get(homeland, HOMELAND_COLOURS["none"])

    dice = _int(row.get("dice"))
    if dice:
        hunt: list[Any] = [
            {"icon": "die_warm", "count": dice},
            {"text": "/", "colour": "#8a8174"},
            {"icon": "die_cold", "count": dice},
        ]
        if _bool(row.get("infinite")):
            hunt.append({"icon": "infinity"})
        _add(view, "hunt", hunt)
    bites = [
        {"icon": "bite", "label": str(f), "label_at": "centre"} for f in _ints(row, "attrition")
    ]
    _add(view, "loss", bites)
    yields = [
        {"icon": icon, "count": n}
        for icon, column in (
            ("baby", "babies"),
            ("energy", "energy"),
            ("ivory", "ivory"),
            ("iron", "iron"),
        )
        if (n := _int(row.get(column)))
    ]
    _add(view, "milk" if kind == "norse_animal" else "yield", yields)
    trophy = DICE_OF.get(_text(row.get("trophy")))
    vp = _int(row.get("vp"))
    if trophy:
        entries: list[Any] = [{"icon": "antler"}, {"icon": "die_blank", "count": trophy}]
        if vp:
            entries.append({"vp": vp})
        _add(view, "trophy", entries)
    elif vp:
        _add(view, "points", [{"vp": vp}])
    if vp:
        view["badge"] = str(vp)
    hand = _text(row.get("hand"))
    if hand:
        letter = {"text": hand, "colour": HAND_COLOUR}
        needed = _text(row.get("hand_dice"))
        if kind == "norse_animal" and not needed:
            view["corner_letter"] = hand
            view["corner_colour"] = HAND_COLOUR
        else:
            entries = [{"icon": "hand"}, letter]
            if needed in DICE_OF:
                entries.append({"icon": "die_blank", "count": DICE_OF[needed]})
            elif needed == "success":
                entries.append({"text": "on a success", "colour": "#6b6257"})
            _add(view, "hand", entries)
    _add(view, "value", _values(row))
    hay = _int(row.get("hay"))
    if hay:
        _add(view, "hay", [{"icon": "snowflake", "count": hay}])
    _add(view, "raid", _raid(row))
    abilities = _list(row.get("abilities"))
    if "sled" in abilities:
        _add(view, "sled", [{"icon": "sled"}])
    view["text"] = "\n".join(ability_text(a) for a in abilities)


def _event(row: dict[str, Any], view: dict[str, Any]) -> None:
    view["subtitle"] = "Event"
    entries: list[Any] = []
    for code in _list(row.get("event_icons")):
        head, _, rest = code.partition(":")
        if head == "first":
            first, _, second = rest.partition("/")
            view["corner_icon"] = "first"
            view["corner_colour"] = PLAYER_COLOURS.get(first, "#f4f1e8")
            view["corner_second_colour"] = PLAYER_COLOURS.get(second) if second else None
        elif head == "migration":
            letter = "N" if rest == "north" else "S"
            entries.append({"icon": "pawprint", "label": letter, "caption": "migration"})
        elif head == "decimate":
            cause, _, detail = rest.partition(":")
            if cause == "crowd":
                entries.append({"icon": "ulu", "label": f"{detail}+", "caption": "crowding"})
            elif cause == "venereal":
                colour = PLAYER_COLOURS.get(detail, "#8e44ad")
                entries.append(
                    {
                        "icon": "ulu",
                        "overlay": "female",
                        "overlay_colour": colour,
                        "label": detail,
                        "label_colour": colour,
                        "caption": "venereal",
                    }
                )
            else:
                entries.append({"icon": "ulu", "label": cause, "caption": "no chief"})
        elif head == "snowflake":
            label = "D" if rest == "per_d" else rest
            caption = "per D card" if rest == "per_d" else f"lose {rest}"
            entries.append({"icon": "snowflake", "label": label, "caption": caption})
        elif head in EVENT_ICONS:
            icon, caption = EVENT_ICONS[head]
            entries.append({"icon": icon, "caption": caption})
    _add(view, "events", entries)
    texts = [ability_text(a) for a in _list(row.get("abilities"))]
    imported = _text(row.get("import"))
    if imported:
        view["upside_down"] = {"title": imported, "icons": _values(row), "text": "\n".join(texts)}
    else:
        view["text"] = "\n".join(texts)


def _elder(row: dict[str, Any], view: dict[str, Any]) -> None:
    colour = _text(row.get("colour"))
    side = _text(row.get("side"))
    culture = CULTURES.get(colour, "")
    view["subtitle"] = " · ".join(
        t for t in (f"{culture} elders", f"{side} side" if side else "") if t
    )
    view["band_colour"] = CULTURE_BANDS.get(colour, view["band_colour"])
    for rank in range(1, 7):
        name, note = RANKS[rank]
        if side == "monotheist" and rank in MONOTHEIST_RANKS:
            name, note = MONOTHEIST_RANKS[rank]
        elif rank == 3 and colour in RANK_THREE:
            name = RANK_THREE[colour]
        view["regions"].append({"name": f"rank{rank}", "number": rank, "label": name, "note": note})


def _daughter(row: dict[str, Any], view: dict[str, Any]) -> None:
    colour = _text(row.get("colour"))
    view["subtitle"] = f"{CULTURES.get(colour, '')} daughter".strip()
    view["band_colour"] = CULTURE_BANDS.get(colour, view["band_colour"])
    view["text"] = "\n".join(ability_text(a) for a in _list(row.get("abilities")))
    view["regions"] = [
        {"name": "exogamy", "label": "Exogamy", "note": "a husband from another tribe"},
        {"name": "hunters", "label": "Sabine raid", "note": ""},
    ]
    _add(view, "raid", _raid(row))


# ----- parts -----


def ability_text(ability: str) -> str:
    """One ability of the vocabulary in plain words (our own short phrases)."""
    words = ability.split()
    if not words:
        return ""
    head, args = words[0], words[1:]
    what = ACTIVITIES.get(args[-1], args[-1]) if args else ""
    if head == "reroll" and len(args) == 2:
        return f"Re-roll {args[0]}s when {what}"
    if head == "modify" and len(args) == 2 and "->" in args[0]:
        a, b = args[0].split("->", 1)
        return f"{a}s count as {b}s when {what}"
    if head == "hand_size" and args:
        return f"Hand size {args[0]}" + (" (D cards only)" if args[1:] == ["D"] else "")
    if head == "hunt_first" and args:
        return f"Hunts first when {what}"
    if head == "snowflake" and args:
        return f"Snowflake losses {args[0].replace('-', '−')}"
    if head == "reassign" and args:
        return f"Reassign {args[0]} hunters after all have assigned"
    if head == "falcon_value" and args:
        return f"Gyrfalcons are worth {args[0]} ivory this turn"
    if head == "snowflake_on_success" and args:
        return f"A successful hunt costs a snowflake of {args[0]}"
    fixed = {
        "sled": "Sled: one card outside the homeland without a mariner",
        "no_raid": "NO RAID: cannot be livestock raided",
        "wins_auction_ties": "Wins tied auctions",
        "free_promotion": "Promotes hunters to elders at no cost",
    }
    return fixed.get(ability, ability.replace("_", " "))


def _values(row: dict[str, Any]) -> list[Any]:
    worth = [
        {"icon": icon, "count": n}
        for icon in ("ivory", "iron", "energy")
        if (n := _int(row.get(f"value_{icon}")))
    ]
    return [{"icon": "value"}, *worth] if worth else []


def _raid(row: dict[str, Any]) -> list[Any]:
    faces = _ints(row, "raid_faces")
    dice = [{"icon": "die_blank", "label": str(f), "label_at": "centre"} for f in faces]
    return [{"icon": "archer"}, *dice] if dice else []


def _add(view: dict[str, Any], caption: str, entries: list[Any]) -> None:
    if entries:
        view["icon_rows"].append(entries)
        view["row_captions"].append(caption)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else "" if value is None else str(value)


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"yes", "true", "1", "y", "x"}
    return bool(value)


def _list(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in _text(value).split(";") if part.strip()]


def _ints(row: dict[str, Any], column: str) -> list[int]:
    value = row.get(column)
    parts = value if isinstance(value, list | tuple) else _list(value)
    return [n for part in parts if (n := _int(part)) is not None]
