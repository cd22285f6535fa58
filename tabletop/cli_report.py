"""``tabletop report DIR... -o report.html|report.pdf``: the playtest report.

The game files found in the folders (as ``tabletop sessions`` finds them) are read into the
report's data (tabletop/report/data.py), one part per revision, and drawn into one HTML page or
a PDF (tabletop/report/render.py). ``--revision R`` keeps the sessions of one revision (a
deck's name or the start of its sha256); ``--compare-simulated N`` adds the same figures from
N games of the same revision and variant played by the module's bots; ``--json FILE`` also
writes the data the figures are drawn from. Progress goes to stderr. Bad input (no sessions,
an unknown revision, a wrong suffix, a folder that cannot be written) is one line and exit
code 2, and no file is left half-written.
"""

from __future__ import annotations

import argparse
import json
import sys

from tabletop.cli_games import CliError
from tabletop.core import printable


def _progress(message: str) -> None:
    print(f"tabletop report: {message}", file=sys.stderr, flush=True)


def cmd_report(args: argparse.Namespace) -> int:
    """Read the sessions, work out the figures, draw the report."""
    # here for start-up speed: matplotlib, Qt and the report's reading load only for the report
    from tabletop.report.data import ReportError, report_data
    from tabletop.report.render import check_folder, check_output, write_report, write_text

    if args.compare_simulated < 0:
        raise CliError("--compare-simulated must be 0 or more games")
    try:
        check_output(args.output)
        if args.json:
            check_folder(args.json)  # before the long work
        data = report_data(
            args.paths,
            revision=args.revision,
            compare_simulated=args.compare_simulated,
            progress=_progress,
        )
        write_report(data, args.output, progress=_progress)
        if args.json:
            write_text(args.json, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    except ReportError as exc:
        raise CliError(str(exc)) from None
    for problem in data["problems"]:
        print(printable(f"tabletop report: {problem}"), file=sys.stderr)
    parts = len(data["revisions"])
    print(
        f"{args.output}: {data['games']} games, {parts} revision{'s' if parts != 1 else ''}",
        file=sys.stderr,
    )
    return 1 if data["problems"] else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """The options of ``report``."""
    p = sub.add_parser(
        "report",
        help="the playtest report of the games in folders: figures per revision (HTML or PDF)",
        description="A report per revision of the games found (*.jsonl, recursively): games and"
        " hours played, win rates per seat and per place in the order of play with 95% Wilson"
        " intervals, the first player's advantage, scores and winning margins, game length,"
        " the rules most often flagged and forced past, the notes by tag with their snapshots,"
        " the players' forms, and the deck changes between consecutive revisions.",
    )
    p.add_argument("paths", nargs="+", metavar="DIR", help="folders (searched) or game files")
    p.add_argument("-o", "--output", required=True, help="the report: a .html or .pdf file")
    p.add_argument("--revision", help="only this revision: a deck's name or its sha256's start")
    p.add_argument(
        "--compare-simulated",
        type=int,
        default=0,
        metavar="N",
        help="beside each revision's figures, the same from N games of its bots",
    )
    p.add_argument("--json", metavar="FILE", help="also write the report's data as JSON")
