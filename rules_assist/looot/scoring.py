"""Looot's score (LO-R21..R23, DE:52): tiles by type at (base + completed longships' bonuses),
completed sites, the trophy, minus the longships not completed; ties go to the higher trophy."""

from __future__ import annotations

from typing import Any

from .layout import BUILDINGS, RESOURCES, SITE_TYPES
from .reading import Looot, fjord, shields


def breakdown(lo: Looot, seat: str) -> dict[str, Any]:
    """The seat's score by category (``resources``, ``buildings``, ``sites``, ``trophy``,
    ``longshipPenalty``), with each tile type's count, value and points, the sites, the
    longships and the ``total``."""
    pieces = lo.state.pieces
    counts = lo.tiles(seat)
    bonus: dict[str, int] = {}
    done, open_ = [], []
    for pid in lo.longships(seat):
        props = pieces[pid].props
        if lo.complete(pid):
            done.append(int(props["longship"]))
            bonus[props["type"]] = bonus.get(props["type"], 0) + int(props["bonus"])
        else:
            open_.append(int(props["longship"]))
    tiles = {}
    for tile in RESOURCES + BUILDINGS:
        value = lo.data.tiles[tile].base + bonus.get(tile, 0)
        tiles[tile] = {"count": counts[tile], "value": value, "points": value * counts[tile]}
    sites = {}
    for pid in lo.sites(seat):
        piece = pieces[pid]
        complete = lo.complete(pid)
        sites[piece.props["type"]] = {
            "site": piece.props["site"],
            "completed": complete,
            "points": int(piece.props["value"]) if complete else 0,
        }
    axes = lo.trophy_of(seat)
    trophy = None if axes is None else {"trophy": axes, "points": lo.data.trophies[axes]}
    penalty = -int(lo.number("longship_penalty")) * len(open_)
    categories = {
        "resources": sum(tiles[t]["points"] for t in RESOURCES),
        "buildings": sum(tiles[t]["points"] for t in BUILDINGS),
        "sites": sum(sites[t]["points"] for t in SITE_TYPES if t in sites),
        "trophy": trophy["points"] if trophy else 0,
        "longshipPenalty": penalty,
    }
    return {
        "seat": seat,
        "total": sum(categories.values()),
        "tieBreaker": trophy["points"] if trophy else 0,
        "tiles": tiles,
        "sites": sites,
        "trophy": trophy,
        "longships": {"completed": sorted(done), "incomplete": sorted(open_), "penalty": penalty},
        "categories": categories,
    }


def total(lo: Looot, seat: str) -> int:
    """The seat's total as ``breakdown`` gives it, kept in the layout memo under what it reads
    (the seat's fjord and shield board, the variant): a tile laid elsewhere leaves it standing."""
    state = lo.state
    key = (
        "looot.total",
        seat,
        tuple(state.place(fjord(seat)).contents),
        tuple(state.place(shields(seat)).contents),
        state.counters.get("variant"),
    )
    memo = state.layout_memo()
    found = memo.get(key)
    if found is None:
        found = memo[key] = breakdown(lo, seat)["total"]
    return found


def winners(lo: Looot) -> list[str]:
    """LO-R23 (DE:52): the highest total; between equal totals the higher trophy; equal
    without trophies share the win."""
    rows = {seat: breakdown(lo, seat) for seat in lo.seats}
    best = max((r["total"], r["tieBreaker"]) for r in rows.values())
    return [s for s, r in rows.items() if (r["total"], r["tieBreaker"]) == best]
