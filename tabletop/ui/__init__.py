"""The table window (PySide6 Graphics View) over the Qt-free core."""
