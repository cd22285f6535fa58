"""Re-deriving a game's committed dice and shuffles from its revealed seed (docs/fairness.md).

``verify_log(path)`` reads a game's log, checks that the seed revealed in its 'reveal' entry
matches the commitment in its header, and re-derives every roll and shuffle in log order,
counting draws as the table does: one for each roll or shuffle of a move ('do') or setup
entry, undone moves included (undo does not give a draw back), redo and undo entries none
(they repeat or take back an outcome already drawn). It names the first entry that does not
match.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tabletop.core import Command, Compound, Roll, Shuffle, TableState
from tabletop.core.randomness import (
    Contribute,
    Reveal,
    commitment_of,
    derive_faces,
    derive_order,
)

from .logfile import LogContents, read_log
from .session import Game

FAIR, UNFAIR, UNDECIDED = 0, 1, 2  # also the exit codes of ``tabletop verify``


@dataclass(frozen=True)
class Verdict:
    """What verifying a game found: ``status`` (FAIR, UNFAIR or UNDECIDED), a sentence saying
    why, the rolls and shuffles re-derived, and the first entry that does not match (if any)."""

    status: int
    message: str
    rolls: int = 0
    shuffles: int = 0
    entry: int | None = None


def _steps(command: Command) -> Iterator[Command]:
    """A command's steps in the order they are applied (a compound's, nested ones opened)."""
    if isinstance(command, Compound):
        for step in command.commands:
            yield from _steps(step)
    else:
        yield command


def _faces_text(pieces: tuple[str, ...], faces: Any) -> str:
    return ", ".join(f"{pid}={face}" for pid, face in zip(pieces, faces, strict=True))


def _order_difference(got: tuple[str, ...], want: list[str]) -> str:
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        if a != b:
            return f"position {i + 1} from the bottom holds {a}, where the seed puts {b}"
    return "the same order"  # not reached: the orders differ


def verify_log(path: str | os.PathLike[str]) -> Verdict:
    """The verdict on the game at ``path``. Raises LogError if the file cannot be read or
    does not replay (its checkpoints not matching its entries)."""
    contents = read_log(path)
    Game.open(path, writable=False).close()  # the entries replay and match the checkpoints
    return verify_contents(contents)


def verify_contents(contents: LogContents) -> Verdict:
    """The verdict on a log already read (see ``verify_log``)."""
    header = contents.header
    if header.randomness is None:
        return Verdict(
            UNDECIDED,
            "this game's dice and shuffles are not committed (it was made without --fair):"
            " there is nothing to verify",
        )
    reveal = next(
        (e for e in contents.entries if e.kind == "chance" and isinstance(e.command, Reveal)),
        None,
    )
    if reveal is None:
        return Verdict(
            UNDECIDED,
            "the seed is not revealed yet ('tabletop reveal' at the end of the game): the rolls"
            " and shuffles cannot be re-derived",
        )
    seed = reveal.command.seed_bytes  # type: ignore[attr-defined]
    if commitment_of(seed) != header.randomness["commitment"]:
        return Verdict(
            UNFAIR,
            f"entry {reveal.seq}: the revealed seed does not match the commitment in the"
            " header: the seed was changed after the game began",
            entry=reveal.seq,
        )
    seats = [s.id for s in header.seats]
    state = TableState(header.seats)
    contributions: dict[str, bytes] = {}
    draws = rolls = shuffles = 0
    revealed = False

    def unfair(seq: int, text: str) -> Verdict:
        return Verdict(UNFAIR, f"entry {seq}: {text}", rolls, shuffles, seq)

    for entry in contents.entries:
        command = entry.command
        if entry.kind == "chance":
            if isinstance(command, Reveal):
                if command.seed != reveal.command.seed:  # type: ignore[attr-defined]
                    return unfair(entry.seq, "a second reveal with another seed")
                revealed = True
            elif isinstance(command, Contribute):
                if command.seat not in seats:
                    return unfair(entry.seq, f"a contribution of {command.seat!r}, not a seat")
                if command.seat in contributions:
                    return unfair(entry.seq, f"a second contribution of {command.seat}")
                if draws or revealed:
                    return unfair(
                        entry.seq, f"the contribution of {command.seat} came after a draw"
                    )
                contributions[command.seat] = command.contribution_bytes
            continue
        if entry.kind not in ("do", "setup") or not command.random:
            command.apply(state)
            continue
        for step in _steps(command):
            if isinstance(step, Roll | Shuffle) and (not isinstance(step, Roll) or step.pieces):
                what = "roll" if isinstance(step, Roll) else "shuffle"
                if revealed:
                    return unfair(entry.seq, f"a {what} after the seed was revealed")
                missing = [s for s in seats if s not in contributions]
                if missing:
                    return unfair(
                        entry.seq,
                        f"a {what} before every seat had contributed (missing: {', '.join(missing)})",
                    )
                if isinstance(step, Roll):
                    if any(step.forced):
                        return unfair(entry.seq, "a roll with forced faces")
                    dice = [state.pieces[pid].props.get("faces") or [] for pid in step.pieces]
                    want = derive_faces(seed, seats, contributions, draws, dice)
                    if tuple(want) != tuple(step.new):
                        return unfair(
                            entry.seq,
                            f"rolled {_faces_text(step.pieces, step.new)} where the seed gives"
                            f" {_faces_text(step.pieces, want)} (draw {draws})",
                        )
                    rolls += 1
                else:
                    if step.forced:
                        return unfair(entry.seq, "a shuffle in a forced order")
                    order = derive_order(seed, seats, contributions, draws, step.old)
                    if tuple(order) != tuple(step.new):
                        return unfair(
                            entry.seq,
                            f"shuffled {step.place} into an order the seed does not give:"
                            f" {_order_difference(step.new, order)} (draw {draws})",
                        )
                    shuffles += 1
                draws += 1
            step.apply(state)
        if entry.draws != draws:
            return unfair(
                entry.seq,
                f"the entry says the game had made {entry.draws} draws, where its rolls and"
                f" shuffles count {draws}",
            )
    return Verdict(
        FAIR,
        f"fair: {rolls} roll{'' if rolls == 1 else 's'} and {shuffles}"
        f" shuffle{'' if shuffles == 1 else 's'} re-derived from the revealed seed",
        rolls,
        shuffles,
    )
