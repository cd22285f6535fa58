"""Bots that play Greenland through the same doors a person uses: the turn driver and the procedures.

A bot does three things (rules_assist/bots.py's ``Bot`` protocol):

- ``act(driver, seat, actions)``: which of the legal actions the turn flow
  (flow.py) offers to take (``TurnPlay``: the Greenland heuristics below);
- ``moves(driver, seat)``: the hand moves of the hunter assignment phase (E),
  its ``assign(view, colour)``: each a command the checker finds legal on the
  table the ones before leave (``checks.check`` on every candidate; a
  candidate with an 'illegal' finding is dropped). The random bot gives them
  one at a time, each chosen once the one before is made (``one_by_one``), so
  the table checks each on the table the bot checked it on, and the checker
  has its findings already (rules.py keeps them while the table stays);
- ``answer(state, question)``: any question a procedure asks.

``RandomBot(seed)`` picks at random among legal moves, attacks and elder
actions; ``GreedyBot()`` hunts the warm biomes with the best expected yield
it can reach, promotes a mariner when it has none, makes peace rather than
attack, plays its hand cards as elder actions, and hunts the richest cards
first.

``play_game`` (rules_assist/greenland/selfplay.py) plays a whole game with
them; at the window's table the phase panel lets a bot seat play through the
same driver (``window_bots``: the game object's ``bots``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from tabletop.core import Command, Compound, Severity, TableState, actions

from ..driver import MOVES, Action, Driver
from ..questions import ONE_OF, PAYMENT, SPLIT, SUBSET, YES_NO, Question
from .checks import check
from .payments import UNPAID, promotion_disk
from .view import ROW_PLACES, Greenland

HIT_CHANCE = {"warm": 1 / 3, "cold": 1 / 6}  # hits are 1s and 2s on the warm side, 1s on the cold


class Bot(Protocol):
    def answer(self, state: TableState, question: Question) -> Any: ...

    def assign(self, view: Greenland, colour: str) -> list[Command]: ...


# ---- what a colour may try ---------------------------------------------------------------
def legal(view: Greenland, command: Command, colour: str) -> bool:
    """The checker has no 'illegal' finding for the command on this table."""
    for finding in check(view.state, command, colour, view.cards):
        if finding.severity is Severity.ILLEGAL:
            return False
    return True


def hunter_move(view: Greenland, cube: str, target: str) -> Command:
    """A cube to a card's hunting area, or (target 'rankN') a promotion paying its energy (E3)."""
    state = view.state
    colour = state.pieces[cube].owner
    if target.startswith("rank"):
        move = actions.move(state, cube, f"elder-{colour}", spot=target)
        disk = promotion_disk(view, colour)  # energy; ivory or iron as energy in solitaire (K)
        if view.has(colour, "free_promotion") or disk is None:
            return move
        pay = actions.move(state, disk, f"supply_{state.pieces[disk].kind}")
        rank = target.removeprefix("rank")
        return Compound(f"promote a {colour} hunter to rank {rank} (E3)", (move, pay))
    return actions.move(state, cube, target, spot="hunters")


def biomes(view: Greenland) -> list[str]:
    """The cards in the rows, warm and cold (Markland and Vinland among them)."""
    return [pid for place in ROW_PLACES for pid in view.state.places[place].contents]


def raid_targets(view: Greenland, colour: str) -> list[str]:
    if not view.war_chiefs(colour):
        return []
    found = []
    for other in view.seats():
        if other == colour:
            continue
        for pid in view.tableau(other):
            row = view.row(pid)
            if row.get("type") in ("daughter", "norse_animal") or row.get("hand") == "D":
                found.append(pid)
    return found


def _hunters(view: Greenland, colour: str) -> list[str]:
    """Unassigned hunters, the Alpha first."""
    return sorted(view.unassigned(colour), key=lambda c: not c.startswith("alpha"))


def planned(method: Any) -> Any:
    """An assign method plans on the live table (each legal move played so the next sees it) and
    takes its moves back before returning them: the table is as it was, with no copy made."""

    def assign(self: Any, view: Greenland, colour: str) -> list[Command]:
        mark = view.state.mark()
        moves = method(self, view, colour)
        for command in reversed(moves):
            command.inverse().apply(view.state)
        view.state.back_to(mark)
        return moves

    return assign


def _without_transport(view: Greenland, colour: str, target: str) -> bool:
    """A card outside the homeland (or in the New World) for a culture with neither a mariner
    nor a sled: no hunter of it can go there (E1, E2)."""
    if target.startswith("rank") or target not in view.state.pieces:
        return False
    if view.mariners(colour):  # read once a table: the cheapest of the three first
        return False
    return not view.in_homeland(colour, target) and not view.sleds(colour)


def _candidate(view: Greenland, cube: str, target: str, colour: str) -> Command | None:
    """The move of the cube to the target if it is legal on this table, else None."""
    if _without_transport(view, colour, target):
        return None  # refused by E1/E2: no need to ask the checker
    command = hunter_move(view, cube, target)
    return command if legal(view, command, colour) else None


def _try(view: Greenland, cube: str, target: str, colour: str, out: list[Command]) -> bool:
    """Add the move to ``out`` and play it on the scratch table if it is legal."""
    command = _candidate(view, cube, target, colour)
    if command is None:
        return False
    command.apply(view.state)
    out.append(command)
    return True


def one_by_one(state: TableState, chosen: Iterator[Command]) -> Iterator[Command]:
    """The moves of a bot that chooses each on the table the ones before leave, for a caller
    that makes each one (``table.submit``) before asking for the next; a move the caller did
    not make (refused) ends them."""
    for command in chosen:
        version = state.version
        yield command
        if state.version == version:
            return


def played_and_taken_back(state: TableState, chosen: Iterator[Command]) -> list[Command]:
    """The same moves as a list: each played on the live table so the next is chosen on it,
    then all taken back; the table is as it was, with no copy made."""
    mark = state.mark()
    moves: list[Command] = []
    try:
        for command in chosen:
            command.apply(state)
            moves.append(command)
    finally:
        for command in reversed(moves):
            command.inverse().apply(state)
        state.back_to(mark)
    return moves


# ---- answers -----------------------------------------------------------------------------
def discard(bot: Any, state: TableState, question: Question, least_wanted: Any) -> Any:
    """B2: the cards to discard, non-D cards first so that the hand kept fits (hands.py)."""
    from .hands import discard_answer
    from .sequence import cards_for

    deck = bot.cards if bot.cards is not None else cards_for(state)
    return discard_answer(deck, question, least_wanted)


# ---- the turn, through the driver ---------------------------------------------------------------
MAX_ELDER_ACTIONS = 8  # a culture's elder actions in a turn (each elder acts once, I)


class TurnPlay:
    """What a Greenland bot does when it is to move (rules_assist/bots.py's ``act`` and ``moves``).

    The table's own steps: the main one (the first offered). Its own turn: the hunter
    assignment (E) by its ``assign``, then it finishes; in the negotiation (F) the attacks it
    wants (``attack``) in A3 order, and where it must attack (A3) but does not want to it
    proposes peace, attacking when that is refused; as first player the hunts (G) in the
    order its ``hunt_order`` prefers (A4); the elder actions (I) its ``elder_action`` picks.
    Each culture's own progress through a phase is kept per table and turn.
    """

    cards: Any

    def act(self, driver: Driver, seat: str | None, actions: Sequence[Action]) -> Action:
        if seat is None or len(actions) == 1:
            return actions[0]  # the table's own step: the main one
        state = driver.state
        if getattr(self, "cards", None) is None:
            self.cards = driver.game.cards
        view = Greenland(state, driver.game.cards)
        turn = (id(driver.table), view.counter("turn", 1), seat)
        tried = self.__dict__.setdefault("_tried", set())
        phase = driver.flow.phase(state)
        moves = None
        for action in actions:
            if action.kind == MOVES:
                moves = action
                break
        if moves is not None and (turn, "moves") not in tried:
            tried.add((turn, "moves"))
            return moves
        if phase == "hunt":
            hunts = {a.params["card"]: a for a in actions if a.name == "hunt"}
            if hunts:
                return hunts[self.hunt_order(view, list(hunts))[0]]
        if phase == "negotiation":
            chosen = self._negotiate(view, seat, turn, actions)
            if chosen is not None:
                return chosen
        if phase == "elders":
            offered = [a for a in actions if a.name == "elder"]
            taken = self.__dict__.setdefault("_elder_actions", {})  # per turn and seat
            count = taken.get(turn, 0)
            if offered and count < MAX_ELDER_ACTIONS:
                picked = self.elder_action(view, seat, offered)
                if picked is not None:
                    taken[turn] = count + 1
                    return picked
        finish = next((a for a in actions if a.name == "finish"), None)
        if finish is not None:
            return finish
        attacks = [a for a in actions if a.name == "attack"]  # a finished culture owes (A3)
        return attacks[0] if attacks else actions[0]

    def _negotiate(
        self, view: Greenland, seat: str, turn: tuple[Any, ...], actions: Sequence[Action]
    ) -> Action | None:
        """A3: each attack open to ``seat`` considered once, in order: made if wanted; where it
        must attack and does not want to, peace proposed first and the attack made if refused."""
        from .negotiation import negotiation_reading

        tried = self.__dict__.setdefault("_tried", set())
        peace = {a.params["card"]: a for a in actions if a.name == "peace"}
        owed = None
        for action in actions:
            if action.name != "attack":
                continue
            card = action.params["card"]
            if (turn, "peace", card) in tried:
                return action  # the peace was refused: the war chief attacks (A3)
            if (turn, "attack", card) in tried:
                continue
            tried.add((turn, "attack", card))
            if self.attack(view, seat, card):
                return action
            if owed is None:
                owed = set(negotiation_reading(view)[0])
            if (seat, card) in owed:
                if card in peace:
                    tried.add((turn, "peace", card))
                    return peace[card]
                return action
        return None

    def moves(self, driver: Driver, seat: str) -> list[Command]:
        """The hunter assignment (E): the bot's own plan (``assign``)."""
        if getattr(self, "cards", None) is None:
            self.cards = driver.game.cards
        return self.assign(Greenland(driver.state, driver.game.cards), seat)  # type: ignore[attr-defined]

    def hunt_order(self, view: Greenland, cards: Sequence[str]) -> list[str]:
        return list(cards)

    def elder_action(self, view: Greenland, colour: str, offered: Sequence[Action]) -> Any:
        return None

    def attack(self, view: Greenland, colour: str, card: str) -> bool:
        return False


class RandomBot(TurnPlay):
    """Random legal choices: a random subset of hunters to random cards, random answers."""

    def __init__(self, seed: int = 0, cards: Any = None) -> None:
        self.rng = random.Random(seed)
        self.cards = cards

    def answer(self, state: TableState, question: Question) -> Any:
        if question.kind == SUBSET and question.section == "B2":  # random cards, kept fit
            return discard(self, state, question, lambda row: self.rng.random())
        return question.random_answer(self.rng)

    def moves(self, driver: Driver, seat: str) -> Iterator[Command]:
        """The hunter assignment (E) move by move, each chosen on the table as the moves
        before left it: the table checks each as the bot did, on the same table."""
        self.cards = driver.game.cards
        view = Greenland(driver.state, driver.game.cards)
        return one_by_one(view.state, self._assignment(view, seat))

    def assign(self, view: Greenland, colour: str) -> list[Command]:
        return played_and_taken_back(view.state, self._assignment(view, colour))

    def _assignment(self, view: Greenland, colour: str) -> Iterator[Command]:
        """A random subset of the hunters, each to the first legal of up to three random
        targets; each move is on the table when the next is chosen."""
        self.cards = view.cards
        targets = biomes(view)
        for cube in _hunters(view, colour):
            if self.rng.random() < 0.2:
                continue  # stays home
            roll = self.rng.random()
            if roll < 0.1 and view.disks(colour, "energy") > 1:
                options = [f"rank{self.rng.randint(1, 6)}"]
            elif roll < 0.15:
                options = raid_targets(view, colour) or targets
            else:
                options = targets
            for target in self.rng.sample(options, min(3, len(options))):
                command = _candidate(view, cube, target, colour)
                if command is not None:
                    yield command
                    break

    def hunt_order(self, view: Greenland, cards: Sequence[str]) -> list[str]:
        return self.rng.sample(list(cards), len(cards))

    def elder_action(self, view: Greenland, colour: str, offered: Sequence[Action]) -> Any:
        return self.rng.choice(list(offered)) if self.rng.random() < 0.5 else None

    def attack(self, view: Greenland, colour: str, card: str) -> bool:
        return self.rng.random() < 0.3


# ---- the greedy bot ----------------------------------------------------------------------
def success_chance(dice: int, hits_needed: int, p: float) -> float:
    """P(at least ``hits_needed`` hits from ``dice`` dice, each a hit with chance p)."""
    if hits_needed <= 0:
        return 1.0
    return sum(
        math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(hits_needed, dice + 1)
    )


def card_value(view: Greenland, pid: str) -> float:
    row = view.row(pid)
    value = 2.0 * int(row.get("babies") or 0) + int(row.get("energy") or 0)
    value += int(row.get("ivory") or 0) + 1.5 * int(row.get("iron") or 0)
    return value + 0.5 * int(row.get("vp") or 0)


def best_party(view: Greenland, pid: str, available: int) -> tuple[float, int]:
    """(expected gain per hunter, hunters) for the best party on a biome, or (0, 0)."""
    row = view.row(pid)
    if view.is_new_world(pid) or row.get("dice") in (None, "", "infinite"):
        return 0.0, 0
    needed = int(row.get("dice") or 0)
    p = HIT_CHANCE.get(view.side(pid) or "", 0.0)
    lethal = len(row.get("attrition") or []) / 6
    value = card_value(view, pid)
    best = (0.0, 0)
    for n in range(max(1, needed), min(available, needed + 4) + 1):
        gain = success_chance(n, needed, p) * value - n * lethal * 1.5
        if gain > 0 and gain / n > best[0]:
            best = (gain / n, n)
    return best


class GreedyBot(TurnPlay):
    """Simple heuristics: the best reachable warm hunts, a mariner when short, keep cubes alive."""

    PREFER = {"energy": 0, "discard": 1, "elder": 2}

    def __init__(self, cards: Any = None) -> None:
        self.cards = cards

    def answer(self, state: TableState, question: Question) -> Any:
        kind, options, owner = question.kind, question.options, question.owner
        if kind == YES_NO:
            return True  # the Alpha's 1, modifications, iron, trophies, cards, consent
        if kind == SUBSET:
            if question.section == "B2":  # the cards worth the fewest points go
                return discard(self, state, question, lambda row: int(row.get("vp") or 0))
            return options[: question.high]  # every die it may re-roll (G2, F2)
        if kind == PAYMENT:  # energy first, then D cards, then elders; slaughter when short
            return question.fill(sorted(options, key=self._unit_rank))
        if kind == SPLIT:  # in the groups' order: the first victim, hunters before husbands
            return question.fill(options)
        if question.section == "D10":  # one ivory if it has any
            return "1" if "1" in options else "0"
        if question.section in ("D2", "D3") and question.kind == ONE_OF:  # the elder that dies
            return min(options, key=lambda o: (o.lstrip("rank")[:1] in "46", "@" not in o))
        for wanted in ("energy", "elder", "baby", "none"):  # G4's snowflake, H2's sheep
            if wanted in options:
                return wanted
        if owner in options:  # e.g. the Council of War: oneself
            return owner
        return options[0]

    def _unit_rank(self, unit: str) -> tuple[int, str]:
        if unit == UNPAID:
            return (9, unit)
        head = unit.split(":")[0]
        rank = unit.removeprefix("elder:")[:1]
        return (self.PREFER.get(head, 3) + (2 if rank in "46" else 0), unit)

    @planned
    def assign(self, view: Greenland, colour: str) -> list[Command]:
        self.cards = view.cards
        out: list[Command] = []
        hunters = _hunters(view, colour)
        if not view.mariners(colour) and view.disks(colour, "energy") >= 3 and len(hunters) >= 5:
            cube = hunters[-1]
            if _try(view, cube, "rank6", colour, out):
                hunters.remove(cube)
        unreachable: set[str] = set()
        while hunters:
            scored = []
            for pid in biomes(view):
                if pid in unreachable or view.hunters_on(pid):
                    continue
                per, n = best_party(view, pid, len(hunters))
                if n:
                    scored.append((per, n, pid))
            if not scored:
                break
            _per, n, pid = max(scored)
            placed = 0
            for cube in list(hunters[:n]):
                if not _try(view, cube, pid, colour, out):
                    break
                hunters.remove(cube)
                placed += 1
            if placed < n:
                unreachable.add(pid)
                if placed:  # a party too small to hunt goes home again
                    for command in reversed(out[-placed:]):
                        command.inverse().apply(view.state)
                    hunters = _hunters(view, colour)
                    del out[-placed:]
        return out

    def hunt_order(self, view: Greenland, cards: Sequence[str]) -> list[str]:
        return sorted(cards, key=lambda pid: -card_value(view, pid))

    def elder_action(self, view: Greenland, colour: str, offered: Sequence[Action]) -> Any:
        """Play cards from the hand (I1, I4); nothing else."""
        return next((a for a in offered if a.label.startswith(("Domestication", "Tool"))), None)

    def attack(self, view: Greenland, colour: str, card: str) -> bool:
        return False


# ---- bots at the window's table --------------------------------------------------------------
class _DeckOfTheGame:
    """A bot that reads the deck rows of the game it is asked about (for its payment answers)."""

    cards: Any

    def answer(self, state: TableState, question: Question) -> Any:
        if self.cards is None:
            from .sequence import cards_for

            self.cards = cards_for(state)
        return super().answer(state, question)  # type: ignore[misc]


class SeatedRandomBot(_DeckOfTheGame, RandomBot):
    """RandomBot at the window's table."""


class SeatedGreedyBot(_DeckOfTheGame, GreedyBot):
    """GreedyBot at the window's table."""


def window_bots() -> dict[str, Any]:
    """The game object's ``bots`` (game.py): the bots a seat can be given, by name."""
    return {"random": lambda seed: SeatedRandomBot(seed), "greedy": lambda seed: SeatedGreedyBot()}
