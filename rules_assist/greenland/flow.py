"""Greenland's turn for the turn driver (rules_assist/driver.py): who is to move, what they may do.

The six phases of a turn (A1) in the counter ``phase``; who goes when is
sequence.py's (``status``: A2 player order, A3 iron order, A4 the first
player picking the hunts, A5 polytheists first). For a table state the flow
gives a ``driver.Status``: the turn, the phase, the seat to move (``CHANCE``
when the next step is the table's own: the event revealed and applied, the
New World resolved, the animals fed, the next phase; ``TERMINAL`` when the
game is over, J), lines for people and the actions open now, each a
procedure of the game's table (procedure_table.py) by its name:

- event (D): reveal and apply the event (the table's);
- assignment (E): the culture to move places hunters by hand (an action of
  kind MOVES: ``move_options`` gives the moves a seat may try) and finishes;
- negotiation (F): the rounds of attacks that may be made now in A3 order,
  the peace a culture that must attack may propose, its finish; the New
  World resolved (F3, the table's) and pacified;
- hunt (G): one hunt a card with hunters or raiders who roll, the first
  player's, who picks their order (A4);
- animals (H): the animals fed (the table's), when a culture has D cards;
- elders (I): the elder actions of the culture to move, and its finish.

Every phase ends with the table's "Next" (turn.py, next_phase), the last
action, open to anyone in the window. The status is kept in the table's
memo, so asking it again before the table changes costs nothing. The
driver's ``turn`` reads only whose move it is and the actions (the flow's
``turn``): no lines for people, and whose move it is in order only in the
phases where a culture in order moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from tabletop.core import Command, TableState

from ..driver import CHANCE, MOVES, TERMINAL, Action, Status
from .bots import _hunters, biomes, hunter_move, raid_targets
from .deck import CULTURES
from .elders import available_actions
from .negotiation import (
    NEW_WORLD,
    RESOLVED,
    _begun,
    _defending,
    _side,
    culture,
    negotiation_order,
    negotiation_reading,
    obligation_text,
    present,
    reading_key,
)
from .payments import d_cards
from .procedure_table import elder_action_name
from .raid import defenders
from .scoring import score
from .sequence import (
    ORDER_RULES,
    PHASE_NAMES,
    PHASES,
    cultures_in_play,
    current_first,
    following,
    phase_order,
)
from .turn import bans, event_name, whose_move
from .variants import advanced_off
from .view import ROW_PLACES, Greenland

FINISHED_IN_TURN = {  # phases the cultures play one after another, each saying when it is done
    "assignment": "done placing hunters (E)",
    "negotiation": "done negotiating (F)",
}
FINISHED = {**FINISHED_IN_TURN, "elders": "done with elder actions (I)"}
TAKEN_IN_TURN = frozenset(FINISHED)  # the phases whose move is the next culture's in order
FINISH_HELP = (
    "the next culture in order acts (A2, A3, A5); a seat played by a bot plays when its turn comes"
)
MEMO = "greenland.flow.status"
TURN_MEMO = "greenland.flow.turn"


class GreenlandFlow:
    """The turn of a Greenland game (A1–A5) for ``GreenlandGame.flow``."""

    phases = PHASES

    def __init__(self, game: Any) -> None:
        self.game = game

    def view(self, state: TableState) -> Greenland:
        return Greenland(state, self.game.cards)

    def phase(self, state: TableState) -> str:
        return str(state.counters.get("phase") or "event")

    def phase_label(self, phase: str) -> str:
        return _phase_label(phase)

    def is_terminal(self, state: TableState) -> bool:
        """J: the turn sequence has ended the game, or no culture is left in play (J1)."""
        if state.counters.get("game_over") is not None:
            return True
        return self.turn(state)[0] == TERMINAL

    def returns(self, state: TableState) -> dict[str, float]:
        """Each culture's victory points (J, scoring.py)."""
        return {c: float(entry["total"]) for c, entry in score(self.view(state)).items()}

    def status(self, state: TableState) -> Status:
        memo = state.memo()
        found = memo.get(MEMO)
        if found is None:
            found = memo[MEMO] = self._status(self.view(state))
        return found

    def turn(self, state: TableState) -> tuple[str, tuple[Action, ...]]:
        """The status's ``to_move`` and ``actions`` without its lines for people: all the turn
        driver reads. Kept in the table's memo like the status."""
        memo = state.memo()
        found = memo.get(TURN_MEMO)
        if found is None:
            status = memo.get(MEMO)
            if status is not None:
                found = (status.to_move or CHANCE, status.actions)
            else:
                _turn, _phase, to_move, actions, _lines = self._read(self.view(state), False)
                found = (to_move, actions)
            memo[TURN_MEMO] = found
        return found

    # ---- the status --------------------------------------------------------------------
    def _status(self, view: Greenland) -> Status:
        turn, phase, to_move, actions, lines = self._read(view, True)
        return Status(turn, phase, _phase_label(phase), to_move, lines, actions)

    def _read(
        self, view: Greenland, words: bool
    ) -> tuple[int, str, str, tuple[Action, ...], tuple[str, ...]]:
        """The turn, the phase, who is to move, the actions open now and (with ``words``) the
        lines for people."""
        counters = view.state.counters
        turn = int(counters.get("turn", 1) or 1)
        phase = counters.get("phase", "event") or "event"
        done = counters.get("phase.done") or ()
        whose: str | None = None
        lines: tuple[str, ...] = ()
        if words or phase in TAKEN_IN_TURN:  # elsewhere the table or the first player moves
            first = current_first(view)
            order = phase_order(view, phase, first)
            whose, text, owing = whose_move(view, turn, phase, first, order, done, words)
        if words:
            said = [text, _order_line(order, phase)]
            event = event_name(view, turn)
            if event:
                said.append(f"Event: {event}")
            for ban in bans(view, turn):
                said.append(f"Ban: {ban}")
            if owing:  # A3: where the negotiations failed
                said.append(f"Still to attack: {'; '.join(owing)}")
            lines = tuple(said)
        if counters.get("game_over") is not None or not cultures_in_play(view):
            return turn, phase, TERMINAL, (), lines
        actions: list[Action] = []
        to_move: str = CHANCE
        if phase == "event":
            if counters.get("event.revealed") != turn:
                actions.append(REVEAL)
            elif counters.get("event.resolved") != turn:
                actions.append(APPLY)
        elif phase == "assignment":
            if whose is not None:
                to_move = whose
                actions.append(_place_hunters(whose))
        elif phase == "negotiation":
            actions += negotiation_actions(view)
            if whose is not None:
                to_move = whose
        elif phase == "hunt":
            actions += hunt_actions(view)
            if actions:
                to_move = actions[0].actor or CHANCE
        elif phase == "animals":
            actions += animal_actions(view)
        elif phase == "elders" and whose is not None:
            to_move = whose
            actions += elder_actions(view, whose)
        if phase in FINISHED_IN_TURN and whose is not None and whose not in done:
            actions.append(_finish(phase, whose))
        actions.append(_next_after(turn, phase))
        return turn, phase, to_move, tuple(actions), lines

    # ---- the hand moves of the assignment (E) ------------------------------------------------
    def move_options(
        self, state: TableState, seat: str
    ) -> Iterator[list[Callable[[TableState], Command]]]:
        """For each unassigned hunter of ``seat`` (the Alpha first), the moves it may try: to a
        card's hunting area in the rows, to raid a tableau card (with a war chief), or promoted
        to an elder rank (E3). Each group is read on the table as the moves before it left it."""
        view = self.view(state)
        for cube in _hunters(view, seat):
            targets = biomes(view) + raid_targets(view, seat)
            if view.disks(seat, "energy") > 1:
                targets += [f"rank{n}" for n in range(1, 7)]
            yield [_builder(self.game.cards, cube, t) for t in targets]


def _builder(cards: Any, cube: str, target: str) -> Callable[[TableState], Command]:
    def build(state: TableState) -> Command:
        return hunter_move(Greenland(state, cards), cube, target)

    return build


# ---- the actions of each phase (an Action is frozen: the same ones are offered again) --------
REVEAL = Action("Reveal the event (D)", "event", help="then its icons (D)")
APPLY = Action("Apply the event (D)", "resolve-event")


@cache
def _place_hunters(colour: str) -> Action:
    return Action(
        "Place hunters (E)",
        actor=colour,
        help="hunters to the cards' hunting areas, elders promoted (E)",
        kind=MOVES,
    )


@cache
def _finish(phase: str, colour: str) -> Action:
    return Action(
        f"{CULTURES.get(colour, colour)}: {FINISHED[phase]}",
        "finish",
        {"colour": colour},
        actor=colour,
        help=FINISH_HELP,
    )


@cache
def _next_after(turn: int, phase: str) -> Action:
    """The table's "Next": the phase after ``phase`` (turn.py, next_phase)."""
    next_turn, next_phase = following(turn, phase)
    name = PHASE_NAMES[next_phase][0]
    return Action(f"Next: {name}", "next-phase", help=f"turn {next_turn}, {next_phase} phase")


@cache
def _phase_label(phase: str) -> str:
    name, section = PHASE_NAMES.get(phase, (phase, ""))
    return f"{name} ({section})" if section else name


@cache
def _order_line(order: tuple[str, ...], phase: str) -> str:
    return f"Order: {', '.join(order)} ({ORDER_RULES.get(phase, '')})"


HUNT_HELP = "Roll the hunt on this card (G): every culture on it, fewest hunters first"


def hunt_actions(view: Greenland) -> list[Action]:
    """One hunt a card with hunters or raiders who roll on it, not hunted yet this turn: the
    first player picks the order (A4). (The hunts are kept while no piece moves.)"""
    first = current_first(view)
    memo = view.state.positions_memo()
    key = ("greenland.flow.hunts", first)
    offered = memo.get(key)
    if offered is None:
        offered = memo[key] = _hunts(view, first)
    hunted = view.counter("hunt.done")
    if not hunted:
        return list(offered)
    return [a for a in offered if a.params["card"] not in hunted]


def _hunts(view: Greenland, first: str | None) -> tuple[Action, ...]:
    """The hunts offered, the rows' cards then the tableaus', as they lie. A card's hunt is
    made again only when the hunters on it change (kept while no card comes, goes or turns); a
    card whose area holds only hunters is counted again only when its pieces change."""
    state = view.state
    places, pieces = state.places, state.pieces
    made = state.layout_memo()
    found = []
    for place in (*ROW_PLACES, *[f"tableau_{c}" for c in view.seats()]):
        tableau = place.startswith("tableau_")
        for pid in places[place].contents if place in places else ():
            area = places.get(pid)
            if area is None or not area.contents:
                continue
            key = ("greenland.flow.hunt", pid, first)
            kept = made.get(key)
            if area.spots == HUNTING_AREA:
                # every piece there is a hunter: the same pieces (whose owners stay while the
                # layout does) are the same hunters
                cubes = tuple(area.contents)
                if kept is None or kept[2] != cubes:
                    hunters = _owners(pieces, cubes)
                    hunt = (
                        _hunt(view, pid, first, hunters)
                        if kept is None or kept[0] != hunters
                        else kept[1]
                    )
                    kept = made[key] = (hunters, hunt, cubes)
                hunters = kept[0]
            else:
                hunters = {}  # culture: its cubes in the hunting area
                for cube in area.contents:
                    piece = pieces[cube]
                    if piece.spot == "hunters":
                        hunters[piece.owner] = hunters.get(piece.owner, 0) + 1
                if not hunters:
                    continue
                if kept is None or kept[0] != hunters:
                    kept = made[key] = (hunters, _hunt(view, pid, first, hunters), None)
            if tableau and _defended_only(view, pid, hunters):
                continue  # only its defenders there: nobody raids it (G1)
            found.append(kept[1])
    return tuple(found)


HUNTING_AREA = ("hunters",)  # the spots of a card with a hunting area only (no exogamy box)


def _owners(pieces: Any, cubes: tuple[str, ...]) -> dict[str, int]:
    """Culture: its cubes among ``cubes``."""
    hunters: dict[str, int] = {}
    for cube in cubes:
        owner = pieces[cube].owner
        hunters[owner] = hunters.get(owner, 0) + 1
    return hunters


def _defended_only(view: Greenland, card: str, hunters: dict[str, int]) -> bool:
    """A tableau card with only its defenders' cubes on it (E5): nobody rolls to raid it."""
    guard = defenders(view, card)
    return all(c in guard for c in hunters if c)


def _hunt(view: Greenland, card: str, first: str | None, hunters: dict[str, int]) -> Action:
    who = ", ".join([f"{c} {hunters[c]}" for c in view.seats() if c in hunters])
    return Action(
        f"Hunt {view.name(card)} ({who})", "hunt", {"card": card}, actor=first, help=HUNT_HELP
    )


def animal_actions(view: Greenland) -> list[Action]:
    """H: the animals fed once a turn, when a culture has domestic animals (not in the
    beginners' game, C2)."""
    if view.counter("animals.fed") == view.counter("turn", 1) or advanced_off(view, "H1"):
        return []
    if not any(d_cards(view, c) for c in view.seats()):
        return []
    return [Action("Feed the animals (H)", "animals", help="hay for each D card, then babies")]


def elder_actions(view: Greenland, colour: str) -> list[Action]:
    """I: the elder actions ``colour`` can start now (elders.available_actions), read once while
    no piece moves in the turn's elder phase."""
    counters = view.state.counters
    key = ("greenland.flow.elders", colour, counters.get("turn", 1), counters.get("phase"))
    memo = view.state.positions_memo()
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_elder_actions(view, colour))
    return list(found)


def _elder_actions(view: Greenland, colour: str) -> list[Action]:
    found = [
        _elder_action(label, colour, procedure, params.get("target"))
        for label, procedure, params in available_actions(view, colour)
    ]
    found.append(_finish("elders", colour))
    return found


@cache
def _elder_action(label: str, colour: str, procedure: Any, target: str | None) -> Action:
    chosen = {"colour": colour, "action": elder_action_name(procedure)}
    if target is not None:
        chosen["target"] = target
    return Action(label, "elder", chosen, actor=colour)


def negotiation_actions(view: Greenland) -> list[Action]:
    """F: the rounds of attacks that may be made now in A3 order (the obligatory ones marked),
    the peace still possible where a war chief must attack (A3), the New World resolved (F3,
    the table's) and then pacified; read once while no piece moves and the counters they read
    (the variant, the turn, the first player, the attacks, the peace, the New World resolved)
    stay: a culture done negotiating leaves them as they were."""
    counters = view.state.counters
    key = (
        "greenland.flow.negotiation",
        counters.get("variant"),
        reading_key(view),
        counters.get(RESOLVED),
    )
    memo = view.state.positions_memo()
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_negotiation_actions(view))
    return list(found)


def _negotiation_actions(view: Greenland) -> list[Action]:
    if advanced_off(view, "F2") and advanced_off(view, "F3"):  # C2: neither in beginners
        return []
    found = []
    owing, ready = negotiation_reading(view)
    owed = set(owing)
    for colour, pid in ready:
        if (colour, pid) in owed:
            label = obligation_text(view, colour, pid)
        else:
            verb = "defends" if _defending(view, pid, colour) else "attacks on"
            label = f"{culture(colour)} {verb} {view.name(pid)} (F2)"
        found.append(
            Action(
                label,
                "attack",
                {"colour": colour, "card": pid},
                actor=colour,
                help="one round of attacks; most iron first (A3)",
            )
        )
    for colour, pid in ready:
        if (colour, pid) in owed and not _begun(view, pid):
            found.append(
                Action(
                    f"{culture(colour)} proposes peace on {view.name(pid)} (A3)",
                    "peace",
                    {"colour": colour, "card": pid},
                    actor=colour,
                    help="everyone present must agree; then nobody attacks there this turn",
                )
            )
    if view.counter(RESOLVED) != view.counter("turn", 1):
        found.append(
            Action(
                "Resolve the New World (F3)",
                "new-world",
                help="more than 6 cubes turn a peaceful Markland or Vinland hostile",
            )
        )
        return found
    for pid in NEW_WORLD:
        if pid in view.state.places and _side(view, pid) == "hostile":
            for colour in negotiation_order(view):
                if colour in present(view, pid) and view.disks(colour, "ivory"):
                    found.append(
                        Action(
                            f"{culture(colour)} pacifies {view.name(pid)} (F3)",
                            "pacify",
                            {"colour": colour, "card": pid},
                            actor=colour,
                            help="pay an ivory to turn it peaceful",
                        )
                    )
    return found
