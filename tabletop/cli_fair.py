"""The command line's committed dice and shuffles (docs/fairness.md): ``tabletop new --fair``
makes a game whose referee commits to a secret seed, ``tabletop contribute`` adds a seat's
contribution, ``tabletop reveal`` publishes the seed, and ``tabletop verify`` re-derives every
roll and shuffle of a game from it.

``contribute`` and ``reveal`` write the game whole or not at all (``Game.continued``): to
``-o OUT``, or back over FILE in one rename.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletop.cli_games import CliError, check_output, open_game
from tabletop.cli_record import pairs
from tabletop.core import CommandError
from tabletop.core.actors import actor_label
from tabletop.core.randomness import (
    CONTRIBUTION_BYTES,
    CommittedDerivation,
    Contribute,
    ContributionsMissing,
    Reveal,
    SecretSeed,
    draw_contribution,
)
from tabletop.persist import Game
from tabletop.persist.fairness import UNDECIDED, verify_log
from tabletop.persist.logfile import LogError

REFEREE = "referee"  # who writes the reveal (and makes a committed game)


def add_new_options(p: argparse.ArgumentParser) -> None:
    """``tabletop new``'s options for committed dice and shuffles."""
    p.add_argument(
        "--fair",
        action="store_true",
        help="commit the dice and shuffles: a secret seed, published as a hash, with every"
        " seat's contribution (see 'tabletop verify')",
    )
    p.add_argument(
        "--contribution",
        action="append",
        default=[],
        metavar="SEAT=HEX",
        help="a seat's random contribution to a --fair game (16 to 64 bytes in hex; 'random'"
        " draws one here); repeatable",
    )


def new_game_options(args: argparse.Namespace) -> dict[str, Any]:
    """What ``tabletop new`` passes to new_game for committed dice and shuffles."""
    if not args.fair:
        if args.contribution:
            raise CliError("--contribution is for a game made with --fair")
        return {}
    contributions = {
        seat: draw_contribution() if value.lower() == "random" else value.lower()
        for seat, value in pairs(args.contribution, "--contribution").items()
    }
    return {"committed": SecretSeed.draw(), "contributions": contributions}


def new_game_hint(exc: Exception) -> str:
    """The refusal of a --fair game whose setup would draw before every seat contributed, with
    what to do."""
    text = str(exc)
    if isinstance(exc, ContributionsMissing):
        text += (
            "; this game's setup shuffles or rolls, so give every seat's contribution when it is"
            " made: --contribution SEAT=HEX (or SEAT=random)"
        )
    return text


def _continued(args: argparse.Namespace, command: Any, actor: str) -> int:
    output = args.output or args.file
    if args.output is not None:
        check_output(args.output)
    saved = open_game(args.file)
    names = {s.id: s.name for s in saved.header.seats}
    saved.close()
    try:
        with Game.continued(args.file, output, replace=args.output is None, writable=True) as copy:
            entry = copy.table.chance(command, actor).entry
    except CommandError as exc:
        raise CliError(f"{args.file}: {exc} (nothing was written)") from None
    print(f"{output}: entry {entry.seq}: {actor_label(actor, names)}: {entry.command.describe()}")
    return 0


def cmd_contribute(args: argparse.Namespace) -> int:
    """Add a seat's contribution (given, or drawn here) to a committed game."""
    contribution = (args.hex or draw_contribution()).lower()
    return _continued(args, Contribute(args.seat, contribution), args.seat)


def cmd_reveal(args: argparse.Namespace) -> int:
    """Publish the referee's secret seed: from here on the game can be verified, and it makes no
    more draws."""
    game = open_game(args.file)
    game.close()
    derivation = game.table.random.derivation
    if not isinstance(derivation, CommittedDerivation):
        raise CliError(f"{args.file}: this game's dice and shuffles are not committed (no --fair)")
    if derivation.revealed_at is not None:
        raise CliError(
            f"{args.file}: the seed was revealed already (entry {derivation.revealed_at})"
        )
    if derivation.secret is None:
        raise CliError(f"{args.file}: this copy does not hold the secret seed; the referee's does")
    return _continued(args, Reveal(derivation.secret.hex()), REFEREE)


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-derive every roll and shuffle of each game from its revealed seed: 0 if all are fair,
    1 if one is not, 2 if one cannot be read or decided."""
    worst = 0
    for path in args.files:
        try:
            verdict = verify_log(path)
        except LogError as exc:
            print(f"{path}: cannot be verified: {exc}", file=sys.stderr)
            worst = max(worst, UNDECIDED)
            continue
        stream = sys.stdout if verdict.status != UNDECIDED else sys.stderr
        print(f"{path}: {verdict.message}", file=stream)
        worst = max(worst, verdict.status)
    return worst


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """The options of ``contribute``, ``reveal`` and ``verify``."""
    p = sub.add_parser(
        "contribute",
        help="add a seat's random contribution to a game with committed dice (--fair)",
        description="Add a seat's random contribution to a game made with --fair. Every seat"
        " contributes once, before the first roll or shuffle; the outcomes derive from the"
        " referee's secret seed and all the contributions. The game is written whole or not at"
        " all: to -o OUT, or back over FILE.",
    )
    p.add_argument("file", help="a game log (.jsonl)")
    p.add_argument("seat", help="the seat contributing")
    p.add_argument(
        "hex",
        nargs="?",
        help=f"the contribution, 16 to 64 bytes in hex (default: {CONTRIBUTION_BYTES} random"
        " bytes drawn here)",
    )
    p.add_argument("-o", "--output", help="write the game here (never overwritten)")

    p = sub.add_parser(
        "reveal",
        help="publish the secret seed of a game with committed dice (no more rolls after it)",
        description="Publish the referee's secret seed of a game made with --fair, as an entry"
        " of its log: anyone can then re-derive its rolls and shuffles ('tabletop verify'), and"
        " it makes no more. The game is written whole or not at all: to -o OUT, or back over"
        " FILE.",
    )
    p.add_argument("file", help="the referee's game log (.jsonl)")
    p.add_argument("-o", "--output", help="write the game here (never overwritten)")

    p = sub.add_parser(
        "verify",
        help="re-derive every roll and shuffle of a game with committed dice from its seed",
        description="Check that the revealed seed of each game matches the commitment made at"
        " its start and re-derive every roll and shuffle, in log order. Says 'fair' with the"
        " number re-derived, or names the first entry that does not match. Exit status: 0 all"
        " fair, 1 one is not, 2 one cannot be read or its seed is not revealed yet.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="game logs (.jsonl)")


COMMANDS = {"contribute": cmd_contribute, "reveal": cmd_reveal, "verify": cmd_verify}
