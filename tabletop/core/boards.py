"""Board graphs: the spaces of a board and how they connect.

A board place keeps a plain, serializable spec; the networkx graph is built from
it on demand. Three shapes cover the games the table is built for:

- ``hex``: a hex grid of ``cols`` x ``rows`` in offset coordinates, spaces named
  ``"col,row"`` (pointy tops with odd rows shoved right, or flat tops with odd
  columns shoved down; ``offset = "even"`` shoves the even ones instead), e.g. a
  valley or a map of territories; or, with ``coords = "axial"``, any set of hexes
  listed as ``spaces = ["q,r", ...]`` (a map put together at setup from turned
  pieces), joined where they touch (hexes.py has the geometry);
- ``grid``: a square grid, spaces ``"col,row"``, optionally with diagonals,
  e.g. a personal board;
- ``graph``: named nodes and edges, e.g. islands joined by ferry routes.

Every shape accepts ``remove`` (spaces cut out of an irregular map),
``node_attrs`` ({space: {attr: value}}) and ``edges`` / ``edge_attrs``
(extra edges, or attributes on existing ones such as a river between two spaces),
and a ``style`` (how the window colours the spaces by one node attribute:
``{attr, colours, letters, icons}``; checked here, drawn by the window).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from . import hexes
from .errors import FormatError
from .limits import MAX_BOARD_SPACES

SHAPES = ("hex", "grid", "graph")
COORDS = ("offset", "axial")
# Every field a board spec may have (the manifest names any other as a mistake).
FIELDS = frozenset(
    {
        "shape",
        "cols",
        "rows",
        "orientation",
        "offset",
        "coords",
        "spaces",
        "diagonal",
        "nodes",
        "remove",
        "node_attrs",
        "edges",
        "edge_attrs",
        "style",
    }
)
STYLE_FIELDS = frozenset({"attr", "colours", "letters", "icons"})


@functools.cache
def _colour() -> re.Pattern[str]:
    """A colour as a board style writes one. Compiled when a style names colours: most boards
    name none (the start's do not)."""
    return re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


class BoardSpecError(FormatError):
    """A bad board spec; ``field`` is where in the spec, e.g. ('style', 'colours', 'wood')."""

    def __init__(self, message: str, *field: str) -> None:
        super().__init__(f"board spec: {message}")
        self.message = message
        self.field = tuple(field)


def _int(spec: dict[str, Any], key: str) -> int:
    value = spec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BoardSpecError(
            f"'{key}' must be a whole number of at least 1, not {_show(value)}", key
        )
    return value


def _show(value: Any) -> str:
    """A value from a spec, cut short for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _size(cols: int, rows: int) -> None:
    """A grid of cols x rows within the limit on board spaces (tabletop/core/limits.py)."""
    if cols * rows > MAX_BOARD_SPACES:
        raise BoardSpecError(
            f"a board of {cols} x {rows} spaces is larger than the limit of"
            f" {MAX_BOARD_SPACES:,} spaces",
            "cols",
        )


def _names(spec: dict[str, Any], key: str, what: str) -> list[str]:
    """A list of space names (text), or [] when the field is absent."""
    value = spec.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise BoardSpecError(f"'{key}' must be a list of {what}, not {_show(value)}", key)
    return value


def _space(spec_key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise BoardSpecError(f"{spec_key} must name spaces as text, not {_show(value)}", spec_key)
    return value


def check_style(style: Any) -> dict[str, Any]:
    """Check a board's ``style`` table; returns it. Colours are '#rgb', '#rrggbb' or
    '#aarrggbb'; letters are short texts; icons name a picture of the module
    (``icons/<name>.svg``)."""
    if not isinstance(style, dict):
        raise BoardSpecError(f"'style' must be a table with 'attr', not {style!r}", "style")
    for key in style:
        if key not in STYLE_FIELDS:
            raise BoardSpecError(
                f"'style' has no field {key!r} (its fields: {', '.join(sorted(STYLE_FIELDS))})",
                "style",
                str(key),
            )
    attr = style.get("attr")
    if not isinstance(attr, str) or not attr:
        raise BoardSpecError(
            f"'style.attr' must name a node attribute, e.g. 'terrain', not {attr!r}",
            "style",
            "attr",
        )
    for key in ("colours", "letters", "icons"):
        table = style.get(key, {})
        if not isinstance(table, dict):
            raise BoardSpecError(
                f"'style.{key}' must be a table of {attr} value = text, not {table!r}",
                "style",
                key,
            )
        for value, text in table.items():
            where = ("style", key, str(value))
            if not isinstance(text, str) or not text:
                raise BoardSpecError(f"'style.{key}.{value}' must be text, not {text!r}", *where)
            if key == "colours" and not _colour().match(text):
                raise BoardSpecError(
                    f"'style.colours.{value}' must be a colour like '#3c6e2f', not {text!r}",
                    *where,
                )
            if key == "letters" and len(text) > 3:
                raise BoardSpecError(
                    f"'style.letters.{value}' must be at most 3 letters, not {text!r}", *where
                )
            if key == "icons" and ("/" in text or "\\" in text or text.startswith(".")):
                raise BoardSpecError(
                    f"'style.icons.{value}' must be an icon's name (icons/<name>.svg), not {text!r}",
                    *where,
                )
    return style


class BoardSpec:
    """A board's spaces and edges, worked out from its spec in plain Python and checked.

    ``nodes`` maps each space to its attributes (``col`` and ``row`` on grids),
    ``edges`` maps each pair of spaces (in a stable order) to the edge's
    attributes. Views read these; rules get a networkx graph from ``graph()``.
    """

    __slots__ = ("shape", "nodes", "edges", "orientation", "offset", "coords", "style")

    def __init__(self, spec: dict[str, Any]) -> None:
        if not isinstance(spec, dict):
            raise BoardSpecError("must be a table with 'shape'")
        shape = spec.get("shape")
        self.shape = shape
        self.nodes: dict[str, dict[str, Any]] = {}
        self.edges: dict[tuple[str, str], dict[str, Any]] = {}
        self.orientation: str | None = None
        self.offset: str | None = None
        self.coords: str | None = None
        self.style: dict[str, Any] | None = None
        if shape == "hex":
            self._hex(spec)
        elif shape == "grid":
            cols, rows = _int(spec, "cols"), _int(spec, "rows")
            _size(cols, rows)
            diagonal = spec.get("diagonal", False)
            if not isinstance(diagonal, bool):
                raise BoardSpecError(
                    f"'diagonal' must be true or false, not {_show(diagonal)}", "diagonal"
                )
            for r in range(rows):
                for c in range(cols):
                    self.nodes[f"{c},{r}"] = {"col": c, "row": r}
            steps = [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonal else [])
            for r in range(rows):
                for c in range(cols):
                    for dc, dr in steps:
                        nc, nr = c + dc, r + dr
                        if 0 <= nc < cols and 0 <= nr < rows:
                            self._link(f"{c},{r}", f"{nc},{nr}", {})
        elif shape == "graph":
            nodes = spec.get("nodes")
            if not isinstance(nodes, list) or not nodes:
                raise BoardSpecError("a 'graph' board needs a non-empty list 'nodes'", "nodes")
            if len(nodes) > MAX_BOARD_SPACES:
                raise BoardSpecError(
                    f"a board of {len(nodes):,} spaces is larger than the limit of"
                    f" {MAX_BOARD_SPACES:,} spaces",
                    "nodes",
                )
            for node in nodes:
                if isinstance(node, str):
                    self.nodes[node] = {}
                elif isinstance(node, dict) and isinstance(node.get("id"), str):
                    if node["id"] in self.nodes:
                        raise BoardSpecError(f"the node {node['id']!r} is listed twice", "nodes")
                    self.nodes[node["id"]] = {k: v for k, v in node.items() if k != "id"}
                else:
                    raise BoardSpecError(
                        f"a node must be a name or a table with 'id', not {_show(node)}", "nodes"
                    )
        else:
            raise BoardSpecError(
                f"'shape' must be one of {', '.join(SHAPES)}, not {shape!r}", "shape"
            )

        removed = set(_names(spec, "remove", "spaces"))
        for name in removed:
            if name not in self.nodes:
                raise BoardSpecError(f"cannot remove unknown space {_show(name)}", "remove")
            del self.nodes[name]
        if removed:  # one pass over the edges, however many spaces go
            self.edges = {
                pair: attrs
                for pair, attrs in self.edges.items()
                if pair[0] not in removed and pair[1] not in removed
            }
        node_attrs = spec.get("node_attrs", {})
        if not isinstance(node_attrs, dict):
            raise BoardSpecError(
                f"'node_attrs' must be a table of spaces, not {_show(node_attrs)}", "node_attrs"
            )
        for name, attrs in node_attrs.items():
            if name not in self.nodes:
                raise BoardSpecError(f"node_attrs names unknown space {_show(name)}", "node_attrs")
            if not isinstance(attrs, dict):
                raise BoardSpecError(
                    f"node_attrs of {name!r} must be a table of attributes, not {_show(attrs)}",
                    "node_attrs",
                    name,
                )
            self.nodes[name].update(attrs)
        for key in ("edges", "edge_attrs"):
            edges = spec.get(key, [])
            if not isinstance(edges, list):
                raise BoardSpecError(
                    f"'{key}' must be a list of tables with 'a' and 'b', not {_show(edges)}", key
                )
            for edge in edges:
                if not isinstance(edge, dict) or "a" not in edge or "b" not in edge:
                    raise BoardSpecError(
                        f"each of '{key}' needs 'a' and 'b', not {_show(edge)}", key
                    )
                a, b = _space(key, edge["a"]), _space(key, edge["b"])
                for end in (a, b):
                    if end not in self.nodes:
                        raise BoardSpecError(f"{key} names unknown space {_show(end)}", key)
                if key == "edge_attrs" and _pair(a, b) not in self.edges:
                    raise BoardSpecError(
                        f"edge_attrs names spaces {a!r} and {b!r}, which do not touch", key
                    )
                self._link(a, b, {k: v for k, v in edge.items() if k not in ("a", "b")})
        if "style" in spec:
            self.style = check_style(spec["style"])

    def _hex(self, spec: dict[str, Any]) -> None:
        """A hex board: an offset grid of cols x rows, or a list of axial spaces."""
        orientation = spec.get("orientation", "pointy")
        if orientation not in hexes.ORIENTATIONS:
            raise BoardSpecError(
                f"'orientation' must be 'pointy' or 'flat', not {orientation!r}", "orientation"
            )
        coords = spec.get("coords", "offset")
        if coords not in COORDS:
            raise BoardSpecError(f"'coords' must be 'offset' or 'axial', not {coords!r}", "coords")
        self.orientation, self.coords = orientation, coords
        if coords == "axial":
            for key in ("cols", "rows", "offset"):
                if key in spec:
                    raise BoardSpecError(
                        f"'{key}' is for offset grids; an axial board lists its 'spaces'", key
                    )
            spaces = spec.get("spaces")
            if not isinstance(spaces, list) or not spaces:
                raise BoardSpecError(
                    "an axial hex board needs a non-empty list 'spaces' of \"q,r\"", "spaces"
                )
            if len(spaces) > MAX_BOARD_SPACES:
                raise BoardSpecError(
                    f"a board of {len(spaces):,} spaces is larger than the limit of"
                    f" {MAX_BOARD_SPACES:,} spaces",
                    "spaces",
                )
            placed: dict[tuple[int, int], str] = {}
            for space in spaces:
                try:
                    q, r = hexes.parse(space)
                except ValueError as exc:
                    raise BoardSpecError(f"a space in 'spaces': {exc}", "spaces") from None
                if space in self.nodes:
                    raise BoardSpecError(f"the space {space!r} is listed twice", "spaces")
                self.nodes[space] = {"q": q, "r": r}
                placed[(q, r)] = space
            for (q, r), space in placed.items():
                for other in hexes.neighbours((q, r)):
                    if other in placed:
                        self._link(space, placed[other], {})
            return
        if "spaces" in spec:
            raise BoardSpecError(
                "'spaces' lists the hexes of an axial board (coords = 'axial')", "spaces"
            )
        offset = spec.get("offset", "odd")
        if offset not in hexes.OFFSETS:
            raise BoardSpecError(f"'offset' must be 'odd' or 'even', not {offset!r}", "offset")
        self.offset = offset
        cols, rows = _int(spec, "cols"), _int(spec, "rows")
        _size(cols, rows)
        for r in range(rows):
            for c in range(cols):
                self.nodes[f"{c},{r}"] = {"col": c, "row": r}
        for r in range(rows):
            for c in range(cols):
                for nc, nr in hexes.offset_neighbours((c, r), offset, orientation):
                    if 0 <= nc < cols and 0 <= nr < rows:
                        self._link(f"{c},{r}", f"{nc},{nr}", {})

    def axial(self, space: str) -> tuple[int, int]:
        """The axial hex of a space of a hex board."""
        data = self.nodes[space]
        if self.coords == "axial":
            return data["q"], data["r"]
        return hexes.offset_to_axial(
            (data["col"], data["row"]), self.offset or "odd", self.orientation or "pointy"
        )

    def _link(self, a: str, b: str, attrs: dict[str, Any]) -> None:
        self.edges.setdefault(_pair(a, b), {}).update(attrs)

    def graph(self) -> nx.Graph:
        """The board as a networkx graph (imported on first use: views never need it)."""
        import networkx

        g = networkx.Graph()
        for name, attrs in self.nodes.items():
            g.add_node(name, **attrs)
        for (a, b), attrs in self.edges.items():
            g.add_edge(a, b, **attrs)
        return g


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def build_graph(spec: dict[str, Any]) -> nx.Graph:
    """Build the board's graph from its spec; raise FormatError naming the bad field."""
    return BoardSpec(spec).graph()
