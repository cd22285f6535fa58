"""The shipped deck, its provenance, the abilities vocabulary, and revisions checked row by row."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from rules_assist.greenland.deck import ability_problem, placeholder_count, sourced_fields
from tabletop.cli import main
from tabletop.modules import ModuleError, load_module, resources_dir
from tabletop.modules.revisions import import_revision, revisions, with_revision

DECK = resources_dir() / "greenland" / "decks" / "reconstructed.csv"


def test_the_shipped_deck_has_the_sixty_cards(greenland) -> None:
    deck = greenland.decks["greenland"]
    cards = {}
    for row in deck.cards:
        cards.setdefault(row["card"], row["type"])
    counts = {kind: list(cards.values()).count(kind) for kind in set(cards.values())}
    assert counts == {
        "event": 16,
        "north": 14,
        "south": 15,
        "new_world": 2,
        "elder": 3,
        "daughter": 8,
        "norse_animal": 2,
    }


def test_sourced_values_from_the_rulebook(greenland) -> None:
    """The walrus of the hunt example (G8) and the shark of the scoring example (J) are as printed."""
    rows = {row["id"]: row for row in greenland.decks["greenland"].cards}
    walrus = rows["walrus"]
    assert (walrus["biome_type"], walrus["dice"], walrus["attrition"]) == ("maritime", 2, [3])
    assert (walrus["babies"], walrus["energy"], walrus["ivory"], walrus["trophy"]) == (
        4,
        2,
        1,
        "triples",
    )
    assert {"dice", "attrition", "babies", "energy", "ivory"} <= sourced_fields(walrus)
    assert rows["shark"]["vp"] == 5 and "vp" in sourced_fields(rows["shark"])
    assert "reroll 4 maritime" in rows["kirima"]["abilities"]
    assert "wins_auction_ties" in rows["peepeelee"]["abilities"]


def test_placeholders_are_counted_and_marked(greenland) -> None:
    rows = {row["id"]: row for row in greenland.decks["greenland"].cards}
    assert placeholder_count(rows["north-biome-10"]) > 3  # invented name and values
    assert placeholder_count(rows["walrus"]) < placeholder_count(rows["north-biome-10"])
    total = sum(placeholder_count(row) for row in rows.values())
    assert total > 100


@pytest.mark.parametrize(
    ("ability", "ok"),
    [
        ("reroll 4 maritime", True),
        ("modify 3->1 fishing", True),
        ("hand_size +1 D", True),
        ("sled", True),
        ("hunt_first land", True),
        ("reroll 4 skiing", False),
        ("reroll 9 land", False),
        ("fly", False),
    ],
)
def test_abilities_vocabulary(ability: str, ok: bool) -> None:
    assert (ability_problem(ability) is None) is ok


def copy_module(tmp_path: Path) -> Path:
    folder = tmp_path / "greenland"
    shutil.copytree(resources_dir() / "greenland", folder)
    return folder


def edit_cell(path: Path, row_id: str, column: str, value: str) -> int:
    """Change one cell; returns the file line of the row."""
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    fields = list(rows[0].keys())
    line = next(i for i, row in enumerate(rows, start=2) if row["id"] == row_id)
    rows[line - 2][column] = value
    out = io.StringIO()
    writer = csv.DictWriter(out, fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue())
    return line


@pytest.mark.parametrize(
    ("row_id", "column", "value", "message"),
    [
        ("walrus", "climax", "16", "16 is above the largest allowed, 15"),
        ("walrus", "dice", "two", "'two' is not a whole number"),
        ("walrus", "biome_type", "flying", "'flying' is not one of land"),
        ("kirima", "abilities", "reroll 4 skiing", "'skiing' is not a biome type"),
        ("kirima", "abilities", "teleport", "'teleport' is not an ability of the vocabulary"),
        (
            "falconers-ransom",
            "event_icons",
            "first:red;earthquake",
            "'earthquake' is not an event icon",
        ),
        ("walrus", "type", "daughter", "the deck has 9 daughter cards; Greenland has 8"),
    ],
)
def test_a_broken_deck_names_row_and_column(
    tmp_path: Path, row_id: str, column: str, value: str, message: str
) -> None:
    folder = copy_module(tmp_path)
    deck = folder / "decks" / "reconstructed.csv"
    line = edit_cell(deck, row_id, column, value)
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    text = str(caught.value)
    assert message in text
    if "Greenland has" not in message:
        assert f"reconstructed.csv, line {line}: column '{column}'" in text


def test_import_a_revision_then_play_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_module(tmp_path)
    module = load_module(folder)
    candidate = tmp_path / "printed.csv"
    shutil.copy(folder / "decks" / "reconstructed.csv", candidate)
    edit_cell(candidate, "walrus", "climax", "7")
    target = import_revision(module, candidate, "printed")
    assert target == folder / "decks" / "printed.csv"
    assert revisions(module) == ["printed", "reconstructed"]
    printed = with_revision(module, "printed")
    assert {r["id"]: r for r in printed.decks["greenland"].cards}["walrus"]["climax"] == 7
    with pytest.raises(ModuleError, match="exists already"):
        import_revision(module, candidate, "printed")
    with pytest.raises(ModuleError, match="no revision 'draft'"):
        with_revision(module, "draft")


def test_a_broken_revision_is_refused_and_nothing_written(tmp_path: Path) -> None:
    folder = copy_module(tmp_path)
    module = load_module(folder)
    candidate = tmp_path / "bad.csv"
    shutil.copy(folder / "decks" / "reconstructed.csv", candidate)
    line = edit_cell(candidate, "shark", "vp", "lots")
    with pytest.raises(
        ModuleError, match=f"bad.csv, line {line}: column 'vp': 'lots' is not a whole number"
    ):
        import_revision(module, candidate, "bad")
    assert not (folder / "decks" / "bad.csv").exists()


def test_deck_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list", "greenland"]) == 0
    assert "reconstructed" in capsys.readouterr().out
    assert main(["deck", "import", str(tmp_path / "none.csv"), "--name", "x"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.count("\n") == 1
    out = tmp_path / "g.jsonl"
    assert main(["new", "greenland", "--deck", "nosuch", "-o", str(out)]) == 2
    assert "no revision 'nosuch'" in capsys.readouterr().err and not out.exists()
    assert (
        main(
            [
                "new",
                "greenland",
                "--deck",
                "reconstructed",
                "--norse-animal",
                "pony",
                "--seed",
                "1",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["inspect", str(out), "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["module"] == "greenland" and data["deck"]["name"] == "reconstructed"
    assert data["cultures"]["red"]["tableau"][-1] == "Pony"


def test_a_game_keeps_its_deck_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game set up with a revision is read, checked and drawn with that revision."""
    from tabletop.modules import find_module, new_game
    from tabletop.modules.revisions import module_for_game

    resources = tmp_path / "resources"
    shutil.copytree(resources_dir(), resources)
    monkeypatch.setenv("TABLETOP_RESOURCES", str(resources))
    module = find_module("greenland")
    candidate = tmp_path / "printed.csv"
    shutil.copy(resources / "greenland" / "decks" / "reconstructed.csv", candidate)
    edit_cell(candidate, "walrus", "climax", "3")
    import_revision(module, candidate, "printed")
    game = new_game(with_revision(module, "printed"), seed=1)
    again, warnings = module_for_game(find_module("greenland"), game.header.decks)
    assert warnings == []
    assert {r["id"]: r for r in again.decks["greenland"].cards}["walrus"]["climax"] == 3
    edit_cell(resources / "greenland" / "decks" / "printed.csv", "walrus", "climax", "4")
    _, warnings = module_for_game(find_module("greenland"), game.header.decks)
    assert warnings and "has changed since this game began" in warnings[0]
