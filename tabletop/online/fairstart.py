"""The start of a live game whose dice and shuffles are committed (docs/fairness.md) and whose
setup shuffles: the seed is drawn and its commitment published before any seat contributes,
the contributions come from the seats through their request streams, and only then is the
game set up (``tabletop host --new MODULE --fair ... -o FILE``).

``FairStart(path, url, setup=...)`` draws the referee's secret seed and keeps it, with the
setup's options, the seats' passwords, the contributions taken and how far each request
stream was read, in the referee's bookkeeping beside the game's file (``FILE.online``,
readable by its owner only, written whole or not at all). A referee restarted while it
waits reads them back: the same seed, the same contributions, and a seat that contributed
already is refused a second time. ``run()``:

- puts a ``commitment`` message (the scheme, the commitment, the seats) on every viewer's
  stream, before anything else;
- draws the contributions of the seats its bots play (as a seat's client draws its own);
- reads each seat's ``contribute`` requests and takes each through the checks of the table's
  own 'contribute' entry (``CommittedDerivation.problem``: the size, hex digits, once per
  seat), answering a refusal with an ``error`` message to its sender; each contribution
  taken is said on every stream as a ``contributed`` message (contributions are public).

``set_up()`` then makes the game with ``new_game(..., committed=..., contributions=...)``:
its first entries are the contributions, in the order they came, then the setup. The
referee (tabletop/online/referee.py) goes on from that file; the secret seed then lives in
its one place, the file's header, and the bookkeeping forgets it.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from tabletop.core import Mode, Policy, TableError
from tabletop.core.randomness import (
    SCHEME,
    SEED_BYTES,
    CommittedDerivation,
    Contribute,
    SecretSeed,
    draw_contribution,
)
from tabletop.modules import ModuleError, find_module, new_game, resolve_seats
from tabletop.persist import atomic_path

from .referee import (
    BLOCK_MS,
    RECONNECT_S,
    _default_name,
    cluster_nodes,
    connect,
    open_users,
    read_sidecar,
    sidecar_of,
    slot_owner,
    write_sidecar,
)
from .streams import (
    LOST,
    Address,
    OnlineError,
    check_name,
    decode,
    encode,
    request_key,
    server_of,
    view_key,
)

WAITING = "fair_start"  # the bookkeeping's record of a start waiting for contributions
SETUP_KEYS = ("module", "seats", "variant", "seed", "options", "rules", "notes")


def setup_record(
    module: str,
    seats: str | None = None,
    variant: str = "",
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    rules: str = "advisory",
    notes: str = "",
) -> dict[str, Any]:
    """What ``set_up`` passes to new_game, as the bookkeeping keeps it (``seed`` None: drawn
    when the start is made, and kept)."""
    return {
        "module": module,
        "seats": seats,
        "variant": variant,
        "seed": seed,
        "options": dict(options or {}),
        "rules": rules,
        "notes": notes,
    }


def waiting_start(path: str | os.PathLike[str]) -> bool:
    """Whether the bookkeeping beside ``path`` holds a fair start still waiting for its
    contributions."""
    return WAITING in read_sidecar(sidecar_of(path))


class FairStart:
    def __init__(
        self,
        path: str | os.PathLike[str],
        url: str,
        name: str | None = None,
        setup: Mapping[str, Any] | None = None,
        bots: Iterable[str] = (),
        say: Callable[[str], None] = print,
    ) -> None:
        self.path = Path(path)
        self.say = say
        if self.path.exists():
            raise OnlineError(f"{path}: already exists; host the game in it (tabletop host FILE)")
        self.sidecar = sidecar_of(self.path)
        saved = read_sidecar(self.sidecar)
        waiting = saved.get(WAITING)
        if waiting is None and setup is None:
            raise OnlineError(f"{path}: no such file (and no fair start waiting for it)")
        if waiting is not None:
            try:
                kept = {key: waiting["setup"][key] for key in SETUP_KEYS}
                self.seed = SecretSeed(bytes.fromhex(waiting["secret"]))
                order = list(waiting["contributions"])
                if len(self.seed.secret) != SEED_BYTES or not all(
                    isinstance(waiting["contributions"][seat], str) for seat in order
                ):
                    raise ValueError
            except (KeyError, TypeError, ValueError, AttributeError):
                raise OnlineError(
                    f"{self.sidecar}: the fair start it keeps is damaged (not the referee's"
                    " bookkeeping)"
                ) from None
            if setup is not None and not _same_setup(kept, setup):
                raise OnlineError(
                    f"{self.sidecar}: a start of {kept['module']} with other options waits for"
                    " its contributions; host it again with the same options, or name another"
                    " file"
                )
            self.setup = kept
        else:
            assert setup is not None
            self.setup = dict(setup)
            if self.setup.get("seed") is None:
                self.setup["seed"] = random.SystemRandom().randrange(2**31)
            self.seed = SecretSeed.draw()
            order = []
            _try_setup(self.setup)  # bad options are said now, not after every seat contributed
        try:
            self.module = find_module(self.setup["module"])
            chosen = resolve_seats(
                self.module, self.setup["seats"], self.setup["variant"], self.setup["seed"]
            )
        except ModuleError as exc:
            raise OnlineError(f"{self.setup['module']}: {exc}") from None
        self.seats = [s.id for s in chosen]
        unknown = [s for s in bots if s not in self.seats]
        if unknown:
            raise OnlineError(f"no seat {', '.join(unknown)} (seats: {', '.join(self.seats)})")
        self.bots = [s for s in self.seats if s in bots]
        self.name = check_name(name or saved.get("game") or _default_name(self.path))
        if saved.get("game") not in (None, self.name):
            raise OnlineError(f"{path} is hosted as {saved['game']!r}; give that --name")
        self.derivation = CommittedDerivation(self.seats, self.seed.commitment, self.seed.secret)
        self.contributions: dict[str, str] = {}
        for seat in order:
            self._take(seat, waiting["contributions"][seat])
        self.url = url
        self.redis = connect(url, decode_responses=True)
        self.host, self.port = server_of(url)[:2]
        self.nodes: list[tuple[str, int]] | None = None
        self.passwords: dict[str, str] = dict(saved.get("passwords", {}))
        self.cursors: dict[str, str] = {s: "0-0" for s in self.seats}
        self.cursors.update(saved.get("cursors", {}))
        self.viewers: list[str | None] = [*self.seats, None]

    # ---- bookkeeping ---------------------------------------------------------------------
    def _write(self) -> None:
        write_sidecar(
            self.sidecar,
            {
                "game": self.name,
                "passwords": self.passwords,
                "cursors": self.cursors,
                "entries": 0,
                "pending": None,
                WAITING: {
                    "setup": self.setup,
                    "secret": self.seed.secret.hex(),
                    "contributions": self.contributions,
                },
            },
        )

    def _take(self, seat: str, contribution: str) -> None:
        command = Contribute(seat, contribution)
        self.derivation.take(command, len(self.contributions) + 1)
        self.contributions[seat] = contribution

    @property
    def commitment(self) -> str:
        return self.seed.commitment

    @property
    def missing(self) -> list[str]:
        return self.derivation.missing

    # ---- users and streams ---------------------------------------------------------------
    def open_seats(self) -> dict[str | None, Address]:
        """Make (or keep) each viewer's ACL user, keep the seed in the bookkeeping, and put
        the commitment on every viewer's stream (before anyone has an address to contribute
        with); the join address of each. Nothing is written before the server has answered."""
        self.nodes = cluster_nodes(self.redis)
        if self.nodes is not None:  # a cluster: the game's keys live on its slot's node
            _slot, host, port = slot_owner(self.redis, self.name)
            if (host, port) != (self.host, self.port):
                old, self.redis = self.redis, connect(self.url, host, port, decode_responses=True)
                old.close()
                self.host, self.port = host, port
        addresses = open_users(
            self.redis,
            self.url,
            self.name,
            self.viewers,
            self.passwords,
            (self.host, self.port),
            self.nodes,
        )
        self._write()
        self._retry(self.publish)
        return addresses

    def publish(self) -> None:
        """Put on every viewer's stream what is not there yet: first the commitment, then each
        contribution taken (a restarted referee adds only what is missing)."""
        for viewer in self.viewers:
            stream = view_key(self.name, viewer)
            shown = [decode(fields) for _id, fields in self.redis.xrange(stream)]
            if not any(m.get("type") == "commitment" for m in shown):
                message = {
                    "type": "commitment",
                    "scheme": SCHEME,
                    "commitment": self.commitment,
                    "seats": self.seats,
                }
                self.redis.xadd(stream, encode(message))
            told = {m.get("seat") for m in shown if m.get("type") == "contributed"}
            for seat, contribution in self.contributions.items():
                if seat not in told:
                    message = {"type": "contributed", "seat": seat, "contribution": contribution}
                    self.redis.xadd(stream, encode(message))

    def _retry(self, call: Callable[[], Any]) -> Any:
        deadline = time.monotonic() + RECONNECT_S
        while True:
            try:
                return call()
            except LOST:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    # ---- gathering the contributions -------------------------------------------------------
    def run(self, until: Callable[[], bool] | None = None) -> bool:
        """Publish the commitment, draw the bots' contributions, then take the seats' as they
        come; True once every seat's is in (False if ``until()`` said to stop first)."""
        self._retry(self.publish)
        drawn = False
        for seat in self.bots:
            if seat in self.missing:
                self._take(seat, draw_contribution())
                drawn = True
        if drawn:
            self._write()
            self._retry(self.publish)
        while self.missing:
            if until is not None and until():
                return False
            found = self._retry(self._read_requests)
            for key, messages in found or []:
                seat = key.rsplit(":", 1)[1]
                for request_id, fields in messages:
                    self._serve(seat, request_id, decode(fields))
        return True

    def _read_requests(self) -> Any:
        remote = [s for s in self.seats if s not in self.bots]
        streams = {request_key(self.name, s): self.cursors[s] for s in remote}
        return self.redis.xread(streams, block=BLOCK_MS, count=16)

    def _serve(self, seat: str, request_id: str, request: dict[str, Any]) -> None:
        refusal = self._refusal(seat, request)
        self.cursors[seat] = request_id
        if refusal is None:
            self._take(seat, request["contribution"])
        self._write()  # the contribution and the position together, before anything is said
        if refusal is None:
            self._retry(self.publish)
        elif request.get("kind") != "answer":
            message = {"type": "error", "request": request_id, "text": refusal}
            self._retry(lambda: self.redis.xadd(view_key(self.name, seat), encode(message)))

    def _refusal(self, seat: str, request: dict[str, Any]) -> str | None:
        """Why a seat's request is not taken now, or None (a contribution to take)."""
        if request.get("seat", seat) != seat:
            return f"a request for {request.get('seat')!r} from {seat!r}"
        if request.get("kind") != "contribute":
            return (
                "the game is not set up yet: it waits for every seat's contribution to the dice"
                f" and shuffles (missing: {', '.join(self.missing)})"
            )
        shown = request.get("commitment")
        if shown is not None and shown != self.commitment:
            return "contribution refused: made against another commitment"
        command = Contribute(seat, request.get("contribution"))  # type: ignore[arg-type]
        problem = self.derivation.problem(command, 0)
        return None if problem is None else f"contribution refused: {problem}"

    # ---- the game -----------------------------------------------------------------------
    def set_up(self) -> Path:
        """Make the game, every contribution in: its file whole or not at all, and then the
        bookkeeping without the waiting start (the seed is in the file's header now)."""
        if self.missing:
            raise OnlineError(
                f"not every seat has contributed (missing: {', '.join(self.missing)})"
            )
        setup = self.setup
        with atomic_path(self.path, create=False) as temp:
            new_game(
                self.module,
                seats=setup["seats"],
                variant=setup["variant"],
                seed=setup["seed"],
                notes=setup["notes"],
                path=temp,
                options=setup["options"],
                policy=Policy(Mode(setup["rules"])),
                committed=self.seed,
                contributions=self.contributions,
            ).close()
        write_sidecar(
            self.sidecar,
            {
                "game": self.name,
                "passwords": self.passwords,
                "cursors": self.cursors,
                "entries": 0,
                "pending": None,
            },
        )
        return self.path

    def close(self) -> None:
        self.redis.close()


def _try_setup(setup: Mapping[str, Any]) -> None:
    """Set the game up once in memory, without committed chance: what the options would make
    the setup refuse, said before anyone contributes."""
    try:
        new_game(
            find_module(setup["module"]),
            seats=setup["seats"],
            variant=setup["variant"],
            seed=setup["seed"],
            notes=setup["notes"],
            options=setup["options"],
            policy=Policy(Mode(setup["rules"])),
        ).close()
    except (TableError, ModuleError, ValueError) as exc:
        raise OnlineError(f"{setup['module']}: the game cannot be set up: {exc}") from None


def _same_setup(saved: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    """A start given again: the same options (a seed left out takes the saved one)."""
    return all(
        saved.get(key) == given.get(key)
        for key in SETUP_KEYS
        if not (key == "seed" and given.get(key) is None)
    )
