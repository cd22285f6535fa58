"""The screenshot's PNG writer (tabletop/ui/png.py): any reader gets the window's pixels back."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from tabletop.ui.png import png_bytes


def _picture(fmt: QImage.Format, width: int = 37, height: int = 23) -> QImage:
    """Flat areas, a gradient of greys, antialiased text edges and (with alpha) see-through
    pixels: what a window's picture holds, at an odd width (rows not a multiple of four)."""
    image = QImage(width, height, fmt)
    image.fill(QColor(40, 90, 160, 255))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for x in range(width):
        painter.setPen(QColor(x * 6 % 256, 200, 255 - x * 5 % 256, 255))
        painter.drawLine(x, 0, x, 4)
    painter.setBrush(QColor(250, 240, 200, 128))
    painter.drawEllipse(QRectF(8, 6, 20, 14))
    painter.setPen(Qt.GlobalColor.black)
    painter.drawText(QRectF(0, 10, width, 12), "Thule")
    painter.end()
    return image


def test_an_opaque_window_picture_reads_back_the_same_in_qt_and_pil(qapp) -> None:  # noqa: ANN001
    image = _picture(QImage.Format.Format_RGB32)
    data = png_bytes(image)
    back = QImage.fromData(data, "PNG")
    assert not back.hasAlphaChannel()
    assert back.convertToFormat(QImage.Format.Format_RGB32) == image
    pil = Image.open(io.BytesIO(data))
    assert pil.mode == "RGB" and pil.size == (image.width(), image.height())
    for x, y in ((0, 0), (5, 2), (18, 13), (36, 22)):
        colour = image.pixelColor(x, y)
        assert pil.getpixel((x, y)) == (colour.red(), colour.green(), colour.blue())


def test_a_picture_with_see_through_pixels_keeps_its_alpha(qapp) -> None:  # noqa: ANN001
    image = _picture(QImage.Format.Format_ARGB32)
    image.setPixelColor(3, 3, QColor(10, 20, 30, 0))
    image.setPixelColor(4, 3, QColor(10, 20, 30, 77))
    data = png_bytes(image)
    back = QImage.fromData(data, "PNG").convertToFormat(QImage.Format.Format_ARGB32)
    assert back == image
    pil = Image.open(io.BytesIO(data))
    assert pil.mode == "RGBA" and pil.getpixel((4, 3)) == (10, 20, 30, 77)


def test_an_empty_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="empty picture"):
        png_bytes(QImage())
