"""What ``tabletop play greenland --screenshot`` does before its window is first shown: the
modules it leaves for later (each loads when what needs it is used) and the parts of the
window built when first opened. Figures are never judged here (table: no section applies)."""

from __future__ import annotations

import sys

import pytest

from tabletop.persist import atomic

from .test_bench_table import _start_up_imports


@pytest.fixture(scope="module")
def start_up(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The modules the start path imports (one run shared by this file's tests)."""
    return set(_start_up_imports(tmp_path_factory.mktemp("start")))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_table_the_atomic_writer_finds_renameat2_without_a_library_search() -> None:
    """The never-replacing rename is found among the program's own symbols: no program is run
    to search for the C library's file, and the start path imports no subprocess for it."""
    assert atomic._renameat2 is not None


def test_table_start_up_runs_no_subprocess_code(start_up: set[str]) -> None:
    assert "subprocess" not in start_up and "ctypes.util" not in start_up
