"""Snapshots of the table for rules discussions: PNG, SVG or PDF, from the window or headless.

Sizes. A snapshot of a source rectangle (scene units) at scale ``s`` has a table
part ``ceil(w * s)`` wide and ``ceil(h * s)`` high (the source grows to whole
units on the right and at the bottom). A caption adds a band above it and a log
excerpt a band below it (``band_heights``); ``snapshot_size`` gives the total. The
same numbers are pixels in a PNG, the ``width``/``height`` of an SVG, and points
of a PDF page (1 px = 1 pt), so the three formats of one snapshot have one size.

PNG. The table is rendered tile by tile (``TILE_SIZE`` pixels square, a progress
step each) into one image, which can be at most ``MAX_PNG_SIDE`` pixels on a side
(12,000 x 12,000 holds about 576 MB); past that the export is refused with the
largest scale that fits. A PDF draws the cards as shapes and text, and the small
pieces (cubes, disks, dice) as pictures at ``PDF_DPI``. An SVG embeds the pieces as
pictures drawn at ``SVG_DETAIL`` pixels per unit (SVG Tiny has no clipping, which the
card art needs), each distinct look once, in at most 256 colours (``compact_svg``).

Parts and header. ``region_source`` is the part holding named places, ``crop_source``
a rectangle in the whole table's units; ``header`` lines (tabletop/export/header.py)
go in a band under the caption. ``OPENS_ANYWHERE`` is the width the window proposes.

Privacy. A snapshot shows what the scene's viewer may see: a seat sees its own
hand; anyone else (no seat, the referee) is treated as a spectator, who sees the
backs of face-down cards and of every hand. ``as_spectator`` hides a seat's hand
too. ``render_game`` draws a spectator's view unless it is given a seat.

Files. Every snapshot is written to a temporary file beside the target and
renamed over it at the end: a failure leaves nothing behind, and a file already
at the target is untouched.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import io
import math
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)
from PySide6.QtSvg import QSvgGenerator

from tabletop import __version__
from tabletop.core import TableError
from tabletop.persist import atomic_path
from tabletop.ui import theme
from tabletop.ui.units import PX_PER_MM
from tabletop.visibility import can_see


# Loaded on first use, not with the window: only an SVG export needs it, and importing it
# costs start-up some 30 ms.
def _pil_image() -> Any:
    """PIL's ``Image`` module (an SVG's pictures made smaller)."""
    return importlib.import_module("PIL.Image")


if TYPE_CHECKING:
    from tabletop.ui.scene import TableScene

Progress = Callable[[int, int], None]

FORMATS = (".png", ".svg", ".pdf")
TILE_SIZE = 2048  # pixels; read at each export, so tests may make it small
MAX_PNG_SIDE = 12_000
MAX_PDF_SIDE = 14_400  # points (200 inches): the largest page PDF readers accept
MIN_SCALE, MAX_SCALE = 0.05, 16.0
# a picture this wide opens anywhere (viewers, chat programs, Qt's own reader); the export
# dialog and the clipboard propose a scale that keeps to it
OPENS_ANYWHERE = 4096
SOURCE_MARGIN = 10 * PX_PER_MM  # around everything on the table
SVG_DETAIL = 2  # an SVG is drawn at twice its size, so its pieces stay sharp zoomed in
PDF_DPI = 288  # pieces in a PDF are embedded at four pixels to the point
# the bands, in output units at text scale 1; the text scale is the export's scale, but at
# least 0.5 (to stay legible) and at least the width over BAND_WIDTH (a snapshot is mostly
# looked at whole, so a wide one gets larger text)
CAPTION_PX, CAPTION_BAND = 26, 56
HEADER_PX, HEADER_LINE, HEADER_PAD = 16, 22, 8
HEADER_INK = QColor("#e4d9b0")
LOG_PX, LOG_LINE, BAND_PAD = 15, 21, 12
MIN_TEXT_SCALE = 0.5
BAND_WIDTH = 2000
BAND = QColor("#18231d")
BAND_RULE = QColor("#5f7f6c")
CAPTION_INK = QColor("#f3f1e7")
LOG_INK = QColor("#cfdcd2")
MONO_FAMILIES = [
    "DejaVu Sans Mono",
    "Menlo",
    "Consolas",
    "Liberation Mono",
    "Courier New",
    "monospace",
]
SANS_FAMILIES = ["DejaVu Sans", "Segoe UI", "Helvetica Neue", "Arial", "sans-serif"]


class ExportError(TableError):
    """A snapshot could not be made; nothing was written."""


@dataclass(frozen=True)
class Frame:
    """The geometry of one snapshot, in output units (pixels, or points in a PDF)."""

    source: QRectF  # scene units, grown to whole output units
    scale: float
    width: int
    table_height: int
    top: int  # the caption and header bands (0 without either)
    bottom: int  # the log band (0 without log lines)
    caption: str | None
    lines: tuple[str, ...]
    header: tuple[str, ...] = ()  # the game's facts: game, revision, turn, phase, ... viewer

    @property
    def height(self) -> int:
        return self.top + self.table_height + self.bottom

    @property
    def text_scale(self) -> float:
        return text_scale(self.width, self.scale)


def _units(length: float, scale: float) -> int:
    return max(1, math.ceil(length * scale - 1e-6))


def _log_lines(log_lines: list[str] | None) -> tuple[str, ...]:
    """Entries may span lines (findings, overrides): one band line each, common indent removed."""
    if not log_lines:
        return ()
    text = "\n".join(line.rstrip("\n") for line in log_lines)
    return tuple(textwrap.dedent(text).splitlines())


def text_scale(width: int, scale: float) -> float:
    """How large the bands' text is drawn (1: CAPTION_PX and LOG_PX units)."""
    return max(scale, MIN_TEXT_SCALE, width / BAND_WIDTH)


def band_heights(
    width: int,
    scale: float,
    caption: str | None,
    log_lines: list[str] | None,
    header: list[str] | None = None,
) -> tuple[int, int]:
    """The caption and header bands (top) and the log band (bottom) of a snapshot ``width``
    wide; 0 when absent."""
    k = text_scale(width, scale)
    top = math.ceil(k * CAPTION_BAND) if _caption(caption) else 0
    facts = _header(header)
    if facts:
        top += math.ceil(k * (HEADER_PAD * (1 if top else 2) + len(facts) * HEADER_LINE))
    lines = len(_log_lines(log_lines))
    bottom = math.ceil(k * (2 * BAND_PAD + lines * LOG_LINE)) if lines else 0
    return top, bottom


def frame_for(
    source: QRectF,
    scale: float,
    caption: str | None = None,
    log_lines: list[str] | None = None,
    header: list[str] | None = None,
) -> Frame:
    width, height = _units(source.width(), scale), _units(source.height(), scale)
    grown = QRectF(source.x(), source.y(), width / scale, height / scale)
    top, bottom = band_heights(width, scale, caption, log_lines, header)
    return Frame(
        grown,
        scale,
        width,
        height,
        top,
        bottom,
        _caption(caption),
        _log_lines(log_lines),
        _header(header),
    )


def snapshot_size(
    source: QRectF,
    scale: float = 1.0,
    caption: str | None = None,
    log_lines: list[str] | None = None,
    header: list[str] | None = None,
) -> tuple[int, int]:
    """(width, height) of a snapshot: pixels of a PNG, px of an SVG, points of a PDF page."""
    frame = frame_for(source, scale, caption, log_lines, header)
    return frame.width, frame.height


def table_source(scene: TableScene) -> QRectF:
    """The whole table: everything drawn, with a margin of felt."""
    rect = scene.itemsBoundingRect()
    if rect.isEmpty():
        rect = scene.sceneRect()
    return rect.adjusted(-SOURCE_MARGIN, -SOURCE_MARGIN, SOURCE_MARGIN, SOURCE_MARGIN)


REGION_MARGIN = 4 * PX_PER_MM  # around the named places of a part of the table
LABEL_HEIGHT = 34  # a place's name above it, as the scene draws it (tabletop/ui/items.py)


def region_source(scene: TableScene, names: list[str]) -> QRectF:
    """The part of the table holding the named places or seats' areas: each place with its
    name above it and every piece in it (a card's regions: the card), with a margin.
    ExportError names the first unknown name."""
    state = scene.state
    wanted = [name.strip() for name in names if name.strip()]
    if not wanted:
        raise ExportError("name at least one place, e.g. --region market")
    bounds = QRectF()
    for name in wanted:
        if name in state.places:
            r = scene.layout.place_rect(name)
            rect = QRectF(r.x, r.y - LABEL_HEIGHT, r.w, r.h + LABEL_HEIGHT)
            for pid in state.places[name].contents:
                item = scene.pieces.get(pid)
                if item is not None:
                    rect = rect.united(item.sceneBoundingRect())
        elif name in scene.zones:
            rect = scene.zones[name].sceneBoundingRect()
        else:
            known = sorted(p.id for p in state.places.values() if p.kind != "regions")
            sample = ", ".join(known[:8]) + (", …" if len(known) > 8 else "")
            raise ExportError(
                f"there is no place or seat {name!r} on this table (places: {sample}; "
                "'tabletop inspect FILE' lists them all)"
            )
        bounds = bounds.united(rect)
    return bounds.adjusted(-REGION_MARGIN, -REGION_MARGIN, REGION_MARGIN, REGION_MARGIN)


def crop_source(scene: TableScene, text: str) -> QRectF:
    """The part ``x,y,w,h`` of the whole table, in its units (the pixels of a whole-table
    snapshot at scale 1, from its top left corner, bands left out). ExportError when it is
    not four numbers, not a positive size, or not inside the table."""
    parts = [p.strip() for p in text.split(",")]
    try:
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        raise ExportError(
            f"--crop {text!r}: write it as x,y,w,h, e.g. --crop 0,0,1200,800"
        ) from None
    if not all(math.isfinite(v) for v in (x, y, w, h)) or w <= 0 or h <= 0 or x < 0 or y < 0:
        raise ExportError(
            f"--crop {text!r}: x and y must be 0 or more, the width and height more than 0"
        )
    table = table_source(scene)
    if x + w > table.width() + 0.5 or y + h > table.height() + 0.5:
        raise ExportError(
            f"--crop {text!r} reaches past the table, which is "
            f"{math.ceil(table.width()):,} x {math.ceil(table.height()):,} at scale 1"
        )
    return QRectF(table.x() + x, table.y() + y, w, h)


def _caption(caption: str | None) -> str | None:
    text = " ".join((caption or "").split())
    return text or None


def _header(header: list[str] | None) -> tuple[str, ...]:
    return tuple(text for line in header or () if (text := " ".join(line.split())))


# ---- exporting ---------------------------------------------------------------
def export_scene(
    scene: TableScene,
    path: str | Path,
    *,
    scale: float = 1.0,
    source: QRectF | None = None,
    caption: str | None = None,
    log_lines: list[str] | None = None,
    progress: Progress | None = None,
    as_spectator: bool = False,
    header: list[str] | None = None,
    replace: bool = False,
) -> None:
    """Write a snapshot of ``scene`` to ``path``; the suffix (.png, .svg, .pdf) picks the format.
    An existing ``path`` is replaced only with ``replace`` (the user chose to replace it).

    ``source`` is the part of the table (scene units; the whole table by default),
    ``caption`` a title band above it, ``header`` the game's facts under the caption
    (tabletop/export/header.py), ``log_lines`` a band of log lines below the table.
    ``progress(done, total)`` is called as the table is rendered. Raises
    ExportError with a plain message, and then nothing was written.
    """
    target = Path(path)
    suffix = check_target(target)
    if not (isinstance(scale, int | float) and MIN_SCALE <= scale <= MAX_SCALE):
        raise ExportError(f"the scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {scale}")
    source = QRectF(source) if source is not None else table_source(scene)
    if not source.isValid() or source.isEmpty():
        raise ExportError("there is nothing to export: the chosen part of the table is empty")
    frame = frame_for(source, float(scale), caption, log_lines, header)
    report = progress or (lambda done, total: None)
    with _privacy(scene, as_spectator):
        if suffix == ".png":
            _write_png(scene, frame, target, report, replace)
        elif suffix == ".svg":
            _write_svg(scene, frame, target, report, replace)
        else:
            _write_pdf(scene, frame, target, report, replace)


def check_target(path: Path) -> str:
    """The format of a target file, or ExportError if it cannot be written there."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        if path.suffix:
            raise ExportError(
                f"{path}: '{path.suffix}' is not a snapshot format; name the file .png, .svg or .pdf"
            )
        raise ExportError(f"{path}: name the file .png, .svg or .pdf (the suffix says which)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"{path}: the folder '{folder}' does not exist")
    if path.is_dir():
        raise ExportError(f"{path}: is a folder")
    return suffix


@contextlib.contextmanager
def _privacy(scene: TableScene, as_spectator: bool) -> Iterator[None]:
    """Draw as a spectator for the export unless the scene's viewer is a seat (and may show)."""
    session = scene.session
    seats = {s.id for s in session.game.header.seats}
    if session.viewer in seats and not as_spectator:
        yield
        return
    state = scene.state
    changed = []
    for item in scene.pieces.values():
        piece = state.pieces.get(item.pid)
        if piece is None:
            continue
        seen = can_see(state, piece, None)
        if item.visible_face != seen:
            changed.append((item, item.visible_face))
            item.refresh(piece, seen)
    zones = [zone for zone in scene.zones.values() if zone.active]
    for zone in zones:
        zone.active = False
    try:
        yield
    finally:
        for item, was in changed:
            item.refresh(item.piece, was)
        for zone in zones:
            zone.active = True


@contextlib.contextmanager
def _replacing(target: Path, replace: bool) -> Iterator[str]:
    """A fresh temporary file beside ``target``, renamed to it if the block succeeds (over an
    existing file only with ``replace``)."""
    try:
        with atomic_path(target, replace=replace) as tmp:
            yield str(tmp)
    except FileExistsError:
        raise ExportError(
            f"{target}: already exists; choose another name (nothing was changed)"
        ) from None
    except OSError as exc:
        raise ExportError(f"{target}: cannot write the snapshot ({exc.strerror or exc})") from None


def _write_whole(target: Path, data: bytes, replace: bool) -> None:
    with _replacing(target, replace) as tmp, open(tmp, "wb") as handle:
        handle.write(data)


def _render_hints(painter: QPainter) -> None:
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing
        | QPainter.RenderHint.SmoothPixmapTransform
        | QPainter.RenderHint.TextAntialiasing
    )


def _paint_table(scene: TableScene, painter: QPainter, frame: Frame, clip: QRect | None) -> None:
    """The table part, in output units from (0, frame.top); only ``clip`` (output units) if given."""
    s, src = frame.scale, frame.source
    painter.save()
    if clip is not None:
        painter.setClipRect(clip)
        pad = 2 / s  # a little beyond the clip, so nothing at its edges is left out
        region = QRectF(
            src.x() + clip.x() / s - pad,
            src.y() + (clip.y() - frame.top) / s - pad,
            clip.width() / s + 2 * pad,
            clip.height() / s + 2 * pad,
        )
    else:
        painter.setClipRect(QRectF(0, frame.top, frame.width, frame.table_height))
        region = src
    painter.translate(0, frame.top)
    painter.scale(s, s)
    painter.translate(-src.x(), -src.y())
    # the target is the source itself: the painter's transform alone places the table, the
    # same for every tile but for whole pixels, so tiles meet without seams
    scene.render(painter, region, region, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.restore()


def _paint_bands(painter: QPainter, frame: Frame) -> None:
    k = frame.text_scale
    pad = BAND_PAD * k
    painter.save()
    if frame.top:
        painter.fillRect(QRectF(0, 0, frame.width, frame.top), BAND)
        painter.fillRect(QRectF(0, frame.top - max(1.0, k), frame.width, max(1.0, k)), BAND_RULE)
        y = 0.0
        if frame.caption:
            band = QRectF(0, 0, frame.width, CAPTION_BAND * k)
            font = _font(SANS_FAMILIES, CAPTION_PX * k, bold=True)
            text_rect = band.adjusted(pad * 1.5, 0, -pad * 1.5, 0)
            painter.setFont(font)
            painter.setPen(CAPTION_INK)
            painter.drawText(
                text_rect,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                QFontMetricsF(font).elidedText(
                    frame.caption, Qt.TextElideMode.ElideRight, text_rect.width()
                ),
            )
            y = band.bottom()
        else:
            y = HEADER_PAD * k
        font = _font(SANS_FAMILIES, HEADER_PX * k)
        metrics = QFontMetricsF(font)
        painter.setFont(font)
        painter.setPen(HEADER_INK)
        width = frame.width - 3 * pad
        for i, line in enumerate(frame.header):
            row = QRectF(pad * 1.5, y + i * HEADER_LINE * k, width, HEADER_LINE * k)
            painter.drawText(
                row,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                metrics.elidedText(line, Qt.TextElideMode.ElideRight, width),
            )
    if frame.bottom:
        y0 = frame.top + frame.table_height
        painter.fillRect(QRectF(0, y0, frame.width, frame.bottom), BAND)
        painter.fillRect(QRectF(0, y0, frame.width, max(1.0, k)), BAND_RULE)
        font = _font(MONO_FAMILIES, LOG_PX * k, mono=True)
        metrics = QFontMetricsF(font)
        painter.setFont(font)
        painter.setPen(LOG_INK)
        width = frame.width - 3 * pad
        for i, line in enumerate(frame.lines):
            row = QRectF(pad * 1.5, y0 + pad + i * LOG_LINE * k, width, LOG_LINE * k)
            painter.drawText(
                row,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                metrics.elidedText(line, Qt.TextElideMode.ElideRight, width),
            )
    painter.restore()


def _font(families: list[str], pixels: float, bold: bool = False, mono: bool = False) -> QFont:
    font = QFont()
    font.setFamilies(families)
    if mono:
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        font.setFixedPitch(True)
    font.setPixelSize(max(6, round(pixels)))
    font.setBold(bold)
    return font


def _too_large(frame: Frame, limit: int, unit: str, what: str) -> ExportError:
    fits = _fitting_scale(frame, limit)
    advice = (
        f"a scale of {fits:g} or less fits"
        if fits
        else "export a smaller part of the table or fewer log lines"
    )
    return ExportError(
        f"the {what} would be {frame.width:,} x {frame.height:,} {unit}, larger than the "
        f"{limit:,} x {limit:,} it may be; {advice} (an SVG has no such limit)"
    )


def _fitting_scale(frame: Frame, limit: int) -> float | None:
    caption = frame.caption
    lines = list(frame.lines)
    header = list(frame.header)
    # the frame's source was grown to whole units; the chosen source is at most a unit smaller
    source = frame.source
    scale = math.floor(min(limit / source.width(), limit / source.height()) * 100) / 100
    while scale >= MIN_SCALE:
        if max(snapshot_size(source, scale, caption, lines, header)) <= limit:
            return scale
        scale = round(scale - 0.01, 2)
    return None


def snapshot_image(
    scene: TableScene,
    source: QRectF,
    scale: float = 1.0,
    *,
    caption: str | None = None,
    header: list[str] | None = None,
    log_lines: list[str] | None = None,
    as_spectator: bool = False,
) -> QImage:
    """A snapshot as an image in memory (for the clipboard, a preview), drawn as
    ``export_scene`` draws a PNG: the same bands, the same privacy."""
    if not (isinstance(scale, int | float) and MIN_SCALE <= scale <= MAX_SCALE):
        raise ExportError(f"the scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {scale}")
    if not source.isValid() or source.isEmpty():
        raise ExportError("there is nothing to draw: the chosen part of the table is empty")
    frame = frame_for(source, float(scale), caption, log_lines, header)
    with _privacy(scene, as_spectator):
        return _render_image(scene, frame, lambda done, total: None)


def fitting_width_scale(
    source: QRectF,
    preferred: float,
    max_width: int,
    caption: str | None = None,
    log_lines: list[str] | None = None,
    header: list[str] | None = None,
) -> float:
    """``preferred``, or the largest scale (in hundredths) under it whose snapshot is at most
    ``max_width`` wide; never below MIN_SCALE."""
    scale = preferred
    if _units(source.width(), scale) > max_width:
        scale = math.floor(max_width / source.width() * 100) / 100
    while (
        scale > MIN_SCALE
        and snapshot_size(source, scale, caption, log_lines, header)[0] > max_width
    ):
        scale = round(scale - 0.01, 2)
    return max(MIN_SCALE, scale)


def png_bytes_of_view(
    scene: TableScene, source: QRectF, max_side: int = 1600, *, as_spectator: bool = False
) -> bytes:
    """A PNG (its bytes) of the part ``source`` of the table, at most ``max_side`` pixels on a
    side, drawn as ``export_scene`` draws it: what the scene's viewer may see (a spectator's
    view with ``as_spectator``). For a note's snapshot, kept in the game's log."""
    if not source.isValid() or source.isEmpty():
        raise ExportError("there is nothing to draw: the part of the table in view is empty")
    longest = max(source.width(), source.height())
    scale = max(MIN_SCALE, min(1.0, max_side / longest))
    frame = frame_for(source, scale)
    with _privacy(scene, as_spectator):
        image = _render_image(scene, frame, lambda done, total: None)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ExportError("the snapshot could not be encoded as PNG")
    return bytes(buffer.data())


def _write_png(
    scene: TableScene, frame: Frame, target: Path, progress: Progress, replace: bool
) -> None:
    image = _render_image(scene, frame, progress)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ExportError(f"{target}: the PNG could not be written (nothing was changed)")
    _write_whole(target, bytes(buffer.data().data()), replace)


def _render_image(scene: TableScene, frame: Frame, progress: Progress) -> QImage:
    if max(frame.width, frame.height) > MAX_PNG_SIDE:
        raise _too_large(frame, MAX_PNG_SIDE, "pixels", "PNG")
    image = QImage(frame.width, frame.height, QImage.Format.Format_RGB32)
    if image.isNull():
        raise ExportError(
            f"there is not enough memory for a {frame.width:,} x {frame.height:,} image; "
            "choose a smaller scale"
        )
    image.fill(theme.FELT)
    tile = max(16, int(TILE_SIZE))
    columns = math.ceil(frame.width / tile)
    rows = math.ceil(frame.table_height / tile)
    total = columns * rows
    painter = QPainter(image)
    try:
        _render_hints(painter)
        progress(0, total)
        done = 0
        for row in range(rows):
            for column in range(columns):
                x, y = column * tile, row * tile
                clip = QRect(
                    x,
                    frame.top + y,
                    min(tile, frame.width - x),
                    min(tile, frame.table_height - y),
                )
                _paint_table(scene, painter, frame, clip)
                done += 1
                progress(done, total)
        _paint_bands(painter, frame)
    finally:
        painter.end()
    return image


def _describe(frame: Frame) -> str:
    parts = [f"A snapshot of the table, made by tabletop {__version__}.", *frame.header]
    if frame.lines:
        parts += ["", "The log up to this moment:", *frame.lines]
    return "\n".join(parts)


def _write_svg(
    scene: TableScene, frame: Frame, target: Path, progress: Progress, replace: bool
) -> None:
    progress(0, 1)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    detail = SVG_DETAIL
    generator.setSize(QSize(frame.width * detail, frame.height * detail))
    generator.setViewBox(QRect(0, 0, frame.width * detail, frame.height * detail))
    generator.setTitle(frame.caption or "Table snapshot")
    generator.setDescription(_describe(frame))
    painter = QPainter()
    if not painter.begin(generator):
        raise ExportError(f"{target}: the SVG could not be drawn (nothing was changed)")
    try:
        _render_hints(painter)
        painter.scale(detail, detail)
        _paint_table(scene, painter, frame, None)
        _paint_bands(painter, frame)
    finally:
        painter.end()
    data = compact_svg(bytes(buffer.data().data()))
    # Qt gives the size in millimetres; a snapshot's size is in pixels, like the PNG's
    data, count = re.subn(
        rb'<svg width="[^"]*" height="[^"]*"',
        f'<svg width="{frame.width}" height="{frame.height}"'.encode(),
        data,
        count=1,
    )
    if not count:
        raise ExportError(f"{target}: the SVG could not be drawn (nothing was changed)")
    _write_whole(target, data, replace)
    progress(1, 1)


_EMPTY_GROUP = re.compile(rb"<g [^>]*>\s*</g>\n*")
_GROUP_TAG = re.compile(rb"<g [^>]*>")
_GROUP_FONT = re.compile(rb'\s*font-(?:family|size|weight|style)="[^"]*"')
_PICTURE = re.compile(rb"<image\b[^>]*>")
_DATA = re.compile(rb'(xlink:href="data:image/png;base64,)([^"]*)')
PICTURE_COLOURS = 256  # a piece's picture in an SVG: its flat colours, shades and outlines fit
_GRADIENT = re.compile(
    rb'<(linearGradient|radialGradient)\b([^>]*) id="([^"]+)">(.*?)</\1>\n?', re.S
)


def compact_svg(data: bytes) -> bytes:
    """Qt's SVG without what it repeats: groups left empty by a change of pen or brush, the
    font on every group (each text carries its own), gradients defined again for each
    piece that uses the same one (the copies point at the first), and a picture embedded
    again for each piece that looks the same (a card back, a cube: the copies are ``<use>``
    of the first). The drawing is unchanged."""
    data = _EMPTY_GROUP.sub(b"", data)
    data = _GROUP_TAG.sub(lambda m: _GROUP_FONT.sub(b"", m.group(0)), data)
    first: dict[tuple[bytes, bytes, bytes], bytes] = {}
    same: dict[bytes, bytes] = {}

    def keep_first(match: re.Match[bytes]) -> bytes:
        kind, attributes, ident, body = match.groups()
        known = first.setdefault((kind, attributes, body), ident)
        if known == ident:
            return match.group(0)
        same[ident] = known
        return b""

    data = _GRADIENT.sub(keep_first, data)
    pictures: dict[bytes, bytes] = {}

    def once(match: re.Match[bytes]) -> bytes:
        tag = match.group(0)
        ident = pictures.get(tag)
        if ident is not None:
            return b'<use xlink:href="#' + ident + b'"/>'
        ident = pictures[tag] = b"picture%d" % (len(pictures) + 1)
        smaller = _DATA.sub(lambda m: m.group(1) + _fewer_colours(m.group(2)), tag)
        return b'<image id="' + ident + b'"' + smaller[len(b"<image") :]

    data = _PICTURE.sub(once, data)
    if same:
        data = re.sub(
            rb"url\(#([^)]+)\)",
            lambda m: b"url(#" + same.get(m.group(1), m.group(1)) + b")",
            data,
        )
    return data


def _fewer_colours(encoded: bytes) -> bytes:
    """A PNG (base64) again with at most PICTURE_COLOURS colours (transparency kept), if
    that is smaller. Pieces are flat colours, outlines and soft shades: a palette of 256
    looks the same and takes about a quarter of the room."""
    pil = _pil_image()
    try:
        picture = pil.open(io.BytesIO(base64.b64decode(encoded, validate=True)))
        picture.load()
    except (OSError, ValueError):
        return encoded
    if picture.mode not in ("RGB", "RGBA"):
        return encoded
    fewer = picture.quantize(
        PICTURE_COLOURS, method=pil.Quantize.FASTOCTREE, dither=pil.Dither.NONE
    )
    out = io.BytesIO()
    fewer.save(out, "PNG", optimize=True)
    again = base64.b64encode(out.getvalue())
    return again if len(again) < len(encoded) else encoded


def _write_pdf(
    scene: TableScene, frame: Frame, target: Path, progress: Progress, replace: bool
) -> None:
    if max(frame.width, frame.height) > MAX_PDF_SIDE:
        raise _too_large(frame, MAX_PDF_SIDE, "points", "PDF page")
    progress(0, 1)
    with _replacing(target, replace) as tmp:
        writer = QPdfWriter(tmp)
        size = QPageSize(
            QSizeF(frame.width, frame.height),
            QPageSize.Unit.Point,
            "Table snapshot",
            QPageSize.SizeMatchPolicy.ExactMatch,
        )
        writer.setPageLayout(
            QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))
        )
        writer.setResolution(PDF_DPI)
        writer.setTitle(frame.caption or "Table snapshot")
        writer.setCreator(f"tabletop {__version__}")
        painter = QPainter()
        if not painter.begin(writer):
            raise ExportError(f"{target}: the PDF could not be written (nothing was changed)")
        try:
            _render_hints(painter)
            painter.scale(PDF_DPI / 72, PDF_DPI / 72)
            _paint_table(scene, painter, frame, None)
            _paint_bands(painter, frame)
        finally:
            ended = painter.end()
        del writer  # closes the file before it is renamed
        if not ended:
            raise ExportError(f"{target}: the PDF could not be written (nothing was changed)")
    progress(1, 1)
