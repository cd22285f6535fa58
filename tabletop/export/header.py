"""The header of a snapshot: what a reader of it needs to know about the moment shown.

Two lines, from the game itself (its interface, rules_assist/game.py), so that no
game is named here:

- the game and its revision (the deck's file and the first digits of its sha256,
  or the module's version for a game without a deck), the entry shown, the turn,
  the phase and the first player, as far as the game has them;
- the scores (each seat's total by the game's own count) and whose view it is.

A game without turns or scores gets a header with what it has; a game whose rules
cannot read this table (a hand-built position) gets the rest, never an error.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from tabletop.core import TableError

if TYPE_CHECKING:
    from tabletop.ui.session import TableSession

SEP = "  ·  "
SHA_DIGITS = 8


def snapshot_header(session: TableSession, viewer: str | None) -> list[str]:
    """The header lines of a snapshot of what ``session`` shows, as ``viewer`` sees it
    (a seat id, or None for a spectator)."""
    game, state, rules = session.game, session.state, session.rules
    header = game.header
    module = session.module
    name = module.name if module is not None else header.module
    first = [f"{name} {header.module_version}".strip(), revision_text(header.decks, header)]
    shown = session.history_seq if session.history_seq is not None else session.table.seq
    first.append(f"after entry {shown} of {session.table.seq}")
    status = _status(rules, state)
    if status is not None:
        if status.turn is not None:
            first.append(f"turn {status.turn}")
        if status.phase_label:
            first.append(status.phase_label)
    leader = _first_player(rules, state)
    if leader:
        first.append(f"first player {session.seat_name(leader)}")
    second = []
    scores = _scores(rules, state, session)
    if scores:
        second.append(scores)
    who = session.seat_name(viewer) if viewer is not None else None
    second.append(f"as {who} sees it (their hand shown)" if who else "as a spectator sees it")
    return [SEP.join(first), SEP.join(second)]


def revision_text(decks: list[dict[str, str]], header: Any) -> str:
    """The deck revision a game was played with: each deck's file name and sha256 prefix."""
    if not decks:
        return f"module version {header.module_version or '?'}"
    parts = [
        f"deck {PurePath(d.get('file', '')).stem or d.get('id', '?')} "
        f"{str(d.get('sha256', ''))[:SHA_DIGITS]}".strip()
        for d in decks
    ]
    return ", ".join(parts)


def _status(rules: Any, state: Any) -> Any:
    flow = rules.flow if rules is not None else None
    if flow is None:
        return None
    try:
        return flow.status(state)
    except (TableError, KeyError, ValueError, TypeError):
        return None  # a table the game's turn cannot read: the header says less


def _first_player(rules: Any, state: Any) -> str | None:
    if rules is None:
        return None
    try:
        return rules.first_player(state)
    except (TableError, KeyError, ValueError, TypeError):
        return None


def _scores(rules: Any, state: Any, session: TableSession) -> str | None:
    if rules is None or not rules.has_score:
        return None
    try:
        rows = list(rules.score(state) or ())
    except (TableError, KeyError, ValueError, TypeError):
        return None
    totals = [
        f"{session.seat_name(row['seat'])} {row['total']}"
        for row in rows
        if row.get("seat") is not None and row.get("total") is not None
    ]
    if not totals:
        return None
    final = any(row.get("final") for row in rows)
    return ("final score " if final else "score now ") + ", ".join(totals)
