"""Building Greenland tables for rules examples: positions, test revisions of the deck, procedures."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from typing import Any

from rules_assist.driver import Action, Driver, Status
from rules_assist.greenland.deck import Cards
from rules_assist.greenland.view import Greenland
from rules_assist.procedures import run_procedure
from tabletop.core import actions
from tabletop.modules import find_module, new_game
from tabletop.modules.rules import game_of
from tabletop.persist import Game

RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "greenland"

# F2's example, the Sabine raid: yellow, with a war chief and the Sword trader, attacks on
# Birgitta, where red's hunters are
SABINE = """
phase = "negotiation"
turn = 2
[cultures.red]
unassigned = 1
hunters = {Birgitta = 2}
iron = 0
[cultures.yellow]
unassigned = 1
elders = {4 = 1, 6 = 1}
hunters = {Birgitta = 2}
iron = 2
tableau = ["Sword trader"]
"""


def build(tmp_path: Path, position: str, module: Any = None, seed: int = 1, **kw: Any) -> Game:
    """A game whose table is the position (TOML text), with the shipped or a test module."""
    path = tmp_path / "position.toml"
    path.write_text(position)
    return new_game(module or find_module("greenland"), seed=seed, position=str(path), **kw)


def revised_module(tmp_path: Path, changes: dict[str, dict[str, str]]) -> Any:
    """A copy of the module whose deck CSV has some values changed: {row id: {column: value}}.

    For rules examples that need values the shipped deck only has as placeholders.
    """
    folder = tmp_path / "greenland"
    shutil.copytree(RESOURCES, folder)
    deck = folder / "decks" / "reconstructed.csv"
    with deck.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0])
    for row in rows:
        row.update(changes.get(row["id"], {}))
    with deck.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fields)
        writer.writeheader()
        writer.writerows(rows)
    return find_module(str(folder))


def put(game: Game, pid: str, place: str, index: int | None = None) -> None:
    """Lay a card where the example needs it (on top of a deck by default), as one logged move."""
    game.table.submit(actions.move(game.state, pid, place, index=index), "test")


def run(game: Game, procedure: Any, choices: dict[str, Any] | None = None, **params: Any):
    return run_procedure(
        game.table, "test", procedure, name="test", choices=choices or {}, **params
    )


def turn_status(game: Game, module: Any = None) -> Status:
    """The turn flow's status of the table (flow.py): who is to move, the actions offered."""
    return game_of(module or find_module("greenland")).flow.status(game.state)


def take(game: Game, action: Action, module: Any = None, **kw: Any) -> Any:
    """An offered action, run through the turn driver as its seat (as the phase panel runs it)."""
    return Driver(game_of(module or find_module("greenland")), game.table).apply(action, **kw)


def view(game: Game, module: Any = None) -> Greenland:
    return Greenland(game.state, Cards.of(module or find_module("greenland")))


def contents(game: Game, place: str, spot: str | None = None) -> list[str]:
    return game.state.contents(place, spot)


def owned(game: Game, place: str, colour: str, spot: str | None = None) -> int:
    return sum(1 for pid in contents(game, place, spot) if game.state.pieces[pid].owner == colour)


def game_file(tmp_path: Path, position: str, prepare: Any = None, **kw: Any) -> Path:
    """A game log on disk whose table is the position (and whatever ``prepare(game)`` lays out)."""
    path = tmp_path / "game.jsonl"
    game = build(tmp_path, position, path=str(path), **kw)
    if prepare is not None:
        prepare(game)
    game.close()
    return path


def cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """``tabletop ARGV``: exit code, stdout, stderr."""
    from tabletop.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def cli_run(capsys: Any, tmp_path: Path, file: Path, *argv: str) -> tuple[int, str, str, Path]:
    """``tabletop greenland PROCEDURE FILE -o OUT ...``; FILE is never changed."""
    out = tmp_path / "out.jsonl"
    if out.exists():
        out.unlink()
    before = file.read_bytes()
    code, text, err = cli(capsys, "greenland", argv[0], str(file), "-o", str(out), *argv[1:])
    assert file.read_bytes() == before
    return code, text, err, out


def opened(path: Path) -> Game:
    return Game.open(path, writable=False)
