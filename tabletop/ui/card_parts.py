"""Card parts in design units: the canvas, rows of counted icons with labels, a text box, marks.

A card is designed on 252 x 352 units (a 63 x 88 mm card) and scaled to its
rectangle; ``CardCanvas`` turns design units into the painter's and draws
text and icons. ``draw_rows`` lays out rows of entries (an icon name, or a
dict with ``icon``, ``count``, ``label``, ``label_at``, ``overlay``,
``overlay_colour``, ``label_colour``; or ``text`` with ``colour``; or ``vp``)
with a caption each: repeated icons while they fit, then a smaller size,
then 'icon ×N' for the largest counts. ``badge`` and ``placeholder_mark`` are
shared with the template faces of faces.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

# gradients (and pictures) as QtGui.X: their classes are made when a face is drawn, not by a
# start whose faces are all kept on disk (face_store.py; a class brings its enum types)
from PySide6 import QtGui
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

if TYPE_CHECKING:  # QtSvg loads when a face draws an icon, not at every start
    from PySide6.QtSvg import QSvgRenderer

from .piece_art import SANS, SERIF, fit_text, font_of, is_light, mix

Icons = Callable[[str], "QSvgRenderer | None"]
INK = QColor("#2a2520")
FACE = QColor("#fbf7ee")
AMBER = QColor("#f0a81c")
GREY = QColor("#7d7468")
DESIGN_W, DESIGN_H = 252.0, 352.0
SMALLER = 0.8  # a crowded row's icons, before counts turn into 'icon ×N'
# The least sizes of a card's title and of the numbers printed on it, in design units (a
# 63 mm card is 252 across): a fitted three-player Greenland table shows them at >= 9 px
# (titles, 1366 x 768) and >= 8 px (numbers, 1920 x 1080); tests/ui/test_legible_table.py.
TITLE_PX = 30.0
NUMBER_PX = 18.0
STEP = 0.9  # repeated icons stand this far apart (their drawings have margins)


class CardCanvas:
    """Design units to the rectangle, and the drawing calls every part shares."""

    def __init__(self, p: QPainter, rect: QRectF, icons: Icons) -> None:
        self.p = p
        self.rect = rect
        self.icons = icons
        self.k = min(rect.width() / DESIGN_W, rect.height() / DESIGN_H)
        self.w = rect.width() / self.k
        self.h = rect.height() / self.k
        self.sizes: dict[str, float] = {}  # role ('title', 'number') -> its smallest font drawn

    def note(self, role: str | None, font: QFont) -> None:
        """Remember the font a title or a number was drawn in (its pixel size, painter units)."""
        if role:
            px = float(font.pixelSize())
            self.sizes[role] = min(px, self.sizes.get(role, px))

    def r(self, x: float, y: float, w: float, h: float) -> QRectF:
        k = self.k
        return QRectF(self.rect.x() + x * k, self.rect.y() + y * k, w * k, h * k)

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(self.rect.x() + x * self.k, self.rect.y() + y * self.k)

    def text(
        self,
        box: QRectF,
        text: str,
        size: float,
        *,
        colour: QColor = INK,
        bold: bool = False,
        serif: bool = False,
        flags: Any = Qt.AlignmentFlag.AlignCenter,
        smallest: float = 5,
        caps: bool = False,
        role: str | None = None,
    ) -> None:
        font = font_of(SERIF if serif else SANS, bold=bold)
        if caps:
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 108 if size > 9 else 100)
        fit_text(font, text, box, flags, size * self.k, smallest * self.k)
        self.note(role, font)
        self.p.setFont(font)
        self.p.setPen(colour)
        self.p.drawText(box, int(flags), text)

    def icon(self, name: str, box: QRectF, tint: QColor | None = None) -> None:
        renderer = self.icons(name) if name else None
        if renderer is None:
            missing_icon(self.p, box, name)
        elif tint is None:
            renderer.render(self.p, box)
        else:
            tinted(self.p, renderer, box, tint)


def draw_rows(
    c: CardCanvas,
    rows: list[Any],
    captions: list[Any],
    x: float,
    y: float,
    w: float,
    h: float,
    caption_w: float = 42.0,
) -> None:
    if not rows:
        return
    row_h = min(42.0, h / len(rows))
    for i, entries in enumerate(rows):
        ry = y + i * row_h
        if i % 2 == 0:
            c.p.setPen(Qt.PenStyle.NoPen)
            c.p.setBrush(QColor(0, 0, 0, 10))
            c.p.drawRoundedRect(c.r(x - 2, ry + 1, w + 4, row_h - 2), 5 * c.k, 5 * c.k)
        caption = str(captions[i]) if i < len(captions) else ""
        if caption and caption_w:
            c.text(
                c.r(x + 2, ry, caption_w - 4, row_h),
                caption,
                8,
                colour=GREY,
                bold=True,
                caps=True,
                flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                smallest=6,
            )
        size = min(31.0, row_h * 0.78)
        draw_entries(
            c, entries, x + caption_w + 2, ry + (row_h - size) / 2, w - caption_w - 2, size
        )


def draw_entries(
    c: CardCanvas, entries: Sequence[Any], x: float, y: float, w: float, size: float
) -> None:
    """One row of entries from the left: icons repeated (or one and '×N'), words, a VP star."""
    norm = [entry_of(e) for e in entries]
    s = size
    compact: set[int] = set()  # entries drawn as one icon and '×N', the largest counts first
    while True:
        glyphs = glyphs_of(norm, s, compact)
        width = sum(g[1] for g in glyphs)
        if width <= w:
            break
        if s > size * SMALLER:
            s = size * SMALLER
            continue
        left = _compactable(norm, compact)
        if not left:
            break
        # the largest count, and every other of that count (the warm and the cold dice alike)
        compact.update(i for i in left if _n(norm[i]) == _n(norm[left[0]]))
    if width > w:  # still too wide: everything smaller
        s *= w / width
        glyphs = glyphs_of(norm, s, compact)
    cx = x
    for kind, gw, entry in glyphs:
        if kind == "icon":
            box = c.r(cx, y, s, s)
            c.icon(entry["icon"], box)
            draw_label(c, box, entry, s)
        elif kind == "times":
            c.text(
                c.r(cx, y - s * 0.15, gw, s * 1.3),
                f"×{entry['count']}",
                max(NUMBER_PX, s * 0.56),
                bold=True,
                smallest=NUMBER_PX,
                role="number",
            )
        elif kind == "text":
            colour = colour_of(entry.get("colour"), "#2a2520")
            big = len(entry["text"]) <= 2
            c.text(
                c.r(cx, y - s * 0.1, gw, s * 1.2),
                entry["text"],
                s * (0.95 if big else 0.42),
                colour=colour,
                bold=True,
                serif=big,
                smallest=4,
                role="number" if entry["text"].strip().isdigit() else None,
            )
        elif kind == "vp":
            radius = _star_radius(s) * c.k
            font = badge(c.p, c.pt(cx + gw / 2, y + s / 2), radius, str(entry["vp"]), "star")
            c.note("number", font)
        cx += gw


def glyphs_of(entries: list[dict[str, Any]], s: float, compact: set[int]) -> list[tuple]:
    """(kind, width, entry) for each thing drawn in a row, widths with the gaps after them."""
    gap = s * 0.3
    glyphs: list[tuple] = []
    for i, entry in enumerate(entries):
        if "icon" in entry:
            n = _n(entry)
            if i in compact or n > 4:
                glyphs.append(("icon", s * 1.04, entry))
                glyphs.append(
                    ("times", _text_w(f"×{n}", max(NUMBER_PX, s * 0.56)) + gap, {"count": n})
                )
                continue
            glyphs.extend(("icon", s * STEP, entry) for _ in range(n))
            glyphs[-1] = ("icon", s + gap, entry)
        elif "vp" in entry:
            glyphs.append(("vp", max(s * 1.3, _star_radius(s) * 2.1) + gap, entry))
        elif "text" in entry:
            big = len(entry["text"]) <= 2
            glyphs.append(
                ("text", _text_w(entry["text"], s * (0.95 if big else 0.42)) + gap, entry)
            )
    return glyphs


def _star_radius(s: float) -> float:
    """A VP star's radius beside icons of size ``s``: its number at least NUMBER_PX."""
    return max(s * 0.62, NUMBER_PX / 0.85 / 0.9)


def _compactable(entries: list[dict[str, Any]], compact: set[int]) -> list[int]:
    """Entries with a count of two or more not yet drawn as 'icon ×N', the largest count first."""
    counts = {i: _n(e) for i, e in enumerate(entries) if "icon" in e and i not in compact}
    return sorted((i for i, n in counts.items() if n >= 2), key=lambda i: -counts[i])


def _n(entry: Mapping[str, Any]) -> int:
    try:
        return max(1, int(entry.get("count") or 1))
    except (TypeError, ValueError):
        return 1


def _text_w(text: str, px: float) -> float:
    font = font_of(SANS, bold=True)
    font.setPixelSize(max(1, round(px * 8)))  # measure large, then scale: steady at every zoom
    return QFontMetricsF(font).horizontalAdvance(text) / 8 * 1.05


def draw_label(c: CardCanvas, box: QRectF, entry: Mapping[str, Any], s: float) -> None:
    """An icon's small label: on the icon (a die's face) or in a pill at its lower right; an overlay."""
    k = c.k
    overlay = entry.get("overlay")
    if overlay:
        o = box.width() * 0.55
        spot = QRectF(box.right() - o * 0.75, box.top() - o * 0.25, o, o)
        c.p.setPen(Qt.PenStyle.NoPen)
        c.p.setBrush(QColor(255, 255, 255, 230))
        c.p.drawEllipse(spot.adjusted(-o * 0.08, -o * 0.08, o * 0.08, o * 0.08))
        c.icon(str(overlay), spot, colour_of(entry.get("overlay_colour"), "#2a2520"))
    label = entry.get("label")
    if label is None or str(label) == "":
        return
    label = str(label)
    number = label.strip().isdigit()
    if entry.get("label_at") == "centre":
        c.text(
            box.adjusted(-2 * k, -3 * k, 2 * k, 1 * k),
            label,
            max(NUMBER_PX, s * 0.55) if number else s * 0.55,
            bold=True,
            smallest=NUMBER_PX if number else 3,
            role="number" if number else None,
        )
        return
    px = max(NUMBER_PX if number else 7.0, s * 0.24)
    font = font_of(SANS, bold=True)
    font.setPixelSize(max(1, round(px * k)))
    tw = QFontMetricsF(font).horizontalAdvance(label)
    ph = px * 1.35 * k
    pw = max(ph, tw + px * 0.7 * k)
    pill = QRectF(box.right() - pw * 0.8, box.bottom() - ph, pw, ph)
    fill = colour_of(entry.get("label_colour"), "#fffaf0")
    c.p.setPen(QPen(INK, max(0.6, 1.1 * k)))
    c.p.setBrush(fill)
    c.p.drawRoundedRect(pill, ph / 2, ph / 2)
    c.p.setFont(font)
    c.p.setPen(INK if is_light(fill) else QColor("#ffffff"))
    c.p.drawText(pill, Qt.AlignmentFlag.AlignCenter, label)
    if number:
        c.note("number", font)


def text_box(c: CardCanvas, text: str, band: QColor, bottom: float, lines_max: int) -> float:
    """The rules text in a box ending at ``bottom``; returns the box's top."""
    flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
    font = font_of(SANS)
    for height in (40.0, 56.0, 72.0, 90.0):
        box = c.r(16, bottom - height, c.w - 32, height)
        inner = box.adjusted(7 * c.k, 4 * c.k, -7 * c.k, -4 * c.k)
        if fit_text(font, text, inner, flags, 13 * c.k, 10.5 * c.k) or height >= 14 * lines_max:
            break
    fit_text(font, text, inner, flags, 13 * c.k, 5 * c.k)
    c.p.setPen(QPen(mix(band, INK, 0.2).lighter(150), 1 * c.k))
    c.p.setBrush(QColor("#f3ecdc"))
    c.p.drawRoundedRect(box, 7 * c.k, 7 * c.k)
    c.p.setFont(font)
    c.p.setPen(QColor("#2b2620"))
    c.p.drawText(inner, int(flags), text)
    return bottom - height


def badge(p: QPainter, centre: QPointF, radius: float, text: str, shape: str) -> QFont:
    """Points in a star (or a shield); returns the font its number is drawn in."""
    if shape == "shield":
        w, h = radius * 1.7, radius * 2.0
        left, top = centre.x() - w / 2, centre.y() - h / 2
        path = QPainterPath(QPointF(left, top + h * 0.08))
        path.quadTo(QPointF(centre.x(), top - h * 0.06), QPointF(left + w, top + h * 0.08))
        path.lineTo(left + w, top + h * 0.5)
        path.quadTo(QPointF(left + w, top + h * 0.85), QPointF(centre.x(), top + h))
        path.quadTo(QPointF(left, top + h * 0.85), QPointF(left, top + h * 0.5))
        path.closeSubpath()
        fill_top, fill_bottom, ink = QColor("#6f8fb5"), QColor("#2f4d74"), QColor("#ffffff")
        box = QRectF(left, top + h * 0.12, w, h * 0.6)
    else:
        points = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = radius if i % 2 == 0 else radius * 0.52
            points.append(QPointF(centre.x() + rr * math.cos(a), centre.y() + rr * math.sin(a)))
        path = QPainterPath()
        path.addPolygon(QPolygonF(points))
        path.closeSubpath()
        fill_top, fill_bottom, ink = QColor("#f7d86a"), QColor("#c8901a"), QColor("#3b2a05")
        box = QRectF(centre.x() - radius * 0.5, centre.y() - radius * 0.42, radius, radius * 0.9)
    grad = QtGui.QLinearGradient(
        QPointF(centre.x(), centre.y() - radius), QPointF(centre.x(), centre.y() + radius)
    )
    grad.setColorAt(0, fill_top)
    grad.setColorAt(1, fill_bottom)
    p.setPen(
        QPen(
            fill_bottom.darker(180),
            radius * 0.07,
            Qt.PenStyle.SolidLine,
            Qt.PenCapStyle.RoundCap,
            Qt.PenJoinStyle.RoundJoin,
        )
    )
    p.setBrush(QBrush(grad))
    p.drawPath(path)
    font = font_of(SERIF, bold=True)
    fit_text(font, text, box, Qt.AlignmentFlag.AlignCenter, radius * 0.85, 3)
    p.setFont(font)
    p.setPen(ink)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    return font


def placeholder_mark(p: QPainter, rect: QRectF, outline: QPainterPath, k: float) -> None:
    """An amber dog-ear in the top-right corner with '≈': some values on this card are invented."""
    size = 46 * k
    tr = rect.topRight()
    tri = QPolygonF([QPointF(tr.x() - size, tr.y()), tr, QPointF(tr.x(), tr.y() + size)])
    p.save()
    p.setClipPath(outline)
    p.setPen(QPen(AMBER.darker(170), 1.2 * k))
    p.setBrush(AMBER)
    p.drawPolygon(tri)
    p.restore()
    box = QRectF(tr.x() - size * 0.56, tr.y() + 1 * k, size * 0.56, size * 0.5)
    font = font_of(SANS, bold=True)
    font.setPixelSize(max(1, round(22 * k)))
    p.setFont(font)
    p.setPen(QColor("#3b2600"))
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, "≈")


# ----- helpers -----


def entry_of(entry: Any) -> dict[str, Any]:
    """An icon row entry as a dict: a bare name is one icon."""
    if isinstance(entry, Mapping):
        return dict(entry)
    return {"icon": str(entry)}


def colour_of(value: Any, default: str) -> QColor:
    colour = QColor(str(value)) if value else QColor()
    return colour if colour.isValid() else QColor(default)


def tinted(p: QPainter, renderer: QSvgRenderer, box: QRectF, tint: QColor) -> None:
    """The icon's shape filled with one colour (rendered at the device's resolution)."""
    t = p.transform()
    scale = max(1.0, math.hypot(t.m11(), t.m12()))
    w, h = max(1, math.ceil(box.width() * scale)), max(1, math.ceil(box.height() * scale))
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    q = QPainter(image)
    q.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(q, QRectF(0, 0, w, h))
    q.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    q.fillRect(image.rect(), tint)
    q.end()
    p.drawImage(box, image)


def missing_icon(p: QPainter, box: QRectF, name: str) -> None:
    """A grey token with the name's first letters, for an icon the module lacks."""
    d = box.width()
    p.setPen(QPen(QColor("#6b6257"), d * 0.05))
    p.setBrush(QColor("#d9d2c3"))
    p.drawEllipse(box.adjusted(d * 0.06, d * 0.06, -d * 0.06, -d * 0.06))
    font = font_of(SANS, bold=True)
    letters = (name[:1].upper() + name[1:2].lower()) or "?"
    fit_text(font, letters, box, Qt.AlignmentFlag.AlignCenter, d * 0.4, 2)
    p.setFont(font)
    p.setPen(QColor("#3b352d"))
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, letters)
