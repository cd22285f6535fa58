"""``tabletop pbem``: a game kept by a host and played by exchanging sealed, signed files
(docs/pbem.md). Everything goes through the command line, as the players would use it: the
seats' keys, the host's game folder, the seats' requests, the host's turn files.

- A race (tests/toy) played by three seats and a host only through files ends with the same
  table as the same moves played locally, and every seat's copy is the seat's view of it.
- A file that does not continue a seat's copy (one byte changed, for another seat, an old
  one again, signed with another key, a gap, a fork) is refused in one line, nothing changed.
- Privacy: no card identity is readable in any file a seat receives, and its sealed part
  opens with that seat's key alone.
"""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from rules_assist.game import Game as RulesGame
from tabletop.cli import main
from tabletop.modules import find_module
from tabletop.modules.rules import game_of
from tabletop.persist import Game
from tabletop.persist.pbem import PbemError, PrivateKeys, read_envelope, read_private, seal
from tabletop.persist.seatview import SeatView
from tests.toy.reading import OVER, Race

TESTS = Path(__file__).resolve().parents[1]
SEATS = ("red", "yellow", "green")


class Players:
    """Three seats and a host, each with its own folder, exchanging files in ``root``."""

    def __init__(
        self,
        root: Path,
        capsys: pytest.CaptureFixture[str],
        module: str,
        *new: object,
        joins: dict[str, list[str]] | None = None,
    ):
        self.root, self.capsys = root, capsys
        self.count = 0
        keys = root / "keys"
        keys.mkdir()
        for seat in SEATS:
            self.ok("pbem", "keys", "--seat", seat, "-o", keys)
        pubs = [keys / f"{seat}.pub" for seat in SEATS]
        self.host = root / "host"
        self.ok(
            "pbem",
            "start",
            module,
            "--seats",
            ",".join(SEATS),
            "--keys",
            *pubs,
            "-o",
            self.host,
            *new,
        )
        self.folders = {}
        for seat in SEATS:
            self.folders[seat] = root / f"seat-{seat}"
            self.ok(
                "pbem",
                "join",
                "--key",
                keys / f"{seat}.key",
                "--host",
                self.host / "host.pub",
                "-o",
                self.folders[seat],
                *(joins or {}).get(seat, []),
            )
        self.received: dict[str, list[Path]] = {seat: [] for seat in SEATS}
        self.deliver()

    def run(self, *argv: object) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = self.capsys.readouterr()
        return code, out, err

    def ok(self, *argv: object) -> str:
        code, out, err = self.run(*argv)
        assert code == 0, err
        return out

    def file(self, name: str) -> Path:
        self.count += 1
        return self.root / f"{self.count:03d}-{name}"

    def send(self, seat: str) -> Path:
        turn = self.file(f"turn-{seat}.json")
        self.ok("pbem", "send", self.host, "--to", seat, "-o", turn)
        return turn

    def deliver(self) -> None:
        """The host sends every seat its turn file; each seat takes it in."""
        for seat in SEATS:
            turn = self.send(seat)
            self.ok("pbem", "receive", self.folders[seat], turn)
            self.received[seat].append(turn)

    def request(self, seat: str, *what: str) -> Path:
        request = self.file(f"request-{seat}.json")
        self.ok("pbem", "request", self.folders[seat], *what, "-o", request)
        return request

    def play(self, seat: str, *what: str, everyone: bool = True) -> None:
        """A seat's move: its request file, applied by the host, then everyone's turn file
        (or the mover's alone)."""
        self.ok("pbem", "receive", self.host, self.request(seat, *what))
        if everyone:
            self.deliver()
        else:
            turn = self.send(seat)
            self.ok("pbem", "receive", self.folders[seat], turn)
            self.received[seat].append(turn)

    def move(self, seat: str, place: str, to: str, everyone: bool = True) -> None:
        """The seat moves the first card of one of its places (its hand) to another."""
        with self.copy(seat) as copy:
            card = copy.state.places[place].contents[0]
        self.play(seat, "--move", card, "--to", to, everyone=everyone)

    def copy(self, seat: str) -> Game:
        return Game.open(self.folders[seat] / "copy.jsonl", writable=False)

    def game(self) -> Game:
        return Game.open(self.host / "game.jsonl", writable=False)

    def refused(self, folder: Path, path: Path) -> str:
        """Receiving ``path`` is refused with one line; nothing in ``folder`` changed."""
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        code, out, err = self.run("pbem", "receive", folder, path)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
        return err


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> RulesGame:
    monkeypatch.setenv("TABLETOP_RESOURCES", str(TESTS))  # tests/toy is the module 'toy'
    return game_of(find_module("toy"))


def _shares(race: Race, seat: str) -> str:
    """The seat's answer to R5: its pips on its cubes, the least advanced first."""
    left, answer = race.pips, []
    for cube in sorted(race.cubes(seat), key=race.left):
        share = min(left, race.left(cube))
        if share:
            answer.append(f"{cube}={share}")
            left -= share
    return ",".join(answer)


def _race_by_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toy: RulesGame, rounds: int | None
) -> None:
    """A race of three seats played by files for ``rounds`` rounds (None: to its end, R6), each
    seat deciding on its own copy; the same moves played locally with ``tabletop run``."""
    players = Players(tmp_path, capsys, "toy", "--seed", "5")
    local = tmp_path / "local-0.jsonl"
    players.ok("new", "toy", "--seats", ",".join(SEATS), "--seed", "5", "-o", local)
    turn = 0
    while rounds is None or turn < rounds * len(SEATS):
        seat = SEATS[turn % len(SEATS)]
        with players.copy(seat) as copy:
            race = Race(copy.state, toy)
            if race.phase == OVER:
                break
            assert race.to_move == seat
        players.play(seat, "--run", "roll")
        with players.copy(seat) as copy:
            answer = _shares(Race(copy.state, toy), seat)
        players.play(seat, "--run", f"advance --choice move={answer}")
        for step, proc in enumerate((["roll"], ["advance", "--choice", f"move={answer}"])):
            after = tmp_path / f"local-{2 * turn + step + 1}.jsonl"
            players.ok("run", local, *proc, "--seat", seat, "-o", after)
            local = after
        turn += 1
    with players.game() as hosted, Game.open(local, writable=False) as replayed:
        assert hosted.state.digest() == replayed.state.digest()
        assert len(hosted.table.entries) == len(replayed.table.entries)
        race = Race(hosted.state, toy)
        assert race.phase == OVER if rounds is None else race.turn == turn + 1
        for seat in SEATS:
            view = SeatView(hosted.table, seat)
            view.follow()
            with players.copy(seat) as copy:
                assert copy.state.digest() == view.state.digest()
                assert len(copy.table.entries) == len(hosted.table.entries)


def test_r4_r5_a_race_played_by_files_ends_as_a_local_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toy: RulesGame
) -> None:
    _race_by_files(tmp_path, capsys, toy, rounds=2)


@pytest.mark.slow
def test_r6_a_whole_race_played_by_files_ends_as_a_local_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toy: RulesGame
) -> None:
    _race_by_files(tmp_path, capsys, toy, rounds=None)


@pytest.fixture
def cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Players:
    """A proto game of three seats: four cards face down in each hand, a deck; red plays a
    card from its hand face down onto its tableau."""
    players = Players(tmp_path, capsys, "proto", "--seed", "3")
    players.move("red", "hand_red", "tableau_red")
    return players


def test_keys_are_private_to_their_owner(cards: Players) -> None:
    keys = cards.root / "keys"
    for seat in SEATS:
        assert stat.S_IMODE((keys / f"{seat}.key").stat().st_mode) == 0o600
        public = json.loads((keys / f"{seat}.pub").read_text())
        assert set(public) == {"format", "who", "box", "sign"} and public["who"] == seat
    assert stat.S_IMODE((cards.host / "host.key").stat().st_mode) == 0o600
    code, _, err = cards.run("pbem", "keys", "--seat", "red", "-o", keys)
    assert code == 2 and "already exists" in err


def test_a_turn_file_changed_by_one_byte_is_refused(cards: Players) -> None:
    cards.move("yellow", "hand_yellow", "tableau_yellow", everyone=False)  # entry 20
    turn = cards.send("red")
    text = turn.read_text()
    at = text.index(json.loads(text)["sealed"]) + 10
    tampered = cards.root / "tampered.json"
    tampered.write_text(text[:at] + ("B" if text[at] != "B" else "C") + text[at + 1 :])
    assert "the signature is not host's" in cards.refused(cards.folders["red"], tampered)
    renumbered = cards.root / "renumbered.json"
    renumbered.write_text(text.replace('"last": 20', '"last": 21'))
    assert "the signature is not host's" in cards.refused(cards.folders["red"], renumbered)
    cards.ok("pbem", "receive", cards.folders["red"], turn)  # the true file goes through


def test_a_file_for_another_seat_and_an_old_file_are_refused(cards: Players) -> None:
    red = cards.folders["red"]
    err = cards.refused(red, cards.received["yellow"][-1])
    assert "this file is for yellow, not for red" in err
    err = cards.refused(red, cards.received["red"][0])
    assert "a replay of an old file (entries 1..18); this copy stands at entry 19" in err
    err = cards.refused(red, cards.received["red"][-1])
    assert "a replay of an old file (entries 19..19)" in err


def test_a_gap_is_refused_and_a_file_sent_again_continues(cards: Players) -> None:
    red = cards.folders["red"]
    cards.move("green", "hand_green", "tableau_green", everyone=False)  # entry 20
    skipped = cards.send("red")  # red does not take it in (lost on the way)
    cards.move("green", "hand_green", "tableau_green", everyone=False)  # entry 21
    later = cards.send("red")
    err = cards.refused(red, later)
    assert "a gap: the file starts at entry 21 but this copy stands at entry 19" in err
    again = cards.file("turn-red-again.json")
    cards.ok("pbem", "send", cards.host, "--to", "red", "--again-from", "20", "-o", again)
    assert "entries 20..21 received" in cards.ok("pbem", "receive", red, again)
    assert "a replay" in cards.refused(red, skipped)
    with cards.game() as game, cards.copy("red") as copy:
        view = SeatView(game.table, "red")
        view.follow()
        assert copy.state.digest() == view.state.digest()


def test_a_file_signed_with_another_key_is_refused(cards: Players) -> None:
    red = cards.folders["red"]
    state = json.loads((red / "pbem.json").read_text())
    impostor = PrivateKeys.generate("host")
    payload = {"game": state["game"], "to": "red", "first": 20, "after": "", "entries": []}
    forged = cards.root / "forged.json"
    red_keys = read_private(state["key"]).public
    forged.write_text(seal("turn", state["game"], impostor, red_keys, 20, 20, payload))
    assert "the signature is not host's" in cards.refused(red, forged)


def test_a_fork_of_the_game_is_refused(cards: Players) -> None:
    """The host's folder copied at entry 19 and played on differently: its turn file, which
    repeats entry 20 as it went there, does not continue red's copy."""
    other = cards.root / "host-copy"
    shutil.copytree(cards.host, other)
    cards.move("yellow", "hand_yellow", "tableau_yellow")  # entry 20 of the game
    for step, place in enumerate(("discard", "discard")):  # the copy's referee moves instead
        with Game.open(other / "game.jsonl", writable=False) as game:
            card = game.state.top("deck")
        moved = cards.root / f"other-{step}.jsonl"
        cards.ok("move", other / "game.jsonl", "--piece", card, "--to", place, "-o", moved)
        moved.replace(other / "game.jsonl")
    fork = cards.file("turn-red-fork.json")
    cards.ok("pbem", "send", other, "--to", "red", "-o", fork)  # entries 20..21 of the copy
    err = cards.refused(cards.folders["red"], fork)
    assert "a fork: it continues another course of the game than this copy's at entry 20" in err
    request = cards.request("red", "--move", "hand_red", "--to", "discard")
    err = cards.refused(other, request)
    assert "red played on entry 20, but the game stands at entry 21" in err


def test_requests_are_signed_and_taken_once(cards: Players) -> None:
    with cards.game() as game:
        card = game.state.places["hand_red"].contents[0]
    request = cards.request("red", "--move", card, "--to", "tableau_red")
    forged = cards.root / "as-yellow.json"
    forged.write_text(request.read_text().replace('"from": "red"', '"from": "yellow"'))
    assert "the signature is not yellow's" in cards.refused(cards.host, forged)
    cards.ok("pbem", "receive", cards.host, request)
    assert "a replay: red's request 2 was already taken" in cards.refused(cards.host, request)
    late = cards.request("red", "--move", card, "--to", "discard")  # red has not seen entry 20
    assert "send red its turn file first" in cards.refused(cards.host, late)
    dice = cards.request("yellow", "--run", "roll --dice 6")
    assert "send yellow its turn file first" in cards.refused(cards.host, dice)
    cards.deliver()
    dice = cards.request("yellow", "--run", "roll --dice=6")
    assert "a request may not give --dice=6" in cards.refused(cards.host, dice)


def test_privacy_no_card_is_readable_in_the_files_a_seat_receives(cards: Players) -> None:
    cards.move("yellow", "hand_yellow", "tableau_yellow")
    with cards.copy("green") as copy:  # green draws the deck's top card, by its stand-in
        top = copy.state.top("deck")
    assert top.startswith("hidden-")
    cards.play("green", "--move", top, "--to", "hand_green")
    with cards.game() as game:
        assert len(game.state.places["hand_green"].contents) == 5
    with cards.game() as game:
        state = game.state
        ids = sorted(p.id for p in state.pieces.values() if p.kind == "card")
        hidden = {pid for pid in ids if not state.pieces[pid].face_up}
        own = {
            s: {*state.places[f"hand_{s}"].contents, *state.places[f"tableau_{s}"].contents}
            for s in SEATS
        }
    words = sorted({*ids, *(pid.rsplit("-", 1)[0] for pid in ids)})
    for seat in SEATS:
        keys = read_private(cards.root / "keys" / f"{seat}.key")
        others = [read_private(cards.root / "keys" / f"{s}.key") for s in SEATS if s != seat]
        opened = []
        for turn in cards.received[seat]:
            text = turn.read_text()
            assert not [w for w in words if w in text], f"{turn.name}: a card in the clear"
            envelope = read_envelope(turn)[0]
            for key in others:
                with pytest.raises(PbemError, match="does not open with this seat's key"):
                    envelope.open(key)
            opened.append(json.dumps(envelope.open(keys)))
        sealed = "".join(opened)
        assert all(f'"{pid}"' in sealed for pid in own[seat])  # its own cards, by name
        unseen = hidden - own[seat]
        assert not [pid for pid in unseen if f'"{pid}"' in sealed], f"{seat} reads another's card"
    for request in cards.root.glob("*request-*.json"):  # sealed to the host: nothing in the clear
        assert not [w for w in words if w in request.read_text()], request.name


def test_a_fair_game_by_files_is_verified_against_each_seats_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toy: RulesGame
) -> None:
    """docs/pbem.md: the host commits to its seed first; each seat draws its contribution after
    it has the commitment; its first turn file must hold both as sent; at the end the host
    reveals the seed and 'tabletop verify' re-derives every roll."""
    main(["pbem", "commit", "-o", str(tmp_path / "seed.json")])
    out = capsys.readouterr().out
    commitment = out.split("commitment: ")[1].split()[0]
    assert stat.S_IMODE((tmp_path / "seed.json").stat().st_mode) == 0o600
    contributions = {}
    for seat in SEATS:
        main(["pbem", "contribution"])
        contributions[seat] = capsys.readouterr().out.strip()
    fair = ["--fair", "--seed-file", tmp_path / "seed.json"]
    fair += [x for seat in SEATS for x in ("--contribution", f"{seat}={contributions[seat]}")]
    joins = {
        seat: ["--commitment", commitment, "--contribution", contributions[seat]] for seat in SEATS
    }
    players = Players(tmp_path, capsys, "toy", *fair, joins=joins)
    for seat in SEATS:
        with players.copy(seat) as copy:
            assert copy.header.randomness == {"scheme": "hmac-sha256/v1", "commitment": commitment}
        text = (players.folders[seat] / "copy.jsonl").read_text()
        assert json.loads((tmp_path / "seed.json").read_text())["secret"] not in text
        players.play(seat, "--run", "roll")
        with players.copy(seat) as copy:
            answer = _shares(Race(copy.state, toy), seat)
        players.play(seat, "--run", f"advance --choice move={answer}")
    game = players.host / "game.jsonl"
    code, _, err = players.run("verify", game)
    assert code == 2 and "not revealed" in err
    players.ok("reveal", game)
    players.deliver()
    assert "fair" in players.ok("verify", game)

    # a seat told another commitment, or whose contribution the host changed, refuses the game
    other = tmp_path / "other-seat"
    wrong = ["--commitment", "0" * 64]
    players.ok(
        "pbem",
        "join",
        "--key",
        tmp_path / "keys" / "red.key",
        "--host",
        players.host / "host.pub",
        "-o",
        other,
        *wrong,
    )
    first = players.received["red"][0]
    assert "not committed with the commitment this seat was sent" in players.refused(other, first)
    shutil.rmtree(other)
    wrong = ["--contribution", "ab" * 32]
    players.ok(
        "pbem",
        "join",
        "--key",
        tmp_path / "keys" / "red.key",
        "--host",
        players.host / "host.pub",
        "-o",
        other,
        *wrong,
    )
    assert "does not hold this seat's contribution" in players.refused(other, first)


def test_bad_input_is_named_in_one_line(cards: Players) -> None:
    red, root = cards.folders["red"], cards.root
    garbage = root / "garbage.json"
    garbage.write_text("not json at all")
    deep = root / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    cases = [
        (("pbem", "receive", red, root / "missing.json"), "cannot read the file"),
        (("pbem", "receive", red, garbage), "not a play-by-email file"),
        (("pbem", "receive", red, deep), "not a play-by-email file"),
        (
            ("pbem", "receive", root / "keys", cards.received["red"][0]),
            "not a play-by-email folder",
        ),
        (("pbem", "receive", cards.host, cards.received["red"][-1]), "a turn file goes to a seat"),
        (("pbem", "send", red, "--to", "red", "-o", root / "x.json"), "a seat's folder"),
        (("pbem", "send", cards.host, "--to", "blue", "-o", root / "x.json"), "not a seat"),
        (("pbem", "send", cards.host, "--to", "red", "-o", root / "x.json"), "nothing new for red"),
        (("pbem", "request", red, "--move", "x", "-o", root / "x.json"), "say where with --to"),
        (("pbem", "request", red, "--run", "'roll", "-o", root / "x.json"), "--run"),
        (
            (
                "pbem",
                "start",
                "proto",
                "--seats",
                "red,blue",
                "--keys",
                root / "keys" / "red.pub",
                "-o",
                root / "g2",
            ),
            "one public key file per seat",
        ),
        (
            (
                "pbem",
                "start",
                "proto",
                "--seats",
                "red",
                "--keys",
                root / "keys" / "red.key",
                "-o",
                root / "g3",
            ),
            "not a public key file",
        ),
        (
            (
                "pbem",
                "join",
                "--key",
                root / "keys" / "red.pub",
                "--host",
                cards.host / "host.pub",
                "-o",
                root / "j",
            ),
            "not a private key file",
        ),
    ]
    for argv, words in cases:
        code, out, err = cards.run(*argv)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert "Traceback" not in err
    assert not any((root / name).exists() for name in ("x.json", "g2", "g3", "j"))
