"""Received modules and logs cannot hurt: every wrong type, size or name in a module or a log's
header is one plain line naming the file and the field, exit code 2, nothing changed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.modules import ModuleError, load_module, resources_dir

PROTO = resources_dir() / "proto"
MAP = 'board = { shape = "hex", cols = 7, rows = 5, orientation = "pointy" }'


def copy_proto(tmp_path: Path, old: str = "", new: str = "") -> Path:
    folder = tmp_path / "proto"
    shutil.copytree(PROTO, folder)
    if old:
        path = folder / "module.toml"
        text = path.read_text()
        assert old in text, old
        path.write_text(text.replace(old, new, 1))
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def refusal(folder: Path) -> str:
    """The one problem loading the module gives (it changes nothing)."""
    before = snapshot(folder)
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    assert snapshot(folder) == before
    assert len(caught.value.problems) == 1, caught.value.problems
    return str(caught.value)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# ---- wrong types in a manifest: a ModuleError naming the file and the key path -------------
WRONG_TYPES = [
    (MAP, MAP[:-2] + ", node_attrs = [1] }", "places[4].board.node_attrs"),
    (MAP, MAP[:-2] + ", remove = 5 }", "places[4].board.remove"),
    (MAP, MAP[:-2] + ", remove = [[1]] }", "places[4].board.remove"),
    (MAP, MAP[:-2] + ", edges = 7 }", "places[4].board.edges"),
    (MAP, MAP[:-2] + ", edges = [{ a = [1], b = '0,0' }] }", "places[4].board.edges"),
    (
        MAP,
        'board = { shape = "grid", cols = 7, rows = 5, diagonal = 1 }',
        "places[4].board.diagonal",
    ),
    (
        'cost = { type = "int", min = 0, max = 9, default = 0 }',
        'cost = { type = "int", min = "0", max = 9, default = 0 }',
        "decks[1].columns.cost.min",
    ),
    (
        'cost = { type = "int", min = 0, max = 9, default = 0 }',
        'cost = { type = "int", default = [] }',
        "decks[1].columns.cost.default",
    ),
    (
        'cost = { type = "int", min = 0, max = 9, default = 0 }',
        'cost = { type = "int", required = "yes" }',
        "decks[1].columns.cost.required",
    ),
    ('spot = "0"', "spot = {}", "setup[6].spot"),
    ('do = "deal"', "do = []", "setup[7].do"),
    ('place = "tray"', "place = []", "setup[2].place"),
    ('deck = "cards"\nplace = "deck"', 'deck = {}\nplace = "deck"', "setup[1].deck"),
    ('kind = "d6"\ncount = 2', "kind = []\ncount = 2", "setup[2].kind"),
    ('variant = "open-hands"', "variant = {}", "setup[8].variant"),
    ('id = "die-{n}"', "id = 5", "setup[2].id"),
    ("shuffle = true", 'shuffle = "x"', "setup[1].shuffle"),
    ('spots = ["1", "2", "3", "4"]', 'spots = [1, "2", "3", "4"]', "places[3].spots"),
    ("capacity = 1", "capacity = -1", "places[3].capacity"),
    ("faces = [1, 2, 3, 4, 5, 6]", "faces = [[1], {}]", "kinds[6].faces"),
]


@pytest.mark.parametrize(("old", "new", "where"), WRONG_TYPES)
def test_table_a_wrong_type_in_a_manifest_is_one_problem_naming_its_key(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    folder = copy_proto(tmp_path, old, new)
    message = refusal(folder)
    assert message.startswith(f"{folder / 'module.toml'}, line ")
    assert f": {where}" in message


def test_table_a_header_deck_id_that_is_an_object_is_refused_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "game.jsonl"
    assert run(capsys, "new", "proto", "-o", str(log), "--seed", "3")[0] == 0
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["decks"][0]["id"] = {"a": 1}
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    before = log.read_bytes()
    for argv in (["inspect"], ["check"], ["score"], ["render", "-o", str(tmp_path / "t.png")]):
        code, _out, err = run(capsys, argv[0], str(log), *argv[1:])
        assert code == 2
        assert f"{log}, line 1: the header's 'decks'" in one_line(err)
    assert log.read_bytes() == before
    assert not (tmp_path / "t.png").exists()
