"""``tabletop --help`` ends with every game's procedures, grouped by the phase of the game's
flow they belong to, read from each game's table of procedures."""

from __future__ import annotations

import re

import pytest

from rules_assist.cli import game_with_procedures
from tabletop.cli import main


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def _section(text: str, module_id: str) -> dict[str, list[str]]:
    """The help's part for one module: its phase lines (wrapped lines joined) as lists."""
    part = text.split(f"\n  {module_id} (", 1)[1]
    block = re.split(r"\n  \S", part, maxsplit=1)[0]
    joined = re.sub(r"\n      ", " ", block)
    phases = {}
    for line in joined.splitlines()[1:]:
        label, names = line.strip().split(": ", 1)
        phases[label] = names.split(", ")
    return phases


def test_a1_help_lists_every_greenland_procedure_by_phase(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A1's phases in order, each with the procedures the table gives it (the turn's phases,
    then those of any phase): all of Greenland's procedures, none left out."""
    phases = _section(_help(capsys), "greenland")
    game = game_with_procedures("greenland")
    listed = {name for names in phases.values() for name in names}
    assert listed == {spec.name for spec in game.procedures}
    assert list(phases)[:6] == [
        "Event (D)",
        "Hunter assignment (E)",
        "Negotiate & attacks (F)",
        "Roll for hunt (G)",
        "Domestic animals (H)",
        "Elder actions (I)",
    ]
    assert phases["Roll for hunt (G)"] == ["hunt"]
    assert "finish" in phases["Elder actions (I)"] and "elder" in phases["Elder actions (I)"]
    assert "next-phase" in phases["any phase"]


def test_help_lists_looot_procedures_too(capsys: pytest.CaptureFixture[str]) -> None:
    """The list is the games', not one game's: Looot's (LO-R3, LO-R20) are there by phase."""
    phases = _section(_help(capsys), "looot")
    game = game_with_procedures("looot")
    assert {n for names in phases.values() for n in names} == {s.name for s in game.procedures}
    assert phases["End of turn"][-1] == "pass"
