"""The playtest report's numbers as plain data (``tabletop report``; drawn by render.py).

Sessions are game files read as tabletop/report/sessions.py reads them, grouped by revision
(the module and its version, and each deck's name and sha256). For each revision: games and
hours played, win rates per seat (the game's word for a seat: a culture, a player) and per
place in the turn order, the first player's advantage, scores and winning margins, game
length, the rules most often flagged and most often forced past (with the entries where it
happened), the notes by tag with their snapshots, the players' forms; between consecutive
revisions of one module, what changed in the deck; with ``compare_simulated``, the same
figures from bot games of the same revision and variant.

Win rates carry a 95% Wilson score interval. A game with a tie counts a win for every seat
tied first (the game's own result: ``winners``), so win rates of one game may add up to more
than 1. The first player is the seat whose move is the first of the log made by a seat; the
order of play is the order in which the seats first moved.

Nothing here needs Qt or matplotlib: the result is JSON-able, and tests read it number by
number.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import mean, median
from typing import Any

from rules_assist.simulate import simulate
from tabletop.core import NOTE_TAGS, RATINGS, seat_of
from tabletop.modules import ModuleError, deck_diff, saved_module
from tabletop.modules.gamecode import game_of
from tabletop.modules.revisions import module_for_game
from tabletop.persist import Game

from .sessions import game_files, read_games, session_row

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
NOT_PLAY = ("setup", "note", "record", "policy")  # entry kinds that are not a seat's move
DEFAULT_BOT = "random"
SIM_SEED = 1
Progress = Callable[[str], None]


class ReportError(ValueError):
    """Input a report cannot be made of (no sessions, an unknown revision): one plain line."""


# ---- statistics -------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion ``wins / n`` (None for no games)."""
    if n <= 0:
        return None
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def rate(wins: int, n: int) -> dict[str, Any]:
    """A win rate with its interval: games, wins, rate, low, high."""
    interval = wilson(wins, n)
    return {
        "games": n,
        "wins": wins,
        "rate": round(wins / n, 4) if n else None,
        "low": interval[0] if interval else None,
        "high": interval[1] if interval else None,
    }


def spread(values: Sequence[float]) -> dict[str, Any]:
    """How many, mean, median, lowest and highest (None where there are no values)."""
    if not values:
        return {"n": 0, "mean": None, "median": None, "min": None, "max": None}
    return {
        "n": len(values),
        "mean": round(mean(values), 2),
        "median": round(median(values), 2),
        "min": min(values),
        "max": max(values),
    }


# ---- one game ---------------------------------------------------------------------------
def revision_key(game: Game) -> str:
    """What makes a revision: the module, its version, each deck's file and full sha256."""
    decks = "+".join(f"{d.get('file', '')}@{d.get('sha256', '')}" for d in game.header.decks)
    return f"{game.header.module} {game.header.module_version} {decks}"


def play_order(game: Game) -> list[str]:
    """The seats in the order they first moved (those that never moved after, in seating
    order)."""
    seats = [s.id for s in game.header.seats]
    order: list[str] = []
    undone = game.table.undone()
    for entry in game.table.entries:
        if entry.kind in NOT_PLAY or entry.seq in undone:
            continue
        seat = seat_of(entry.actor)
        if seat in seats and seat not in order:
            order.append(seat)
            if len(order) == len(seats):
                break
    return order + [s for s in seats if s not in order]


def game_facts(game: Game, rules: Any) -> dict[str, Any]:
    """One game as the report reads it: its sessions row and what the row only counts (the
    order of play, each finding and forced move, each note with its snapshot)."""
    row = session_row(game, rules)
    table = game.table
    undone = table.undone()
    flagged: list[dict[str, Any]] = []
    forced: list[dict[str, Any]] = []
    for entry in table.entries:
        if entry.seq in undone:
            continue
        for finding in entry.findings:
            flagged.append(
                {
                    "rule": finding.rule,
                    "entry": entry.seq,
                    "actor": entry.actor,
                    "message": finding.message,
                    "forced": entry.override is not None,
                }
            )
        if entry.override is not None:
            for rule in dict.fromkeys(f.rule for f in entry.findings) or ["(no rule named)"]:
                forced.append(
                    {
                        "rule": rule,
                        "entry": entry.seq,
                        "actor": entry.actor,
                        "reason": entry.override,
                    }
                )
    notes = [
        {
            "id": n.id,
            "tag": n.tag,
            "text": n.text,
            "entry": n.at,
            "author": n.author,
            "pieces": list(n.pieces),
            "snapshot": n.png,
        }
        for n in table.notes()
    ]
    forms = [
        {"seat": seat, **{k: form.get(k) for k in (*RATINGS, "text")}}
        for seat, form in table.session_parts().forms.items()
    ]
    return {
        **row,
        "revision": revision_key(game),
        "decks": [
            {"name": os.path.splitext(os.path.basename(d["file"]))[0], "sha256": d["sha256"]}
            for d in game.header.decks
        ],
        "header_decks": [dict(d) for d in game.header.decks],
        "seats": [s.to_dict() for s in game.header.seats],
        "seat_word": getattr(rules, "seat_word", "Seat") if rules is not None else "Seat",
        "order": play_order(game),
        "flagged": flagged,
        "forced": forced,
        "note_list": notes,
        "form_list": forms,
    }


def _now(done: int, total: int) -> bool:
    """Whether to tell the progress of ``done`` of ``total``: about every tenth, and the end."""
    return done == total or done % max(1, total // 10) == 0


def read_facts(
    files: list[str], problems: list[str], progress: Progress | None = None
) -> list[dict[str, Any]]:
    """The facts of every file that is a game (a line in ``problems`` for each that is not)."""
    found = []
    for i, (game, rules) in enumerate(read_games(files, problems), 1):
        try:
            found.append(game_facts(game, rules))
        except (ValueError, KeyError) as exc:
            problems.append(f"{game.path}: its session record cannot be read: {exc}")
        if progress is not None and _now(i, len(files)):
            progress(f"read {i} of {len(files)} game files")
    return found


# ---- a group of games -------------------------------------------------------------------
def _rule_table(items: list[dict[str, Any]], detail: str) -> list[dict[str, Any]]:
    """Rules by how often they come up: count, games, and every place it happened."""
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_rule.setdefault(item["rule"], []).append(item)
    table = [
        {
            "rule": rule,
            "count": len(where),
            "games": len({w["file"] for w in where}),
            "where": [
                {"file": w["file"], "entry": w["entry"], "actor": w["actor"], detail: w[detail]}
                for w in where
            ],
        }
        for rule, where in by_rule.items()
    ]
    return sorted(table, key=lambda r: (-r["count"], -r["games"], r["rule"]))


def figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures shown for human and for bot games alike."""
    finished = [g for g in games if g["finished"] and g["scores"]]
    seats: dict[str, dict[str, Any]] = {}
    for g in games:
        for s in g["seats"]:
            seats.setdefault(s["id"], s)
    per_seat = []
    for seat, info in seats.items():
        played = [g for g in finished if seat in g["scores"]]
        wins = sum(1 for g in played if seat in g["winners"])
        per_seat.append({"seat": seat, "name": info["name"], "colour": info["colour"]}
                        | rate(wins, len(played)))  # fmt: skip
    places = max((len(g["order"]) for g in finished), default=0)
    per_place = []
    for k in range(places):
        played = [g for g in finished if len(g["order"]) > k]
        wins = sum(1 for g in played if g["order"][k] in g["winners"])
        per_place.append({"place": k + 1, "fair": round(mean(1 / len(g["scores"]) for g in played), 4)}
                         | rate(wins, len(played)))  # fmt: skip
    first = per_place[0] if per_place else rate(0, 0) | {"place": 1, "fair": None}
    firsts = Counter(g["order"][0] for g in finished if g["order"])
    margins = []
    for g in finished:
        ranked = sorted(g["scores"].values(), reverse=True)
        if len(ranked) >= 2:
            margins.append(round(ranked[0] - ranked[1], 4))
    minutes = [g["minutes"] for g in games if g["minutes"] is not None]
    return {
        "games": len(games),
        "finished": len(finished),
        "hours": round(sum(minutes) / 60, 2),
        "wins_by_seat": per_seat,
        "wins_by_place": per_place,
        "first_player": {
            "games": first["games"],
            "wins": first["wins"],
            "rate": first["rate"],
            "low": first["low"],
            "high": first["high"],
            "fair": first["fair"],
            "seats": dict(firsts),
        },
        "scores": {s: [g["scores"][s] for g in finished if s in g["scores"]] for s in seats},
        "score_spread": {
            s: spread([g["scores"][s] for g in finished if s in g["scores"]]) for s in seats
        },
        "margins": margins,
        "margin_spread": spread(margins),
        "turns": [g["turns"] for g in finished if g["turns"] is not None],
        "turn_spread": spread([g["turns"] for g in finished if g["turns"] is not None]),
        "minutes": [g["minutes"] for g in finished],
        "minute_spread": spread([g["minutes"] for g in finished]),
    }


def _days(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_day: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        by_day.setdefault(str(g["started"])[:10] or "?", []).append(g)
    return [
        {
            "day": day,
            "games": len(group),
            "hours": round(sum(g["minutes"] for g in group) / 60, 2),
        }
        for day, group in sorted(by_day.items())
    ]


def _forms(games: list[dict[str, Any]]) -> dict[str, Any]:
    forms = [f for g in games for f in g["form_list"]]
    means = {}
    for key in RATINGS:
        values = [f[key] for f in forms if f.get(key) is not None]
        means[key] = round(mean(values), 2) if values else None
    texts = [
        {"file": g["file"], "seat": f["seat"], "text": f["text"]}
        for g in games
        for f in g["form_list"]
        if f.get("text")
    ]
    return {"count": len(forms), "means": means, "texts": texts}


def _notes(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups = []
    for tag, words in NOTE_TAGS.items():
        notes = [{"file": g["file"], **n} for g in games for n in g["note_list"] if n["tag"] == tag]
        if notes:
            groups.append({"tag": tag, "label": words, "notes": notes})
    return groups


def _label(first: dict[str, Any]) -> str:
    decks = ", ".join(f"{d['name']} ({d['sha256'][:12]})" for d in first["decks"])
    return f"{first['module']} {first['version']} · " + (f"deck {decks}" if decks else "no deck")


def section(games: list[dict[str, Any]]) -> dict[str, Any]:
    """One revision's part of the report."""
    first = games[0]
    variants = Counter(g["variant"] for g in games)
    return {
        "revision": first["revision"],
        "label": _label(first),
        "module": first["module"],
        "version": first["version"],
        "decks": first["decks"],
        "seat_word": first["seat_word"],
        "variants": dict(variants),
        "files": [g["file"] for g in games],
        "first_started": min(str(g["started"]) for g in games),
        "last_started": max(str(g["started"]) for g in games),
        "days": _days(games),
        "human": figures(games),
        "rules_flagged": _rule_table(
            [{"file": g["file"], **f} for g in games for f in g["flagged"]], "message"
        ),
        "rules_forced": _rule_table(
            [{"file": g["file"], **f} for g in games for f in g["forced"]], "reason"
        ),
        "notes": _notes(games),
        "forms": _forms(games),
        "simulated": None,
        "deck_changes": None,
    }


def matches(revision: dict[str, Any], wanted: str) -> bool:
    """A revision named by a deck's name or a prefix of its sha256."""
    wanted = wanted.strip().lower()
    return any(
        d["name"].lower() == wanted or (len(wanted) >= 4 and d["sha256"].lower().startswith(wanted))
        for d in revision["decks"]
    )


# ---- bot games and deck changes ---------------------------------------------------------
def simulated_games(
    module_id: str,
    decks: list[dict[str, str]],
    variant: str,
    seats: list[str],
    games: int,
    seed: int = SIM_SEED,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``games`` games of a module at a deck revision played by its default bots
    (rules_assist/simulate.py), read back as sessions; and the bot each seat had."""
    module, _warnings = module_for_game(saved_module(module_id), decks)
    game = game_of(module)
    if game is None or not game.bots or game.flow is None:
        raise ReportError(f"{module_id}: the module has no bots to play it")
    bot = DEFAULT_BOT if DEFAULT_BOT in game.bots else next(iter(game.bots))

    def tick(done: int, total: int) -> None:
        if progress is not None and _now(done, total):
            progress(f"bot games: {done} of {total}")

    with tempfile.TemporaryDirectory(prefix="tabletop-report-") as folder:
        simulate(
            game,
            variant,
            [bot],
            games,
            seed,
            seats=seats,
            save_logs=folder,
            progress=tick,
            jobs=None,
        )
        problems: list[str] = []
        facts = read_facts(game_files([folder])[0], problems)
    if problems:
        raise ReportError(f"bot games could not be read: {problems[0]}")
    return facts, dict.fromkeys(seats, bot)


def _compare(
    part: dict[str, Any], games: list[dict[str, Any]], count: int, progress: Progress | None
) -> None:
    variant = Counter(g["variant"] for g in games).most_common(1)[0][0]
    same = [g for g in games if g["variant"] == variant]
    seats = Counter(tuple(s["id"] for s in g["seats"]) for g in same).most_common(1)[0][0]
    facts, bots = simulated_games(
        games[0]["module"], games[0]["header_decks"], variant, list(seats), count, progress=progress
    )
    part["simulated"] = {
        "variant": variant,
        "seats": list(seats),
        "bots": bots,
        "seeds": [SIM_SEED, SIM_SEED + count - 1],
        **figures(facts),
    }


def deck_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What changed in the main deck from one revision to the next (same module), as
    ``tabletop deck diff`` says; ``problem`` where it cannot be read."""
    if before["module"] != after["module"] or not before["decks"] or not after["decks"]:
        return None
    a, b = before["decks"][0], after["decks"][0]
    found: dict[str, Any] = {"from": a["name"], "to": b["name"], "problem": None, "diff": None}
    if a["sha256"] == b["sha256"]:
        found["problem"] = "the deck is the same; the module's version changed"
        return found
    try:
        saved_module(before["module"])  # an installed or named module, never a path a log names
        result = deck_diff.diff(f"{before['module']}:{a['name']}", f"{after['module']}:{b['name']}")
    except ModuleError as exc:
        found["problem"] = f"the revisions cannot both be read now: {exc}"
        return found
    data = deck_diff.diff_json(result)
    if data["a"]["sha256"] != a["sha256"] or data["b"]["sha256"] != b["sha256"]:
        found["problem"] = (
            "a revision's file has changed since these games were played (its sha256 differs);"
            " the diff is between the files as they are now"
        )
    found["diff"] = data
    return found


# ---- the report -------------------------------------------------------------------------
def report_data(
    paths: list[str],
    *,
    revision: str | None = None,
    compare_simulated: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The report's data for the game files in ``paths`` (folders searched recursively).
    ReportError when there are no sessions or no revision ``revision``."""
    files, problems = game_files(paths)
    games = read_facts(files, problems, progress)
    if not games:
        where = ", ".join(paths)
        raise ReportError(
            f"{where}: no game files found" + (f" ({problems[0]})" if problems else "")
        )
    groups: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        groups.setdefault(g["revision"], []).append(g)
    parts = [section(group) for group in groups.values()]
    # by module, each module's revisions oldest first (by their first session)
    modules_first = {}
    for p in sorted(parts, key=lambda p: p["first_started"]):
        modules_first.setdefault(p["module"], p["first_started"])
    parts.sort(key=lambda p: (modules_first[p["module"]], p["first_started"]))
    for before, after in zip(parts, parts[1:], strict=False):
        after["deck_changes"] = deck_changes(before, after)
    if revision is not None:
        chosen = [p for p in parts if matches(p, revision)]
        if not chosen:
            known = "; ".join(p["label"] for p in parts)
            raise ReportError(f"--revision {revision!r}: no sessions of it (revisions: {known})")
        parts = chosen
        for p in parts:
            p["deck_changes"] = None
    if compare_simulated > 0:
        for p in parts:
            if progress is not None:
                progress(f"{p['label']}: {compare_simulated} bot games")
            _compare(p, groups[p["revision"]], compare_simulated, progress)
    return {
        "sources": list(paths),
        "games": sum(p["human"]["games"] for p in parts),
        "hours": round(sum(p["human"]["hours"] for p in parts), 2),
        "problems": problems,
        "interval": "Wilson score interval, 95%",
        "compare_simulated": compare_simulated,
        "revisions": parts,
    }
