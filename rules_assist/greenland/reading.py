"""The physical table read as Greenland: rows, events, and each culture's cubes, cards and disks.

A pure function of the table state (no Qt): the rules assistant, ``tabletop
inspect`` and positions all speak these terms. The shape is documented in
resources/greenland/README.md.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import TableState

from .deck import Cards

ROWS = ("north", "south")


def read(state: TableState, cards: Cards) -> dict[str, Any]:
    """The table in Greenland's terms."""
    counters = state.counters

    def name(pid: str) -> str:
        row = cards.row_for(state, pid)
        return row["name"] if row else pid

    def card_info(pid: str) -> dict[str, Any]:
        row = cards.row_for(state, pid) or {}
        return {
            "name": row.get("name", pid),
            "climax": row.get("climax"),
            "side": row.get("side") if row.get("type") == "new_world" else None,
        }

    rows = {}
    for row in ROWS:
        rows[row] = {
            "deck": len(state.places[f"{row}_deck"].contents),
            "warm": [card_info(pid) for pid in state.places[f"{row}_warm"].contents],
            "cold": [card_info(pid) for pid in state.places[f"{row}_cold"].contents],
        }
    current = state.places["event_current"].contents
    events = {
        "deck": len(state.places["event_deck"].contents),
        "current": name(current[-1]) if current else None,
        "out": len(state.places["events_out"].contents),
    }
    cultures = {seat.id: _culture(state, cards, seat.id, name) for seat in state.seats}
    return {
        "variant": counters.get("variant", ""),
        "deck": {
            "name": counters.get("deck.name"),
            "sha256": counters.get("deck.sha256"),
            "placeholders": counters.get("deck.placeholders"),
        },
        "turn": counters.get("turn"),
        "phase": counters.get("phase"),
        "first_player": counters.get("first_player"),
        "events": events,
        "rows": rows,
        "cultures": cultures,
    }


def _culture(state: TableState, cards: Cards, colour: str, name) -> dict[str, Any]:  # noqa: ANN001
    pieces = state.pieces
    elder = pieces.get(f"elder-{colour}")
    elder_row = cards.row_for(state, f"elder-{colour}") or {}
    mine = [p for p in pieces.values() if p.owner == colour and p.kind in ("cube", "alpha")]
    result: dict[str, Any] = {
        "religion": elder_row.get("side", "polytheist") if elder is not None else None,
        "unassigned": 0,
        "alpha": None,
        "elders": {str(rank): 0 for rank in range(1, 7)},
        "missionaries": {},
        "colonists": {"Markland": 0, "Vinland": 0},
        "husbands": {},
        "hunters": {},
        "valhalla": 0,
    }
    for cube in mine:
        place = state.places[cube.place]
        where = _where(state, cards, cube.place, cube.spot, colour)
        kind, detail = where
        if kind == "unassigned":
            result["unassigned"] += 1
        elif kind == "valhalla":
            result["valhalla"] += 1
        elif kind == "elder":
            result["elders"][detail] += 1
        elif kind == "missionary":
            result["missionaries"][detail] = result["missionaries"].get(detail, 0) + 1
        elif kind == "colonist":
            result["colonists"][detail] = result["colonists"].get(detail, 0) + 1
        elif kind == "husband":
            result["husbands"][detail] = result["husbands"].get(detail, 0) + 1
        elif kind == "hunter":
            result["hunters"][detail] = result["hunters"].get(detail, 0) + 1
        if cube.kind == "alpha":
            result["alpha"] = {"unassigned": "unassigned", "valhalla": "valhalla"}.get(kind) or (
                name(place.parent) if place.parent else place.label or place.id
            )
    for disk in ("energy", "ivory", "iron"):
        bowl = state.places.get(f"{disk}_{colour}")
        result[disk] = len(bowl.contents) if bowl else 0
    tableau = state.places.get(f"tableau_{colour}")
    trophies = state.places.get(f"trophies_{colour}")
    hand = state.places.get(f"hand_{colour}")
    result["tableau"] = [name(pid) for pid in tableau.contents] if tableau else []
    result["trophies"] = [name(pid) for pid in trophies.contents] if trophies else []
    result["hand"] = len(hand.contents) if hand else 0
    return result


def _where(
    state: TableState, cards: Cards, place_id: str, spot: str | None, colour: str
) -> tuple[str, str]:
    """What a cube of ``colour`` is, from where it lies (B: elder, colonist, husband or hunter)."""
    if place_id == f"hunters_{colour}":
        return "unassigned", ""
    if place_id.startswith("valhalla_"):
        return "valhalla", ""
    place = state.places[place_id]
    if place.parent is None:
        return "elsewhere", place_id
    row = cards.row_for(state, place.parent) or {}
    kind = row.get("type")
    if kind == "elder":
        owner = row.get("colour")
        rank = (spot or "rank0").removeprefix("rank")
        return ("elder", rank) if owner == colour else ("missionary", owner or "")
    if kind == "new_world":
        return "colonist", row.get("name", place.parent)
    if kind == "daughter" and spot == "exogamy":
        return "husband", row.get("name", place.parent)
    return "hunter", row.get("name", place.parent)


def summary(state: TableState, module: Any) -> dict[str, Any]:
    """``tabletop inspect``'s Greenland part (the module's summary hook)."""
    data = read(state, Cards.of(module))
    return {"module": module.id, **data}
