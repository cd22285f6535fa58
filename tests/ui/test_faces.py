"""Piece artwork: every proto shape draws, seat colours, hidden faces leak nothing, the cache."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, QSizeF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from tabletop.core import Piece
from tabletop.modules import find_module, load_module
from tabletop.ui.faces import FaceArt, bucket
from tabletop.ui.units import DEFAULT_PIECE_MM, PX_PER_MM


@pytest.fixture(scope="module")
def app() -> QApplication:
    return QApplication.instance() or QApplication([])


@pytest.fixture(scope="module")
def proto():
    return find_module("proto")


@pytest.fixture
def art(app, proto) -> FaceArt:
    return FaceArt(proto, proto.seats)


def card(card_id: str, **kw) -> Piece:
    return Piece(
        card_id, "card", props={"deck": "cards", "card": card_id, **kw.pop("props", {})}, **kw
    )


def render(art: FaceArt, piece: Piece, visible: bool = True, scale: float = 1.0) -> QImage:
    size = art.size(piece)
    image = QImage(
        math.ceil(size.width() * scale),
        math.ceil(size.height() * scale),
        QImage.Format.Format_ARGB32,
    )
    image.fill(0)
    painter = QPainter(image)
    painter.scale(scale, scale)
    art.paint(painter, QRectF(0, 0, size.width(), size.height()), piece, visible)
    painter.end()
    return image


def opaque_pixels(image: QImage) -> int:
    return sum(
        1
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
        if image.pixelColor(x, y).alpha() > 200
    )


def dark_pixels(image: QImage) -> int:
    return sum(
        1
        for y in range(image.height())
        for x in range(image.width())
        if (c := image.pixelColor(x, y)).alpha() > 200 and c.lightness() < 80
    )


def centre(image: QImage) -> QColor:
    return image.pixelColor(image.width() // 2, image.height() // 2)


def test_every_proto_kind_draws_its_shape(art, proto):
    for kind in proto.kinds.values():
        piece = Piece(f"p-{kind.id}", kind.id, owner="red", value=3)
        if kind.shape == "card":
            piece = card("trade-1")
        assert art.shape_kind(piece) == kind.shape
        size = art.size(piece)
        assert (size.width(), size.height()) == (kind.size[0] * PX_PER_MM, kind.size[1] * PX_PER_MM)
        image = render(art, piece)
        covered = opaque_pixels(image) / ((image.width() // 2) * (image.height() // 2))
        assert covered > 0.5, kind.id


def test_a_cube_shows_its_owners_seat_colour(art):
    red = centre(render(art, Piece("c1", "cube", owner="red")))
    blue = centre(render(art, Piece("c2", "cube", owner="blue")))
    assert red.red() > 2 * red.green() and red.red() > 2 * red.blue()
    assert blue.blue() > 1.5 * blue.red() and blue.blue() > blue.green()


def test_a_cube_without_owner_is_grey_and_a_kind_colour_wins(art):
    for piece in (Piece("c", "cube"), Piece("c", "cube", owner="nobody-seated")):
        grey = centre(render(art, piece))
        assert (
            max(grey.red(), grey.green(), grey.blue()) - min(grey.red(), grey.green(), grey.blue())
            < 8
        )
        assert 120 < grey.red() < 200
    assert art.colour(Piece("coin", "coin", owner="red")) == "#b0b0b0"


def test_face_down_cards_look_alike_and_face_up_they_differ(art):
    a, b = card("harvest-1", face_up=False), card("storm-1", face_up=False)
    assert render(art, a, visible=False) == render(art, b, visible=False)
    assert art.key(a, False) == art.key(b, False)
    assert "harvest-1" not in repr(art.key(a, False))
    assert render(art, a, visible=True) != render(art, b, visible=True)


def test_a_card_in_its_owners_hand_shows_its_face(art):
    in_hand = card("build-1", face_up=False)
    face = render(art, card("build-1"))
    assert render(art, in_hand, visible=True) == face
    assert render(art, in_hand, visible=False) != face


def test_a_six_has_more_pips_than_a_one(art):
    one = dark_pixels(render(art, Piece("d", "d6", value=1)))
    six = dark_pixels(render(art, Piece("d", "d6", value=6)))
    assert 0 < one < six
    hidden = render(art, Piece("d", "d6", value=6), visible=False)
    assert dark_pixels(hidden) < one
    assert art.key(Piece("d", "d6", value=1), True) != art.key(Piece("d", "d6", value=6), True)


def test_a_die_with_text_faces_shows_the_text(art):
    blank = render(art, Piece("d", "d6", value=None))
    hit = render(art, Piece("d", "d6", value="hit"))
    assert dark_pixels(hit) > dark_pixels(blank) + 20


def test_the_pixmap_cache_returns_the_same_pixmap_per_look_and_bucket(art):
    cube = Piece("c1", "cube", owner="red", x=10, y=20)
    same_look = Piece("c2", "cube", owner="red", x=300, y=5, rotation=1)
    first = art.pixmap(cube, True, 1.0)
    assert art.pixmap(cube, True, 0.7).cacheKey() == first.cacheKey()
    assert art.pixmap(same_look, True, 1.0).cacheKey() == first.cacheKey()
    assert first.width() == 32 and first.devicePixelRatio() == 1.0
    double = art.pixmap(cube, True, 1.5)
    assert double.cacheKey() != first.cacheKey()
    assert (double.width(), double.height()) == (64, 64) and double.devicePixelRatio() == 2.0
    other = art.pixmap(Piece("c3", "cube", owner="blue"), True, 1.0)
    assert other.cacheKey() != first.cacheKey()


def test_a_huge_piece_gets_a_smaller_bucket(art, monkeypatch):
    board = Piece("b", "board")
    pixmap = art.pixmap(board, True, 1000.0)
    assert pixmap.devicePixelRatio() == 8.0 and pixmap.width() == art.size(board).width() * 8
    monkeypatch.setattr(art, "size", lambda piece: QSizeF(1200.0, 800.0))  # a 300 mm board
    pixmap = art.pixmap(board, True, 8.0)
    assert pixmap.devicePixelRatio() == 2.0 and pixmap.width() == 2400


def test_buckets_are_powers_of_two_within_bounds():
    assert [bucket(s) for s in (0.01, 0.3, 0.5, 0.51, 1.0, 1.01, 3.0, 20.0, 0.0)] == [
        0.25,
        0.5,
        0.5,
        1.0,
        1.0,
        2.0,
        4.0,
        8.0,
        0.25,
    ]


def test_the_cache_is_bounded(art):
    art.cache_bytes = 3 * 64 * 64 * 4
    for value in range(1, 7):
        art.pixmap(Piece("d", "d6", value=value), True, 4.0)  # 224 px: each over the bound
        assert art._cached_bytes <= max(art.cache_bytes, 224 * 224 * 4)
    assert len(art._cache) == 1


def test_key_ignores_place_and_follows_looks(art):
    a = Piece("c", "cube", owner="red", place="map", spot="1,1", x=1, y=2)
    b = Piece("c", "cube", owner="red", place="supply", rotation=3)
    assert art.key(a, True) == art.key(b, True)
    assert art.key(a, True) != art.key(Piece("c", "cube", owner="green"), True)
    big = Piece("c", "cube", owner="red", props={"big": True})
    assert art.key(big, True) != art.key(a, True)
    assert art.size(big).width() > art.size(a).width()
    hash(art.key(card("trade-1"), True))


def test_the_placeholder_mark_changes_the_top_right_corner(art):
    plain = render(art, card("trade-1"))
    marked = render(art, card("trade-1", props={"placeholders": 2}))
    w = plain.width()
    assert plain.copy(w - 40, 0, 40, 40) != marked.copy(w - 40, 0, 40, 40)
    assert plain.copy(0, 100, w, 250) == marked.copy(0, 100, w, 250)
    assert art.key(card("trade-1"), True) != art.key(
        card("trade-1", props={"placeholders": 1}), True
    )


def test_unknown_kinds_and_no_module_still_draw(art, app):
    odd = Piece("x", "mystery")
    size = art.size(odd)
    assert (size.width(), size.height()) == (
        DEFAULT_PIECE_MM[0] * PX_PER_MM,
        DEFAULT_PIECE_MM[1] * PX_PER_MM,
    )
    assert art.shape_kind(odd) == "token"
    assert opaque_pixels(render(art, odd)) > 50
    bare = FaceArt(None, [])
    lone = Piece("lonely", "card", props={"deck": "cards", "card": "lonely"})
    assert bare.shape_kind(lone) == "card"
    assert opaque_pixels(render(bare, lone)) > 50
    assert opaque_pixels(render(art, card("no-such-card"))) > 1000
    assert not bare.pixmap(odd, True, 1.0).isNull()


MINI = """
[module]
id = "mini"
name = "Mini"
version = "0.1"

[[seats]]
id = "red"
colour = "#c0392b"

[[kinds]]
id = "elder"
shape = "card"
size = [63, 88]
template = "elder"

[[templates]]
id = "elder"
title = "name"
badge = "vp"
icons = "icons"
badge_shape = "shield"

[[decks]]
id = "elders"
file = "elders.csv"
kind = "elder"

[decks.columns]
name = "text"
vp = "int"
icons = "list"
placeholders = "int"

[[places]]
id = "table"
kind = "area"
"""
SEAL = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    '<rect width="10" height="10" fill="#00ff00"/></svg>'
)


def test_deck_placeholders_and_svg_icons(app, tmp_path: Path):
    (tmp_path / "module.toml").write_text(MINI, encoding="utf-8")
    (tmp_path / "elders.csv").write_text(
        "id,name,vp,icons,placeholders\ne1,Shaman,3,seal,2\ne2,Farmer,0,seal,0\n",
        encoding="utf-8",
    )
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "seal.svg").write_text(SEAL, encoding="utf-8")
    mini = load_module(tmp_path)
    art = FaceArt(mini, mini.seats)
    shaman = Piece("e1", "elder", props={"deck": "elders", "card": "e1"})
    farmer = Piece("e2", "elder", props={"deck": "elders", "card": "e2"})
    assert art.key(shaman, True)[-1] is True and art.key(farmer, True)[-1] is False
    image = render(art, farmer)
    pure_green = sum(
        1
        for y in range(0, image.height(), 3)
        for x in range(0, image.width(), 3)
        if image.pixelColor(x, y).name() == "#00ff00"
    )
    assert pure_green > 50


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_the_qt_binding_keeps_none_alive(app):
    """PySide6 6.12.0 (an abi3 wheel) drops a reference to None on every call that returns
    None when run on Python 3.11, so any Qt program aborts once None's count reaches zero
    ("none_dealloc: deallocating None"). Pin PySide6-Essentials below 6.12 on Python 3.11."""
    point = QPointF()
    before = sys.getrefcount(None)
    for _ in range(100):
        point.setX(1.0)
    lost = before - sys.getrefcount(None)
    assert lost < 10, f"each call returning None loses a reference to None ({lost} of 100)"
