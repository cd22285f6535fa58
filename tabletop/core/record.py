"""The session record: who played, where, for how long, the result and the players' forms,
kept in the game's log as 'record' entries.

A ``Record`` command is logged as a 'record' entry. Like a note (tabletop/core/notes.py) it
changes nothing on the table (its state and hash stay as they were), is not a move (undo and
redo pass it by) and is never itself undone. Its ``action`` says what it records:

- ``session``: the testers (seat -> a player's name) and where the game is played; a later
  one replaces the names it gives and the place, if it gives one;
- ``played``: a stretch of active play measured by the window: ``from`` and ``to`` (seconds
  since the epoch), ``seconds`` of it active (pauses longer than ``idle`` seconds without
  input left out);
- ``result``: the final result read from the game's scoring when the game ended: ``scores``
  (seat -> number), ``winners``, ``ending`` (why it ended, if the game says) and ``rows`` (the
  game's own score rows, public at the end);
- ``form``: a player's end-of-session form: ``seat``, ratings 1 to 5 for ``fun``, ``length``
  and ``clarity`` (each may be left out), and free ``text``; a later form of the same seat
  replaces it (the log keeps every version).

``record_of(entries)`` folds the entries into the record as it stands. Everything recorded
is public: names, times, the final scores and the forms are the whole table's to read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .commands import PLAIN, Command, Names
from .errors import CommandError, FormatError
from .state import TableState
from .textsafe import quoted

RECORD_ACTIONS = ("session", "played", "result", "form")
RATINGS = ("fun", "length", "clarity")  # each 1..5
RATING_WORDS = {
    "fun": "fun (1 dull .. 5 great)",
    "length": "length (1 far too short .. 3 right .. 5 far too long)",
    "clarity": "clarity of the rules (1 confusing .. 5 clear)",
}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def record_problem(action: str, data: dict[str, Any]) -> str | None:
    """What is wrong with a record's data, in a few words, or None."""
    if action not in RECORD_ACTIONS:
        return f"unknown action {quoted(action)} (actions: {', '.join(RECORD_ACTIONS)})"
    if action == "session":
        testers = data.get("testers", {})
        if not isinstance(testers, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in testers.items()
        ):
            return "'testers' must map seats to names"
        if not isinstance(data.get("where", ""), str):
            return "'where' must be text"
        return None
    if action == "played":
        for key in ("from", "to", "seconds", "idle"):
            if not _number(data.get(key)) or data[key] < 0:
                return f"'{key}' must be a number of at least 0"
        if data["to"] < data["from"] or data["seconds"] > data["to"] - data["from"] + 1e-6:
            return "a stretch of play ends after it starts and holds no more active time than its length"
        return None
    if action == "result":
        scores, winners = data.get("scores"), data.get("winners")
        if not isinstance(scores, dict) or not all(
            isinstance(k, str) and _number(v) for k, v in scores.items()
        ):
            return "'scores' must map seats to numbers"
        if not isinstance(winners, list) or not all(w in scores for w in winners):
            return "'winners' must list seats that have a score"
        if not isinstance(data.get("rows", []), list):
            return "'rows' must be a list"
        if data.get("ending") is not None and not isinstance(data["ending"], str):
            return "'ending' must be text"
        return None
    if not isinstance(data.get("seat"), str):
        return "a form names its 'seat'"
    for key in RATINGS:
        value = data.get(key)
        if value is not None and (type(value) is not int or not 1 <= value <= 5):
            return f"'{key}' must be a whole number from 1 to 5"
    if not isinstance(data.get("text", ""), str):
        return "'text' must be text"
    return None


@dataclass(frozen=True, slots=True)
class Record(Command):
    """Record part of the session (``action``: session, played, result, form) with ``data``.
    Changes nothing on the table."""

    action: str
    data: dict[str, Any] = field(default_factory=dict)
    op: ClassVar[str] = "record"
    counters_only: ClassVar[bool] = True  # touches no piece: positions and layout stand

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self

    def body(self) -> dict[str, Any]:
        return {"action": self.action, "data": self.data}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Record:
        action, data = d.get("action"), d.get("data", {})
        if not isinstance(action, str) or not isinstance(data, dict):
            raise FormatError("command 'record' needs a text 'action' and an object 'data'")
        problem = record_problem(action, data)
        if problem is not None:
            raise FormatError(f"command 'record' ({action}): {problem}")
        return cls(action, data)

    def __hash__(self) -> int:
        return hash((self.action, json.dumps(self.data, sort_keys=True)))

    def describe(self, names: Names = PLAIN) -> str:
        d = self.data
        if self.action == "session":
            parts = [f"{names.seat(seat)}: {name}" for seat, name in d.get("testers", {}).items()]
            if d.get("where"):
                parts.append(f"where: {d['where']}")
            return "session: " + ("; ".join(parts) or "nothing new")
        if self.action == "played":
            return f"played {minutes_text(d['seconds'])} (active time)"
        if self.action == "result":
            scores = ", ".join(f"{names.seat(s)} {v:g}" for s, v in d["scores"].items())
            winners = ", ".join(names.seat(s) for s in d["winners"])
            return f"result: {scores}; won by {winners or 'nobody'}"
        ratings = ", ".join(f"{k} {d[k]}" for k in RATINGS if d.get(k) is not None)
        text = f": {d['text']}" if d.get("text") else ""
        return f"form of {names.seat(d['seat'])} ({ratings or 'no ratings'}){text}"


def minutes_text(seconds: float) -> str:
    """A length of time in hours and minutes ('1 h 05 min', '12 min', '0 min')."""
    minutes = int(round(seconds / 60))
    if minutes >= 60:
        return f"{minutes // 60} h {minutes % 60:02d} min"
    return f"{minutes} min"


@dataclass
class RecordParts:
    """The 'record' entries of a log folded into what stands."""

    testers: dict[str, str] = field(default_factory=dict)
    where: str = ""
    played: list[tuple[float, float, float, float]] = field(
        default_factory=list
    )  # (from, to, seconds, idle) of each stretch the window measured
    result: dict[str, Any] | None = None
    result_seq: int | None = None
    forms: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> its latest form
    form_seqs: dict[str, int] = field(default_factory=dict)


def record_of(entries: Iterable[Any]) -> RecordParts:
    """The session record the 'record' entries of a log leave standing (later ones replace
    earlier ones of the same kind; the log keeps every version)."""
    parts = RecordParts()
    for entry in entries:
        if entry.kind != "record":
            continue
        command: Record = entry.command
        d = command.data
        if command.action == "session":
            parts.testers.update(d.get("testers", {}))
            if d.get("where"):
                parts.where = d["where"]
        elif command.action == "played":
            parts.played.append((d["from"], d["to"], d["seconds"], d["idle"]))
        elif command.action == "result":
            parts.result, parts.result_seq = d, entry.seq
        else:
            parts.forms[d["seat"]] = d
            parts.form_seqs[d["seat"]] = entry.seq
    return parts


def check_record(command: Record, seats: Sequence[str]) -> None:
    """CommandError naming what is wrong with a record for a table of ``seats``."""
    problem = record_problem(command.action, command.data)
    if problem is not None:
        raise CommandError(f"the session record ({command.action}): {problem}")
    d = command.data
    named = []
    if command.action == "session":
        named = list(d.get("testers", {}))
    elif command.action == "form":
        named = [d["seat"]]
    elif command.action == "result":
        named = list(d["scores"])
    for seat in named:
        if seat not in seats:
            raise CommandError(f"there is no seat {quoted(seat)} (seats: {', '.join(seats)})")
