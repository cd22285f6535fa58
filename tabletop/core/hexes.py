"""Hex geometry in plain functions: axial coordinates, offset grids, rotation, pixel centres.

A hex is an axial pair ``(q, r)`` (the third cube coordinate is ``-q - r``). The six
neighbours of ``(q, r)`` are ``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``.
Boards name their spaces ``"q,r"`` (see ``name`` and ``parse``).

Offset grids name a cell ``(col, row)`` and shove every other column (flat tops) or row
(pointy tops) by half a hex:

=========  ===========  ==========================================
offset     orientation  which line is shoved
=========  ===========  ==========================================
``odd``    ``flat``     odd columns down (odd-q)
``even``   ``flat``     even columns down (even-q)
``odd``    ``pointy``   odd rows right (odd-r)
``even``   ``pointy``   even rows right (even-r)
=========  ===========  ==========================================

Parity is taken bitwise (``col & 1``), so a negative odd column counts as odd.

Pixel centres put a hex of size 1 (centre to corner) with flat tops at
``(1.5 q, √3 (r + q/2))`` and with pointy tops at ``(√3 (q + r/2), 1.5 r)``; y grows
downwards, as on a screen. One rotation step ``(q, r) -> (-r, q + r)`` turns the map
60 degrees clockwise on the screen, for either orientation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Hex = tuple[int, int]
Cell = tuple[int, int]

# The six axial steps, in turning order (each is the one before rotated by one step).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
ORIENTATIONS = ("flat", "pointy")
OFFSETS = ("odd", "even")
SQRT3 = math.sqrt(3.0)


def name(h: Hex) -> str:
    """The space name of a hex: ``"q,r"``."""
    return f"{h[0]},{h[1]}"


def parse(text: str) -> Hex:
    """The hex a space name ``"q,r"`` stands for; ValueError for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a space name 'q,r'")
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not two whole numbers 'q,r'")
    try:
        q, r = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"{text!r} is not two whole numbers 'q,r'") from None
    if name((q, r)) != text:
        raise ValueError(f"{text!r} is not written as {name((q, r))!r}")
    return q, r


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around ``h``, in turning order."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def are_neighbours(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    """The number of steps from ``a`` to ``b`` across the hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, k: int = 1, about: Hex = (0, 0)) -> Hex:
    """``h`` turned ``k`` times 60 degrees (clockwise on the screen) about the hex ``about``;
    ``k`` may be negative or more than 5."""
    q, r = h[0] - about[0], h[1] - about[1]
    for _ in range(k % 6):
        q, r = -r, q + r
    return q + about[0], r + about[1]


def _check(offset: str, orientation: str) -> None:
    if offset not in OFFSETS:
        raise ValueError(f"offset must be 'odd' or 'even', not {offset!r}")
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be 'flat' or 'pointy', not {orientation!r}")


def offset_to_axial(cell: Cell, offset: str = "odd", orientation: str = "flat") -> Hex:
    """The axial hex of an offset cell ``(col, row)``."""
    _check(offset, orientation)
    col, row = cell
    if orientation == "flat":
        shift = (col - (col & 1)) // 2 if offset == "odd" else (col + (col & 1)) // 2
        return col, row - shift
    shift = (row - (row & 1)) // 2 if offset == "odd" else (row + (row & 1)) // 2
    return col - shift, row


def axial_to_offset(h: Hex, offset: str = "odd", orientation: str = "flat") -> Cell:
    """The offset cell ``(col, row)`` of an axial hex."""
    _check(offset, orientation)
    q, r = h
    if orientation == "flat":
        shift = (q - (q & 1)) // 2 if offset == "odd" else (q + (q & 1)) // 2
        return q, r + shift
    shift = (r - (r & 1)) // 2 if offset == "odd" else (r + (r & 1)) // 2
    return q + shift, r


def offset_neighbours(cell: Cell, offset: str = "odd", orientation: str = "flat") -> list[Cell]:
    """The six cells around an offset cell (some may lie off the grid)."""
    return [
        axial_to_offset(h, offset, orientation)
        for h in neighbours(offset_to_axial(cell, offset, orientation))
    ]


def place_face(
    cells: Iterable[Cell],
    origin: Hex = (0, 0),
    rotation: int = 0,
    offset: str = "even",
    orientation: str = "flat",
) -> dict[Cell, Hex]:
    """Where the cells of a printed board land on a map: each offset cell ``(col, row)`` is
    taken to axial, turned ``rotation`` times 60 degrees about the board's own ``(0, 0)``,
    then moved by ``origin``. Returns {cell: axial hex}."""
    placed: dict[Cell, Hex] = {}
    for cell in cells:
        q, r = rotate(offset_to_axial(cell, offset, orientation), rotation)
        placed[cell] = (q + origin[0], r + origin[1])
    return placed


def centre(h: Hex, orientation: str = "flat", size: float = 1.0) -> tuple[float, float]:
    """The pixel centre of a hex of ``size`` (centre to corner); y grows downwards."""
    q, r = h
    if orientation == "flat":
        return size * 1.5 * q, size * SQRT3 * (r + q / 2)
    if orientation == "pointy":
        return size * SQRT3 * (q + r / 2), size * 1.5 * r
    raise ValueError(f"orientation must be 'flat' or 'pointy', not {orientation!r}")


def half_extent(orientation: str = "flat", size: float = 1.0) -> tuple[float, float]:
    """Half the width and half the height of one hex of ``size``."""
    if orientation == "flat":
        return size, size * SQRT3 / 2
    return size * SQRT3 / 2, size


def corners(
    centre_xy: tuple[float, float], orientation: str = "flat", size: float = 1.0
) -> list[tuple[float, float]]:
    """The six corners of a hex around a pixel centre."""
    cx, cy = centre_xy
    start = 0 if orientation == "flat" else 30
    return [
        (
            cx + size * math.cos(math.radians(start + 60 * k)),
            cy + size * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


def nearest(x: float, y: float, orientation: str = "flat", size: float = 1.0) -> Hex:
    """The hex whose cell holds the pixel point ``(x, y)`` (cube rounding)."""
    if orientation == "flat":
        fq = (2 / 3 * x) / size
        fr = (-1 / 3 * x + SQRT3 / 3 * y) / size
    else:
        fq = (SQRT3 / 3 * x - 1 / 3 * y) / size
        fr = (2 / 3 * y) / size
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r
