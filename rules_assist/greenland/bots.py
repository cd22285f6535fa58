"""Bots that play Greenland through the same doors a person uses, and the loop that lets them.

A bot answers two things (the ``Bot`` protocol):

- ``answer(state, question)``: any question a procedure asks (a typed
  ``Question``, rules_assist/questions.py), by its kind and its data (options,
  groups and their caps, alternatives, owner, section), never by its wording
  or its key's spelling, on the table as the procedure sees it when it asks;
- ``assign(view, colour)``: the hand moves of the hunter assignment phase (E),
  each a command the checker finds legal on the table the ones before leave
  (``checks.check`` on every candidate; a candidate with an 'illegal'
  finding is dropped).

``RandomBot(seed)`` picks at random among legal moves and offered answers;
``GreedyBot()`` hunts the warm biomes with the best expected yield it can
reach, promotes a mariner when it has none, and answers to keep its cubes
alive (it pays iron, takes trophies and cards, feeds its animals with energy).

``play_game`` (rules_assist/greenland/selfplay.py) plays a whole game with them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Protocol

from tabletop.core import Command, Compound, Severity, TableState, actions

from ..questions import ONE_OF, PAYMENT, SPLIT, SUBSET, YES_NO, Question
from .checks import check
from .payments import UNPAID
from .view import ROW_PLACES, Greenland

HIT_CHANCE = {"warm": 1 / 3, "cold": 1 / 6}  # hits are 1s and 2s on the warm side, 1s on the cold


class Bot(Protocol):
    def answer(self, state: TableState, question: Question) -> Any: ...

    def assign(self, view: Greenland, colour: str) -> list[Command]: ...


# ---- what a colour may try ---------------------------------------------------------------
def legal(view: Greenland, command: Command, colour: str) -> bool:
    """The checker has no 'illegal' finding for the command on this table."""
    return not any(
        f.severity is Severity.ILLEGAL for f in check(view.state, command, colour, view.cards)
    )


def hunter_move(view: Greenland, cube: str, target: str) -> Command:
    """A cube to a card's hunting area, or (target 'rankN') a promotion paying its energy (E3)."""
    state = view.state
    colour = state.pieces[cube].owner
    if target.startswith("rank"):
        move = actions.move(state, cube, f"elder-{colour}", spot=target)
        bowl = state.places[f"energy_{colour}"].contents
        if view.has(colour, "free_promotion") or not bowl:
            return move
        pay = actions.move(state, bowl[-1], "supply_energy")
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
    if view.in_homeland(colour, target):
        return False
    return not view.mariners(colour) and not view.sleds(colour)


def _try(view: Greenland, cube: str, target: str, colour: str, out: list[Command]) -> bool:
    """Add the move to ``out`` and play it on the scratch table if it is legal."""
    if _without_transport(view, colour, target):
        return False  # what the checker would say (E1, E2), known without asking it
    command = hunter_move(view, cube, target)
    if not legal(view, command, colour):
        return False
    command.apply(view.state)
    out.append(command)
    return True


# ---- answers -----------------------------------------------------------------------------
def discard(bot: Any, state: TableState, question: Question, least_wanted: Any) -> Any:
    """B2: the cards to discard, non-D cards first so that the hand kept fits (hands.py)."""
    from .hands import discard_answer
    from .sequence import cards_for

    deck = bot.cards if bot.cards is not None else cards_for(state)
    return discard_answer(deck, question, least_wanted)


class RandomBot:
    """Random legal choices: a random subset of hunters to random cards, random answers."""

    def __init__(self, seed: int = 0, cards: Any = None) -> None:
        self.rng = random.Random(seed)
        self.cards = cards

    def answer(self, state: TableState, question: Question) -> Any:
        if question.kind == SUBSET and question.section == "B2":  # random cards, kept fit
            return discard(self, state, question, lambda row: self.rng.random())
        return question.random_answer(self.rng)

    @planned
    def assign(self, view: Greenland, colour: str) -> list[Command]:
        self.cards = view.cards
        targets = biomes(view)
        out: list[Command] = []
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
                if _try(view, cube, target, colour, out):
                    break
        return out

    def hunt_order(self, view: Greenland, cards: Sequence[str]) -> list[str]:
        return self.rng.sample(list(cards), len(cards))

    def elder_action(self, view: Greenland, colour: str, offered: Sequence[Any]) -> Any:
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


class GreedyBot:
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

    def elder_action(self, view: Greenland, colour: str, offered: Sequence[Any]) -> Any:
        """Play cards from the hand (I1, I4); nothing else."""
        return next((a for a in offered if str(a[0]).startswith(("Domestication", "Tool"))), None)

    def attack(self, view: Greenland, colour: str, card: str) -> bool:
        return False


def bot_named(name: str, seed: int = 0) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise ValueError(f"no bot {name!r}: random or greedy")


def play_game(*args: Any, **kwargs: Any) -> Any:
    """A whole game played by bots (rules_assist/greenland/selfplay.py)."""
    from .selfplay import play_game as play

    return play(*args, **kwargs)


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
    """The module's ``bots`` hook: the bots a seat can be given in the window, by name."""
    return {"random": lambda seed: SeatedRandomBot(seed), "greedy": lambda seed: SeatedGreedyBot()}


def _moving(state: TableState, module: Any, colour: str) -> tuple[Greenland, str] | None:
    """(view, phase) when ``colour`` has moves of its own to play now, else None.

    The assignment (E), negotiation (F) and elder (I) phases: the culture whose
    move it is (the first in order that has not finished); the hunt (G): the
    first player, who picks the cards' order (A4), while a card is left to hunt.
    """
    from .deck import Cards
    from .sequence import hunt_steps, status

    view = Greenland(state, Cards.of(module))
    now = status(view)
    phase = now["phase"]
    if now["game_over"]:
        return None
    if phase in ("assignment", "negotiation", "elders"):  # one after another (A2, A3, A5)
        return (view, phase) if now["whose_move"] == colour else None
    if phase == "hunt" and now["first_player"] == colour and hunt_steps(view, view.cards):
        return view, phase
    return None


def bot_waiting(state: TableState, module: Any, colour: str) -> bool:
    """The culture has moves of its own to play now (see ``_moving``)."""
    return _moving(state, module, colour) is not None


def bot_turn(table: Any, module: Any, colour: str, bot: Bot, run_step: Any) -> bool:
    """Play what ``colour`` does now with ``bot``; True if the table changed.

    Moves go through ``table.submit`` as ``colour``; procedures go through
    ``run_step(step) -> bool``, the window's phase panel, which routes each
    question to the seat it belongs to (a bot's own answers, a person's dialog).
    Assignment (E): its hunter moves (a refused move ends the plan), then it
    finishes. Negotiation (F): the attacks it wants in A3 order; where it must
    attack (A3) and does not want to, it proposes peace, and attacks when that
    is refused; then it finishes (a culture that finished and owes an attack
    comes back for it). Elder actions (I): the actions it picks, then it
    finishes. Hunt (G): as first player it hunts every card in the order it
    prefers.
    """
    from tabletop.core import Refused

    from ..phases import Step
    from .sequence import finish, hunt_steps

    found = _moving(table.state, module, colour)
    if found is None:
        return False
    view, phase = found
    if getattr(bot, "cards", "none") is None:
        bot.cards = view.cards  # type: ignore[attr-defined]
    done = Step(
        f"{colour}: done",
        "greenland.finish",
        finish,
        {"colour": colour, "cards": view.cards},
        actor=colour,
    )
    if phase == "assignment":
        for command in bot.assign(view, colour):
            try:
                table.submit(command, colour)
            except Refused:
                break
        return run_step(done)
    if phase == "negotiation":  # A3: the rounds of attacks in order; peace where it must attack
        from .negotiation import obligations, panel_steps

        pick = getattr(bot, "attack", None)
        tried: set[str] = set()
        changed = False
        for _ in range(64):
            view = Greenland(table.state, view.cards)
            offered = [s for s in panel_steps(view, view.cards) if s.actor == colour]
            steps = [
                s for s in offered if s.name == "greenland.attack" and s.params["card"] not in tried
            ]
            if not steps:
                break
            card = steps[0].params["card"]
            tried.add(card)
            wanted = pick is not None and bool(pick(view, colour, card))
            if not wanted and (colour, card) in obligations(view):
                peace = [s for s in offered if s.name == "greenland.peace"]
                peace = [s for s in peace if s.params["card"] == card]
                if peace and run_step(peace[0]):
                    changed = True
                else:  # refused, or the attacks there have begun: attack
                    wanted = True
            for _ in range(3 if wanted else 0):  # an answer the attack could not use: again
                if run_step(steps[0]):
                    changed = True
                    break
        if colour in (table.state.counters.get("phase.done") or ()):
            return changed
        return run_step(done) or changed
    if phase == "elders":
        from .elders import available_actions

        pick = getattr(bot, "elder_action", None)
        for _ in range(8):
            view = Greenland(table.state, view.cards)
            offered = available_actions(view, colour)
            action = pick(view, colour, offered) if offered and pick else None
            if action is None:
                break
            label, procedure, params = action
            step = Step(label, f"greenland.elder.{procedure.__name__}", procedure, params, colour)
            if not run_step(step):
                break
        return run_step(done)
    changed = False  # the hunt: every card, in the order the bot prefers
    for _ in range(64):
        view = Greenland(table.state, view.cards)
        steps = {s.params["card"]: s for s in hunt_steps(view, view.cards)}
        if not steps:
            break
        order = getattr(bot, "hunt_order", None)
        card = (order(view, list(steps)) if order else list(steps))[0]
        if not run_step(steps[card]):
            break
        changed = True
    return changed
