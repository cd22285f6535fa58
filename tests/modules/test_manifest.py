"""Module manifests and decks: the real modules load, and every bad file gets one clear problem per fault."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.modules import ModuleError, find_module, load_module, module_ids, resources_dir

PROTO = resources_dir() / "proto"


def copy_proto(tmp_path: Path) -> Path:
    folder = tmp_path / "proto"
    shutil.copytree(PROTO, folder)
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def problems_of(folder: Path) -> list[str]:
    before = snapshot(folder)
    with pytest.raises(ModuleError) as caught:
        load_module(folder)
    assert snapshot(folder) == before, "loading must never change a module's files"
    return [str(p) for p in caught.value.problems]


def edit(folder: Path, old: str, new: str, file: str = "module.toml") -> None:
    path = folder / file
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(folder: Path, needle: str, file: str = "module.toml") -> int:
    for number, line in enumerate((folder / file).read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_every_shipped_module_loads() -> None:
    assert "proto" in module_ids()
    for module_id in module_ids():
        module = find_module(module_id)
        assert module.id == module_id
        assert module.places and module.kinds


def test_proto_module_contents() -> None:
    module = find_module("proto")
    deck = module.decks["cards"]
    assert len(deck.cards) == 24
    assert deck.sha256 == hashlib.sha256((PROTO / "decks" / "cards.csv").read_bytes()).hexdigest()
    card = deck.card("monument-1")
    assert card["cost"] == 6 and card["points"] == 5 and card["icons"] == ["star", "hammer"]
    assert module.kinds["d6"].faces == (1, 2, 3, 4, 5, 6)
    assert module.places[[p.id for p in module.places].index("map")].board["shape"] == "hex"
    assert module.min_seats == 1 and module.max_seats == 4 and module.default_seats == 3


def test_find_module_by_path(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    assert find_module(str(folder)).id == "proto"
    assert find_module(str(folder / "module.toml")).folder == folder.resolve()


def test_unknown_module_names_the_known_ones() -> None:
    with pytest.raises(ModuleError, match="no such module.*proto"):
        find_module("no-such-game")


def test_missing_manifest(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    [problem] = problems_of(tmp_path / "empty")
    assert "module.toml" in problem and "no such file" in problem


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'name = "Prototype table"', 'name = "Prototype table')
    [problem] = problems_of(folder)
    line = line_of(folder, 'name = "Prototype table')
    assert f"module.toml, line {line}" in problem
    assert "not valid TOML" in problem


def test_missing_field_names_file_line_and_field(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'version = "1.0"\n', "")
    [problem] = problems_of(folder)
    assert (
        "module.toml, line 6" in problem
        and "module" in problem
        and "'version' is missing" in problem
    )


def test_wrong_type_and_bad_choice_each_reported(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'shape = "cube"', 'shape = "pyramid"')
    edit(folder, 'kind = "deck"\nlabel = "Draw deck"', 'kind = "pile"\nlabel = "Draw deck"')
    edit(folder, "capacity = 1", 'capacity = "one"')
    problems = problems_of(folder)
    assert len(problems) == 3, problems
    text = "\n".join(problems)
    assert f"line {line_of(folder, 'pyramid')}: kinds[2].shape: must be one of" in text
    assert f"line {line_of(folder, 'pile')}: places[1].kind" in text
    assert f"line {line_of(folder, 'capacity')}: places[3].capacity: must be a whole number" in text


def test_unknown_field_is_a_problem(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'label = "Discard"', 'label = "Discard"\ncolor = "red"')
    [problem] = problems_of(folder)
    assert "places[2].color" in problem and "not a field here" in problem


def test_bad_board_spec(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'shape = "hex", cols = 7', 'shape = "hex", cols = 0')
    [problem] = problems_of(folder)
    assert "places[4].board" in problem and "cols" in problem


def test_setup_step_naming_unknown_place_and_kind(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'kind = "d6"\ncount = 2\nplace = "tray"', 'kind = "d20"\ncount = 2\nplace = "bag"')
    problems = problems_of(folder)
    assert len(problems) == 2
    assert any("setup[2].place: names no place" in p for p in problems)
    assert any("setup[2].kind: names no kind" in p for p in problems)


def test_setup_function_must_live_in_rules_assist(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, "default_seats = 3", 'default_seats = 3\nsetup = "os:system"')
    [problem] = problems_of(folder)
    assert "module.setup" in problem and "rules_assist" in problem


def test_deck_bad_value_names_row_and_column(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, "trade-1,Trade,action,2,1", "trade-1,Trade,action,two,1", "decks/cards.csv")
    [problem] = problems_of(folder)
    line = line_of(folder, "trade-1", "decks/cards.csv")
    assert f"cards.csv, line {line}: column 'cost': 'two' is not a whole number" in problem


def test_deck_range_choice_duplicate_and_width(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    csv = "decks/cards.csv"
    edit(folder, "monument-1,Monument,action,6", "monument-1,Monument,action,16", csv)
    edit(folder, "storm-1,Storm,event", "storm-1,Storm,weather", csv)
    edit(folder, "wood-2,Timber", "wood-1,Timber", csv)
    edit(folder, "scout-2,Scout,action,0,0,eye,", "scout-2,Scout,action,0,0,eye,extra,", csv)
    problems = "\n".join(problems_of(folder))
    assert "column 'cost': 16 is above the largest allowed, 9" in problems
    assert "column 'type': 'weather' is not one of action, resource, event" in problems
    assert "column 'id': 'wood-1' is already used on line" in problems
    assert (
        f"line {line_of(folder, 'scout-2', csv)}: has 8 cells where the first line names 7"
        in problems
    )


def test_deck_undeclared_and_missing_columns(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, "id,name,type", "id,title,type", "decks/cards.csv")
    problems = "\n".join(problems_of(folder))
    assert "cards.csv, line 1: column 'title': is not declared" in problems
    assert "column 'name': is missing from the first line" in problems


def test_deck_not_utf8(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    path = folder / "decks" / "cards.csv"
    path.write_bytes(path.read_bytes().replace(b"Timber", b"Tim\xffber", 1))
    [problem] = problems_of(folder)
    line = 1 + path.read_bytes().split(b"\xff")[0].count(b"\n")
    assert "is not UTF-8" in problem and f"cards.csv, line {line}" in problem


def test_deck_file_outside_the_module(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    edit(folder, 'file = "decks/cards.csv"', 'file = "../../etc/passwd"')
    [problem] = problems_of(folder)
    assert "decks[1].file: must be a path inside the module folder" in problem


def test_deck_file_missing(tmp_path: Path) -> None:
    folder = copy_proto(tmp_path)
    (folder / "decks" / "cards.csv").unlink()
    [problem] = problems_of(folder)
    assert "cards.csv: cannot be read" in problem


def test_loading_never_executes_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A manifest or deck that looks like code is read as text and nothing more."""
    folder = copy_proto(tmp_path)
    marker = tmp_path / "executed"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    edit(folder, 'description = "Cards', f'description = "{payload} Cards')
    edit(folder, "Harvest,action", f'"{payload}",action', "decks/cards.csv")
    module = load_module(folder)
    assert payload in module.description
    assert not marker.exists()


def test_retired_entries_load_with_a_note(tmp_path: Path) -> None:
    """An older manifest naming ``phases`` and ``bots`` still loads: the game object's flow
    and bots replaced them, so they are not read, and the module says so."""
    folder = copy_proto(tmp_path)
    edit(
        folder,
        "default_seats = 3",
        'default_seats = 3\nphases = "rules_assist.old.sequence:phase_status"\n'
        'bots = "rules_assist.old.bots:window_bots"',
    )
    module = load_module(folder)
    assert module.notes == [
        "module.phases is no longer read: the phase panel follows the game object's flow"
        " (the 'game' entry)",
        "module.bots is no longer read: the bot seats are the game object's bots"
        " (the 'game' entry)",
    ]
    assert not hasattr(module, "phases_path") and not hasattr(module, "bots_path")
    assert find_module("proto").notes == []


def test_tabletop_modules_says_what_a_manifest_has_that_is_no_longer_read(
    tmp_path: Path,
) -> None:
    """The retired entries' notes reach the person listing the modules, on standard error."""
    resources = tmp_path / "resources"
    folder = copy_proto(resources)
    edit(
        folder,
        "default_seats = 3",
        'default_seats = 3\nphases = "rules_assist.old.sequence:phase_status"',
    )
    result = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "modules"],
        capture_output=True,
        text=True,
        env={**os.environ, "TABLETOP_RESOURCES": str(resources)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("proto ")
    assert result.stderr.splitlines() == [
        "note: proto: module.phases is no longer read: the phase panel follows the game"
        " object's flow (the 'game' entry)"
    ]


def test_a_place_short_label_reaches_each_seat_filled_in_and_a_wrong_one_is_named(
    tmp_path: Path,
) -> None:
    """``short`` is a place label's short form, filled in for each seat as the label is."""
    module = find_module("greenland")
    hunters = next(p for p in module.places if p.id == "hunters_{seat}")
    assert hunters.short == "Unassigned"
    [valhalla] = [p for p in module.places if p.id == "valhalla_{seat}"]
    red = next(s for s in module.seats if s.id == "red")
    spec = valhalla.spec_for(red)
    assert spec["label"] == f"Valhalla ({red.name})" and spec["layout"]["short"] == "Valhalla"
    named = dataclasses.replace(valhalla, short="{seat_name} dead")
    assert named.spec_for(red)["layout"]["short"] == f"{red.name} dead"
    folder = copy_proto(tmp_path)
    edit(folder, 'label = "Discard"', 'label = "Discard"\nshort = 3')
    [problem] = problems_of(folder)
    assert f"line {line_of(folder, 'short = 3')}: places[2].short" in problem
