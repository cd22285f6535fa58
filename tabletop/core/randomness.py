"""The game's source of chance.

Outcomes are proposed from the game's seed and a draw counter, so a game reopened from its
log continues with the same sequence. The outcome is then stored in the command (a roll's
faces, a shuffle's order): replay reads it and never draws again. For teaching and rules
discussions the next outcomes can be forced; commands mark them as forced.

How a draw's outcome follows from the seed is the randomizer's derivation:

- ``PlainDerivation`` (every local game): ``random.Random`` seeded with "SEED/DRAW".
- ``CommittedDerivation`` (a game with committed dice and shuffles, docs/fairness.md): the
  referee's secret seed, of which the log's header holds only a commitment (SHA-256), and
  every seat's public contribution; each draw's outcome is read from HMAC-SHA256 of the seed
  over the contributions and the draw's number, with unbiased choices (rejection sampling)
  and a Fisher-Yates shuffle. Nothing is drawn before every seat has contributed, nothing
  after the seed is revealed, and nothing is forced. ``derive_faces`` and ``derive_order``
  are what ``tabletop verify`` uses to re-derive a game's rolls and shuffles.

Contributions and the reveal are 'chance' entries of the log (``Contribute``, ``Reveal``):
like notes they change nothing on the table and undo and redo pass them by.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import re
import secrets
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .commands import PLAIN, Command, Names
from .errors import CommandError, FormatError
from .state import TableState
from .textsafe import quoted

SCHEME = "hmac-sha256/v1"
SEED_BYTES = 32
CONTRIBUTION_BYTES = 32  # drawn when a seat does not give its own
CONTRIBUTION_MIN, CONTRIBUTION_MAX = 16, 64  # bytes a seat's contribution may hold
_COMMIT_DOMAIN = b"tabletop/fair/v1/commitment\x00"
_DRAW_DOMAIN = b"tabletop/fair/v1/draw\x00"


@functools.cache
def _hex() -> re.Pattern[str]:
    """Lower-case hex digits. Compiled when a seed or a contribution is read back from text,
    which a start with a seed of its own never does."""
    return re.compile(r"[0-9a-f]*")


class ContributionsMissing(CommandError):
    """A draw asked for before every seat of a committed game has contributed."""


# ---- derivations --------------------------------------------------------------------
class Derivation(Protocol):
    """How a draw's outcome follows from what the game was seeded with."""

    committed: bool

    def refusal(self) -> str | None:
        """Why no draw may be made now, or None."""

    def faces(self, draw: int, dice_faces: Sequence[Sequence[Any]]) -> list[Any]:
        """One face for each die of draw number ``draw``."""

    def order(self, draw: int, pieces: Sequence[str]) -> list[str]:
        """The pieces in the new order of draw number ``draw``."""


class PlainDerivation:
    """A local game's chance: one generator seeded again with "SEED/DRAW" each draw (making a
    new one would seed it twice, the second time as here, so the proposals are the same)."""

    committed = False

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random()

    def refusal(self) -> str | None:
        return None

    def _generator(self, draw: int) -> random.Random:
        self._random.seed(f"{self.seed}/{draw}")
        return self._random

    def faces(self, draw: int, dice_faces: Sequence[Sequence[Any]]) -> list[Any]:
        generator = self._generator(draw)
        return [generator.choice(list(faces)) for faces in dice_faces]

    def order(self, draw: int, pieces: Sequence[str]) -> list[str]:
        new = list(pieces)
        self._generator(draw).shuffle(new)
        return new


def commitment_of(seed: bytes) -> str:
    """The public commitment to a secret seed: SHA-256 of the seed after a domain tag (hex)."""
    return hashlib.sha256(_COMMIT_DOMAIN + seed).hexdigest()


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def draw_message(seats: Sequence[str], contributions: Mapping[str, bytes], draw: int) -> bytes:
    """What the seed's HMAC is taken over for draw number ``draw``: the domain tag, each seat's
    id and contribution in seat order (each length-prefixed), and the draw's number."""
    parts = [_DRAW_DOMAIN]
    for seat in seats:
        parts.append(_framed(seat.encode("utf-8")))
        parts.append(_framed(contributions[seat]))
    parts.append(draw.to_bytes(8, "big"))
    return b"".join(parts)


class DrawStream:
    """The bytes of one draw: HMAC-SHA256(seed, message || block number), block after block,
    read as unbiased whole numbers."""

    def __init__(self, seed: bytes, message: bytes) -> None:
        self._seed = seed
        self._message = message
        self._block = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(
                self._seed, self._message + self._block.to_bytes(4, "big"), hashlib.sha256
            )
            self._buffer += block.digest()
            self._block += 1
        taken, self._buffer = self._buffer[:n], self._buffer[n:]
        return taken

    def below(self, n: int) -> int:
        """A whole number from 0 to n-1, each equally likely: 64 bits at a time, those at or
        above the largest multiple of n rejected (so no number is favoured)."""
        if n < 1:
            raise ValueError("there is nothing to choose from")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % n


def derive_faces(
    seed: bytes,
    seats: Sequence[str],
    contributions: Mapping[str, bytes],
    draw: int,
    dice_faces: Sequence[Sequence[Any]],
) -> list[Any]:
    """The faces of draw ``draw``: for each die in turn, its face at an unbiased index."""
    stream = DrawStream(seed, draw_message(seats, contributions, draw))
    return [list(faces)[stream.below(len(faces))] for faces in dice_faces]


def derive_order(
    seed: bytes,
    seats: Sequence[str],
    contributions: Mapping[str, bytes],
    draw: int,
    pieces: Sequence[str],
) -> list[str]:
    """The order of draw ``draw``: a Fisher-Yates shuffle of ``pieces`` (bottom first), the
    last position first, each swap partner an unbiased index."""
    stream = DrawStream(seed, draw_message(seats, contributions, draw))
    new = list(pieces)
    for i in range(len(new) - 1, 0, -1):
        j = stream.below(i + 1)
        new[i], new[j] = new[j], new[i]
    return new


def hex_bytes(text: Any, what: str, low: int, high: int) -> bytes:
    """Bytes written as lower-case hex, ``low`` to ``high`` of them; ValueError naming ``what``."""
    if not isinstance(text, str) or not _hex().fullmatch(text) or len(text) % 2:
        raise ValueError(f"{what} must be written in hexadecimal digits (0-9, a-f), two a byte")
    if not low <= len(text) // 2 <= high:
        span = f"{low}" if low == high else f"{low} to {high}"
        raise ValueError(f"{what} must hold {span} bytes ({2 * low} hex digits or more)")
    return bytes.fromhex(text)


def randomness_problem(record: Any) -> str | None:
    """What is wrong with a header's 'randomness' record, or None. It holds ``scheme``,
    ``commitment`` (64 hex digits) and, in the referee's own file only, ``secret``."""
    if not isinstance(record, dict):
        return "'randomness' must be an object"
    if record.get("scheme") != SCHEME:
        return f"'randomness' has an unknown scheme {record.get('scheme')!r} (known: {SCHEME})"
    try:
        hex_bytes(record.get("commitment"), "its 'commitment'", 32, 32)
        if "secret" in record:
            secret = hex_bytes(record["secret"], "its 'secret'", SEED_BYTES, SEED_BYTES)
            if commitment_of(secret) != record["commitment"]:
                return "'randomness': the secret does not match the commitment"
    except ValueError as exc:
        return f"'randomness': {exc}"
    unknown = set(record) - {"scheme", "commitment", "secret"}
    if unknown:
        return f"'randomness' holds unknown fields: {', '.join(sorted(unknown))}"
    return None


@dataclass(frozen=True)
class SecretSeed:
    """A referee's secret seed: made with ``draw()``, published only as ``commitment`` until
    the end of the game."""

    secret: bytes

    @classmethod
    def draw(cls) -> SecretSeed:
        return cls(secrets.token_bytes(SEED_BYTES))

    @property
    def commitment(self) -> str:
        return commitment_of(self.secret)

    def header_record(self) -> dict[str, str]:
        """The header's 'randomness' record of the referee's file (the secret in its one place,
        ``secret``, which a file made for a seat leaves out)."""
        return {"scheme": SCHEME, "commitment": self.commitment, "secret": self.secret.hex()}


def draw_contribution() -> str:
    """A seat's random contribution, as hex (drawn on the seat's own machine)."""
    return secrets.token_hex(CONTRIBUTION_BYTES)


class CommittedDerivation:
    """The fair mode's chance (module docstring): the secret seed (None in a file without it:
    nothing can be drawn), the seats in order and their contributions as they come in."""

    committed = True

    def __init__(self, seats: Sequence[str], commitment: str, secret: bytes | None) -> None:
        self.seats = list(seats)
        self.commitment = commitment
        self.secret = secret
        self.contributions: dict[str, bytes] = {}
        self.contributed_at: dict[str, int] = {}
        self.revealed_at: int | None = None
        self.revealed: bytes | None = None

    @classmethod
    def from_record(cls, record: Mapping[str, Any], seats: Sequence[str]) -> CommittedDerivation:
        secret = record.get("secret")
        return cls(seats, record["commitment"], bytes.fromhex(secret) if secret else None)

    @property
    def missing(self) -> list[str]:
        return [seat for seat in self.seats if seat not in self.contributions]

    def refusal(self) -> str | None:
        if self.revealed_at is not None:
            return (
                f"the seed was revealed at entry {self.revealed_at}: this game makes no more"
                " dice rolls or shuffles"
            )
        if self.missing:
            return (
                "no dice roll or shuffle before every seat has added its contribution to the"
                f" committed randomness (missing: {', '.join(self.missing)})"
            )
        if self.secret is None:
            return (
                "this copy of the game does not hold the referee's secret seed: only the"
                " referee's file can roll dice or shuffle"
            )
        return None

    def faces(self, draw: int, dice_faces: Sequence[Sequence[Any]]) -> list[Any]:
        assert self.secret is not None  # refusal() said so
        return derive_faces(self.secret, self.seats, self.contributions, draw, dice_faces)

    def order(self, draw: int, pieces: Sequence[str]) -> list[str]:
        assert self.secret is not None
        return derive_order(self.secret, self.seats, self.contributions, draw, pieces)

    # ---- chance entries -------------------------------------------------------------
    def problem(self, command: Command, draws: int) -> str | None:
        """Why a contribution or reveal cannot go in now (``draws`` made so far), or None."""
        if self.revealed_at is not None:
            return f"the seed was revealed at entry {self.revealed_at}"
        if isinstance(command, Contribute):
            try:
                hex_bytes(
                    command.contribution, "a contribution", CONTRIBUTION_MIN, CONTRIBUTION_MAX
                )
            except ValueError as exc:
                return str(exc)
            if command.seat not in self.seats:
                return f"there is no seat {command.seat!r} (seats: {', '.join(self.seats)})"
            if command.seat in self.contributions:
                return (
                    f"{command.seat} has added its contribution already (entry"
                    f" {self.contributed_at[command.seat]})"
                )
            if draws:
                return "dice were rolled or a place shuffled already"
            return None
        if isinstance(command, Reveal):
            try:
                hex_bytes(command.seed, "the seed", SEED_BYTES, SEED_BYTES)
            except ValueError as exc:
                return str(exc)
            if commitment_of(command.seed_bytes) != self.commitment:
                return "this seed does not match the game's commitment"
            return None
        return f"{command.op!r} is not a chance entry"

    def take(self, command: Command, seq: int) -> None:
        """Follow a contribution or reveal (checked by ``problem`` when made; a log read back
        is taken as it is, and ``tabletop verify`` judges it)."""
        if isinstance(command, Contribute):
            self.contributions.setdefault(command.seat, command.contribution_bytes)
            self.contributed_at.setdefault(command.seat, seq)
        elif isinstance(command, Reveal) and self.revealed_at is None:
            self.revealed_at = seq
            self.revealed = command.seed_bytes


def derivation_for(record: Mapping[str, Any] | None, seats: Sequence[str]) -> Derivation | None:
    """The derivation a game's header asks for: None (the plain one) without a 'randomness'
    record."""
    return CommittedDerivation.from_record(record, seats) if record else None


# ---- the chance entries' commands ---------------------------------------------------
class _Chance(Command):
    """A chance entry's command: it feeds the randomizer and changes nothing on the table, so
    it is its own inverse."""

    __slots__ = ()
    counters_only: ClassVar[bool] = True

    def apply(self, state: TableState) -> None:
        return None

    def inverse(self) -> Command:
        return self


@dataclass(frozen=True, slots=True)
class Contribute(_Chance):
    """A seat's public contribution to the committed randomness (hex). Changes nothing on the
    table."""

    seat: str
    contribution: str
    op: ClassVar[str] = "contribute"

    @property
    def contribution_bytes(self) -> bytes:
        return bytes.fromhex(self.contribution)

    def body(self) -> dict[str, Any]:
        return {"seat": self.seat, "contribution": self.contribution}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Contribute:
        seat = d.get("seat")
        if not isinstance(seat, str):
            raise FormatError("command 'contribute' needs a text 'seat'")
        try:
            hex_bytes(
                d.get("contribution"), "its 'contribution'", CONTRIBUTION_MIN, CONTRIBUTION_MAX
            )
        except ValueError as exc:
            raise FormatError(f"command 'contribute': {exc}") from None
        return cls(seat, d["contribution"])

    def describe(self, names: Names = PLAIN) -> str:
        return (
            f"{names.seat(self.seat)} added its contribution to the dice and shuffles"
            f" ({self.contribution[:16]}…)"
        )


@dataclass(frozen=True, slots=True)
class Reveal(_Chance):
    """The referee's secret seed, revealed (hex): from here on anyone can re-derive every roll
    and shuffle, and none is made any more. Changes nothing on the table."""

    seed: str
    op: ClassVar[str] = "reveal"

    @property
    def seed_bytes(self) -> bytes:
        return bytes.fromhex(self.seed)

    def body(self) -> dict[str, Any]:
        return {"seed": self.seed}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> Reveal:
        try:
            hex_bytes(d.get("seed"), "its 'seed'", SEED_BYTES, SEED_BYTES)
        except ValueError as exc:
            raise FormatError(f"command 'reveal': {exc}") from None
        return cls(d["seed"])

    def describe(self, names: Names = PLAIN) -> str:
        return f"revealed the seed of the dice and shuffles ({self.seed[:16]}…)"


CHANCE_COMMANDS = (Contribute, Reveal)


# ---- the randomizer -----------------------------------------------------------------
Mark = tuple[int, tuple[Any, ...], tuple[list[str], ...]]


class Randomizer:
    """Proposes dice faces and orders. ``draws`` counts proposals made so far."""

    def __init__(self, seed: int, draws: int = 0, derivation: Derivation | None = None) -> None:
        self.seed = seed
        self.draws = draws
        self.derivation: Derivation = (
            derivation if derivation is not None else PlainDerivation(seed)
        )
        self._forced_faces: deque[Any] = deque()
        self._forced_orders: deque[list[str]] = deque()

    @property
    def committed(self) -> bool:
        """Whether the game's dice and shuffles are committed (docs/fairness.md)."""
        return self.derivation.committed

    def _draw(self) -> int:
        """The number of the next draw, counted; CommandError if no draw may be made
        (ContributionsMissing if some seat of a committed game has not contributed yet)."""
        refusal = self.derivation.refusal()
        if refusal is not None:
            fair = self.derivation
            missing = (
                isinstance(fair, CommittedDerivation) and fair.revealed_at is None and fair.missing
            )
            raise (ContributionsMissing if missing else CommandError)(refusal)
        draw = self.draws
        self.draws += 1
        return draw

    # ---- taking back -----------------------------------------------------
    def mark(self) -> Mark:
        """Where the randomizer stands, to go back there if a proposal is not used."""
        return self.draws, tuple(self._forced_faces), tuple(self._forced_orders)

    def restore(self, mark: Mark) -> None:
        self.draws = mark[0]
        self._forced_faces = deque(mark[1])
        self._forced_orders = deque(mark[2])

    # ---- forcing ---------------------------------------------------------
    def _refuse_forcing(self) -> None:
        if self.committed:
            raise CommandError(
                "this game's dice and shuffles are committed: no outcome can be forced"
            )

    def force_faces(self, faces: Sequence[Any]) -> None:
        """The next dice rolled show these faces, in order (none: nothing is forced)."""
        if faces:
            self._refuse_forcing()
        self._forced_faces.extend(faces)

    def force_order(self, order: Sequence[str]) -> None:
        """The next shuffle puts its pieces in this order (bottom first)."""
        self._refuse_forcing()
        self._forced_orders.append(list(order))

    @property
    def forced_pending(self) -> int:
        return len(self._forced_faces) + len(self._forced_orders)

    def clear_forced(self) -> None:
        self._forced_faces.clear()
        self._forced_orders.clear()

    # ---- chance entries --------------------------------------------------
    def chance_problem(self, command: Command) -> str | None:
        """Why a contribution or reveal cannot go into this game now, or None."""
        if not isinstance(self.derivation, CommittedDerivation):
            return "this game's dice and shuffles are not committed (made without --fair)"
        return self.derivation.problem(command, self.draws)

    def take(self, command: Command, seq: int) -> None:
        """Follow a 'chance' entry (a contribution, the reveal)."""
        if isinstance(self.derivation, CommittedDerivation):
            self.derivation.take(command, seq)

    # ---- proposals -------------------------------------------------------
    def faces(
        self, dice_faces: Sequence[Sequence[Any]]
    ) -> tuple[tuple[Any, ...], tuple[bool, ...]]:
        """One face for each die (given each die's faces); and which were forced. The dice
        not forced are one draw."""
        result: list[Any] = []
        forced: list[bool] = []
        free: list[Sequence[Any]] = []
        for faces in dice_faces:
            if self._forced_faces:
                face = self._forced_faces[0]
                if face not in faces:
                    raise CommandError(
                        f"the forced face {quoted(face)} is not on this die ({list(faces)})"
                    )
                self._forced_faces.popleft()
                result.append(face)
                forced.append(True)
            else:
                result.append(None)
                forced.append(False)
                free.append(faces)
        if free:
            drawn: Iterator[Any] = iter(self.derivation.faces(self._draw(), free))
            result = [
                face if is_forced else next(drawn)
                for face, is_forced in zip(result, forced, strict=True)
            ]
        return tuple(result), tuple(forced)

    def order(self, pieces: Sequence[str]) -> tuple[tuple[str, ...], bool]:
        """A new order of the pieces; and whether it was forced."""
        if self._forced_orders:
            forced = self._forced_orders[0]
            if sorted(forced) != sorted(pieces):
                raise CommandError("the forced order does not hold the same pieces as the place")
            self._forced_orders.popleft()
            return tuple(forced), True
        return tuple(self.derivation.order(self._draw(), pieces)), False
