"""The command line of live games: ``tabletop host`` (the referee; with ``--new MODULE
--fair -o FILE`` it first publishes the commitment to its secret seed, gathers the seats'
contributions and only then sets the game up, tabletop/online/fairstart.py) and ``tabletop
join`` with --bot (a seat played by a bot on this machine; the window,
tabletop/ui/online_session.py, joins without it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

# Redis's client library is imported by the commands that talk to a server, not here: this
# module's parsers are built for every run of ``tabletop``, and importing redis costs more
# start-up than the window's own table (redis-py loads its asyncio and cluster clients).


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "host",
        help="referee a game live on Redis: prints each seat's join address",
        description="Hold the whole game and be the only writer of its log; players join with"
        " the printed addresses (tabletop join). The game file stays the full log.",
    )
    p.add_argument(
        "file", nargs="?", help="the game's log (.jsonl), e.g. from `tabletop new` (or use --new)"
    )
    p.add_argument("--redis", required=True, help="redis://referee:PASSWORD@HOST:PORT")
    p.add_argument(
        "--reveal",
        action="store_true",
        help="reveal the secret seed of a --fair game when it ends (as `tabletop reveal`)",
    )
    g = p.add_argument_group(
        "a new game with committed dice and shuffles, set up once every seat has contributed"
        " (as `tabletop new MODULE --fair`)"
    )
    g.add_argument("--new", metavar="MODULE", help="set a new game of this module up (with --fair)")
    g.add_argument("-o", "--output", help="the new game's log file (.jsonl); never overwritten")
    g.add_argument(
        "--fair",
        action="store_true",
        help="commit the dice and shuffles: the seed's hash is published first, then each seat"
        " sends its contribution from its own machine",
    )
    g.add_argument("--seats", help="how many players, or which seats: '3', 'red,green'")
    g.add_argument("--variant", default="", help="a variant of the module")
    g.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setup choice of the module (see 'tabletop modules MODULE')",
    )
    g.add_argument("--game-seed", type=int, help="the game's plain seed (random if left out)")
    g.add_argument("--notes", default="", help="free text kept in the log")
    g.add_argument(
        "--rules",
        choices=("off", "advisory", "strict"),
        default="advisory",
        help="how the rules assistant enforces (default advisory)",
    )
    p.add_argument("--name", help="the game's name on the server (letters, digits, - and _)")
    p.add_argument("--bots", default="", help="seats the referee's bots play: SEAT,SEAT")
    p.add_argument("--bot", dest="bot_name", help="which of the game's bots (its first by default)")
    p.add_argument("--seed", type=int, default=0, help="the referee's bots' seed")
    p.add_argument(
        "--keep", action="store_true", help="go on serving after the game is over (Ctrl-C stops)"
    )

    p = sub.add_parser(
        "join",
        help="take a seat of a live game with its join address",
        description="Join a game hosted with `tabletop host`: the window shows the seat's view"
        " and sends its moves to the referee; with --bot the game's bot plays the seat here.",
    )
    p.add_argument("address", help="the seat's join address (redis://USER:PASSWORD@HOST:PORT/?...)")
    p.add_argument("--bot", action="store_true", help="let the game's bot play the seat")
    p.add_argument("--bot-name", default="random", help="which of the game's bots")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=3600.0, help="give up after this many s")


def _setup_of(args: argparse.Namespace) -> dict[str, Any] | None:
    """The new game's options given with --new (None without it)."""
    from .fairstart import setup_record
    from .streams import OnlineError

    if args.new is None:
        for option in ("output", "fair", "seats", "game_seed"):
            if getattr(args, option):
                flag = "--" + option.replace("_", "-")
                raise OnlineError(f"{flag} is for a new game (--new MODULE)")
        if args.file is None:
            raise OnlineError("name the game's file, or set a new one up with --new MODULE")
        return None
    if args.file is not None:
        raise OnlineError("--new writes the game to -o FILE: give no other file")
    if args.output is None:
        raise OnlineError("--new needs -o FILE, the new game's log")
    if not args.fair:
        raise OnlineError(
            "--new sets up a game with committed dice and shuffles (--fair); make any other"
            " game with `tabletop new` and host its file"
        )
    options: dict[str, str] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise OnlineError(f"--option {item!r}: write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    return setup_record(
        args.new, args.seats, args.variant, args.game_seed, options, args.rules, args.notes
    )


def _print_addresses(
    name: str, path: str, addresses: dict[str | None, Any], bots: list[str], where: str = ""
) -> None:
    print(f"game {name} ({path}){where}; join addresses:")
    for viewer, address in addresses.items():
        if viewer not in bots:
            print(f"  {viewer or 'spectator'}: {address}")
    sys.stdout.flush()


def _fair_start(args: argparse.Namespace, path: str, bots: list[str]) -> bool:
    """A game still to be set up once the seats' contributions are in (--new, or a start
    waiting in the bookkeeping): publish the commitment, gather them, set the game up; True
    when the join addresses were printed."""
    from .fairstart import FairStart, waiting_start
    from .streams import OnlineError

    setup = _setup_of(args)
    exists = Path(path).exists()
    if setup is not None and exists and not waiting_start(path):
        raise OnlineError(f"{path}: already exists; choose another name (nothing was changed)")
    if exists or (setup is None and not waiting_start(path)):
        return False  # a game already set up: hosted as it is
    start = FairStart(path, args.redis, args.name, setup, bots)
    try:
        _print_addresses(start.name, path, start.open_seats(), bots)
        print(f"Dice and shuffles committed: {start.commitment}")
        print("waiting for every seat's contribution ...")
        sys.stdout.flush()
        start.run()
        start.set_up()
        print(f"every seat has contributed: {path} is set up")
    finally:
        start.close()
    return True


def cmd_host(args: argparse.Namespace) -> int:
    import redis

    from .referee import Referee
    from .streams import OnlineError

    bots = [s for s in args.bots.split(",") if s]
    path = args.output if args.new is not None else args.file
    try:
        printed = _fair_start(args, path, bots)
        referee = Referee(
            path, args.redis, args.name, bots, args.bot_name, args.seed, reveal=args.reveal
        )
        try:
            addresses = referee.open_seats()
            if not printed:
                where = ""
                if referee.slot is not None:  # a cluster: the node that owns the game's slot
                    where = f", slot {referee.slot} on the node {referee.host}:{referee.port}"
                _print_addresses(referee.name, path, addresses, list(referee.bots), where)
            referee.run(stop_when_over=not args.keep)
            print(f"game {referee.name}: over after {len(referee.table.entries)} entries")
            if referee.reveal and referee.revealed() is not None:
                print(f"the seed is revealed (entry {referee.revealed()}): tabletop verify {path}")
        finally:
            referee.close()
    except redis.exceptions.RedisError as exc:
        raise OnlineError(f"{args.redis.rsplit('@', 1)[-1]}: {exc}") from None
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    import redis

    from .client import BotClient
    from .streams import OnlineError

    if not args.bot:
        raise OnlineError("the window joins a live game through `tabletop join` (tabletop/cli.py)")
    try:
        client = BotClient(args.address, args.bot_name, args.seed)
        try:
            client.play(timeout=args.timeout)
            print(f"{client.seat}: the game is over after entry {client.seq}")
            for problem in client.problems:
                print(f"  resynchronised: {problem}")
        finally:
            client.close()
    except redis.exceptions.RedisError as exc:
        raise OnlineError(f"cannot play on: {exc}") from None
    return 0


COMMANDS = {"host": cmd_host, "join": cmd_join}
