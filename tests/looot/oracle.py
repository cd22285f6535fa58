"""Game Park's Looot engine as an oracle: running it, reading its transcripts, comparing.

The oracle is a Node program (``looot-oracle.cjs``) that plays random legal games with Game
Park's rules and prints each one as a transcript in a neutral notation, one JSON object per
line (JSON Lines): ``"type":"game"`` (a transcript), ``"type":"crashed"`` (a game Game Park's
engine itself failed on, skipped) and a last ``"type":"summary"``. It is test data only: the
program never runs Node.

Where the oracle is found: the environment variable ``LOOOT_ORACLE`` (the ``.cjs`` file),
else ``../shared/looot-oracle/looot-oracle.cjs`` beside the repository's main checkout.
``LOOOT_ORACLE_SEED`` and ``LOOOT_ORACLE_GAMES`` set the seed and the games per player count
of the runs the agreement tests make.

The notation, in short (the fixtures' README has the whole of it):

- the landscape is axial ``q,r`` for flat-topped hexes; a board's own cells (``local``) are
  even-q offset ``col,row``; a fjord space is even-q ``col,row``;
- a move has a ``code``: ``shield DoubleGain``, ``viking 3,-2``, ``place sheep 0,2``,
  ``place house 6,1 from 0,1``, ``longship 513 1,4 from 4,1``, ``trophy 3``, ``pass``;
- ``legal`` is the number of distinct legal moves before the move, ``options`` their sorted
  codes (on the first moves of a game only), ``gain`` the tiles a Viking earned,
  ``completes`` the sites and longships a move completed, ``discarded`` tiles lost to a full
  fjord, and on ``pass`` the ``refill``, every player's ``scores`` and the ``next`` player;
- ``result`` gives each player's score by category, and ``winners``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from rules_assist.looot.layout import Hex, Layout, cell_of
from rules_assist.looot.moves import legal_codes, looot_game, play_code
from rules_assist.looot.reading import Looot, fjord, gained
from rules_assist.looot.scoring import breakdown, winners
from rules_assist.looot.setup import start_from_layout
from rules_assist.procedures import ProcedureError
from tabletop.core import Command, Compound, Table
from tabletop.core import Move as Shift

Axial = tuple[int, int]
Cell = tuple[int, int]

ORACLE_ENV = "LOOOT_ORACLE"
SEED_ENV = "LOOOT_ORACLE_SEED"
GAMES_ENV = "LOOOT_ORACLE_GAMES"
REPOSITORY = Path(__file__).resolve().parents[2]
FIXTURES = REPOSITORY / "tests" / "fixtures" / "looot"
ORACLE_FILE = Path("looot-oracle") / "looot-oracle.cjs"

KINDS = ("shield", "viking", "place", "longship", "trophy", "pass")
SEATS = ("blue", "red", "grey", "yellow")  # the oracle's player k is the k-th seat


class OracleError(RuntimeError):
    """The oracle could not be run, or printed something that is not its notation."""


# ---- finding and running the oracle ---------------------------------------------------------
def _main_checkout() -> Path:
    """The repository's main checkout: this one, or the one a linked worktree belongs to."""
    marker = REPOSITORY / ".git"
    if marker.is_file():  # a linked worktree: "gitdir: <main>/.git/worktrees/<name>"
        text = marker.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.split(":", 1)[1].strip())
            if gitdir.parent.name == "worktrees" and gitdir.parent.parent.name == ".git":
                return gitdir.parent.parent.parent
    return REPOSITORY


def oracle_path() -> Path | None:
    """The oracle's ``.cjs`` file: ``LOOOT_ORACLE`` if set, else ``../shared/looot-oracle/``
    beside the main checkout; None when it is not there."""
    named = os.environ.get(ORACLE_ENV)
    if named:
        path = Path(named).expanduser()
        return path if path.is_file() else None
    for root in (REPOSITORY, _main_checkout()):
        path = root.parent / "shared" / ORACLE_FILE
        if path.is_file():
            return path
    return None


def unavailable() -> str | None:
    """Why the oracle cannot run here (for a test's skip), or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed, so Game Park's engine (the Looot oracle) cannot run"
    if oracle_path() is None:
        named = os.environ.get(ORACLE_ENV)
        if named:
            return f"{ORACLE_ENV}={named} is not a file"
        return (
            f"the Looot oracle is not at ../shared/{ORACLE_FILE} beside the repository; "
            f"set {ORACLE_ENV} to its looot-oracle.cjs"
        )
    return None


def env_int(name: str, default: int) -> int:
    """A whole number from the environment, with a plain error for anything else."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise OracleError(f"{name}={text!r} is not a whole number") from None
    if value < 0:
        raise OracleError(f"{name}={text!r} must not be negative")
    return value


def oracle_command(
    players: int,
    games: int,
    seed: int,
    *,
    legal_lists: int | str = 0,
    longships: str = "few",
) -> list[str]:
    path = oracle_path()
    if path is None:
        raise OracleError(unavailable() or "the Looot oracle is not available")
    return [
        shutil.which("node") or "node",
        str(path),
        "random",
        "--players",
        str(players),
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--longships",
        longships,
        "--legal-lists",
        str(legal_lists),
    ]


def stream_oracle(
    players: int,
    games: int,
    seed: int,
    *,
    legal_lists: int | str = 0,
    longships: str = "few",
    timeout: float | None = None,
) -> Iterator[Record]:
    """Run the oracle and yield its records as it prints them (so that reading them overlaps
    with the oracle's own work). ``OracleError`` with one plain line if it fails, prints
    something else than its notation, or takes longer than ``timeout`` seconds (by default
    60 s plus 5 s a game, as the reader may be slow)."""
    command = oracle_command(players, games, seed, legal_lists=legal_lists, longships=longships)
    limit = timeout if timeout is not None else 60.0 + 5.0 * games
    what = f"the Looot oracle (players {players}, games {games}, seed {seed})"
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, text=True
        )
        expired = threading.Event()

        def stop() -> None:
            expired.set()
            process.kill()

        timer = threading.Timer(limit, stop)
        timer.start()
        try:
            assert process.stdout is not None
            for number, line in enumerate(process.stdout, start=1):
                if line.strip():
                    yield parse_record(line, where=f"{what}, line {number}")
            code = process.wait()
        finally:
            timer.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if expired.is_set():
            raise OracleError(f"{what} did not finish within {limit:g} s")
        if code != 0:
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip().splitlines()
            raise OracleError(
                f"{what} failed (exit code {code}): {message[-1] if message else 'no message'}"
            )


def run_oracle(players: int, games: int, seed: int, **options) -> list[Record]:
    """Every record of one oracle run (see ``stream_oracle``)."""
    return list(stream_oracle(players, games, seed, **options))


# ---- the records --------------------------------------------------------------------------
@dataclass(frozen=True)
class Tiles:
    """Tiles taken by a move: resources by type, buildings with the stack each came from."""

    resources: tuple[str, ...] = ()
    buildings: tuple[tuple[str, Axial], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.resources or self.buildings)

    def sorted(self) -> Tiles:
        """The same tiles in a fixed order (the comparison ignores the order)."""
        return Tiles(tuple(sorted(self.resources)), tuple(sorted(self.buildings)))

    def __str__(self) -> str:
        parts = list(self.resources) + [f"{tile} from {key(h)}" for tile, h in self.buildings]
        return "[" + ", ".join(parts) + "]" if parts else "nothing"


@dataclass(frozen=True)
class Completes:
    """The sites (by name) and longships (by id) that one move completed for its player."""

    sites: tuple[str, ...] = ()
    longships: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sites or self.longships)

    def sorted(self) -> Completes:
        return Completes(tuple(sorted(self.sites)), tuple(sorted(self.longships)))

    def __str__(self) -> str:
        parts = list(self.sites) + [f"longship {n}" for n in self.longships]
        return "[" + ", ".join(parts) + "]" if parts else "nothing"


@dataclass(frozen=True)
class Refill:
    """The longship drawn from the bag onto an emptied water space at the end of a turn."""

    hex: Axial
    longship: int

    def __str__(self) -> str:
        return f"longship {self.longship} onto {key(self.hex)}"


@dataclass(frozen=True)
class Move:
    """One move of a transcript, with what the oracle saw around it."""

    n: int
    player: int
    kind: str
    code: str
    legal: int  # distinct legal moves before it
    gp_legal: int | None = None  # Game Park's own count, when it held duplicates
    options: tuple[str, ...] | None = None  # the sorted legal codes, on the first moves only
    # parameters, by kind
    shield: str | None = None
    hex: Axial | None = None  # viking
    tile: str | None = None  # place
    fjord: Cell | None = None  # place, longship
    source: Axial | None = None  # place (a building's stack), longship (its water space)
    longship: int | None = None
    trophy: int | None = None
    # effects
    gain: Tiles | None = None  # viking
    discarded: Tiles = Tiles()
    completes: Completes = Completes()
    refill: Refill | None = None  # pass
    scores: tuple[int, ...] | None = None  # pass: every player's total after the turn
    next_player: int | None = None  # pass: None when the game is over


@dataclass(frozen=True)
class TileScore:
    count: int
    value: int  # base value plus the bonuses of completed longships of that type
    points: int


@dataclass(frozen=True)
class SiteScore:
    site: str
    completed: bool
    points: int


@dataclass(frozen=True)
class PlayerResult:
    """A player's final score, by category (Game Park's five terms sum to ``total``)."""

    player: int
    total: int
    gp_score: int
    tie_breaker: int
    tiles: Mapping[str, TileScore]
    sites: Mapping[str, SiteScore]  # port | altar | palace
    trophy: tuple[int, int] | None  # (axes needed, points)
    longships_completed: tuple[int, ...]
    longships_incomplete: tuple[int, ...]
    longship_penalty: int
    categories: Mapping[str, int]  # resources buildings sites trophy longshipPenalty
    fjord_tiles_used: int
    rank: int


@dataclass(frozen=True)
class Setup:
    """A transcript's setup, as printed."""

    boards: tuple[tuple[str, Axial, int], ...]
    hexes: Mapping[Axial, Hex]
    ocean: tuple[tuple[Axial, int | None], ...]  # water spaces 0..4
    bag: tuple[int, ...]
    trophies: tuple[tuple[int, int, Axial], ...]  # (axes needed, points, hex)
    stacks: Mapping[Axial, tuple[str, int]]
    sites: tuple[tuple[str, str, str], ...]  # per player in order: (port, altar, palace)
    fjord_sites: Mapping[str, Cell]
    fjord_free: tuple[Cell, ...]
    vikings: int
    shields: tuple[str, ...]
    supply: Mapping[str, int]
    first_player: int


@dataclass(frozen=True)
class Transcript:
    """One game the oracle played to its end."""

    game: int
    seed: int
    players: int
    longships: str
    setup: Setup
    moves: tuple[Move, ...]
    result: tuple[PlayerResult, ...]
    winners: tuple[int, ...]
    anomalies: tuple[str, ...] = ()

    def label(self) -> str:
        return f"seed {self.seed} ({self.players} players)"


@dataclass(frozen=True)
class Crashed:
    """A game Game Park's engine failed on: not transcribed, skipped by the comparison."""

    game: int
    seed: int
    players: int
    stage: str
    known: str | None
    message: str
    moves: int
    longships: str = "few"


@dataclass(frozen=True)
class Summary:
    players: int
    seed: int
    games: int
    normal: int
    crashed: int
    crashes: Mapping[str, int] = field(default_factory=dict)


Record = Transcript | Crashed | Summary


# ---- parsing ------------------------------------------------------------------------------
def key(cell: Sequence[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def _pair(value, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise OracleError(f"{where}: {value!r} is not a pair of whole numbers")
    return value[0], value[1]


def _get(data: Mapping, name: str, where: str, kind: type | tuple = int):
    if name not in data:
        raise OracleError(f"{where}: no '{name}'")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise OracleError(f"{where}: '{name}' is {value!r}")
    return value


def _tiles(data: Mapping | None, where: str) -> Tiles:
    if not data:
        return Tiles()
    return Tiles(
        tuple(_get(data, "resources", where, list)),
        tuple(
            (_get(b, "tile", where, str), _pair(b.get("from"), f"{where}, building"))
            for b in _get(data, "buildings", where, list)
        ),
    )


def move_code(move: Move) -> str:
    """The code of a move, written from its parameters (the notation's table)."""
    if move.kind == "shield":
        return f"shield {move.shield}"
    if move.kind == "viking":
        return f"viking {key(move.hex)}"
    if move.kind == "place":
        code = f"place {move.tile} {key(move.fjord)}"
        return f"{code} from {key(move.source)}" if move.source is not None else code
    if move.kind == "longship":
        return f"longship {move.longship} {key(move.fjord)} from {key(move.source)}"
    if move.kind == "trophy":
        return f"trophy {move.trophy}"
    return "pass"


def parse_move(data: Mapping, where: str) -> Move:
    where = f"{where}, move {data.get('n', '?')}"
    kind = _get(data, "kind", where, str)
    if kind not in KINDS:
        raise OracleError(f"{where}: unknown kind {kind!r}")
    options = data.get("options")
    completes = data.get("completes") or {}
    refill = data.get("refill")
    scores = data.get("scores")
    move = Move(
        n=_get(data, "n", where),
        player=_get(data, "player", where),
        kind=kind,
        code=_get(data, "code", where, str),
        legal=_get(data, "legal", where),
        gp_legal=data.get("gpLegal"),
        options=tuple(options) if options is not None else None,
        shield=_get(data, "shield", where, str) if kind == "shield" else None,
        hex=_pair(data.get("hex"), f"{where}, hex") if kind == "viking" else None,
        tile=_get(data, "tile", where, str) if kind == "place" else None,
        fjord=_pair(data.get("fjord"), f"{where}, fjord")
        if kind in ("place", "longship")
        else None,
        source=_pair(data["from"], f"{where}, from") if "from" in data else None,
        longship=_get(data, "longship", where) if kind == "longship" else None,
        trophy=_get(data, "trophy", where) if kind == "trophy" else None,
        gain=_tiles(_get(data, "gain", where, dict), where) if kind == "viking" else None,
        discarded=_tiles(data.get("discarded"), f"{where}, discarded"),
        completes=Completes(
            tuple(completes.get("sites", ())), tuple(completes.get("longships", ()))
        ),
        refill=(
            Refill(_pair(refill.get("hex"), f"{where}, refill"), _get(refill, "longship", where))
            if refill
            else None
        ),
        scores=tuple(scores) if scores is not None else None,
        next_player=data.get("next"),
    )
    if kind == "longship" and move.source is None:
        raise OracleError(f"{where}: a longship move without 'from'")
    if kind == "pass" and (move.scores is None or "next" not in data):
        raise OracleError(f"{where}: a pass without 'scores' and 'next'")
    if move_code(move) != move.code:
        raise OracleError(f"{where}: code {move.code!r} does not match its fields")
    return move


def parse_setup(data: Mapping, where: str) -> Setup:
    where = f"{where}, setup"
    hexes: dict[Axial, Hex] = {}
    for h in _get(data, "hexes", where, list):
        cell = (_get(h, "q", where), _get(h, "r", where))
        if cell in hexes:
            raise OracleError(f"{where}: hex {key(cell)} comes twice")
        hexes[cell] = Hex(
            _get(h, "terrain", where, str),
            _get(h, "board", where, str),
            _pair(h.get("local"), f"{where}, hex {key(cell)}"),
        )
    ocean = sorted(_get(data, "ocean", where, list), key=lambda o: o["space"])
    if [o["space"] for o in ocean] != [0, 1, 2, 3, 4]:
        raise OracleError(f"{where}: the ocean spaces are not 0..4")
    sites = sorted(_get(data, "sites", where, list), key=lambda s: s["player"])
    fjord = _get(data, "fjord", where, dict)
    return Setup(
        boards=tuple(
            (
                _get(b, "board", where, str),
                _pair(b.get("origin"), f"{where}, board"),
                _get(b, "rotation", where),
            )
            for b in _get(data, "boards", where, list)
        ),
        hexes=MappingProxyType(hexes),
        ocean=tuple((_pair(o["hex"], f"{where}, ocean"), o.get("longship")) for o in ocean),
        bag=tuple(_get(data, "bag", where, list)),
        trophies=tuple(
            (
                _get(t, "axes", where),
                _get(t, "points", where),
                _pair(t.get("hex"), f"{where}, trophy"),
            )
            for t in _get(data, "trophies", where, list)
        ),
        stacks=MappingProxyType(
            {
                _pair(s.get("hex"), f"{where}, stack"): (
                    _get(s, "building", where, str),
                    _get(s, "tiles", where),
                )
                for s in _get(data, "stacks", where, list)
            }
        ),
        sites=tuple((s["port"], s["altar"], s["palace"]) for s in sites),
        fjord_sites=MappingProxyType(
            {name: _pair(cell, f"{where}, fjord") for name, cell in fjord["sites"].items()}
        ),
        fjord_free=tuple(_pair(c, f"{where}, fjord") for c in fjord["free"]),
        vikings=_get(data, "vikings", where),
        shields=tuple(_get(data, "shields", where, list)),
        supply=MappingProxyType(dict(_get(data, "supply", where, dict))),
        first_player=_get(data, "firstPlayer", where),
    )


def parse_result(data: Mapping, where: str) -> PlayerResult:
    where = f"{where}, result of player {data.get('player', '?')}"
    trophy = data.get("trophy")
    ships = _get(data, "longships", where, dict)
    return PlayerResult(
        player=_get(data, "player", where),
        total=_get(data, "total", where),
        gp_score=_get(data, "gpScore", where),
        tie_breaker=_get(data, "tieBreaker", where),
        tiles=MappingProxyType(
            {
                tile: TileScore(s["count"], s["value"], s["points"])
                for tile, s in _get(data, "tiles", where, dict).items()
            }
        ),
        sites=MappingProxyType(
            {
                kind: SiteScore(s["site"], bool(s["completed"]), s["points"])
                for kind, s in _get(data, "sites", where, dict).items()
            }
        ),
        trophy=(trophy["trophy"], trophy["points"]) if trophy else None,
        longships_completed=tuple(ships["completed"]),
        longships_incomplete=tuple(ships["incomplete"]),
        longship_penalty=ships["penalty"],
        categories=MappingProxyType(dict(_get(data, "categories", where, dict))),
        fjord_tiles_used=_get(data, "fjordTilesUsed", where),
        rank=_get(data, "rank", where),
    )


def parse_record(line: str, where: str = "oracle output") -> Record:
    """One line of the oracle's output as a typed record; ``OracleError`` naming ``where``
    for anything that is not the notation."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise OracleError(f"{where}: not JSON ({error.msg}, column {error.colno})") from None
    if not isinstance(data, dict):
        raise OracleError(f"{where}: not a JSON object")
    kind = data.get("type")
    if kind == "game":
        where = f"{where} (seed {data.get('seed', '?')})"
        return Transcript(
            game=_get(data, "game", where),
            seed=_get(data, "seed", where),
            players=_get(data, "players", where),
            longships=_get(data, "longships", where, str),
            setup=parse_setup(_get(data, "setup", where, dict), where),
            moves=tuple(parse_move(m, where) for m in _get(data, "moves", where, list)),
            result=tuple(parse_result(r, where) for r in _get(data, "result", where, list)),
            winners=tuple(_get(data, "winners", where, list)),
            anomalies=tuple(data.get("anomalies", ())),
        )
    if kind == "crashed":
        return Crashed(
            game=_get(data, "game", where),
            seed=_get(data, "seed", where),
            players=_get(data, "players", where),
            stage=_get(data, "stage", where, str),
            known=data.get("known"),
            message=_get(data, "crashed", where, str),
            moves=_get(data, "moves", where),
            longships=_get(data, "longships", where, str),
        )
    if kind == "summary":
        return Summary(
            players=_get(data, "players", where),
            seed=_get(data, "seed", where),
            games=_get(data, "games", where),
            normal=_get(data, "normal", where),
            crashed=_get(data, "crashed", where),
            crashes=MappingProxyType(dict(data.get("crashes", {}))),
        )
    raise OracleError(f"{where}: unknown record type {kind!r}")


def read_records(path: Path) -> list[Record]:
    """Every record of a JSON Lines file the oracle wrote."""
    with path.open(encoding="utf-8") as handle:
        return [
            parse_record(line, where=f"{path.name}, line {number}")
            for number, line in enumerate(handle, start=1)
            if line.strip()
        ]


def transcripts(records: Iterable[Record]) -> Iterator[Transcript]:
    """The transcripts among records (crashed games and summaries left out)."""
    return (r for r in records if isinstance(r, Transcript))


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.jsonl"))


# ---- the setup as our Layout -----------------------------------------------------------------
def layout_of(setup: Setup) -> Layout:
    """The contract's ``Layout`` of a transcript's setup, taken field by field from what the
    oracle printed (not rebuilt from our board data, so that a difference in the data shows
    up as a difference and is not copied over)."""
    return Layout(
        boards=setup.boards,
        hexes=MappingProxyType(dict(sorted(setup.hexes.items()))),
        ocean=setup.ocean,
        bag=setup.bag,
        trophies=tuple((axes, cell) for axes, _, cell in sorted(setup.trophies)),
        stacks=MappingProxyType(dict(sorted(setup.stacks.items()))),
        sites=setup.sites,
    )


# ---- Game Park's known defects, as the transcripts show them -----------------------------------
class StackBook:
    """The building tiles left on each landscape stack, counted from the transcript's gains.

    Game Park defect (``stack-overdraw``): a tile captured stays on its stack until it is laid
    on the fjord. A second Viking of the same turn (PlayAgain) next to a stack whose last tile
    is already waiting to be laid captures that same tile again: the transcript's ``gain``
    lists a tile the stack no longer has. The copy disappears when the tile is laid, and is
    listed again among the tiles a full fjord discards. ``correct`` takes such copies out of
    a move's gain and discarded tiles.

    A further consequence (``settled``): Game Park counts the watchtower and castle tiles a
    player is owed per building (``tiles_owed``) and counts an overdrawn copy as paid. A debt
    the stack could not pay is so settled with a tile that never existed, while ours stays
    owed and is paid once the stack has tiles again. ``settle`` takes such a payment out of
    our gain when the full fjord sends the tile straight back (the table is then the same)."""

    def __init__(self, stacks: Mapping[Axial, tuple[str, int]]) -> None:
        self.left = {cell: tiles for cell, (_, tiles) in stacks.items()}
        self.copies: Counter[tuple[str, Axial]] = Counter()  # overdrawn this turn
        # watchtower and castle debts Game Park settled with a copy, per player
        self.phantom: Counter[tuple[int, str, Axial]] = Counter()

    def correct(self, move: Move) -> tuple[Move, Tiles]:
        """``move`` with what the stacks really gave and took back (buildings discarded from a
        full fjord go back on their stacks), and the copies it overdrew."""
        gain, overdrawn = move.gain, Tiles()
        if move.gain is not None:
            real, over = [], []
            for tile, cell in move.gain.buildings:
                if self.left.get(cell, 0) > 0:
                    self.left[cell] -= 1
                    real.append((tile, cell))
                else:
                    over.append((tile, cell))
                    self.copies[(tile, cell)] += 1
                    if tile in ("watchtower", "castle"):
                        self.phantom[(move.player, tile, cell)] += 1
            gain = Tiles(move.gain.resources, tuple(real))
            overdrawn = Tiles((), tuple(over))
        back = []
        for tile, cell in move.discarded.buildings:
            if self.copies[(tile, cell)] > 0:
                self.copies[(tile, cell)] -= 1
            else:
                self.left[cell] = self.left.get(cell, 0) + 1
                back.append((tile, cell))
        discarded = Tiles(move.discarded.resources, tuple(back))
        if move.kind == "pass":
            self.copies.clear()
        return dataclasses.replace(move, gain=gain, discarded=discarded), overdrawn

    def settle(self, move: Move, ours: Step) -> tuple[Step, int]:
        """``ours`` without the tiles that paid a debt Game Park had settled with an overdrawn
        copy, where our full fjord sent them back, and how many were taken out."""
        if move.gain is None or ours.gain is None:
            return ours, 0
        extra = Counter(ours.gain.buildings) - Counter(move.gain.buildings)
        back = Counter(ours.discarded.buildings) - Counter(move.discarded.buildings)
        gain, discarded = list(ours.gain.buildings), list(ours.discarded.buildings)
        settled = 0
        for tile, cell in sorted(extra):
            for _ in range(min(extra[(tile, cell)], back[(tile, cell)])):
                if self.phantom[(move.player, tile, cell)] <= 0:
                    break
                self.phantom[(move.player, tile, cell)] -= 1
                gain.remove((tile, cell))
                discarded.remove((tile, cell))
                settled += 1
        if not settled:
            return ours, 0
        return dataclasses.replace(
            ours,
            gain=Tiles(ours.gain.resources, tuple(gain)),
            discarded=Tiles(ours.discarded.resources, tuple(discarded)),
        ), settled


# ---- comparing our game with a transcript --------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """What our game showed around one move of a transcript."""

    legal: tuple[str, ...]  # our legal codes before the move
    gain: Tiles | None = None  # the tiles our Viking gained (viking moves)
    discarded: Tiles = Tiles()
    completes: Completes = Completes()
    refill: Refill | None = None  # on pass
    scores: tuple[int, ...] | None = None  # on pass: every player's total after the turn
    next_player: int | None = None  # on pass: None when our game is over


@dataclass(frozen=True)
class OurResult:
    """A player's final score in our game, in the transcript's terms."""

    player: int
    total: int
    categories: Mapping[str, int]
    tiles: Mapping[str, TileScore]
    sites: Mapping[str, bool]  # port | altar | palace -> completed
    trophy: int | None  # axes needed
    longships_completed: tuple[int, ...]
    longships_incomplete: tuple[int, ...]


@dataclass(frozen=True)
class Disagreement:
    """One difference between Game Park's game and ours, located in the transcript."""

    seed: int
    players: int
    n: int | None  # the move, or None for the final result
    code: str
    what: str

    def __str__(self) -> str:
        where = f"move {self.n} '{self.code}'" if self.n is not None else "the result"
        return f"seed {self.seed} ({self.players} players), {where}: {self.what}"


def _few(codes: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(codes[:limit])
    return shown + (f" and {len(codes) - limit} more" if len(codes) > limit else "")


def compare_legal(move: Move, legal: Iterable[str]) -> list[str]:
    """What differs in the legal moves before ``move``: whether it is legal for us, the
    number of distinct legal moves, and the lists where the transcript has one."""
    problems = []
    legal = set(legal)
    if move.code not in legal:
        problems.append(f"not legal for us (we have {len(legal)} legal moves)")
    if len(legal) != move.legal:
        problems.append(f"{move.legal} distinct legal moves for Game Park, {len(legal)} for us")
    if move.options is not None:
        theirs = set(move.options)
        if missing := sorted(theirs - legal):
            problems.append(f"legal for Game Park only: {_few(missing)}")
        if extra := sorted(legal - theirs):
            problems.append(f"legal for us only: {_few(extra)}")
    return problems


def compare_move(move: Move, ours: Step) -> list[str]:
    """What differs between one move of a transcript (as ``StackBook.correct`` gives it) and
    the same move in our game: the legal moves (``compare_legal``), the tiles gained,
    completions, discarded tiles, and at the end of a turn the refill, the scores and the
    next player. Empty: agreement."""
    problems = compare_legal(move, ours.legal)
    if move.kind == "viking" and (ours.gain is None or ours.gain.sorted() != move.gain.sorted()):
        problems.append(f"gain: Game Park {move.gain}, ours {ours.gain}")
    if move.discarded.sorted() != ours.discarded.sorted():
        problems.append(f"discarded: Game Park {move.discarded}, ours {ours.discarded}")
    if move.completes.sorted() != ours.completes.sorted():
        problems.append(f"completes: Game Park {move.completes}, ours {ours.completes}")
    if move.kind == "pass":
        if move.refill != ours.refill:
            problems.append(
                f"refill: Game Park {move.refill or 'none'}, ours {ours.refill or 'none'}"
            )
        if move.scores != ours.scores:
            problems.append(
                f"scores: Game Park {list(move.scores)}, ours {list(ours.scores or ())}"
            )
        if move.next_player != ours.next_player:
            problems.append(
                f"next player: Game Park {move.next_player or 'none (over)'}, "
                f"ours {ours.next_player or 'none (over)'}"
            )
    return problems


def compare_result(
    game: Transcript, ours: Sequence[OurResult], winners: Sequence[int]
) -> list[str]:
    """What differs in the final scores: each player's total, categories, tiles (count, value,
    points), sites completed, trophy and longships; and the winners."""
    problems = []
    mine = {r.player: r for r in ours}
    for theirs in game.result:
        p = theirs.player
        us = mine.get(p)
        if us is None:
            problems.append(f"player {p}: no score of ours")
            continue
        say = f"player {p}"
        if us.total != theirs.total:
            problems.append(f"{say} total: Game Park {theirs.total}, ours {us.total}")
        for name, value in theirs.categories.items():
            if us.categories.get(name) != value:
                problems.append(f"{say} {name}: Game Park {value}, ours {us.categories.get(name)}")
        for tile, score in theirs.tiles.items():
            got = us.tiles.get(tile)
            if got != score:
                problems.append(f"{say} {tile}: Game Park {score}, ours {got}")
        for kind, site in theirs.sites.items():
            if us.sites.get(kind) != site.completed:
                problems.append(
                    f"{say} {kind} {site.site}: completed for Game Park {site.completed}, "
                    f"for us {us.sites.get(kind)}"
                )
        trophy = theirs.trophy[0] if theirs.trophy else None
        if us.trophy != trophy:
            problems.append(f"{say} trophy: Game Park {trophy}, ours {us.trophy}")
        if sorted(us.longships_completed) != sorted(theirs.longships_completed) or sorted(
            us.longships_incomplete
        ) != sorted(theirs.longships_incomplete):
            problems.append(
                f"{say} longships completed/incomplete: Game Park "
                f"{list(theirs.longships_completed)}/{list(theirs.longships_incomplete)}, ours "
                f"{list(us.longships_completed)}/{list(us.longships_incomplete)}"
            )
    if tuple(sorted(winners)) != tuple(sorted(game.winners)):
        problems.append(f"winners: Game Park {list(game.winners)}, ours {list(winners)}")
    return problems


# ---- replaying a transcript through our rules -------------------------------------------------
@dataclass(frozen=True)
class _Look:
    """What the replay reads of our table before a move, to compare after it."""

    seq: int  # the table's last log entry
    complete: frozenset[str]  # the mover's completed sites and longships
    ocean: tuple[tuple[str, str | None], ...]


def _look(table: Table, lo: Looot, seat: str) -> _Look:
    pieces = lo.state.pieces
    return _Look(
        seq=table.seq,
        complete=frozenset(
            p for p in lo.state.place(fjord(seat)).contents if pieces[p].props.get("complete")
        ),
        ocean=tuple(lo.ocean()),
    )


def _piece_moves(table: Table, since: int) -> list[Shift]:
    """Every piece moved by the log entries after ``since``, in order."""
    found: list[Shift] = []

    def walk(command: Command) -> None:
        if isinstance(command, Compound):
            for part in command.commands:
                walk(part)
        elif isinstance(command, Shift):
            found.append(command)

    for entry in table.entries[since:]:
        walk(entry.command)
    return found


def _tiles_of(lo: Looot, pids: Iterable[str]) -> Tiles:
    pieces = lo.state.pieces
    resources, buildings = [], []
    for pid in pids:
        piece = pieces[pid]
        origin = piece.props.get("from")
        if origin:
            buildings.append((piece.kind, cell_of(origin)))
        else:
            resources.append(piece.kind)
    return Tiles(tuple(resources), tuple(buildings))


def _step(
    move: Move, legal: Sequence[str], table: Table, lo: Looot, seat: str, before: _Look
) -> Step:
    """What our game showed around ``move``: ``before`` was read before it, ``lo`` after.
    Tiles gained are those moved into the mover's gained tiles; tiles discarded are those
    moved out of them anywhere but onto the fjord (out of the game, or back where they came
    from)."""
    pieces = lo.state.pieces
    shifts = _piece_moves(table, before.seq)
    pending = gained(seat)
    into = [m.piece for m in shifts if m.dst.place == pending and m.src.place != pending]
    lost = [m.piece for m in shifts if m.src.place == pending and m.dst.place != fjord(seat)]
    newly = _look(table, lo, seat).complete - before.complete
    refill = None
    for (space, was), (_, now) in zip(before.ocean, lo.ocean(), strict=True):
        if now is not None and now != was:
            refill = Refill(cell_of(space), int(pieces[now].props["longship"]))
    passing = move.kind == "pass"
    return Step(
        legal=tuple(legal),
        gain=_tiles_of(lo, into) if move.kind == "viking" else None,
        discarded=_tiles_of(lo, lost),
        completes=Completes(
            tuple(str(pieces[p].props["site"]) for p in newly if pieces[p].kind == "site"),
            tuple(int(pieces[p].props["longship"]) for p in newly if pieces[p].kind == "longship"),
        ),
        refill=refill if passing else None,
        scores=tuple(breakdown(lo, s)["total"] for s in lo.seats) if passing else None,
        next_player=SEATS.index(lo.to_move) + 1 if passing and not lo.over() else None,
    )


def our_results(lo: Looot) -> tuple[list[OurResult], list[int]]:
    """Every player's final score in our game, and the winners, as player numbers."""
    results = []
    for number, seat in enumerate(lo.seats, start=1):
        row = breakdown(lo, seat)
        results.append(
            OurResult(
                player=number,
                total=row["total"],
                categories=dict(row["categories"]),
                tiles={
                    t: TileScore(s["count"], s["value"], s["points"])
                    for t, s in row["tiles"].items()
                },
                sites={kind: bool(s["completed"]) for kind, s in row["sites"].items()},
                trophy=row["trophy"]["trophy"] if row["trophy"] else None,
                longships_completed=tuple(row["longships"]["completed"]),
                longships_incomplete=tuple(row["longships"]["incomplete"]),
            )
        )
    return results, [lo.seats.index(s) + 1 for s in winners(lo)]


@dataclass
class Replay:
    """The outcome of one transcript replayed through our rules."""

    game: Transcript
    disagreements: list[Disagreement] = field(default_factory=list)
    moves_played: int = 0
    overdrawn: int = 0  # Game Park's stack-overdraw gains left out of the comparison
    settled: int = 0  # our tiles paying debts Game Park settled with an overdrawn copy

    @property
    def agrees(self) -> bool:
        return not self.disagreements


OptionsSource = Callable[[Transcript, int], "tuple[str, ...] | None"]


def replay(
    game: Transcript,
    variant: str = "gamepark",
    options_of: OptionsSource | None = None,
    path: str | os.PathLike[str] | None = None,
) -> Replay:
    """Play every move of ``game`` through our rules (``play_code`` on a game set up from the
    transcript's layout) and compare each step and the final scores (``compare_move``,
    ``compare_result``). A move we refuse, or a player to move who is not Game Park's, ends
    the replay there. ``options_of(game, n)`` may supply Game Park's list of legal moves
    for a move whose count differs and whose list the transcript lacks."""
    outcome = Replay(game)
    session = start_from_layout(layout_of(game.setup), game.players, variant=variant, path=path)
    table, rules = session.table, looot_game()
    book = StackBook(game.setup.stacks)

    def disagree(move: Move | None, what: str) -> None:
        outcome.disagreements.append(
            Disagreement(
                game.seed, game.players, move.n if move else None, move.code if move else "", what
            )
        )

    for move in game.moves:
        lo = Looot(table.state, rules)
        seat = lo.to_move
        if lo.over() or seat != SEATS[move.player - 1]:
            who = "nobody (our game is over)" if lo.over() else seat
            disagree(move, f"Game Park's player {move.player} moves; ours to move is {who}")
            return outcome
        legal = legal_codes(table.state, rules)
        before = _look(table, lo, seat)
        move, overdrawn = book.correct(move)
        outcome.overdrawn += len(overdrawn.buildings)
        try:
            play_code(table, move.code, rules)
        except ProcedureError as error:
            for problem in compare_legal(move, legal):
                disagree(move, problem)
            disagree(move, f"refused by our rules: {error}")
            return outcome
        except Exception as error:  # a fault of ours: reported like a disagreement
            disagree(move, f"our game failed: {type(error).__name__}: {error}")
            return outcome
        outcome.moves_played += 1
        step = _step(move, legal, table, Looot(table.state, rules), seat, before)
        step, settled = book.settle(move, step)
        outcome.settled += settled
        problems = compare_move(move, step)
        if (
            move.options is None
            and options_of is not None
            and any("distinct legal moves" in p for p in problems)
        ):
            listed = options_of(game, move.n)
            if listed is not None:
                problems = compare_move(dataclasses.replace(move, options=listed), step)
        for problem in problems:
            disagree(move, problem)
    lo = Looot(table.state, rules)
    if not lo.over():
        disagree(None, f"Game Park's game is over; ours waits for {lo.to_move} ({lo.phase})")
        return outcome
    ours, won = our_results(lo)
    for problem in compare_result(game, ours, won):
        disagree(None, problem)
    return outcome


def oracle_options(game: Transcript, n: int) -> tuple[str, ...] | None:
    """Game Park's list of legal moves before move ``n`` of ``game``, from a fresh run of the
    oracle (None where it cannot run)."""
    if unavailable() is not None:
        return None
    runs = [
        r
        for r in run_oracle(game.players, 1, game.seed, legal_lists=n, longships=game.longships)
        if isinstance(r, Transcript)
    ]
    return runs[0].moves[n - 1].options if runs else None
