"""Every ``tabletop greenland ...`` command line of the README runs as written, each on a game
whose table fits it (a position), and the procedure table's examples are the README's."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tabletop.modules import find_module
from tabletop.modules.rules import game_of

from .tables import SABINE, cli, game_file, opened, put

README = Path(__file__).resolve().parents[2] / "README.md"

# For each procedure the README shows: the table it runs on (a position, and cards laid out
# after it) and words its output must contain.
TABLES: dict[str, tuple[str, tuple[tuple[str, str], ...], str]] = {
    "event": ("turn = 2\n", (("iceland-trade-ship", "event_deck"),), "yellow wins Norse Pony"),
    "hunt": (
        """
phase = "hunt"
[rows.north]
cold = ["Walrus"]
[cultures.red]
unassigned = 1
elders = {6 = 2}
hunters = {Walrus = 6}
husbands = {Kirima = 1}
energy = 3
ivory = 0
iron = 0
tableau = ["Toggle-head Harpoon"]
""",
        (),
        "Red hunts Walrus",
    ),
    "migrate": (
        '[rows.south]\nwarm = ["Shark", "South biome 15"]\ncold = ["South biome 5"]\n',
        (),
        "replaces South biome 5",
    ),
    "cool": ('[rows.south]\nwarm = ["Shark", "South biome 15"]\n', (), "cool"),
    "decimate": (
        "[cultures.red]\nunassigned = 10\nelders = {3 = 1, 6 = 1}\n",
        (),
        "the rank-3 elder",
    ),
    "die-off": ('first_player = "red"\n', (), "red rolls 3"),
    "auction": (
        'first_player = "red"\n',
        (("iceland-trade-ship", "event_current"),),
        "yellow wins",
    ),
    "animals": (
        'turn = 3\nphase = "animals"\n[cultures.red]\nunassigned = 2\nelders = {3 = 1, 6 = 1}\n'
        "energy = 5\n",
        (),
        "red feeds Cattle",
    ),
    "next-phase": ('turn = 5\nphase = "hunt"\n[rows.north]\nwarm = ["Walrus"]\n', (), "Turn 5"),
    "attack": (
        SABINE,
        (),
        "Yellow attacks on Birgitta",
    ),
    "peace": (
        """
phase = "negotiation"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 1
elders = {4 = 1}
hunters = {Shark = 2}
[cultures.green]
unassigned = 1
elders = {4 = 1}
hunters = {Shark = 2}
""",
        (),
        "make peace on Shark",
    ),
    "discard": (
        "[cultures.yellow]\nunassigned = 3\nelders = {3 = 1}\n"
        'hand = ["Slit Goggles", "Toggle-head Harpoon", "Dogs"]\n',
        (),
        "discards",
    ),
    "new-world": (
        """
phase = "negotiation"
turn = 3
[rows.north]
warm = ["Markland"]
[cultures.red]
elders = {6 = 2}
colonists = {Markland = 4}
[cultures.yellow]
elders = {6 = 1}
colonists = {Markland = 3}
""",
        (),
        "turns hostile",
    ),
    "elder": (
        'turn = 2\nphase = "elders"\n[cultures.red]\nelders = {3 = 1}\niron = 1\ntableau = []\n'
        'hand = ["Slit Goggles"]\n',
        (),
        "plays Slit Goggles",
    ),
    "exchange": ("", (), "exchanges Cattle"),
    "assign": (
        'phase = "assignment"\n[rows.north]\nwarm = ["Walrus"]\n[cultures.red]\nunassigned = 3\n'
        "elders = {6 = 1}\n",
        (),
        "Red assigns 2 hunters to Walrus",
    ),
    "promote": (
        'phase = "assignment"\n[cultures.red]\nunassigned = 3\nenergy = 2\n',
        (),
        "paying 1 energy",
    ),
    "trade": (
        """
phase = "negotiation"
[rows.south]
warm = ["Shark"]
[cultures.red]
unassigned = 1
hunters = {Shark = 1}
iron = 1
[cultures.yellow]
unassigned = 1
elders = {6 = 1}
hunters = {Shark = 1}
tableau = ["Dogs"]
""",
        (),
        "Red and Yellow trade: Red gives 1 iron for Dogs",
    ),
    "swap": (
        """
variant = "solitaire"
turn = 3
phase = "negotiation"
first_player = "red"
[cultures.red]
unassigned = 4
elders = {2 = 1}
iron = 1
[cultures.green]
unassigned = 4
elders = {5 = 1}
ivory = 1
""",
        (),
        "Swap between red and green (K)",
    ),
}


def readme_commands() -> list[str]:
    """The README's ``tabletop greenland ...`` lines, comments left off."""
    text = README.read_text(encoding="utf-8")
    return [
        shlex.join(shlex.split(line, comments=True))
        for line in re.findall(r"^tabletop greenland .*$", text, flags=re.MULTILINE)
    ]


def test_every_procedure_example_is_in_the_readme() -> None:
    game = game_of(find_module("greenland"))
    examples = [s.example for s in game.procedures if s.example]
    written = readme_commands()
    assert examples and all(shlex.join(shlex.split(example)) in written for example in examples), (
        written
    )


@pytest.mark.parametrize("line", readme_commands(), ids=lambda line: line.split()[2])
def test_the_readme_command_line_runs(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = shlex.split(line)
    assert argv[:2] == ["tabletop", "greenland"]
    position, laid, words = TABLES[argv[2]]

    def lay(game) -> None:  # noqa: ANN001
        for pid, place in laid:
            put(game, pid, place)

    file = game_file(tmp_path, position, lay)
    monkeypatch.chdir(tmp_path)
    assert argv[3] == file.name  # the README's FILE is game.jsonl
    out = argv[argv.index("-o") + 1]
    code, printed, err = cli(capsys, *argv[1:])
    assert code == 0, err
    assert printed.startswith(f"{out}: {argv[2]}: ") and words in printed, printed
    assert opened(tmp_path / out).table.entries[-1].command.procedure.startswith("greenland.")
