"""The turn and its six phases (A1), and who goes when (A2–A5).

The table keeps the generation in the counter ``turn`` and the phase in
``phase`` (event, assignment, negotiation, hunt, animals, elders); the first
player of the turn is ``first_player`` and the players who have finished
the phase are listed in ``phase.done``. The event procedures mark the turn
whose event was revealed (``event.revealed``) and resolved (``event.resolved``).

- ``player_order(view, first)``: clockwise from the first player over the
  cultures in play, in the order they are seated (A2).
- ``first_player(view, event)``: the colour the event's 'first:X/Y' icon names,
  Y when X is not in play (C1, Icon Reference); ``choose_first_player`` adds
  the Council of War (A2): a first player with a war chief at the start of
  the turn may name another (choice ``council``).
- ``iron_order`` (A3), ``hunt_order`` (A4), ``elder_order`` (A5); ``out_of_turn``:
  why a culture may not act yet in the elder phase (A5).
- procedures ``next_phase(ctx)`` and ``finish(ctx, colour)``; ``status(view)``
  for a phase panel: whose move, what comes next.
"""

from __future__ import annotations

from typing import Any

from ..procedures import ProcedureContext, ProcedureError
from .choices import one_of
from .deck import Cards
from .view import Greenland

PHASES = ("event", "assignment", "negotiation", "hunt", "animals", "elders")
PHASE_NAMES = {  # phase: (name, section)
    "event": ("Event", "D"),
    "assignment": ("Hunter assignment", "E"),
    "negotiation": ("Negotiate & attacks", "F"),
    "hunt": ("Roll for hunt", "G"),
    "animals": ("Domestic animals", "H"),
    "elders": ("Elder actions", "I"),
}
ORDER_RULES = {
    "event": "A2: player order",
    "assignment": "A2: player order",
    "negotiation": "A3: most iron first, ties in player order",
    "hunt": "A4: the first player picks the order of the cards; on a card, least hunters first",
    "animals": "A2: player order",
    "elders": "A5: polytheists first, then monotheists, each in player order",
}

_CARDS: dict[str, Cards] = {}


# ---- the deck the game was set up with ---------------------------------------------
def cards_for(state: Any) -> Cards:
    """The deck rows of the revision a game records (its name and sha256 in the counters)."""
    from tabletop.modules import ModuleError, find_module
    from tabletop.modules.revisions import with_revision

    name = state.counters.get("deck.name")
    sha = state.counters.get("deck.sha256")
    if sha in _CARDS:
        return _CARDS[sha]
    try:
        module = find_module("greenland")
        if name:
            module = with_revision(module, name)
    except ModuleError as exc:
        raise ProcedureError(f"the game's deck cannot be read: {exc}") from None
    deck = module.decks["greenland"]
    if sha and deck.sha256 != sha:
        raise ProcedureError(
            f"the game was set up with a deck revision {name!r} whose rows differ from"
            f" decks/{deck.path.name} now (sha256 {sha[:12]}… against {deck.sha256[:12]}…)"
        )
    cards = Cards.of(module)
    _CARDS[deck.sha256] = cards
    return cards


def view_of(state: Any, cards: Cards | None = None) -> Greenland:
    return Greenland(state, cards if cards is not None else cards_for(state))


# ---- who goes when -------------------------------------------------------------------
def in_play(view: Greenland) -> list[str]:
    """The cultures in the game, as seated: a culture with every cube in Valhalla is out (J1)."""
    return list(cultures_in_play(view))


def cultures_in_play(view: Greenland) -> tuple[str, ...]:
    """``in_play`` as kept in the table's positions memo (a tuple: not to be changed)."""
    memo = view.state.positions_memo()
    found = memo.get("greenland.in_play")
    if found is None:
        playing = []
        for colour, cubes in view.seated_cubes():
            for cube in cubes:  # usually the first looked at is out there
                if not cube.place.startswith("valhalla_"):
                    playing.append(colour)
                    break
        found = memo["greenland.in_play"] = tuple(playing)
    return found


def player_order(view: Greenland, first: str | None) -> list[str]:
    """A2: the first player, then clockwise (the order the cultures are seated)."""
    return list(_player_order(view, first))


def _player_order(view: Greenland, first: str | None) -> tuple[str, ...]:
    memo = view.state.positions_memo()
    key = ("greenland.player_order", first)
    found = memo.get(key)
    if found is None:
        playing = cultures_in_play(view)
        kept = view.state.layout_memo()  # the seats stay: the order changes with who plays
        seated = ("greenland.player_order", first, playing)
        found = kept.get(seated)
        if found is None:
            seats = view.seats()
            if first not in seats:
                first = seats[0] if seats else None
            if first is None:
                found = ()
            else:
                start = seats.index(first)
                found = tuple(c for c in seats[start:] + seats[:start] if c in playing)
            kept[seated] = found
        memo[key] = found
    return found


def current_first(view: Greenland) -> str | None:
    """This turn's first player (the counter), or the first culture seated."""
    memo = view.state.memo()
    if "greenland.first" in memo:
        return memo["greenland.first"]
    first = view.counter("first_player")
    if first not in view.seats():
        seats = in_play(view) or view.seats()
        first = seats[0] if seats else None
    memo["greenland.first"] = first
    return first


def first_icon(view: Greenland, event: str) -> tuple[str, str | None] | None:
    for icon in view.row(event).get("event_icons") or []:
        if icon.startswith("first:"):
            main, _, spare = icon.removeprefix("first:").partition("/")
            return main, spare or None
    return None


def first_player(view: Greenland, event: str) -> str | None:
    """The colour the event names to go first; the second colour when the first is not in play (C1)."""
    icon = first_icon(view, event)
    playing = in_play(view)
    if icon is None:
        return current_first(view)
    main, spare = icon
    if main in playing:
        return main
    if spare in playing:
        return spare
    order = player_order(view, main if main in view.seats() else None)
    return order[0] if order else None


def choose_first_player(ctx: ProcedureContext, view: Greenland, event: str) -> str | None:
    """A2: the event's first player; with a war chief he may designate another (choice 'council')."""
    first = first_player(view, event)
    if first is None:
        return None
    playing = in_play(view)
    if view.war_chiefs(first) and len(playing) > 1:
        chosen = one_of(
            ctx,
            "council",
            f"Council of War (A2): {first} has a war chief and may name the first player",
            playing,
            first,
            "A2",
        )
        if chosen != first:
            ctx.note(f"Council of War: {first} names {chosen} the first player")
        first = chosen
    if view.counter("first_player") != first:
        ctx.set_counter("first_player", first)
    ctx.note(f"{first} goes first")
    return first


def iron_order(view: Greenland, first: str | None = None) -> list[str]:
    """A3: the most iron first; ties in player order."""
    return list(_iron_order(view, first or current_first(view)))


def _iron_order(view: Greenland, first: str | None) -> tuple[str, ...]:
    memo = view.state.positions_memo()
    key = ("greenland.iron_order", first)
    found = memo.get(key)
    if found is None:
        order = _player_order(view, first)
        found = memo[key] = tuple(
            sorted(order, key=lambda c: (-view.disks(c, "iron"), order.index(c)))
        )
    return found


def hunt_type(view: Greenland, card: str) -> str | None:
    """What kind of roll a card makes: a tableau card is raided, a biome hunted as its type."""
    return "raid" if view.side(card) == "tableau" else view.biome_type(card)


def hunt_order(view: Greenland, card: str, first: str | None = None) -> list[str]:
    """A4: who rolls on a card, in order: 'hunt first' abilities, then the fewest hunters, then player order.

    On a tableau card only the raiders roll (G1), not the owner's or husband's defenders.
    """
    order = player_order(view, first or current_first(view))
    kind = hunt_type(view, card)
    hunters = {c: len(view.hunters_on(card, c)) for c in order}

    def hunts_first(colour: str) -> bool:
        return any(a in (f"hunt_first {kind}", "hunt_first any") for a in view.abilities(colour))

    present = [c for c in order if hunters[c]]
    if view.side(card) == "tableau":  # defenders fight (F2) but do not roll to raid (G1)
        husband = view.husband(card)
        defenders = {view.tableau_owner(card)}
        if husband is not None:
            defenders.add(view.state.pieces[husband].owner)
        present = [c for c in present if c not in defenders]
    return sorted(present, key=lambda c: (not hunts_first(c), hunters[c], order.index(c)))


def elder_order(view: Greenland, first: str | None = None) -> list[str]:
    """A5: polytheists first, then monotheists, each in player order."""
    return list(_elder_order(view, first or current_first(view)))


def _elder_order(view: Greenland, first: str | None) -> tuple[str, ...]:
    order = _player_order(view, first)
    memo = view.state.layout_memo()  # the religions change only when an elder card turns
    key = ("greenland.elder_order", order, id(view.cards))
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(
            [c for c in order if view.religion(c) != "monotheist"]
            + [c for c in order if view.religion(c) == "monotheist"]
        )
    return found


def out_of_turn(view: Greenland, colour: str) -> str | None:
    """A5: why ``colour`` may not act yet in the elder phase (the first culture ahead of it in
    ``elder_order`` that has not finished the phase), or None when it is its turn."""
    order = elder_order(view)
    if colour not in order:
        return None
    done = view.counter("phase.done") or ()
    ahead = [c for c in order[: order.index(colour)] if c not in done]
    if not ahead:
        return None
    first = ahead[0]
    return (
        f"{colour} acts after {first}: polytheists act first, then monotheists, each in player"
        f" order ({', '.join(order)}), and {first} has not finished its elder actions (A5)"
    )


def phase_order(view: Greenland, phase: str, first: str | None = None) -> tuple[str, ...]:
    """Who acts in a phase, in order, from ``first`` (this turn's first player unless given);
    for the hunt the first player picks the cards' order (A4)."""
    if first is None:
        first = current_first(view)
    if phase == "negotiation":
        return _iron_order(view, first)
    if phase == "elders":
        return _elder_order(view, first)
    return _player_order(view, first)


# ---- the turn ------------------------------------------------------------------------
def following(turn: int, phase: str) -> tuple[int, str]:
    """The phase after this one, and its turn."""
    index = PHASES.index(phase) if phase in PHASES else len(PHASES) - 1
    if index + 1 < len(PHASES):
        return turn, PHASES[index + 1]
    return turn + 1, PHASES[0]


def game_ends(view: Greenland) -> str | None:
    """J: the game ends after the turn of the last event, or when both rows are empty.

    A variant with a number of ``turns`` (the solitaire game's 16, K) also ends after its last.
    """
    from .variants import param

    turns = param(view, "turns", None)
    if turns and int(view.counter("turn", 1) or 1) >= int(turns):
        return f"the {ordinal(int(turns))} turn is over (K)"
    if not view.state.places["event_deck"].contents:
        return "the event deck is used up"
    if not any(
        view.state.places[f"{row}_{side}"].contents
        for row in ("north", "south")
        for side in ("warm", "cold")
    ):
        return "no cards remain in either row"
    return None


def ordinal(number: int) -> str:
    """16 as '16th', 21 as '21st'."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"
