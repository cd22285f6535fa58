"""Places: where pieces lie.

Every place is a container with an ordered list of piece ids. Its kind says what
that order and the spots mean:

========  =========================================================  ========
kind      what it is                                                 spots
========  =========================================================  ========
area      a free part of the table; pieces keep an x, y              none
slots     named snap slots (a card display, a track)                 slot names
row       an ordered line of positions (a row of biome cards)        none
stack     an ordered pile, the last id on top                        none
deck      a stack of cards that is shuffled, drawn and dealt         none
hand      cards private to the place's owner                         none
bowl      an unordered bin (a supply, a deadpile, a bowl)            none
board     the spaces of a board graph (hex grid, islands)            spaces
regions   named regions on a piece (ranks of an elder card); a       regions
          regions place is carried by its parent piece, so what
          lies in it moves along with the piece
========  =========================================================  ========

``capacity`` bounds how many pieces may lie in each spot (for kinds with spots)
or in the whole place (for the others); None means no bound.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .boards import BoardSpec
from .errors import FormatError
from .limits import LAYOUT_BOUND_TEXT, layout_number
from .textsafe import quoted

# The layout entries that are a position or a size (millimetres); other entries are settings.
LAYOUT_NUMBERS = ("x", "y", "w", "h", "cell")

if TYPE_CHECKING:
    import networkx as nx

KINDS = ("area", "slots", "row", "stack", "deck", "hand", "bowl", "board", "regions")
ORDERED_KINDS = frozenset({"row", "stack", "deck", "hand"})
SPOTTED_KINDS = frozenset({"slots", "board", "regions"})
PRIVATE_KINDS = frozenset({"hand"})


class Place:
    """A place on the table and the ids of what lies in it (bottom or first, first)."""

    __slots__ = (
        "id",
        "kind",
        "label",
        "owner",
        "capacity",
        "spots",
        "board",
        "parent",
        "layout",
        "props",
        "contents",
        "_graph",
        "spaces",
        "_spot_set",
    )

    def __init__(
        self,
        id: str,
        kind: str,
        *,
        label: str | None = None,
        owner: str | None = None,
        capacity: int | None = None,
        spots: list[str] | tuple[str, ...] | None = None,
        board: dict[str, Any] | None = None,
        parent: str | None = None,
        layout: dict[str, Any] | None = None,
        props: dict[str, Any] | None = None,
        contents: list[str] | None = None,
    ) -> None:
        if kind not in KINDS:
            raise FormatError(
                f"place {quoted(id)}: kind must be one of {', '.join(KINDS)}, not {quoted(kind)}"
            )
        if capacity is not None and (
            not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 0
        ):
            raise FormatError(
                f"place {quoted(id)}: capacity must be a whole number, not {capacity!r:.40}"
            )
        for key, value in (("label", label), ("owner", owner), ("parent", parent)):
            if value is not None and not isinstance(value, str):
                raise FormatError(f"place {quoted(id)}: its {key} must be text, not {value!r:.40}")
        if layout is not None and not isinstance(layout, dict):
            raise FormatError(f"place {quoted(id)}: its layout must be a table, not {layout!r:.40}")
        for key in LAYOUT_NUMBERS:
            if layout and key in layout and not layout_number(layout[key]):
                raise FormatError(
                    f"place {quoted(id)}: layout {key} must be {LAYOUT_BOUND_TEXT},"
                    f" not {layout[key]!r:.40}"
                )
        if props is not None and not isinstance(props, dict):
            raise FormatError(f"place {quoted(id)}: its props must be a table, not {props!r:.40}")
        if spots is not None and (
            not isinstance(spots, list | tuple) or not all(isinstance(s, str) for s in spots)
        ):
            raise FormatError(f"place {quoted(id)}: its spots must be a list of names (text)")
        self.id = id
        self.kind = kind
        self.label = label
        self.owner = owner
        self.capacity = capacity
        self.board = board
        self.parent = parent
        self.layout = dict(layout) if layout else {}
        self.props = dict(props) if props else {}
        self.contents: list[str] = list(contents) if contents else []
        self._graph: nx.Graph | None = None
        self.spaces: BoardSpec | None = None
        if kind == "board":
            if not isinstance(board, dict):
                raise FormatError(f"place {quoted(id)}: a board needs a 'board' spec")
            self.spaces = _board_spec(board)
            spots = list(self.spaces.nodes)
        elif kind in ("slots", "regions"):
            if not spots:
                raise FormatError(f"place {quoted(id)}: a {kind} place needs a list of spots")
        elif spots:
            raise FormatError(f"place {quoted(id)}: a {kind} place has no spots")
        self.spots: tuple[str, ...] = tuple(spots or ())
        self._spot_set = frozenset(self.spots)
        if len(self._spot_set) != len(self.spots):
            raise FormatError(f"place {quoted(id)}: spot names must be unique")
        if kind == "regions" and parent is None:
            raise FormatError(f"place {quoted(id)}: a regions place needs its parent piece")

    def copy(self) -> Place:
        """The same place with its own list of contents (specs and board graphs are shared: never changed)."""
        other = Place.__new__(Place)
        other.id, other.kind, other.label, other.owner = self.id, self.kind, self.label, self.owner
        other.capacity, other.spots, other.board, other.parent = (
            self.capacity,
            self.spots,
            self.board,
            self.parent,
        )
        other._graph, other.spaces, other._spot_set = self._graph, self.spaces, self._spot_set
        other.contents = list(self.contents)
        other.props = dict(self.props)
        other.layout = dict(self.layout)
        return other

    @property
    def ordered(self) -> bool:
        return self.kind in ORDERED_KINDS

    @property
    def private(self) -> bool:
        """Only its owner may see the faces of what lies here."""
        return self.kind in PRIVATE_KINDS

    @property
    def graph(self) -> nx.Graph:
        """The board graph (board places only)."""
        if self.spaces is None:
            raise AttributeError(f"place {self.id!r} is a {self.kind}, not a board")
        if self._graph is None:
            self._graph = self.spaces.graph()
        return self._graph

    def has_spot(self, spot: str | None) -> bool:
        if self.kind in SPOTTED_KINDS:
            return spot in self._spot_set
        return spot is None

    def spec(self) -> dict[str, Any]:
        """What the place is, without what lies in it."""
        d: dict[str, Any] = {"id": self.id, "kind": self.kind}
        for key in ("label", "owner", "capacity", "parent", "board"):
            value = getattr(self, key)
            if value is not None:
                d[key] = value
        if self.spots and self.kind != "board":
            d["spots"] = list(self.spots)
        if self.layout:
            d["layout"] = dict(self.layout)
        if self.props:
            d["props"] = dict(self.props)
        return d

    def to_dict(self) -> dict[str, Any]:
        d = self.spec()
        d["contents"] = list(self.contents)
        return d

    @classmethod
    def from_spec(cls, d: dict[str, Any], contents: list[str] | None = None) -> Place:
        if not isinstance(d, dict) or not isinstance(d.get("id"), str):
            raise FormatError(f"a place needs a string 'id', got {d!r:.80}")
        return cls(
            d["id"],
            d.get("kind", ""),
            label=d.get("label"),
            owner=d.get("owner"),
            capacity=d.get("capacity"),
            spots=d.get("spots"),
            board=d.get("board"),
            parent=d.get("parent"),
            layout=d.get("layout"),
            props=d.get("props"),
            contents=contents,
        )

    def __repr__(self) -> str:
        return f"Place({self.id!r}, {self.kind!r}, {len(self.contents)} pieces)"


@lru_cache(maxsize=64)
def _board_spec_cached(text: str) -> BoardSpec:
    import json

    return BoardSpec(json.loads(text))


def _board_spec(board: dict[str, Any]) -> BoardSpec:
    """Board specs are shared by every copy of a state (history, checkpoints): work each out once."""
    import json

    try:
        key = json.dumps(board, sort_keys=True)
    except (TypeError, ValueError):
        return BoardSpec(board)
    return _board_spec_cached(key)
