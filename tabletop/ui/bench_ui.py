"""The window's figures for ``tabletop bench``: start-up, drag steps, snapshots, memory."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import resource  # the children's CPU time (not on every system)
except ImportError:  # pragma: no cover - Windows
    resource = None

_BARE_QT = """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.resize(1600, 1000)
window.show()
app.processEvents()
window.grab().save(sys.argv[1])
"""

_WINDOW_RSS = """
import sys
from tabletop.modules import default_module, find_module
from tabletop.ui.window import MainWindow, application
from PySide6.QtCore import QSettings
app = application()
window = MainWindow(QSettings(sys.argv[1], QSettings.Format.IniFormat), ask=False)
window.resize(1600, 1000)
window.start_new(find_module(default_module()), seed=1)
window.show()
for _ in range(5):
    app.processEvents()
window.grab()
for line in open('/proc/self/status'):
    if line.startswith('VmRSS:'):
        print(int(line.split()[1]) / 1024)
window.close()
"""


def _load() -> list[float] | None:
    """The load average now (the figures depend on what else the machine is doing)."""
    return [round(v, 2) for v in os.getloadavg()] if hasattr(os, "getloadavg") else None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    # as installed programs run: with their compiled bytecode cached (the first run writes it)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _children_cpu() -> float | None:
    """User and system seconds of this process's finished children (None where the system
    does not say)."""
    if resource is None:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float | None]:
    """Wall seconds of one run, and the CPU seconds (user and system) it took (None where
    the system does not say)."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    c1 = _children_cpu()
    return wall, (c1 - c0) if c0 is not None and c1 is not None else None


def _medians(runs: list[tuple[float, float | None]]) -> tuple[float, float | None]:
    cpu = [c for _w, c in runs if c is not None]
    return statistics.median(w for w, _c in runs), statistics.median(cpu) if cpu else None


def measure_start(work: Path, repeats: int = 7) -> dict[str, Any]:
    """Opening the window on a new default game and grabbing it, against a bare Qt window grab:
    in wall time (``start_vs_bare_qt``) and in CPU time (``start_vs_bare_qt_cpu``: user and
    system time of each process), medians of ``repeats`` runs of each, with the load average
    when measured. The two run in turns (bare, window, bare, ...), so that what else the
    machine does weighs on both alike; CPU time depends less on it than wall time."""
    from tabletop.modules import default_module

    env = _env()
    env["TABLETOP_GAMES"] = str(work / "games")
    bare_argv = [sys.executable, "-c", _BARE_QT, str(work / "bare.png")]
    play_argv = [
        sys.executable,
        "-m",
        "tabletop.cli",
        "play",
        default_module(),
        "--seed",
        "1",
        "--screenshot",
        str(work / "play.png"),
    ]
    for argv in (bare_argv, play_argv):  # warm: bytecode, the disk's caches, kept faces
        subprocess.run(argv, env=env, check=True, capture_output=True)
    bare_runs, play_runs = [], []
    for _ in range(repeats):
        bare_runs.append(_timed(bare_argv, env))
        play_runs.append(_timed(play_argv, env))
    bare, bare_cpu = _medians(bare_runs)
    play, play_cpu = _medians(play_runs)
    figures: dict[str, Any] = {
        "start_vs_bare_qt": round(play / bare, 2),
        "start_play_ms": round(play * 1e3),
        "start_bare_qt_ms": round(bare * 1e3),
    }
    if play_cpu is not None and bare_cpu:
        figures["start_vs_bare_qt_cpu"] = round(play_cpu / bare_cpu, 2)
        figures["start_play_cpu_ms"] = round(play_cpu * 1e3)
        figures["start_bare_qt_cpu_ms"] = round(bare_cpu * 1e3)
    figures["start_load_average"] = _load()
    return figures


def measure_window_rss(work: Path) -> dict[str, float]:
    if not Path("/proc/self/status").exists():
        return {}
    env = _env()
    env["TABLETOP_GAMES"] = str(work / "games-rss")
    out = subprocess.run(
        [sys.executable, "-c", _WINDOW_RSS, str(work / "rss.ini")],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {"window_rss_mb": round(float(out.split()[-1]), 1)}


def measure_drag(
    work: Path, steps: int = 300, pieces: int | None = None, suffix: str = ""
) -> dict[str, Any]:
    """p95 of one drag step: a mouse move through the scene to the end of the repaint. On the
    1,000-piece table, or with ``pieces`` on the wargame-sized table (``bench.BIG_PIECES``:
    counters on a hex board, cards, stacks); ``suffix`` ends each figure's name. With
    ``pieces``, also the time to open that table in the window (``open<suffix>_table_ms``:
    from showing the game to the first paint done; ``open<suffix>_table_cpu_ms`` the CPU time
    this process took for it, which depends less on what else the machine is doing)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from tabletop.bench import _big_setup_commands, _header, _setup_commands
    from tabletop.persist import Game

    from .window import MainWindow, application

    app = application()
    window = MainWindow(
        QSettings(str(work / f"drag{suffix}.ini"), QSettings.Format.IniFormat), ask=False
    )
    window.resize(1600, 1000)
    setup = _setup_commands() if pieces is None else _big_setup_commands(pieces)
    game = Game.create(_header(), setup, work / f"drag{suffix}.jsonl")
    t0, cpu0 = time.perf_counter(), time.process_time()
    window.show_game(game, None)
    window.show()
    for _ in range(3):
        app.processEvents()
    opened = {
        f"open{suffix}_table_ms": round((time.perf_counter() - t0) * 1e3),
        f"open{suffix}_table_cpu_ms": round((time.process_time() - cpu0) * 1e3),
    }
    view, scene = window.view, window.scene
    view.set_zoom(0.6)
    pid = next(p for p in scene.pieces if p.startswith("disk"))
    item = scene.pieces[pid]
    view.centerOn(item)
    app.processEvents()
    viewport = view.viewport()
    point = QPointF(view.mapFromScene(item.sceneBoundingRect().center()))

    def send(kind: QEvent.Type, at: QPointF, buttons: Qt.MouseButton) -> None:
        button = (
            Qt.MouseButton.LeftButton if kind != QEvent.Type.MouseMove else Qt.MouseButton.NoButton
        )
        event = QMouseEvent(
            kind, at, viewport.mapToGlobal(at), button, buttons, Qt.KeyboardModifier.NoModifier
        )
        QApplication.sendEvent(viewport, event)

    send(QEvent.Type.MouseButtonPress, point, Qt.MouseButton.LeftButton)
    picked = scene.selected_pieces()
    if len(picked) != 1:
        raise RuntimeError("the drag benchmark's press picked up no piece")
    pid = picked[0]  # the piece on top at that point
    before = (game.table.state.pieces[pid].x, game.table.state.pieces[pid].y)
    samples = []
    start = QPointF(point)
    for i in range(steps):  # round and round a small circle, inside the free area
        angle = i / 24 * math.tau
        point = start + QPointF(60 * math.sin(angle), 40 * (1 - math.cos(angle)))
        t0 = time.perf_counter()
        send(QEvent.Type.MouseMove, point, Qt.MouseButton.LeftButton)
        app.processEvents()
        samples.append(time.perf_counter() - t0)
    target = scene._target
    send(QEvent.Type.MouseButtonRelease, point, Qt.MouseButton.NoButton)
    app.processEvents()
    after = (game.table.state.pieces[pid].x, game.table.state.pieces[pid].y)
    if after == before:
        window.close()
        raise RuntimeError(
            f"the drag benchmark's piece did not move (drop target {target}; {window.statusBar().currentMessage()})"
        )
    moved = game.table.state.pieces[pid].place
    window.close()
    samples.sort()
    p95 = samples[int(len(samples) * 0.95) - 1]
    return {
        **(opened if pieces is not None else {}),
        f"drag_step_p95_ms{suffix}": round(p95 * 1e3, 2),
        f"drag_step_median_ms{suffix}": round(statistics.median(samples) * 1e3, 2),
        f"drag_dropped_in{suffix}": moved,
    }


def measure_snapshot(work: Path) -> dict[str, float]:
    """PNG of the whole default table at scale 2."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tabletop.export import render_game
    from tabletop.modules import default_module, find_module, new_game

    module = find_module(default_module())
    game = new_game(module, seed=1, path=work / "snap.jsonl")
    samples = []
    for i in range(3):
        t0 = time.perf_counter()
        render_game(game, module, work / f"snap-{i}.png", scale=2.0)
        samples.append(time.perf_counter() - t0)
    game.close()
    return {"snapshot_png_2x_ms": round(statistics.median(samples) * 1e3)}


def run(say: Any = print) -> dict[str, Any]:
    from tabletop.bench import BIG_PIECES

    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-ui-") as tmp:
        work = Path(tmp)
        say("starting the window against a bare Qt window")
        results.update(measure_start(work))
        say("dragging a piece across a 1,000-piece table")
        results.update(measure_drag(work))
        say("dragging a piece across a 10,000-piece table")
        results.update(measure_drag(work, pieces=BIG_PIECES, suffix="_10k"))
        results["drag_10k_load_average"] = _load()
        say("rendering the default table to PNG at scale 2")
        results.update(measure_snapshot(work))
        say("measuring the memory of the window with the default table")
        results.update(measure_window_rss(work))
    return results
