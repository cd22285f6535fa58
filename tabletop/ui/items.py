"""The graphics items: places (with their spots) and pieces, drawn from the state."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QPagedPaintDevice,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

if TYPE_CHECKING:  # QtSvg loads when a face draws an icon, not at every start
    from PySide6.QtSvg import QSvgRenderer

from tabletop.core import Piece, Place

from . import theme
from .layout import Rect, Zone, bowl_radius


def qrect(rect: Rect) -> QRectF:
    return QRectF(rect.x, rect.y, rect.w, rect.h)


# Qt's enum members looked up once: each lookup through the class costs as much as a call,
# and a table makes an item for each of its pieces
SELECTABLE = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
NO_CACHE = QGraphicsItem.CacheMode.NoCache

PILE_COUNT = 26.0  # the least height of a pile's count, scene units (a 10 mm disk is 40)
LABEL_PX = 20  # a place label's font size, scene units
LABEL_LINE = 28.0  # the height of one line of a place label (the band above the place holds one)


class ZoneItem(QGraphicsItem):
    """A seat's part of the table: a quiet panel with the seat's colour and name."""

    def __init__(self, zone: Zone) -> None:
        super().__init__()
        self.zone = zone
        self.setZValue(-3)
        self.active = False

    def boundingRect(self) -> QRectF:
        return qrect(self.zone.rect).adjusted(-4, -4, 4, 4)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        rect = qrect(self.zone.rect)
        colour = QColor(self.zone.colour)
        fill = QColor(colour)
        fill.setAlpha(34 if self.active else 20)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(
            QPen(QColor(colour.red(), colour.green(), colour.blue(), 160 if self.active else 90), 3)
        )
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 18, 18)
        painter.setFont(theme.label_font(24 if self.zone.side else 22, bold=True))
        painter.setPen(theme.LABEL)
        label = self.zone.label + ("  ◀ at the screen" if self.active else "")
        if self.zone.side:  # up the left edge, read from the bottom
            painter.save()
            painter.translate(rect.left(), rect.bottom())
            painter.rotate(-90)
            painter.drawText(
                QRectF(16, 4, rect.height() - 32, 30),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                label,
            )
            painter.restore()
            return
        painter.drawText(
            rect.adjusted(16, 4, -16, 0),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
            label,
        )


def _wrap(text: str, metrics: QFontMetricsF, first: float, second: float) -> tuple[str, str] | None:
    """``text`` split at a space into two lines that fit the widths, the first as full as it
    can be; None when no split fits. A count (" · 5") stays with the word before it."""
    words = text.replace(" · ", "\u00a0·\u00a0").split(" ")
    for cut in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if metrics.horizontalAdvance(head) <= first:
            if metrics.horizontalAdvance(tail) <= second:
                return head.replace("\u00a0", " "), tail.replace("\u00a0", " ")
            return None
    return None


class PlaceItem(QGraphicsItem):
    """A place on the table: its panel, its label, and its spots (slots, board spaces).

    A board with a ``style`` fills each space with the colour of its value of the style's
    attribute (e.g. its terrain), with the value's icon (``icons`` gives the module's
    picture by name) or letter; a space's ``label`` attribute (a printed name) is written
    small at its top.
    """

    def __init__(
        self,
        place: Place,
        rect: Rect,
        spots: dict[str, Rect],
        label: str,
        icons: Icons | None = None,
    ) -> None:
        super().__init__()
        self.place_id = place.id
        self.kind = place.kind
        self.rect = qrect(rect)
        self.spots = {name: qrect(cell) for name, cell in spots.items()}
        self.label = str(label)  # only text reaches Qt (Place checks it; this keeps it so)
        short = place.layout.get("short")
        self.short = str(short) if isinstance(short, str) and short else ""
        self.setToolTip(self.label)
        self._shown: tuple[tuple[int, float, float], tuple[str, ...]] | None = None
        self.board = place.board
        self.edges = (
            [(a, b, attrs) for (a, b), attrs in place.spaces.edges.items()] if place.spaces else []
        )
        self.nodes = place.spaces.nodes if place.spaces else {}
        self.style = (place.spaces.style if place.spaces else None) or {}
        self.orientation = place.spaces.orientation if place.spaces else None
        self.icons = icons
        labels = place.layout.get("spot_labels")
        self.spot_labels = (
            {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}
        )
        self.count = len(place.contents)
        self.highlight_spot: str | None = None
        self.highlighted = False
        self.setZValue(-1)
        self.setAcceptHoverEvents(False)

    def update_place(self, place: Place) -> None:
        if self.count != len(place.contents):
            self.count = len(place.contents)
            self.update()

    def set_highlight(self, on: bool, spot: str | None = None) -> None:
        if on != self.highlighted or spot != self.highlight_spot:
            self.highlighted, self.highlight_spot = on, spot
            self.update()

    def handle_rect(self) -> QRectF:
        """The tab by which a whole stack or deck is dragged."""
        return QRectF(self.rect.x(), self.rect.y() - 30, min(self.rect.width(), 170), 28)

    def boundingRect(self) -> QRectF:
        # asked some five times a paint: one rect, kept (a place's rect is not changed in
        # place: another layout makes new items); Qt takes a copy of it
        try:
            return self._bounds
        except AttributeError:
            self._bounds = self.rect.adjusted(-8, -34, 8, 8)
            return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = self.rect
        edge = (
            QPen(theme.HIGHLIGHT, 6)
            if self.highlighted and self.highlight_spot is None
            else QPen(theme.PANEL_EDGE, 2)
        )
        if self.kind == "board":
            self._paint_board(painter)
        else:
            painter.setPen(edge)
            painter.setBrush(theme.PANEL)
            radius = (
                bowl_radius(Rect(rect.x(), rect.y(), rect.width(), rect.height()))
                if self.kind == "bowl"
                else 12
            )
            painter.drawRoundedRect(rect, radius, radius)
            if self.kind == "slots":
                self._paint_slots(painter)
        if self.highlighted and self.kind == "board" and self.highlight_spot is None:
            painter.setPen(QPen(theme.HIGHLIGHT, 6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect, 12, 12)
        painter.setFont(theme.label_font(LABEL_PX))
        painter.setPen(theme.LABEL)
        if self.kind in ("deck", "stack") and self.count:
            painter.setBrush(QColor(255, 255, 255, 40))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawRoundedRect(self.handle_rect(), 8, 8)
            painter.setPen(theme.LABEL)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for box, line in zip(self._label_boxes(), self.shown_label(), strict=False):
            painter.drawText(box, align, line)

    def _label_boxes(self) -> tuple[QRectF, QRectF]:
        """Where a label's lines go: the band above the place, then the top of the place."""
        rect = self.rect
        return (
            QRectF(rect.x() + 4, rect.y() - 30, max(rect.width() + 10, 60.0), LABEL_LINE),
            QRectF(rect.x() + 4, rect.y() + 2, max(rect.width() - 8, 0.0), LABEL_LINE),
        )

    def _label_text(self, words: str) -> str:
        """A label as drawn: a deck's or stack's grip before it, a count after it."""
        text = words
        if self.kind in ("deck", "stack", "hand", "bowl"):
            text += f" · {self.count}"
        if self.kind in ("deck", "stack") and self.count:
            text = "⠿ " + text
        return text

    def shown_label(self) -> tuple[str, ...]:
        """The lines of the label as they are drawn.

        The full label on one line where it fits the place's width; else, on an empty place
        tall enough, the full label on two lines (the second inside the place's top, where
        no piece lies yet); else the module's short form on one line, or on two where the
        place is tall enough; only a label with no short form that fits none of these is
        cut in the middle. The count of a counted place stays at the end.
        """
        key = (self.count, self.rect.width(), self.rect.height())
        if self._shown is not None and self._shown[0] == key:
            return self._shown[1]
        lines = self._fit_label()
        self._shown = (key, lines)
        return lines

    def _fit_label(self) -> tuple[str, ...]:
        metrics = QFontMetricsF(theme.label_font(LABEL_PX))
        first, second = (box.width() for box in self._label_boxes())
        tall = self.rect.height() >= 3 * LABEL_LINE
        full = self._label_text(self.label)
        if metrics.horizontalAdvance(full) <= first:
            return (full,)
        if tall and not self.count:
            lines = _wrap(full, metrics, first, second)
            if lines:
                return lines
        if self.short:
            short = self._label_text(self.short)
            if metrics.horizontalAdvance(short) <= first:
                return (short,)
            if tall:
                lines = _wrap(short, metrics, first, second)
                if lines:
                    return lines
        fallback = self._label_text(self.short or self.label)
        return (metrics.elidedText(fallback, Qt.TextElideMode.ElideMiddle, first),)

    def _paint_slots(self, painter: QPainter) -> None:
        painter.setFont(theme.label_font(16))
        for name, cell in self.spots.items():
            inner = cell.adjusted(4, 4, -4, -4)
            lit = self.highlighted and self.highlight_spot == name
            painter.setPen(
                QPen(
                    theme.HIGHLIGHT if lit else QColor(255, 255, 255, 60),
                    4 if lit else 1.5,
                    Qt.PenStyle.SolidLine if lit else Qt.PenStyle.DashLine,
                )
            )
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(inner, 8, 8)
            painter.setPen(QColor(255, 255, 255, 90))
            box = inner.adjusted(4, 2, -4, -2)
            text = painter.fontMetrics().elidedText(
                self.spot_label(name), Qt.TextElideMode.ElideRight, int(box.width())
            )
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, text)

    def spot_label(self, name: str) -> str:
        """What a slot says: its layout's ``spot_labels`` entry, else its name."""
        return self.spot_labels.get(name, name)

    def cell_colour(self, name: str) -> QColor | None:
        """The fill the board's style gives a space (None: no style, or no colour for its value)."""
        if not self.style:
            return None
        value = self.nodes.get(name, {}).get(self.style["attr"])
        colour = (self.style.get("colours") or {}).get(str(value)) if value is not None else None
        return QColor(colour) if colour else None

    def cell_shape(self, name: str) -> QPolygonF | QRectF:
        """The outline of a space: a hexagon on hex boards, else its box."""
        cell = self.spots[name]
        if (self.board or {}).get("shape") == "hex":
            return _hexagon(cell, self.orientation == "pointy")
        return cell

    def _paint_board(self, painter: QPainter) -> None:
        shape = (self.board or {}).get("shape")
        pointy = self.orientation == "pointy"
        styled = bool(self.style)
        lit_spot = self.highlight_spot if self.highlighted else None
        for name, cell in self.spots.items():
            lit = name == lit_spot
            fill = self.cell_colour(name)
            if styled:  # the map's own colours; a lit space is outlined after all are drawn
                painter.setPen(QPen(QColor(25, 30, 25, 170), 1.2))
                painter.setBrush(fill if fill is not None else theme.BOARD_CELL)
            else:
                painter.setPen(
                    QPen(theme.HIGHLIGHT if lit else theme.BOARD_EDGE, 5 if lit else 1.5)
                )
                painter.setBrush(QColor(255, 240, 170, 235) if lit else theme.BOARD_CELL)
            _draw_cell(painter, shape, cell, pointy)
            self._paint_mark(painter, name, cell, fill)
            if styled:
                painter.setFont(theme.label_font(max(9, int(cell.height() * 0.13))))
                painter.setPen(_ink(fill, 110))
            else:
                painter.setFont(theme.label_font(14))
                painter.setPen(QColor(60, 70, 60, 140))
            painter.drawText(
                cell.adjusted(0, cell.height() * (0.7 if styled else 0.62), 0, 0),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                name,
            )
        if styled and lit_spot in self.spots:
            painter.setPen(QPen(theme.HIGHLIGHT, 5))
            painter.setBrush(QColor(255, 240, 170, 90))
            _draw_cell(painter, shape, self.spots[lit_spot], pointy)
        for a, b, data in self.edges:
            if a not in self.spots or b not in self.spots:
                continue
            pa, pb = self.spots[a].center(), self.spots[b].center()
            if data.get("river"):
                mid_a, mid_b = _shared_side(self.spots[a], self.spots[b], shape, pointy)
                painter.setPen(QPen(theme.RIVER, 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
                painter.drawLine(mid_a, mid_b)
            elif shape == "graph":
                style = Qt.PenStyle.DashLine if data.get("ferry") else Qt.PenStyle.SolidLine
                painter.setPen(QPen(QColor(240, 240, 230, 170), 3, style))
                painter.drawLine(
                    _towards(pa, pb, self.spots[a].width() / 2),
                    _towards(pb, pa, self.spots[b].width() / 2),
                )

    def _paint_mark(self, painter: QPainter, name: str, cell: QRectF, fill: QColor | None) -> None:
        """A styled space's icon or letter in its middle, and any space's printed label at its top."""
        attrs = self.nodes.get(name, {})
        value = attrs.get(self.style["attr"]) if self.style else None
        size = min(cell.width(), cell.height())
        middle = QRectF(0, 0, size * 0.46, size * 0.46)
        middle.moveCenter(cell.center())
        icon = (self.style.get("icons") or {}).get(str(value)) if value is not None else None
        renderer = self.icons(icon) if icon and self.icons is not None else None
        letter = (self.style.get("letters") or {}).get(str(value)) if value is not None else None
        if renderer is not None:
            renderer.render(painter, middle)
        elif letter:
            painter.setFont(theme.label_font(max(10, int(size * 0.34)), bold=True))
            painter.setPen(_ink(fill, 200))
            painter.drawText(
                middle.adjusted(-size, 0, size, 0), Qt.AlignmentFlag.AlignCenter, letter
            )
        label = attrs.get("label")
        if label:
            painter.setFont(theme.label_font(max(9, int(size * 0.15)), bold=True))
            painter.setPen(_ink(fill, 235))
            painter.drawText(
                QRectF(cell.x(), cell.y() + cell.height() * 0.1, cell.width(), cell.height() * 0.2),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
                str(label),
            )


Icons = Callable[[str], "QSvgRenderer | None"]


def _ink(fill: QColor | None, alpha: int = 230) -> QColor:
    """Dark text on a light fill, light text on a dark one."""
    light = fill is None or fill.lightnessF() > 0.55
    return QColor(30, 30, 25, alpha) if light else QColor(250, 248, 240, alpha)


def _draw_cell(painter: QPainter, shape: str | None, cell: QRectF, pointy: bool) -> None:
    if shape == "hex":
        painter.drawPolygon(_hexagon(cell, pointy))
    elif shape == "grid":
        painter.drawRect(cell.adjusted(1, 1, -1, -1))
    else:
        painter.drawEllipse(cell)


def _hexagon(cell: QRectF, pointy: bool) -> QPolygonF:
    cx, cy = cell.center().x(), cell.center().y()
    r = cell.height() / 2 if pointy else cell.width() / 2
    start = 90 if pointy else 0
    return QPolygonF(
        [
            QPointF(
                cx + r * math.cos(math.radians(start + 60 * k)),
                cy + r * math.sin(math.radians(start + 60 * k)),
            )
            for k in range(6)
        ]
    )


def _shared_side(a: QRectF, b: QRectF, shape: str | None, pointy: bool) -> tuple[QPointF, QPointF]:
    """The side two neighbouring spaces share (where a river runs)."""
    ca, cb = a.center(), b.center()
    mid = (ca + cb) / 2
    dx, dy = cb.x() - ca.x(), cb.y() - ca.y()
    length = math.hypot(dx, dy) or 1.0
    half = (a.height() if pointy else a.width()) / 4 if shape == "hex" else a.width() / 2
    nx, ny = -dy / length * half, dx / length * half
    return QPointF(mid.x() + nx, mid.y() + ny), QPointF(mid.x() - nx, mid.y() - ny)


def _towards(p: QPointF, q: QPointF, distance: float) -> QPointF:
    dx, dy = q.x() - p.x(), q.y() - p.y()
    length = math.hypot(dx, dy) or 1.0
    return QPointF(p.x() + dx / length * distance, p.y() + dy / length * distance)


def draws_vectors(painter: QPainter) -> bool:
    """Whether cards are drawn as shapes rather than pictures: into a PDF snapshot, which
    keeps every shape, clip and font (an SVG gets pictures: SVG Tiny has no clipping).
    Cubes, disks and dice stay pictures there too: small, and their translucent shine is
    not one a PDF reader draws as the window does."""
    # asked of the device, not of the paint engine: the engine's class (and its enum types)
    # would be made at the window's first paint for this one question
    return isinstance(painter.device(), QPagedPaintDevice)


class PieceItem(QGraphicsItem):
    """A piece, drawn from the cached artwork; it moves only when the model says so."""

    def __init__(
        self,
        piece: Piece,
        art,  # noqa: ANN001 - FaceArt
        size: tuple[float, float],
        cache: QGraphicsItem.CacheMode = NO_CACHE,
    ) -> None:
        """``cache``: how Qt keeps the item's picture (TableScene's ``cached``)."""
        super().__init__()
        self.pid = piece.id
        self.piece = piece
        self.art = art
        self.w, self.h = size
        self.visible_face = True
        self.marked = False  # one of the pieces moved last
        self.count = 0  # the top of a pile of this many: drawn as a number on it
        self.finding: str | None = None  # a rules finding's text, outlined in red
        self.regions: list[
            tuple[str, QRectF]
        ] = []  # the regions it carries, in its own coordinates
        self.highlighted = False  # a drag would land on it
        self.highlight_spot: str | None = None  # ... in this region of it
        self.setFlag(SELECTABLE)
        self.setAcceptHoverEvents(True)
        self.setTransformOriginPoint(self.w / 2, self.h / 2)
        if cache != NO_CACHE:  # a new item keeps no picture
            self.setCacheMode(cache)

    def refresh(self, piece: Piece, visible: bool) -> None:
        self.piece = piece
        self.visible_face = visible
        # set only when changed: Qt marks the geometry changed (the scene's index asks the
        # item's bounds again) even for the angle it has, and tells the item of the tooltip
        angle = piece.rotation * 90
        if angle != self.rotation():
            self.setRotation(angle)
        tip = self.finding or ""
        if tip != self.toolTip():
            self.setToolTip(tip)
        self.update()

    def set_highlight(self, on: bool, spot: str | None = None) -> None:
        if on != self.highlighted or spot != self.highlight_spot:
            self.highlighted, self.highlight_spot = on, spot
            self.update()

    def boundingRect(self) -> QRectF:
        # Qt asks some five times an item a paint: one rect, kept (a piece's size never
        # changes: a piece of another size is another item); Qt takes a copy of it
        try:
            return self._bounds
        except AttributeError:
            self._bounds = QRectF(-6, -6, self.w + 12, self.h + 12)
            return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(QRectF(0, 0, self.w, self.h))
        return path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        target = QRectF(0, 0, self.w, self.h)
        if draws_vectors(painter) and self.art.shape_kind(self.piece) == "card":
            # the drawing itself: sharp at any zoom, and far smaller than a picture of every
            # piece embedded at a high resolution
            self.art.paint(painter, target, self.piece, self.visible_face)
        else:
            scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
            pixmap = self.art.pixmap(self.piece, self.visible_face, scale)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawPixmap(target, pixmap, QRectF(pixmap.rect()))
        if self.regions and not self.art.draws_regions(self.piece, self.visible_face):
            self._paint_regions(painter)
        if self.count > 1:
            self._paint_count(painter)
        if self.highlighted:
            self._paint_lit(painter, target)
        if self.isSelected() or self.marked or self.finding:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            if self.finding:
                painter.setPen(QPen(theme.FINDING, 5))
                painter.drawRoundedRect(target.adjusted(-3, -3, 3, 3), 8, 8)
            if self.isSelected():
                painter.setPen(QPen(theme.HIGHLIGHT, 4))
                painter.drawRoundedRect(target.adjusted(-2, -2, 2, 2), 7, 7)
            elif self.marked:
                painter.setPen(QPen(theme.MARK, 3, Qt.PenStyle.DashLine))
                painter.drawRoundedRect(target.adjusted(-2, -2, 2, 2), 7, 7)

    def _paint_count(self, painter: QPainter) -> None:
        """A pile's size in a dark pill at the top piece's lower right corner."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        text = str(self.count)
        side = max(PILE_COUNT, min(self.w, self.h) * 0.42)  # readable on a small disk too
        font = theme.label_font(max(7, int(side * 0.66)))
        font.setBold(True)
        painter.setFont(font)
        width = max(side, painter.fontMetrics().horizontalAdvance(text) + side * 0.45)
        pill = QRectF(self.w - width + 4, self.h - side + 4, width, side)
        painter.setPen(QPen(QColor(255, 255, 255, 220), 1.2))
        painter.setBrush(QColor(30, 26, 22, 225))
        painter.drawRoundedRect(pill, side / 2, side / 2)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_lit(self, painter: QPainter, target: QRectF) -> None:
        """Where a drag would land on this card: the one region under the cursor, else the card."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        cell = dict(self.regions).get(self.highlight_spot) if self.highlight_spot else None
        painter.setPen(QPen(theme.HIGHLIGHT, 4))
        if cell is not None:
            painter.setBrush(QColor(255, 240, 170, 90))
            painter.drawRoundedRect(cell.adjusted(1, 1, -1, -1), 6, 6)
        else:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(target.adjusted(-2, -2, 2, 2), 7, 7)

    def _paint_regions(self, painter: QPainter) -> None:
        """Quiet outlines of the regions a card carries, so players see where cubes go."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setFont(theme.label_font(max(10, int(self.h / 30))))
        for name, cell in self.regions:
            inner = cell.adjusted(3, 3, -3, -3)
            painter.setPen(QPen(QColor(60, 50, 40, 110), 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(255, 255, 255, 40))
            painter.drawRoundedRect(inner, 6, 6)
            painter.setPen(QColor(60, 50, 40, 150))
            painter.drawText(
                inner.adjusted(5, 2, -5, -2),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                name,
            )
