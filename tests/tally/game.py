"""Tally, a test game for the generic command line and simulation (tests/fixtures/modules/tally).

Each seat bids 0 to 3 (T1; the highest bid, ties to the first seat, starts),
then the seats take turns rolling the die (T2), each may roll again once and
keep the second face, until every seat has rolled ``rounds`` times; a seat may
give points of its tally to another (T3); the highest tally wins. Sections are
this file's own numbering.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from rules_assist.bots import RandomBot
from rules_assist.driver import Action, Status
from rules_assist.game import Game, Parameter, ProcedureSpec, ProcedureTable
from rules_assist.procedures import ProcedureContext, ProcedureError
from rules_assist.questions import Question
from tabletop.core import TableState

PHASES = ("bidding", "play", "over")
LABELS = {"bidding": "Bidding", "play": "Play", "over": "Game over"}


def phase_of(state: TableState) -> str:
    return str(state.counters.get("phase") or "bidding")


def tally(state: TableState, seat: str) -> int:
    return int(state.counters.get(f"tally_{seat}") or 0)


def to_roll(state: TableState) -> str:
    seats = [s.id for s in state.seats]
    first = seats.index(str(state.counters.get("first") or seats[0]))
    rolled = int(state.counters.get("rolled") or 0)
    return seats[(first + rolled) % len(seats)]


def bid(ctx: ProcedureContext) -> str:
    """T1: every seat bids 0 to 3; the highest starts."""
    bids = {}
    for seat in ctx.state.seats:
        answer = ctx.answer(
            Question.one_of(f"bid_{seat.id}", f"{seat.name}'s bid", ["0", "1", "2", "3"], seat.id)
        )
        bids[seat.id] = int(answer)
    first = max(bids, key=lambda s: bids[s])
    ctx.set_counter("first", first)
    ctx.set_counter("phase", "play")
    return f"bids {', '.join(f'{s} {n}' for s, n in bids.items())}: {first} starts"


def roll(ctx: ProcedureContext, seat: str, bonus: int = 0) -> str:
    """T2: the seat to roll rolls the die, may roll again and keep the second face."""
    if seat != to_roll(ctx.state):
        raise ProcedureError(f"it is {to_roll(ctx.state)}'s roll, not {seat}'s")
    (face,) = ctx.roll(1, "tally")
    if ctx.answer(Question.yes_no("again", f"{seat} rolled {face}: roll again?", seat)):
        (face,) = ctx.roll(1, "again")
    ctx.set_counter(f"tally_{seat}", tally(ctx.state, seat) + face + bonus)
    rolled = int(ctx.state.counters.get("rolled") or 0) + 1
    ctx.set_counter("rolled", rolled)
    if rolled >= int(ctx.state.counters.get("rounds") or 2) * len(ctx.state.seats):
        ctx.set_counter("phase", "over")
    return f"{seat} tallies {face + bonus}"


def give(ctx: ProcedureContext, seat: str, to: str, points: int = 1) -> str:
    """T3: a seat gives points of its tally to another."""
    if points > tally(ctx.state, seat):
        raise ProcedureError(f"{seat} has only {tally(ctx.state, seat)} points to give")
    ctx.set_counter(f"tally_{seat}", tally(ctx.state, seat) - points)
    ctx.set_counter(f"tally_{to}", tally(ctx.state, to) + points)
    return f"{seat} gives {to} {points}"


PROCEDURES = ProcedureTable(
    [
        ProcedureSpec(
            "bid",
            bid,
            "T1",
            ("bidding",),
            "every seat bids; the highest starts",
            (
                Parameter(
                    "bid",
                    "a seat's bid, e.g. red=2 (a seat left out bids 0)",
                    kind="list",
                    pairs=True,
                    answers="bid_{key}",
                    keys="seat",
                    default="0",
                    metavar="SEAT=N",
                ),
            ),
            log_name="tally.bid",
        ),
        ProcedureSpec(
            "roll",
            roll,
            "T2",
            ("play",),
            "the seat to roll rolls the die",
            (
                Parameter("seat", kind="actor", required=True),
                Parameter("again", "roll again", kind="flag", answers="again", negative="--stand"),
                Parameter("bonus", "points added to the face", kind="int"),
            ),
            log_name="tally.roll",
            example="tabletop run game.jsonl roll --seat red --stand -o next.jsonl",
        ),
        ProcedureSpec(
            "give",
            give,
            "T3",
            ("play", "over"),
            "give points of your tally to another seat",
            (
                Parameter("seat", kind="actor", required=True),
                Parameter("to", "the seat given the points", kind="seat", required=True),
                Parameter("points", "how many", kind="int", default=1),
            ),
        ),
    ]
)


class TallyFlow:
    phases = PHASES

    def phase(self, state: TableState) -> str:
        return phase_of(state)

    def phase_label(self, phase: str) -> str:
        return LABELS.get(phase, phase)

    def status(self, state: TableState) -> Status:
        phase = phase_of(state)
        if phase == "bidding":
            return Status(
                None, phase, LABELS[phase], None, ("Every seat bids",), (Action("Bid", "bid"),)
            )
        if phase == "play":
            seat = to_roll(state)
            action = Action(f"{seat} rolls", "roll", {"seat": seat}, seat)
            return Status(None, phase, LABELS[phase], seat, (f"{seat} to roll",), (action,))
        return Status(None, phase, LABELS[phase], None, ("The game is over",))

    def is_terminal(self, state: TableState) -> bool:
        return phase_of(state) == "over"

    def returns(self, state: TableState) -> dict[str, float]:
        return {s.id: float(tally(state, s.id)) for s in state.seats}


class TallyGame(Game):
    seat_word = "Player"

    @cached_property
    def procedures(self) -> ProcedureTable:  # type: ignore[override]
        return PROCEDURES

    @cached_property
    def flow(self) -> TallyFlow:  # type: ignore[override]
        return TallyFlow()

    has_score = True

    def score(self, state: TableState) -> list[dict[str, Any]]:
        over = phase_of(state) == "over"
        return [{"seat": s.id, "tally": tally(state, s.id), "final": over} for s in state.seats]

    def summary(self, state: TableState) -> list[str]:
        return [f"{s.name}: tally {tally(state, s.id)}" for s in state.seats]

    @property
    def bots(self) -> dict[str, Any]:
        return {"random": RandomBot}

    def bench(self, say: Any) -> dict[str, Any]:
        say("rolling a tally")
        return {"tally_bench": 1}
