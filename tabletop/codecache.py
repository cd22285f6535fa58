"""The methods Python writes for each dataclass, compiled once and kept between runs.

The standard library's ``dataclasses`` writes the source of every ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and ``__setattr__`` it adds and compiles that text when the class is
made. The program makes some sixty dataclasses before its window opens, over three hundred
such functions: parsing and compiling them took 55 to 70 ms of the start (measured with
``tabletop bench``; docs/performance.md). Python keeps a module's compiled code in its
``__pycache__``, but not this.

``install()`` gives the ``dataclasses`` module its own ``exec``, which looks the text up in a
table of code objects compiled before, and compiles only text it has not seen. The code
object is the one ``exec`` would have compiled from the same text (same file name, no flags
inherited), so each class gets the same methods; only the parsing is saved. The table is read
once at ``install()`` and, when the run compiled something new, written back at exit.

The file: ``$XDG_CACHE_HOME/tabletop/code/`` (``~/.cache`` when unset; the usual cache folder
on Windows and macOS), one per Python bytecode format (and optimisation level), so a Python
upgrade starts a new one. It holds a header, a digest of the rest, and the table as
``marshal`` wrote it; a file that is short, damaged or of another format is not used (it is
written again). It is written whole or not at all (a temporary file beside it, renamed).
``TABLETOP_CODE_CACHE=off`` (or ``0``, ``no``, ``false``) turns it off. Like ``__pycache__``,
the folder is trusted as the user's own: whoever can write there can change what runs.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

FORMAT = b"TTCODE1\n"
DIGEST = 16  # bytes of blake2b over the table
# Past this many texts (methods of classes since changed or gone: each version of the program
# adds its own), a table written again keeps only those this run used. The program's commands
# together make about 400; the whole table is read at every start.
MAX_ENTRIES = 1024
SWITCH = "TABLETOP_CODE_CACHE"
SUFFIX = ".marshal"
TEMP_MARK = ".tmp-"


def cache_root() -> Path:
    """The program's cache folder (``$XDG_CACHE_HOME/tabletop`` or the platform's own)."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        elif sys.platform == "darwin":
            base = str(Path.home() / "Library" / "Caches")
        else:
            base = str(Path.home() / ".cache")
    return Path(base) / "tabletop"


def switched_off(switch: str) -> bool:
    """Whether the environment variable ``switch`` turns a cache off."""
    return os.environ.get(switch, "").strip().lower() in ("0", "off", "no", "false")


def table_path(root: Path | None = None) -> Path:
    """The table's file for this Python: its bytecode format and optimisation level."""
    tag = f"{sys.implementation.cache_tag}-{MAGIC_NUMBER.hex()}-o{sys.flags.optimize}"
    return (root if root is not None else cache_root()) / "code" / f"dataclasses-{tag}{SUFFIX}"


class CodeTable:
    """Source text to the code object compiled from it, read from and written to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = {}
        self.compiled = 0  # texts compiled in this run (not found in the table)
        self.used: set[str] = set()  # texts this run looked up

    def load(self) -> None:
        """Read the table; a missing, short, damaged or foreign file leaves it empty."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return
        start = len(FORMAT) + DIGEST
        if len(data) < start or not data.startswith(FORMAT):
            return
        body = memoryview(data)[start:]
        if hashlib.blake2b(body, digest_size=DIGEST).digest() != data[len(FORMAT) : start]:
            return
        try:
            table = marshal.loads(body)
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(table, dict) and all(
            isinstance(k, str) and isinstance(v, CodeType) for k, v in table.items()
        ):
            self.codes = table

    def code(self, source: str) -> CodeType:
        """The code ``exec(source)`` runs: from the table, else compiled (and kept)."""
        self.used.add(source)
        found = self.codes.get(source)
        if found is None:
            # as exec compiles a text: file "<string>", no future flags of the caller
            found = compile(source, "<string>", "exec", dont_inherit=True)
            self.codes[source] = found
            self.compiled += 1
        return found

    def save(self) -> bool:
        """Write the table if this run compiled anything; whole or not at all. Whether it was
        written (a folder that cannot be written is passed over)."""
        if not self.compiled:
            return False
        if len(self.codes) > MAX_ENTRIES:
            self.codes = {text: self.codes[text] for text in self.used}
        body = marshal.dumps(self.codes)
        data = FORMAT + hashlib.blake2b(body, digest_size=DIGEST).digest() + body
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(
                prefix=f".{self.path.name}{TEMP_MARK}", dir=self.path.parent
            )
        except OSError:
            return False
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            return False
        self.compiled = 0
        return True


def exec_through(table: CodeTable) -> Callable[..., None]:
    """An ``exec`` that runs a text as ``table`` has it compiled (anything else as given)."""
    run = builtins.exec

    def exec_kept(source: Any, globals: Any = None, locals: Any = None) -> None:  # noqa: A002
        if isinstance(source, str):
            source = table.code(source)
        run(source, globals, locals)

    return exec_kept


_installed: CodeTable | None = None


def install(path: Path | None = None) -> CodeTable | None:
    """Have the ``dataclasses`` module compile through a kept table (read now, written at
    exit); the table, or None when turned off. Call before the program's modules are
    imported; a second call returns the table already installed."""
    global _installed
    if _installed is not None:
        return _installed
    if path is None:
        if switched_off(SWITCH):
            return None
        path = table_path()
    import dataclasses

    table = CodeTable(path)
    table.load()
    # a name in the module's globals comes before the builtin of that name
    dataclasses.exec = exec_through(table)  # type: ignore[attr-defined]
    atexit.register(table.save)
    _installed = table
    return table
