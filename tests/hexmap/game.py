"""The hex map's game interface: only its setup (the map is made there)."""

from __future__ import annotations

from typing import Any

from rules_assist.game import Game

from .setup import setup


class HexMapGame(Game):
    @property
    def setup(self) -> Any:  # type: ignore[override]
        return setup
