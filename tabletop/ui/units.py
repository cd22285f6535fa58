"""Scene units: module sizes are millimetres; the scene draws 4 units to the millimetre."""

PX_PER_MM = 4.0
DEFAULT_PIECE_MM = (20.0, 20.0)


def mm(value: float) -> float:
    """Millimetres in scene units."""
    return value * PX_PER_MM
