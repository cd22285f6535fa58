"""Fuzzed logs: whatever the damage, opening succeeds or raises LogError, and never harms the file."""

from __future__ import annotations

import json
import random

import pytest

from tabletop.core import Finding, Mode, Note, Policy
from tabletop.core import actions as act
from tabletop.persist import Game, LogError
from tests.sample_table import sample_header, setup_commands


def strict_about_hands(state, command, actor):
    if getattr(command, "dst", None) is not None and command.dst.place.startswith("hand"):
        return [Finding("H1", "hands are dealt, not played into", pieces=(command.piece,))]
    return []


@pytest.fixture(scope="module")
def valid_log(tmp_path_factory) -> bytes:
    """A log with every kind of line: setup, do, undo, redo, rolls, forced outcomes,
    findings and an override, compounds, notes in several scripts, and checkpoints."""
    path = tmp_path_factory.mktemp("fuzz") / "valid.jsonl"
    game = Game.create(
        sample_header(seed=5),
        setup_commands(),
        path,
        checker=strict_about_hands,
        policy=Policy(Mode.STRICT),
    )
    t = game.table
    t.checkpoint_every = 8
    s = t.state
    t.submit(act.draw(s, "deck", "discard", 2, face_up=True), "red")
    t.submit(act.move(s, "card7", "hand-red"), "red", force="teaching: a hand in play")
    t.random.force_faces([4])
    t.roll(["die0", "die1"], "red")
    t.shuffle("stack", "blue")
    t.random.force_order(["card0", "card1", "card2", "card3", "card4", "card5", "card6"])
    t.shuffle("deck", "blue")
    t.submit(act.move(s, "cube0", "map", spot="2,1"), "red")
    t.submit(act.move(s, "cube1", "elder", spot="rank2"), "red")
    t.submit(act.move(s, "elder", "row"), "red")
    t.submit(act.set_property(s, "card9", "wounds", [1, {"deep": True}]), "red")
    t.submit(act.set_counter(s, "phase", "hunt"), "red")
    t.submit(Note("ruling: the river — Fluss — 川 blocks"), "blue")
    t.undo("red")
    t.undo("red")
    t.redo("red")
    t.submit(act.move_many(s, ["cube2", "cube3"], "track", spot="t1"), "red")
    t.submit(act.rotate(s, "elder", 3), "red")
    t.submit(act.remove_piece(s, "scout"), "red")
    t.undo("red")
    t.submit(act.peek(s, "blue", "deck", 2), "blue")
    t.roll(["die2"], "blue")
    game.close()
    data = path.read_bytes()
    assert Game.open(path, writable=False).table.seq == t.seq
    return data


SCALARS = [None, True, False, 0, -1, 1, 2, 7, 10**30, 1.5, float("nan"), "", "x", "card0", "deck"]


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    if depth < 2 and roll < 0.25:
        return {rng.choice(["id", "op", "place", "x", "seq"]): random_value(rng, depth + 1)}
    return rng.choice(SCALARS)


def paths_in(value, prefix=()):
    """Every path to a value inside a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_in(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_in(v, (*prefix, i))


def mutate_json(rng: random.Random, lines: list[bytes]) -> str:
    """Change one value of one line (its type, a number, a key) and write it back."""
    index = rng.randrange(len(lines))
    record = json.loads(lines[index])
    where = rng.choice([p for p in paths_in(record) if p])
    parent = record
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    old = parent[last]
    choice = rng.random()
    if choice < 0.2 and isinstance(parent, dict):
        del parent[last]
        what = "deleted"
    elif choice < 0.5 and isinstance(old, int | float) and not isinstance(old, bool):
        parent[last] = old + rng.choice([-1, 1, 2, -250, 1000])
        what = "nudged"
    elif choice < 0.6 and isinstance(old, str):
        parent[last] = old[:-1] if old else "z"
        what = "edited"
    else:
        parent[last] = random_value(rng)
        what = "replaced"
    lines[index] = json.dumps(record, ensure_ascii=False).encode()
    return f"{what} line {index + 1} at {list(where)}"


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    kind = rng.choice(
        [
            "byte",
            "byte",
            "delete",
            "insert",
            "swap",
            "drop",
            "repeat",
            "truncate",
            "json",
            "json",
            "json",
        ]
    )
    if kind == "byte":
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[
            i + 1 :
        ], f"bit flip at {i}"
    if kind == "delete":
        i = rng.randrange(len(data))
        n = rng.randrange(1, 30)
        return data[:i] + data[i + n :], f"deleted {n} bytes at {i}"
    if kind == "insert":
        i = rng.randrange(len(data))
        junk = rng.choice(
            [b"{", b"}", b'"', b",", b"\n", b"\x00", b"\xff\xfe", b"null", b"[]", "é".encode()]
        )
        return data[:i] + junk + data[i:], f"inserted {junk!r} at {i}"
    if kind == "truncate":
        i = rng.randrange(1, len(data))
        return data[:i], f"truncated to {i} bytes"
    lines = data.split(b"\n")
    body = lines[:-1] if len(lines) > 1 else lines  # the last line ends with a newline
    if not body:
        return data, "no change"
    if kind == "swap":
        a, b = rng.randrange(len(body)), rng.randrange(len(body))
        body[a], body[b] = body[b], body[a]
        what = f"swapped lines {a + 1} and {b + 1}"
    elif kind == "drop":
        a = rng.randrange(len(body))
        del body[a]
        what = f"dropped line {a + 1}"
    elif kind == "repeat":
        a = rng.randrange(len(body))
        body.insert(rng.randrange(len(body)), body[a])
        what = f"repeated line {a + 1}"
    else:
        try:
            what = mutate_json(rng, body)
        except (ValueError, IndexError):  # an earlier mutation broke that line already
            return data, "no change"
    return b"\n".join(body) + b"\n", what


def check_open(path, data: bytes, story: str) -> None:
    outcomes = []
    for writable, verify in ((False, True), (False, False), (True, True)):
        path.write_bytes(data)
        try:
            game = Game.open(path, writable=writable, verify=verify)
        except LogError as exc:
            assert str(path) in str(exc), story
            assert path.read_bytes() == data, f"a failed open changed the file: {story}"
            outcomes.append("error")
            continue
        except Exception as exc:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"{type(exc).__name__}: {exc}\n  after: {story}") from exc
        try:
            assert game.state.consistency_problem() is None, story
            outcomes.append(game.state.digest())
            if writable:
                game.table.submit(Note("after the fuzz"), "red")
        finally:
            game.close()
        after = path.read_bytes()
        if not writable:
            assert after == data, f"a read-only open changed the file: {story}"
        else:
            # only a cut last line goes, or a missing newline is added; then the new entry
            kept = after[: after.rindex(b"\n", 0, len(after) - 1) + 1]
            assert data.startswith(kept) or data + b"\n" == kept, story
            assert Game.open(path, writable=False).table.seq == game.table.seq, story
    # a full open and a writable full open agree
    assert outcomes[0] == outcomes[2], story


@pytest.mark.parametrize("chunk", range(8))
def test_fuzzed_logs_open_or_raise_log_error(valid_log, tmp_path, chunk):
    rng = random.Random(1000 + chunk)
    path = tmp_path / "fuzzed.jsonl"
    for case in range(40):
        data, stories = valid_log, []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data, what = mutate(rng, data)
            stories.append(what)
        check_open(path, data, f"chunk {chunk} case {case}: " + "; ".join(stories))


def test_the_valid_log_itself_opens(valid_log, tmp_path):
    path = tmp_path / "valid.jsonl"
    check_open(path, valid_log, "unchanged")


def test_every_kind_of_line_with_values_of_the_wrong_type(valid_log, tmp_path):
    """A sweep: in every line, values at sampled places swapped for ones of other types."""
    rng = random.Random(7)
    path = tmp_path / "swept.jsonl"
    lines = valid_log.split(b"\n")[:-1]
    for number, raw in enumerate(lines):
        record = json.loads(raw)
        spots = [p for p in paths_in(record) if p and (len(p) < 3 or p[0] != "state")]
        for where in rng.sample(spots, min(8, len(spots))):
            for replacement in rng.sample([None, 7, -1, "x", [], {}, ["x"], {"id": 1}, True], 3):
                changed = json.loads(raw)
                parent = changed
                for key in where[:-1]:
                    parent = parent[key]
                parent[where[-1]] = replacement
                damaged = [*lines]
                damaged[number] = json.dumps(changed).encode()
                data = b"\n".join(damaged) + b"\n"
                story = f"line {number + 1} at {list(where)} = {replacement!r}"
                for verify in (True, False):
                    path.write_bytes(data)
                    try:
                        Game.open(path, writable=False, verify=verify).close()
                    except LogError:
                        pass
                    except Exception as exc:  # pragma: no cover
                        raise AssertionError(
                            f"{type(exc).__name__}: {exc}\n  after: {story}"
                        ) from exc
                    assert path.read_bytes() == data, story


@pytest.mark.parametrize(
    "policy",
    [{"mode": {}}, {"mode": ["strict"]}, {"mode": "strict", "per_rule": {"H1": {}}}],
)
def test_a_header_policy_of_the_wrong_type_is_a_log_error(valid_log, tmp_path, policy):
    """A mode that is an object or a list is refused like an unknown mode (not a TypeError)."""
    lines = valid_log.split(b"\n")
    header = json.loads(lines[0])
    header["policy"] = policy
    path = tmp_path / "policy.jsonl"
    path.write_bytes(b"\n".join([json.dumps(header).encode(), *lines[1:]]))
    with pytest.raises(LogError, match="rules policy needs a 'mode'"):
        Game.open(path, writable=False)
