"""Reading a table for people: what lies where (``tabletop inspect``) and the log as lines (``tabletop log``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.core import Entry, Names, Piece, Table, TableState, actor_label
from tabletop.core.commands import PLAIN
from tabletop.visibility import REFEREE, can_see

HIDDEN = "(hidden)"


def piece_summary(state: TableState, piece: Piece, seat: str | None = None) -> dict[str, Any]:
    """A piece as plain data; ``seat`` None is the referee's view (everything)."""
    if not can_see(state, piece, REFEREE if seat is None else seat):
        return {"id": HIDDEN, "kind": piece.kind, "face_up": False}
    d: dict[str, Any] = {"id": piece.id, "kind": piece.kind}
    if piece.owner is not None:
        d["owner"] = piece.owner
    if not piece.face_up:
        d["face_up"] = False
    if piece.rotation:
        d["rotation"] = piece.rotation * 90
    if piece.value is not None:
        d["value"] = piece.value
    if piece.spot is not None:
        d["spot"] = piece.spot
    if piece.x is not None:
        d["x"], d["y"] = piece.x, piece.y
    card = piece.props.get("card")
    if card is not None and card != piece.id:
        d["card"] = card
    return d


def inspect_state(state: TableState, seat: str | None = None) -> dict[str, Any]:
    """Every place and what lies in it, as plain data (for --json)."""
    places = {}
    for place in state.places.values():
        entry: dict[str, Any] = {
            "kind": place.kind,
            "label": place.label or place.id,
            "count": len(place.contents),
        }
        if place.owner:
            entry["owner"] = place.owner
        if place.parent:
            entry["carried_by"] = place.parent
        entry["pieces"] = [piece_summary(state, state.pieces[pid], seat) for pid in place.contents]
        places[place.id] = entry
    return {
        "seats": [s.to_dict() for s in state.seats],
        "counters": dict(state.counters),
        "pieces": len(state.pieces),
        "places": places,
    }


def _piece_text(p: dict[str, Any]) -> str:
    text = p["id"]
    extras = []
    if "value" in p:
        extras.append(f"shows {p['value']}")
    if p.get("face_up") is False and p["id"] != HIDDEN:
        extras.append("face down")
    if "rotation" in p:
        extras.append(f"turned {p['rotation']}°")
    if extras:
        text += f" ({', '.join(extras)})"
    return text


def inspect_text(state: TableState, seat: str | None = None, width: int = 100) -> list[str]:
    """Every place and what lies in it, as lines of text."""
    data = inspect_state(state, seat)
    lines = []
    if state.seats:
        lines.append(
            "Seats: "
            + ", ".join(f"{s.name} ({s.id})" if s.name != s.id else s.id for s in state.seats)
        )
    if state.counters:
        lines.append(
            "Counters: " + ", ".join(f"{k} = {v}" for k, v in sorted(state.counters.items()))
        )
    lines.append(f"{data['pieces']} pieces in {len(data['places'])} places")
    for pid, place in data["places"].items():
        label = place["label"] if place["label"] == pid else f"{place['label']} [{pid}]"
        head = f"{label}, {place['kind']}: {place['count']}"
        lines.append(head)
        if not place["pieces"]:
            continue
        if state.places[pid].kind in ("slots", "board", "regions"):
            by_spot: dict[str, list[str]] = {}
            for p in place["pieces"]:
                by_spot.setdefault(str(p.get("spot")), []).append(_piece_text(p))
            for spot, names in by_spot.items():
                lines.extend(_wrap(f"  {spot}: ", names, width))
        else:
            lines.extend(_wrap("  ", [_piece_text(p) for p in place["pieces"]], width))
    return lines


def _wrap(prefix: str, items: list[str], width: int) -> list[str]:
    """Group items (runs of a kind collapse, 'cube-red-1 .. cube-red-10') onto lines."""
    lines: list[str] = []
    current = prefix
    indent = " " * len(prefix)
    for item in _collapse(items):
        piece = item if current.strip() == "" or current == prefix else ", " + item
        if len(current) + len(piece) > width and current not in (prefix, indent):
            lines.append(current)
            current = indent + item
        else:
            current += piece
    lines.append(current)
    return lines


def _collapse(items: list[str]) -> list[str]:
    """'cube-red-1', ..., 'cube-red-10' become 'cube-red-1 .. cube-red-10 (10)'."""
    out: list[str] = []
    run: list[str] = []

    def stem(name: str) -> tuple[str, int] | None:
        base, _, number = name.rpartition("-")
        return (base, int(number)) if base and number.isdigit() else None

    def flush() -> None:
        if len(run) >= 3:
            out.append(f"{run[0]} .. {run[-1]} ({len(run)})")
        else:
            out.extend(run)
        run.clear()

    for item in items:
        if item == HIDDEN and run and run[-1].startswith(HIDDEN):
            count = int(run[-1].rpartition("×")[2]) if "×" in run[-1] else 1
            run[-1] = f"{HIDDEN} ×{count + 1}"
            continue
        s = stem(item)
        last = stem(run[-1]) if run else None
        if s and last and s[0] == last[0] and s[1] == last[1] + 1:
            run.append(item)
        else:
            flush()
            run.append(item)
    flush()
    return out


def entry_text(
    entry: Entry,
    seat_names: Mapping[str, str] | None = None,
    *,
    undone: bool = False,
    names: Names = PLAIN,
) -> str:
    """One log entry as a line: number, who, what (with dice), findings, any override.
    ``undone``: the move was taken back, so its findings no longer stand (marked so).
    ``names``: how the command's words name things (log_view.ReaderNames for people)."""
    who = actor_label(entry.actor, seat_names or {})
    what = entry.command.describe(names)
    if entry.kind == "undo":
        what = f"undid #{entry.ref}: {what}"
    elif entry.kind == "redo":
        what = f"redid #{entry.ref}: {what}"
    text = f"{entry.seq:>5}  {who:<10} {what}"
    for finding in entry.findings:
        text += f"\n{'':>17}! {names.text(finding.describe())}" + (" (undone)" if undone else "")
    if entry.override:
        text += f"\n{'':>17}forced by {who}: {entry.override}"
    return text


def strictness_text(table: Table) -> str:
    """Whether every move was made under strict rules: 'strict throughout: yes', or 'no: '
    and the stretches of entries holding moves made under a looser policy."""
    entries = table.entries
    if not any(e.kind == "do" for e in entries):
        current = table.policy_at(table.seq)
        now = current.describe() if current is not None else "not recorded"
        return f"no moves yet (the rules assistant: {now})"
    loose = []
    for first, last, policy in table.policy_spans():
        if (policy is not None and policy.strict) or not any(
            e.kind == "do" for e in entries[first - 1 : last]
        ):
            continue
        what = policy.describe() if policy is not None else "no policy recorded"
        where = f"at entry {first}" if first == last else f"from entry {first} to {last}"
        loose.append(f"{what} {where}")
    if loose:
        return "strict throughout: no: " + "; ".join(loose)
    forced = [f"#{e.seq}" for e in entries if e.override]
    if forced:
        return f"strict throughout: yes (forced past the rules with a reason: {', '.join(forced)})"
    return "strict throughout: yes"


def mapping_lines(data: Any, indent: int = 0) -> list[str]:
    """Nested plain data as indented 'key: value' lines (short lists and tables stay on one line)."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, dict | list) and len(_short(value)) > 90:
                lines.append(f"{pad}{key}:")
                lines.extend(mapping_lines(value, indent + 1))
            else:
                lines.append(f"{pad}{key}: {_short(value)}")
    elif isinstance(data, list):
        for value in data:
            lines.append(f"{pad}- {_short(value)}")
    else:
        lines.append(f"{pad}{data}")
    return lines


def _short(value: Any) -> str:
    if isinstance(value, dict) and "name" in value:  # a named thing: its name, then the rest
        rest = ", ".join(
            f"{k} {_short(v)}" for k, v in value.items() if k != "name" and v is not None
        )
        return f"{value['name']} ({rest})" if rest else str(value["name"])
    if isinstance(value, dict):
        return ", ".join(f"{k} {_short(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "none"
    return "—" if value is None else str(value)
