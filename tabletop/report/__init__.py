"""Playtest sessions read from game files, and the report made of them (``tabletop sessions``,
``tabletop report``): ``sessions`` reads the games, ``data`` works out the report's numbers as
plain data, ``render`` draws them into HTML or PDF (the only part that needs matplotlib)."""
