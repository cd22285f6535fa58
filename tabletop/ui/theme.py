"""Colours and fonts of the table."""

from PySide6.QtGui import QColor, QFont

FELT = QColor("#2f5d46")
FELT_DARK = QColor("#274e3b")
PANEL = QColor(255, 255, 255, 26)
PANEL_EDGE = QColor(255, 255, 255, 70)
LABEL = QColor(235, 245, 238, 190)
HIGHLIGHT = QColor("#ffd54a")
MARK = QColor("#7fd0ff")
FINDING = QColor("#e53935")
BOARD_CELL = QColor(233, 226, 200, 210)
BOARD_EDGE = QColor(60, 70, 60, 200)
RIVER = QColor("#3f8fd2")


def label_font(pixel_size: int, bold: bool = False) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(pixel_size)
    font.setBold(bold)
    return font
