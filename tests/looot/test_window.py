"""Looot in the window, played with the mouse: a Viking dragged onto a legal hex gains its
tiles as the ``viking`` procedure does (DE:20); the phase panel offers the turn's procedures."""

from __future__ import annotations

import pytest

from rules_assist.looot.moves import looot_game
from rules_assist.looot.reading import Looot
from rules_assist.looot.rules.legal import viking_spaces
from tabletop.modules import find_module
from tests.ui.conftest import Table, games_dir, settings, settings_path, window  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def table(qtbot, window):  # noqa: ANN001, ANN201, F811
    return Table(qtbot, window)


def test_de20_a_viking_dragged_onto_a_legal_hex_gains_its_tiles(table) -> None:  # noqa: ANN001
    table.start(find_module("looot"), seed=2)
    lo = Looot(table.state, looot_game())
    target = viking_spaces(lo, "blue")[0]
    viking = lo.vikings_left("blue")[-1]
    table.drag(table.piece_point(viking), table.spot_point("landscape", target))
    piece = table.state.pieces[viking]
    assert (piece.place, piece.spot) == ("landscape", target), table.status()
    lo = Looot(table.state, looot_game())
    assert lo.phase == "tiles"
    kinds = [table.state.pieces[p].kind for p in lo.gained("blue")]
    assert kinds[0] == lo.terrain[target]
