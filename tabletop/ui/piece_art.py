"""Drawing the small pieces (cubes, disks, markers, dice, tokens, boards) and the painting helpers cards share."""

from __future__ import annotations

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
    QPolygonF,
)

INK = QColor("#2a2520")
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
SERIF = ["Georgia", "Palatino Linotype", "DejaVu Serif", "Times New Roman"]
SANS = ["Segoe UI", "Helvetica Neue", "Noto Sans", "DejaVu Sans", "Arial"]


def draw_cube(p: QPainter, rect: QRectF, c: QColor, big: bool) -> None:
    s = min(rect.width(), rect.height())
    sq = QRectF(0, 0, s, s)
    sq.moveCenter(rect.center())
    edge = max(0.8, s * (0.055 if big else 0.04))
    sq = sq.adjusted(edge / 2, edge / 2, -edge / 2, -edge / 2)
    b = sq.width() * (0.2 if big else 0.16)
    top = sq.adjusted(b, b, -b, -b)
    p.setPen(Qt.PenStyle.NoPen)
    sides = (
        (c.lighter(150), (sq.topLeft(), sq.topRight(), top.topRight(), top.topLeft())),
        (c.lighter(125), (sq.topLeft(), top.topLeft(), top.bottomLeft(), sq.bottomLeft())),
        (c.darker(150), (sq.bottomLeft(), top.bottomLeft(), top.bottomRight(), sq.bottomRight())),
        (c.darker(128), (sq.topRight(), sq.bottomRight(), top.bottomRight(), top.topRight())),
    )
    for colour, corners in sides:
        p.setBrush(colour)
        p.drawPolygon(QPolygonF(list(corners)))
    grad = QtGui.QLinearGradient(top.topLeft(), top.bottomRight())
    grad.setColorAt(0, c.lighter(110))
    grad.setColorAt(1, c)
    p.setBrush(QBrush(grad))
    p.drawRect(top)
    dark = c.darker(230)
    if big:
        p.setPen(QPen(with_alpha(dark, 150), s * 0.035))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(top.adjusted(s * 0.09, s * 0.09, -s * 0.09, -s * 0.09))
    p.setPen(QPen(dark, edge))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(sq, s * 0.05, s * 0.05)


def draw_disk(p: QPainter, rect: QRectF, c: QColor, marker: bool) -> None:
    s = min(rect.width(), rect.height())
    rim = max(0.8, s * 0.05)
    disk = QRectF(0, 0, s - rim, s - rim)
    disk.moveCenter(rect.center())
    centre = disk.center()
    grad = QtGui.QRadialGradient(
        QPointF(centre.x() - s * 0.18, centre.y() - s * 0.2),
        s * 0.75,
        QPointF(centre.x() - s * 0.12, centre.y() - s * 0.14),
    )
    grad.setColorAt(0, c.lighter(135))
    grad.setColorAt(0.55, c)
    grad.setColorAt(1, c.darker(125))
    p.setPen(QPen(c.darker(220), rim))
    p.setBrush(QBrush(grad))
    p.drawEllipse(disk)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(with_alpha(c.darker(150), 150), s * 0.025))
    p.drawEllipse(centre, s * 0.38, s * 0.38)
    if marker:
        p.setPen(QPen(QColor(0, 0, 0, 70), s * 0.11))
        p.drawEllipse(QPointF(centre.x(), centre.y() + s * 0.015), s * 0.27, s * 0.27)
        p.setPen(QPen(QColor("#ffffff"), s * 0.1))
        p.drawEllipse(centre, s * 0.27, s * 0.27)
    # a soft highlight
    shine = QtGui.QRadialGradient(QPointF(centre.x() - s * 0.16, centre.y() - s * 0.2), s * 0.3)
    shine.setColorAt(0, QColor(255, 255, 255, 110))
    shine.setColorAt(1, QColor(255, 255, 255, 0))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(shine))
    p.drawEllipse(disk)


def draw_die(p: QPainter, rect: QRectF, c: QColor, value: Any) -> None:
    s = min(rect.width(), rect.height())
    edge = max(0.8, s * 0.03)
    sq = QRectF(0, 0, s - edge, s - edge)
    sq.moveCenter(rect.center())
    grad = QtGui.QLinearGradient(sq.topLeft(), sq.bottomRight())
    grad.setColorAt(0, c.lighter(106))
    grad.setColorAt(1, c.darker(112))
    p.setPen(QPen(QColor("#4a4540") if is_light(c) else c.darker(250), edge))
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(sq, s * 0.18, s * 0.18)
    p.setPen(QPen(with_alpha(QColor("#ffffff"), 120), s * 0.02))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(sq.adjusted(s * 0.05, s * 0.05, -s * 0.05, -s * 0.05), s * 0.14, s * 0.14)
    ink = QColor("#231f1c") if is_light(c) else QColor("#fbfaf6")
    if isinstance(value, int) and not isinstance(value, bool) and value in PIPS:
        p.setPen(Qt.PenStyle.NoPen)
        radius = s * (0.1 if value == 1 else 0.085)
        for fx, fy in PIPS[value]:
            centre = QPointF(sq.left() + fx * sq.width(), sq.top() + fy * sq.height())
            pip = QtGui.QRadialGradient(
                QPointF(centre.x() - radius * 0.3, centre.y() - radius * 0.3), radius * 1.3
            )
            pip.setColorAt(0, ink.lighter(160) if is_light(c) else ink)
            pip.setColorAt(1, ink)
            p.setBrush(QBrush(pip))
            p.drawEllipse(centre, radius, radius)
    elif value is not None and str(value):
        box = sq.adjusted(s * 0.1, s * 0.1, -s * 0.1, -s * 0.1)
        font = font_of(SANS, bold=True)
        flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
        fit_text(font, str(value), box, flags, s * 0.5, 3)
        p.setFont(font)
        p.setPen(ink)
        p.drawText(box, int(flags), str(value))


def draw_token(p: QPainter, rect: QRectF, c: QColor, label: str) -> None:
    s = min(rect.width(), rect.height())
    edge = max(0.8, s * 0.04)
    box = rect.adjusted(edge / 2, edge / 2, -edge / 2, -edge / 2)
    grad = QtGui.QLinearGradient(box.topLeft(), box.bottomLeft())
    grad.setColorAt(0, c.lighter(112))
    grad.setColorAt(1, c.darker(108))
    p.setPen(QPen(c.darker(200), edge))
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(box, s * 0.16, s * 0.16)
    p.setPen(QPen(with_alpha(c.darker(140), 160), edge * 0.6))
    p.setBrush(Qt.BrushStyle.NoBrush)
    inset = s * 0.08
    p.drawRoundedRect(box.adjusted(inset, inset, -inset, -inset), s * 0.1, s * 0.1)
    text_box = box.adjusted(s * 0.13, s * 0.1, -s * 0.13, -s * 0.1)
    font = font_of(SANS, bold=True)
    flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
    fit_text(font, label, text_box, flags, s * 0.4, 2)
    p.setFont(font)
    p.setPen(QColor("#2b2620") if is_light(c) else QColor("#ffffff"))
    p.drawText(text_box, int(flags), label)


def draw_board(p: QPainter, rect: QRectF, c: QColor, label: str) -> None:
    s = min(rect.width(), rect.height())
    edge = max(1.0, s * 0.012)
    box = rect.adjusted(edge / 2, edge / 2, -edge / 2, -edge / 2)
    grad = QtGui.QRadialGradient(box.center(), max(box.width(), box.height()) * 0.7)
    grad.setColorAt(0, c.lighter(108))
    grad.setColorAt(1, c.darker(110))
    p.setPen(QPen(c.darker(230), edge))
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(box, s * 0.04, s * 0.04)
    p.setPen(QPen(with_alpha(c.darker(160), 170), edge))
    p.setBrush(Qt.BrushStyle.NoBrush)
    inner = box.adjusted(s * 0.04, s * 0.04, -s * 0.04, -s * 0.04)
    p.drawRoundedRect(inner, s * 0.025, s * 0.025)
    head = QRectF(inner.left(), inner.top() + s * 0.02, inner.width(), s * 0.14)
    font = font_of(SERIF, bold=True)
    fit_text(font, label, head, Qt.AlignmentFlag.AlignCenter, s * 0.1, 2)
    p.setFont(font)
    p.setPen(c.darker(260))
    p.drawText(head, Qt.AlignmentFlag.AlignCenter, label)


# ----- card parts -----


_FONTS: dict[tuple, QFont] = {}  # (families, serif, bold) -> the font, copied for each use


def font_of(families: list[str], bold: bool = False) -> QFont:
    """A new font of the first of ``families`` the system has (a copy: callers size it)."""
    key = (tuple(families), families is SERIF, bold)
    font = _FONTS.get(key)
    if font is None:
        font = QFont()
        font.setFamilies(families)
        font.setStyleHint(QFont.StyleHint.Serif if families is SERIF else QFont.StyleHint.SansSerif)
        font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
        font.setBold(bold)
        _FONTS[key] = font
    return QFont(font)


# fit_text's answers: (font, text, box size, flags, largest, smallest) -> (pixel size, fits).
# The same words in the same box come back on many cards (a row's caption, a trophy's line)
# and on every zoom at which a face is drawn again; laying text out is the dearest part of it.
_FITTED: dict[tuple, tuple[int, bool]] = {}
_FITTED_MAX = 4096


def fit_text(
    font: QFont, text: str, rect: QRectF, flags: Any, largest: float, smallest: float
) -> bool:
    """Set the font's pixel size to the largest (down to ``smallest``) at which ``text`` fits ``rect``.

    Returns whether the text fits at the size chosen.
    """
    key = (
        font.key(),  # names the first family only, and not the hinting
        tuple(font.families()),
        font.hintingPreference(),
        text,
        rect.width(),
        rect.height(),
        int(flags),
        largest,
        smallest,
    )
    known = _FITTED.get(key)
    if known is None:
        known = _fit(font, text, rect, int(flags), largest, smallest)
        if len(_FITTED) >= _FITTED_MAX:
            _FITTED.clear()
        _FITTED[key] = known
    font.setPixelSize(known[0])
    return known[1]


def _fit(
    font: QFont, text: str, rect: QRectF, flags: int, largest: float, smallest: float
) -> tuple[int, bool]:
    def fits(px: int) -> bool:
        font.setPixelSize(px)
        bounds = QFontMetricsF(font).boundingRect(rect, flags, text)
        return bounds.width() <= rect.width() + 0.5 and bounds.height() <= rect.height() + 0.5

    low, high = max(1, int(smallest)), max(1, int(largest))
    if fits(high):
        return high, True
    if low >= high or not fits(low):
        return low, False
    while high - low > 1:  # low fits, high does not
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return low, True


def rounded(rect: QRectF, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(rect, radius, radius)
    return path


def diamond(centre: QPointF, r: float) -> QPolygonF:
    x, y = centre.x(), centre.y()
    return QPolygonF([QPointF(x, y - r), QPointF(x + r, y), QPointF(x, y + r), QPointF(x - r, y)])


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` of the way to ``b``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * t,
        a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t,
    )


def with_alpha(c: QColor, alpha: int) -> QColor:
    out = QColor(c)
    out.setAlpha(alpha)
    return out


def is_light(c: QColor) -> bool:
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue() > 150
