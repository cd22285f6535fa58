"""Greenland's procedures, listed once: name, function, section, phases, help and log name.

The command line names each one (``tabletop greenland NAME``); the turn flow
(flow.py) offers them as actions by these names; ``GreenlandGame.run`` runs
them, refusing one outside its phases. The log records each under its
``log_name`` ('greenland.hunt', 'greenland.elder.banish').

The elder actions (I1–I7) are one procedure, ``elder``, whose ``action``
parameter names the action ('banish', 'witch-burn', ...), as on the command
line; each is logged under the action's own name (``spec_for``).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from ..game import ProcedureSpec, ProcedureTable
from ..procedures import ProcedureContext, ProcedureError
from .deck import Cards

EVENT = ("event",)
NEGOTIATION = ("negotiation",)
IN_TURN = ("assignment", "negotiation", "elders")  # the phases played one culture after another


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


@cache
def takes_cards(function: Callable[..., Any]) -> bool:
    return "cards" in inspect.signature(function).parameters


def procedure_table() -> ProcedureTable:
    """Every procedure of Greenland, in the order the command line lists them."""
    from .animals import feed_animals
    from .events import auction, cool, decimate, die_off, event_phase, migrate, resolve_event
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
    from .sequence import finish, next_phase
    from .solitaire import solitaire_swap

    def spec(
        name: str,
        function: Callable[..., str],
        section: str,
        phases: tuple[str, ...],
        text: str,
        log: str = "",
    ) -> ProcedureSpec:
        return ProcedureSpec(
            name,
            function,
            section=section,
            phases=phases,
            help=text,
            log_name=f"greenland.{log or name.replace('-', '_')}",
        )

    return ProcedureTable(
        [
            spec("event", event_phase, "D", EVENT, "reveal the event and apply it (D)"),
            spec(
                "resolve-event",
                resolve_event,
                "D",
                EVENT,
                "apply the revealed event's icons left to right, then its auction (D)",
            ),
            spec("migrate", migrate, "D1", EVENT, "a migration (D1)"),
            spec("decimate", decimate, "D2", EVENT, "a decimation (D2)"),
            spec("cool", cool, "D4", EVENT, "global cooling (D4)"),
            spec("die-off", die_off, "D5", EVENT, "elder die-off (D5): a die for each culture"),
            spec("auction", auction, "D10", EVENT, "auction the current event's import (D10)"),
            spec(
                "finish",
                finish,
                "A2",
                IN_TURN,
                "a culture has done what it does in this phase; the next in order acts (A2, A3, A5)",
            ),
            spec("attack", attack, "F2", NEGOTIATION, "one round of attacks on a card (F2)"),
            spec("peace", agree_peace, "A3", NEGOTIATION, "everyone on a card agrees peace (A3)"),
            spec("leave", leave, "F", NEGOTIATION, "hunters leave a card with consent (F)"),
            spec("marry", marry, "F1", NEGOTIATION, "a hunter marries a foreign daughter (F1)"),
            spec("divorce", divorce, "F", NEGOTIATION, "a husband leaves his wife (F)"),
            spec(
                "new-world",
                resolve_new_world,
                "F3",
                NEGOTIATION,
                "the New World turns hostile above 6 cubes (F3)",
            ),
            spec(
                "pacify", pacify, "F3", NEGOTIATION, "an ivory turns a hostile New World card (F3)"
            ),
            spec("hunt", hunt_card, "G", ("hunt",), "roll the hunt on a card (G), in A4 order"),
            spec("animals", feed_animals, "H", ("animals",), "the domestic animals (H)"),
            spec("elder", elder, "I", ("elders",), "an elder action (I1–I7) of one culture"),
            spec("next-phase", next_phase, "A1", (), "go on to the next phase (A1)"),
            spec("discard", discard_down, "B2", (), "discard hand cards to the hand size (B2)"),
            spec("exchange", exchange, "B3", (), "exchange a tableau card for its Value (B3)"),
            spec("swap", solitaire_swap, "K", (), "solitaire: swap a disk, husband or I card (K)"),
        ]
    )
