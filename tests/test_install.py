"""Installing tabletop like a desktop app (README, Install): the wheel with its game modules in a
fresh environment, the frozen program of `make package`, the desktop entry of
`make install-desktop`."""

from __future__ import annotations

import configparser
import importlib.util
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
# what the wheel is built from (setup.py maps resources/ into the package tabletop)
SOURCES = ("tabletop", "rules_assist", "resources", "pyproject.toml", "setup.py", "README.md")
# what the frozen program is built from
FROZEN_SOURCES = (
    "tabletop",
    "rules_assist",
    "resources",
    "packaging/tabletop.spec",
    "packaging/tabletop_main.py",
    "packaging/tabletop.svg",
)


def _environment(**extra: str) -> dict[str, str]:
    """The environment a user's program runs in: no display, modules found by the program
    itself (not through TABLETOP_RESOURCES), nothing of this checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("TABLETOP_RESOURCES", "PYTHONPATH")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.update(extra)
    return env


def _run(argv: list[str | Path], cwd: Path, **extra: str) -> str:
    result = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=_environment(**extra),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, f"{argv}: {result.stdout}{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


def _assert_a_drawn_table(png: Path, width: int, height: int) -> None:
    """A picture at least this big with a table drawn on it: many colours, not one fill."""
    with Image.open(png) as image:
        assert image.format == "PNG"
        assert image.width >= width and image.height >= height, image.size
        colours = image.convert("RGB").getcolors(maxcolors=image.width * image.height)
    assert colours is not None and len(colours) > 200, f"{png} is nearly blank"
    commonest = max(count for count, _ in colours)
    assert commonest < 0.9 * image.width * image.height, f"{png} is nearly one colour"


def _copy_sources(names: tuple[str, ...], into: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in names:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=ignore)
        else:
            shutil.copy2(source, into / name)


@pytest.mark.slow
def test_wheel_in_a_fresh_environment_starts_greenland_and_renders_it(tmp_path: Path) -> None:
    """`pip install .` / `pipx install .`: the wheel holds every package and the game modules;
    installed alone in a new virtual environment it starts and draws a Greenland game."""
    source, wheels, env, work = (tmp_path / n for n in ("source", "wheels", "env", "work"))
    for folder in (source, work):
        folder.mkdir()
    _copy_sources(SOURCES, source)  # a clean tree: no build/ left over in the checkout
    _run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--no-index", "--wheel-dir", wheels, source],
        cwd=tmp_path,
    )
    (wheel,) = wheels.glob("tabletop-*.whl")

    _run([sys.executable, "-m", "venv", "--without-pip", env], cwd=tmp_path)
    python = env / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps"]
        + ["--no-index", wheel],
        cwd=tmp_path,
    )
    # The dependencies (Qt, networkx, ...) come from the test's own environment, after the new
    # environment's packages on the path: no download. Its tabletop is an editable install, seen
    # only through a .pth file that this plain path line does not read.
    purelib = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
    )
    ours = {sysconfig.get_path("purelib"), *site.getsitepackages()}
    (purelib / "test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")

    found = _run(
        [python, "-c"]
        + [
            "import tabletop, rules_assist;"
            "from tabletop.modules import find_module, module_ids, resources_dir;"
            "print(tabletop.__file__); print(resources_dir());"
            "print(','.join(i for i in module_ids() if find_module(i)))"
        ],
        cwd=work,
    ).splitlines()
    assert Path(found[0]).is_relative_to(purelib) and Path(found[1]).is_relative_to(purelib)
    checkout = sorted(
        p.name for p in (ROOT / "resources").iterdir() if (p / "module.toml").is_file()
    )
    assert found[2].split(",") == checkout  # every module, its game code loaded

    program = env / "bin" / "tabletop"
    _run([program, "new", "greenland", "-o", "game.jsonl", "--seed", "7"], cwd=work)
    _run([program, "render", "game.jsonl", "-o", "table.png"], cwd=work)
    _assert_a_drawn_table(work / "table.png", 600, 400)


def _frozen_program(tmp_path: Path) -> Path:
    """dist/tabletop/tabletop when `make package` built it after the last change to its
    sources, else a new build in tmp_path."""
    built = ROOT / "dist" / "tabletop" / "tabletop"
    if built.is_file():
        files = [ROOT / name for name in FROZEN_SOURCES if (ROOT / name).is_file()] + [
            p
            for name in FROZEN_SOURCES
            for p in (ROOT / name).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        ]
        newest = max(p.stat().st_mtime for p in files)
        if built.stat().st_mtime > newest:
            return built
    _run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
        + ["--distpath", tmp_path / "dist", "--workpath", tmp_path / "build"]
        + [ROOT / "packaging" / "tabletop.spec"],
        cwd=tmp_path,
    )
    return tmp_path / "dist" / "tabletop" / "tabletop"


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("PyInstaller") is None,
    reason="PyInstaller is not installed (pip install -e '.[package]', or make package)",
)
def test_frozen_program_opens_the_window_on_a_new_game(tmp_path: Path) -> None:
    """`make package`: the frozen program, with no Python environment of ours on its path,
    opens the window on a new game of the default module and grabs it."""
    program = _frozen_program(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    _run([program, "play", "--seed", "3", "--screenshot", "window.png"], cwd=work)
    _assert_a_drawn_table(work / "window.png", 800, 500)


def test_install_desktop_writes_a_valid_entry_icon_and_file_type(tmp_path: Path) -> None:
    """`make install-desktop`: the entry, its icon and the game log's file type under
    XDG_DATA_HOME; the entry starts the program it names and opens the file type's files."""
    program = tmp_path / "bin" / "tabletop"
    output = _run(
        ["make", "--no-print-directory", "-C", ROOT, "install-desktop", f"PROGRAM={program}"],
        cwd=tmp_path,
        XDG_DATA_HOME=str(tmp_path / "share"),
    )
    entry = tmp_path / "share" / "applications" / "tabletop.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "tabletop.svg"
    assert str(entry) in output
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(entry, encoding="utf-8")
    keys = parser["Desktop Entry"]
    assert keys["Type"] == "Application" and keys["Name"] == "tabletop"
    assert keys["Exec"] == f'"{program}" play %f'
    assert keys["Icon"] == icon.stem and keys["Terminal"] == "false"
    assert "Game" in keys["Categories"].split(";")
    assert ET.parse(icon).getroot().tag == "{http://www.w3.org/2000/svg}svg"

    # the file type knows a game log by its first bytes: those of a log `tabletop new` writes
    mime = "{http://www.freedesktop.org/standards/shared-mime-info}"
    kind = ET.parse(tmp_path / "share" / "mime" / "packages" / "tabletop.xml").find(
        f"{mime}mime-type"
    )
    assert kind is not None and keys["MimeType"] == kind.get("type") + ";"
    match = kind.find(f"{mime}magic/{mime}match")
    assert match is not None and match.get("offset") == "0"
    assert main(["new", "proto", "-o", str(tmp_path / "game.jsonl"), "--seed", "1"]) == 0
    assert (tmp_path / "game.jsonl").read_text(encoding="utf-8").startswith(match.get("value"))
    if shutil.which("desktop-file-validate"):
        result = subprocess.run(
            ["desktop-file-validate", str(entry)], capture_output=True, text=True
        )
        assert result.returncode == 0 and "error" not in result.stdout, result.stdout
