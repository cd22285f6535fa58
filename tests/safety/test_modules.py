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


# ---- a log never chooses the folder its module is loaded from --------------------------
def marker_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A module folder 'marked' whose game code writes a marker file when it is made."""
    marker = tmp_path / "marker.txt"
    package = tmp_path / "code" / "markerpkg" / "marked"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text(
        "from pathlib import Path\n\nfrom rules_assist.game import Game\n\n\n"
        "class MarkedGame(Game):\n"
        "    def __init__(self, module):\n"
        f"        Path({str(marker)!r}).write_text('loaded')\n"
        "        super().__init__(module)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setenv("TABLETOP_GAME_PACKAGES", "markerpkg")
    folder = copy_proto(tmp_path, 'id = "proto"', 'id = "marked"')
    text = (folder / "module.toml").read_text()
    (folder / "module.toml").write_text(
        text.replace(
            'game = "rules_assist.proto:ProtoGame"', 'game = "markerpkg.marked.game:MarkedGame"'
        )
    )
    return folder, marker


def log_naming(tmp_path: Path, capsys: pytest.CaptureFixture[str], module_id: str) -> Path:
    log = tmp_path / f"game-{len(list(tmp_path.glob('game-*')))}.jsonl"
    assert run(capsys, "new", "proto", "-o", str(log), "--seed", "3")[0] == 0
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["module"]["id"] = module_id
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return log


READERS = (["inspect"], ["check"], ["score"], ["log"], ["render", "-o", "{out}"])


def test_table_a_log_naming_a_module_folder_loads_nothing_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, marker = marker_module(tmp_path, monkeypatch)
    for named in (str(folder), str(folder / "module.toml"), "../proto", "./proto"):
        log = log_naming(tmp_path, capsys, named)
        monkeypatch.chdir(tmp_path)  # a relative path would find the folder from here
        before = log.read_bytes()
        for argv in READERS:
            out = tmp_path / "table.png"
            words = [w.format(out=out) for w in argv]
            code, _out, err = run(capsys, words[0], str(log), *words[1:])
            assert code == 2, (argv, err)
            line = one_line(err)
            assert f"{log}, line 1: the header's module 'id' must be a module's id" in line
            assert "--module-dir FOLDER" in line
            assert not out.exists()
        assert log.read_bytes() == before
        assert not marker.exists()


def test_table_a_module_the_user_names_with_module_dir_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, marker = marker_module(tmp_path, monkeypatch)
    log = log_naming(tmp_path, capsys, "marked")
    code, _out, err = run(capsys, "check", str(log))
    assert code == 2
    assert "the module 'marked' is not installed; to open a game" in one_line(err)
    assert run(capsys, "inspect", str(log))[0] == 0  # the table without the game's reading
    assert not marker.exists()
    code, _out, err = run(capsys, "inspect", str(log), "--module-dir", str(folder))
    assert code == 0, err
    assert marker.read_text() == "loaded"  # the user chose this folder: its game code runs


# ---- a module's game code is its own game -------------------------------------------------
PROTO_GAME = 'game = "rules_assist.proto:ProtoGame"'


@pytest.mark.parametrize(
    "named",
    [
        "rules_assist.greenland.game:GreenlandGame",  # another game: its needs are checked
        "rules_assist.looot.game:LoootGame",
    ],
)
def test_table_a_module_naming_another_games_class_must_hold_what_that_game_needs(
    tmp_path: Path, named: str
) -> None:
    """A module may play another game's code (a copy of a module under a new id, a playtest
    revision), but only if it holds every deck, kind and place that code names: a module
    that does not is refused at load, before any of the code runs, never a traceback."""
    folder = copy_proto(tmp_path, PROTO_GAME, f'game = "{named}"')
    before = snapshot(folder)
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    assert snapshot(folder) == before
    problems = caught.value.problems
    assert problems and all("the game's code needs" in p.message for p in problems), problems
    assert all(p.file == str(folder / "module.toml") for p in problems)


@pytest.mark.parametrize(
    "named", ["rules_assist.cli:run_command", "rules_assist.greenland.scoring:score"]
)
def test_table_a_module_naming_code_that_is_not_a_game_is_refused_at_load(
    tmp_path: Path, named: str
) -> None:
    folder = copy_proto(tmp_path, PROTO_GAME, f'game = "{named}"')
    message = refusal(folder)
    assert f"module.game: {named} is not a game (a kind of rules_assist.game.Game)" in message
    assert str(folder / "module.toml") in message


def test_table_a_hook_from_another_game_than_the_modules_is_refused_at_load(
    tmp_path: Path,
) -> None:
    """Every hook is code of the game the module plays: Greenland's scoring in a module
    playing the prototype game is refused naming the entry."""
    folder = copy_proto(
        tmp_path, PROTO_GAME, PROTO_GAME + '\nscore = "rules_assist.greenland.scoring:score"'
    )
    message = refusal(folder)
    assert "module.score: must name code of the module's own game (rules_assist.proto)" in message


def test_table_a_module_naming_a_function_of_its_own_package_is_not_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "code" / "otherpkg" / "proto"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    marker = tmp_path / "marker.txt"
    (package / "__init__.py").write_text(
        f"from pathlib import Path\n\n\ndef make(module):\n    Path({str(marker)!r}).write_text('ran')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setenv("TABLETOP_GAME_PACKAGES", "otherpkg")
    folder = copy_proto(tmp_path, PROTO_GAME, 'game = "otherpkg.proto:make"')
    message = refusal(folder)
    assert "module.game: otherpkg.proto:make is not a game (a kind of rules_assist.game.Game)" in (
        message
    )
    assert not marker.exists()  # checked before it runs


# ---- a game's own numbers ([constants]) and its setup code ------------------------------
def copy_module(tmp_path: Path, module_id: str, old: str, new: str) -> Path:
    folder = tmp_path / module_id
    shutil.copytree(resources_dir() / module_id, folder)
    path = folder / "module.toml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return folder


@pytest.mark.parametrize("value", ['"x"', "1e308", "100000000000000000000", "-5", "[1]"])
def test_b4_greenland_constants_that_are_not_counts_are_refused_naming_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    folder = copy_module(tmp_path, "greenland", "small_cubes = 18", f"small_cubes = {value}")
    out = tmp_path / "game.jsonl"
    code, _out, err = run(capsys, "new", str(folder), "-o", str(out))
    assert code == 2
    assert f"{folder / 'module.toml'}: constants.small_cubes: must be a whole number" in (
        one_line(err)
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("old", "new", "entry"),
    [
        ("vikings = 13", "vikings = ['a', 1]", "constants.vikings"),
        ("supply = 40", 'supply = ""', "constants.supply"),
        ("supply = 40", "supply = 100000000", "constants.supply"),
    ],
)
def test_looot_constants_of_the_wrong_kind_are_refused_naming_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, entry: str
) -> None:
    folder = copy_module(tmp_path, "looot", old, new)
    out = tmp_path / "game.jsonl"
    code, _out, err = run(capsys, "new", str(folder), "-o", str(out))
    assert code == 2
    assert f"{folder / 'module.toml'}: {entry}: must be a whole number from 0 to" in one_line(err)
    assert not out.exists()


@pytest.mark.parametrize(
    ("module_id", "old", "new", "needed"),
    [
        ("looot", 'id = "viking"', 'id = "warrior"', "kinds: the game's code needs kind 'viking'"),
        (
            "looot",
            'id = "standard"',
            'id = "plain"',
            "variants: the game's code needs variant 'standard'",
        ),
        (
            "greenland",
            'id = "north_deck"',
            'id = "north"',
            "places: the game's code needs place 'north_deck'",
        ),
        (
            "greenland",
            'id = "greenland"\nfile',
            'id = "cards"\nfile',
            "decks: the game's code needs deck 'greenland'",
        ),
    ],
)
def test_table_a_module_lacking_what_its_game_code_names_is_refused_at_load(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    module_id: str,
    old: str,
    new: str,
    needed: str,
) -> None:
    folder = copy_module(tmp_path, module_id, old, new)
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    assert f"{folder / 'module.toml'}: {needed}, which is missing" in str(caught.value)
    out = tmp_path / "game.jsonl"
    code, _out, err = run(capsys, "new", str(folder), "-o", str(out))
    assert code == 2
    assert needed in err and "Traceback" not in err
    assert not out.exists()
