"""Checks of a seat's copy of a game (tabletop/persist/seatview.py), shared by the games' tests.

``check_copies`` exports a finished game for every seat and a spectator through the command
line (``tabletop export``), opens each copy as any log is opened, and replays it beside the
full game:

- after every entry the copy's table is exactly what the one rule of tabletop/visibility.py
  lets its viewer see of the full table (``picture``): every piece it sees where it lies,
  with its face; every other piece as a back in the same place, counted;
- every entry carries the digest of the view it makes;
- no byte of the copy names a piece its viewer had not seen by then: no id, no name on a
  face (the whole file for the pieces never seen; each entry's line for those not seen yet);
- a shuffle in the copy keeps the stand-ins in the order they lay: it moves only pieces
  the seat sees (each stand-in is then replaced by a fresh one);
- the copy keeps nothing of the full game's seed or checkpoints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tabletop.cli import main
from tabletop.core import Command, Compound, Shuffle, TableState, Viewed
from tabletop.core.commands import touched_by
from tabletop.persist import Game
from tabletop.persist.seatview import ANONYMOUS_PREFIX, PUBLIC_PROPS
from tabletop.visibility import ANONYMOUS, can_see, is_anonymous


def steps(command: Command) -> Iterable[Command]:
    if isinstance(command, Compound):
        for step in command.commands:
            yield from steps(step)
    else:
        yield command


def _look(state: TableState, pid: str, viewer: str | None) -> tuple[Any, ...]:
    piece = state.pieces[pid]
    lies = (piece.kind, piece.owner, piece.face_up, piece.rotation, piece.spot, piece.x, piece.y)
    if can_see(state, piece, viewer):
        props = sorted(piece.props.items(), key=lambda kv: kv[0])
        return ("seen", piece.id, *lies, repr(piece.value), repr(props))
    return ("back", *lies)


def _place_key(state: TableState, place_id: str, viewer: str | None) -> Any:
    place = state.places[place_id]
    if place.parent is None:
        return place_id
    card = state.pieces[place.parent]
    if can_see(state, card, viewer):
        return ("on", card.id)
    # regions of a card the viewer does not see: named by where the card lies
    return ("on", _place_key(state, card.place, viewer), state.index_of(card.id))


def picture(state: TableState, viewer: str | None) -> dict[Any, Any]:
    """What ``viewer`` sees of a table: each place's pieces in order, each seen piece with its
    id and face, each other piece as its back (regions of hidden cards, where they hold
    anything, by where the card lies), and the counters."""
    places: dict[Any, Any] = {}
    for place in state.places.values():
        if place.parent is not None and not place.contents:
            continue
        key = _place_key(state, place.id, viewer)
        places[key] = [_look(state, pid, viewer) for pid in place.contents]
    return {"places": places, "counters": json.dumps(state.counters, sort_keys=True)}


def ever_hidden(game: Game) -> set[str]:
    """The pieces a spectator could not see at some moment of the game."""
    state = game.table.state_at(0)
    hidden: set[str] = set()
    for entry in game.table.entries:
        for step in steps(entry.command):
            step.apply(state)
            for pid in touched_by(step).pieces:
                piece = state.pieces.get(pid)
                if piece is not None and not can_see(state, piece, None):
                    hidden.add(pid)
    return hidden


def _token_pattern(tokens: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(tokens), key=lambda t: (-len(t), t))
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w-])")


def check_copies(
    game: Game, faces: Mapping[str, str], folder: Path, secret: set[str]
) -> dict[str, Any]:
    """Export ``game`` (saved at its path) for every seat and a spectator and check each copy
    as the module's docstring says. ``faces``: a piece id -> the name on its face;
    ``secret``: the ids of the pieces whose identity matters (cards, tiles drawn blind).
    Returns, by viewer, how many pieces it never saw and how many it saw turn up."""
    table = game.table
    viewers: list[str | None] = [s.id for s in game.header.seats] + [None]
    names = {pid: faces[pid] for pid in secret if faces.get(pid)}
    pattern = _token_pattern([*secret, *names.values()])
    report: dict[str, Any] = {}
    for viewer in viewers:
        out = folder / f"copy-{viewer or 'spectator'}.jsonl"
        who = ["--for", viewer] if viewer is not None else ["--spectator"]
        assert main(["export", str(game.path), *who, "-o", str(out)]) == 0
        data = out.read_text(encoding="utf-8")
        lines = [json.loads(line) for line in data.splitlines()]
        header, records = lines[0], lines[1:]
        assert header["seed"] == 0 and header["extra"]["seat_view"]["seat"] == viewer
        by_seq = {r["seq"]: r for r in records if "seq" in r}
        copy = Game.open(out, writable=False)
        assert copy.table.seq == table.seq
        full = table.state_at(0)
        view = copy.table.state_at(0)
        seen: set[str] = set()
        shuffles = 0
        for entry, shown in zip(table.entries, copy.table.entries, strict=True):
            assert (shown.seq, shown.kind, shown.ref) == (entry.seq, entry.kind, entry.ref)
            for pid in touched_by(entry.command).pieces & secret:
                if pid in full.pieces and can_see(full, full.pieces[pid], viewer):
                    seen.add(pid)
            for step in steps(entry.command):
                step.apply(full)
                for pid in (touched_by(step).pieces | set(full.pieces)) & secret:
                    if pid in full.pieces and can_see(full, full.pieces[pid], viewer):
                        seen.add(pid)
            for step in steps(shown.command):  # a shuffle moves only pieces the seat sees
                shuffle = step.command if isinstance(step, Viewed) else step
                if isinstance(shuffle, Shuffle):
                    hidden = {p for p in shuffle.old if p.startswith(ANONYMOUS_PREFIX)}
                    assert [p for p in shuffle.new if p in hidden] == [
                        p for p in shuffle.old if p in hidden
                    ], (viewer, entry.seq)
                    shuffles += 1
            shown.command.apply(view)
            assert picture(view, viewer) == picture(full, viewer), (viewer, entry.seq)
            for piece in view.pieces.values():  # a stand-in holds its back, nothing more
                if is_anonymous(piece):
                    assert set(piece.props) <= {*PUBLIC_PROPS, ANONYMOUS}, (viewer, piece)
            record = by_seq[entry.seq]
            assert record["digest"] == view.digest(), (viewer, entry.seq)
            seen_names = {names[p] for p in seen if p in names}
            for token in pattern.findall(json.dumps(record, ensure_ascii=False)):
                assert token in seen or token in seen_names, (viewer, entry.seq, token)
        never = secret - seen
        never_names = {names[p] for p in never if p in names} - {
            names[p] for p in seen if p in names
        }
        for token in pattern.findall(data):
            assert token not in never and token not in never_names, (viewer, token)
        for record in records:
            if "checkpoint" in record:  # of the view, never of the full table
                assert record["hash"] == copy.table.state_at(record["checkpoint"]).digest()
        copy.close()
        report[viewer or "spectator"] = {
            "never": len(never),
            "seen": len(seen),
            "shuffles": shuffles,
            "file": out,
        }
    return report
