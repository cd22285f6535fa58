"""The command line's seat copies: ``tabletop export FILE --for SEAT -o OUT`` (or
``--spectator``) writes the game as that seat saw it (tabletop/persist/seatview.py), a file
to send to that player: no card it could not see, no deck's order, no seed. The copy opens
read-only (``tabletop log``, ``inspect``, ``render``, ``play``); moves are made on the full
game."""

from __future__ import annotations

import argparse

from tabletop.cli_games import CliError, check_output, game_module, open_game
from tabletop.modules import ModuleError
from tabletop.modules.backs import piece_backs
from tabletop.modules.words import piece_words
from tabletop.persist.seatview import export, seat_view_of


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="a seat's copy of a game: only what that seat may see, to send to its player",
        description="Write the game as one seat (or a spectator) saw it, entry by entry: a card"
        " it could not see is an anonymous back, a shuffled deck's order is not written, the"
        " seed is left out. The copy opens read-only.",
    )
    p.add_argument("file", help="a game log (.jsonl): the full game")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--for", dest="seat", metavar="SEAT", help="the seat whose copy it is")
    who.add_argument("--spectator", action="store_true", help="a spectator's copy")
    p.add_argument("-o", "--output", required=True, help="the copy (.jsonl); never overwritten")


def cmd_export(args: argparse.Namespace) -> int:
    check_output(args.output)
    game = open_game(args.file)
    try:
        if seat_view_of(game.header)[0]:
            raise CliError(f"{args.file}: this is already a seat's copy; export the full game")
        seats = {s.id: s.name for s in game.header.seats}
        if args.seat is not None and args.seat not in seats:
            raise CliError(
                f"{args.file}: there is no seat {args.seat!r} (seats: {', '.join(seats)})"
            )
        try:
            module = game_module(game)
        except ModuleError as exc:  # without the cards' names a label could name a hidden card
            raise CliError(
                f"{args.file}: cannot write a seat's copy without the game's module: {exc}"
            ) from None
        count = export(
            game.table,
            game.header,
            args.seat,
            args.output,
            piece_words(module),
            piece_backs(module),
        )
    finally:
        game.close()
    who = f"{seats[args.seat]}'s copy" if args.seat is not None else "a spectator's copy"
    print(f"{args.output}: {who} of {args.file}, {count} entries (read-only)")
    return 0
