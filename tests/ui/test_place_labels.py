"""Place labels read in full or in the module's short form, never cut (issue 14).

A fitted Greenland table at 1920 x 1080 and 1366 x 768 draws every place's label as its
full label (on one line, or on two on an empty place tall enough) or as its ``short``
form from module.toml, the count of a counted place kept ("Energy · 5"); the full label
is the place's tooltip.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from tabletop.core import actions
from tabletop.modules import find_module
from tabletop.ui.items import LABEL_PX, PlaceItem

SIZES = pytest.mark.parametrize("size", [(1920, 1080), (1366, 768)], ids=["1920x1080", "1366x768"])


def _fitted(table, size: tuple[int, int]) -> None:  # noqa: ANN001
    table.window.resize(*size)
    QApplication.processEvents()
    table.view.fit_table()
    QApplication.processEvents()


def _forms(item: PlaceItem) -> set[str]:
    """The words a label may say: its full label and its short form, with the count."""
    counted = item.kind in ("deck", "stack", "hand", "bowl")
    forms = set()
    for words in (item.label, item.short):
        if not words:
            continue
        text = f"{words} · {item.count}" if counted else words
        forms.add(f"⠿ {text}" if item.kind in ("deck", "stack") and item.count else text)
    return forms


def _assert_every_label_reads(table, at_least: int = 30) -> list[str]:  # noqa: ANN001
    places = table.scene.places
    assert len(places) > at_least
    shortened = []
    for pid, item in places.items():
        lines = item.shown_label()
        assert 1 <= len(lines) <= 2, (pid, lines)
        assert "…" not in " ".join(lines), (pid, lines)
        assert " ".join(lines) in _forms(item), (pid, lines)
        assert item.toolTip() == item.label == table.state.places[pid].label, pid
        if " ".join(lines) not in {item.label, f"{item.label} · {item.count}"}:
            shortened.append(pid)
    return shortened


@SIZES
def test_every_place_label_on_a_fitted_greenland_table_reads_in_full_or_short(
    table,  # noqa: ANN001
    size: tuple[int, int],
) -> None:
    table.start(find_module("greenland"), seed=3)
    _fitted(table, size)
    shortened = _assert_every_label_reads(table)
    # the narrow bowls say their short form: a culture's unassigned hunters, the supplies
    assert "hunters_red" in shortened and "supply_energy" in shortened
    assert table.scene.places["supply_energy"].shown_label() == ("Energy · 9",)
    assert table.scene.places["energy_red"].shown_label() == ("Energy · 5",)
    assert LABEL_PX >= 20  # the font is not shrunk to make a label fit
    # the full label is the tooltip of the place and of the label drawn above it
    hunters = table.scene.places["hunters_red"]
    band = hunters.mapToScene(hunters.rect.topLeft() + QPointF(20, -14))
    assert hunters in table.scene.items(band)
    assert hunters.toolTip() == "Norse unassigned hunters"


@SIZES
@pytest.mark.parametrize("seats", [2, 4])
def test_every_place_label_on_a_fitted_looot_table_reads_in_full_or_short(
    table,  # noqa: ANN001
    size: tuple[int, int],
    seats: int,
) -> None:
    """Looot: the bag, the supplies and each seat's Vikings bowl say their words, with the
    count, at both screen sizes and with two or four seats."""
    module = find_module("looot")
    table.start(module, seats=seats, seed=5)
    _fitted(table, size)
    shortened = _assert_every_label_reads(table, at_least=3 + 4 * seats)
    assert set(shortened) <= {"bag", "supply", "discard"}, shortened
    first = table.state.seats[0].id
    assert table.scene.places[f"vikings_{first}"].shown_label() == ("Vikings · 13",)


def test_an_empty_narrow_place_wraps_its_full_label_and_a_filled_one_grows_to_it(
    table,  # noqa: ANN001
) -> None:
    """An empty cold side is narrow and tall: its full label on two lines. A card moved
    there widens it, and the label is one line again."""
    table.start(find_module("greenland"), seed=3)
    _fitted(table, (1920, 1080))
    cold = table.scene.places["north_cold"]
    assert cold.shown_label() == ("North · cold", "side")
    card = table.state.places["north_warm"].contents[0]
    assert table.session.submit(actions.move(table.state, card, "north_cold"))
    QApplication.processEvents()
    assert table.scene.places["north_cold"].shown_label() == ("North · cold side",)


def test_a_finished_bot_game_labels_read_as_well(table, tmp_path) -> None:  # noqa: ANN001
    """Late in a game counts have two digits and the event deck is empty."""
    from tabletop.cli import main

    logs = tmp_path / "logs"
    args = ["simulate", "greenland", "--games", "1", "--seed", "5", "--bots", "greedy"]
    assert main([*args, "--save-logs", str(logs), "--jobs", "1"]) == 0
    window = table.window
    window.resize(1366, 768)
    assert window.open_path(str(logs / "game-5.jsonl")) is not None
    window.show()
    table.qtbot.waitExposed(window)
    _fitted(table, (1366, 768))
    _assert_every_label_reads(table)
