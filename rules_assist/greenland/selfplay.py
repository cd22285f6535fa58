"""Whole games of Greenland played by bots, through the procedures and the pipeline a person uses.

``play_game(module, variant, bots, seed)`` sets a game up (``new_game``), attaches
the checker in strict mode, and goes round the phases (A1): the event phase
(``event_phase``), hunter assignment (each bot's moves submitted through
``table.submit`` with the checker strict), negotiation (attacks when
negotiation.py offers them), the hunt (``hunt_card`` for every card with
hunters, in the order the first player's bot picks), the domestic animals
(``feed_animals``), the elder actions (when elders.py offers them) and
``next_phase``, until the game ends (J) or ``max_turns`` have been played.
Every question a procedure asks goes to the bot of the seat that owns it
(``Question.owner``), else (a question of the whole table) to the bot of the
culture the procedure is about, else to the first player's bot. With ``path`` the log is written as the game
goes and can be opened in the window.

``outcome(game)`` reads a finished game: each culture's score (scoring.py's
when it exists, else its cubes not in Valhalla), who survived and who won.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import Any

from tabletop.core import Mode, Policy, Refused
from tabletop.modules import new_game

from ..procedures import ChoiceNeeded, ProcedureError, run_procedure
from .bots import Bot
from .checks import checker_for
from .deck import Cards
from .events import event_phase
from .hunt import hunt_card
from .hunt import hunt_order as card_order
from .payments import d_cards
from .sequence import current_first, in_play, next_phase, player_order
from .view import ROW_PLACES, Greenland

try:  # scoring (J) is written beside this; without it the cubes alive decide
    from . import scoring as _scoring  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on what is there
    _scoring = None
try:  # elder actions (I)
    from . import elders as _elders  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _elders = None
try:  # negotiation and attacks (F)
    from . import negotiation as _negotiation  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _negotiation = None

MAX_QUESTIONS = 400
SEATS = {"two-player": ("red", "green")}


class Player:
    """One game being played: the table, the deck rows, the bots, and a hook after every phase."""

    def __init__(
        self,
        game: Any,
        cards: Cards,
        bots: Mapping[str, Bot],
        after_phase: Callable[[Any], None] | None = None,
    ) -> None:
        self.game = game
        self.table = game.table
        self.cards = cards
        self.bots = dict(bots)
        self.after_phase = after_phase
        for bot in self.bots.values():
            if getattr(bot, "cards", "none") is None:
                bot.cards = cards  # type: ignore[attr-defined]

    @property
    def view(self) -> Greenland:
        return Greenland(self.table.state, self.cards)

    def bot(self, colour: str | None) -> Bot:
        if colour in self.bots:
            return self.bots[colour]
        first = current_first(self.view)
        return self.bots.get(first or "", next(iter(self.bots.values())))

    # ---- procedures, with the bots answering -----------------------------------------
    def run(self, procedure: Any, name: str, who: str | None = None, **params: Any) -> Any:
        """Run a procedure as a person would, each question answered by the bot it belongs to."""
        actor = who or current_first(self.view) or "greenland"
        asked = [0]

        def answer(need: ChoiceNeeded, state: Any) -> Any:
            asked[0] += 1
            if asked[0] > MAX_QUESTIONS:
                raise ProcedureError(f"{name}: more than {MAX_QUESTIONS} questions")
            return self.bot(need.question.owner or who).answer(state, need.question)

        return run_procedure(self.table, actor, procedure, name=name, answerer=answer, **params)

    def phase_done(self) -> None:
        if self.after_phase is not None:
            self.after_phase(self.game)

    def next_phase(self) -> None:
        self.run(next_phase, "greenland.next_phase", cards=self.cards)
        self.phase_done()

    # ---- the phases ---------------------------------------------------------------------
    def turn(self) -> None:
        self.run(event_phase, "greenland.event", cards=self.cards)
        self.next_phase()
        if self.over:
            return
        self.assignment()
        self.next_phase()
        self.negotiation()
        self.next_phase()
        self.hunt()
        self.next_phase()
        if any(d_cards(self.view, c) for c in self.view.seats()):  # else H has nothing to do
            self.run(feed_animals_procedure(), "greenland.animals", cards=self.cards)
        self.next_phase()
        self.elder_actions()
        self.next_phase()

    def assignment(self) -> None:
        for colour in player_order(self.view, current_first(self.view)):
            for command in self.bot(colour).assign(self.view, colour):
                try:
                    self.table.submit(command, colour)
                except Refused:
                    break  # the bot's plan went wrong: the rest stays home

    def negotiation(self) -> None:
        """F: attacks and the New World (negotiation.py), when it is there."""
        if _negotiation is not None:
            play_negotiation(self)

    def hunt(self) -> None:
        done: set[str] = set()
        chooser = self.bot(current_first(self.view))
        while True:
            waiting = [pid for pid in self.huntable() if pid not in done]
            if not waiting:
                return
            order = getattr(chooser, "hunt_order", None)
            card = (order(self.view, waiting) if order else waiting)[0]
            done.add(card)
            hunters = card_order(self.view, card)
            self.run(
                hunt_card,
                "greenland.hunt",
                hunters[0] if len(hunters) == 1 else None,
                card=card,
                cards=self.cards,
            )

    def huntable(self, raids: bool = False) -> list[str]:
        """Cards with hunters who roll on them (with ``raids``, every card with cubes on it)."""
        view = self.view
        occupied = {  # the cards with a cube in their hunting area (a card's regions: its id)
            cube.place
            for colour in view.seats()
            for cube in view.cubes(colour)
            if cube.spot == "hunters"
        }
        places = [*ROW_PLACES, *(f"tableau_{c}" for c in view.seats())]
        found = []
        for place in places:
            tableau = place.startswith("tableau_")
            for pid in view.state.places[place].contents if place in view.state.places else ():
                # on a biome every culture with hunters there rolls; on a tableau card, raiders
                if pid in occupied and (raids or not tableau or card_order(view, pid)):
                    found.append(pid)
        return found

    def elder_actions(self) -> None:
        """I: the elder actions elders.py offers, when it is there."""
        offer = getattr(_elders, "available_actions", None) if _elders is not None else None
        if offer is None:
            return
        play_elder_actions(self, offer)

    @property
    def over(self) -> bool:
        view = self.view
        if view.counter("game_over") is not None or not in_play(view):
            return True
        ended = getattr(_scoring, "game_over", None)
        return bool(ended(view)) if ended is not None else False


def feed_animals_procedure() -> Any:
    from .animals import feed_animals

    return feed_animals


def play_elder_actions(player: Player, offer: Any) -> None:
    """I: each culture in elder order takes the actions elders.py offers while its bot picks one."""
    from .sequence import elder_order

    for colour in elder_order(player.view):
        for _ in range(8):
            offered = list(offer(player.view, colour))
            pick = getattr(player.bot(colour), "elder_action", None)
            action = pick(player.view, colour, offered) if offered and pick else None
            if action is None:
                break
            _label, procedure, params = action
            try:
                player.run(procedure, f"greenland.elder.{procedure.__name__}", colour, **params)
            except ProcedureError:
                break


def play_negotiation(player: Player) -> None:
    """F: the attacks the bots choose, in A3 order, then the New World turns hostile (F3).

    The rounds of attacks are taken one at a time as negotiation.py offers them
    (``ready_attacks``: most iron first, a card's war chiefs in order). A bot
    that must attack (A3) and does not want to proposes peace there, and
    attacks when the others refuse it.
    """
    neg = _negotiation
    handled: set[tuple[str, str]] = set()
    while True:
        view = player.view
        waiting = [pair for pair in neg.ready_attacks(view) if pair not in handled]
        if not waiting:
            break
        colour, card = waiting[0]
        handled.add((colour, card))
        pick = getattr(player.bot(colour), "attack", None)
        wanted = bool(pick and pick(view, colour, card))
        if not wanted and (colour, card) in neg.obligations(view):
            try:
                player.run(
                    neg.agree_peace,
                    "greenland.peace",
                    colour,
                    colour=colour,
                    card=card,
                    cards=player.cards,
                )
            except ProcedureError:  # refused, or the attacks there have begun: attack
                wanted = True
        for _ in range(3 if wanted else 0):  # an answer the attack could not use: ask again
            with suppress(ProcedureError):
                player.run(
                    neg.attack,
                    "greenland.attack",
                    colour,
                    colour=colour,
                    card=card,
                    cards=player.cards,
                )
                break
    player.run(neg.resolve_new_world, "greenland.new_world", cards=player.cards)


# ---- a whole game -------------------------------------------------------------------------
def play_game(
    module: Any,
    variant: str,
    bots: Mapping[str, Bot],
    seed: int,
    max_turns: int = 40,
    path: str | os.PathLike[str] | None = None,
    after_phase: Callable[[Any], None] | None = None,
    wrap_checker: Callable[[Any], Any] | None = None,
) -> Any:
    """Set a game up and let the bots play it to the end (J) or ``max_turns``; the Game.

    The game's log is at ``path`` when one is given (the game is left open:
    close it when done). ``after_phase(game)`` is called after the setup and
    after every phase (for invariants); ``wrap_checker`` wraps the table's
    checker (for timing).
    """
    game = new_game(module, seats=list(bots), variant=variant, seed=seed, path=path)
    try:
        checker = checker_for(module)
        game.table.checker = wrap_checker(checker) if wrap_checker else checker
        game.table.policy = Policy(Mode.STRICT)
        player = Player(game, Cards.of(module), bots, after_phase)
        player.phase_done()
        while not player.over:
            turn = int(game.state.counters.get("turn", 1) or 1)
            if turn > max_turns:
                break
            player.turn()
    except BaseException:
        game.close()
        raise
    return game


def seats_for(variant: str) -> tuple[str, ...]:
    return SEATS.get(variant, ("red", "yellow", "green"))


# ---- reading the result -------------------------------------------------------------------
def alive(view: Greenland, colour: str) -> int:
    return sum(1 for cube in view.cubes(colour) if not cube.place.startswith("valhalla_"))


def scores(state: Any, cards: Cards) -> dict[str, float]:
    """Each culture's victory points: scoring.py's total when it is there, else its cubes alive."""
    view = Greenland(state, cards)
    score = getattr(_scoring, "score", None)
    if score is not None:
        return {colour: float(entry["total"]) for colour, entry in score(view).items()}
    return {colour: float(alive(view, colour)) for colour in view.seats()}


def outcome(game: Any, cards: Cards) -> dict[str, Any]:
    """Scores, survivors, winners (every culture tied on the best score) and the turns played."""
    state = game.state
    view = Greenland(state, cards)
    points = scores(state, cards)
    surviving = set(in_play(view))
    best = max((points[c] for c in surviving), default=None)
    return {
        "scores": points,
        "survived": sorted(surviving),
        "winners": sorted(c for c in surviving if points[c] == best),
        "turns": int(state.counters.get("game_over") or state.counters.get("turn", 1) or 1),
        "over": state.counters.get("game_over") is not None or not surviving,
    }


# ---- invariants --------------------------------------------------------------------------
SMALL_CUBES = 18
DISK_SUPPLY = {"energy": 24, "ivory": 12, "iron": 12}


def invariant_problems(state: Any, cards: Cards) -> list[str]:
    """What breaks the physical limits on this table (empty when all is well).

    18 small cubes and an Alpha a colour, on the table; every disk of the set
    (24 energy, 12 ivory, 12 iron) still there, substitutes beside them only
    for ivory and iron (B4: energy is limited, ivory and iron are not); at most
    8 energy a culture; at most one husband a daughter (F1); every hand within
    its hand size (B2); every piece in one place. One look at each piece, so
    it can run after every entry of a game.
    """
    from .hands import excess, hand, hand_size

    view = Greenland(state, cards)
    problems = []
    problem = state.consistency_problem()
    if problem:
        problems.append(problem)
    cubes: Counter[tuple[str | None, str]] = Counter()
    disks: dict[str, set[str]] = {kind: set() for kind in DISK_SUPPLY}
    rows = cards.rows
    for pid, piece in state.pieces.items():
        kind = piece.kind
        if kind in ("cube", "alpha"):
            cubes[(piece.owner, kind)] += 1
        elif kind in disks:
            disks[kind].add(pid)
        elif pid in state.places and rows.get(piece.props.get("card", ""), {}).get("type") == (
            "daughter"
        ):
            husbands = sum(
                1 for c in state.places[pid].contents if state.pieces[c].spot == "exogamy"
            )
            if husbands > 1:
                problems.append(f"{view.name(pid)} has {husbands} husbands (F1: one)")
    for colour in view.seats():
        small, alphas = cubes[(colour, "cube")], cubes[(colour, "alpha")]
        if (small, alphas) != (SMALL_CUBES, 1):
            problems.append(f"{colour} has {small} cubes and {alphas} Alpha, not 18 and 1")
        if view.disks(colour, "energy") > 8:
            problems.append(f"{colour} holds {view.disks(colour, 'energy')} energy (B4: 8 at most)")
        held = hand(view, colour)
        if held and excess(view, hand_size(view, colour), held):
            problems.append(f"{colour} holds {len(held)} hand cards, more than its hand size (B2)")
    for kind, count in DISK_SUPPLY.items():
        ids = disks[kind]
        standard = {f"{kind}-{n}" for n in range(1, count + 1)}
        missing = standard - ids
        if missing:
            problems.append(f"{len(missing)} {kind} disks are gone from the table")
        substitutes = len(ids) - (count - len(missing))
        if substitutes and kind == "energy":  # B4: energy is limited to the 24 disks
            problems.append(f"{substitutes} substitute energy disks (B4: energy is limited)")
    return problems


# ---- many games ---------------------------------------------------------------------------
def simulate(
    module: Any,
    variant: str,
    bot_names: list[str],
    games: int,
    seed: int = 0,
    *,
    max_turns: int = 40,
    save_logs: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds seed, seed+1, ...) and sum them up per culture.

    ``bot_names`` gives one bot a seat in seating order (one name: every seat).
    With ``save_logs`` each game's log is written there as game-<seed>.jsonl.
    """
    import time

    from .bots import bot_named

    seats = seats_for(variant)
    if len(bot_names) == 1:
        bot_names = bot_names * len(seats)
    if len(bot_names) != len(seats):
        raise ValueError(f"the {variant} game has {len(seats)} cultures: name {len(seats)} bots")
    cards = Cards.of(module)
    totals = {c: {"wins": 0, "survived": 0, "vp": 0.0} for c in seats}
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        bots = {
            c: bot_named(n, game_seed * 10 + k)
            for k, (c, n) in enumerate(zip(seats, bot_names, strict=True))
        }
        path = None
        if save_logs is not None:
            path = os.path.join(save_logs, f"game-{game_seed}.jsonl")
        game = play_game(module, variant, bots, game_seed, max_turns=max_turns, path=path)
        try:
            result = outcome(game, cards)
        finally:
            game.close()
        turns += result["turns"]
        for colour in seats:
            totals[colour]["vp"] += result["scores"][colour]
            totals[colour]["survived"] += colour in result["survived"]
            totals[colour]["wins"] += colour in result["winners"]
        if progress is not None:
            progress(i + 1, games)
    elapsed = time.perf_counter() - start
    summary: dict[str, Any] = {
        "games": games,
        "variant": variant,
        "bots": dict(zip(seats, bot_names, strict=True)),
        "mean_turns": round(turns / games, 2) if games else 0.0,
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
        "scoring": "victory points (J)" if _scoring is not None else "cubes not in Valhalla",
    }
    for colour, t in totals.items():
        summary[colour] = {
            "wins": t["wins"],
            "survived": t["survived"],
            "mean_vp": round(t["vp"] / games, 2) if games else 0.0,
            "win_rate": round(t["wins"] / games, 3) if games else 0.0,
            "survival_rate": round(t["survived"] / games, 3) if games else 0.0,
        }
    return summary
