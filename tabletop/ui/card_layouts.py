"""Rich card faces drawn from a module's ``card_view``.

A module may name ``card_view = "rules_assist.<...>:function"`` in its
``[module]`` table: the function turns a deck row into display roles (a
dict, documented by the function; rules_assist/greenland/card_view.py is one).
``CardViews`` calls it once per row and keeps the answer; ``draw_face`` draws
the roles: a title band, a corner icon in a colour with a number inside, rows
of icons with counts and small labels, a rules text, a band turned 180° at the
bottom, the regions the table lays pieces on (drawn where tabletop/ui/layout.py
puts them), the amber '≈' mark of invented values. Icons come from the
module's ``icons/<name>.svg``. A view may also name the card's back
(``back_key``, ``back_label``, ``back_colour``): what every card of that
kind shows face down. The parts (rows of icons, marks) are in card_parts.py.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

# gradients (and pictures) as QtGui.X: their classes are made when a face is drawn, not by a
# start whose faces are all kept on disk (face_store.py; a class brings its enum types)
from PySide6 import QtGui
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
)

from .card_parts import (
    FACE,
    GREY,
    INK,
    NUMBER_PX,
    TITLE_PX,
    CardCanvas,
    Icons,
    colour_of,
    draw_entries,
    draw_label,
    draw_rows,
    entry_of,
    glyphs_of,
    placeholder_mark,
    text_box,
)
from .layout import Rect, _region_area, region_cells, strip_area
from .piece_art import SANS, SERIF, font_of, mix, rounded, with_alpha

log = logging.getLogger(__name__)


class CardViews:
    """The game's card_view, called once per deck row; None where a game has none. A back
    is asked of the game's card_back where it has one: a face-down card needs no more."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.path: str | None = getattr(module, "game_path", None) if module else None
        self._function: Callable[[dict[str, Any]], Any] | None = None
        self._back_function: Callable[[dict[str, Any]], Any] | None = None
        self._failed = False
        self._views: dict[tuple[str, str], dict[str, Any] | None] = {}
        self._backs: dict[tuple[str, str], tuple[str, str, str] | None] = {}

    def view(self, deck_id: str, row: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """The roles of one row, or None (no card_view, or it failed: the template face is drawn)."""
        if row is None or not self.path or self._failed:
            return None
        key = (deck_id, str(row.get("id", "")))
        if key not in self._views:
            self._views[key] = self._call(row)
        return self._views[key]

    def back(self, deck_id: str, row: Mapping[str, Any] | None) -> tuple[str, str, str] | None:
        """(key, label, colour) of the back a row's card shows, when its view names one."""
        if row is None or not self.path or self._failed:
            return None
        if self._function is None and not self._load():
            return None
        if self._back_function is not None:
            key = (deck_id, str(row.get("id", "")))
            if key not in self._backs:
                self._backs[key] = self._call_back(row)
            return self._backs[key]
        view = self.view(deck_id, row)
        if not view or not view.get("back_key"):
            return None
        colour = str(view.get("back_colour") or "")
        return str(view["back_key"]), str(view.get("back_label") or ""), colour

    def _load(self) -> bool:
        """Find the game's card_view (and card_back); False when it has none or it is broken."""
        from tabletop.modules.gamecode import game_of  # the game code, on first use

        try:
            game = game_of(self.module)
            if game is None or not game.has_card_view:
                self._failed = True
                return False
            self._function = game.card_view
            if getattr(game, "has_card_back", False):
                self._back_function = game.card_back
        except Exception as exc:  # a broken hook must not stop the table from drawing
            log.warning("card_view %s cannot be used: %s", self.path, exc)
            self._failed = True
            return False
        return True

    def _call(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        if self._function is None and not self._load():
            return None
        try:
            view = self._function(dict(row))
        except Exception as exc:
            log.warning("card_view failed on card %r: %s", row.get("id"), exc)
            return None
        return view if isinstance(view, dict) else None

    def _call_back(self, row: Mapping[str, Any]) -> tuple[str, str, str] | None:
        """The game's card_back of a row, as the view's back would give it."""
        try:
            back = self._back_function(dict(row))
        except Exception as exc:
            log.warning("card_back failed on card %r: %s", row.get("id"), exc)
            return None
        if not isinstance(back, tuple | list) or len(back) != 3 or not back[0]:
            return None
        return str(back[0]), str(back[1] or ""), str(back[2] or "")


# ----- the face -----


def draw_face(
    p: QPainter,
    rect: QRectF,
    view: Mapping[str, Any],
    icons: Icons,
    card_id: str,
    marked: bool,
    strip: str | None = None,
) -> dict[str, float]:
    """A card face from a card_view's roles (see the module docstring); ``strip`` names the
    card's lone region, drawn as a band along its bottom edge (layout.strip_area) that the
    printed lines stay above. Returns the smallest font (pixel size, painter units) its
    title and its numbers were drawn in: {'title': px, 'number': px}."""
    c = CardCanvas(p, rect, icons)
    band = colour_of(view.get("band_colour"), "#4a5a6a")
    k = c.k
    outline = rounded(rect.adjusted(0.75, 0.75, -0.75, -0.75), 13 * k)
    p.setPen(QPen(INK, max(1.0, 1.5 * k)))
    p.setBrush(FACE)
    p.drawPath(outline)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(mix(band, FACE, 0.5), 1.4 * k))
    p.drawRoundedRect(rect.adjusted(6 * k, 6 * k, -6 * k, -6 * k), 9 * k, 9 * k)

    regions = list(view.get("regions") or [])
    event = view.get("corner_icon") == "first"
    compact = bool(regions)
    top = _header(c, view, band, event, compact, marked)
    floor = c.h - 12  # the lowest printed line ends here
    if strip and not regions:
        band_top = _strip(c, strip, band, card_id)
        floor = band_top - 4
    if regions:
        _regions(c, view, band, regions, top)
    elif event:
        _event_body(c, view, band, top, floor)
    else:
        _body(c, view, band, top, floor)
    if (not event or not view.get("upside_down")) and not (strip and not regions):
        c.text(
            c.r(16, c.h - (17 if regions else 26), c.w - 100, 11 if regions else 14),
            card_id,
            9,
            colour=QColor("#9a9184"),
            flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )
    if marked:
        placeholder_mark(p, rect, outline, k)
    return dict(c.sizes)


def draw_face_sketch(
    p: QPainter, rect: QRectF, view: Mapping[str, Any], icons: Icons, marked: bool
) -> None:
    """A card face for a far zoom, where text and icons would be a few pixels: its colours and title.

    Drawn instead of the whole face when the card is shown at a quarter of its
    size or less; the whole face comes back as soon as one zooms in.
    """
    c = CardCanvas(p, rect, icons)
    band = colour_of(view.get("band_colour"), "#4a5a6a")
    k = c.k
    outline = rounded(rect.adjusted(0.75, 0.75, -0.75, -0.75), 13 * k)
    p.setPen(QPen(INK, max(1.0, 1.5 * k)))
    p.setBrush(FACE)
    p.drawPath(outline)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(band)
    p.drawRoundedRect(c.r(8, 8, c.w - 16, 52), 8 * k, 8 * k)
    c.text(
        c.r(14, 8, c.w - 64, 52),
        str(view.get("title", "")),
        30,
        colour=QColor("#ffffff"),
        bold=True,
    )
    if view.get("corner_number") is not None or view.get("corner_colour"):
        p.setBrush(colour_of(view.get("corner_colour"), "#f4f1e8"))
        p.setPen(QPen(INK, 1.5 * k))
        p.drawEllipse(QPointF(rect.right() - 30 * k, rect.top() + 34 * k), 22 * k, 22 * k)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(mix(band, FACE, 0.8))
    for i in range(3):  # where the icons and text are, as soft bands
        p.drawRoundedRect(c.r(20, 90 + i * 70, c.w - 40, 44), 6 * k, 6 * k)
    if marked:
        placeholder_mark(p, rect, outline, k)


def _header(
    c: CardCanvas, view: Mapping[str, Any], band: QColor, event: bool, compact: bool, marked: bool
) -> float:
    """The title band, the corner icon and the subtitle; returns where the body starts."""
    p, k = c.p, c.k
    corner = view.get("corner_icon")
    left = 76.0 if event else 18.0
    cornered = (corner and not event) or view.get("corner_letter")
    right = c.w - (80.0 if cornered else 44.0 if marked else 18.0)
    title = str(view.get("title") or "")
    # an elder's ranks and a daughter's regions leave no room for a second line; an event's
    # title shares the band with the first player's marker
    narrowest = NARROWEST_COMPACT if compact or event else NARROWEST
    font, lines = title_lines(title, (right - left) * k, k, narrowest)
    line_h = font.pixelSize() * 1.08
    band_h = (40.0 if compact else 44.0) if len(lines) == 1 else (2 * line_h) / k + 10
    band_w = c.w - (56 if corner and not event else 20)  # ends under a corner badge
    band_rect = c.r(10, 10, band_w, band_h)
    grad = QtGui.QLinearGradient(band_rect.topLeft(), band_rect.bottomLeft())
    grad.setColorAt(0, band.lighter(122))
    grad.setColorAt(1, band.darker(112))
    p.setPen(QPen(band.darker(160), 1.2 * k))
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(band_rect, 8 * k, 8 * k)
    flags: Any = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    p.setFont(font)
    y = band_rect.center().y() - line_h * len(lines) / 2
    for line in lines:
        box = QRectF(c.rect.x() + left * k, y, (right - left) * k + font.pixelSize(), line_h)
        p.setPen(QColor(0, 0, 0, 80))
        p.drawText(box.translated(0, 1.2 * k), int(flags), line)
        p.setPen(QColor("#ffffff"))
        p.drawText(box, int(flags), line)
        y += line_h
    c.note("title", font)

    subtitle = str(view.get("subtitle") or "")
    sub_top = 10 + band_h + 4
    if subtitle and not (compact and len(lines) > 1):  # a tall title leaves no room on an elder
        c.text(
            c.r(left, sub_top, right - left + (0 if event else 4), 15),
            subtitle,
            11.5,
            colour=band.darker(135),
            bold=True,
            caps=True,
            flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )
    if corner and event:
        _first_marker(c, view)
    elif corner:
        _corner_badge(c, view)
    elif view.get("corner_letter"):
        _corner_letter(c, view, band)
    return sub_top + (20 if subtitle and not (compact and len(lines) > 1) else 0)


TITLE_LARGEST = 34.0  # design units
NARROWEST = 72  # per cent: the most a title's letters are narrowed before it takes two lines
NARROWEST_COMPACT = 62  # ... on a card whose regions start under its title, or an event


def title_lines(
    title: str, width: float, k: float, narrowest: int = NARROWEST
) -> tuple[QFont, list[str]]:
    """The title's font and its lines in a box ``width`` wide (painter units; ``k`` painter
    units a design unit): on one line, as large as fits up to TITLE_LARGEST, narrowed down
    to ``narrowest`` per cent rather than made smaller than TITLE_PX; else on two lines split
    at the best word break, alike; only a title that fits in neither way is made smaller."""
    font = font_of(SERIF, bold=True)
    words = title.split()
    splits = [[title]] + [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
    splits[1:] = sorted(splits[1:], key=lambda ls: max(len(x) for x in ls))
    least, most = max(1, round(TITLE_PX * k)), max(1, round(TITLE_LARGEST * k))
    for lines in splits[:2]:
        for stretch in range(100, narrowest - 1, -4):
            font.setStretch(stretch)
            font.setPixelSize(least)
            need = max(QFontMetricsF(font).horizontalAdvance(x) for x in lines)
            if need <= width:
                px = min(most, int(least * width / max(need, 1)))
                font.setPixelSize(max(least, px if len(lines) == 1 else least))
                return font, lines
    lines = splits[1] if len(splits) > 1 else splits[0]
    font.setStretch(narrowest)
    font.setPixelSize(least)
    need = max(QFontMetricsF(font).horizontalAdvance(x) for x in lines)
    font.setPixelSize(max(1, int(least * width / max(need, 1))))
    return font, lines


def _corner_badge(c: CardCanvas, view: Mapping[str, Any]) -> None:
    """The biome-type icon top right, in the homeland's colour, with the climax inside."""
    p, k = c.p, c.k
    colour = colour_of(view.get("corner_colour"), "#f4f1e8")
    centre = c.pt(c.w - 46, 44)
    radius = 33 * k
    glow = QtGui.QRadialGradient(QPointF(centre.x() - 9 * k, centre.y() - 11 * k), radius * 1.25)
    glow.setColorAt(0, colour.lighter(128))
    glow.setColorAt(1, colour.darker(108))
    p.setPen(QPen(INK, 2.2 * k))
    p.setBrush(QBrush(glow))
    p.drawEllipse(centre, radius, radius)
    p.setPen(QPen(with_alpha(QColor("#ffffff"), 150), 1.4 * k))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(centre, radius - 3.2 * k, radius - 3.2 * k)
    number = view.get("corner_number")
    has_number = number is not None and str(number) != ""
    size = 40 * k if has_number else 46 * k
    box = QRectF(
        centre.x() - size / 2, centre.y() - size / 2 - (8 * k if has_number else 0), size, size
    )
    c.icon(str(view["corner_icon"]), box)
    if has_number:
        text = str(number)
        font = font_of(SANS, bold=True)
        font.setPixelSize(max(1, round(21 * k)))
        c.note("number", font)
        path = QPainterPath()
        width = QFontMetricsF(font).horizontalAdvance(text)
        path.addText(QPointF(centre.x() - width / 2, centre.y() + 26 * k), font, text)
        p.setPen(
            QPen(
                QColor("#1c1915"),
                4.2 * k,
                Qt.PenStyle.SolidLine,
                Qt.PenCapStyle.RoundCap,
                Qt.PenJoinStyle.RoundJoin,
            )
        )
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#ffffff"))
        p.drawPath(path)


def _corner_letter(c: CardCanvas, view: Mapping[str, Any], band: QColor) -> None:
    """A letter in a disk top right (the purple D of a domestic animal)."""
    p, k = c.p, c.k
    centre = c.pt(c.w - 46, 40)
    radius = 27 * k
    p.setPen(QPen(INK, 2.2 * k))
    p.setBrush(QColor("#fffaf0"))
    p.drawEllipse(centre, radius, radius)
    box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    colour = colour_of(view.get("corner_colour"), "#2a2520")
    c.text(
        box.translated(0, 1 * k),
        str(view["corner_letter"]),
        38,
        colour=colour,
        bold=True,
        serif=True,
    )


def _first_marker(c: CardCanvas, view: Mapping[str, Any]) -> None:
    """An event's first player: the marker in that player's colour, top left; the stand-in beside it."""
    p, k = c.p, c.k
    centre = c.pt(42, 42)
    radius = 29 * k
    colour = colour_of(view.get("corner_colour"), "#f4f1e8")
    p.setPen(QPen(INK, 2.2 * k))
    p.setBrush(colour)
    p.drawEllipse(centre, radius, radius)
    inner = 38 * k
    c.icon("first", QRectF(centre.x() - inner / 2, centre.y() - inner / 2, inner, inner))
    second = view.get("corner_second_colour")
    if second:
        dot = QPointF(centre.x() + radius * 0.74, centre.y() + radius * 0.74)
        p.setPen(QPen(INK, 1.8 * k))
        p.setBrush(colour_of(second, "#f4f1e8"))
        p.drawEllipse(dot, 10 * k, 10 * k)


def _strip(c: CardCanvas, name: str, band: QColor, card_id: str) -> float:
    """The band along the bottom edge where the lone region's pieces lie; returns its top."""
    k = c.k
    rect = c.rect
    area = strip_area(Rect(rect.x(), rect.y(), rect.width(), rect.height()))
    box = QRectF(area.x, area.y, area.w, area.h)
    c.p.setPen(QPen(mix(band, FACE, 0.45), 1.2 * k, Qt.PenStyle.DashLine))
    c.p.setBrush(mix(band, FACE, 0.88))
    c.p.drawRoundedRect(box, 7 * k, 7 * k)
    inner = box.adjusted(6 * k, 2 * k, -6 * k, -2 * k)
    c.text(
        inner,
        name,
        9,
        colour=mix(band, FACE, 0.3),
        bold=True,
        flags=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
    )
    c.text(
        inner,
        card_id,
        8,
        colour=QColor("#9a9184"),
        flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
    )
    return (area.y - rect.y()) / k


def _body(c: CardCanvas, view: Mapping[str, Any], band: QColor, top: float, floor: float) -> None:
    """Biomes, New World and Norse animals: the icon rows, the text under them, above ``floor``."""
    rows = list(view.get("icon_rows") or [])
    captions = list(view.get("row_captions") or [])
    text = str(view.get("text") or "")
    bottom = floor - 18
    if text:
        bottom = text_box(c, text, band, bottom, 6 if len(rows) > 4 else 4)
    draw_rows(c, rows, captions, 16, top, c.w - 32, bottom - top - 4)


# ----- events -----


def _event_body(
    c: CardCanvas, view: Mapping[str, Any], band: QColor, top: float, floor: float
) -> None:
    """An event's icons left to right with their captions; the import turned 180° at the bottom."""
    turned = view.get("upside_down")
    bottom = floor - 18
    if turned:  # as tall as it needs: the title, the icons, two lines of text
        head = _import_head(c, str(turned.get("title") or ""))[2] / c.k
        need = head + 14 + (34 if turned.get("icons") else 0) + (44 if turned.get("text") else 0)
        bottom = _upside_down(c, turned, floor - max(58, need), floor)
    text = str(view.get("text") or "")
    if text:
        bottom = text_box(c, text, band, bottom - 4, 3)
    rows = list(view.get("icon_rows") or [])
    entries = [entry_of(e) for row in rows for e in row]
    if entries:
        _icon_grid(c, entries, 16, top + 2, c.w - 32, bottom - top - 8)


def _icon_grid(
    c: CardCanvas, entries: list[dict[str, Any]], x: float, y: float, w: float, h: float
) -> None:
    n = len(entries)
    cols = n if n <= 3 else math.ceil(n / 2)
    lines = math.ceil(n / cols)
    caption_h = 13.0
    cell_w, cell_h = w / cols, h / lines
    s = max(12.0, min(68.0 if n <= 2 else 56.0, cell_w * 0.74, cell_h - caption_h - 6))
    for i, entry in enumerate(entries):
        line, col = divmod(i, cols)
        in_line = min(cols, n - line * cols)
        cx = x + (w - in_line * cell_w) / 2 + col * cell_w + cell_w / 2
        cy = y + line * cell_h + (cell_h - s - caption_h) / 2
        box = c.r(cx - s / 2, cy, s, s)
        c.icon(entry.get("icon", ""), box)
        draw_label(c, box, entry, s)
        caption = str(entry.get("caption") or "")
        if caption:
            c.text(
                c.r(cx - cell_w / 2 + 2, cy + s + 1, cell_w - 4, caption_h),
                caption,
                10,
                colour=QColor("#4d463d"),
                bold=True,
                smallest=6,
            )


def _import_head(c: CardCanvas, title: str) -> tuple[QFont, list[str], float]:
    """The import's title font, its lines and the height of its band (painter units)."""
    font, lines = title_lines(title, (c.w - 24 - 20) * c.k, c.k, NARROWEST_COMPACT)
    return font, lines, len(lines) * font.pixelSize() * 1.08 + 6 * c.k


def _upside_down(c: CardCanvas, turned: Mapping[str, Any], top: float, floor: float) -> float:
    """The import: a purple band turned 180° (it reads upright in a tableau); returns its top."""
    p, k = c.p, c.k
    purple = QColor("#6c3483")
    area = c.r(12, top, c.w - 24, floor - top)
    p.save()
    centre = area.center()
    p.translate(centre)
    p.rotate(180)
    p.translate(-centre)
    p.setPen(QPen(purple, 1.6 * k))
    p.setBrush(QColor("#f1e8f6"))
    p.drawRoundedRect(area, 8 * k, 8 * k)
    font, lines, head_h = _import_head(c, str(turned.get("title") or ""))
    head = QRectF(area.left(), area.top(), area.width(), head_h)
    p.save()
    p.setClipPath(rounded(area, 8 * k))
    p.fillRect(head, purple)
    p.restore()
    line_h = font.pixelSize() * 1.08
    p.setFont(font)
    p.setPen(QColor("#ffffff"))
    y0 = head.top() + 3 * k
    for line in lines:  # the import's title: upright in a tableau, as large as the card's
        p.drawText(
            QRectF(head.left(), y0, head.width(), line_h), int(Qt.AlignmentFlag.AlignCenter), line
        )
        y0 += line_h
    c.note("title", font)
    icons = [entry_of(e) for e in (turned.get("icons") or [])]
    text = str(turned.get("text") or "")
    y = head.bottom() + 6 * k
    if icons:
        s = 26.0
        width = sum(g[1] for g in glyphs_of(icons, s, set())) - s * 0.3
        left = (area.center().x() - c.rect.x()) / k - width / 2
        draw_entries(c, icons, left, (y - c.rect.y()) / k, width + 2, s)
        y += (s + 6) * k
    if text:
        box = QRectF(area.left() + 8 * k, y, area.width() - 16 * k, area.bottom() - y - 4 * k)
        c.text(
            box,
            text,
            13,
            colour=QColor("#3d1d4f"),
            flags=Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            smallest=7,
        )
    p.restore()
    return top


# ----- regions: an elder's ranks, a daughter's exogamy box -----


def _regions(
    c: CardCanvas,
    view: Mapping[str, Any],
    band: QColor,
    regions: list[Mapping[str, Any]],
    top: float,
) -> None:
    """Each region where the table puts it (layout.region_cells)."""
    k = c.k
    names = tuple(str(r.get("name", "")) for r in regions)
    card = Rect(c.rect.x(), c.rect.y(), c.rect.width(), c.rect.height())
    cells = region_cells(names, card)
    area_top = (_region_area(card).y - c.rect.y()) / k
    text = str(view.get("text") or "")
    if text:
        c.text(
            c.r(18, top - 2, c.w - 36, area_top - top),
            text,
            13,
            colour=QColor("#2b2620"),
            bold=True,
            flags=Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            smallest=7,
        )
    ranks = any("number" in r for r in regions)
    for region in regions:
        cell = cells[str(region.get("name", ""))]
        box = QRectF(cell.x, cell.y, cell.w, cell.h).adjusted(2.5 * k, 2.5 * k, -2.5 * k, -2.5 * k)
        if ranks:
            _rank(c, box, region, band)
        elif region.get("name") == "exogamy":
            _exogamy(c, box, region, band)
        else:
            _open_region(c, box, region, view)


def _rank(c: CardCanvas, box: QRectF, region: Mapping[str, Any], band: QColor) -> None:
    p, k = c.p, c.k
    p.setPen(QPen(mix(band, FACE, 0.35), 1.3 * k))
    p.setBrush(mix(band, FACE, 0.86))
    p.drawRoundedRect(box, 7 * k, 7 * k)
    d = 24 * k
    disk = QRectF(box.left() + 3 * k, box.top() + 3 * k, d, d)
    p.setPen(QPen(band.darker(150), 1.2 * k))
    p.setBrush(band)
    p.drawEllipse(disk)
    c.text(
        disk,
        str(region.get("number", "")),
        NUMBER_PX,
        colour=QColor("#ffffff"),
        bold=True,
        serif=True,
        smallest=NUMBER_PX,
        role="number",
    )
    name_box = QRectF(
        disk.right() + 4 * k, box.top() + 3 * k, box.right() - disk.right() - 8 * k, d
    )
    flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    c.text(
        name_box,
        str(region.get("label", "")),
        13,
        colour=band.darker(160),
        bold=True,
        flags=flags,
        smallest=6,
    )
    note = str(region.get("note") or "")
    if note:
        note_box = QRectF(box.left() + 5 * k, box.bottom() - 15 * k, box.width() - 10 * k, 13 * k)
        c.text(note_box, note, 9.5, colour=GREY, flags=Qt.AlignmentFlag.AlignCenter, smallest=5)


def _exogamy(c: CardCanvas, box: QRectF, region: Mapping[str, Any], band: QColor) -> None:
    p, k = c.p, c.k
    p.setPen(QPen(band.darker(120), 2.2 * k))
    p.setBrush(mix(band, FACE, 0.84))
    p.drawRoundedRect(box, 9 * k, 9 * k)
    p.setPen(QPen(mix(band, FACE, 0.45), 1 * k, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(box.adjusted(5 * k, 5 * k, -5 * k, -5 * k), 6 * k, 6 * k)
    c.text(
        QRectF(box.left() + 12 * k, box.top() + 8 * k, box.width() * 0.6, 18 * k),
        str(region.get("label", "")),
        14,
        colour=band.darker(150),
        bold=True,
        serif=True,
        flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
    )
    s = 30 * k
    c.icon(
        "female", QRectF(box.right() - s - 10 * k, box.top() + 8 * k, s, s), mix(band, FACE, 0.3)
    )
    note = str(region.get("note") or "")
    if note:
        c.text(
            QRectF(box.left() + 10 * k, box.bottom() - 20 * k, box.width() - 20 * k, 13 * k),
            note,
            9.5,
            colour=GREY,
            smallest=5,
        )


def _open_region(
    c: CardCanvas, box: QRectF, region: Mapping[str, Any], view: Mapping[str, Any]
) -> None:
    """A region with no frame of its own (a daughter's raiders): its caption and the rows under it."""
    p, k = c.p, c.k
    p.setPen(QPen(QColor(0, 0, 0, 40), 1 * k, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(box, 8 * k, 8 * k)
    rows = list(view.get("icon_rows") or [])
    captions = list(view.get("row_captions") or [])
    label = str(region.get("label") or "")
    if label:
        c.text(
            QRectF(box.left() + 10 * k, box.top() + 6 * k, box.width() - 20 * k, 14 * k),
            label,
            10,
            colour=GREY,
            bold=True,
            caps=True,
            flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )
    if rows:
        x = (box.left() - c.rect.x()) / k + 8
        h = 34.0 * len(rows)
        y = (box.bottom() - c.rect.y()) / k - h - 6
        draw_rows(c, rows, captions, x, y, box.width() / k - 16, h, 0 if label else 42.0)
