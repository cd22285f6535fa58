"""The table scene: items drawn from the state, and gestures turned into commands.

The scene owns interaction (Qt's diagramscene pattern): a press picks pieces
up, a move drags them and lights the place or spot under the cursor, and the
release becomes one command submitted through the session. The scene never
writes the model; it redraws from the session's change summaries.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsSceneMouseEvent

from tabletop.core import Change, Command, CommandError, TableState, actions
from tabletop.visibility import can_see

from . import theme
from .faces import FaceArt
from .items import PieceItem, PlaceItem, ZoneItem
from .layout import TableLayout
from .session import TableSession
from .units import PX_PER_MM

DRAG_Z = 10_000.0
MARGIN = 10 * PX_PER_MM  # felt round the table (Fit the table shows as much: no scroll bars)


class DropTarget:
    """Where a drag would land: a place, a spot in it, and (for free areas) x, y in millimetres."""

    __slots__ = ("place", "spot", "x", "y", "index")

    def __init__(
        self,
        place: str,
        spot: str | None = None,
        x: float | None = None,
        y: float | None = None,
        index: int | None = None,
    ) -> None:
        self.place, self.spot, self.x, self.y, self.index = place, spot, x, y, index

    def __repr__(self) -> str:
        return f"DropTarget({self.place!r}, spot={self.spot!r})"


class TableScene(QGraphicsScene):
    pieceHovered = Signal(str)  # a piece id, or "" when the pointer leaves pieces
    pieceActivated = Signal(str)  # double-click
    rebuilt = Signal()  # everything drawn anew: the table's size may have changed

    def __init__(self, session: TableSession, cached: bool = False) -> None:
        """``cached``: pieces keep a picture of themselves at the screen's scale (a window's
        scene), so a repaint that does not change them (a drag passing over them, a place lit
        up under them) copies that picture instead of drawing them again. A snapshot's scene
        draws every piece afresh: a PDF keeps cards as shapes."""
        super().__init__()
        self.session = session
        self.rebuilding = False
        self._cache_mode = (
            QGraphicsItem.CacheMode.DeviceCoordinateCache
            if cached
            else QGraphicsItem.CacheMode.NoCache
        )
        self.art = FaceArt(session.module, session.game.header.seats)
        self.places: dict[str, PlaceItem] = {}
        self.pieces: dict[str, PieceItem] = {}
        self.zones: dict[str, ZoneItem] = {}
        self.layout: TableLayout | None = None
        self._drag: list[str] = []
        self._drag_whole: str | None = None  # a stack dragged by its handle
        self._drag_start = QPointF()
        self._drag_offsets: dict[str, QPointF] = {}
        self._target: DropTarget | None = None
        self._lit: PlaceItem | PieceItem | None = None
        self._press_pos: QPointF | None = None
        self._marked: set[str] = set()
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        session.changed.connect(self.on_change)
        session.reset.connect(self.rebuild)
        self.rebuild()

    # ---- drawing from the state ------------------------------------------
    @property
    def state(self) -> TableState:
        return self.session.state

    def size_of(self, pid: str) -> tuple[float, float]:
        return self.art.size_wh(self.session.state.pieces[pid])

    def rebuild(self) -> None:
        """Draw everything anew (a new game, another seat at the screen, a look back in time)."""
        self.rebuilding = True  # the view's scrolling meanwhile is not the user's
        try:
            self._rebuild()
        finally:
            self.rebuilding = False
        self.rebuilt.emit()

    def _rebuild(self) -> None:
        self.clearSelection()  # now, while the items live: clear() would signal it amid deletions
        self.clear()
        self._lit = None  # its item went with the others
        self.places.clear()
        self.pieces.clear()
        self.zones.clear()
        state = self.state
        self.layout = TableLayout(state, self.size_of)
        for zone in self.layout.zones:
            item = ZoneItem(zone)
            item.active = zone.seat == self.session.viewer
            self.zones[zone.seat] = item
            self.addItem(item)
        for place in state.places.values():
            if place.kind == "regions":
                continue
            item = PlaceItem(
                place,
                self.layout.places[place.id],
                self.layout.spots(place.id) if place.spots else {},
                place.label or place.id,
                self.art.icon,
            )
            self.places[place.id] = item
            self.addItem(item)
        for piece in state.pieces.values():
            item = PieceItem(piece, self.art, self.size_of(piece.id), self._cache_mode)
            self.pieces[piece.id] = item
            # placed before it joins the scene: moved there, Qt would note each change of its
            # geometry in the scene's index (asking its bounds anew) and mark it for repainting
            self._place_piece(piece.id)
            self.addItem(item)
        bounds = self.layout.bounds()
        self.setSceneRect(
            QRectF(
                bounds.x - MARGIN, bounds.y - MARGIN, bounds.w + 2 * MARGIN, bounds.h + 2 * MARGIN
            )
        )
        self._mark(
            self.session.last_change.pieces
            if self.session.last_change and not self.session.read_only
            else ()
        )

    def _place_piece(self, pid: str) -> None:
        item = self.pieces[pid]
        state = self.session.state
        layout = self.layout
        piece = state.pieces[pid]
        x, y = layout.piece_pos(pid)
        item.setPos(x, y)
        item.setZValue(layout.piece_z(pid))
        item.count = layout.pile_count(pid)
        regions = state.regions_of(pid)
        if regions is not None:
            item.regions = [
                (name, QRectF(cell.x - x, cell.y - y, cell.w, cell.h))
                for name, cell in layout.spots(regions.id).items()
            ]
        item.refresh(piece, can_see(state, piece, self.session.viewer))

    def place_again(self, pids: Iterable[str]) -> None:
        """Draw pieces where the table has them (a move the table did not take)."""
        for pid in pids:
            if pid in self.pieces and pid in self.state.pieces:
                self._place_piece(pid)

    def on_change(self, change: Change) -> None:
        """Redraw only what a command touched (and what lies on touched cards)."""
        state = self.state
        structural = False
        for place_id in change.places:
            place = state.places.get(place_id)
            if place is None or (place.kind != "regions" and place_id not in self.places):
                structural = True  # a place opened or closed: the layout changes
        if structural or any(
            pid not in self.pieces or pid not in state.pieces for pid in change.pieces
        ):
            self.rebuild()
            return
        if self._regrown(change):  # a place sized to its contents grew or shrank
            selected = [pid for pid, item in self.pieces.items() if item.isSelected()]
            self.rebuild()
            for pid in selected:  # the same pieces stay selected in the table drawn anew
                item = self.pieces.get(pid)
                if item is not None:
                    item.setSelected(True)
            self.show_findings(change.findings)
            return
        todo: set[str] = set(change.pieces)
        for place_id in change.places:
            place = state.places.get(place_id)
            if place is None:
                continue
            todo.update(place.contents)  # positions in a place depend on the others
            item = self.places.get(place_id)
            if item is not None:
                item.update_place(place)
        for pid in list(todo):
            todo.update(self._carried(pid))
        for pid in todo:
            self._place_piece(pid)
        self._mark(change.pieces)
        self.show_findings(change.findings)

    def _regrown(self, change: Change) -> bool:
        """Whether a touched place that grows with its contents (``grow``) changed the table's
        geometry; the layout is worked out anew only then."""
        places = self.state.places
        if not any(places[p].layout.get("grow") for p in change.places if p in places):
            return False
        layout = TableLayout(self.state, self.size_of)
        return layout.places != self.layout.places or [z.rect for z in layout.zones] != [
            z.rect for z in self.layout.zones
        ]

    def show_findings(self, findings) -> None:  # noqa: ANN001 - Findings of the last entry
        """Outline in red the pieces the last entry's findings name, with the reason on hover."""
        for item in self.pieces.values():
            if item.finding:
                item.finding = None
                item.setToolTip("")
                item.update()
        for finding in findings:
            for pid in finding.pieces:
                item = self.pieces.get(pid)
                if item is not None:
                    text = f"{finding.rule}: {finding.message}"
                    item.finding = text if not item.finding else f"{item.finding}\n{text}"
                    item.setToolTip(item.finding)
                    item.update()

    def _carried(self, pid: str) -> list[str]:
        """What lies on a piece (in its regions), at any depth."""
        regions = self.state.regions_of(pid)
        if regions is None:
            return []
        found = list(regions.contents)
        for child in regions.contents:
            found += self._carried(child)
        return found

    def _mark(self, pids: Iterable[str]) -> None:
        for pid in self._marked:
            if pid in self.pieces:
                self.pieces[pid].marked = False
                self.pieces[pid].update()
        self._marked = {pid for pid in pids if pid in self.pieces}
        for pid in self._marked:
            self.pieces[pid].marked = True
            self.pieces[pid].update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, theme.FELT)

    # ---- what is where ----------------------------------------------------
    def piece_at(self, pos: QPointF, skip: Iterable[str] = ()) -> PieceItem | None:
        skipped = set(skip)
        for item in self.items(pos):
            if (
                isinstance(item, PieceItem)
                and item.pid not in skipped
                and item.shape().contains(item.mapFromScene(pos))
            ):
                return item
        return None

    def target_at(self, pos: QPointF, moving: Iterable[str] = ()) -> DropTarget | None:
        """The place (and spot) a piece dropped at ``pos`` would go to."""
        moving = set(moving)
        for pid in moving.copy():
            moving.update(self._carried(pid))
        state = self.state
        x, y = pos.x(), pos.y()
        # cubes, disks and markers go onto a card's regions; a card dropped on a card goes beside it
        cards_moving = any(
            self.art.shape_kind(state.pieces[p]) in ("card", "board") for p in moving
        )
        for item in self.items(pos):
            if isinstance(item, PieceItem) and item.pid not in moving:
                regions = state.regions_of(item.pid)
                if regions is not None and not cards_moving:
                    return DropTarget(regions.id, self.layout.spot_at(regions.id, x, y))
                piece = state.pieces[item.pid]
                place = state.places[piece.place]
                if place.kind in ("stack", "deck", "row", "hand", "slots", "board"):
                    return self._target_in(place.id, x, y, moving)
        for item in self.items(pos):
            if isinstance(item, PlaceItem) and item.rect.contains(pos):
                return self._target_in(item.place_id, x, y, moving)
        return None

    def _target_in(self, place_id: str, x: float, y: float, moving: set[str]) -> DropTarget:
        place = self.state.places[place_id]
        rect = self.layout.place_rect(place_id)
        if place.spots:
            return DropTarget(place_id, self.layout.spot_at(place_id, x, y))
        if place.kind == "area":
            return DropTarget(place_id, None, (x - rect.x) / PX_PER_MM, (y - rect.y) / PX_PER_MM)
        moving_one = next(iter(moving)) if len(moving) == 1 else None
        return DropTarget(place_id, index=self.layout.index_at(place_id, x, y, moving_one))

    # ---- gestures ---------------------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._press_pos = None
        if event.button() != Qt.MouseButton.LeftButton or self.session.read_only:
            if self.session.copy and self.piece_at(event.scenePos()) is not None:
                self.session.message.emit(self.session.read_only_text)  # why nothing moves
            super().mousePressEvent(event)
            return
        pos = event.scenePos()
        item = self.piece_at(pos)
        handle = self._handle_at(pos) if item is None else None
        if item is None and handle is None:
            super().mousePressEvent(event)
            return
        if handle is not None:
            self._begin_drag(list(self.state.places[handle].contents), pos, whole=handle)
            event.accept()
            return
        pid = item.pid
        piece = self.state.pieces[pid]
        place = self.state.places[piece.place]
        if place.kind in ("stack", "deck") and place.contents:
            pid = place.contents[-1]  # what is picked off a pile is its top
        modifiers = event.modifiers()
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
            self.pieces[pid].setSelected(not self.pieces[pid].isSelected())
            event.accept()
            return
        if not self.pieces[pid].isSelected():
            self.clearSelection()
            self.pieces[pid].setSelected(True)
        chosen = [p for p, it in self.pieces.items() if it.isSelected()]
        self._begin_drag(chosen, pos)
        event.accept()

    def _handle_at(self, pos: QPointF) -> str | None:
        for item in self.places.values():
            if item.kind in ("stack", "deck") and item.count and item.handle_rect().contains(pos):
                return item.place_id
        return None

    def _begin_drag(self, pids: list[str], pos: QPointF, whole: str | None = None) -> None:
        # what lies on a dragged card goes with it; it is not dragged on its own
        carried = {c for p in pids for c in self._carried(p)}
        self._drag = [p for p in pids if p not in carried]
        self._drag_whole = whole
        self._press_pos = pos
        self._drag_start = pos
        self._drag_offsets = {}
        for pid in self._drag + sorted(carried):
            self._drag_offsets[pid] = self.pieces[pid].pos() - pos

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._press_pos is None or not self._drag:
            super().mouseMoveEvent(event)
            return
        pos = event.scenePos()
        if (pos - self._press_pos).manhattanLength() < 4 and self._target is None:
            return
        for pid, offset in self._drag_offsets.items():
            item = self.pieces[pid]
            item.setPos(pos + offset)
            if item.zValue() < DRAG_Z:
                item.setZValue(DRAG_Z + item.zValue())
        target = self.target_at(pos, self._drag)
        self._light(target)
        self._target = target
        event.accept()

    def _light(self, target: DropTarget | None) -> None:
        """Light exactly where a drop would land: a card's region on the card, else the place's spot."""
        item: PlaceItem | PieceItem | None = None
        spot = target.spot if target is not None else None
        if target is not None:
            item = self.places.get(target.place)
            if item is None:  # a card's regions: light the card, and the region on it
                place = self.state.places.get(target.place)
                if place is not None and place.parent in self.pieces:
                    item = self.pieces[place.parent]
        if self._lit is not None and self._lit is not item:
            self._lit.set_highlight(False)
        if item is not None:
            item.set_highlight(True, spot)
        self._lit = item

    def lit(self) -> tuple[str, str | None] | None:
        """What a drag now lights: a place's id or a card's piece id, and the spot or region in it."""
        if self._lit is None or not self._lit.highlighted:
            return None
        key = self._lit.pid if isinstance(self._lit, PieceItem) else self._lit.place_id
        return key, self._lit.highlight_spot

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._press_pos is None or not self._drag:
            super().mouseReleaseEvent(event)
            return
        target, dragged, whole = self._target, self._drag, self._drag_whole
        self._press_pos, self._drag, self._drag_whole, self._target = None, [], None, None
        self._light(None)
        moved = False
        if target is not None:
            command = self._drop_command(dragged, target, whole)
            if command is not None:
                moved = self.session.submit(command)
        if not moved:
            for pid in list(self._drag_offsets):
                if pid in self.pieces and pid in self.state.pieces:
                    self._place_piece(pid)
        self._drag_offsets = {}
        event.accept()

    def _drop_command(
        self, pids: list[str], target: DropTarget, whole: str | None
    ) -> Command | None:
        state = self.state
        if len(pids) == 1 and whole is None:
            pid = pids[0]
            piece = state.pieces[pid]
            if (
                piece.place == target.place
                and piece.spot == target.spot
                and target.x is None
                and target.index in (None, state.places[piece.place].contents.index(pid))
            ):
                # dropped where it lay: nothing to move
                return None
            x, y = target.x, target.y
            if x is not None:
                w, h = self.size_of(pid)
                x, y = round(x - w / 2 / PX_PER_MM, 1), round(y - h / 2 / PX_PER_MM, 1)
            try:
                return actions.move(
                    state, pid, target.place, spot=target.spot, index=target.index, x=x, y=y
                )
            except CommandError as exc:
                self.session.message.emit(f"Not moved: {exc}")
                return None
        # several pieces (a selection, or a whole stack by its handle): one compound, one undo step
        anchor = self.pieces[pids[0]].pos()
        builders = []
        for pid in pids:
            if target.x is not None:
                delta = (self.pieces[pid].pos() - anchor) / PX_PER_MM
                w, h = self.size_of(pid)
                x = round(target.x - w / 2 / PX_PER_MM + delta.x(), 1)
                y = round(target.y - h / 2 / PX_PER_MM + delta.y(), 1)
                builders.append(
                    lambda s, p=pid, x=x, y=y: actions.move(s, p, target.place, x=x, y=y)
                )
            else:
                builders.append(lambda s, p=pid: actions.move(s, p, target.place, spot=target.spot))
        label = (
            f"move {whole} to {target.place}"
            if whole
            else f"move {len(pids)} pieces to {target.place}"
        )
        try:
            return actions.build_sequence(state, label, builders)
        except CommandError as exc:
            self.session.message.emit(f"Not moved: {exc}")
            return None

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        item = self.piece_at(event.scenePos())
        if item is not None and event.button() == Qt.MouseButton.LeftButton:
            self.pieceActivated.emit(item.pid)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def selected_pieces(self) -> list[str]:
        return [pid for pid, item in self.pieces.items() if item.isSelected()]

    def select(self, pids: Iterable[str]) -> None:
        self.clearSelection()
        for pid in pids:
            if pid in self.pieces:
                self.pieces[pid].setSelected(True)
