"""The core, the log and the rules assistant need no Qt; nothing from a file is ever executed."""

from __future__ import annotations

import io
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HEADLESS_PACKAGES = ("tabletop.core", "tabletop.persist", "rules_assist")

SCRIPT = r"""
import importlib
import importlib.abc
import pkgutil
import sys

BLOCKED = ("PySide6", "shiboken6", "PyQt4", "PyQt5", "PyQt6", "PySide2", "shiboken2")


class NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"Qt is not allowed here: {name}")
        return None


sys.meta_path.insert(0, NoQt())
for name in list(sys.modules):
    if name.split(".")[0] in BLOCKED:
        del sys.modules[name]

imported = []
for top in sys.argv[1:]:
    package = importlib.import_module(top)
    imported.append(top)
    for info in pkgutil.walk_packages(package.__path__, prefix=top + "."):
        importlib.import_module(info.name)
        imported.append(info.name)

leaked = sorted(n for n in sys.modules if n.split(".")[0] in BLOCKED)
assert not leaked, leaked
print("\n".join(imported))
"""


def test_the_headless_packages_import_without_qt():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *HEADLESS_PACKAGES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    imported = set(result.stdout.split())
    for module in (
        "tabletop.core.commands",
        "tabletop.core.table",
        "tabletop.core.boards",
        "tabletop.persist.logfile",
        "tabletop.persist.session",
        "rules_assist",
    ):
        assert module in imported


def test_the_blocker_really_blocks():
    probe = SCRIPT.replace("imported = []", "import PySide6  # must fail\nimported = []")
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "Qt is not allowed here" in result.stderr


# ---- nothing is executed from data --------------------------------------------------

FORBIDDEN_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill"}
FORBIDDEN_CALLS = {"eval", "exec"}
SCANNED = ("tabletop/core", "tabletop/persist", "tabletop/modules")


def sources() -> list[Path]:
    files = [p for d in SCANNED for p in sorted((ROOT / d).rglob("*.py"))]
    assert files, "no source files found"
    return files


def forbidden_uses(text: str) -> list[str]:
    """Names in code (not in strings or comments) that load or run code from data."""
    found = []
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)]
    code = [t for t in tokens if t.type in (tokenize.NAME, tokenize.OP)]
    for i, tok in enumerate(code):
        if tok.type != tokenize.NAME:
            continue
        before = code[i - 1].string if i else ""
        after = code[i + 1].string if i + 1 < len(code) else ""
        if tok.string in FORBIDDEN_MODULES:
            found.append(f"line {tok.start[0]}: {tok.string}")
        elif tok.string in FORBIDDEN_CALLS and after == "(" and before != ".":
            found.append(f"line {tok.start[0]}: {tok.string}(")
    return found


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pickle_eval_exec_or_marshal(path):
    assert forbidden_uses(path.read_text(encoding="utf-8")) == []


def test_the_scanner_finds_what_it_should():
    bad = "import pickle\nfrom marshal import loads\nx = eval('1')\nexec(code)\n"
    assert len(forbidden_uses(bad)) == 4
    fine = (
        '"""nothing here is executed; no eval(), no pickle"""\n'
        "# exec( in a comment\n"
        "qt_dialog.exec()\n"
        "evaluate(x)\n"
        "text = 'pickle'\n"
    )
    assert forbidden_uses(fine) == []
