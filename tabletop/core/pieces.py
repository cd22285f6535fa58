"""Pieces: everything that lies on the table and can be picked up.

A piece has a stable string id and a kind named by the module ("card", "cube",
"die", ...). What a piece *is* (a card's data row, a die's faces) lives in its
free properties; where it lies is its place, an optional spot inside that place
(a slot name, a board space, a region of a card) and, in free areas, x and y.
"""

from __future__ import annotations

from typing import Any

PIECE_FIELDS = ("id", "kind", "owner", "place", "spot", "x", "y", "face_up", "rotation", "value")


class Piece:
    """One piece on the table. Mutated only by commands."""

    __slots__ = (*PIECE_FIELDS, "props")

    def __init__(
        self,
        id: str,
        kind: str,
        *,
        owner: str | None = None,
        place: str | None = None,
        spot: str | None = None,
        x: float | None = None,
        y: float | None = None,
        face_up: bool = True,
        rotation: int = 0,
        value: Any = None,
        props: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.kind = kind
        self.owner = owner
        self.place = place
        self.spot = spot
        self.x = x
        self.y = y
        self.face_up = face_up
        self.rotation = rotation % 4
        self.value = value
        self.props = dict(props) if props else {}

    @property
    def faces(self) -> list[Any] | None:
        """A die's faces, when the piece is a die."""
        faces = self.props.get("faces")
        return list(faces) if faces is not None else None

    def copy(self) -> Piece:
        other = Piece.__new__(Piece)
        other.id, other.kind, other.owner = self.id, self.kind, self.owner
        other.place, other.spot, other.x, other.y = self.place, self.spot, self.x, self.y
        other.face_up, other.rotation, other.value = self.face_up, self.rotation, self.value
        other.props = {
            k: (list(v) if type(v) is list else dict(v) if type(v) is dict else v)
            for k, v in self.props.items()
        }
        return other

    def record(self) -> dict[str, Any]:
        """The piece's identity and looks, without where it lies (that belongs to moves).

        The record is the piece's own data: later changes to the piece do not reach it.
        """
        d: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.owner is not None:
            d["owner"] = self.owner
        if not self.face_up:
            d["face_up"] = False
        if self.rotation:
            d["rotation"] = self.rotation
        if self.value is not None:
            d["value"] = self.value
        if self.props:
            d["props"] = dict(self.props)
        return d

    def to_dict(self) -> dict[str, Any]:
        d = self.record()
        d["place"] = self.place
        if self.spot is not None:
            d["spot"] = self.spot
        if self.x is not None:
            d["x"] = self.x
            d["y"] = self.y
        return d

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Piece:
        # as Piece(...) with the record's fields, without the keyword call: every piece of a
        # setup is made here
        new = cls.__new__(cls)
        get = d.get
        new.id, new.kind, new.owner = d["id"], d["kind"], get("owner")
        new.place, new.spot, new.x, new.y = get("place"), get("spot"), get("x"), get("y")
        new.face_up, new.rotation, new.value = (
            get("face_up", True),
            get("rotation", 0) % 4,
            get("value"),
        )
        props = get("props")
        new.props = dict(props) if props else {}
        return new

    def __repr__(self) -> str:
        return f"Piece({self.id!r}, {self.kind!r}, place={self.place!r})"
