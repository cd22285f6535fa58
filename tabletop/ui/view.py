"""The view on the table: smooth zoom, pan, fit, an overview map, and the read-only banner.

When the view is resized (a dock beside it grows or shrinks, the window is resized), it
keeps what was in view: a fitted table is fitted again, and otherwise the part of the
table that was visible stays visible (the view zooms out just enough, never in). A fitted
table that grows or shrinks (places sized to their contents) is fitted again.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPen, QPolygonF, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from . import theme
from .scene import TableScene

MIN_ZOOM, MAX_ZOOM = 0.03, 8.0


class TableView(QGraphicsView):
    zoomChanged = Signal(float)

    def __init__(self, scene: TableScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        # A viewport made here, as Qt's own is (a plain widget; Qt's view sets the input
        # method on it): the one Qt made would be looked up among all of Qt's widget classes
        # the first time it is asked for, making Python types for a few dozen of their enums.
        viewport = QWidget()
        self.setViewport(viewport)
        viewport.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled)
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
            | QPainter.RenderHint.TextAntialiasing
        )
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setBackgroundBrush(theme.FELT)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        viewport.grabGesture(Qt.GestureType.PinchGesture)
        self._middle_pan: QPointF | None = None
        self.overview: Overview | None = None
        self._fitted = False  # the table was fitted and not zoomed or panned since
        self._adjusting = False  # the view itself is moving (fit, resize): not the user
        scene.rebuilt.connect(self._table_resized)

    # ---- zoom ------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, factor: float) -> None:
        factor = max(MIN_ZOOM, min(MAX_ZOOM, factor))
        self._fitted = False
        self.scale(factor / self.zoom, factor / self.zoom)
        self.zoomChanged.emit(self.zoom)

    @property
    def fitted(self) -> bool:
        """Whether the view shows the table as fitted (no zoom or pan since)."""
        return self._fitted

    def visible_scene_rect(self) -> QRectF:
        """The part of the table in view, in scene coordinates."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def zoom_by(self, step: float) -> None:
        self.set_zoom(self.zoom * step)

    def fit_table(self) -> None:
        if self.scene() is None:  # the game was closed before a queued fit came round
            return
        self._adjusting = True
        try:
            self.fitInView(
                self.scene().itemsBoundingRect().adjusted(-40, -40, 40, 40),
                Qt.AspectRatioMode.KeepAspectRatio,
            )
        finally:
            self._adjusting = False
        self._fitted = True
        self.zoomChanged.emit(self.zoom)

    def _table_resized(self) -> None:
        """The table grew or shrank (a place sized to its contents): a fitted table stays fitted."""
        if self._fitted:
            self.fit_table()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y() or event.pixelDelta().y()
        if delta:
            self.zoom_by(1.0015**delta)
        event.accept()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Gesture:
            pinch = event.gesture(Qt.GestureType.PinchGesture)
            if pinch is not None:
                self.zoom_by(pinch.scaleFactor())
                return True
        return super().viewportEvent(event)

    # ---- pan ---------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._middle_pan = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        on_piece = self.scene().piece_at(self.mapToScene(event.position().toPoint())) is not None
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and not on_piece:
            self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        else:
            self.setDragMode(
                QGraphicsView.DragMode.NoDrag if on_piece else QGraphicsView.DragMode.ScrollHandDrag
            )
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._middle_pan is not None:
            delta = event.position() - self._middle_pan
            self._middle_pan = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton and self._middle_pan is not None:
            self._middle_pan = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = 60
        key = event.key()
        if (
            key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down)
            and not event.modifiers()
        ):
            bar = (
                self.horizontalScrollBar()
                if key in (Qt.Key.Key_Left, Qt.Key.Key_Right)
                else self.verticalScrollBar()
            )
            bar.setValue(
                bar.value() + (step if key in (Qt.Key.Key_Right, Qt.Key.Key_Down) else -step)
            )
            event.accept()
            return
        super().keyPressEvent(event)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        scene = self.scene()
        if not self._adjusting and not (scene is not None and scene.rebuilding):
            self._fitted = False  # the user panned
        if self.overview is not None:
            self.overview.update()

    def resizeEvent(self, event) -> None:  # noqa: ANN001
        old = event.oldSize()
        # what was in view before the resize: the scroll position is not yet changed
        before = (
            self.mapToScene(0, 0, old.width(), old.height()).boundingRect()
            if old.width() > 0 and old.height() > 0 and self.scene() is not None
            else None
        )
        self._adjusting = True
        try:
            super().resizeEvent(event)
            if before is not None:
                self._keep_in_view(before)
        finally:
            self._adjusting = False
        if self.overview is not None:
            self.overview.update()

    def _keep_in_view(self, before: QRectF) -> None:
        """After a resize: fit again, or keep ``before`` (the scene rect that was in view)
        in view, zooming out only as far as that needs."""
        if self._fitted:
            self.fit_table()
            return
        port = self.viewport().rect()
        if port.width() <= 0 or port.height() <= 0:
            return
        zoom = self.zoom
        needed = min(port.width() / before.width(), port.height() / before.height())
        if needed < zoom:
            factor = max(MIN_ZOOM, needed)
            self.scale(factor / zoom, factor / zoom)
            self.zoomChanged.emit(self.zoom)
        self.centerOn(before.center())

    # ---- read-only banner ---------------------------------------------------
    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        session = self.scene().session
        if not session.read_only:
            return
        painter.save()
        painter.resetTransform()
        width = self.viewport().width()
        banner = QRectF(0, 0, width, 34)
        painter.fillRect(banner, QColor(20, 20, 30, 200))
        painter.setPen(QColor("#ffd54a"))
        painter.setFont(theme.label_font(15, bold=True))
        if session.history_seq is None:  # a seat's copy
            text = session.read_only_text
        else:
            text = f"Looking back: the table after entry {session.history_seq} of {session.table.seq}. Read-only; 'Back to now' (End) returns."
        painter.drawText(banner, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


class Overview(QWidget):
    """A small map of the whole table, shown in its own dock; click or drag in it to look there.

    It draws the places and pieces as plain shapes in their colours (not their
    faces), so it costs next to nothing to keep up to date.
    """

    def __init__(self, main: TableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.main = main
        main.overview = self
        self.setMinimumSize(160, 110)
        self.setToolTip("Overview: click or drag to look at another part of the table")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        # repainted at most a few times a second: a drag changes the scene on every mouse move
        self._refresh = QTimer(self, singleShot=True, interval=200)
        self._refresh.timeout.connect(self.update)
        main.scene().changed.connect(
            lambda _regions: self._refresh.isActive() or self._refresh.start()
        )

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(260, 180)

    def _transform(self) -> tuple[float, float, float, QRectF]:
        rect = self.main.scene().sceneRect()
        scale = min(
            (self.width() - 8) / max(rect.width(), 1), (self.height() - 8) / max(rect.height(), 1)
        )
        ox = (self.width() - rect.width() * scale) / 2 - rect.x() * scale
        oy = (self.height() - rect.height() * scale) / 2 - rect.y() * scale
        return scale, ox, oy, rect

    def paintEvent(self, event) -> None:  # noqa: ANN001
        scene = self.main.scene()
        scale, ox, oy, _rect = self._transform()
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#274e3b"))
        painter.setPen(QPen(QColor(255, 255, 255, 120), 2))
        painter.drawRect(self.rect().adjusted(1, 1, -1, -1))

        def mapped(r: QRectF) -> QRectF:
            return QRectF(
                ox + r.x() * scale,
                oy + r.y() * scale,
                max(r.width() * scale, 1.5),
                max(r.height() * scale, 1.5),
            )

        painter.setPen(Qt.PenStyle.NoPen)
        for item in scene.places.values():
            painter.setBrush(QColor(255, 255, 255, 30))
            if item.style:  # a styled board: its spaces in their colours
                for name in item.spots:
                    painter.setBrush(item.cell_colour(name) or QColor(255, 255, 255, 60))
                    outline = item.cell_shape(name)
                    if isinstance(outline, QPolygonF):
                        painter.drawPolygon(
                            QPolygonF(
                                [QPointF(ox + q.x() * scale, oy + q.y() * scale) for q in outline]
                            )
                        )
                    else:
                        painter.drawRect(mapped(outline))
            else:
                painter.drawRect(mapped(item.rect))
        for item in scene.pieces.values():
            painter.setBrush(_overview_colour(scene, item))
            painter.drawRect(mapped(item.sceneBoundingRect().adjusted(6, 6, -6, -6)))
        visible = self.main.mapToScene(self.main.viewport().rect()).boundingRect()
        painter.setPen(QPen(QColor("#ffd54a"), 1.5))
        painter.setBrush(QColor(255, 213, 74, 40))
        painter.drawRect(mapped(visible))
        painter.end()

    def _look_at(self, event: QMouseEvent) -> None:
        scale, ox, oy, _rect = self._transform()
        point = event.position()
        self.main.centerOn(QPointF((point.x() - ox) / scale, (point.y() - oy) / scale))
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._look_at(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._look_at(event)


def _overview_colour(scene: TableScene, item) -> QColor:  # noqa: ANN001 - a PieceItem
    piece = item.piece
    shape = scene.art.shape_kind(piece)
    if shape == "card":
        return QColor("#f4f1e8") if item.visible_face else QColor("#34508a")
    return QColor(scene.art.colour(piece))
