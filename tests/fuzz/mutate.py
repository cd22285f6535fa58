"""Mutations of the files the program reads: bytes, lines, JSON, TOML and CSV.

Every mutator takes a ``Choices``: a seeded ``random.Random`` for the bulk runs
(``RandomChoices``) or Hypothesis's ``data`` object for the property tests
(``DrawChoices``, so a failing input shrinks). The same mutators serve both.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import re
import tomllib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


class Choices(Protocol):
    def integer(self, low: int, high: int) -> int: ...


class RandomChoices:
    def __init__(self, seed: int | str) -> None:
        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)


class DrawChoices:
    def __init__(self, data: Any) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


def pick(choices: Choices, items: Sequence[T]) -> T:
    return items[choices.integer(0, len(items) - 1)]


# --- values a field may be replaced with ------------------------------------------------

DEEP = 100_000  # brackets of nesting: far past Python's recursion limit
_NEST = "\ue000nest\ue000"  # a placeholder string replaced by deep nesting after dumping

STRANGE_TEXT = [
    "",
    " ",
    "x" * 100_000,
    "\x1b[31mred\x1b[0m\r\x07",
    "\x1b]0;title\x07",
    "\x00",
    "\ud800",
    "line\nbreak",
    "é" * 10,
    "../../../../etc/passwd",
    "/tmp",
    "-1",
    "1e309",
    "NaN",
    "red",
    "north_deck",
    "\u202e",
]
STRANGE_NUMBERS = [
    0,
    -1,
    1,
    2**31,
    2**63,
    10**400,
    -(10**30),
    1e308,
    -1e308,
    math.inf,
    -math.inf,
    math.nan,
    0.5,
    100_000,
    100_000_000,
]


def strange_value(choices: Choices, like: Any = None) -> Any:
    """A value of another type (or an extreme one of the same type)."""
    family = choices.integer(0, 6)
    if family == 0:
        return pick(choices, STRANGE_TEXT)
    if family == 1:
        return pick(choices, STRANGE_NUMBERS)
    if family == 2:
        return pick(choices, [None, True, False])
    if family == 3:
        return pick(choices, [[], [1], [None], ["x", {}], [[[]]], list(range(1000))])
    if family == 4:
        return pick(choices, [{}, {"x": 1}, {"id": {}}, {"": None}])
    if family == 5:
        return _NEST
    if isinstance(like, str):
        return like * pick(choices, [0, 2, 1000])
    if isinstance(like, int) and not isinstance(like, bool):
        return like + pick(choices, [-1, 1, 10**6, -(10**6)])
    return pick(choices, STRANGE_TEXT)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON-like tree (the root's is ())."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def mutate_tree(choices: Choices, tree: Any) -> Any:
    """Change one place of a parsed JSON or TOML tree: retype, remove, add, swap, rename."""
    paths = _paths(tree)
    path = pick(choices, paths)
    action = choices.integer(0, 5)
    if not path:
        if action == 0:
            return strange_value(choices, tree)
        path = pick(choices, paths)
        if not path:
            return tree
    parent = _get(tree, path[:-1])
    key = path[-1]
    old = parent[key]
    if action <= 1:
        parent[key] = strange_value(choices, old)
    elif action == 2:
        del parent[key]
    elif action == 3 and isinstance(parent, dict):
        new = pick(choices, [f"{key}_", "", "extra", str(key).upper(), "\x1b"])
        parent[new] = parent.pop(key)
    elif action == 3:
        parent.insert(key, old if choices.integer(0, 1) else strange_value(choices, old))
    elif action == 4:
        other = pick(choices, paths)
        if other and other[: len(path)] != path and path[: len(other)] != other:
            other_parent = _get(tree, other[:-1])
            parent[key], other_parent[other[-1]] = other_parent[other[-1]], old
        else:
            parent[key] = [old, old]
    else:
        parent[key] = {"x": old} if choices.integer(0, 1) else [old]
    return tree


# --- JSON -----------------------------------------------------------------------------------


def dump_json(value: Any, choices: Choices) -> str:
    text = json.dumps(value, ensure_ascii=bool(choices.integer(0, 1)), allow_nan=True)
    opener = pick(choices, ["[", "{" + '"a":'])
    closer = "]" if opener == "[" else "}"
    nest = opener * DEEP + closer * DEEP
    return text.replace(json.dumps(_NEST), nest).replace(
        json.dumps(_NEST, ensure_ascii=False), nest
    )


def mutate_json_lines(choices: Choices, data: bytes) -> bytes:
    """Change one parsed JSON line of a JSON-lines file and write it back."""
    lines = data.split(b"\n")
    numbered = [i for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        return data
    index = pick(choices, numbered)
    try:
        tree = json.loads(lines[index])
    except (ValueError, RecursionError):
        return mutate_bytes(choices, data)
    for _ in range(choices.integer(1, 3)):
        tree = mutate_tree(choices, tree)
    lines[index] = dump_json(tree, choices).encode("utf-8", "surrogatepass")
    return b"\n".join(lines)


# --- TOML -----------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: Any) -> str:
    key = str(key)
    return key if _BARE.match(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if value == _NEST:
        return "[" * DEEP + "]" * DEEP
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if value is None:
        return '""'  # TOML has no null: the nearest a writer would make
    return _toml_string(str(value))


def dump_toml(tree: Any) -> str:
    """A TOML document of the tree: its top-level tables as [sections], the rest inline."""
    if not isinstance(tree, dict):
        return "value = " + _toml_value(tree) + "\n"
    plain, tables = [], []
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            tables.append(f"[{_toml_key(key)}]")
            tables += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()]
        else:
            plain.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(plain + tables) + "\n"


def mutate_toml(choices: Choices, data: bytes) -> bytes:
    try:
        tree = tomllib.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return mutate_bytes(choices, data)
    for _ in range(choices.integer(1, 3)):
        tree = mutate_tree(choices, tree)
    return dump_toml(tree).encode("utf-8", "surrogatepass")


# --- CSV ------------------------------------------------------------------------------------

STRANGE_CELLS = [
    "",
    "-1",
    "0",
    "99999999999999999999",
    "100000000",
    "1e309",
    "nan",
    "inf",
    "abc",
    "x" * 100_000,
    '"',
    ",",
    "a\nb",
    "\x1b[2J",
    "\x00",
    "1.5",
    " 3 ",
    "yes",
]


def mutate_csv(choices: Choices, data: bytes) -> bytes:
    """Change a cell, a row or a column of a CSV."""
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    except (ValueError, UnicodeDecodeError, csv.Error):
        return mutate_bytes(choices, data)
    if not rows:
        return mutate_bytes(choices, data)
    action = choices.integer(0, 6)
    r = choices.integer(0, len(rows) - 1)
    row = rows[r]
    if action <= 2 and row:
        c = choices.integer(0, len(row) - 1)
        row[c] = pick(choices, STRANGE_CELLS) if action < 2 else row[c] * 2
    elif action == 3:
        rows.insert(r, list(row))
    elif action == 4:
        del rows[r]
    elif action == 5 and rows[0]:
        c = choices.integer(0, len(rows[0]) - 1)
        for each in rows:
            if c < len(each):
                if choices.integer(0, 1):
                    del each[c]
                else:
                    each.insert(c, each[c])
    else:
        row.append(pick(choices, STRANGE_CELLS))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode("utf-8", "surrogatepass")


# --- bytes and lines ------------------------------------------------------------------------

_BOUNDARIES = [b"\n", b",", b":", b"{", b"[", b'"', b"=", b" ", b"}", b"]"]


def truncate(choices: Choices, data: bytes) -> bytes:
    """Cut at a kind of boundary: a line's end, a token, a byte inside a UTF-8 character."""
    if not data:
        return data
    mark = pick(choices, [*_BOUNDARIES, b""])
    if mark:
        spots = [m.start() for m in re.finditer(re.escape(mark), data)]
        if spots:
            cut = pick(choices, spots) + choices.integer(0, 1)
            return data[:cut]
    return data[: choices.integer(0, len(data) - 1)]


def mutate_lines(choices: Choices, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return mutate_bytes(choices, data)
    i = choices.integer(0, len(lines) - 1)
    j = choices.integer(0, len(lines) - 1)
    action = choices.integer(0, 4)
    if action == 0:
        lines.insert(i, lines[i])
    elif action == 1:
        del lines[i]
    elif action == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif action == 3:
        lines = lines[: max(1, i)]
    else:
        lines.insert(j, lines.pop(i))
    return b"\n".join(lines)


def mutate_bytes(choices: Choices, data: bytes) -> bytes:
    """Flip bits, overwrite, insert or delete bytes."""
    if not data:
        return bytes([choices.integer(0, 255)])
    buf = bytearray(data)
    for _ in range(choices.integer(1, 4)):
        if not buf:
            break
        at = choices.integer(0, len(buf) - 1)
        action = choices.integer(0, 4)
        if action == 0:
            buf[at] ^= 1 << choices.integer(0, 7)
        elif action == 1:
            buf[at] = pick(choices, [0, 0x1B, 0x0D, 0x22, 0x5C, 0x7B, 0x5B, 0xFF, 0xC3, 0xED])
        elif action == 2:
            buf[at:at] = pick(choices, [b"\xff\xfe", b"\xed\xa0\x80", b"\x00", b"9" * 30, b"\r"])
        elif action == 3:
            del buf[at : at + choices.integer(1, 64)]
        else:
            buf[at:at] = buf[at : at + choices.integer(1, 256)]
    return bytes(buf)


Mutator = Callable[[Choices, bytes], bytes]


def structured_for(name: str) -> Mutator:
    if name.endswith(".jsonl"):
        return mutate_json_lines
    if name.endswith(".toml"):
        return mutate_toml
    if name.endswith(".csv"):
        return mutate_csv
    return mutate_bytes


def mutate_file(choices: Choices, name: str, data: bytes) -> tuple[bytes, str]:
    """One to three mutations of a file, chosen by its kind; with a word saying which."""
    done = []
    for _ in range(choices.integer(1, 3) if choices.integer(0, 3) == 0 else 1):
        which = choices.integer(0, 9)
        if which <= 4:
            data, word = structured_for(name)(choices, data), "structured"
        elif which <= 6:
            data, word = mutate_lines(choices, data), "lines"
        elif which == 7:
            data, word = truncate(choices, data), "truncate"
        else:
            data, word = mutate_bytes(choices, data), "bytes"
        done.append(word)
    return data, "+".join(done)
