"""Who acted, for any game (Race, tests/toy): the owner of what moves, else the seat to move; a
bot named as a bot; the generic rule 'table' (only the owner moves their pieces) and rules about
a procedure, through the table's checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.rules import Rulebook, table_only_owners_move
from tabletop.core import (
    Compound,
    Mode,
    Policy,
    Refused,
    actions,
    actor_label,
    bot_actor,
    is_bot,
    owners_moved,
    seat_of,
)
from tabletop.core.findings import Finding, Severity
from tabletop.inspection import entry_text
from tabletop.modules import load_module, new_game
from tabletop.modules.rules import game_of

TOY = Path(__file__).resolve().parents[1] / "toy"


@pytest.fixture(scope="module")
def race():
    return game_of(load_module(TOY))


def test_a_bot_is_named_as_a_bot_and_old_actors_read_as_before() -> None:
    assert bot_actor("red") == "bot:red" and bot_actor("bot:red") == "bot:red"
    assert is_bot("bot:red") and not is_bot("red")
    assert seat_of("bot:red") == "red" and seat_of("red") == "red" and seat_of("table") == "table"
    names = {"red": "Norse"}
    assert actor_label("bot:red", names) == "Norse (bot)"
    assert actor_label("red", names) == "Norse" and actor_label("table", names) == "table"


def test_who_acted_is_the_owner_else_the_seat_to_move(race) -> None:
    session = new_game(race.module, seats="red,blue", seed=1)
    state = session.state
    blue = actions.move(state, "cube-blue-1", "track", spot="1")
    assert owners_moved(state, blue) == ["blue"]
    assert race.who_acted(state, blue) == "blue"  # whoever's turn it is (red's)
    assert race.who_acted(state, blue, acting_as="red") == "red"  # a player said otherwise
    both = Compound("two cubes", (blue, actions.move(state, "cube-red-1", "track", spot="1")))
    assert race.who_acted(state, both) == "blue"  # several owners, nobody to move: the first
    die = actions.move(state, "die", "tray")
    assert owners_moved(state, die) == [] and race.who_acted(state, die) is None  # the roll: chance
    session.table.random.force_faces([3])
    race.run(session.table, "roll", "toy")
    assert race.who_acted(session.state, die) == "red"  # red to move: nobody's pieces are red's
    assert race.who_acted(session.state, both) == "red"  # several owners: the seat to move


def test_table_only_the_owner_moves_their_pieces(race) -> None:
    """The rule 'table', judged as the seat acting (a bot as its seat); the table itself and the
    owner move freely."""
    session = new_game(race.module, seats="red,blue", seed=1)
    book = Rulebook(reading=lambda state: state)
    book.transition("table", "only the owner moves their pieces", actor=True)(
        table_only_owners_move
    )
    table = session.table
    table.checker, table.policy = book.checker(), Policy(Mode.STRICT)
    move = actions.move(session.state, "cube-blue-1", "track", spot="1")
    for actor in ("blue", "bot:blue", "toy"):
        assert table.check(move, actor) == []
    for actor in ("red", "bot:red"):
        (found,) = table.check(move, actor)
        assert (found.rule, found.pieces) == ("table", ("cube-blue-1",))
        assert (
            found.message == "only the owner moves their pieces: cube-blue-1 is blue's, not red's"
        )
    with pytest.raises(Refused, match="only the owner moves their pieces"):
        table.submit(move, "red")
    table.policy = Policy(Mode.ADVISORY)
    change = table.submit(move, "bot:red")
    assert [f.rule for f in change.findings] == ["table"]
    assert "red (bot)" in entry_text(change.entry) and "! table (illegal)" in entry_text(
        change.entry
    )


def test_a_procedure_rule_makes_the_checker_look_at_that_procedure(race) -> None:
    session = new_game(race.module, seats="red,blue", seed=1)
    book = Rulebook(reading=lambda state: state)

    @book.procedure_rule("R9", "no end of turn on the start", procedures=("toy.end-turn",))
    def r9_not_yet(state, command, seat):  # noqa: ANN001, ANN202
        yield Finding("R9", f"{seat}: not yet ({command.label})", Severity.ILLEGAL)

    checker = book.checker()
    assert checker.trusts_procedures and checker.checks_procedures == {"toy.end-turn"}
    table = session.table
    table.checker, table.policy = checker, Policy(Mode.STRICT)
    step = actions.set_counter(session.state, "phase", "move")
    assert table.check(Compound("a roll", (step,), "toy.roll"), "red") == []  # trusted
    before = session.state.digest()
    with pytest.raises(Refused, match="R9: red: not yet"):
        table.submit(Compound("end", (step,), "toy.end-turn"), "bot:red")
    assert session.state.digest() == before
