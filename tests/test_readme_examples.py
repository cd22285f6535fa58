"""The README's command examples run as a reader types them (argument errors would show
here first): the set-up line and the event phase (D, D3's snowflakes answered) in order,
and the usage table's seats."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tabletop.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _block_lines() -> list[str]:
    """The ``tabletop ...`` lines of the README's code blocks, comments cut off."""
    lines, inside = [], False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.startswith("tabletop "):
            lines.append(re.sub(r"\s+#.*$", "", line).strip())
    return lines


def _run(capsys: pytest.CaptureFixture[str], line: str) -> tuple[int, str]:
    code = main(shlex.split(line)[1:])
    out, err = capsys.readouterr()
    return code, out + err


def test_readme_new_seats_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The usage table's ``--seats`` names as many seats as Greenland's standard game has (C1)."""
    monkeypatch.chdir(tmp_path)
    seats = re.search(r"\[--seats 3 \\\| ([^\]]+)\]", README.read_text(encoding="utf-8"))
    assert seats is not None
    code, out = _run(capsys, f"tabletop new greenland --seats {seats.group(1)} -o game.jsonl")
    assert code == 0, out
    assert "Ann" in out and "Bo" in out


def test_readme_too_few_seats_names_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two named seats for the standard game: one line saying how many, and the two-player
    variant (C1) that takes two; no file."""
    monkeypatch.chdir(tmp_path)
    code, out = _run(capsys, "tabletop new greenland --seats red=Ann,green=Bo -o game.jsonl")
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "has 3 cultures, not 2" in out and "--variant two-player" in out
    assert not (tmp_path / "game.jsonl").exists()


def test_readme_procedure_examples_d(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The procedures' block begins as a new user would: its ``new`` and ``event`` lines (D,
    with D3's snowflakes answered) run in order and write the turn. (Each procedure line on a
    table that fits it: tests/greenland/test_readme_cli.py.)"""
    monkeypatch.chdir(tmp_path)
    lines = _block_lines()
    new = next(
        i for i, line in enumerate(lines) if line.startswith("tabletop new greenland --seed ")
    )
    assert lines[new + 1].startswith("tabletop greenland event ")
    for line in lines[new : new + 2]:
        code, out = _run(capsys, line)
        assert code == 0, f"{line}\n{out}"
    assert (tmp_path / "turn1.jsonl").exists()
