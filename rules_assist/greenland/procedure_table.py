"""Greenland's procedures, listed once: name, function, section, phases, help, log name and
the options each takes.

The command line is built from this table alone (rules_assist/cli.py: ``tabletop
run FILE NAME``, ``tabletop greenland NAME FILE``, ``tabletop procedures
greenland``): each ``Parameter`` is an option, either passed to the procedure
(a card's name, turned into its piece id by ``GreenlandGame.prepare``) or
answering one of its questions (``--reroll 4`` the hunt's 'reroll', ``--bid
red=1`` the auction's 'bid_red'). The turn flow
(flow.py) offers them as actions by these names; the game's ``run`` (``Game.run``)
runs them, refusing one outside its phases. The log records each under its
``log_name`` ('greenland.hunt', 'greenland.elder.banish').

The elder actions (I1–I7) are one procedure, ``elder``, whose ``action``
parameter names the action ('banish', 'witch-burn', ...), as on the command
line; each is logged under the action's own name (``spec_for``, which
``GreenlandGame.recorded_as`` reads).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from ..game import Parameter, ProcedureSpec, ProcedureTable
from ..procedures import ProcedureContext, ProcedureError
from .deck import Cards

EVENT = ("event",)
NEGOTIATION = ("negotiation",)
IN_TURN = ("assignment", "negotiation", "elders")  # the phases played one culture after another


# The hunt's yes/no answers (G): the option that answers yes, its spelling for no, what yes means.
HUNT_FLAGS = tuple(
    Parameter(key, text, kind="flag", answers=key, negative=no)
    for key, no, text in (
        ("alpha", "--no-alpha", "the Alpha takes his automatic 1 (E7)"),
        ("modify", "--no-modify", "dice an invention names count as 1s (G3)"),
        ("take_trophy", "--no-trophy", "take the card as a trophy (G5)"),
        ("take_card", "--no-card", "take the card into the hand (G6)"),
        ("pay_iron", "--no-iron", "pay an iron to cancel the losses (F4)"),
        (
            "hunt_replacement",
            "--no-replacement",
            "the others hunt the card that replaces a card taken into a hand (G7)",
        ),
    )
)


# The elder actions that kill or take another's cube: banishment (I2), witch-burning (I3),
# proselytizing (I6, a convert changes sides).
KILLING_ACTIONS = frozenset({"banish", "witch-burn", "proselytize"})


def elder(
    ctx: ProcedureContext,
    colour: str,
    action: str,
    target: str | None = None,
    cards: Cards | None = None,
) -> str:
    """One elder action (I1–I7) of ``colour``: ``action`` names it as the command line does."""
    from .elders import PROCEDURES

    procedure = PROCEDURES.get(action)
    if procedure is None:
        raise ProcedureError(f"no elder action {action!r}: {', '.join(PROCEDURES)}")
    if target is not None:
        if action not in ("emissary", "proselytize"):
            raise ProcedureError(f"the {action} action (I) names no other culture")
        return str(procedure(ctx, colour, target=target, cards=cards))
    return str(procedure(ctx, colour, cards=cards))


def elder_action_name(procedure: Callable[..., Any]) -> str:
    """The ``action`` that names an elder procedure (elders.PROCEDURES), e.g. 'witch-burn'."""
    from .elders import PROCEDURES

    return next(name for name, p in PROCEDURES.items() if p is procedure)


def spec_for(spec: ProcedureSpec, params: Mapping[str, Any]) -> ProcedureSpec:
    """The spec as a run records it: an elder action under its own name
    ('greenland.elder.witch_burn')."""
    if spec.function is not elder:
        return spec
    from .elders import PROCEDURES

    procedure = PROCEDURES.get(str(params.get("action")))
    if procedure is None:
        return spec
    return dataclasses.replace(spec, log_name=f"greenland.elder.{procedure.__name__}")


CARD_PARAMETERS = ("card", "daughter", "cube_or_card")  # the parameters that name a card


@cache
def arguments_of(function: Callable[..., Any]) -> tuple[tuple[str, ...], bool]:
    """What ``GreenlandGame.prepare`` fills in for a procedure, read once: the parameters it takes
    that name a card (``CARD_PARAMETERS``), and whether it takes the deck rows (``cards``)."""
    taken = inspect.signature(function).parameters
    return tuple(key for key in CARD_PARAMETERS if key in taken), "cards" in taken


def procedure_table() -> ProcedureTable:
    """Every procedure of Greenland, in the order the command line lists them, with the options
    each takes (``Parameter``: rules_assist/game.py)."""
    from .animals import feed_animals
    from .elders import ACTIONS
    from .events import ROWS, auction, cool, decimate, die_off, event_phase, migrate, resolve_event
    from .hands import discard_down, exchange
    from .hunt import hunt_card
    from .negotiation import (
        agree_peace,
        attack,
        divorce,
        leave,
        marry,
        pacify,
        resolve_new_world,
    )
    from .placing import RANKS, assign, promote
    from .solitaire import solitaire_swap
    from .trade import trade
    from .turn import finish, next_phase

    def spec(
        name: str,
        function: Callable[..., str],
        section: str,
        phases: tuple[str, ...],
        text: str,
        *parameters: Parameter,
        log: str = "",
        example: str = "",
        destructive: bool | Callable[[Mapping[str, Any]], bool] = False,
    ) -> ProcedureSpec:
        return ProcedureSpec(
            name,
            function,
            section=section,
            phases=phases,
            help=text,
            parameters=parameters,
            log_name=f"greenland.{log or name.replace('-', '_')}",
            example=f"tabletop greenland {name} {example}" if example else "",
            destructive=destructive,
        )

    def acting(what: str = "the culture acting") -> Parameter:
        return Parameter("colour", what, kind="actor", required=True)

    def card(what: str, name: str = "card", required: bool = True) -> Parameter:
        return Parameter(name, what, kind="card", required=required)

    bid = Parameter(
        "bid",
        "an ivory bid for the event's import, e.g. red=2 (repeatable; a culture left out bids 0)",
        kind="list",
        pairs=True,
        answers="bid_{key}",
        keys="seat",
        default="0",
        metavar="COLOUR=N",
    )

    return ProcedureTable(
        [
            spec(
                "event",
                event_phase,
                "D",
                EVENT,
                "reveal the event and apply it (D): first player, icons, auction",
                bid,
                example="game.jsonl --choice council=yellow --bid yellow=1 --bid red=0"
                " --choice snowflake_yellow=energy=1 --choice snowflake_red=energy=1"
                " --choice snowflake_red_2=energy=1 -o turn1.jsonl",
            ),
            spec(
                "resolve-event",
                resolve_event,
                "D",
                EVENT,
                "apply the revealed event's icons left to right, then its auction (D)",
                bid,
            ),
            spec(
                "migrate",
                migrate,
                "D1",
                EVENT,
                "a migration (D1)",
                Parameter(
                    "row", "the row that migrates", required=True, choices=ROWS, metavar="ROW"
                ),
                example="game.jsonl --row south -o out.jsonl",
            ),
            spec(
                "decimate",
                decimate,
                "D2",
                EVENT,
                "a decimation (D2)",
                Parameter(
                    "cause",
                    "who is struck: crowd:10, venereal:green or feud",
                    required=True,
                    metavar="CAUSE",
                ),
                example="game.jsonl --cause crowd:10 --choice elder_red=3 -o out.jsonl",
            ),
            spec("cool", cool, "D4", EVENT, "global cooling (D4)"),
            spec("die-off", die_off, "D5", EVENT, "elder die-off (D5): a die for each culture"),
            spec(
                "auction",
                auction,
                "D10",
                EVENT,
                "auction the current event's import (D10)",
                bid,
                example="game.jsonl --bid red=1 --bid yellow=1 -o out.jsonl",
            ),
            spec(
                "finish",
                finish,
                "A2",
                IN_TURN,
                "a culture has done what it does in this phase; the next in order acts (A2, A3, A5)",
                acting("the culture that has done"),
            ),
            spec(
                "assign",
                assign,
                "E",
                ("assignment",),
                "unassigned hunters onto a card's hunting area, checked as a hand move (E1, E2, E5)",
                acting("the culture whose hunters go"),
                card("the card, e.g. Walrus (a biome, a New World card, a tableau card to raid)"),
                Parameter("count", "how many hunters (default 1; the Alpha last)", kind="int"),
                Parameter("cube", "the hunter that goes, e.g. alpha-red", metavar="CUBE"),
                example="game.jsonl --seat red --card Walrus --count 2 -o out.jsonl",
            ),
            spec(
                "promote",
                promote,
                "E3",
                ("assignment",),
                "an unassigned hunter becomes an elder of a rank, paying 1 energy (E3)",
                acting("the culture whose hunter is promoted"),
                Parameter("rank", "the elder's rank", required=True, choices=RANKS, metavar="RANK"),
                Parameter("cube", "the hunter promoted, e.g. cube-red-2", metavar="CUBE"),
                example="game.jsonl --seat red --rank 6 -o out.jsonl",
            ),
            spec(
                "attack",
                attack,
                "F2",
                NEGOTIATION,
                "one round of attacks on a card (F2)",
                acting("the attacker"),
                card("the card attacked on, e.g. Walrus"),
                example="game.jsonl --seat yellow --card Birgitta --dice 5,6,1 --choice reroll=6"
                " -o out.jsonl",
                destructive=True,  # F2: cubes die on both sides
            ),
            spec(
                "peace",
                agree_peace,
                "A3",
                NEGOTIATION,
                "everyone on a card agrees peace this turn (A3)",
                acting("the culture that proposes it"),
                card("the card, e.g. Shark"),
                example="game.jsonl --seat green --card Shark --choice consent_red=yes"
                " -o out.jsonl",
            ),
            spec(
                "leave",
                leave,
                "F",
                NEGOTIATION,
                "hunters leave a card with everyone's consent (F)",
                acting("the culture whose hunters leave"),
                card("the card they leave"),
                Parameter("count", "how many leave (default: all)", kind="int"),
                card("one of them marries this daughter (F1)", "daughter", required=False),
            ),
            spec(
                "marry",
                marry,
                "F1",
                NEGOTIATION,
                "a hunter marries a foreign daughter (F1)",
                acting("the culture whose hunter marries"),
                Parameter(
                    "cube_or_card",
                    "the card one of your hunters is on (--card Shark), or the cube that marries"
                    " (--cube cube-red-3)",
                    kind="card",
                    required=True,
                    option="--card",
                    aliases=("--cube",),
                ),
                card("the daughter's name", "daughter"),
            ),
            spec(
                "divorce",
                divorce,
                "F",
                NEGOTIATION,
                "a husband leaves his wife (F)",
                acting("the husband's culture"),
                card("the daughter's name", "daughter"),
            ),
            spec(
                "trade",
                trade,
                "F",
                NEGOTIATION,
                "two cultures that meet exchange disks, hand cards and tableau D and I cards,"
                " with the other's consent (F)",
                acting("the culture that proposes the trade"),
                Parameter(
                    "other",
                    "the culture traded with",
                    kind="seat",
                    required=True,
                    option="--with",
                    metavar="COLOUR",
                ),
                Parameter(
                    "give",
                    "what the proposer hands over: energy, ivory, iron (or orange, white, black;"
                    " iron=2 for two), a hand card or a D or I card of its tableau by name"
                    " (repeatable, or separated by commas)",
                    kind="list",
                    metavar="ITEM",
                ),
                Parameter(
                    "take",
                    "what the other culture hands back, written as for --give",
                    kind="list",
                    metavar="ITEM",
                ),
                example="game.jsonl --seat red --with yellow --give iron --take Dogs"
                " --choice consent_yellow=yes -o out.jsonl",
            ),
            spec(
                "new-world",
                resolve_new_world,
                "F3",
                NEGOTIATION,
                "the New World turns hostile above 6 cubes (F3)",
            ),
            spec(
                "pacify",
                pacify,
                "F3",
                NEGOTIATION,
                "an ivory turns a hostile New World card peaceful (F3)",
                acting("the culture that pays"),
                card("the New World card, e.g. Markland"),
            ),
            spec(
                "hunt",
                hunt_card,
                "G",
                ("hunt",),
                "roll the hunt on a card (G): every culture on it in hunt order (A4),"
                " or only the one --seat names",
                card("the card's name, e.g. Walrus"),
                Parameter("seat", "only this culture rolls", kind="actor"),
                Parameter(
                    "reroll",
                    "re-roll the dice showing FACE (G2); repeat for several faces, or 'none'",
                    kind="list",
                    answers="reroll",
                    metavar="FACE",
                ),
                *HUNT_FLAGS,
                Parameter(
                    "snowflake",
                    "pay bog iron's snowflake (G4), or 'none': the hunt fails",
                    choices=("energy", "elder", "none"),
                    answers="snowflake",
                    metavar="MEANS",
                ),
                Parameter(
                    "snowflake_elder",
                    "the elder who pays it, e.g. rank6",
                    answers="snowflake_elder",
                    metavar="RANK",
                ),
                example="game.jsonl --card Walrus --dice 1,2,3,4,4,6,3,1 --reroll 4 --modify"
                " --take-trophy -o hunted.jsonl",
            ),
            spec(
                "animals",
                feed_animals,
                "H",
                ("animals",),
                "the domestic animals (H): hay, then babies",
                example="game.jsonl --choice hay_cattle=energy=2 -o out.jsonl",
            ),
            spec(
                "elder",
                elder,
                "I",
                ("elders",),
                "an elder action (I1–I7) of one culture",
                acting("the culture whose elder acts"),
                Parameter(
                    "action", "the elder action", required=True, choices=ACTIONS, metavar="ACTION"
                ),
                Parameter(
                    "card",
                    "the hand card to play (I1, I4): its name or row id",
                    answers="card",
                    metavar="NAME",
                ),
                Parameter("target", "the other culture (I5, I6)", kind="seat", metavar="COLOUR"),
                example='game.jsonl --action tool-maker --seat red --card "Slit Goggles"'
                " -o out.jsonl",
                destructive=lambda params: params.get("action") in KILLING_ACTIONS,
            ),
            spec(
                "next-phase",
                next_phase,
                "A1",
                (),
                "go on to the next phase (A1)",
                example="game.jsonl -o out.jsonl",
            ),
            spec(
                "discard",
                discard_down,
                "B2",
                (),
                "discard hand cards down to the hand size (B2)",
                acting("the culture whose hand it is"),
                example='game.jsonl --seat yellow --choice "discard_yellow=Slit Goggles" -o out.jsonl',
            ),
            spec(
                "exchange",
                exchange,
                "B3",
                (),
                "exchange a tableau card for its Value (B3)",
                acting("the culture whose tableau it is"),
                card("the tableau card, e.g. Cattle"),
                example="game.jsonl --seat red --card Cattle -o out.jsonl",
            ),
            spec(
                "swap",
                solitaire_swap,
                "K",
                (),
                "solitaire: swap a disk, husband or I card (K)",
                Parameter(
                    "give", "what is given, e.g. red:iron", required=True, metavar="COLOUR:ITEM"
                ),
                Parameter(
                    "take",
                    "what is taken back, e.g. green:ivory",
                    required=True,
                    metavar="COLOUR:ITEM",
                ),
                example="game.jsonl --give red:iron --take green:ivory -o out.jsonl",
            ),
        ]
    )
