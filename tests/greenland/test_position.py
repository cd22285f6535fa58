"""Positions for rules questions: a round trip through the table, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.position import PositionError
from rules_assist.greenland.reading import read
from tabletop.modules import new_game

from .tables import cli

FIXTURE = Path(__file__).parent.parent / "fixtures" / "greenland" / "sabine.toml"


def build(greenland, tmp_path: Path, text: str, **kw):
    path = tmp_path / "position.toml"
    path.write_text(text)
    return new_game(greenland, seed=kw.pop("seed", 1), position=str(path), **kw)


def test_the_readme_position_round_trips(greenland) -> None:
    game = new_game(greenland, seed=3, position=str(FIXTURE))
    reading = read(game.state, Cards.of(greenland))
    assert (reading["turn"], reading["phase"], reading["first_player"]) == (4, "hunt", "red")
    north = reading["rows"]["north"]
    assert [c["name"] for c in north["warm"]] == ["Walrus", "Markland"]
    assert [c["name"] for c in north["cold"]] == ["Polar Bear"]
    assert reading["rows"]["south"]["warm"][0]["side"] == "hostile"
    red = reading["cultures"]["red"]
    assert red["unassigned"] == 3 and red["alpha"] == "unassigned"
    assert red["elders"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 0, "6": 2}
    assert red["missionaries"] == {"yellow": 1}
    assert red["colonists"] == {"Markland": 0, "Vinland": 2}
    assert red["husbands"] == {"Kirima": 1} and red["hunters"] == {"Walrus": 4}
    assert (red["energy"], red["ivory"], red["iron"]) == (7, 1, 2)
    assert red["tableau"] == ["Birgitta"] and red["trophies"] == ["Shark"] and red["hand"] == 1
    assert red["valhalla"] == 19 - 3 - 3 - 1 - 2 - 1 - 4
    assert red["religion"] == "polytheist"
    # cultures the position leaves out start as in C6-C7
    assert reading["cultures"]["yellow"]["unassigned"] == 6
    assert reading["cultures"]["yellow"]["elders"] == {str(r): 1 for r in range(1, 7)}


POSITIONS = [
    """
turn = 2
phase = "elders"
[rows.north]
warm = ["Harbor Seal", "Caribou"]
[cultures.yellow]
religion = "monotheist"
unassigned = 1
alpha = "valhalla"
elders = {2 = 3}
hunters = {"harbor seal" = 2}
energy = 0
""",
    """
[rows.south]
warm = ["Bog Iron", "Vinland"]
cold = ["Shark"]
[cultures.green]
unassigned = 2
alpha = "Bog Iron"
hunters = {"Bog Iron" = 3}
colonists = {Vinland = 4}
ivory = 20
""",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_positions_round_trip(greenland, tmp_path: Path, text: str) -> None:
    import tomllib

    spec = tomllib.loads(text)
    reading = read(build(greenland, tmp_path, text).state, Cards.of(greenland))
    for row, sides in spec.get("rows", {}).items():
        for side, names in sides.items():
            assert [c["name"].lower() for c in reading["rows"][row][side]] == [
                n.lower() for n in names
            ]
    for colour, culture in spec["cultures"].items():
        got = reading["cultures"][colour]
        for key in ("unassigned", "energy", "ivory", "iron", "religion"):
            if key in culture:
                assert got[key] == culture[key], key
        for key in ("hunters", "colonists"):
            for name, count in culture.get(key, {}).items():
                assert {k.lower(): v for k, v in got[key].items()}[name.lower()] == count
        if "elders" in culture:
            assert {int(k): v for k, v in got["elders"].items() if v} == {
                int(k): v for k, v in culture["elders"].items()
            }
        alpha = culture.get("alpha", "unassigned")
        assert got["alpha"].lower() == alpha.lower()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[cultures.red]\nunassigned = 20\n", "unassigned: must be a whole number from 0 to 19"),
        (
            '[cultures.red]\nunassigned = 10\nhunters = {Walrus = 10}\n[rows.north]\nwarm = ["Walrus"]\n',
            "places 19 small cubes; a culture has 18",
        ),
        ('[rows.north]\nwarm = ["Walrus", "walrus"]\n', "Walrus is already in rows.north.warm"),
        ('[rows.north]\nwarm = ["Shark"]\n', "Shark is a south card, not a north biome"),
        ('[rows.north]\nwarm = ["Unicorn"]\n', "there is no card named 'Unicorn'"),
        ('phase = "lunch"\n', "phase: must be one of event, assignment"),
        ("[cultures.blue]\nunassigned = 1\n", "cultures are red, yellow, green"),
        ("[cultures.red]\nhusbands = {Walrus = 1}\n", "husbands sit on a daughter's exogamy box"),
        ("[cultures.red]\nhusbands = {Kirima = 2}\n", "one husband at most"),
        ('[cultures.red]\nalpha = "Walrus"\n', "count him in hunters or colonists"),
        ("[cultures.red]\nenergy = 30\n", "24 orange disks"),
        ("[cultures.red]\nhunters = {Walrus = 2}\n", "Walrus is not on the table"),
        ('colour = "red"\n', "colour: is not part of a position"),
        ("turn = [\n", "not valid TOML"),
        ("variant = [1]\n", "variant: must be text, not list"),
        ("phase = {}\n", "phase: must be text, not dict"),
        ("first_player = 3\n", "first_player: must be text, not int"),
    ],
)
def test_bad_positions_are_refused_clearly(
    greenland, tmp_path: Path, text: str, message: str
) -> None:
    out = tmp_path / "g.jsonl"
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build(greenland, tmp_path, text, path=out)
    assert not out.exists(), "a refused position leaves no game file"


# ---- C5: the Norse animal a position names is the side laid -------------------------------
@pytest.mark.parametrize(
    ("animal", "option"),
    [("Goat", None), ("Goat", "cattle"), ("Sheep", "pony"), ("Sheep", None), ("Pony", "goat")],
)
def test_c5_a_position_naming_a_norse_animal_side_lays_that_side(
    tmp_path: Path, capsys, animal: str, option: str | None
) -> None:
    """C5: red starts with one side of one Norse animal card. A position naming the Goat or the
    Sheep lays that side, whatever ``--norse-animal`` says (the position wins)."""
    path = tmp_path / "position.toml"
    path.write_text(f'[cultures.red]\nunassigned = 2\ntableau = ["Birgitta", "{animal}"]\n')
    out = tmp_path / "game.jsonl"
    argv = ["new", "greenland", "--position", str(path), "--seed", "2", "-o", str(out)]
    if option is not None:
        argv += ["--norse-animal", option]
    code, _, err = cli(capsys, *argv)
    assert code == 0, err
    code, text, err = cli(capsys, "inspect", str(out), "--json")
    assert code == 0, err
    red = json.loads(text)["cultures"]["red"]
    assert red["tableau"] == ["Birgitta", animal]
