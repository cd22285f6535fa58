"""The one test under a real X server: `tabletop play --screenshot` on Xvfb with Qt's xcb platform.

Everything else runs on the offscreen platform; this proves the window opens
on a real display (the xcb plugin and its libraries load, the window maps and
paints). It skips where Xvfb is not installed (.ci/run installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

pytestmark = pytest.mark.slow

XVFB = shutil.which("Xvfb")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def display():  # noqa: ANN201
    """A fresh Xvfb on the first free display number from :90, stopped afterwards."""
    if XVFB is None:
        pytest.skip("Xvfb is not installed")
    for number in range(90, 100):
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        server = subprocess.Popen(
            [XVFB, f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and server.poll() is None:
                if Path(f"/tmp/.X11-unix/X{number}").exists():
                    break
                time.sleep(0.05)
            if server.poll() is not None:  # it lost a race for that number: try the next
                continue
            if not Path(f"/tmp/.X11-unix/X{number}").exists():
                pytest.fail(f"Xvfb :{number} did not start within 10 s")
            yield f":{number}"
            return
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    pytest.skip("no free X display number in :90 to :99")


def test_play_takes_a_screenshot_on_a_real_x_server(display, tmp_path):
    out = tmp_path / "table.png"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(
        DISPLAY=display,
        QT_QPA_PLATFORM="xcb",
        TABLETOP_GAMES=str(tmp_path / "games"),
        HOME=str(tmp_path),  # settings, data and temporary folders of this run stay in tmp_path
        TMPDIR=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )
    env.pop("WAYLAND_DISPLAY", None)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop.cli",
            "play",
            "proto",
            "--seed",
            "1",
            "--screenshot",
            str(out),
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if "Could not load the Qt platform plugin" in result.stderr:
        # a machine with Xvfb but without the libraries of Qt's xcb plugin (.ci/run installs them)
        pytest.skip("Qt's xcb platform plugin cannot load here: " + result.stderr.strip()[:300])
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert not image.isNull(), f"{out} is not a PNG Qt can read"
    assert (image.width(), image.height()) == (1600, 1000)
    colours, greenish, seen = set(), 0, 0
    for y in range(0, image.height(), 7):
        for x in range(0, image.width(), 7):
            colours.add(image.pixel(x, y))
            colour = image.pixelColor(x, y)
            greenish += colour.green() > colour.red() + 20 and colour.green() > colour.blue() + 10
            seen += 1
    assert len(colours) > 200, f"only {len(colours)} colours: the window looks blank"
    # the table's felt fills much of the window, so the scene was drawn, not just the frame
    assert greenish / seen > 0.2, f"only {greenish / seen:.0%} of the window is felt"
