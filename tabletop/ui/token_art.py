"""Token faces drawn from a game's ``token_view``.

A game whose tokens carry more than a word (a tile's picture, a ship's needs and bonus, the
points of a finished building) gives ``token_view(piece)`` in its game interface (with
``has_token_view = True``). It takes a plain dict of what the viewer may see of the piece:
``kind``, ``face_up`` and, only when its face may be seen, ``value`` and ``props``; and
returns display roles (a dict), or None for the plain token:

``outline``
    ``"hex"`` (a flat-topped hexagon), ``"round"`` or ``"square"`` (the default).
``colour``
    the fill, ``#rrggbb`` (default: the kind's or the owner's colour).
``icon``
    a picture (``icons/<name>.svg``) in the middle.
``title``
    a short text along the top.
``number``, ``number_colour``
    a number (points, a bonus) in a disk at the top right.
``icons``
    small pictures in a row along the bottom (what a piece needs).
``caption``
    a short text along the bottom (under the picture; instead of ``icons``).
``dim``
    True: drawn washed out with a stroke across (a used, turned piece).

The view is asked once per look (kind, side and properties) and kept.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

# gradients (and pictures) as QtGui.X: their classes are made when a face is drawn, not by a
# start whose faces are all kept on disk (face_store.py; a class brings its enum types)
from PySide6 import QtGui
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF

if TYPE_CHECKING:  # QtSvg loads when a face draws an icon, not at every start
    from PySide6.QtSvg import QSvgRenderer

from tabletop.core import Piece
from tabletop.modules.gamecode import game_of

from .piece_art import SANS, fit_text, font_of, is_light, with_alpha

log = logging.getLogger(__name__)

Icons = Callable[[str], "QSvgRenderer | None"]
OUTLINES = ("hex", "round", "square")


def seen_of(piece: Piece, visible: bool) -> dict[str, Any]:
    """What a viewer may see of a piece: its kind and side; its value and properties only
    when its face may be seen."""
    if not visible:
        return {"kind": piece.kind, "face_up": False}
    return {
        "kind": piece.kind,
        "face_up": piece.face_up,
        "value": piece.value,
        "props": dict(piece.props),
    }


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple | set):
        return tuple(_frozen(v) for v in value)
    return value if isinstance(value, str | int | float | bool | None) else repr(value)


class TokenViews:
    """The game's token_view, asked once per look; None where a game has none."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self._function: Callable[[dict[str, Any]], Any] | None = None
        self._failed = module is None or not getattr(module, "game_path", None)
        self._views: dict[Any, dict[str, Any] | None] = {}

    def view(self, piece: Piece, visible: bool) -> dict[str, Any] | None:
        """The roles of a piece as the viewer sees it, or None (the plain token is drawn)."""
        if self._failed:
            return None
        seen = seen_of(piece, visible)
        key = _frozen(seen)
        if key not in self._views:
            self._views[key] = self._call(seen)
        return self._views[key]

    def _call(self, seen: dict[str, Any]) -> dict[str, Any] | None:
        if self._function is None:
            try:
                game = game_of(self.module)
            except Exception as exc:  # a broken hook must not stop the table from drawing
                log.warning("token_view cannot be used: %s", exc)
                game = None
            if game is None or not getattr(game, "has_token_view", False):
                self._failed = True
                return None
            self._function = game.token_view
        try:
            view = self._function(seen)
        except Exception as exc:
            log.warning("token_view failed on a %s: %s", seen.get("kind"), exc)
            return None
        return view if isinstance(view, dict) else None

    @staticmethod
    def key(view: Mapping[str, Any] | None) -> Any:
        return _frozen(view) if view is not None else None


def hexagon(box: QRectF) -> QPolygonF:
    """A flat-topped hexagon filling ``box`` (its width corner to corner)."""
    cx, cy = box.center().x(), box.center().y()
    rx, ry = box.width() / 2, box.height() / 2
    return QPolygonF(
        [
            QPointF(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
    )


def draw_token_view(
    p: QPainter, rect: QRectF, view: Mapping[str, Any], fill: QColor, icons: Icons
) -> None:
    """A token from a token_view's roles (see the module docstring)."""
    colour = QColor(str(view.get("colour") or ""))
    c = colour if colour.isValid() else fill
    dim = bool(view.get("dim"))
    if dim:
        c = QColor.fromHsvF(c.hsvHueF(), c.hsvSaturationF() * 0.25, min(1.0, c.valueF() * 0.8))
    s = min(rect.width(), rect.height())
    edge = max(0.8, s * 0.05)
    box = rect.adjusted(edge / 2, edge / 2, -edge / 2, -edge / 2)
    grad = QtGui.QLinearGradient(box.topLeft(), box.bottomLeft())
    grad.setColorAt(0, c.lighter(115))
    grad.setColorAt(1, c.darker(110))
    p.setPen(QPen(c.darker(220), edge))
    p.setBrush(QBrush(grad))
    outline = str(view.get("outline") or "square")
    if outline == "hex":
        p.drawPolygon(hexagon(box))
        inner = box.adjusted(box.width() * 0.2, box.height() * 0.08, -box.width() * 0.2, 0)
    elif outline == "round":
        p.drawEllipse(box)
        inner = box.adjusted(s * 0.12, s * 0.1, -s * 0.12, -s * 0.1)
    else:
        p.drawRoundedRect(box, s * 0.14, s * 0.14)
        inner = box.adjusted(s * 0.06, s * 0.05, -s * 0.06, -s * 0.05)
    ink = QColor("#2b2620") if is_light(c) else QColor("#ffffff")
    title = str(view.get("title") or "")
    needs = [str(n) for n in (view.get("icons") or []) if str(n)]
    top = inner.top()
    number = view.get("number")
    has_number = number is not None and str(number) != ""
    if title:
        band = QRectF(inner.left(), top, inner.width(), inner.height() * 0.26)
        if has_number:  # clear of the number's disk in the corner
            band.setRight(min(band.right(), rect.right() - s * 0.4))
        font = font_of(SANS, bold=True)
        fit_text(font, title, band, Qt.AlignmentFlag.AlignCenter, band.height() * 0.9, 1)
        p.setFont(font)
        p.setPen(ink)
        p.drawText(band, Qt.AlignmentFlag.AlignCenter, title)
        top = band.bottom()
    bottom = inner.bottom()
    caption = str(view.get("caption") or "")
    if caption and not needs:
        band = QRectF(
            inner.left(), bottom - inner.height() * 0.28, inner.width(), inner.height() * 0.28
        )
        font = font_of(SANS, bold=True)
        fit_text(font, caption, band, Qt.AlignmentFlag.AlignCenter, band.height() * 0.9, 1)
        p.setFont(font)
        p.setPen(ink)
        p.drawText(band, Qt.AlignmentFlag.AlignCenter, caption)
        bottom = band.top()
    if needs:
        row_h = min(inner.height() * 0.34, inner.width() / max(len(needs), 1))
        row = QRectF(inner.left(), bottom - row_h, inner.width(), row_h)
        _icon_row(p, row, needs, icons)
        bottom = row.top()
    name = str(view.get("icon") or "")
    if name:
        area = QRectF(inner.left(), top, inner.width(), max(0.0, bottom - top))
        side = min(area.width(), area.height()) * (0.92 if (title or needs) else 0.8)
        icon_box = QRectF(area.center().x() - side / 2, area.center().y() - side / 2, side, side)
        renderer = icons(name)
        if renderer is not None:
            renderer.render(p, icon_box)
        else:
            font = font_of(SANS, bold=True)
            fit_text(font, name, icon_box, Qt.AlignmentFlag.AlignCenter, side * 0.5, 1)
            p.setFont(font)
            p.setPen(ink)
            p.drawText(icon_box, Qt.AlignmentFlag.AlignCenter, name)
    if has_number:
        _number(p, rect, str(number), QColor(str(view.get("number_colour") or "#f7d86a")), s)
    if dim:
        pen = QPen(with_alpha(QColor("#2b2620"), 150), s * 0.06)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawLine(
            QPointF(box.left() + s * 0.2, box.bottom() - s * 0.2),
            QPointF(box.right() - s * 0.2, box.top() + s * 0.2),
        )


def _icon_row(p: QPainter, row: QRectF, names: list[str], icons: Icons) -> None:
    d = min(row.height(), row.width() / len(names))
    x = row.center().x() - d * len(names) / 2
    for name in names:
        cell = QRectF(x, row.top() + (row.height() - d) / 2, d, d)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(with_alpha(QColor("#fbf7ee"), 235))
        p.drawEllipse(cell.adjusted(d * 0.02, d * 0.02, -d * 0.02, -d * 0.02))
        renderer = icons(name)
        pad = d * 0.14
        if renderer is not None:
            renderer.render(p, cell.adjusted(pad, pad, -pad, -pad))
        else:
            font = font_of(SANS, bold=True)
            fit_text(font, name[:1].upper(), cell, Qt.AlignmentFlag.AlignCenter, d * 0.6, 1)
            p.setFont(font)
            p.setPen(QColor("#2b2620"))
            p.drawText(cell, Qt.AlignmentFlag.AlignCenter, name[:1].upper())
        x += d


def _number(p: QPainter, rect: QRectF, text: str, fill: QColor, s: float) -> None:
    r = s * 0.2
    centre = QPointF(rect.right() - r * 1.0, rect.top() + r * 1.0)
    p.setPen(QPen(fill.darker(200), max(0.6, r * 0.12)))
    p.setBrush(fill)
    p.drawEllipse(centre, r, r)
    box = QRectF(centre.x() - r * 0.9, centre.y() - r * 0.8, r * 1.8, r * 1.6)
    font = font_of(SANS, bold=True)
    fit_text(font, text, box, Qt.AlignmentFlag.AlignCenter, r * 1.3, 1)
    p.setFont(font)
    p.setPen(QColor("#2b2620") if is_light(fill) else QColor("#ffffff"))
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
