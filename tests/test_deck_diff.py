"""``tabletop deck diff A B``: what changed between two revisions of a module's deck.

A revision is made the way a playtester makes one (``tabletop deck import``) from a copy of
Greenland's shipped deck with a few values changed, a value sourced, a source dropped and one
card replaced by another; the diff against the shipped deck is read through the command line.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.modules import resources_dir


def _edit(path: Path, changes: dict[str, dict[str, str]]) -> None:
    """Change cells by row id; a changed ``id`` replaces the card by another."""
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    for row in rows:
        row.update(changes.get(row["id"], {}))
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0].keys()), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


@pytest.fixture
def printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """A copy of the resources with a revision ``printed`` imported through the command line."""
    resources = tmp_path / "resources"
    shutil.copytree(resources_dir(), resources)
    monkeypatch.setenv("TABLETOP_RESOURCES", str(resources))
    candidate = tmp_path / "my-cards.csv"
    shutil.copy(resources / "greenland" / "decks" / "reconstructed.csv", candidate)
    _edit(
        candidate,
        {
            # a placeholder value changed, and a sourced value's source dropped (dice stays 2)
            "walrus": {
                "climax": "12",
                "provenance": "name=S001 G8; type=S001 G8; biome_type=S001 G8; "
                "attrition=S001 G8; babies=S001 G8; energy=S001 G8; ivory=S001 G8; "
                "trophy=S001 G5",
            },
            # a placeholder replaced by a sourced value
            "harbor-seal": {
                "climax": "7",
                "provenance": "name=S001 G4; babies=S001 G4; climax=S001 G4",
            },
            # one card out, another in (Greenland counts its north cards: the count stays)
            "polar-bear": {"id": "ice-bear", "card": "ice-bear", "name": "Ice Bear"},
        },
    )
    assert (
        main(["deck", "import", str(candidate), "--name", "printed", "--module", "greenland"]) == 0
    )
    capsys.readouterr()
    return candidate


def test_deck_diff_lists_every_difference(
    printed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deck", "diff", "reconstructed", "printed", "--module", "greenland"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("greenland deck: reconstructed (sha256 ")
    assert "-> printed (sha256 " in lines[0]
    assert lines[1:] == [
        "2 cards changed, 1 only in reconstructed, 1 only in printed",
        "",
        "walrus (Walrus)",
        "  climax      15 -> 12",
        "  provenance  name=S001 G8; type=S001 G8; biome_type=S001 G8; dice=S001 G8; "
        "attrition=S001 G8; babies=S001 G8; energy=S001 G8; ivory=S001 G8; trophy=S001 G5"
        " -> name=S001 G8; type=S001 G8; biome_type=S001 G8; attrition=S001 G8; "
        "babies=S001 G8; energy=S001 G8; ivory=S001 G8; trophy=S001 G5",
        "  dice        now a placeholder",
        "",
        "harbor-seal (Harbor Seal)",
        "  climax      6 -> 7",
        "  provenance  name=S001 G4; babies=S001 G4 -> name=S001 G4; babies=S001 G4; climax=S001 G4",
        "  climax      no longer a placeholder",
        "",
        "only in reconstructed:",
        "  polar-bear (Polar Bear) (3 placeholder values)",
        "",
        "only in printed:",
        "  ice-bear (Ice Bear) (3 placeholder values)",
    ]


def test_deck_diff_json(printed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "diff", "greenland:reconstructed", str(printed), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["module"] == "greenland" and data["deck"] == "greenland"
    assert data["a"]["revision"] == "reconstructed" and data["a"]["file"] is None
    assert data["b"] == {
        "label": str(printed),
        "revision": None,
        "file": str(printed),
        "sha256": data["b"]["sha256"],
        "cards": 67,
    }
    assert len(data["b"]["sha256"]) == 64 and data["a"]["sha256"] != data["b"]["sha256"]
    cards = {card["id"]: card for card in data["cards"]}
    assert [card["id"] for card in data["cards"]] == [
        "walrus",
        "harbor-seal",
        "polar-bear",
        "ice-bear",
    ]
    walrus = cards["walrus"]
    assert walrus["name"] == "Walrus" and walrus["status"] == "changed"
    assert [v["column"] for v in walrus["values"]] == ["climax", "provenance"]
    assert walrus["values"][0] == {"column": "climax", "a": 15, "b": 12}
    assert walrus["placeholders"] == [{"column": "dice", "a": False, "b": True}]
    seal = cards["harbor-seal"]
    assert seal["values"][0] == {"column": "climax", "a": 6, "b": 7}
    assert seal["placeholders"] == [{"column": "climax", "a": True, "b": False}]
    assert cards["polar-bear"] == {
        "id": "polar-bear",
        "name": "Polar Bear",
        "status": "only_in_a",
        "placeholders": ["homeland", "biome_type", "climax"],
    }
    assert cards["ice-bear"]["status"] == "only_in_b" and cards["ice-bear"]["name"] == "Ice Bear"


def test_deck_diff_of_a_revision_with_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "diff", "reconstructed", "reconstructed", "--module", "greenland"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "no differences"
    assert main(["deck", "diff", "proto:cards", "proto:cards", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["reconstructed", "draft", "--module", "greenland"],
            "there is no revision 'draft' (revisions: reconstructed)",
        ),
        (
            ["reconstructed", "nowhere/cards.csv", "--module", "greenland"],
            "nowhere/cards.csv: no such file",
        ),
        (
            ["reconstructed", str(resources_dir() / "proto" / "decks" / "cards.csv")],
            "cards.csv: is not a deck of the module 'greenland' (line 1, column 'cost': "
            "is not declared in the manifest's deck columns",
        ),
        (
            ["greenland:reconstructed", "proto:cards"],
            "proto:cards: is a deck of the module 'proto', greenland:reconstructed of "
            "'greenland': a diff compares two revisions of one module's deck",
        ),
        (["reconstructed", "proto:cards", "--module", "greenland"], "of 'greenland'"),
        (["a", "b", "--module", "looot"], "looot: this module has no deck"),
        (["a", "b", "--module", "nosuch"], "nosuch: there is no such module"),
    ],
)
def test_deck_diff_bad_input(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deck", "diff", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tabletop deck: ") and message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_deck_diff_refuses_a_file_the_game_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV with the deck's columns that the game's own check refuses (a card too few)."""
    short = tmp_path / "short.csv"
    lines = (resources_dir() / "greenland" / "decks" / "reconstructed.csv").read_text(
        encoding="utf-8"
    )
    short.write_text(
        "\n".join(line for line in lines.splitlines() if not line.startswith("polar-bear,")),
        encoding="utf-8",
    )
    assert main(["deck", "diff", "reconstructed", str(short), "--module", "greenland"]) == 2
    err = capsys.readouterr().err
    assert f"{short}: is not a deck of the module 'greenland' (column 'type': " in err
    assert err.count("\n") == 1
