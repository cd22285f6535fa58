"""The table's limits (tabletop/core/limits.py) and what a received file may hold: a place's
label is text, a position or size is a finite number within the layout bound, a board, a
table, a log, a module, a deck and a position stay within their sizes; beyond them the file
is refused with one line naming it and nothing is changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.core.boards import BoardSpec
from tabletop.core.limits import MAX_BOARD_SPACES, MAX_LAYOUT, MAX_PIECES
from tabletop.modules import ModuleError, load_module

from .test_modules import copy_proto, one_line, refusal, run

BOUND = "a finite number between -1,000,000 and 1,000,000"


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    log = tmp_path / "game.jsonl"
    assert run(capsys, "new", "proto", "-o", str(log), "--seed", "3")[0] == 0
    return log


def with_entry(log: Path, command: dict, name: str = "received.jsonl") -> Path:
    """The game with one more setup entry, as a received file might carry it."""
    lines = log.read_text().splitlines()
    entry = {"seq": len(lines), "t": 0, "actor": "setup", "kind": "setup", "cmd": command}
    out = log.with_name(name)
    out.write_text("\n".join([*lines, json.dumps(entry)]) + "\n")
    return out


def render_in_a_child(log: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``tabletop render LOG -o OUT`` in a child: a crash of Qt must not take the test run
    with it."""
    return subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "render", str(log), "-o", str(out)],
        capture_output=True,
        text=True,
        env={"QT_QPA_PLATFORM": "offscreen", **__import__("os").environ},
        timeout=120,
    )


def area(**spec: object) -> dict:
    return {"op": "add_place", "place": {"id": "extra", "kind": "area", **spec}}


def refused(
    capsys: pytest.CaptureFixture[str], log: Path, *commands: str, needle: str = ""
) -> None:
    before = log.read_bytes()
    for command in commands or ("inspect", "check", "score"):
        code, _out, err = run(capsys, command, str(log))
        assert code == 2, (command, err)
        line = one_line(err)
        assert str(log) in line
        assert needle in line, line
    assert log.read_bytes() == before


# ---- a place's label is text: never a number or a list handed to Qt -------------------
@pytest.mark.parametrize("label", [5, ["a"], {"x": 1}, True])
def test_table_a_place_label_that_is_not_text_in_a_log_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], label: object
) -> None:
    log = with_entry(game, area(label=label))
    refused(capsys, log, needle="place 'extra': its label must be text")


def test_table_render_refuses_a_place_label_that_is_not_text_without_crashing(
    game: Path, tmp_path: Path
) -> None:
    log = with_entry(game, area(label=5))
    out = tmp_path / "table.png"
    done = render_in_a_child(log, out)
    assert done.returncode == 2, done.stderr
    assert "its label must be text, not 5" in one_line(done.stderr)
    assert not out.exists()


def test_table_a_place_label_that_is_not_text_in_a_manifest_is_refused(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path, 'label = "Map"', "label = 5")
    assert "places[4].label: must be text, not 5" in refusal(folder)


# ---- positions and sizes: finite, within the layout bound ----------------------------
@pytest.mark.parametrize("value", ["1e308", "inf", "-inf", "nan", "2e6"])
def test_table_a_layout_size_that_is_infinite_or_huge_in_a_manifest_is_refused(
    tmp_path: Path, value: str
) -> None:
    old = "layout = { x = 20, y = 20, w = 70, h = 95 }"
    folder = copy_proto(tmp_path, old, f"layout = {{ x = 20, y = 20, w = {value}, h = 95 }}")
    assert f"places[1].layout.w: must be {BOUND}" in refusal(folder)


@pytest.mark.parametrize("value", ["1e308", "inf"])
def test_table_a_piece_kind_size_that_is_infinite_or_huge_is_refused(
    tmp_path: Path, value: str
) -> None:
    folder = copy_proto(tmp_path, "size = [63, 88]", f"size = [63, {value}]")
    assert "kinds[1].size: must be [width, height] in millimetres" in refusal(folder)


@pytest.mark.parametrize("value", [1e308, float("inf"), float("nan"), 10**400])
def test_table_a_layout_size_that_is_infinite_or_huge_in_a_log_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], value: float
) -> None:
    log = with_entry(game, area(layout={"x": 0, "y": 0, "w": value, "h": 10}))
    refused(capsys, log, needle=f"place 'extra': layout w must be {BOUND}")


def test_table_a_piece_position_that_is_huge_in_a_log_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add = {
        "op": "add",
        "piece": {"id": "far", "kind": "cube"},
        "at": {"place": "table", "index": 0, "x": MAX_LAYOUT * 2, "y": 5},
    }
    refused(capsys, with_entry(game, add), needle=f"'x' and 'y' must go together, each {BOUND}")


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("owner", {"x": "red"}, "'owner' must be text"),
        ("owner", 7, "'owner' must be text"),
        ("face_up", "no", "'face_up' must be true or false"),
        ("rotation", 1.5, "'rotation' must be a whole number"),
        ("props", [1], "'props' must be a table"),
    ],
)
def test_table_a_piece_record_of_the_wrong_types_in_a_log_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], field: str, value: object, needle: str
) -> None:
    """A piece's owner is drawn in its colour and named in labels: an object there crashed
    the snapshot's drawing (a segmentation fault found by fuzzing)."""
    add = {
        "op": "add",
        "piece": {"id": "odd", "kind": "cube", field: value},
        "at": {"place": "table", "index": 0, "x": 5, "y": 5},
    }
    refused(capsys, with_entry(game, add), needle=needle)


def test_table_render_refuses_a_piece_owner_that_is_not_text_without_crashing(
    game: Path, tmp_path: Path
) -> None:
    add = {
        "op": "add",
        "piece": {"id": "odd", "kind": "cube", "owner": {"x": "red"}},
        "at": {"place": "table", "index": 0, "x": 5, "y": 5},
    }
    log = with_entry(game, add)
    out = tmp_path / "table.png"
    done = render_in_a_child(log, out)
    assert done.returncode == 2, done.stderr
    assert "'owner' must be text" in one_line(done.stderr)
    assert not out.exists()


def test_table_a_problem_quoting_a_huge_value_is_printed_as_a_short_line(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A place kind of 7,000 characters: quoted cut with its length, and no printed line of
    a refusal runs past 1,000 characters."""
    log = with_entry(game, {"op": "add_place", "place": {"id": "p", "kind": "regions" * 1000}})
    refused(capsys, log, needle="(7,000 characters in all)")
    _code, _out, err = run(capsys, "check", str(log))
    assert max(len(line) for line in err.splitlines()) <= 1000


# ---- boards -----------------------------------------------------------------------------
def test_table_a_board_larger_than_the_limit_in_a_log_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = {"shape": "hex", "cols": 100_000, "rows": 100_000}
    log = with_entry(
        game, {"op": "add_place", "place": {"id": "b", "kind": "board", "board": board}}
    )
    refused(capsys, log, needle=f"larger than the limit of {MAX_BOARD_SPACES:,} spaces")


@pytest.mark.parametrize(
    "board",
    [
        {"shape": "grid", "cols": 201, "rows": 200},
        {"shape": "graph", "nodes": [str(n) for n in range(MAX_BOARD_SPACES + 1)]},
        {
            "shape": "hex",
            "coords": "axial",
            "spaces": [f"{n},0" for n in range(MAX_BOARD_SPACES + 1)],
        },
    ],
)
def test_table_every_board_shape_keeps_to_the_limit_on_spaces(board: dict) -> None:
    with pytest.raises(Exception, match=f"the limit of {MAX_BOARD_SPACES:,} spaces"):
        BoardSpec(board)


def test_table_removing_all_but_one_space_of_a_large_board_leaves_that_space() -> None:
    names = [f"{c},{r}" for r in range(150) for c in range(150)]
    spec = BoardSpec({"shape": "grid", "cols": 150, "rows": 150, "remove": names[1:]})
    assert list(spec.nodes) == ["0,0"]
    assert spec.edges == {}
    spec = BoardSpec({"shape": "grid", "cols": 3, "rows": 1, "remove": ["1,0"]})
    assert set(spec.nodes) == {"0,0", "2,0"} and spec.edges == {}


# ---- pieces and places on a table -------------------------------------------------------
def test_table_a_setup_putting_out_more_pieces_than_the_limit_is_refused(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path, "count = 20", "count = 100000000")
    assert f"setup[3].count: must be a whole number from 0 to {MAX_PIECES:,}" in refusal(folder)
    folder = copy_proto(tmp_path / "b", "count = 20", f"count = {MAX_PIECES}")
    assert f"more than the limit of {MAX_PIECES:,} pieces" in refusal(folder)


def test_table_a_log_adding_pieces_beyond_the_limit_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tabletop.core.commands.MAX_PIECES", 60)  # the proto table holds 59
    add = {
        "op": "add",
        "piece": {"id": "one-more", "kind": "cube"},
        "at": {"place": "supply", "index": 0},
    }
    refused(capsys, with_entry(game, add), needle="a table holds at most 60 pieces (the limit)")


def test_table_a_log_adding_places_beyond_the_limit_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tabletop.core.commands.MAX_PLACES", 5)
    refused(capsys, game, needle="a table holds at most 5 places (the limit)")


# ---- file sizes -------------------------------------------------------------------------
def test_table_a_log_larger_than_the_limit_is_refused_before_it_is_read(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tabletop.persist.logfile.MAX_LOG_BYTES", 1024)
    refused(capsys, game, "inspect", "log", needle="is larger than a game log may be (1 KB)")


def test_table_a_log_line_longer_than_the_limit_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tabletop.persist.logfile.MAX_LOG_LINE", 2048)
    refused(capsys, game, "inspect", needle="line 2: the line is longer than the limit (2 KB)")


def test_table_a_module_toml_or_deck_larger_than_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_proto(tmp_path)
    monkeypatch.setattr("tabletop.modules.manifest.MAX_MODULE_BYTES", 1024)
    assert "module.toml: is larger than the limit of 1 KB for a module.toml" in refusal(folder)
    monkeypatch.undo()
    monkeypatch.setattr("tabletop.modules.deck.MAX_DECK_BYTES", 100)
    with pytest.raises(ModuleError, match=r"cards.csv: is larger than the limit of 100 bytes"):
        load_module(folder)


def test_table_a_position_larger_than_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    position = tmp_path / "position.toml"
    position.write_text("# a position\n" + "#" * 200 + "\n")
    monkeypatch.setattr("rules_assist.greenland.position.MAX_POSITION_BYTES", 100)
    out = tmp_path / "game.jsonl"
    code, _out, err = run(capsys, "new", "greenland", "--position", str(position), "-o", str(out))
    assert code == 2
    assert f"{position}: is larger than the limit of 100 bytes for a position" in one_line(err)
    assert not out.exists()
