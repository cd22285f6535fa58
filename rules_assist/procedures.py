"""Procedures: the fiddly sequences of a game (a hunt roll, a migration) as one undoable compound command.

A procedure is a function ``procedure(ctx, **params)`` that reads the table
through ``ctx.state`` and changes it only through ``ctx`` (moves, flips,
counters, rolls). Every step is applied as it is made, so later steps see the
earlier ones. When the procedure stops its steps are taken back by their
exact inverses; when it ends they become one compound command submitted
through the table's pipeline as they stand (taken back first only if the
checker must see the table as it was): one log entry, one undo, and the views
told once.

Dice are rolled on the table's physical dice (in batches when there are more
hunters than dice); the randomizer proposes the faces or takes forced ones in
the order the procedure rolls them, and the Roll commands record them.

Choices the rules leave to a player are typed questions
(rules_assist/questions.py) asked with ``ctx.answer``: the answer comes from
the ``choices`` the caller gives (the window asks the player, the command
line takes options). Without an answer the procedure stops with ChoiceNeeded,
naming every question it could see and what would answer each; nothing is
answered silently for a person, and nothing on the table changes. A caller
that can answer on the spot (a bot) gives an ``answerer`` instead: it is
asked the question as it comes up, on the table as the procedure has made it
so far, and the procedure goes on without starting again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabletop.core import Change, Command, Compound, Roll, Table, TableError, TableState, actions

from .questions import AnswerError, Question


class ChoiceNeeded(TableError):
    """A procedure needs decisions that were not given: the first question, and any more it
    could already see (``questions``, the first among them)."""

    def __init__(self, question: Question, more: Sequence[Question] = ()) -> None:
        self.question = question
        self.questions: tuple[Question, ...] = (question, *more)
        super().__init__("; ".join([q.describe() for q in self.questions]))

    @property
    def key(self) -> str:
        return self.question.key

    @property
    def text(self) -> str:
        return self.question.text

    @property
    def options(self) -> list[str]:
        return list(self.question.options)

    @property
    def owner(self) -> str | None:
        return self.question.owner


class ProcedureError(TableError):
    """A procedure cannot run on this table (the rules do not allow it now)."""


class ProcedureContext:
    """What a procedure works with: a scratch state, the steps made so far, the dice, the choices."""

    def __init__(
        self,
        table: Table,
        actor: str,
        choices: Mapping[str, Any] | None = None,
        dice: Sequence[str] | None = None,
        answerer: Callable[[ChoiceNeeded, TableState], Any] | None = None,
        answered: list[tuple[Question, str]] | None = None,
    ) -> None:
        self.table = table
        self.answerer = answerer  # answers a question on the spot, else ChoiceNeeded
        self.actor = actor
        self.state: TableState = table.state  # the live table: steps apply as they are made
        self._mark = self.state.mark()
        self.choices = dict(choices or {})
        self.missing: list[Question] = []  # questions nobody answered (run without an answerer)
        # the questions answered from the choices given, each with the key it was answered by
        # (whose answer it was: a caller that takes answers from several seats checks owners)
        self.answered: list[tuple[Question, str]] = answered if answered is not None else []
        self.steps: list[Command] = []
        self.notes: list[str] = []
        self.rolls: list[tuple[str, list[int]]] = []  # (what, faces) for the record
        self._dice: list[str] | None = (
            list(dice) if dice is not None else None
        )  # found on the first roll

    # ---- changing the scratch table ----------------------------------------
    def do(self, command: Command) -> Command:
        command.apply(self.state)
        self.steps.append(command)
        return command

    def build(self, builder: Callable[[TableState], Command]) -> Command:
        return self.do(builder(self.state))

    def move(
        self, pid: str, place: str, *, spot: str | None = None, index: int | None = None
    ) -> Command:
        return self.do(actions.move(self.state, pid, place, spot=spot, index=index))

    def flip(self, pid: str, face_up: bool | None = None) -> Command:
        return self.do(actions.flip(self.state, pid, face_up))

    def set_property(self, pid: str, key: str, value: Any) -> Command:
        return self.do(actions.set_property(self.state, pid, key, value))

    def set_counter(self, name: str, value: Any) -> Command:
        return self.do(actions.set_counter(self.state, name, value))

    def rotate(self, pid: str, quarter_turns: int = 1) -> Command:
        return self.do(actions.rotate(self.state, pid, quarter_turns))

    def add(self, record: dict[str, Any], place: str, *, spot: str | None = None) -> Command:
        """Put a new piece on the table (a substitute disk when the supply runs out, B4)."""
        return self.do(actions.add_piece(self.state, record, place, spot=spot))

    def remove(self, pid: str) -> Command:
        return self.do(actions.remove_piece(self.state, pid))

    def note(self, text: str) -> None:
        """A sentence for the log entry's label (what happened, in the game's words)."""
        self.notes.append(text)

    # ---- dice ------------------------------------------------------------------
    def roll(self, count: int, what: str = "roll") -> list[int]:
        """Roll ``count`` dice (the table's dice, in batches) and return the faces in order."""
        if count <= 0:
            return []
        if self._dice is None:
            memo = self.state.layout_memo()
            dice = memo.get("dice")
            if dice is None:
                dice = memo["dice"] = [
                    p.id for p in self.state.pieces.values() if p.props.get("faces")
                ]
            self._dice = dice
        if not self._dice:
            raise ProcedureError("there are no dice on the table")
        faces: list[int] = []
        while len(faces) < count:
            batch = self._dice[: min(len(self._dice), count - len(faces))]
            pieces = [self.state.pieces[pid] for pid in batch]
            new, forced = self.table.random.faces([p.props["faces"] for p in pieces])
            self.do(Roll(tuple(batch), tuple([p.value for p in pieces]), new, forced))
            faces.extend(new)
        self.rolls.append((what, list(faces)))
        return faces

    # ---- choices ---------------------------------------------------------------
    def answer(self, question: Question) -> Any:
        """The answer to a typed question, parsed (``Question.parse``): from the choices given,
        else the answerer's, else ChoiceNeeded.

        Without an answerer, a question left unanswered is noted and the procedure goes on
        with the question's plainest answer, to see the questions that follow; it then stops
        with ChoiceNeeded listing them all (``run_procedure``), changing nothing.
        """
        key = question.key
        if key in self.choices:
            self.answered.append((question, key))
        else:
            if self.answerer is not None:
                self.choices[key] = self.answerer(ChoiceNeeded(question), self.state)
            else:
                if all(q.key != key for q in self.missing):  # asked again: listed once
                    self.missing.append(question)
                if not question.answerable():
                    raise ChoiceNeeded(self.missing[0], self.missing[1:])
                return question.default()
        try:
            return question.parse(self.choices[key])
        except AnswerError as exc:
            raise ProcedureError(str(exc)) from None

    def choose(
        self, key: str, question: str, options: Sequence[Any], owner: str | None = None
    ) -> Any:
        """One of ``options`` (the option itself, not its text): a ``one_of`` question."""
        asked = Question.one_of(key, question, options, owner)
        text = self.answer(asked)
        for option in options:
            if str(option) == text:
                return option
        return text

    def take_back(self) -> None:
        """Undo every step on the table, last first: the procedure's steps go in as one compound."""
        for command in reversed(self.steps):
            command.inverse().apply(self.state)
        self.steps = []
        self.state.back_to(self._mark)

    def compound(self, label: str, procedure: str) -> Compound:
        text = label if not self.notes else f"{label}: {'; '.join(self.notes)}"
        return Compound(text, tuple(self.steps), procedure)


def run_procedure(
    table: Table,
    actor: str,
    procedure: Callable[..., str],
    *,
    name: str,
    choices: Mapping[str, Any] | None = None,
    answerer: Callable[[ChoiceNeeded, TableState], Any] | None = None,
    answered: list[tuple[Question, str]] | None = None,
    **params: Any,
) -> Change | None:
    """Run a procedure and submit its steps as one compound; None if it changed nothing.

    The procedure returns its label. If it stops (a choice needed, a rule not
    met) or the table refuses the compound, the table and its randomizer are
    as they were. ``answerer(need, state)`` answers the questions ``choices``
    does not (see ProcedureContext). ``answered``, when given, receives every question answered
    from ``choices`` with the key that answered it, also when the procedure stops.
    """
    mark = table.random.mark()
    ctx = ProcedureContext(table, actor, choices, answerer=answerer, answered=answered)
    try:
        label = procedure(ctx, **params)
        compound = ctx.compound(label, name)
        if ctx.missing:  # answered with stand-ins to see what else is asked: nothing goes in
            raise ChoiceNeeded(ctx.missing[0], ctx.missing[1:])
    except TableError as exc:
        ctx.take_back()
        table.random.restore(mark)
        if ctx.missing and not isinstance(exc, ChoiceNeeded):
            # a stand-in answer led somewhere the rules refuse: the questions are what is missing
            raise ChoiceNeeded(ctx.missing[0], ctx.missing[1:]) from None
        raise
    except BaseException:
        ctx.take_back()
        table.random.restore(mark)
        raise
    if not ctx.steps:
        table.random.restore(mark)
        return None
    try:  # the steps are on the table: the compound goes in as it is (Table.submit's ``applied``)
        return table.submit(compound, actor, applied=True)
    except BaseException:
        table.random.restore(mark)
        raise
