"""Piece artwork: cards, backs, cubes, disks, dice, markers, tokens and boards, drawn from the module.

Everything is procedural and drawn in scene units (``PX_PER_MM`` to the
millimetre), so a face is crisp at any zoom. ``FaceArt.paint`` draws one piece
into a rectangle; ``FaceArt.pixmap`` renders it once per look and zoom bucket and
keeps the result in a bounded LRU cache. ``FaceArt.key`` names a look: two
pieces with the same key draw the same pixels.

A card face follows its template (``[[templates]]`` in the manifest), a mapping
of roles to deck columns: ``title``, ``subtitle``, ``corner`` (a number in a
circle), ``badge`` (points in a star), ``text`` (the rules, shrunk to fit) and
``icons`` (``<module>/icons/<name>.svg`` when the file exists, otherwise a drawn
token). Optional template settings: ``palette`` (a table of subtitle value to
``#rrggbb`` for the title band), ``colour`` (one band colour for every card) and
``badge_shape`` (``"star"`` or ``"shield"``). A deck column or piece property
``placeholders`` above 0 puts an amber '≈' mark in the top-right corner.

A module naming ``card_view`` (a function in rules_assist) gets richer faces
instead: the function turns a deck row into display roles, and
card_layouts.py draws them; its ``back_key`` and ``back_label`` name the back.

A face the viewer may not see is drawn as the deck's back: nothing of the
front's data goes into it (nor into its key).
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# gradients (and pictures) as QtGui.X: their classes are made when a face is drawn, not by a
# start whose faces are all kept on disk (face_store.py; a class brings its enum types)
from PySide6 import QtGui
from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPen,
    QPixmap,
    QPolygonF,
)

if TYPE_CHECKING:  # QtSvg loads when a face draws an icon, not at every start
    from PySide6.QtSvg import QSvgRenderer

from tabletop.core import Piece, Seat
from tabletop.modules import KindDef, Module
from tabletop.modules.manifest import SHAPES
from tabletop.visibility import is_anonymous

from .card_layouts import CardViews, draw_face, draw_face_sketch
from .card_parts import badge, placeholder_mark
from .face_store import FaceStore, run_identity
from .piece_art import (
    SANS,
    SERIF,
    diamond,
    draw_board,
    draw_cube,
    draw_die,
    draw_disk,
    draw_token,
    fit_text,
    font_of,
    mix,
    rounded,
    with_alpha,
)
from .token_art import TokenViews, draw_token_view
from .units import DEFAULT_PIECE_MM, PX_PER_MM

NO_OWNER = "#9a9a9a"
IVORY = "#f4f1e8"
PARCHMENT = "#e4d5b0"
BOARD = "#d9ceb2"
INK = QColor("#2a2520")
CARD_FACE = QColor("#fbf7ee")
AMBER = QColor("#f0a81c")
BIG_FACTOR = 1.4
CACHE_BYTES = 64 * 1024 * 1024
MIN_BUCKET, MAX_BUCKET = 0.25, 8.0
MAX_PIXMAP_SIDE = 4096  # a board zoomed far in gets a smaller bucket rather than a huge pixmap
# the card layout is designed on a 63 x 88 mm card (252 x 352 scene units) and scaled
DESIGN_W, DESIGN_H = 252.0, 352.0

BAND_PALETTE = (
    "#2f64a0",  # blue
    "#4f8a35",  # green
    "#b0412c",  # brick
    "#764a98",  # violet
    "#c2841a",  # ochre
    "#23827d",  # teal
    "#85553a",  # brown
    "#a3386a",  # plum
)
BACK_PALETTE = (
    "#1d3557",  # navy
    "#5a1e2a",  # burgundy
    "#1e4d3a",  # forest
    "#3e2a5c",  # aubergine
    "#134e57",  # deep teal
    "#5a3818",  # umber
    "#2b3048",  # slate
    "#4a1f4f",  # plum
)
ICON_PALETTE = (
    "#c0392b",
    "#d68910",
    "#b7950b",
    "#27ae60",
    "#16a085",
    "#2980b9",
    "#8e44ad",
    "#7f8c8d",
    "#a04000",
    "#1f618d",
)


def stable_index(text: str, n: int) -> int:
    """A stable pick among ``n`` for ``text`` (the same on every run, unlike ``hash``)."""
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:4], "big") % n


def bucket(scale: float) -> float:
    """The zoom bucket of a scale: the power of two at or above it, within 0.25 and 8."""
    if not scale > 0:
        return MIN_BUCKET
    b = 2.0 ** math.ceil(math.log2(scale) - 1e-9)
    return min(MAX_BUCKET, max(MIN_BUCKET, b))


class FaceArt:
    """Draws pieces as their module describes them; caches rendered faces."""

    def __init__(
        self, module: Module | None, seats: Sequence[Seat], store: FaceStore | bool = True
    ) -> None:
        """``store``: where rendered faces are kept between runs (True: the user's cache
        folder unless turned off, face_store.py; False: none)."""
        self.module = module
        self.store = FaceStore.from_env() if store is True else store or None
        self._icons_identity: str | None = None
        self._key_head: tuple[str, str, str] | tuple[()] = ()  # see _stored_key
        self._sketch = False  # set while a far-zoom pixmap is drawn
        self.seats = {s.id: s for s in (module.seats if module else ())}
        self.seats.update({s.id: s for s in seats})
        self.cache_bytes = CACHE_BYTES
        self._cache: OrderedDict[tuple, QPixmap] = OrderedDict()
        self._cached_bytes = 0
        self._rows: dict[str, dict[str, dict[str, Any]]] = {}
        self._sizes: dict[tuple[str, bool], tuple[float, float]] = {}  # see size_wh
        self._icons: dict[str, QSvgRenderer | None] = {}
        self.views = CardViews(module)
        self.tokens = TokenViews(module)

    # ----- what a piece is -----

    def _kind(self, piece: Piece) -> KindDef | None:
        return self.module.kinds.get(piece.kind) if self.module else None

    def shape_kind(self, piece: Piece) -> str:
        """'card', 'cube', 'disk', 'die', 'token', 'marker' or 'board'; a guess for an unknown kind."""
        kind = self._kind(piece)
        if kind is not None:
            return kind.shape
        if piece.kind in SHAPES:
            return piece.kind
        if "card" in piece.props or "deck" in piece.props:
            return "card"
        if piece.faces:
            return "die"
        return "token"

    def _big(self, piece: Piece) -> bool:
        kind = self._kind(piece)
        return bool(piece.props.get("big") or (kind is not None and kind.props.get("big")))

    def size(self, piece: Piece) -> QSizeF:
        """Scene units: the kind's size in mm times PX_PER_MM; a big cube of a plain kind is larger."""
        return QSizeF(*self.size_wh(piece))

    def size_wh(self, piece: Piece) -> tuple[float, float]:
        """``size`` as (width, height). A table lays out each piece several times (its place's
        others, the card it lies on): the size is kept per kind and ``big``, all it depends on
        besides the module's kinds (which a FaceArt's module does not change): a piece of no
        known kind is a cube only when its kind is named "cube"."""
        key = (piece.kind, bool(piece.props.get("big")))
        size = self._sizes.get(key)
        if size is None:
            kind = self._kind(piece)
            w, h = kind.size if kind is not None else DEFAULT_PIECE_MM
            if (
                self.shape_kind(piece) == "cube"
                and piece.props.get("big")
                and not (kind is not None and kind.props.get("big"))
            ):
                w, h = w * BIG_FACTOR, h * BIG_FACTOR
            size = self._sizes[key] = (w * PX_PER_MM, h * PX_PER_MM)
        return size

    def colour(self, piece: Piece, default: str = NO_OWNER) -> str:
        """'#rrggbb': the kind's own colour, else the owner's seat colour, else ``default``."""
        kind = self._kind(piece)
        if kind is not None and kind.colour.startswith("#") and QColor(kind.colour).isValid():
            return kind.colour.lower()
        seat = self.seats.get(piece.owner) if piece.owner is not None else None
        if seat is not None and QColor(seat.colour).isValid():
            return seat.colour.lower()
        return default

    def _row(self, deck_id: Any, card_id: Any) -> dict[str, Any] | None:
        if self.module is None or deck_id not in self.module.decks:
            return None
        rows = self._rows.get(deck_id)
        if rows is None:
            rows = {c["id"]: c for c in self.module.decks[deck_id].cards}
            self._rows[deck_id] = rows
        return rows.get(card_id)

    def _template(self, piece: Piece) -> dict[str, Any] | None:
        if self.module is None:
            return None
        deck = self.module.decks.get(piece.props.get("deck"))
        kind = self._kind(piece)
        name = (deck.template if deck else None) or (kind.template if kind else None)
        return self.module.templates.get(name) if name else None

    def _placeholders(self, piece: Piece, row: Mapping[str, Any] | None) -> bool:
        for value in (piece.props.get("placeholders"), (row or {}).get("placeholders")):
            try:
                if value is not None and not isinstance(value, bool) and int(value) > 0:
                    return True
            except (TypeError, ValueError):
                continue
        return False

    def key(self, piece: Piece, visible: bool) -> tuple:
        """Everything that changes the look (not where the piece lies nor its rotation)."""
        shape = self.shape_kind(piece)
        s = self.size(piece)
        base = (shape, piece.kind, round(s.width(), 2), round(s.height(), 2))
        if shape == "card":
            deck = str(piece.props.get("deck", ""))
            card = str(piece.props.get("card", piece.id))
            row = self._row(deck, card)
            if not visible:  # what the back shows (a deck's name), never the face's data
                return (*base, "back", deck, self._back(piece, deck, row))
            return (*base, "face", deck, card, self._placeholders(piece, row))
        if shape == "die":
            return (*base, self.colour(piece, IVORY), repr(piece.value) if visible else None)
        if shape in ("token", "board"):
            default = BOARD if shape == "board" else PARCHMENT
            view = self.tokens.view(piece, visible) if shape == "token" else None
            if view is not None:
                return (*base, self.colour(piece, default), "view", TokenViews.key(view))
            return (*base, self.colour(piece, default), self._label(piece, visible))
        return (*base, self.colour(piece), self._big(piece) if shape == "cube" else False)

    def draws_regions(self, piece: Piece, visible: bool) -> bool:
        """Whether the face itself shows the piece's regions (an elder's ranks): no outlines then."""
        if not visible or self.shape_kind(piece) != "card":
            return False
        deck = str(piece.props.get("deck", ""))
        view = self.views.view(deck, self._row(deck, str(piece.props.get("card", piece.id))))
        return bool(view and (view.get("regions") or self.strip(piece)))

    def strip(self, piece: Piece) -> str | None:
        """The card's lone region, drawn as a band along its bottom edge (None: none, or several)."""
        kind = self._kind(piece)
        return kind.regions[0] if kind is not None and len(kind.regions) == 1 else None

    def _label(self, piece: Piece, visible: bool) -> str:
        kind = self._kind(piece)
        label = piece.props.get("label") if visible else None
        return str(label or (kind.label if kind and kind.label else piece.kind))

    # ----- drawing -----

    def paint(self, painter: QPainter, rect: QRectF, piece: Piece, visible: bool) -> None:
        """Draw the piece into ``rect``, unrotated."""
        if rect.width() <= 0 or rect.height() <= 0:
            return
        painter.save()
        painter.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.TextAntialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
        )
        shape = self.shape_kind(piece)
        if shape == "card":
            if visible:
                self._card_face(painter, rect, piece)
            else:
                self._card_back(painter, rect, piece)
        elif shape == "cube":
            draw_cube(painter, rect, QColor(self.colour(piece)), self._big(piece))
        elif shape in ("disk", "marker"):
            draw_disk(painter, rect, QColor(self.colour(piece)), marker=shape == "marker")
        elif shape == "die":
            draw_die(
                painter, rect, QColor(self.colour(piece, IVORY)), piece.value if visible else None
            )
        elif shape == "board":
            draw_board(
                painter, rect, QColor(self.colour(piece, BOARD)), self._label(piece, visible)
            )
        else:
            view = self.tokens.view(piece, visible)
            if view is not None:
                draw_token_view(
                    painter, rect, view, QColor(self.colour(piece, PARCHMENT)), self._icon
                )
            else:
                draw_token(
                    painter,
                    rect,
                    QColor(self.colour(piece, PARCHMENT)),
                    self._label(piece, visible),
                )
        painter.restore()

    def pixmap(self, piece: Piece, visible: bool, scale: float) -> QPixmap:
        """A cached render for drawing at zoom ``scale``.

        Its pixel size is the piece's size times the scale's bucket (a power of two in
        0.25..8; lower for a piece so large that a side would pass MAX_PIXMAP_SIDE pixels),
        rounded up; its devicePixelRatio is the bucket, so ``drawPixmap(point, pixmap)``
        draws it at the piece's size in scene units. The same look and bucket give the
        same QPixmap; the least recently used are dropped past ``cache_bytes``.
        """
        s = self.size(piece)
        b = bucket(scale)
        while b > MIN_BUCKET and max(s.width(), s.height()) * b > MAX_PIXMAP_SIDE:
            b /= 2
        cache_key = (self.key(piece, visible), b)
        hit = self._cache.get(cache_key)
        if hit is not None:
            self._cache.move_to_end(cache_key)
            return hit
        width = max(1, math.ceil(s.width() * b - 1e-6))
        height = max(1, math.ceil(s.height() * b - 1e-6))
        stored = (
            self._stored_key(piece, visible, b, width, height, cache_key[0]) if self.store else None
        )
        image = self.store.load(stored) if stored is not None else None
        if image is not None and image.width() == width and image.height() == height:
            pm = QPixmap.fromImage(image)
            # the pixmap shares the image's pixels: with this reference gone, setting its
            # ratio below needs no copy of them
            image = None
        else:
            pm = self._render(piece, visible, s, b, width, height)
            if stored is not None:
                self.store.save(stored, pm.toImage())
        pm.setDevicePixelRatio(b)
        self._cache[cache_key] = pm
        self._cached_bytes += pm.width() * pm.height() * 4
        while self._cached_bytes > self.cache_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached_bytes -= old.width() * old.height() * 4
        return pm

    def _render(
        self, piece: Piece, visible: bool, s: QSizeF, b: float, width: int, height: int
    ) -> QPixmap:
        pm = QPixmap(width, height)
        pm.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pm)
        painter.scale(b, b)
        self._sketch = b <= MIN_BUCKET  # at a far zoom, a card's colours and title are what shows
        try:
            self.paint(painter, QRectF(0, 0, s.width(), s.height()), piece, visible)
        finally:
            self._sketch = False
            painter.end()
        return pm

    def _stored_key(
        self,
        piece: Piece,
        visible: bool,
        b: float,
        width: int,
        height: int,
        look: tuple | None = None,
    ) -> str | None:
        """The text naming everything that decides a rendered face's pixels, for the store on
        disk: the run's drawing code, Qt and fonts, the module's icons, the look (``key``), the
        pixel size and bucket, the kind, and for a card face its data row and view as drawn.
        None when some part has no stable text (it is then drawn every run). ``look``: the
        piece's ``key`` when the caller has it."""
        kind = self._kind(piece)
        parts: list[Any] = [
            look if look is not None else self.key(piece, visible),
            b,
            width,
            height,
            kind,
        ]
        shape = self.shape_kind(piece)
        if shape == "card" and visible:
            deck_id = str(piece.props.get("deck", ""))
            card_id = str(piece.props.get("card", piece.id))
            row = self._row(deck_id, card_id)
            view = self.views.view(deck_id, row)
            parts += [card_id, row, view, self.strip(piece)]
            if view is None:  # the template face: its roles, band colour and columns
                deck = self.module.decks.get(deck_id) if self.module else None
                parts += [self._template(piece), deck.columns if deck else None]
        elif shape == "token":
            parts.append(self.tokens.view(piece, visible))
        # the text is repr([identity, icon files, *parts]); the head of it that is the same for
        # every face (some 1,600 characters) is kept, keyed on the two texts it is made of
        identity, icons = _identity(), self._icon_files()
        if self._key_head[:2] != (identity, icons):
            self._key_head = (identity, icons, f"[{identity!r}, {icons!r}, ")
        text = self._key_head[2] + ", ".join(map(repr, parts)) + "]"
        return None if " at 0x" in text else text

    def _icon_files(self) -> str:
        """The module's icon files as they are now (names, sizes, times changed)."""
        if self._icons_identity is None:
            found: list[tuple[str, int, int]] = []
            if self.module is not None:
                try:
                    with os.scandir(Path(self.module.folder) / "icons") as entries:
                        for entry in entries:
                            info = entry.stat()
                            found.append((entry.name, info.st_size, info.st_mtime_ns))
                except OSError:
                    pass
            self._icons_identity = repr(sorted(found))
        return self._icons_identity

    def clear_cache(self) -> None:
        """Forget every rendered face (e.g. after the module's files changed)."""
        self._cache.clear()
        self._cached_bytes = 0
        self._icons_identity = None

    # ----- cards -----

    def text_sizes(self, piece: Piece) -> dict[str, float]:
        """The smallest font, in scene units, a card's face draws its title and its numbers
        in at its size on the table: {'title': px, 'number': px} (a role it does not print
        is left out; empty for a face drawn from a template rather than a card view)."""
        size = self.size(piece)
        picture = QtGui.QPicture()
        painter = QPainter(picture)
        try:
            return self._card_face(painter, QRectF(0, 0, size.width(), size.height()), piece)
        finally:
            painter.end()

    def _card_face(self, p: QPainter, rect: QRectF, piece: Piece) -> dict[str, float]:
        deck_id = str(piece.props.get("deck", ""))
        card_id = str(piece.props.get("card", piece.id))
        row = self._row(deck_id, card_id)
        view = self.views.view(deck_id, row)
        if view is not None:
            marked = self._placeholders(piece, row) or _count(view.get("placeholders")) > 0
            if self._sketch:
                draw_face_sketch(p, rect, view, self._icon, marked)
                return {}
            return draw_face(p, rect, view, self._icon, card_id, marked, self.strip(piece))
        template = self._template(piece)
        roles: dict[str, Any] = {"title": card_id}  # no template or no row: the id as title
        if row is not None and template is not None:
            roles = {
                role: _cell(row, template.get(role))
                for role in ("title", "subtitle", "corner", "badge", "text")
            }
            roles["icons"] = _icon_names(row, template.get("icons"))
        band = QColor(self._band_colour(deck_id, template, roles.get("subtitle", "")))
        k = min(rect.width() / DESIGN_W, rect.height() / DESIGN_H)
        x0, y0, w, h = rect.x(), rect.y(), rect.width(), rect.height()

        def r(x: float, y: float, rw: float, rh: float) -> QRectF:
            return QRectF(x0 + x * k, y0 + y * k, rw * k, rh * k)

        # the card: off-white face, thin dark border, a fine inner frame in the band colour
        outline = rounded(rect.adjusted(0.75, 0.75, -0.75, -0.75), 13 * k)
        p.setPen(QPen(INK, max(1.0, 1.5 * k)))
        p.setBrush(CARD_FACE)
        p.drawPath(outline)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(mix(band, CARD_FACE, 0.55), 1.2 * k))
        p.drawRoundedRect(rect.adjusted(6 * k, 6 * k, -6 * k, -6 * k), 9 * k, 9 * k)

        # title band
        band_h = 48 * k if row is not None else max(48 * k, 0.3 * h)  # no data: a big id
        band_rect = QRectF(x0 + 10 * k, y0 + 10 * k, w - 20 * k, band_h)
        grad = QtGui.QLinearGradient(band_rect.topLeft(), band_rect.bottomLeft())
        grad.setColorAt(0, band.lighter(118))
        grad.setColorAt(1, band.darker(112))
        p.setPen(QPen(band.darker(160), 1.2 * k))
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(band_rect, 8 * k, 8 * k)
        corner = roles.get("corner", "")
        marked = self._placeholders(piece, row)
        left = band_rect.left() + (56 * k if corner else 10 * k)
        right = band_rect.right() - (34 * k if marked else 10 * k)
        title_rect = QRectF(left, band_rect.top() + 3 * k, right - left, band_rect.height() - 6 * k)
        title = roles.get("title", "") or card_id
        font = font_of(SERIF, bold=True)
        flags = Qt.AlignmentFlag.AlignCenter
        largest = 25 * k if row is not None else band_h * 0.4
        if not fit_text(font, title, title_rect, flags, largest, largest * 0.6):  # long: two lines
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            fit_text(font, title, title_rect, flags, largest * 0.8, 5)
        p.save()
        p.setClipRect(band_rect)
        p.setFont(font)
        p.setPen(QColor(0, 0, 0, 70))
        p.drawText(title_rect.translated(0, 1.2 * k), int(flags), title)
        p.setPen(QColor("#ffffff"))
        p.drawText(title_rect, int(flags), title)
        p.restore()

        if corner:
            centre = QPointF(x0 + 34 * k, y0 + 34 * k)
            p.setPen(QPen(band.darker(150), 3 * k))
            p.setBrush(QColor("#fffaf0"))
            p.drawEllipse(centre, 22 * k, 22 * k)
            box = QRectF(centre.x() - 18 * k, centre.y() - 18 * k, 36 * k, 36 * k)
            font = font_of(SERIF, bold=True)
            fit_text(font, corner, box, Qt.AlignmentFlag.AlignCenter, 26 * k, 6 * k)
            p.setFont(font)
            p.setPen(band.darker(170))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, corner)

        subtitle = roles.get("subtitle", "")
        if subtitle:
            sub_rect = r(20, 61, w / k - 40, 20)
            font = font_of(SANS, bold=True)
            font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 115)
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            fit_text(font, subtitle, sub_rect, Qt.AlignmentFlag.AlignCenter, 13 * k, 6 * k)
            p.setFont(font)
            p.setPen(band.darker(140))
            p.drawText(sub_rect, Qt.AlignmentFlag.AlignCenter, subtitle)

        # the picture panel with the icons, the rules text below (a long text takes more room)
        text = roles.get("text", "")
        icons = roles.get("icons", [])
        wk, hk = w / k, h / k  # the card's size in design units
        if row is not None and template is not None:
            text_top = 208.0
            if text:
                flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
                badged = bool(roles.get("badge")) and roles.get("badge") != "0"
                font = font_of(SANS)
                for text_top in (208.0, 164.0):
                    box = r(16, text_top, wk - 32, hk - text_top - 44)
                    inner = box.adjusted(10 * k, 7 * k, -10 * k, -(30 if badged else 7) * k)
                    if fit_text(font, text, inner, flags, 19 * k, 14 * k):
                        break
                else:
                    fit_text(font, text, inner, flags, 14 * k, 5 * k)
            art = r(16, 84, wk - 32, (text_top - 92) if text else (hk - 84 - 44))
            glow = QtGui.QRadialGradient(art.center(), max(art.width(), art.height()) * 0.7)
            glow.setColorAt(0, mix(band, QColor("#ffffff"), 0.9))
            glow.setColorAt(1, mix(band, QColor("#ffffff"), 0.62))
            p.setPen(QPen(mix(band, INK, 0.35), 1.2 * k))
            p.setBrush(QBrush(glow))
            p.drawRoundedRect(art, 8 * k, 8 * k)
            if icons:
                self._icon_row(p, art.adjusted(10 * k, 10 * k, -10 * k, -10 * k), icons, k)
            if text:
                p.setPen(QPen(mix(band, INK, 0.25).lighter(150), 1 * k))
                p.setBrush(QColor("#f3ecdc"))
                p.drawRoundedRect(box, 7 * k, 7 * k)
                p.setFont(font)
                p.setPen(QColor("#2b2620"))
                p.drawText(inner, int(flags), text)

        # footer: the card id for playtesters, the badge at the bottom right
        font = font_of(SANS)
        font.setPixelSize(max(1, round(10 * k)))
        p.setFont(font)
        p.setPen(QColor("#8a8174"))
        p.drawText(
            r(16, hk - 34, wk - 90, 22),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            card_id,
        )
        points = roles.get("badge", "")
        if points and points != "0":
            shape = str((template or {}).get("badge_shape", "star"))
            badge(p, QPointF(x0 + w - 40 * k, y0 + h - 36 * k), 28 * k, points, shape)
        if marked:
            placeholder_mark(p, rect, outline, k)
        return {}

    def _band_colour(self, deck_id: str, template: Mapping[str, Any] | None, subtitle: str) -> str:
        template = template or {}
        palette = template.get("palette")
        if (
            isinstance(palette, dict)
            and subtitle in palette
            and QColor(palette[subtitle]).isValid()
        ):
            return str(palette[subtitle])
        if isinstance(template.get("colour"), str) and QColor(template["colour"]).isValid():
            return template["colour"]
        if subtitle:
            column = template.get("subtitle")
            deck = self.module.decks.get(deck_id) if self.module else None
            for col in deck.columns if deck else ():
                if col.name == column and subtitle in col.choices:
                    return BAND_PALETTE[col.choices.index(subtitle) % len(BAND_PALETTE)]
            return BAND_PALETTE[stable_index(subtitle, len(BAND_PALETTE))]
        return BAND_PALETTE[stable_index(deck_id or "card", len(BAND_PALETTE))]

    def _icon_row(self, p: QPainter, area: QRectF, names: list[str], k: float) -> None:
        n = len(names)
        gap = 12 * k
        d = min(area.height(), 76 * k, (area.width() - gap * (n - 1)) / n)
        total = n * d + (n - 1) * gap
        x = area.center().x() - total / 2
        y = area.center().y() - d / 2
        for name in names:
            box = QRectF(x, y, d, d)
            renderer = self._icon(name)
            if renderer is not None:
                renderer.render(p, box)
            else:
                _icon_token(p, box, name)
            x += d + gap

    def icon(self, name: str) -> QSvgRenderer | None:
        """The module's picture ``icons/<name>.svg``, or None when it has none."""
        return self._icon(name)

    def _icon(self, name: str) -> QSvgRenderer | None:
        if name not in self._icons:
            renderer = None
            if self.module is not None and "/" not in name and "\\" not in name:
                path = Path(self.module.folder) / "icons" / f"{name}.svg"
                if path.is_file():
                    from PySide6.QtSvg import QSvgRenderer

                    loaded = QSvgRenderer(str(path))
                    loaded.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
                    renderer = loaded if loaded.isValid() else None
            self._icons[name] = renderer
        return self._icons[name]

    def _back(self, piece: Piece, deck_id: str, row: Any) -> tuple[str, str, str] | None:
        """(key, label, colour) of the back a card shows: its row's, as the game's card view
        names it; a stand-in of a seat's copy carries it (tabletop/modules/backs.py)."""
        given = piece.props.get("back")
        if is_anonymous(piece) and isinstance(given, list) and len(given) == 3:
            return (str(given[0]), str(given[1]), str(given[2]))
        return self.views.back(deck_id, row)

    def _card_back(self, p: QPainter, rect: QRectF, piece: Piece) -> None:
        deck_id = str(piece.props.get("deck", "")) or piece.kind
        kind = self._kind(piece)
        back = kind.back if kind is not None else ""
        base = QColor(BACK_PALETTE[stable_index(deck_id, len(BACK_PALETTE))])
        look = self._back(
            piece, deck_id, self._row(deck_id, str(piece.props.get("card", piece.id)))
        )
        if look is not None:  # the module's views name the back: a kind of card, not the card
            back = look[1] or back
            base = (
                QColor(look[2])
                if QColor(look[2]).isValid()
                else QColor(BACK_PALETTE[stable_index(look[0], len(BACK_PALETTE))])
            )
        gold = QColor("#d8c08a")
        k = min(rect.width() / DESIGN_W, rect.height() / DESIGN_H)
        outline = rounded(rect.adjusted(0.75, 0.75, -0.75, -0.75), 13 * k)
        grad = QtGui.QRadialGradient(rect.center(), max(rect.width(), rect.height()) * 0.75)
        grad.setColorAt(0, base.lighter(135))
        grad.setColorAt(1, base.darker(115))
        p.setPen(QPen(INK, max(1.0, 1.5 * k)))
        p.setBrush(QBrush(grad))
        p.drawPath(outline)
        # double frame
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(gold, 2.2 * k))
        frame = rect.adjusted(12 * k, 12 * k, -12 * k, -12 * k)
        p.drawRoundedRect(frame, 8 * k, 8 * k)
        p.setPen(QPen(with_alpha(gold, 140), 1 * k))
        inner = frame.adjusted(6 * k, 6 * k, -6 * k, -6 * k)
        p.drawRoundedRect(inner, 5 * k, 5 * k)
        # a diamond lattice with dots at the crossings (few calls: one for the lines, one for the dots)
        p.save()
        p.setClipRect(inner.adjusted(1 * k, 1 * k, -1 * k, -1 * k))
        step = 22 * k
        span = inner.width() + inner.height()
        lines = []
        t = -inner.height()
        while t <= inner.width() + 1e-6:
            x = inner.left() + t
            lines.append(QLineF(x, inner.top(), x + span, inner.top() + span))
            x2 = x + inner.height()
            lines.append(QLineF(x2, inner.top(), x2 - span, inner.top() + span))
            t += step
        p.setPen(QPen(with_alpha(base.lighter(175), 110), 1.1 * k))
        p.drawLines(lines)
        dots = []
        row = 0
        cy = inner.top()
        while cy <= inner.bottom() + step:
            cx = inner.left() + (step / 2 if row % 2 else 0)
            while cx <= inner.right() + step:
                dots.append(QPointF(cx, cy))
                cx += step
            cy += step / 2
            row += 1
        p.setPen(
            QPen(with_alpha(gold, 120), 3.2 * k, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        )
        p.drawPoints(QPolygonF(dots))
        p.restore()
        # corner diamonds on the frame
        p.setPen(QPen(base.darker(150), 1 * k))
        p.setBrush(gold)
        for c in (frame.topLeft(), frame.topRight(), frame.bottomLeft(), frame.bottomRight()):
            p.drawPolygon(diamond(c, 7 * k))
        # central medallion with the back text
        medal = QRectF(0, 0, rect.width() * 0.72, rect.height() * 0.3)
        medal.moveCenter(rect.center())
        p.setPen(QPen(gold, 3 * k))
        p.setBrush(base.darker(125))
        p.drawEllipse(medal)
        p.setPen(QPen(with_alpha(gold, 150), 1 * k))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(medal.adjusted(6 * k, 6 * k, -6 * k, -6 * k))
        for dx in (-1, 1):
            tip = QPointF(medal.center().x() + dx * (medal.width() / 2 + 9 * k), medal.center().y())
            p.setPen(QPen(base.darker(150), 1 * k))
            p.setBrush(gold)
            p.drawPolygon(diamond(tip, 6 * k))
        if back:
            box = medal.adjusted(
                medal.width() * 0.14,
                medal.height() * 0.2,
                -medal.width() * 0.14,
                -medal.height() * 0.2,
            )
            font = font_of(SERIF, bold=True)
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            fit_text(font, back, box, flags, 30 * k, 6 * k)
            p.setFont(font)
            p.setPen(QColor(0, 0, 0, 110))
            p.drawText(box.translated(0, 1.5 * k), int(flags), back)
            p.setPen(QColor("#f1e3bd"))
            p.drawText(box, int(flags), back)


@functools.cache
def _identity() -> str:
    """The run's part of every stored face's key (face_store.run_identity), with this file."""
    return run_identity([__file__])


# ----- the other shapes -----


def _icon_token(p: QPainter, box: QRectF, name: str) -> None:
    c = QColor(ICON_PALETTE[stable_index(name, len(ICON_PALETTE))])
    d = box.width()
    centre = box.center()
    grad = QtGui.QRadialGradient(QPointF(centre.x() - d * 0.15, centre.y() - d * 0.18), d * 0.7)
    grad.setColorAt(0, c.lighter(140))
    grad.setColorAt(1, c.darker(115))
    p.setPen(QPen(c.darker(200), d * 0.04))
    p.setBrush(QBrush(grad))
    p.drawEllipse(box.adjusted(d * 0.02, d * 0.02, -d * 0.02, -d * 0.02))
    p.setPen(QPen(QColor(255, 255, 255, 170), d * 0.03))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(centre, d * 0.38, d * 0.38)
    letters = (name[:1].upper() + name[1:2].lower()) or "?"
    font = font_of(SANS, bold=True)
    inner = box.adjusted(d * 0.2, d * 0.2, -d * 0.2, -d * 0.2)
    fit_text(font, letters, inner, Qt.AlignmentFlag.AlignCenter, d * 0.42, 2)
    p.setFont(font)
    p.setPen(QColor(0, 0, 0, 90))
    p.drawText(inner.translated(0, d * 0.02), Qt.AlignmentFlag.AlignCenter, letters)
    p.setPen(QColor("#ffffff"))
    p.drawText(inner, Qt.AlignmentFlag.AlignCenter, letters)


# ----- helpers -----


def _cell(row: Mapping[str, Any], spec: Any) -> str:
    """The text a template role shows: one column, or several joined."""
    if isinstance(spec, str):
        value = row.get(spec)
        if value is None or isinstance(value, bool):
            return ""
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    if isinstance(spec, list):
        return " ".join(t for t in (_cell(row, s) for s in spec) if t)
    return ""


def _count(value: Any) -> int:
    try:
        return int(value) if not isinstance(value, bool) and value is not None else 0
    except (TypeError, ValueError):
        return 0


def _icon_names(row: Mapping[str, Any], spec: Any) -> list[str]:
    names: list[str] = []
    for column in [spec] if isinstance(spec, str) else spec if isinstance(spec, list) else []:
        value = row.get(column) if isinstance(column, str) else None
        if isinstance(value, list):
            names.extend(str(v) for v in value if str(v).strip())
        elif isinstance(value, str):
            names.extend(v.strip() for v in value.split(";") if v.strip())
    return names
