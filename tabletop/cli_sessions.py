"""``tabletop sessions DIR...``: one row per game file, the playtest spreadsheet testers keep.

Each game file found (recursively, ``*.jsonl``) in the given folders, or named itself, gives
a row read from its log: the revision, variant and seed, the testers and the place, when
and how long it was played, its result (recorded, else read from the game's scoring), the
players' forms, the notes by tag, the rules assistant's findings and forced moves, and
whether the rules stayed strict throughout (tabletop/persist/record.py gathers the record).

A log is read once and the table resumes from its last good checkpoint rather than being
replayed from the start. A file that is not a game, or is broken, is named on one line on
stderr and the others are still listed; the exit code is then 1. The table, CSV (UTF-8
with a header, a stable column order, each seat's score as ``score:<seat>``) or JSON (a
list of objects) goes to stdout, or to ``-o OUT``, written whole in one rename.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from tabletop.cli_games import CliError
from tabletop.core import NOTE_TAGS, RATINGS
from tabletop.persist import atomic_write_text
from tabletop.report.sessions import SHA_SHORT, game_files, read_rows, session_row

__all__ = ["SHA_SHORT", "cmd_sessions", "csv_text", "game_files", "read_rows", "session_row"]

FIXED_COLUMNS = (
    "file", "module", "version", "deck", "deck_sha256", "variant", "seed", "testers", "where",
    "started", "ended", "minutes", "entries", "turns", "finished", "winners",
)  # fmt: skip
LATER_COLUMNS = (
    *(f"form_{k}" for k in RATINGS), "forms", "notes", *(f"notes:{t}" for t in NOTE_TAGS),
    "findings", "overrides", "policy",
)  # fmt: skip


def _seats_text(row: dict[str, Any]) -> str:
    return "; ".join(
        f"{s['seat']}={s['tester']}" if s["tester"] else s["seat"] for s in row["testers"]
    )


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def score_seats(rows: list[dict[str, Any]]) -> list[str]:
    """Every seat that has a score in some row, sorted (the CSV's ``score:<seat>`` columns)."""
    return sorted({seat for row in rows for seat in row["scores"]})


def flat_row(row: dict[str, Any], seats: list[str]) -> dict[str, str]:
    """A row as the CSV's cells."""
    cells = {
        key: _number(row[key])
        for key in FIXED_COLUMNS
        if key not in ("testers", "finished", "winners")
    }
    cells["testers"] = _seats_text(row)
    cells["finished"] = "yes" if row["finished"] else "no"
    cells["winners"] = "; ".join(row["winners"])
    for seat in seats:
        cells[f"score:{seat}"] = _number(row["scores"].get(seat))
    for key in RATINGS:
        cells[f"form_{key}"] = _number(row["form_means"][key])
    cells["forms"] = str(row["forms"])
    cells["notes"] = str(row["notes"])
    for tag, count in row["notes_by_tag"].items():
        cells[f"notes:{tag}"] = str(count)
    cells["findings"] = str(row["findings"])
    cells["overrides"] = str(row["overrides"])
    cells["policy"] = row["policy"]
    return cells


def csv_text(rows: list[dict[str, Any]]) -> str:
    seats = score_seats(rows)
    columns = [*FIXED_COLUMNS, *(f"score:{s}" for s in seats), *LATER_COLUMNS]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(flat_row(row, seats))
    return out.getvalue()


def _strict(policy: str) -> str:
    if policy.startswith("strict throughout: yes"):
        return "yes"
    return "no" if policy.startswith("strict throughout: no") else "-"


def table_text(rows: list[dict[str, Any]]) -> str:
    """A readable aligned table: the columns people scan first."""
    head = ["file", "game", "variant", "seed", "testers", "min", "turns", "end", "winner",
            "scores", "forms", "fun/len/clar", "notes", "findings", "forced", "strict"]  # fmt: skip
    lines = [head]
    for row in rows:
        m = row["form_means"]
        lines.append([
            row["file"], f"{row['module']} {row['version']}", row["variant"],
            _number(row["seed"]), _seats_text(row) or "-", _number(row["minutes"]),
            _number(row["turns"]) or "-", "yes" if row["finished"] else "no",
            ", ".join(row["winners"]) or "-",
            ", ".join(f"{s} {_number(v)}" for s, v in row["scores"].items()) or "-",
            str(row["forms"]),
            "/".join(_number(m[k]) or "-" for k in RATINGS) if row["forms"] else "-",
            str(row["notes"]), str(row["findings"]), str(row["overrides"]),
            _strict(row["policy"]),
        ])  # fmt: skip
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in lines
    ]
    return "\n".join(text) + "\n"


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a file beside it, then one rename)."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")
    atomic_write_text(path, text, replace=True)


def cmd_sessions(args: argparse.Namespace) -> int:
    """One row per game file: the playtest spreadsheet, as a table, CSV or JSON."""
    files, problems = game_files(args.paths)
    rows, broken = read_rows(files)
    problems.extend(broken)
    form = "json" if args.json else "csv" if args.csv else None
    if form is None and args.output:
        form = {".csv": "csv", ".json": "json"}.get(Path(args.output).suffix.lower())
    if form == "json":
        text = json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    elif form == "csv":
        text = csv_text(rows)
    else:
        text = table_text(rows) if rows else "no games found\n"
    for problem in problems:
        print(f"tabletop sessions: {problem}", file=sys.stderr)
    if args.output:
        write_whole(args.output, text)
        print(f"{args.output}: {len(rows)} games", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 1 if problems else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """The options of ``sessions``."""
    p = sub.add_parser(
        "sessions",
        help="one row per game file found in folders: the playtest spreadsheet (table, CSV, JSON)",
        description="One row per game file (*.jsonl, found recursively in each folder, or named):"
        " module and version, deck revision, variant, seed, testers, where, when, playing time,"
        " entries, turns, finished, winners, each seat's score, the forms' mean ratings, notes"
        " by tag, the rules assistant's findings and forced moves, and whether the rules"
        " stayed strict. A file that is not a game is named on stderr; the others are still"
        " listed and the exit code is 1.",
    )
    p.add_argument("paths", nargs="+", metavar="DIR", help="folders (searched) or game files")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="a JSON list of objects")
    form.add_argument("--csv", action="store_true", help="CSV (UTF-8, with a header)")
    p.add_argument(
        "-o", "--output", help="write here, whole (.csv or .json choose the form if not given)"
    )
