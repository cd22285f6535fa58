"""``tabletop bench``'s window figures on the wargame-sized table, and what start-up loads.

Figures are produced, never judged: the suite asserts nothing about time.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from tabletop import bench
from tabletop.cli import main
from tabletop.core import Table, TableState
from tabletop.ui import bench_ui


def test_big_table_holds_cards_counters_on_a_hex_board_and_stacks() -> None:
    table = Table(TableState(bench._header().seats))
    for command in bench._big_setup_commands():
        table.submit(command, "setup", undoable=False)
    state = table.state
    assert len(state.pieces) == bench.BIG_PIECES == 10_000
    on_board = state.places["map"].contents
    assert len(on_board) > 5000
    spots = {state.pieces[p].spot for p in on_board}
    assert len(spots) == len(state.places["map"].spots)  # every hex holds a pile
    assert sum(len(state.places[f"stack_{n}"].contents) for n in range(16)) == 1000
    assert len(state.places["deck"].contents) == len(state.places["cards"].contents) == 1000


def test_drag_step_10k_figure_is_produced(tmp_path: Path, qapp) -> None:  # noqa: ANN001
    """The 10k figure's way, on a smaller table of the same kinds of pieces: the drag moves the
    piece, and the figures carry the ``_10k`` names (opening the table among them)."""
    figures = bench_ui.measure_drag(tmp_path, steps=30, pieces=600, suffix="_10k")
    assert set(figures) == {
        "drag_step_p95_ms_10k",
        "drag_step_median_ms_10k",
        "drag_dropped_in_10k",
        "open_10k_table_ms",
        "open_10k_table_cpu_ms",
    }
    assert figures["open_10k_table_ms"] > 0 and figures["open_10k_table_cpu_ms"] >= 0
    assert figures["drag_dropped_in_10k"] == "table"
    assert figures["drag_step_p95_ms_10k"] >= figures["drag_step_median_ms_10k"] > 0


def _start_up_imports(tmp_path: Path) -> list[str]:
    """The modules ``tabletop play greenland --screenshot`` imports, in the order it imports
    them (from ``python -X importtime``); the picture is checked to have been written."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TABLETOP_GAMES=str(tmp_path / "games"))
    shot = tmp_path / "play.png"
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "tabletop.cli",
            "play",
            "greenland",
            "--seed",
            "1",
            "--screenshot",
            str(shot),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.stat().st_size > 0
    order = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line]
    assert "tabletop.ui.window" in order  # the window's imports were all listed
    return order


def test_start_up_loads_no_matplotlib_or_networkx(tmp_path: Path) -> None:
    """``tabletop play greenland --screenshot`` opens the window without the report's plotting
    library or the board graphs' library (each loads only when asked for), nor PIL (an SVG
    export's), nor Redis's client (live play's, loaded when a game is hosted or joined); the
    game's rules and turn load before Qt (PySide6 reads the source of every module imported
    after it)."""
    order = _start_up_imports(tmp_path)
    loaded = set(order)
    assert not {
        name for name in loaded if name.split(".")[0] in ("matplotlib", "networkx", "PIL", "redis")
    }
    for module in ("rules_assist.greenland.setup", "rules_assist.greenland.flow"):
        assert order.index(module) < order.index("PySide6.QtCore")


def test_start_up_loads_no_signing_statistics_or_snapshot_code(tmp_path: Path) -> None:
    """The window opens without PyNaCl (play by email's keys, loaded when a key is made, used
    or checked) and without the statistics module (the session table's means, with its
    decimal and fractions), nor the modules that use them (loaded by their commands); nor
    the snapshots' code (tabletop/export, loaded when a snapshot is taken or exported)."""
    loaded = set(_start_up_imports(tmp_path))
    assert "tabletop.persist.pbem" not in loaded and "tabletop.report.sessions" not in loaded
    assert not {
        name
        for name in loaded
        if name.split(".")[0] in ("nacl", "_cffi_backend", "statistics", "decimal", "fractions")
        or name.startswith("tabletop.export")
    }


def test_start_up_leaves_the_cycle_collector_on(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """The window's start pauses the cycle collector (tabletop/ui/app.py): it is on again
    after a screenshot, and after a start that fails."""
    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    shot = tmp_path / "play.png"
    try:
        assert main(["play", "greenland", "--seed", "1", "--screenshot", str(shot)]) == 0
        assert gc.isenabled() and shot.stat().st_size > 0
        assert main(["play", "no-such-game", "--screenshot", str(tmp_path / "x.png")]) == 2
        assert gc.isenabled() and not (tmp_path / "x.png").exists()
    finally:
        gc.unfreeze()  # what the screenshot's start made goes back to the collector


def test_start_figures_in_wall_and_cpu_time(tmp_path: Path) -> None:
    """``start_vs_bare_qt`` comes with its CPU-time twin (each process's user and system
    time) and the load average it was measured at."""
    figures = bench_ui.measure_start(tmp_path, repeats=1)
    assert figures["start_play_ms"] > 0 and figures["start_bare_qt_ms"] > 0
    if sys.platform != "win32":
        assert figures["start_play_cpu_ms"] > 0 and figures["start_bare_qt_cpu_ms"] > 0
        assert figures["start_vs_bare_qt_cpu"] > 0
    assert "start_load_average" in figures
