"""A seat's stream read on a thread of its own, for a client whose own thread must never wait
on the network (the window, tabletop/ui/online_session.py).

``StreamReader.run`` blocks on XREAD of one stream (BLOCK: it wakes as soon as the referee
appends a message, so no polling interval adds to the latency) and hands each batch of
decoded messages to ``deliver``; it keeps nothing but its cursor (the id of the last message
read) and its own connection. The messages are applied by their receiver (``Client.take``)
on the receiver's own thread, so the table is never shared between threads.

- **A lost connection** (Redis stopped, or frozen past the connection's timeout) is told at
  once to ``connected(False, why)``; the reader tries again with growing pauses (back-off)
  and reads on from its cursor when Redis is back (``connected(True, "")``): nothing is
  skipped and nothing is handed over twice.
- **A Redis Cluster moving the game's slot**: a MOVED reply sends the reader to the node it
  names (reading on from its cursor there); while the slot's keys are half moved it tries
  again a moment later. Neither is a lost connection.
- **Reading again from the start** (the receiver found a digest that differs):
  ``restart(cursor, generation)`` from any thread; the batches read from then on carry the
  new ``generation``, so the receiver can drop those read before it asked.
- **Stopping**: ``stop()`` from any thread; the reader ends within one block time (the
  XREAD waits at most ``block_ms``, the pauses between tries end at once).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import redis

from .client import connect, read_stream
from .streams import LOST, MOVING, Address

BLOCK_MS = 250  # the longest one XREAD waits: how soon a stop is seen
SLACK = 1.5  # seconds a reply may take past the block time before Redis counts as lost
MOVING_PAUSE = 0.05  # while a cluster's slot moves (ASK, TRYAGAIN, CLUSTERDOWN)
PAUSES = (0.1, 0.2, 0.4, 0.8, 1.6, 2.0)  # between tries while Redis is away; then the last

Batch = list[tuple[str, dict[str, Any]]]


class StreamReader:
    """Reads ``stream`` past ``cursor`` with the address's credentials until ``stop``."""

    def __init__(
        self,
        address: Address,
        stream: str,
        cursor: str = "0-0",
        block_ms: int = BLOCK_MS,
        node: tuple[str, int] | None = None,
    ) -> None:
        self.address = address
        self.node = node  # the cluster node serving the game's slot (None: the address's)
        self.stream = stream
        self.block_ms = block_ms
        self.cursor = cursor
        self.generation = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()  # guards only the restart asked from another thread
        self._restart: tuple[str, int] | None = None
        self._recheck = False

    # ---- asked from the receiver's thread --------------------------------------------
    def stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def restart(self, cursor: str, generation: int) -> None:
        """Read on from ``cursor`` (the start: "0-0"), the batches marked ``generation``."""
        with self._lock:
            self._restart = (cursor, generation)

    def recheck(self) -> None:
        """Say whether the stream can be read after the next try, even if that is no change
        (the receiver's own connection failed and it wants to know when Redis is back)."""
        self._recheck = True

    # ---- on the reader's thread ------------------------------------------------------
    def run(
        self,
        deliver: Callable[[int, Batch], None],
        connected: Callable[[bool, str], None],
    ) -> None:
        """Read until ``stop``: ``deliver(generation, batch)`` for each batch read,
        ``connected(ok, why)`` whenever the stream stops or starts being readable."""
        timeout = self.block_ms / 1000 + SLACK
        connection = connect(self.address, timeout, self.node)
        readable, failures = True, 0
        try:
            while not self._stop.is_set():
                with self._lock:
                    if self._restart is not None:
                        self.cursor, self.generation = self._restart
                        self._restart = None
                try:
                    batch = read_stream(connection, self.stream, self.cursor, self.block_ms)
                except MOVING as exc:  # nothing read: read on on the node serving the slot
                    if isinstance(exc, redis.exceptions.MovedError):
                        connection.close()
                        self.node = (exc.host, int(exc.port))
                        connection = connect(self.address, timeout, self.node)
                    else:  # the slot's keys are half moved: a moment
                        self._stop.wait(MOVING_PAUSE)
                    continue
                except (*LOST, redis.exceptions.RedisError) as exc:
                    failures += 1
                    if readable or self._recheck:
                        readable, self._recheck = False, False
                        connected(False, _why(exc))
                    self._stop.wait(PAUSES[min(failures, len(PAUSES)) - 1])
                    continue
                failures = 0
                if not readable or self._recheck:
                    readable, self._recheck = True, False
                    connected(True, "")
                if batch and not self._stop.is_set():
                    self.cursor = batch[-1][0]
                    deliver(self.generation, batch)
        finally:
            connection.close()


def _why(exc: Exception) -> str:
    if isinstance(exc, redis.exceptions.TimeoutError):
        return "Redis does not answer"
    if isinstance(exc, LOST):
        return "Redis cannot be reached"
    return f"Redis refuses to read the stream: {exc}"
