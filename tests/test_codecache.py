"""The dataclass methods' compiled code kept between runs (tabletop/codecache.py)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop import codecache
from tabletop.codecache import FORMAT, CodeTable, exec_through, table_path


def _kinds() -> list[dict]:
    """Dataclasses of every shape the program uses: frozen, ordered, slotted, with defaults,
    factories, keyword-only and init-less fields, a __post_init__."""
    return [
        {"name": "Plain", "fields": [("a", int), ("b", str, dataclasses.field(default="x"))]},
        {
            "name": "Frozen",
            "fields": [("a", int), ("b", list, dataclasses.field(default_factory=list))],
            "frozen": True,
            "order": True,
        },
        {
            "name": "Slotted",
            "fields": [("a", int), ("k", int, dataclasses.field(default=3, kw_only=True))],
            "slots": True,
            "eq": True,
            "unsafe_hash": True,
        },
        {
            "name": "Derived",
            "fields": [("a", int), ("n", int, dataclasses.field(init=False, default=0))],
            "namespace": {"__post_init__": lambda self: setattr(self, "n", self.a * 2)},
        },
    ]


def _make(kind: dict) -> type:
    options = {k: v for k, v in kind.items() if k not in ("name", "fields")}
    return dataclasses.make_dataclass(kind["name"], kind["fields"], **options)


def _through(table: CodeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclasses, "exec", exec_through(table), raising=False)


def _exercise(cls: type) -> tuple:
    """What the made methods do, as values: construction, repr, equality, order, hash."""
    first = cls(1) if cls.__name__ != "Slotted" else cls(1, k=4)
    second = cls(2) if cls.__name__ != "Slotted" else cls(2, k=4)
    same = cls(1) if cls.__name__ != "Slotted" else cls(1, k=4)
    facts = [repr(first), first == same, first == second, dataclasses.astuple(first)]
    if cls.__name__ == "Frozen":
        facts += [first < second, sorted([second, first]) == [first, second]]
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.a = 5
    if cls.__name__ == "Slotted":
        facts += [hash(first) == hash(same), not hasattr(first, "__dict__")]
    if cls.__name__ == "Derived":
        facts += [first.n]
    return tuple(facts)


def test_a_dataclass_made_through_the_table_does_what_one_made_without_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = [_exercise(_make(kind)) for kind in _kinds()]
    table = CodeTable(tmp_path / "table.marshal")
    _through(table, monkeypatch)
    kept = [_exercise(_make(kind)) for kind in _kinds()]
    assert kept == plain
    assert table.compiled == len(table.codes) > 8  # __init__, __repr__, __eq__, ... of each
    # made again (another run): every text is found, nothing compiled, the same behaviour
    assert table.save()
    again = CodeTable(table.path)
    again.load()
    _through(again, monkeypatch)
    assert [_exercise(_make(kind)) for kind in _kinds()] == plain
    assert again.compiled == 0
    assert not again.save()  # nothing new: the file is not written again


def test_the_kept_code_is_what_compiling_the_text_gives(tmp_path: Path) -> None:
    table = CodeTable(tmp_path / "t.marshal")
    text = "def __create_fn__(a):\n def f(x):\n  return x + a\n return f"
    code = table.code(text)
    assert code == compile(text, "<string>", "exec", dont_inherit=True)
    assert table.save()
    loaded = CodeTable(table.path)
    loaded.load()
    assert loaded.codes[text] == code
    namespace: dict = {}
    exec_through(loaded)(text, {}, namespace)
    assert namespace["__create_fn__"](2)(3) == 5
    assert loaded.compiled == 0


@pytest.mark.parametrize(
    "damage",
    ["flip a byte", "cut short", "other format", "empty", "digest of junk", "not a table"],
)
def test_a_damaged_table_is_not_used_and_is_written_again(tmp_path: Path, damage: str) -> None:
    import hashlib
    import marshal

    table = CodeTable(tmp_path / "t.marshal")
    text = "x = 1"
    table.code(text)
    assert table.save()
    data = bytearray(table.path.read_bytes())
    if damage == "flip a byte":
        data[-3] ^= 0xFF
    elif damage == "cut short":
        data = data[: len(data) // 2]
    elif damage == "other format":
        data[:8] = b"TTCODE9\n"
    elif damage == "empty":
        data = bytearray()
    else:  # a digest that matches a body marshal cannot read, or that is not a table
        body = b"\xff\x00junk" if damage == "digest of junk" else marshal.dumps({"x": 1})
        data = bytearray(FORMAT + hashlib.blake2b(body, digest_size=16).digest() + body)
    table.path.write_bytes(bytes(data))
    fresh = CodeTable(table.path)
    fresh.load()
    assert fresh.codes == {}
    fresh.code(text)
    assert fresh.save()
    whole = CodeTable(table.path)
    whole.load()
    assert list(whole.codes) == [text]


def test_a_folder_that_cannot_be_written_is_passed_over(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    table = CodeTable(blocker / "code" / "t.marshal")
    table.code("y = 2")
    assert table.save() is False
    assert list(tmp_path.iterdir()) == [blocker]


def test_each_python_has_its_own_table(tmp_path: Path) -> None:
    path = table_path(tmp_path)
    assert path.parent == tmp_path / "code"
    assert sys.implementation.cache_tag in path.name
    assert f"-o{sys.flags.optimize}" in path.name


def _run(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "tabletop.cli", *args],
        env=env,
        check=True,
        capture_output=True,
    )


def test_the_program_keeps_its_dataclass_code_and_uses_it_on_the_next_run(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop(codecache.SWITCH, None)
    _run(env, "modules")
    path = table_path(tmp_path / "cache" / "tabletop")
    assert path.is_file()
    table = CodeTable(path)
    table.load()
    assert len(table.codes) > 100  # the program's dataclasses' methods
    written = path.stat().st_mtime_ns
    _run(env, "modules")  # nothing new to compile: the table is not written again
    assert path.stat().st_mtime_ns == written
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_the_table_can_be_turned_off(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env[codecache.SWITCH] = "off"
    _run(env, "modules")
    assert not (tmp_path / "cache" / "tabletop" / "code").exists()


def test_a_table_grown_past_its_bound_keeps_only_what_the_run_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Texts of methods since changed pile up (each version adds its own); once the table
    holds more than MAX_ENTRIES, writing it again keeps the texts this run looked up."""
    monkeypatch.setattr(codecache, "MAX_ENTRIES", 3)
    old = CodeTable(tmp_path / "t.marshal")
    for n in range(4):
        old.code(f"x = {n}")
    assert old.save()  # past the bound, but the run used every text: all are kept
    run = CodeTable(old.path)
    run.load()
    assert len(run.codes) == 4
    run.code("x = 0")  # found
    run.code("y = 1")  # new: the table will be written
    assert run.save()
    again = CodeTable(old.path)
    again.load()
    assert sorted(again.codes) == ["x = 0", "y = 1"]
    # below the bound nothing is dropped
    again.code("z = 2")
    assert again.save()
    last = CodeTable(old.path)
    last.load()
    assert sorted(last.codes) == ["x = 0", "y = 1", "z = 2"]
