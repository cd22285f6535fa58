"""The board fields of a manifest (coords, spaces, offset, style): read, and each fault named
with its file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.modules import ModuleError, load_module

HEAD = """\
[module]
id = "hexes"
name = "Hexes"
version = "1"
min_seats = 1
max_seats = 1

[[seats]]
id = "red"
colour = "#c0392b"

[[kinds]]
id = "cube"
shape = "cube"

[[places]]
id = "supply"
kind = "bowl"
"""

GOOD_BOARDS = """\
[[places]]
id = "map"
kind = "board"
board = { shape = "hex", coords = "axial", orientation = "flat", spaces = ["0,0", "1,0", "1,-1"] }

[[places]]
id = "fjord_{seat}"
kind = "board"
per_seat = true

[places.board]
shape = "hex"
cols = 3
rows = 3
orientation = "flat"
offset = "even"
remove = ["0,0"]
node_attrs = { "1,1" = { terrain = "wood", label = "Port" } }

[places.board.style]
attr = "terrain"
colours = { wood = "#3c6e2f", sheep = "#a8c95a" }
letters = { sheep = "S" }
icons = { wood = "tree" }
"""


def write(tmp_path: Path, places: str, icons: tuple[str, ...] = ("tree",)) -> Path:
    folder = tmp_path / "hexes"
    (folder / "icons").mkdir(parents=True, exist_ok=True)
    for icon in icons:
        (folder / "icons" / f"{icon}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
            '<circle cx="5" cy="5" r="4"/></svg>'
        )
    (folder / "module.toml").write_text(HEAD + "\n" + places)
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    return [str(p) for p in caught.value.problems]


def line_of(folder: Path, needle: str) -> int:
    for number, line in enumerate((folder / "module.toml").read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_axial_even_offset_and_styled_boards_load(tmp_path: Path) -> None:
    module = load_module(write(tmp_path, GOOD_BOARDS))
    board = {p.id: p for p in module.places}
    assert board["map"].board["coords"] == "axial"
    assert board["fjord_{seat}"].board["offset"] == "even"
    assert board["fjord_{seat}"].board["style"]["colours"]["wood"] == "#3c6e2f"


@pytest.mark.parametrize(
    ("old", "new", "field", "needle", "message"),
    [
        (
            'spaces = ["0,0", "1,0", "1,-1"]',
            'spaces = ["0,0", "1,0", "1;-1"]',
            "places[2].board.spaces",
            'coords = "axial"',
            "'1;-1' is not two whole numbers",
        ),
        (
            'coords = "axial"',
            'coords = "cube"',
            "places[2].board.coords",
            'coords = "cube"',
            "'coords' must be 'offset' or 'axial'",
        ),
        (
            'offset = "even"',
            'offset = "evn"',
            "places[3].board.offset",
            'offset = "evn"',
            "'offset' must be 'odd' or 'even'",
        ),
        (
            'offset = "even"',
            'ofset = "even"',
            "places[3].board.ofset",
            'ofset = "even"',
            "is not a field here",
        ),
        (
            'wood = "#3c6e2f"',
            'wood = "forest green"',
            "places[3].board.style.colours.wood",
            "colours = {",
            "must be a colour like '#3c6e2f'",
        ),
        (
            'attr = "terrain"',
            'attribute = "terrain"',
            "places[3].board.style.attribute",
            'attribute = "terrain"',
            "'style' has no field 'attribute'",
        ),
        (
            'icons = { wood = "tree" }',
            'icons = { wood = "oak" }',
            "places[3].board.style.icons.wood",
            "icons = {",
            "names no picture of this module (icons/oak.svg)",
        ),
        (
            'letters = { sheep = "S" }',
            'letters = { sheep = "Sheep" }',
            "places[3].board.style.letters.sheep",
            "letters = {",
            "at most 3 letters",
        ),
    ],
    ids=["space", "coords", "offset", "unknown", "colour", "style-field", "icon", "letter"],
)
def test_a_bad_board_field_is_named_with_its_line(
    tmp_path: Path, old: str, new: str, field: str, needle: str, message: str
) -> None:
    assert old in GOOD_BOARDS
    folder = write(tmp_path, GOOD_BOARDS.replace(old, new, 1))
    [problem] = problems(folder)
    assert f"module.toml, line {line_of(folder, needle)}: {field}: " in problem, problem
    assert message in problem, problem
    assert "Traceback" not in problem
