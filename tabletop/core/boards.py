"""Board graphs: the spaces of a board and how they connect.

A board place keeps a plain, serializable spec; the networkx graph is built from
it on demand. Three shapes cover the games the table is built for:

- ``hex``: a hex grid of ``cols`` x ``rows`` in offset coordinates, spaces named
  ``"col,row"`` (pointy tops with odd rows shoved right, or flat tops with odd
  columns shoved down), e.g. a valley or a map of territories;
- ``grid``: a square grid, spaces ``"col,row"``, optionally with diagonals,
  e.g. a personal board;
- ``graph``: named nodes and edges, e.g. islands joined by ferry routes.

Every shape accepts ``remove`` (spaces cut out of an irregular map),
``node_attrs`` ({space: {attr: value}}) and ``edges`` / ``edge_attrs``
(extra edges, or attributes on existing ones such as a river between two spaces).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from .errors import FormatError

SHAPES = ("hex", "grid", "graph")


def _offset_hex_neighbours(c: int, r: int, orientation: str) -> list[tuple[int, int]]:
    if orientation == "pointy":  # odd rows shoved right
        if r % 2:
            deltas = [(1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1)]
        else:
            deltas = [(1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1)]
    else:  # flat tops, odd columns shoved down
        if c % 2:
            deltas = [(0, 1), (0, -1), (1, 0), (1, 1), (-1, 0), (-1, 1)]
        else:
            deltas = [(0, 1), (0, -1), (1, -1), (1, 0), (-1, -1), (-1, 0)]
    return [(c + dc, r + dr) for dc, dr in deltas]


def _int(spec: dict[str, Any], key: str) -> int:
    value = spec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise FormatError(
            f"board spec: '{key}' must be a whole number of at least 1, not {value!r}"
        )
    return value


class BoardSpec:
    """A board's spaces and edges, worked out from its spec in plain Python and checked.

    ``nodes`` maps each space to its attributes (``col`` and ``row`` on grids),
    ``edges`` maps each pair of spaces (in a stable order) to the edge's
    attributes. Views read these; rules get a networkx graph from ``graph()``.
    """

    __slots__ = ("shape", "nodes", "edges")

    def __init__(self, spec: dict[str, Any]) -> None:
        if not isinstance(spec, dict):
            raise FormatError("board spec: must be a table with 'shape'")
        shape = spec.get("shape")
        self.shape = shape
        self.nodes: dict[str, dict[str, Any]] = {}
        self.edges: dict[tuple[str, str], dict[str, Any]] = {}
        if shape == "hex":
            cols, rows = _int(spec, "cols"), _int(spec, "rows")
            orientation = spec.get("orientation", "pointy")
            if orientation not in ("pointy", "flat"):
                raise FormatError(
                    f"board spec: 'orientation' must be 'pointy' or 'flat', not {orientation!r}"
                )
            for r in range(rows):
                for c in range(cols):
                    self.nodes[f"{c},{r}"] = {"col": c, "row": r}
            for r in range(rows):
                for c in range(cols):
                    for nc, nr in _offset_hex_neighbours(c, r, orientation):
                        if 0 <= nc < cols and 0 <= nr < rows:
                            self._link(f"{c},{r}", f"{nc},{nr}", {})
        elif shape == "grid":
            cols, rows = _int(spec, "cols"), _int(spec, "rows")
            diagonal = bool(spec.get("diagonal", False))
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
                raise FormatError("board spec: a 'graph' board needs a non-empty list 'nodes'")
            for node in nodes:
                if isinstance(node, str):
                    self.nodes[node] = {}
                elif isinstance(node, dict) and isinstance(node.get("id"), str):
                    self.nodes[node["id"]] = {k: v for k, v in node.items() if k != "id"}
                else:
                    raise FormatError(
                        f"board spec: a node must be a name or a table with 'id', not {node!r}"
                    )
        else:
            raise FormatError(
                f"board spec: 'shape' must be one of {', '.join(SHAPES)}, not {shape!r}"
            )

        for name in spec.get("remove", []):
            if name not in self.nodes:
                raise FormatError(f"board spec: cannot remove unknown space {name!r}")
            del self.nodes[name]
            self.edges = {pair: attrs for pair, attrs in self.edges.items() if name not in pair}
        for name, attrs in spec.get("node_attrs", {}).items():
            if name not in self.nodes:
                raise FormatError(f"board spec: node_attrs names unknown space {name!r}")
            self.nodes[name].update(attrs)
        for key in ("edges", "edge_attrs"):
            for edge in spec.get(key, []):
                if not isinstance(edge, dict) or "a" not in edge or "b" not in edge:
                    raise FormatError(
                        f"board spec: each of '{key}' needs 'a' and 'b', not {edge!r}"
                    )
                a, b = edge["a"], edge["b"]
                for end in (a, b):
                    if end not in self.nodes:
                        raise FormatError(f"board spec: {key} names unknown space {end!r}")
                if key == "edge_attrs" and _pair(a, b) not in self.edges:
                    raise FormatError(
                        f"board spec: edge_attrs names spaces {a!r} and {b!r}, which do not touch"
                    )
                self._link(a, b, {k: v for k, v in edge.items() if k not in ("a", "b")})

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
