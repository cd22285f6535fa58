"""A game's result as the session record keeps it, read from the game's own scoring (the game
interface, rules_assist/game.py: ``score(state)`` rows and the turn flow's ``returns``).

Nothing here knows a game: any module whose game has a flow that says when the game is over,
or score rows marked ``final``, gives a result; one without scoring gives none, and says why.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import Record, Table, TableState

from .setup import not_laid_out

PLAIN = (str, int, float, bool, type(None))


def _seat(row: dict[str, Any]) -> str:
    return str(row.get("seat", row.get("colour", "")))


def game_result(rules: Any, state: TableState) -> tuple[dict[str, Any] | None, str]:
    """(the result, '') for a finished game, or (None, why there is none).

    The result: ``scores`` (seat -> the flow's returns, else each score row's ``total``),
    ``winners`` (the rows marked ``winner`` where the game marks them, else the highest
    score), ``ending`` (why the game ended, where the rows say) and ``rows`` (the game's score
    rows, their plain values)."""
    if rules is None:
        return None, "the module has no rules assistant, so no scoring: no result is recorded"
    unready = not_laid_out(rules.module, state)
    if unready is not None:
        return None, f"{unready}: no result"
    flow = rules.flow
    has_score = bool(getattr(rules, "has_score", False))
    if flow is None and not has_score:
        return None, "the game has no scoring: no result is recorded"
    if flow is not None and not flow.is_terminal(state):
        return None, "the game is not over: the result is recorded when it ends"
    rows = [dict(r) for r in (rules.score(state) or [])] if has_score else []
    if flow is not None:
        scores = {str(s): float(v) for s, v in flow.returns(state).items()}
    else:
        if not rows or not all(r.get("final") for r in rows):
            return None, "the game is not over: the result is recorded when it ends"
        scores = {_seat(r): float(r.get("total", 0)) for r in rows}
    if not scores:
        return None, "the game's scoring names no seat: no result is recorded"
    if any("winner" in r for r in rows):
        winners = [_seat(r) for r in rows if r.get("winner")]
    else:
        best = max(scores.values())
        winners = [s for s, v in scores.items() if v == best]
    ending = next((r["ending"] for r in rows if isinstance(r.get("ending"), str)), None)
    plain_rows = [{k: v for k, v in r.items() if isinstance(v, PLAIN)} for r in rows]
    return {"scores": scores, "winners": winners, "ending": ending, "rows": plain_rows}, ""


def record_result(table: Table, rules: Any, actor: str = "table") -> bool:
    """Write the game's result into the session record once the game is over and none is
    recorded yet; True if it wrote one."""
    if table.session_parts().result is not None:
        return False
    result, _why = game_result(rules, table.state)
    if result is None:
        return False
    table.record(Record("result", result), actor)
    return True
