"""The game interface's own parts: variants as data, the procedures' table, the phase guard,
and what a game that gives nothing offers."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from rules_assist.bots import RandomBot, legal, random_bots
from rules_assist.driver import Driver, Status
from rules_assist.game import (
    STANDARD,
    Game,
    Parameter,
    ProcedureSpec,
    ProcedureTable,
    Variant,
    variants_of,
)
from rules_assist.procedures import ProcedureError
from tabletop.core import actions
from tabletop.modules import load_module
from tests.sample_table import sample_table

TOY = Path(__file__).parent.parent / "toy"


def step(ctx, **params) -> str:
    ctx.set_counter("stepped", params.get("n", 1))
    return "step"


def other(ctx) -> str:
    return "other"


def test_variants_come_from_the_modules_data():
    found = variants_of(load_module(TOY))
    assert list(found) == ["standard", "quick", "crowded"]
    assert found["quick"].param("cubes") == 2 and found["quick"].param("crowd", 9) == 9
    assert found["crowded"].rules_off == ("R3",) and found["crowded"].off("R3")
    assert not found["standard"].off("R3") and found["standard"].name == "Standard"
    assert variants_of(SimpleNamespace()) == {}


def test_a_variant_plays_without_a_section_or_the_whole_letter():
    variant = Variant("v", rules_off=("E5", "F"))
    assert variant.off("E5") and variant.off("F1") and variant.off("F")
    assert not variant.off("E4") and not STANDARD.off("E5")


def test_the_procedures_table_lists_each_once_in_order():
    specs = ProcedureTable(
        [
            ProcedureSpec(
                "step", step, "S1", ("main",), "take a step", (Parameter("n", kind="int"),)
            ),
            ProcedureSpec("other", other, log_name="game.other"),
        ]
    )
    assert specs.names() == ["step", "other"] and len(specs) == 2 and "step" in specs
    assert [s.recorded_as for s in specs] == ["step", "game.other"]
    assert specs.by_function(other).name == "other" and specs.by_function(print) is None
    with pytest.raises(ValueError, match="the procedure 'step' is listed twice"):
        specs.add(ProcedureSpec("step", other))
    with pytest.raises(ProcedureError, match="no procedure 'jump'; there are step, other"):
        specs.get("jump")


class Phased(Game):
    """A game with two phases; its one procedure belongs to the first."""

    spec = ProcedureSpec("step", step, phases=("main",))

    @property
    def procedures(self) -> ProcedureTable:
        return ProcedureTable([self.spec])

    @property
    def flow(self):
        return SimpleNamespace(
            phase=lambda state: state.counters.get("phase", "main"),
            phase_label=lambda p: p.title(),
            status=lambda state: Status(1, "main", "Main"),
            is_terminal=lambda state: False,
        )


def test_a_procedure_runs_in_its_phase_and_is_refused_outside_it():
    game, table = Phased(SimpleNamespace(id="phased")), sample_table()
    game.run(table, "step", "red", {"n": 3})
    assert table.state.counters["stepped"] == 3
    table.submit(actions.set_counter(table.state, "phase", "end"), "red")
    with pytest.raises(ProcedureError) as refused:
        game.run(table, "step", "red")
    assert str(refused.value) == "step belongs to the Main phase; the game is in the End phase"


def test_a_game_that_gives_nothing_offers_nothing():
    game, table = Game(SimpleNamespace(id="bare")), sample_table()
    assert game.id == "bare" and game.rulebook is None
    assert game.checker() is None and game.audit(table.state) is None
    assert game.flow is None and len(game.procedures) == 0 and game.bots == {}
    assert game.variants == {} and game.variant(table.state).id == "standard"
    assert game.score(table.state) is None
    move = actions.move(table.state, "cube0", "row")
    assert game.complete_move(table.state, move) is move
    with pytest.raises(ValueError, match="bare has no turn flow"):
        Driver(game, table)


def test_random_bots_are_seeded_by_seat():
    bots = random_bots(["red", "blue"], 4)
    assert [b.rng.random() for b in bots.values()] == [
        RandomBot(40).rng.random(),
        RandomBot(41).rng.random(),
    ]
    driver = SimpleNamespace(table=sample_table())
    assert legal(driver, actions.move(driver.table.state, "cube0", "row"), "red")
