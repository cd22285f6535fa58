"""Scene units: module sizes are millimetres; the scene draws 4 units to the millimetre."""

PX_PER_MM = 4.0
DEFAULT_PIECE_MM = (20.0, 20.0)


def mm(value: float) -> float:
    """Millimetres in scene units."""
    return value * PX_PER_MM


def piece_size(module: object | None, kind: str) -> tuple[float, float]:
    """A piece kind's size in scene units (the module's millimetres, or the default)."""
    kinds = getattr(module, "kinds", None) or {}
    kind_def = kinds.get(kind)
    w, h = kind_def.size if kind_def is not None else DEFAULT_PIECE_MM
    return w * PX_PER_MM, h * PX_PER_MM
