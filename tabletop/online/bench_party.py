"""One party of the live game's latency figure (bench.py), run as a process of its own, as
on players' machines: the referee, a seat played by a bot, or a spectator.

    python -m tabletop.online.bench_party referee FILE URL ADDRESSES
    python -m tabletop.online.bench_party seat ADDRESS SEED OUT
    python -m tabletop.online.bench_party watch ADDRESS OUT

The referee writes every viewer's join address to ADDRESSES (JSON) once the seats are open,
then referees the game to its end. A seat or a spectator writes to OUT (JSON), at the end,
when each entry was shown (``time.monotonic()``, the machine's one clock) and, for a seat,
when each of its requests left.
"""

from __future__ import annotations

import json
import sys
import time

from tabletop.core import Entry
from tabletop.persist.atomic import atomic_write_text

from .client import BotClient, Client
from .referee import Referee

TIMEOUT_S = 600.0


def referee(path: str, url: str, addresses_out: str) -> None:
    ref = Referee(path, url, name="bench")
    try:
        addresses = ref.open_seats()
        shown = {viewer or "": str(address) for viewer, address in addresses.items()}
        atomic_write_text(addresses_out, json.dumps(shown))
        ref.run()
    finally:
        ref.close()


def party(address: str, out: str, seed: int | None) -> None:
    client: Client = Client(address) if seed is None else BotClient(address, seed=seed)
    shown: list[tuple[int, str, float]] = []

    def show(entry: Entry) -> None:
        shown.append((entry.seq, entry.actor, time.monotonic()))

    client.listeners.append(show)
    try:
        if isinstance(client, BotClient):
            client.play(timeout=TIMEOUT_S)
        else:
            deadline = time.monotonic() + TIMEOUT_S
            while not client.over and time.monotonic() < deadline:
                client.poll()
        sent = getattr(client, "sent_times", {})
        record = {"seat": client.seat, "shown": shown, "sent": sorted(sent.items())}
        atomic_write_text(out, json.dumps(record))
    finally:
        client.close()


def main(argv: list[str]) -> int:
    if argv[:1] == ["referee"] and len(argv) == 4:
        referee(argv[1], argv[2], argv[3])
    elif argv[:1] == ["seat"] and len(argv) == 4:
        party(argv[1], argv[3], int(argv[2]))
    elif argv[:1] == ["watch"] and len(argv) == 3:
        party(argv[1], argv[2], None)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
