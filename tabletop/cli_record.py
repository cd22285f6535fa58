"""The command line's session record: ``tabletop session`` prints it, ``tabletop form`` fills a
player's end-of-session form, and ``tabletop new --tester --where`` starts it.

The record lives in the game's log ('record' entries, tabletop/core/record.py; read whole by
tabletop/persist/record.py). ``form`` writes the game whole or not at all
(``Game.continued``): to ``-o OUT``, or back over FILE in one rename. A finished game whose
result is not in its log yet gets it in the same write.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tabletop.cli_games import CliError, check_output, game_of_saved, open_game
from tabletop.core import RATINGS, CommandError, Record
from tabletop.core.record import RATING_WORDS
from tabletop.modules.results import game_result, record_result
from tabletop.persist import Game
from tabletop.persist.record import IDLE_SECONDS, record_lines, session_record


def pairs(items: list[str], option: str) -> dict[str, str]:
    """SEAT=NAME pairs; CliError naming a malformed one."""
    found: dict[str, str] = {}
    for item in items:
        seat, sep, name = item.partition("=")
        if not sep or not seat.strip() or not name.strip():
            raise CliError(f"{option} {item!r}: write it as SEAT=NAME, e.g. {option} red=Ann")
        found[seat.strip()] = name.strip()
    return found


def named_seats(seats: str | None) -> dict[str, str]:
    """The players' names given with ``--seats red=Ann,green=Bo`` (testers too)."""
    if not seats or "=" not in seats:
        return {}
    return pairs([s for s in seats.split(",") if "=" in s], "--seats")


def session_start(testers: dict[str, str], where: str) -> dict[str, Any] | None:
    """The session record's start a new game's header keeps: testers and place, if given."""
    start: dict[str, Any] = {}
    if testers:
        start["testers"] = testers
    if where.strip():
        start["where"] = where.strip()
    return start or None


def _record_of(path: str, idle_minutes: float) -> dict[str, Any]:
    if not idle_minutes > 0:
        raise CliError(f"--idle must be a number of minutes above 0, not {idle_minutes}")
    game = open_game(path)
    result, why = None, ""
    if game.table.session_parts().result is None:
        rules = game_of_saved(game)
        result, why = game_result(rules, game.table.state)
        if rules is None:
            why = "the game's module cannot be loaded, so its scoring cannot be read: no result"
    return session_record(game, idle=idle_minutes * 60, result=result, no_result=why)


def cmd_session(args: argparse.Namespace) -> int:
    """The session record of a game: testers, revision, rules, where, when, time, result, forms."""
    record = _record_of(args.file, args.idle)
    if args.json:
        print(json.dumps(record, ensure_ascii=False, indent=2))
        return 0
    print(f"{args.file}: session record")
    for line in record_lines(record):
        print(line)
    return 0


def cmd_form(args: argparse.Namespace) -> int:
    """Fill (or fill again) a player's end-of-session form in a game's log."""
    output = args.output or args.file
    if args.output is not None:
        check_output(args.output)
    saved = open_game(args.file)
    seats = [s.id for s in saved.header.seats]
    if args.seat not in seats:
        raise CliError(f"--seat {args.seat!r}: there is no such seat ({', '.join(seats)})")
    data: dict[str, Any] = {"seat": args.seat}
    for key in RATINGS:
        value = getattr(args, key)
        if value is None:
            continue
        if not 1 <= value <= 5:
            raise CliError(f"--{key} {value}: rate {RATING_WORDS[key]} from 1 to 5")
        data[key] = value
    if args.text is not None:
        data["text"] = args.text
    if len(data) == 1:
        raise CliError("a form needs at least one of --fun, --length, --clarity or --text")
    rules = game_of_saved(saved)
    saved.close()
    try:
        with Game.continued(args.file, output, replace=args.output is None, writable=True) as copy:
            ended = record_result(copy.table, rules)
            entry = copy.table.record(Record("form", data), args.seat).entry
    except CommandError as exc:
        raise CliError(f"{args.file}: {exc} (nothing was written)") from None
    print(f"{output}: entry {entry.seq}: {entry.command.describe()}")
    if ended:
        print(f"{output}: the game is over: its result is now in the session record too")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """The options of ``session`` and ``form``."""
    p = sub.add_parser(
        "session",
        help="a game's session record: testers, revision, rules, where, when, playing time,"
        " result, forms",
        description="A game's session record, read from its log: the testers and their seats,"
        " the revision (module version, deck file and sha256), the variant, the rules'"
        " policy and its switches, where and when, the playing time without pauses, the"
        " result from the game's scoring and the players' forms.",
    )
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--idle",
        type=float,
        default=IDLE_SECONDS / 60,
        metavar="MIN",
        help="entries made outside the window count the time since the one before, up to"
        " MIN minutes (default 5)",
    )

    p = sub.add_parser(
        "form",
        help="fill a player's end-of-session form in a game's log",
        description="Fill a player's end-of-session form: ratings from 1 to 5 and free text. A"
        " later form of the same seat replaces it; the log keeps every version. The game is"
        " written whole or not at all: to -o OUT, or back over FILE.",
    )
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("--seat", required=True, help="the seat whose player fills it")
    for key in RATINGS:
        p.add_argument(f"--{key}", type=int, metavar="1-5", help=RATING_WORDS[key])
    p.add_argument("--text", help="what the player has to say")
    p.add_argument("-o", "--output", help="write the game with the form here (never overwritten)")
