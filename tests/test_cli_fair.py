"""Dice and shuffles nobody can rig (issue 16, docs/fairness.md), through the command line: a
whole Greenland game played by bots with committed dice and shuffles verifies once its seed is
revealed; the same log with one die changed, or one shuffle, rewritten so that it still opens
(the game's own replay writing it again, checkpoints and all), is rejected naming that entry;
so is a log whose revealed seed is not the one committed to; a game whose seed is not revealed
says so. The secret seed never shows in what players read before the reveal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.simulate import play
from tabletop.cli import main
from tabletop.core import CommandError, Compound, Mode, Policy, Roll, Shuffle
from tabletop.core.randomness import SecretSeed
from tabletop.modules import find_module, new_game
from tabletop.modules.rules import game_of
from tabletop.persist import Game

SEATS = ("red", "yellow", "green")


@pytest.fixture(scope="module")
def greenland_game():
    return game_of(find_module("greenland"))


def _contribution(i: int) -> str:
    return f"{i + 1:02x}" * 32


def play_fair_game(greenland_game, path: Path, seed: int = 3) -> str:
    """A whole Greenland game of random bots under strict rules with committed dice and
    shuffles, one move taken back halfway (its draws are not given back); the secret's hex."""
    committed = SecretSeed(bytes([seed]) * 32)  # a referee's draw, fixed so the game is too
    bots = {s: greenland_game.bots["random"](seed * 10 + i) for i, s in enumerate(SEATS)}
    session = new_game(
        greenland_game.module,
        seats=list(SEATS),
        variant="standard",
        seed=seed,
        path=path,
        policy=Policy(Mode.STRICT),
        committed=committed,
        contributions={s: _contribution(i) for i, s in enumerate(SEATS)},
    )
    try:
        session.table.checker = greenland_game.checker()
        table = session.table
        play(greenland_game, table, bots, until=lambda: table.random.draws >= 20)
        last = table.entries[table.undo_stack[-1] - 1]
        table.undo("table")  # a move taken back: its draws stay drawn
        if last.command.random:
            assert table.random.draws >= 20
        play(greenland_game, table, bots)
        assert session.state.counters.get("game_over") is not None
    finally:
        session.close()
    return committed.secret.hex()


def verify(path: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def tampered(path: Path, out: Path, seq: int, command) -> Path:
    """The game at ``path`` with entry ``seq`` holding ``command`` instead, written again by the
    game's own replay (``Game.branch``: every entry replayed, checkpoints hashed anew), as
    someone changing an outcome would: the new file opens like any other."""
    game = Game.open(path, writable=False)
    entries = game.table.entries
    entries[seq - 1] = entries[seq - 1]._replace(command=command)
    game.branch(game.table.seq, out)
    game.close()
    Game.open(out, writable=False).close()  # it opens: nothing but verify tells
    return out


def _with_step(command: Compound | Roll | Shuffle, old, new):
    """``command`` with its step ``old`` replaced by ``new``."""
    if command is old:
        return new
    if not isinstance(command, Compound):
        return command
    return Compound(
        command.label,
        tuple(_with_step(c, old, new) for c in command.commands),
        command.procedure,
    )


def _steps(command):
    if isinstance(command, Compound):
        for step in command.commands:
            yield from _steps(step)
    else:
        yield command


def _later_ids(game: Game, seq: int) -> str:
    return "\n".join(json.dumps(e.to_dict()) for e in game.table.entries[seq:])


@pytest.fixture(scope="module")
def fair_log(tmp_path_factory, greenland_game) -> tuple[Path, str]:
    """A finished fair game, its seed revealed with ``tabletop reveal``; and the secret."""
    path = tmp_path_factory.mktemp("fair") / "game.jsonl"
    secret = play_fair_game(greenland_game, path)
    assert main(["reveal", str(path)]) == 0
    return path, secret


def test_an_honest_game_verifies(fair_log, capsys) -> None:
    path, secret = fair_log
    code, text = verify(path, capsys)
    assert code == 0, text
    game = Game.open(path, writable=False)
    game.close()
    rolls = sum(
        isinstance(s, Roll)
        for e in game.table.entries
        if e.kind in ("do", "setup")
        for s in _steps(e.command)
    )
    shuffles = sum(
        isinstance(s, Shuffle)
        for e in game.table.entries
        if e.kind in ("do", "setup")
        for s in _steps(e.command)
    )
    assert rolls > 10 and shuffles >= 3
    assert f"fair: {rolls} rolls and {shuffles} shuffles re-derived" in text
    # the reveal is the last entry, public; the undone move's draws counted all the same
    last = game.table.entries[-1]
    assert last.kind == "chance" and last.command.seed == secret
    assert any(e.kind == "undo" for e in game.table.entries)


def test_a_game_with_one_die_changed_is_rejected_naming_its_entry(
    fair_log, tmp_path, capsys
) -> None:
    path, _ = fair_log
    game = Game.open(path, writable=False)
    game.close()
    undone = game.table.undone()
    # the game's last roll of a move that stands: no later entry expects its faces
    entry, roll = next(
        (e, s)
        for e in reversed(game.table.entries)
        if e.kind == "do" and e.seq not in undone
        for s in reversed(list(_steps(e.command)))
        if isinstance(s, Roll)
    )
    die = game.table.state.pieces[roll.pieces[0]]
    other = next(f for f in die.props["faces"] if f != roll.new[0])
    changed = Roll(roll.pieces, roll.old, (other, *roll.new[1:]), roll.forced)
    out = tampered(
        path, tmp_path / "die.jsonl", entry.seq, _with_step(entry.command, roll, changed)
    )
    code, text = verify(out, capsys)
    assert code == 1, text
    assert f"entry {entry.seq}: rolled {roll.pieces[0]}={other}" in text
    assert f"where the seed gives {roll.pieces[0]}={roll.new[0]}" in text


def test_a_game_with_one_shuffle_changed_is_rejected_naming_its_entry(
    fair_log, tmp_path, capsys
) -> None:
    path, _ = fair_log
    game = Game.open(path, writable=False)
    game.close()
    # a setup shuffle: two cards of it that no later entry names change places
    for entry in game.table.entries:
        shuffle = next((s for s in _steps(entry.command) if isinstance(s, Shuffle)), None)
        if entry.kind != "setup" or shuffle is None:
            continue
        later = _later_ids(game, entry.seq)
        quiet = [i for i, pid in enumerate(shuffle.new) if f'"{pid}"' not in later]
        if len(quiet) >= 2:
            break
    else:
        pytest.fail("no setup shuffle with two cards left alone")
    new = list(shuffle.new)
    i, j = quiet[:2]
    new[i], new[j] = new[j], new[i]
    changed = Shuffle(shuffle.place, shuffle.old, tuple(new), shuffle.forced)
    out = tampered(
        path, tmp_path / "deck.jsonl", entry.seq, _with_step(entry.command, shuffle, changed)
    )
    code, text = verify(out, capsys)
    assert code == 1, text
    assert (
        f"entry {entry.seq}: shuffled {shuffle.place} into an order the seed does not give" in text
    )
    assert (
        f"position {i + 1} from the bottom holds {new[i]}, where the seed puts {shuffle.new[i]}"
        in text
    )


def test_a_revealed_seed_that_is_not_the_committed_one_is_rejected(
    fair_log, tmp_path, capsys
) -> None:
    path, secret = fair_log
    game = Game.open(path, writable=False)
    game.close()
    reveal = game.table.entries[-1]
    other = reveal.command.__class__(("00" if secret[:2] != "00" else "11") + secret[2:])
    out = tampered(path, tmp_path / "seed.jsonl", reveal.seq, other)
    code, text = verify(out, capsys)
    assert code == 1
    assert f"entry {reveal.seq}: the revealed seed does not match the commitment" in text


def test_a_game_not_revealed_yet_says_so_and_keeps_its_secret(
    greenland_game, tmp_path, capsys
) -> None:
    path = tmp_path / "open.jsonl"
    secret = play_fair_game(greenland_game, path, seed=5)
    code, text = verify(path, capsys)
    assert code == 2 and "the seed is not revealed yet" in text
    # the referee's file keeps the secret in the header's one place...
    header = json.loads(path.read_text().splitlines()[0])
    assert header["randomness"]["secret"] == secret
    assert path.read_text().count(secret) == 1
    # ...and nothing players read shows it: the log's lines (plain, as JSON, as a seat),
    # the table as inspected
    for command in (
        ["log", str(path)],
        ["log", str(path), "--json"],
        ["log", str(path), "--seat", "red"],
        ["log", str(path), "--spectator"],
        ["inspect", str(path)],
        ["inspect", str(path), "--json"],
        ["inspect", str(path), "--seat", "red"],
        ["check", str(path)],
        ["score", str(path)],
    ):
        capsys.readouterr()
        assert main(command) == 0, command
        captured = capsys.readouterr()
        assert secret not in captured.out + captured.err, command
    # once revealed, it is public and the game draws no more
    assert main(["reveal", str(path)]) == 0
    assert verify(path, capsys)[0] == 0
    game = Game.open(path)
    try:
        dice = [p.id for p in game.state.pieces.values() if p.props.get("faces")][:1]
        with pytest.raises(CommandError, match="the seed was revealed at entry"):
            game.table.roll(dice, "red")
    finally:
        game.close()
    capsys.readouterr()
    assert main(["reveal", str(path)]) == 2
    assert "revealed already" in capsys.readouterr().err


def test_verify_of_a_plain_game_and_of_an_unreadable_file(tmp_path, capsys) -> None:
    plain = tmp_path / "plain.jsonl"
    assert main(["new", "greenland", "-o", str(plain), "--seed", "1"]) == 0
    code, text = verify(plain, capsys)
    assert code == 2 and "not committed" in text
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a log\n")
    code, text = verify(broken, capsys)
    assert code == 2 and "cannot be verified" in text and "Traceback" not in text
    assert not (tmp_path / "missing.jsonl").exists()
    code, text = verify(tmp_path / "missing.jsonl", capsys)
    assert code == 2 and "no such file" in text


def test_new_fair_needs_every_contribution_before_the_setup_shuffles(tmp_path, capsys) -> None:
    out = tmp_path / "g.jsonl"
    capsys.readouterr()
    assert main(["new", "greenland", "-o", str(out), "--seats", "3", "--fair"]) == 2
    err = capsys.readouterr().err
    assert "missing: red, yellow, green" in err and "--contribution SEAT=HEX" in err
    assert not out.exists()  # nothing half-made
    args = ["new", "greenland", "-o", str(out), "--seats", "3", "--fair"]
    assert main([*args, "--contribution", "red=zz"]) == 2
    assert "hexadecimal" in capsys.readouterr().err and not out.exists()
    assert main([*args, "--contribution", "blue=random"]) == 2
    assert "there is no seat 'blue'" in capsys.readouterr().err and not out.exists()
    assert main(["new", "greenland", "-o", str(out), "--contribution", "red=random"]) == 2
    assert "--fair" in capsys.readouterr().err
    code = main(
        [*args, "--contribution", "red=random", "--contribution", "yellow=random"]
        + ["--contribution", "green=" + "ab" * 16]
    )
    assert code == 0
    printed = capsys.readouterr().out
    header = json.loads(out.read_text().splitlines()[0])
    assert f"Dice and shuffles committed: {header['randomness']['commitment']}" in printed
    # the contributions are the first entries, public, before the setup's shuffles
    entries = [json.loads(line) for line in out.read_text().splitlines()[1:4]]
    assert [(e["kind"], e["cmd"]["seat"]) for e in entries] == [
        ("chance", "red"),
        ("chance", "yellow"),
        ("chance", "green"),
    ]
    assert entries[2]["cmd"]["contribution"] == "ab" * 16
    # a contribution comes once, before any draw
    assert main(["contribute", str(out), "red"]) == 2
    assert "red has added its contribution already (entry 1)" in capsys.readouterr().err


def test_contribute_and_reveal_on_a_game_whose_setup_draws_nothing(tmp_path, capsys) -> None:
    """Looot's setup rolls and shuffles nothing: its seats contribute after it is made (the
    commitment published first), each once; then the referee reveals and it verifies."""
    path = tmp_path / "looot.jsonl"
    assert main(["new", "looot", "-o", str(path), "--seats", "2", "--fair"]) == 0
    seats = [s["id"] for s in json.loads(path.read_text().splitlines()[0])["seats"]]
    assert main(["contribute", str(path), "nobody"]) == 2
    assert "there is no seat 'nobody'" in capsys.readouterr().err
    assert main(["contribute", str(path), seats[0], "abc"]) == 2
    assert "hexadecimal" in capsys.readouterr().err
    before = path.read_text()
    assert main(["contribute", str(path), seats[0]]) == 0
    assert "added its contribution" in capsys.readouterr().out
    game = Game.open(path, writable=False)
    game.close()
    assert game.table.seq == before.count("\n")  # one entry more: the contribution
    # no draw before every seat's contribution is in
    table = Game.open(path, writable=False).table
    with pytest.raises(CommandError, match=rf"missing: {seats[1]}"):
        table.shuffle(next(iter(table.state.places)), "table")
    assert (
        main(["contribute", str(path), seats[1], "0f" * 20, "-o", str(tmp_path / "b.jsonl")]) == 0
    )
    capsys.readouterr()
    b = tmp_path / "b.jsonl"
    assert main(["reveal", str(b)]) == 0
    code, text = verify(b, capsys)
    assert code == 0 and "fair: 0 rolls and 0 shuffles" in text
    # forcing outcomes is refused in a committed game
    game = Game.open(path, writable=False)
    with pytest.raises(CommandError, match="no outcome can be forced"):
        game.table.random.force_faces([1])
    game.close()


def test_a_procedure_runs_on_a_committed_game_but_its_dice_cannot_be_forced(
    tmp_path, capsys
) -> None:
    path = tmp_path / "g.jsonl"
    args = ["new", "greenland", "-o", str(path), "--seats", "3", "--fair"]
    contributions = (f"--contribution={s}={_contribution(i)}" for i, s in enumerate(SEATS))
    assert main([*args, "--seed", "2", *contributions]) == 0
    capsys.readouterr()
    out = tmp_path / "forced.jsonl"
    assert main(["run", str(path), "event", "--dice", "3", "-o", str(out)]) == 2
    assert "committed: no outcome can be forced" in capsys.readouterr().err
    assert not out.exists()
    # without --dice the procedure runs as in any game: the event (drawn from a deck the
    # secret seed shuffled) is applied, or its questions are asked
    code = main(["run", str(path), "event", "--choice", "council=yellow", "-o", str(out)])
    err = capsys.readouterr().err
    assert "no outcome can be forced" not in err
    assert (code == 0 and out.exists()) or (code == 2 and "answer with" in err), err


def test_verify_says_per_game_and_exits_with_the_worst(fair_log, tmp_path, capsys) -> None:
    path, _ = fair_log
    plain = tmp_path / "plain.jsonl"
    assert main(["new", "greenland", "-o", str(plain), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["verify", str(path), str(plain)]) == 2
    captured = capsys.readouterr()
    assert f"{path}: fair: " in captured.out
    assert f"{plain}: this game's dice and shuffles are not committed" in captured.err


@pytest.mark.slow
def test_a_snapshot_of_a_committed_game_holds_no_secret(greenland_game, tmp_path) -> None:
    """The snapshot's log band and header (an SVG, so its words can be read) of a game whose
    seed is not revealed yet: the contributions are there, the secret is not."""
    path = tmp_path / "open.jsonl"
    secret = play_fair_game(greenland_game, path, seed=6)
    svg = tmp_path / "table.svg"
    assert main(["render", str(path), "-o", str(svg), "--log", "400"]) == 0
    text = svg.read_text(encoding="utf-8")
    assert "contribution" in text
    assert secret not in text and secret[:16] not in text
