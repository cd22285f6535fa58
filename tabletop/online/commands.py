"""The command line of live games: ``tabletop host`` (the referee) and ``tabletop join``
with --bot (a seat played by a bot on this machine; the window, tabletop/ui/online_session.py,
joins without it)."""

from __future__ import annotations

import argparse
import sys

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
    p.add_argument("file", help="the game's log (.jsonl), e.g. from `tabletop new`")
    p.add_argument("--redis", required=True, help="redis://referee:PASSWORD@HOST:PORT")
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


def cmd_host(args: argparse.Namespace) -> int:
    import redis

    from .referee import Referee
    from .streams import OnlineError

    bots = [s for s in args.bots.split(",") if s]
    try:
        referee = Referee(args.file, args.redis, args.name, bots, args.bot_name, args.seed)
        try:
            addresses = referee.open_seats()
            where = ""
            if referee.slot is not None:  # a cluster: the node that owns the game's slot
                where = f", slot {referee.slot} on the node {referee.host}:{referee.port}"
            print(f"game {referee.name} ({args.file}){where}; join addresses:")
            for viewer, address in addresses.items():
                if viewer not in referee.bots:
                    print(f"  {viewer or 'spectator'}: {address}")
            sys.stdout.flush()
            referee.run(stop_when_over=not args.keep)
            print(f"game {referee.name}: over after {len(referee.table.entries)} entries")
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
