"""The ``tabletop`` command's argument parser: every command and its options (tabletop/cli.py
runs them)."""

from __future__ import annotations

import argparse
from typing import Any

from rules_assist.cli_options import Parser as _Parser
from tabletop import __version__

# The commands each command module adds, named here so that a command line is read, and
# tabletop/cli.py finds its command, without importing the modules of the others: a command's
# module (its options and its code) loads for that command only, and ``tabletop play`` loads
# none of them (tests/test_cli_one_command.py checks these names against the modules').
EXPORT_COMMANDS = ("export",)
NOTE_COMMANDS = ("note", "notes")
RECORD_COMMANDS = ("session", "form")
REPORT_COMMANDS = ("report",)
FAIR_COMMANDS = ("contribute", "reveal", "verify")
ONLINE_COMMANDS = ("host", "join")


class _TopParser(_Parser):
    """The ``tabletop`` parser: its help ends with every game's procedures by phase, read from
    the games' procedure tables only when the help is shown."""

    def format_help(self) -> str:
        # the procedures' command line loads for the help only (see the imports above)
        from rules_assist.cli import procedures_overview

        self.epilog = procedures_overview()
        return super().format_help()


class _LeftOut:
    """The parser of a command ``parser(command)`` leaves out: whatever is asked of it is
    ignored (its options are never read)."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> _LeftOut:
        return self


class _Commands(argparse._SubParsersAction):
    """The commands' parsers; with ``only``, that command's alone is built."""

    only: str | None = None

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only is not None and name != self.only:
            return _LeftOut()
        return super().add_parser(name, **kwargs)


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command's options; with ``command`` (one of the commands' names), only that
    command's are built: a command line reads one command, and building the thirty-odd others'
    is a good part of a quick command's start. The full parser is for the top's help and for
    a word that names no command."""
    parser = _TopParser(
        prog="tabletop",
        description="A digital tabletop for playtesting board games.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    parser.add_argument(
        "--module-dir",
        metavar="FOLDER",
        action="append",
        help="a module folder a saved game may use (a game's file names its module by id only:"
        " installed, or one named here); may be given with any command, more than once",
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser, action=_Commands
    )
    sub.required = True
    sub.only = command

    p = sub.add_parser("new", help="set a new game up and write its log")
    p.add_argument(
        "module", help="a module id (see 'tabletop modules') or the path of a module folder"
    )
    p.add_argument(
        "-o", "--output", required=True, help="the new game's log file (.jsonl); never overwritten"
    )
    p.add_argument(
        "--seats", help="how many players, or which seats: '3', 'red,green', 'red=Ann,green=Bo'"
    )
    p.add_argument("--variant", default="", help="a variant of the module")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setup choice of the module (see 'tabletop modules MODULE')",
    )
    p.add_argument(
        "--random-colours", action="store_true", help="deal the players' colours at random"
    )
    p.add_argument(
        "--deck",
        metavar="REVISION",
        help="a revision of the module's deck (see 'tabletop deck list')",
    )
    p.add_argument(
        "--position",
        metavar="FILE",
        help="build the table a position file describes (for rules questions)",
    )
    p.add_argument(
        "--seed", type=int, help="the seed of the game's dice and shuffles (random if left out)"
    )
    p.add_argument("--notes", default="", help="free text kept in the log, e.g. the testers' names")
    p.add_argument(
        "--tester",
        action="append",
        default=[],
        metavar="SEAT=NAME",
        help="who plays a seat, for the session record (repeatable; names given with"
        " --seats red=Ann count too)",
    )
    p.add_argument("--where", default="", help="where the game is played, for the session record")
    p.add_argument(
        "--rules",
        choices=("off", "advisory", "strict"),
        default="advisory",
        help="how the rules assistant enforces from the start (kept in the log; default advisory)",
    )
    p.add_argument(
        "--inspect", action="store_true", help="print the new table, as 'tabletop inspect' does"
    )
    if command in (None, "new"):  # --fair and its options: cli_fair loads for them (above)
        from tabletop.cli_fair import add_new_options as add_fair_new_options

        add_fair_new_options(p)

    p = sub.add_parser("inspect", help="every place of a game and what lies in it")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--at", type=int, help="show the table as it was after entry N")
    p.add_argument("--seat", help="show only what this seat may see")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("check", help="the rules' findings on a game's current table")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--at", type=int, help="check the table as it was after entry N")
    p.add_argument("--seat", help="as this seat may read them: nothing hidden from it is named")
    p.add_argument("--json", action="store_true", help="print a JSON list of findings")

    p = sub.add_parser(
        "move",
        help="a hand move through the rules' checker, as the window makes it; written to OUT",
    )
    p.add_argument("file", help="a game log (.jsonl); never changed")
    p.add_argument("--piece", required=True, metavar="ID", help="the piece moved")
    p.add_argument(
        "--to",
        required=True,
        metavar="PLACE[:SPOT]",
        help="where it goes: a place id, with a spot for slots, boards and a card's regions",
    )
    p.add_argument(
        "--seat", help="the seat moving it (default: the piece's seat, else the seat to move)"
    )
    p.add_argument(
        "--mode",
        choices=("off", "advisory", "strict"),
        help="how the rules assistant enforces from this move on, a switch logged as in the"
        " window (default: the game's own mode)",
    )
    p.add_argument(
        "--reason", metavar="TEXT", help="force a move strict mode refuses, with this reason"
    )
    p.add_argument(
        "-o", "--output", required=True, help="the continued game's log; never overwritten"
    )

    p = sub.add_parser(
        "log",
        help="a game's log as readable lines, and whether its rules were strict throughout",
        description="A game's log as readable lines, and whether its rules were strict"
        " throughout. Left plain, every line is printed as the file holds it, naming every card,"
        " hidden ones too (the referee's view: the file holds everything); --seat or"
        " --spectator prints only what that reader may see.",
    )
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--last", type=int, help="only the last N entries")
    p.add_argument("--json", action="store_true", help="print the entries as JSON lines")
    reader = p.add_mutually_exclusive_group()
    reader.add_argument(
        "--seat", help="the lines as this seat reads them: cards it could not see are not named"
    )
    reader.add_argument(
        "--spectator",
        action="store_true",
        help="the lines as a spectator reads them: no hidden card is named",
    )

    # each command module's options load with its commands only (see the imports above)
    if command in (None, *NOTE_COMMANDS):
        from tabletop.cli_notes import add_parsers as add_note_parsers

        add_note_parsers(sub)
    if command in (None, *EXPORT_COMMANDS):
        from tabletop.cli_export import add_parsers as add_export_parsers

        add_export_parsers(sub)
    if command in (None, "pbem"):  # play by email's code loads for its command only (cli.py)
        from tabletop.cli_pbem import add_parsers as add_pbem_parsers

        add_pbem_parsers(sub)
    if command in (None, *RECORD_COMMANDS):
        from tabletop.cli_record import add_parsers as add_record_parsers

        add_record_parsers(sub)
    if command in (None, "sessions"):  # as pbem's
        from tabletop.cli_sessions import add_parsers as add_sessions_parsers

        add_sessions_parsers(sub)
    if command in (None, *REPORT_COMMANDS):
        from tabletop.cli_report import add_parsers as add_report_parsers

        add_report_parsers(sub)
    if command in (None, *FAIR_COMMANDS):
        from tabletop.cli_fair import add_parsers as add_fair_parsers

        add_fair_parsers(sub)
    if command in (None, *ONLINE_COMMANDS):
        from tabletop.online.commands import add_parsers as add_online_parsers

        add_online_parsers(sub)

    p = sub.add_parser("replay", help="write a new log that ends at entry N (a branch)")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--to", type=int, required=True, help="the last entry to keep")
    p.add_argument("-o", "--output", required=True, help="the new log; never overwritten")
    p.add_argument("--notes", help="notes for the branch (the original's are kept otherwise)")

    p = sub.add_parser("play", help="open the table window")
    p.add_argument(
        "target", nargs="?", help="a module id or folder (a new game), or a game log to open"
    )
    p.add_argument(
        "--screenshot", metavar="PNG", help="open, grab the window into this PNG, and quit"
    )
    p.add_argument(
        "--size",
        metavar="WxH",
        help="the window's size for --screenshot, e.g. 1366x768 (1600x1000 unless given)",
    )
    p.add_argument("--seed", type=int, help="the seed of a new game")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SEAT=BOT",
        help="give a seat to one of the module's bots, e.g. --bot yellow=greedy (repeatable)",
    )

    p = sub.add_parser("render", help="draw a game's table into a PNG, SVG or PDF snapshot")
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="the snapshot: .png, .svg or .pdf (the name says which); never overwritten",
    )
    p.add_argument("--at", type=int, help="draw the table as it was after entry N")
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="pixels (or points) per scene unit; 1 is 4 to the millimetre (default 1)",
    )
    p.add_argument("--caption", help="a title above the table")
    p.add_argument(
        "--log",
        type=int,
        default=8,
        metavar="N",
        help="the last N log entries under the table (default 8, 0 for none)",
    )
    p.add_argument(
        "--seat", help="draw what this seat sees (its own hand too); a spectator's view otherwise"
    )
    part = p.add_mutually_exclusive_group()
    part.add_argument(
        "--region",
        metavar="PLACE[,PLACE...]",
        help="draw only these places (or seats' areas) and their pieces, e.g. --region market,hand_red",
    )
    part.add_argument(
        "--crop",
        metavar="X,Y,W,H",
        help="draw only this part of the table, in the units of a whole-table snapshot at "
        "scale 1 (pixels from its top left, bands left out)",
    )

    p = sub.add_parser(
        "deck", help="revisions of a module's deck: list them, import one, compare two"
    )
    deck_sub = p.add_subparsers(dest="deck_command", metavar="ACTION", parser_class=_Parser)
    deck_sub.required = True
    q = deck_sub.add_parser("list", help="the revisions of a module's deck")
    q.add_argument("module", help="a module id or folder")
    q = deck_sub.add_parser("import", help="check a CSV row by row and add it as a revision")
    q.add_argument("file", help="the CSV (the deck's columns)")
    q.add_argument("--name", required=True, help="the revision's name")
    q.add_argument(
        "--module", help="the module, an id or folder (default: the one 'tabletop play' opens)"
    )

    q = deck_sub.add_parser(
        "diff", help="what changed between two revisions: per card, each value that differs"
    )
    q.add_argument("a", help="a revision (as 'deck list' names it, or MODULE:REVISION) or a CSV")
    q.add_argument("b", help="the revision or CSV to compare it with")
    q.add_argument(
        "--module", help="the module, an id or folder (default: the one 'tabletop play' opens)"
    )
    q.add_argument("--json", action="store_true", help="the differences as JSON")

    # A procedure's options depend on the game in FILE: rules_assist/cli.py builds them once
    # it has read FILE's header (so only this line is parsed here).
    p = sub.add_parser(
        "run",
        help="run a procedure of a game on a game file: 'tabletop run FILE PROCEDURE [options] -o OUT'"
        " ('tabletop run FILE --list' lists them; 'tabletop MODULE PROCEDURE FILE ...' is the same)",
        add_help=False,
    )
    p.add_argument("procedure_args", nargs=argparse.REMAINDER)

    p = sub.add_parser("procedures", help="a module's procedures: sections, phases, options")
    p.add_argument("module", help="a module id or folder")

    p = sub.add_parser(
        "rules", help="the rules a module's assistant checks, by section, and where it checks them"
    )
    p.add_argument("module", help="a module id or folder")
    p.add_argument("--json", action="store_true", help="print a JSON list, a rule an item")

    p = sub.add_parser("score", help="each seat's score as the game reads it, projected or final")
    p.add_argument("file", help="a game log")
    p.add_argument("--seat", help="as this seat may read it: nothing hidden from it is named")
    p.add_argument("--json", action="store_true", help="print one JSON object, by seat")

    p = sub.add_parser("simulate", help="bots play whole games of a module; wins and mean scores")
    p.add_argument("module", help="a module with a turn flow and bots")
    p.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed; then +1 a game")
    p.add_argument("--variant", default="standard", help="the variant (default standard)")
    p.add_argument("--deck", help="the deck revision to play with")
    p.add_argument(
        "--bots",
        default="random",
        help="one bot a seat in seating order, e.g. random,greedy,random; one name: every seat"
        " of the module's usual number",
    )
    p.add_argument(
        "--json", action="store_true", help="print one JSON object (the summary, with every game)"
    )
    p.add_argument("--save-logs", metavar="DIR", help="write every game's log into this folder")
    p.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes playing the games (default: one a core); the results are the"
        " same for any N",
    )
    p.add_argument(
        "--summary",
        metavar="FILE.json",
        help="write the summary (every game's row, win rates with 95%% intervals) into this"
        " file; never overwritten",
    )

    p = sub.add_parser(
        "modules", help="the game modules there are, with their variants and setup options"
    )
    p.add_argument("module", nargs="?", help="one module: each variant and setup option in full")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("bench", help="measure the table engine on this machine")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-window", action="store_true", help="only the table engine, not the window")
    p.add_argument(
        "--sim-games",
        type=int,
        default=10_000,
        metavar="N",
        help="games played for sim_10k_games_s (default 10000; fewer are timed and scaled to"
        " 10,000, which the figures say; 0 leaves it out)",
    )
    return parser
