"""tabletop: a digital tabletop for playtesting rules-heavy board games."""

__version__ = "0.1.0"
