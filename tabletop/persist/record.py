"""A game's session record as one plain object: what the header says (the revision: module
version, deck file and sha256; the variant; the rules it started with), what the 'record'
entries say (tabletop/core/record.py: testers, place, stretches of play, result, forms), the
'policy' entries (the rules' switches) and the playing time.

The playing time leaves pauses out. The window measures its own stretches of play and logs
each as a 'played' entry (a stretch ends when nobody touches the window for the idle limit,
and when it is closed). Entries made outside any such stretch (the command line, a game
played without the window) are counted by the time since the entry before them, each gap
capped at ``idle`` seconds (default 5 minutes): a longer wait is taken as a pause.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date
from pathlib import PurePath
from typing import Any

from tabletop.core import RATINGS, Entry, RecordParts, minutes_text
from tabletop.inspection import strictness_text

from .session import Game

IDLE_SECONDS = 300.0


def when_text(t: float | None) -> str:
    """A time stamp as the header writes one (local time with its offset)."""
    return "" if t is None else time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t))


def _created(text: str) -> float | None:
    try:
        return _utc_seconds(time.strptime(text, "%Y-%m-%dT%H:%M:%S%z")) - _offset(text)
    except ValueError:
        return None


_EPOCH_DAY = date(1970, 1, 1).toordinal()


def _utc_seconds(t: time.struct_time) -> int:
    """Seconds since 1970 of a time read as UTC, counted as ``calendar.timegm`` counts them.
    Counted here because importing ``calendar`` (and the ``locale`` it imports) cost every
    start some 6 M instructions for this one sum, which a start never asks for."""
    days = date(t.tm_year, t.tm_mon, 1).toordinal() - _EPOCH_DAY + t.tm_mday - 1
    return ((days * 24 + t.tm_hour) * 60 + t.tm_min) * 60 + t.tm_sec


def _offset(text: str) -> int:
    sign = -1 if text[-5] == "-" else 1
    return sign * (int(text[-4:-2]) * 3600 + int(text[-2:]) * 60)


def playing_time(
    entries: Sequence[Entry], parts: RecordParts, idle: float = IDLE_SECONDS
) -> dict[str, Any]:
    """The active playing time: the window's measured stretches plus the entries made outside
    them, each counting the time since the one before it up to ``idle`` seconds."""
    spans = parts.played
    window = sum(seconds for _f, _t, seconds, _i in spans)
    estimated, counted, last = 0.0, 0, None
    ends = sorted(to for _f, to, _s, _i in spans)
    for entry in entries:
        if entry.kind == "record":  # the record itself (a form filled in later) is not play
            continue
        t = entry.time
        if any(start - 1e-3 <= t <= to + 1e-3 for start, to, _s, _i in spans):
            last = t
            continue
        before = [to for to in ends if to <= t]
        since = max(
            [x for x in (last, before[-1] if before else None) if x is not None], default=None
        )
        if since is not None:
            estimated += min(max(t - since, 0.0), idle)
            counted += 1
        last = t
    total = window + estimated
    text = minutes_text(total)
    if spans and counted:
        text += f" ({minutes_text(window)} measured in the window, {minutes_text(estimated)} from the times of {counted} entries made outside it)"
    elif counted:
        text += f" (from the times of {counted} entries, each gap capped at {minutes_text(idle)})"
    elif spans:
        text += " (measured in the window)"
    return {
        "seconds": round(total, 3),
        "window_seconds": round(window, 3),
        "estimated_seconds": round(estimated, 3),
        "estimated_entries": counted,
        "idle_seconds": idle,
        "text": text,
    }


def testers_and_place(game: Game) -> tuple[dict[str, str], str]:
    """The testers (seat -> name) and the place: the header's start, then the 'record'
    entries (a later name or place replaces an earlier one)."""
    start = game.header.extra.get("session")
    start = start if isinstance(start, dict) else {}
    testers = {str(k): v for k, v in (start.get("testers") or {}).items() if isinstance(v, str)}
    where = start.get("where") if isinstance(start.get("where"), str) else ""
    parts = game.table.session_parts()
    testers.update(parts.testers)
    return testers, parts.where or where


def session_record(
    game: Game,
    *,
    idle: float = IDLE_SECONDS,
    result: dict[str, Any] | None = None,
    no_result: str = "",
) -> dict[str, Any]:
    """The session record of a game as plain data. ``result``/``no_result``: the result read
    from the game's scoring now (tabletop/modules/results.py), shown where the log records none
    yet (``result_recorded`` says which)."""
    header, table = game.header, game.table
    parts = table.session_parts()
    testers, where = testers_and_place(game)
    seats = [{"seat": s.id, "name": s.name, "tester": testers.get(s.id, "")} for s in header.seats]
    changes = [
        {"entry": e.seq, "by": e.actor, "policy": e.command.to_policy().to_dict()}  # type: ignore[attr-defined]
        for e in table.entries
        if e.kind == "policy"
    ]
    now = table.policy_at(table.seq)
    plays = [e for e in table.entries if e.kind != "record"]
    recorded = parts.result
    end_seq = parts.result_seq
    if recorded is not None and end_seq is not None:
        end = table.entries[end_seq - 1].time
    else:
        end = plays[-1].time if plays else None
    start = _created(header.created)
    if start is None and table.entries:
        start = table.entries[0].time
    forms = {
        seat: {k: form.get(k) for k in (*RATINGS, "text")} for seat, form in parts.forms.items()
    }
    for seat, seq in parts.form_seqs.items():
        forms[seat]["entry"] = seq
    return {
        "file": game.path or "",
        "module": {"id": header.module, "version": header.module_version},
        "revision": [
            {
                "deck": d.get("id", ""),
                "name": PurePath(d["file"]).stem,
                "file": d["file"],
                "sha256": d["sha256"],
            }
            for d in header.decks
        ],
        "variant": header.variant or "standard",
        "seed": header.seed,
        "app_version": header.app_version,
        "testers": seats,
        "where": where,
        "start": header.created or when_text(start),
        "end": when_text(end),
        "finished": recorded is not None or result is not None,
        "playing_time": playing_time(table.entries, parts, idle),
        "rules": {
            "start": header.policy.to_dict() if header.policy is not None else None,
            "changes": changes,
            "now": now.to_dict() if now is not None else None,
            "strictness": strictness_text(table),
        },
        "result": recorded if recorded is not None else result,
        "result_recorded": recorded is not None,
        "no_result": "" if (recorded is not None or result is not None) else no_result,
        "forms": forms,
        "entries": table.seq,
    }


def record_lines(record: dict[str, Any]) -> list[str]:
    """The session record as lines for people."""
    names = {s["seat"]: s for s in record["testers"]}
    lines = [
        f"Game: {record['module']['id']} {record['module']['version']}, variant {record['variant']}, seed {record['seed']}",
    ]
    for deck in record["revision"]:
        lines.append(f"Revision: {deck['name']} ({deck['file']}, sha256 {deck['sha256']})")
    if not record["revision"]:
        lines.append(f"Revision: module version {record['module']['version']} (no deck)")
    lines.append(
        "Testers: "
        + (
            ", ".join(
                f"{s['seat']} ({s['name']}): {s['tester'] or 'not named'}"
                for s in record["testers"]
            )
            or "none"
        )
    )
    lines.append(f"Where: {record['where'] or 'not given'}")
    so_far = "" if record["finished"] else " (the last entry so far)"
    lines.append(f"When: {record['start']} to {record['end'] or 'not yet'}{so_far}")
    lines.append(f"Playing time: {record['playing_time']['text']}")
    rules = record["rules"]
    start = _policy_words(rules["start"])
    lines.append(f"Rules at the start: {start}")
    for change in rules["changes"]:
        lines.append(f"  switched at entry {change['entry']}: {_policy_words(change['policy'])}")
    lines.append(f"Rules: {rules['strictness']}")
    result = record["result"]
    if result is None:
        lines.append(f"Result: none ({record['no_result'] or 'not recorded'})")
    else:
        how = (
            "" if record["result_recorded"] else " (read from the final table; not yet in the log)"
        )
        scores = ", ".join(
            f"{seat} {_seat_name(names, seat)}{value:g}" for seat, value in result["scores"].items()
        )
        lines.append(f"Result{how}: {scores}")
        lines.append(f"Winner: {', '.join(result['winners']) or 'nobody'}")
        if result.get("ending"):
            lines.append(f"Ending: {result['ending']}")
    if not record["forms"]:
        lines.append("Forms: none filled yet")
    for seat, form in record["forms"].items():
        ratings = ", ".join(
            f"{k} {form[k]}" if form.get(k) is not None else f"{k} -" for k in RATINGS
        )
        text = f": {form['text']}" if form.get("text") else ""
        lines.append(f"Form of {seat} {_seat_name(names, seat)}({ratings}){text}")
    return lines


def _seat_name(names: dict[str, dict[str, Any]], seat: str) -> str:
    found = names.get(seat)
    who = (found or {}).get("tester") or (found or {}).get("name") or ""
    return f"({who}) " if who else ""


def _policy_words(policy: dict[str, Any] | None) -> str:
    if policy is None:
        return "not recorded"
    words = str(policy.get("mode", ""))
    per_rule = policy.get("per_rule") or {}
    if per_rule:
        words += "; house rules: " + ", ".join(f"{r} {m}" for r, m in per_rule.items())
    return words
