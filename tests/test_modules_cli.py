"""``tabletop modules`` names each module's setup options with their values and defaults, and
``tabletop modules MODULE`` every variant and option in full: what ``new --option`` and
``new --variant`` point at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tabletop.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_c5_modules_lists_options_with_values_and_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "modules")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("greenland "))
    assert "norse_animal=cattle|sheep|pony|goat (default cattle)" in lines[at + 1]
    assert "colours=chosen|random (default chosen)" in lines[at + 1]
    assert "tabletop modules MODULE" in out


def test_c1_c5_modules_greenland_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "modules", "greenland")
    assert code == 0
    text = re.sub(r"\n {16}", " ", out)  # a wrapped description on one line
    for variant in ("standard", "two-player", "beginners", "survivalist", "solitaire"):
        assert re.search(rf"^  {variant} ", text, re.M), variant
    assert "Two players, 2 players: C1:" in text
    assert "norse_animal  Red's Norse animal: cattle, sheep, pony, goat; default cattle" in text
    assert "colours       Colours: chosen, random; default chosen" in text
    assert "--option KEY=VALUE" in text


def test_c5_the_option_shown_sets_a_game_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example the listing gives (``--norse-animal goat``) is taken by ``new``; a value
    the listing does not name is refused in one line."""
    code, out, _ = run(capsys, "modules", "greenland")
    example = re.search(r"--KEY VALUE: (--\S+) (\S+)\)", out)
    assert example is not None
    code, out, err = run(
        capsys,
        "new",
        "greenland",
        "--seed",
        "3",
        *example.groups(),
        "-o",
        str(tmp_path / "a.jsonl"),
    )
    assert code == 0, err
    code, _, err = run(
        capsys, "new", "greenland", "--option", "norse_animal=yak", "-o", str(tmp_path / "b.jsonl")
    )
    assert code == 2 and "yak" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "b.jsonl").exists()


def test_modules_json_options_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "modules", "greenland", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "greenland"
    assert {o["id"]: o["default"] for o in data["options"]} == {
        "norse_animal": "cattle",
        "colours": "chosen",
    }
    two = next(v for v in data["variant_details"] if v["id"] == "two-player")
    assert two["seats"] == 2 and two["description"].startswith("C1")
    code, out, _ = run(capsys, "modules", "--json")
    assert any(m["id"] == "looot" and m["options"] == [] for m in json.loads(out))


def test_modules_unknown_module_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "modules", "nosuch")
    assert code == 2 and out == "" and "no such module" in err
    assert len(err.strip().splitlines()) == 1
