"""The hunt (G): one culture's Hunt Roll on a card, or every culture on a card in hunt order (A4).

``hunt(ctx, card, seat)`` rolls for one culture's hunters (colonists included)
on a biome, or for its raiders on a D or daughter card in another tableau
(G1, rules_assist/greenland/raid.py); ``hunt_card(ctx, card)`` resolves every
culture on the card, least hunters first, the first success taking all (G4)
except in the New World, where everyone may succeed (E2). Both are procedures
for ``rules_assist.procedures.run_procedure``: one compound, one undo step.

The roll (rules_assist/greenland/hunt_roll.py): one die a cube (the Alpha's
die first), the Alpha's automatic 1 (E7; a 2 in the survivalist game, C3)
when chosen, re-rolls (G2), then modifications (G3). Hits are 1s and 2s on
the warm side and in a tableau, 1s on the cold side (G, D4); the card's
``dice`` is the hits needed. What follows (rules_assist/greenland/hunt_results.py):
every die showing an attrition face kills its hunter unless an iron pays for
the losses (F4; not in the survivalist game); a success brings the babies
(from Valhalla while cubes last, the Alpha first; colonists in the New World)
and the disks (energy up to the woodpile's 8, B4), once (G4), bog iron's
snowflake paid first or the hunt fails; doubles, triples or quadruples of any
face let the culture take a trophy (G5) or a D or I card into its hand (G6),
replaced from the row's deck (G7; not in the survivalist game). When the hunt
is over, a culture whose hand no longer fits its size (a card taken, a wife or
an elder of rank 3 lost) discards down at once (B2, choice ``discard_<colour>``,
rules_assist/greenland/hands.py). The beginners' game (C2,
rules_assist/greenland/variants.py) has no raids (G1), no New World (E2), no
iron rule (F4) and takes no cards into the hand (G6).

The players' choices (``choices``; a missing one raises ChoiceNeeded, each a
typed question owned by the culture hunting, rules_assist/greenland/choices.py):
``alpha`` yes/no, ``reroll`` a subset of the faces to re-roll ([4], '4,5' or 'none'),
``modify`` yes/no (asked only when it changes the outcome), ``pay_iron``
yes/no, ``snowflake`` energy/elder/none (and ``snowflake_elder``, e.g. rank6,
when elders on several ranks could pay), ``take_trophy`` yes/no,
``take_card`` yes/no, ``hunt_replacement`` yes/no (G7, for the others). A
plain key answers for every culture, ``yellow.alpha`` for one; when several
cultures hunt the card, the qualified name is the one asked for.
"""

from __future__ import annotations

from rules_assist.procedures import (
    ProcedureContext,
    ProcedureError,
)
from tabletop.core import TableError, TableState

from .deck import Cards
from .hands import discard_excess
from .hunt_results import gains, go_home, losses, pay_iron, snowflake, take_card
from .hunt_roll import Hunting, culture, huntable, judge, listing, roll_hunt
from .raid import check_raid, defenders, raid_result
from .view import Greenland


def game_cards(state: TableState) -> Cards:
    """The deck rows of the game's revision (the counters name it; its sha256 must match)."""
    from tabletop.modules import find_module
    from tabletop.modules.revisions import with_revision

    try:
        module = find_module("greenland")
        name = state.counters.get("deck.name")
        if name:
            module = with_revision(module, name)
    except TableError as exc:
        raise ProcedureError(f"the game's deck cannot be loaded: {exc}") from None
    deck = module.decks["greenland"]
    wanted = state.counters.get("deck.sha256")
    if wanted and deck.sha256 != wanted:
        raise ProcedureError(
            f"the deck revision {deck.path.stem!r} has changed since this game began "
            "(its sha256 differs): the hunt would read other card values"
        )
    return Cards.of(module)


def player_order(view: Greenland) -> list[str]:
    """A2: the first player, then clockwise (the seats' order)."""
    seats = view.seats()
    first = view.counter("first_player")
    if first in seats:
        i = seats.index(first)
        return seats[i:] + seats[:i]
    return seats


def hunt_order(view: Greenland, card: str) -> list[str]:
    """A4: the cultures that roll on a card (raiders on a tableau card), in the order they roll.

    Hunt-first abilities for the card's type first, then the least hunters,
    ties in player order. (Kept in the table's memo until the next command.)
    """
    memo = view.state.memo()
    key = ("greenland.hunt_order", card, id(view.cards))
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_hunt_order(view, card))
    return list(found)


def _hunt_order(view: Greenland, card: str) -> list[str]:
    pieces = view.state.pieces
    count: dict[str, int] = {}  # each culture's hunters on the card
    for cube in view.hunters_on(card):
        owner = pieces[cube].owner
        if owner:
            count[owner] = count.get(owner, 0) + 1
    tableau = view.side(card) == "tableau"
    if tableau:
        for colour in defenders(view, card):
            count.pop(colour, None)
    if len(count) < 2:
        return list(count)  # nobody, or one culture alone: no order to find
    kind = "raid" if tableau else view.biome_type(card)
    firsts = (f"hunt_first {kind}", "hunt_first any")
    order = player_order(view)

    def key(colour: str) -> tuple[int, int, int]:
        first = any(view.has(colour, ability) for ability in firsts)
        return (0 if first else 1, count[colour], order.index(colour) if colour in order else 99)

    return sorted(count, key=key)


def resolve(h: Hunting) -> Hunting:
    """One culture's roll on its card and all that follows from it."""
    if h.raid:
        check_raid(h)
    roll = roll_hunt(h)
    outcome = judge(h, roll.dice)
    story = ", ".join(roll.story)
    if h.raid:
        h.note(story)
    else:
        hits = f"{outcome.hits} hit{'' if outcome.hits == 1 else 's'} of {h.row.get('dice') or 0}"
        h.note(f"{story} → {hits}{': success' if outcome.success else ''}")
    success = outcome.success and (h.raid or snowflake(h))
    dead = losses(h, roll.dice, outcome, success)
    saved = bool(outcome.deaths) and not dead
    if h.raid:
        if saved:
            pay_iron(h)
        raid_result(h, outcome, dead)
        return h
    if success:
        gains(h)
    if saved:  # after the gains: the iron the hunt brings may pay (G4 example)
        pay_iron(h)
    go_home(h, success)
    take_card(h, outcome)
    return h


# ---- the procedures ----------------------------------------------------------------
def hunt(
    ctx: ProcedureContext, card: str, seat: str | None = None, cards: Cards | None = None
) -> str:
    """One culture's Hunt Roll (or raid) on a card; ``seat`` may be left out if it is alone there."""
    view = Greenland(ctx.state, cards or game_cards(ctx.state))
    name = huntable(view, card)
    order = hunt_order(view, card)
    if seat is None:
        if len(order) != 1:
            who = listing([culture(c) for c in order]) or "nobody"
            raise ProcedureError(
                f"{who} on {name}: name the culture that rolls, or hunt the card for everyone"
            )
        seat = order[0]
    elif seat in order and seat != order[0] and not view.is_new_world(card):
        raise ProcedureError(
            f"{culture(order[0])} rolls on {name} before {culture(seat)} "
            "(A4: least hunters first, ties in player order)"
        )
    h = resolve(Hunting.start(ctx, view, card, seat, qualify=False))
    for part in h.parts:
        ctx.note(part)
    discard_excess(ctx, view)  # B2: a card taken (G6), a wife or a rank-3 elder lost
    return h.label


def hunt_card(
    ctx: ProcedureContext, card: str, seat: str | None = None, cards: Cards | None = None
) -> str:
    """Every culture on a card in hunt order (A4): the first success takes all (G4), except in the
    New World, where everyone may succeed (E2). With ``seat``, only that culture rolls (``hunt``)."""
    if seat is not None:
        return hunt(ctx, card, seat, cards)
    view = Greenland(ctx.state, cards or game_cards(ctx.state))
    name = huntable(view, card)
    order = hunt_order(view, card)
    if not order:
        verb = "raids" if view.side(card) == "tableau" else "hunts"
        raise ProcedureError(f"nobody {verb} {name}")
    qualify = len(order) > 1
    results: list[Hunting] = []
    current, done = card, set()
    while True:
        waiting = [c for c in hunt_order(view, current) if c not in done]
        if not waiting:
            break
        h = resolve(Hunting.start(ctx, view, current, waiting[0], qualify))
        results.append(h)
        done.add(waiting[0])
        if h.replacement is not None:  # G7: the others hunt the card that replaced it
            current, done = h.replacement, set()
    hunted = list(view.counter("hunt.done") or [])
    for pid in (card, current):
        if pid not in hunted:
            hunted.append(pid)
    ctx.set_counter("hunt.done", hunted)  # the phase panel offers each card once a turn
    if len(results) == 1:
        for part in results[0].parts:
            ctx.note(part)
    else:
        for h in results:
            ctx.note(f"{h.label}: {', '.join(h.parts)}")
    discard_excess(ctx, view)  # B2: a card taken (G6), a wife or a rank-3 elder lost
    return results[0].label if len(results) == 1 else f"Hunt on {name}"
