"""The command line's play by email (docs/pbem.md): ``tabletop pbem keys|start|join|send|
request|receive|status``.

One host (the referee) keeps the full log in its game folder and is its only writer. A seat
keeps, in its own folder, its copy of the game (the seat's view, tabletop/persist/seatview.py)
and plays by sending the host signed request files (a hand move, a procedure); the host
applies each through the table's pipeline under the game's rules policy, as ``tabletop move``
and ``tabletop run`` do, and sends each seat a turn file: the entries since its last one as
that seat may see them, sealed to the seat's key and signed by the host. Every refusal is one
line and changes nothing.

A procedure that asks a question of a seat other than the mover (a question's ``owner``,
rules_assist/questions.py) waits in the host's folder: the request and the answers given so
far, nothing applied. The owner's next turn file carries the question, as that seat may see
it; the owner answers with ``request --answer``; the host runs the procedure again with every
answer, until it is done or asks the next seat. Each answer must come from the seat that owns
its question: the mover's answer to another seat's question is refused.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import secrets
import shlex
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rules_assist import cli as procedures_cli
from rules_assist.cli_options import CommandError, read_pairs
from rules_assist.questions import AnswerError, Question
from tabletop.cli_fair import new_game_hint, new_game_options
from tabletop.cli_games import CliError, cmd_move, game_module, open_game
from tabletop.core import Entry, Mode, Policy, TableError
from tabletop.core.randomness import SEED_BYTES, SecretSeed, draw_contribution
from tabletop.modules import ModuleError, find_module, new_game
from tabletop.modules.words import piece_words
from tabletop.persist import Game
from tabletop.persist.atomic import atomic_write_text, atomic_writer
from tabletop.persist.logfile import Header, write_log
from tabletop.persist.pbem import (
    HOST,
    Envelope,
    Keys,
    PbemError,
    PrivateKeys,
    check_signature,
    keys_from_dict,
    keys_to_dict,
    read_envelope,
    read_private,
    read_public,
    seal,
    write_private,
    write_public,
)
from tabletop.persist.seatview import SEAT_VIEW, SeatView, ViewError, seat_header, view_lines
from tabletop.persist.takeback import ASK, take_back_verdict

STATE = "pbem.json"  # a folder's play-by-email record: whose it is, the keys, where it stands
GAME = "game.jsonl"  # the host's full log
COPY = "copy.jsonl"  # a seat's copy (open it with tabletop log/inspect/render/play)
HOST_KEY, HOST_PUB = "host.key", "host.pub"
SEED_FORMAT = "tabletop-pbem-seed/1"
# a request names what the seat does; these options of a procedure are the host's alone
HOST_ONLY_OPTIONS = ("--seat", "-o", "--output", "--dice")


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pbem",
        help="play by email: sealed, signed turn files between a host and the seats",
        description="A game played by exchanging files. The host keeps the full log and applies"
        " the seats' signed requests; each seat receives its own view of the game, sealed to its"
        " key. See docs/pbem.md.",
    )
    pb = p.add_subparsers(dest="pbem_command", metavar="COMMAND", required=True)
    k = pb.add_parser("keys", help="make a seat's key pair (SEAT.key private, SEAT.pub to share)")
    k.add_argument("--seat", required=True, help="the seat the keys are for")
    k.add_argument("-o", "--output", required=True, metavar="DIR", help="an existing folder")
    s = pb.add_parser("start", help="the host starts a game: its folder holds the full log")
    s.add_argument("module", help="the game's module id")
    s.add_argument("--seats", required=True, help="the seats, e.g. red=Ann,blue=Bo")
    s.add_argument("--keys", nargs="+", required=True, metavar="PUB", help="each seat's .pub")
    s.add_argument("-o", "--output", required=True, metavar="FOLDER", help="a new folder")
    s.add_argument("--seed", type=int, help="the dice's seed (default: drawn at random)")
    s.add_argument("--rules", default="advisory", choices=[m.value for m in Mode])
    s.add_argument("--position", metavar="FILE", help="build the table a position file describes")
    s.add_argument("--fair", action="store_true", help="commit the dice (docs/fairness.md)")
    s.add_argument("--contribution", action="append", default=[], metavar="SEAT=HEX")
    s.add_argument(
        "--seed-file",
        metavar="FILE",
        help="with --fair: the secret seed 'tabletop pbem commit' drew (its commitment was sent"
        " to the seats before they chose their contributions)",
    )
    c = pb.add_parser("commit", help="the host draws the secret seed of a --fair game first")
    c.add_argument("-o", "--output", required=True, metavar="FILE", help="the seed (mode 0600)")
    pb.add_parser("contribution", help="a seat draws its random contribution (hex)")
    j = pb.add_parser("join", help="a seat makes its folder for a game it was invited to")
    j.add_argument("--key", required=True, help="the seat's private key file (SEAT.key)")
    j.add_argument("--host", required=True, help="the host's public key file (host.pub)")
    j.add_argument("-o", "--output", required=True, metavar="FOLDER", help="a new folder")
    j.add_argument("--commitment", metavar="HEX", help="a --fair game's commitment, as sent")
    j.add_argument("--contribution", metavar="HEX", help="this seat's contribution, as sent")
    se = pb.add_parser("send", help="the host writes a seat's turn file: its new entries")
    se.add_argument("folder", help="the host's game folder")
    se.add_argument("--to", required=True, metavar="SEAT", help="the seat it is for")
    se.add_argument("-o", "--output", required=True, metavar="FILE", help="the turn file")
    se.add_argument(
        "--again-from",
        type=int,
        metavar="N",
        help="send the entries from N on again (a turn file that was lost)",
    )
    r = pb.add_parser("request", help="a seat writes its move for the host")
    r.add_argument("folder", help="the seat's folder")
    what = r.add_mutually_exclusive_group(required=True)
    what.add_argument("--move", metavar="PIECE", help="a hand move of this piece (with --to)")
    what.add_argument(
        "--run",
        metavar="'PROC [OPTIONS]'",
        help="a procedure and its options, as one argument, e.g. --run 'advance --choice move=...'",
    )
    what.add_argument(
        "--answer",
        action="append",
        metavar="KEY=VALUE",
        help="the answer to a question the host asked this seat (repeatable; 'pbem status'"
        " shows the question)",
    )
    what.add_argument(
        "--undo",
        action="store_true",
        help="take back this seat's own last move (nobody else has played since; docs/pbem.md)",
    )
    what.add_argument(
        "--redo", action="store_true", help="put back the own move this seat has just taken back"
    )
    r.add_argument("--to", metavar="PLACE[:SPOT]", help="where --move puts the piece")
    r.add_argument("-o", "--output", required=True, metavar="FILE", help="the request file")
    rc = pb.add_parser("receive", help="apply a turn file (a seat) or a request file (the host)")
    rc.add_argument("folder", help="the receiver's folder")
    rc.add_argument("file", help="the file received")
    st = pb.add_parser("status", help="where a game stands, and the question that waits")
    st.add_argument("folder", help="the host's game folder or a seat's folder")


def cmd_pbem(args: argparse.Namespace) -> int:
    try:
        return COMMANDS[args.pbem_command](args)
    except (PbemError, ViewError) as exc:
        raise CliError(str(exc)) from None


# ---- folders ----------------------------------------------------------------------------
def _new_file(path: str) -> None:
    if os.path.exists(path):
        raise CliError(f"{path}: already exists; choose another name (nothing was changed)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{path}: the folder {folder!r} does not exist")


def _new_folder(path: str) -> Path:
    path = os.path.normpath(path)  # "game/" names the folder game
    _new_file(path)
    folder = Path(path)
    folder.mkdir()
    return folder


def _state(folder: str) -> dict[str, Any]:
    path = Path(folder) / STATE
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise CliError(f"{folder}: not a play-by-email folder (no {STATE})") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise CliError(f"{path}: damaged (not JSON)") from None
    if not isinstance(state, dict) or state.get("role") not in (HOST, "seat"):
        raise CliError(f"{path}: not a play-by-email record")
    return state


def _save_state(folder: str | Path, state: dict[str, Any]) -> None:
    atomic_write_text(Path(folder) / STATE, json.dumps(state, indent=1) + "\n", replace=True)


# ---- keys, start, join ------------------------------------------------------------------
def cmd_keys(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.output):
        raise CliError(f"{args.output}: no such folder")
    private, public = (os.path.join(args.output, f"{args.seat}.{x}") for x in ("key", "pub"))
    for path in (private, public):
        _new_file(path)
    keys = PrivateKeys.generate(args.seat)
    write_private(private, keys)
    write_public(public, keys.public)
    print(f"{private}: {args.seat}'s private keys (keep them; mode 0600)")
    print(f"{public}: {args.seat}'s public keys (send this file to the host)")
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    args.output = os.path.normpath(args.output)
    _new_file(args.output)
    module = find_module(args.module)
    keys = [read_public(path) for path in args.keys]
    by_seat = {k.who: k for k in keys}
    fair = new_game_options(args)
    if args.seed_file is not None:
        if not fair:
            raise CliError("--seed-file is for a game made with --fair")
        fair["committed"] = _read_seed(args.seed_file)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    folder = _new_folder(args.output)
    try:
        try:
            game = new_game(
                module,
                seats=args.seats,
                seed=seed,
                path=folder / GAME,
                policy=Policy(Mode(args.rules)),
                position=args.position,
                **fair,
            )
        except TableError as exc:
            text = new_game_hint(exc) if fair else str(exc)
            raise CliError(f"{args.position}: {text}" if args.position else text) from None
        game.close()
        seats = [s.id for s in game.header.seats]
        missing = [s for s in seats if s not in by_seat]
        unknown = [who for who in by_seat if who not in seats]
        if missing or unknown:
            raise CliError(
                f"--keys: give one public key file per seat (missing: {', '.join(missing) or '-'};"
                f" not a seat: {', '.join(unknown) or '-'})"
            )
        host = PrivateKeys.generate(HOST)
        write_private(folder / HOST_KEY, host)
        write_public(folder / HOST_PUB, host.public)
        state = {
            "role": HOST,
            "game": secrets.token_hex(16),
            "seats": {
                s: {"keys": keys_to_dict(by_seat[s]), "sent": 0, "request": 0} for s in seats
            },
        }
        _save_state(folder, state)
    except BaseException:
        for child in folder.iterdir():
            child.unlink()
        folder.rmdir()
        raise
    print(f"{folder}: a game of {module.name} for {', '.join(seats)}; this folder is the host's")
    print(f"  the host holds the full log ({folder / GAME}) and the secret seed: it is the referee")
    print(f"  send {folder / HOST_PUB} to every seat ('tabletop pbem join')")
    if fair:
        print(f"  dice and shuffles committed: {fair['committed'].commitment}")
    return 0


def cmd_commit(args: argparse.Namespace) -> int:
    _new_file(args.output)
    seed = SecretSeed.draw()
    with atomic_writer(args.output) as handle:
        os.chmod(handle.name, 0o600)
        handle.write(json.dumps({"format": SEED_FORMAT, "secret": seed.secret.hex()}) + "\n")
    print(f"{args.output}: the secret seed (keep it; mode 0600)")
    print(f"commitment: {seed.commitment}")
    print("  send the commitment to every seat before they choose their contributions")
    return 0


def _read_seed(path: str) -> SecretSeed:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        secret = bytes.fromhex(record["secret"]) if record.get("format") == SEED_FORMAT else b""
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        secret = b""
    if len(secret) != SEED_BYTES:
        raise CliError(f"{path}: not a seed file of 'tabletop pbem commit'")
    return SecretSeed(secret)


def cmd_contribution(args: argparse.Namespace) -> int:
    print(draw_contribution())
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    args.output = os.path.normpath(args.output)
    _new_file(args.output)
    keys = read_private(args.key)
    host = read_public(args.host)
    folder = _new_folder(args.output)
    state = {
        "role": "seat",
        "seat": keys.who,
        "key": os.path.abspath(args.key),
        "host": keys_to_dict(host),
        "game": None,
        "header": None,
        "entries": [],
        "request": 0,
        "commitment": args.commitment.lower() if args.commitment else None,
        "contribution": args.contribution.lower() if args.contribution else None,
    }
    _save_state(folder, state)
    print(f"{folder}: {keys.who}'s folder; receive the host's first turn file into it")
    return 0


# ---- the host --------------------------------------------------------------------------
def _host_state(folder: str) -> dict[str, Any]:
    state = _state(folder)
    if state["role"] != HOST:
        raise CliError(f"{folder}: a seat's folder; only the host's game folder does this")
    return state


def _seat_view(game: Any, seat: str) -> SeatView:
    names = {s.id: s.name for s in game.header.seats}
    try:
        words = piece_words(game_module(game))
    except ModuleError as exc:
        raise CliError(f"cannot show a seat its view without the game's module: {exc}") from None
    view = SeatView(game.table, seat, names, words)
    view.follow()
    return view


def cmd_send(args: argparse.Namespace) -> int:
    state = _host_state(args.folder)
    seat = args.to
    if seat not in state["seats"]:
        raise CliError(f"--to {seat!r}: not a seat of this game ({', '.join(state['seats'])})")
    _new_file(args.output)
    record = state["seats"][seat]
    game = open_game(str(Path(args.folder) / GAME))
    try:
        view = _seat_view(game, seat)
        viewed, view_ids = view.entries, view.real_ids()
        header = game.header
    finally:
        game.close()
    sent = record["sent"]
    if args.again_from is not None:
        if not 1 <= args.again_from <= sent:
            raise CliError(f"--again-from {args.again_from}: {seat} was sent entries 1..{sent}")
        sent = args.again_from - 1
    new = viewed[sent:]
    pending = state.get("pending")
    asking = pending is not None and pending["waiting"] == seat
    if not new and not asking:
        raise CliError(f"nothing new for {seat}: its copy stands at entry {sent}")
    question = None
    if asking:
        alias = {pid: shown for shown, pid in view_ids.items()}
        question = {
            "ask": pending["ask"],
            "seat": pending["seat"],
            "procedure": pending["run"][0],
            "questions": [_question_for(q, alias) for q in pending["questions"]],
        }
    first, last = sent + 1, len(viewed)
    payload = {
        "game": state["game"],
        "to": seat,
        "first": first,
        "after": viewed[sent - 1][1] if sent else "",
        "entries": [dict(entry.to_dict(), digest=digest) for entry, digest in new],
        "header": seat_header(header, seat, 0).to_dict() if sent == 0 else None,
        "question": question,
    }
    host = read_private(Path(args.folder) / HOST_KEY)
    text = seal(
        "turn",
        state["game"],
        host,
        keys_from_dict(record["keys"]),
        first,
        last,
        payload,
    )
    atomic_write_text(args.output, text)
    record["sent"] = len(viewed)
    if question is not None:
        record["asked"] = question["ask"]
    _save_state(args.folder, state)
    what = f"entries {first}..{last}" if new else f"no new entries (it stands at entry {last})"
    asked = f", and {_question_text(pending)}" if question is not None else ""
    print(f"{args.output}: {what} for {seat}{asked}, sealed and signed")
    return 0


def _owner(question: Question, mover: str, seats: Any) -> str:
    """The seat that answers a question: its owner, or the mover for a question of the table
    as a whole (no owner, or one that is not a seat)."""
    return question.owner if question.owner in seats else mover


def _giver(key: str, mover: str, answers: dict[str, dict[str, str]]) -> str:
    """The seat whose answer was taken under ``key``: a seat that answered it by email, else
    the mover (its request's options)."""
    return next((s for s, given in answers.items() if s != mover and key in given), mover)


def _run_pending(
    path: str,
    part: Path,
    mover: str,
    argv: list[str],
    answers: dict[str, dict[str, str]],
    seats: Any,
    where: str,
) -> str:
    """Run the mover's procedure on ``path`` into ``part`` with every answer given so far; each
    answer taken must be its question's owner's (else PbemError, nothing written). Stops with
    AnswersNeeded as ``tabletop run`` does."""
    extra = [
        arg
        for seat, given in answers.items()
        if seat != mover
        for key, value in given.items()
        for arg in ("--choice", f"{key}={value}")
    ]
    extra += [a for k, v in answers.get(mover, {}).items() for a in ("--choice", f"{k}={v}")]
    answered: list[tuple[Question, str]] = []

    def check() -> None:
        for question, key in answered:
            owner, giver = _owner(question, mover, seats), _giver(key, mover, answers)
            if owner != giver:
                raise PbemError(
                    f"{where}: '{question.key}' ({question.text}) is {owner}'s question to"
                    f" answer, not {giver}'s (nothing was changed)"
                )

    try:
        said = procedures_cli.run_command(
            [path, *argv, *extra, "--seat", mover, "-o", str(part)], answered
        )
    except procedures_cli.AnswersNeeded:
        check()
        raise
    check()
    return said


def _questions_of(need: procedures_cli.AnswersNeeded, mover: str, seats: Any) -> tuple[str, list]:
    """The seat the stopped procedure waits for (the owner of the first question) and its
    questions among those the procedure could see."""
    first = _owner(need.questions[0], mover, seats)
    return first, [q for q in need.questions if _owner(q, mover, seats) == first]


def _question_text(pending: dict[str, Any]) -> str:
    first = pending["questions"][0]
    return (
        f"waiting for {pending['waiting']}'s answer to '{first['key']}' ({first['text']}) in"
        f" {pending['seat']}'s request {pending['request']} ({pending['run'][0]})"
    )


def _wait(
    state: dict[str, Any],
    pending: dict[str, Any],
    need: procedures_cli.AnswersNeeded,
    seats: Any,
) -> None:
    waiting, questions = _questions_of(need, pending["seat"], seats)
    pending.update(
        waiting=waiting,
        questions=[asdict(q) for q in questions],
        ask=int(state.get("asks", 0)) + 1,
    )
    state["asks"] = pending["ask"]
    state["pending"] = pending


def _mover_first(need: procedures_cli.AnswersNeeded, mover: str, seats: Any) -> CommandError:
    """The mover's own questions come first: ``tabletop run``'s list, the mover's lines to
    answer, then the questions other seats will be asked."""
    head, *lines = str(need).splitlines()
    mine = [
        line
        for q, line in zip(need.questions, lines, strict=False)
        if _owner(q, mover, seats) == mover
    ]
    later = [
        f"  then {_owner(q, mover, seats)} is asked: {q.describe()}"
        for q in need.questions
        if _owner(q, mover, seats) != mover
    ]
    return CommandError("\n".join([head, *mine, *later]))


WORD = re.compile(r"[A-Za-z0-9_.\-]+")  # a piece id, where a question or an answer may name one


def _stand_ins_back(value: str, shown: dict[str, str]) -> str:
    """An answer written on a seat's copy: its stand-in ids put back as the pieces."""
    return WORD.sub(lambda m: shown.get(m.group(), m.group()), value)


def _question_for(question: dict[str, Any], alias: dict[str, str]) -> dict[str, Any]:
    """A question as its seat may see it: every piece named by the id it has on that seat's
    table (a stand-in for a piece it cannot see)."""

    def word(text: Any) -> Any:
        if not isinstance(text, str):
            return text
        return WORD.sub(lambda m: alias.get(m.group(), m.group()), text)

    seen = dict(question)
    for name in ("text", "key"):
        seen[name] = word(seen[name])
    seen["options"] = [word(o) for o in seen["options"]]
    seen["alternatives"] = [word(o) for o in seen["alternatives"]]
    seen["groups"] = [[word(g), n] for g, n in seen["groups"]]
    # a label names its option for people: a piece the seat cannot see keeps its stand-in
    seen["labels"] = [[word(o), word(o) if word(o) != o else word(t)] for o, t in seen["labels"]]
    return seen


def question_from_dict(record: dict[str, Any]) -> Question:
    """A question as a turn file or the host's record carries it."""
    fields = dict(record)
    for name in ("options", "alternatives"):
        fields[name] = tuple(str(o) for o in fields.get(name, ()))
    for name in ("groups", "labels"):
        fields[name] = tuple(tuple(pair) for pair in fields.get(name, ()))
    return Question(**fields)


def _receive_request(args: argparse.Namespace, state: dict[str, Any]) -> int:
    env, signature, record = read_envelope(args.file)
    if env.kind != "request":
        raise PbemError(f"{args.file}: a turn file goes to a seat, not to the host")
    if env.receiver != HOST:
        raise PbemError(f"{args.file}: this file is for {env.receiver}, not for the host")
    if env.game != state["game"]:
        raise PbemError(f"{args.file}: a file of another game (nothing was changed)")
    seat = env.sender
    if seat not in state["seats"]:
        raise PbemError(f"{args.file}: from {seat!r}, not a seat of this game")
    check_signature(env, signature, record, keys_from_dict(state["seats"][seat]["keys"]))
    seat_record = state["seats"][seat]
    if env.first <= seat_record["request"]:
        raise PbemError(
            f"{args.file}: a replay: {seat}'s request {env.first} was already taken"
            f" (the last was {seat_record['request']}); nothing was changed"
        )
    pending = state.get("pending")
    if pending is not None and seat != pending["waiting"]:
        raise PbemError(f"{args.file}: {_question_text(pending)}; nothing was changed")
    path = str(Path(args.folder) / GAME)
    game = open_game(path)
    try:
        length = len(game.table.entries)
        view = _seat_view(game, seat)
        names = {s.id: s.name for s in game.header.seats}
    finally:
        game.close()
    if env.last != length or seat_record["sent"] != length:
        raise PbemError(
            f"{args.file}: {seat} played on entry {env.last}, but the game stands at entry"
            f" {length}: send {seat} its turn file first (nothing was changed)"
        )
    payload = env.open(read_private(Path(args.folder) / HOST_KEY))
    expected = view.entries[-1][1] if view.entries else ""
    if payload.get("digest") != expected or payload.get("game") != state["game"]:
        raise PbemError(
            f"{args.file}: {seat}'s copy differs from the game at entry {length} (a fork);"
            " nothing was changed"
        )
    # the seat names hidden pieces by their stand-ins in its view: back to the pieces
    shown = view.real_ids()
    if pending is not None:
        return _receive_answer(args, state, pending, seat, env.first, payload, shown)
    if "answer" in payload:
        raise PbemError(f"{args.file}: no question waits for {seat}'s answer (nothing was changed)")
    # a fresh name for the game with the request applied: never one a file could be planted at
    part = Path(args.folder) / f".request-{secrets.token_hex(8)}.jsonl"
    try:
        if isinstance(payload.get("move"), dict):
            move = payload["move"]
            piece = shown.get(str(move.get("piece")), str(move.get("piece")))
            to = str(move.get("to"))
            place, sep, spot = to.rpartition(":")
            if sep and place in shown:
                to = f"{shown[place]}:{spot}"
            elif to in shown:
                to = shown[to]
            ns = argparse.Namespace(
                file=path, piece=piece, to=to, seat=seat, mode=None, reason=None, output=str(part)
            )
            with contextlib.redirect_stdout(io.StringIO()) as said:
                cmd_move(ns)
            print(said.getvalue().replace(str(part), path), end="")
        elif isinstance(payload.get("run"), list):
            argv = [str(a) for a in payload["run"]]
            bad = [a for a in argv if a.split("=")[0] in HOST_ONLY_OPTIONS]
            if bad or not argv:
                raise PbemError(f"{args.file}: a request may not give {', '.join(bad) or '-'}")
            argv = [shown.get(a, a) for a in argv]
            seats = state["seats"]
            try:
                text = _run_pending(path, part, seat, argv, {}, seats, args.file)
            except procedures_cli.AnswersNeeded as need:
                if part.exists():
                    part.unlink()
                if _owner(need.questions[0], seat, seats) == seat:
                    raise _mover_first(need, seat, seats) from None
                pending = {"seat": seat, "request": env.first, "run": argv, "answers": {}}
                _wait(state, pending, need, seats)
                seat_record["request"] = env.first
                _save_state(args.folder, state)
                print(
                    f"{path}: {seat}'s request {env.first} ({argv[0]}) waits: nothing applied yet;"
                    f" {_question_text(pending)}: send {pending['waiting']} its turn file"
                )
                return 0
            print(text.replace(str(part), path))
        elif payload.get("take_back") in ("undo", "redo"):
            _take_back(args.file, path, part, payload["take_back"], seat, view, names.get(seat))
        else:
            raise PbemError(f"{args.file}: the request names no move")
    except BaseException:
        if part.exists():
            part.unlink()
        raise
    os.replace(part, path)
    seat_record["request"] = env.first
    _save_state(args.folder, state)
    print(f"{path}: {seat}'s request {env.first} applied; send every seat its turn file")
    return 0


def _receive_answer(
    args: argparse.Namespace,
    state: dict[str, Any],
    pending: dict[str, Any],
    seat: str,
    number: int,
    payload: dict[str, Any],
    shown: dict[str, str],
) -> int:
    """The waiting seat's answer to the pending procedure's question: the procedure runs again
    with every answer given; it is applied, waits for the next seat, or is refused by the
    rules (then it is dropped, nothing applied)."""
    answer = payload.get("answer")
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), dict):
        raise PbemError(f"{args.file}: {_question_text(pending)}; nothing was changed")
    if answer.get("ask") != pending["ask"]:
        raise PbemError(
            f"{args.file}: an answer to another question than the one waiting;"
            f" {_question_text(pending)} (nothing was changed)"
        )
    questions = {q["key"]: question_from_dict(q) for q in pending["questions"]}
    given: dict[str, str] = {}
    for key, value in answer["choices"].items():
        key = _stand_ins_back(str(key), shown)
        if key not in questions:
            raise PbemError(
                f"{args.file}: '{key}' is not a question waiting for {seat}'s answer"
                f" ({', '.join(questions)}); nothing was changed"
            )
        value = _stand_ins_back(str(value), shown)
        try:
            questions[key].parse(value)
        except AnswerError as exc:
            raise PbemError(f"{args.file}: {exc} (nothing was changed)") from None
        given[key] = value
    first = pending["questions"][0]["key"]
    if first not in given:
        raise PbemError(
            f"{args.file}: answer '{first}' ({pending['questions'][0]['text']}) first"
            " (nothing was changed)"
        )
    answers = {s: dict(a) for s, a in pending["answers"].items()}
    answers.setdefault(seat, {}).update(given)
    path = str(Path(args.folder) / GAME)
    mover, argv = pending["seat"], pending["run"]
    part = Path(args.folder) / f".request-{secrets.token_hex(8)}.jsonl"
    try:
        text = _run_pending(path, part, mover, argv, answers, state["seats"], args.file)
    except procedures_cli.AnswersNeeded as need:
        if part.exists():
            part.unlink()
        pending["answers"] = answers
        _wait(state, pending, need, state["seats"])
        state["seats"][seat]["request"] = number
        _save_state(args.folder, state)
        print(
            f"{path}: {seat}'s answer taken; {mover}'s request {pending['request']} still waits:"
            f" {_question_text(pending)}: send {pending['waiting']} its turn file"
        )
        return 0
    except (PbemError, CommandError, TableError) as exc:
        # refused with this seat's answer: by the rules, or (a path only these answers open)
        # on another seat's question the mover's request had answered
        if part.exists():
            part.unlink()
        state["pending"] = None
        state["seats"][seat]["request"] = number
        _save_state(args.folder, state)
        print(
            f"{path}: {seat}'s answer taken, but {mover}'s request {pending['request']}"
            f" ({argv[0]}) is refused: {exc}; nothing was applied"
        )
        return 0
    except BaseException:
        if part.exists():
            part.unlink()
        raise
    os.replace(part, path)
    state["pending"] = None
    state["seats"][seat]["request"] = number
    _save_state(args.folder, state)
    print(text.replace(str(part), path))
    print(
        f"{path}: {mover}'s request {pending['request']} applied with {seat}'s answer;"
        " send every seat its turn file"
    )
    return 0


def _take_back(
    file: str, path: str, part: Path, kind: str, seat: str, view: SeatView, name: str | None
) -> None:
    """A seat's undo or redo request under the take-back policy of live games
    (tabletop/persist/takeback.py): its own last move, nobody else having played since; a
    move that showed it a card, never. What needs the other seats' yes is refused: an undo
    does not wait for their answers by file as a procedure's question does."""
    verdict = take_back_verdict(kind, view.table, seat, view, name)
    if verdict.verdict == ASK:
        raise PbemError(
            f"{file}: {seat}'s undo is refused: {verdict.text}; a seat takes back by request only"
            " its own last move, and only while nobody else has played since (anything else is"
            " agreed by every seat and undone by the host on the full log); nothing was changed"
        )
    if verdict.refused:
        raise PbemError(f"{file}: {seat}'s {kind} is refused: {verdict.text}; nothing was changed")
    with Game.continued(path, part) as copy:
        (copy.table.undo if kind == "undo" else copy.table.redo)(seat)
    done = "took back" if kind == "undo" else "put back"
    print(f"{path}: {seat} {done} entry {verdict.seq} ({view.words(verdict.seq)})")


# ---- a seat -----------------------------------------------------------------------------
def _seat_state(folder: str) -> dict[str, Any]:
    state = _state(folder)
    if state["role"] != "seat":
        raise CliError(f"{folder}: the host's folder; a seat's folder does this")
    return state


def cmd_request(args: argparse.Namespace) -> int:
    state = _seat_state(args.folder)
    _new_file(args.output)
    if state["game"] is None:
        raise CliError(f"{args.folder}: no turn file received yet: nothing to play on")
    entries = state["entries"]
    payload: dict[str, Any] = {
        "game": state["game"],
        "digest": entries[-1]["digest"] if entries else "",
    }
    if args.undo or args.redo:
        payload["take_back"] = "undo" if args.undo else "redo"
    elif args.move is not None:
        if not args.to:
            raise CliError("--move: say where with --to PLACE[:SPOT]")
        payload["move"] = {"piece": args.move, "to": args.to}
    elif args.answer is not None:
        payload["answer"] = _answer(state, args.answer)
    else:
        try:
            argv = shlex.split(args.run)
        except ValueError as exc:
            raise CliError(f"--run {args.run!r}: {exc}") from None
        if not argv:
            raise CliError("--run: name a procedure")
        payload["run"] = argv
    keys = read_private(state["key"])
    number = state["request"] + 1
    host = keys_from_dict(state["host"])
    text = seal("request", state["game"], keys, host, number, len(entries), payload)
    atomic_write_text(args.output, text)
    state["request"] = number
    if "answer" in payload:
        state["question"]["answered"] = number
    _save_state(args.folder, state)
    print(f"{args.output}: {state['seat']}'s request {number}, on entry {len(entries)}")
    return 0


def _answer(state: dict[str, Any], items: list[str]) -> dict[str, Any]:
    """The seat's answers to the question its last turn file carried, checked against it."""
    asked = state.get("question")
    if not asked:
        raise CliError(
            f"--answer: no question waits for {state['seat']}'s answer in this copy (the turn"
            " file that carries one says so)"
        )
    try:
        given = read_pairs(items, "--answer")
    except CommandError as exc:
        raise CliError(str(exc)) from None
    questions = {q["key"]: question_from_dict(q) for q in asked["questions"]}
    for key, value in given.items():
        if key not in questions:
            raise CliError(
                f"--answer {key}=...: not a question for {state['seat']} (waiting:"
                f" {', '.join(questions)})"
            )
        try:
            questions[key].parse(value)
        except AnswerError as exc:
            raise CliError(f"--answer {key}={value}: {exc}") from None
    first = asked["questions"][0]
    if first["key"] not in given:
        raise CliError(f"--answer: answer '{first['key']}' ({first['text']}) first")
    return {"ask": asked["ask"], "choices": given}


def _receive_turn(args: argparse.Namespace, state: dict[str, Any]) -> int:
    seat = state["seat"]
    env, signature, record = read_envelope(args.file)
    if env.kind != "turn":
        raise PbemError(f"{args.file}: a request goes to the host, not to a seat")
    if env.receiver != seat:
        raise PbemError(f"{args.file}: this file is for {env.receiver}, not for {seat}")
    if state["game"] is not None and env.game != state["game"]:
        raise PbemError(f"{args.file}: a file of another game (nothing was changed)")
    if env.sender != HOST:
        raise PbemError(f"{args.file}: from {env.sender}, not from the host")
    check_signature(env, signature, record, keys_from_dict(state["host"]))
    entries: list[dict[str, Any]] = state["entries"]
    have = len(entries)
    if env.first == env.last + 1 == have + 1 and state["header"] is not None:
        return _receive_question(args, state, env)
    if env.last <= have:
        raise PbemError(
            f"{args.file}: a replay of an old file (entries {env.first}..{env.last}); this copy"
            f" stands at entry {have} (nothing was changed)"
        )
    if env.first > have + 1:
        raise PbemError(
            f"{args.file}: a gap: the file starts at entry {env.first} but this copy stands at"
            f" entry {have}; ask the host for the files in between (nothing was changed)"
        )
    payload = _open_turn(env, read_private(state["key"]))
    new = payload["entries"]
    numbers = [e.get("seq") if isinstance(e, dict) else None for e in new]
    if numbers != list(range(env.first, env.last + 1)) or payload["first"] != env.first:
        raise PbemError(f"{args.file}: its entries are not numbered {env.first}..{env.last}")
    # the file may repeat entries this copy holds (a turn file sent again after a lost one):
    # the copy continues where the file's entry agrees with its last one, else it is a fork
    after = entries[-1]["digest"] if entries else ""
    ours = payload["after"] if env.first == have + 1 else new[have - env.first].get("digest")
    if ours != after:
        raise PbemError(
            f"{args.file}: a fork: it continues another course of the game than this copy's at"
            f" entry {have} (nothing was changed)"
        )
    new = new[have + 1 - env.first :]
    header_record = state["header"] if state["header"] is not None else payload["header"]
    if not isinstance(header_record, dict):
        raise PbemError(f"{args.file}: the first turn file of a game carries its header")
    whole = entries + new
    if state["header"] is None:
        _check_commitment(args.file, state, header_record, whole)
    header = Header.from_dict(header_record)
    header.extra[SEAT_VIEW] = {"seat": seat, "entries": len(whole)}
    try:
        viewed = [(Entry.from_dict(e), str(e["digest"])) for e in whole]
        lines = view_lines(header, viewed)
    except (TableError, KeyError, TypeError) as exc:  # FormatError, ViewError among them
        raise PbemError(f"{args.file}: its entries do not continue this copy ({exc})") from None
    question = _question_in(env, payload, state)
    write_log(Path(args.folder) / COPY, header, lines, replace=True)
    state.update(game=env.game, header=header_record, entries=whole, question=question)
    if question is not None:
        state["asked"] = question["ask"]
    _save_state(args.folder, state)
    print(f"{Path(args.folder) / COPY}: entries {have + 1}..{env.last} received ({seat}'s copy)")
    _say_question(question)
    return 0


def _question_in(env: Envelope, payload: dict[str, Any], state: dict[str, Any]) -> Any:
    """The question a turn file carries for its seat, or None; a damaged one is refused."""
    question = payload.get("question")
    if question is None:
        return None
    try:
        ask = int(question["ask"])
        records = question["questions"]
        [question_from_dict(q) for q in records]
        if not records or not isinstance(question["procedure"], str):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        raise PbemError(f"{env.path}: its question is damaged (nothing was changed)") from None
    if ask < int(state.get("asked") or 0):
        raise PbemError(
            f"{env.path}: a replay of an old question (question {ask}); this copy has had"
            f" question {state['asked']} (nothing was changed)"
        )
    return question


def _say_question(question: dict[str, Any] | None) -> None:
    if question is None:
        return
    print(
        f"{question['seat']}'s {question['procedure']} asks you (answer with 'pbem request"
        " FOLDER --answer KEY=VALUE ... -o FILE'):"
    )
    for record in question["questions"]:
        print(f"  {question_from_dict(record).describe()}")


def _receive_question(args: argparse.Namespace, state: dict[str, Any], env: Envelope) -> int:
    """A turn file with no new entries: it carries a question for the seat, asked on the game
    as this copy holds it."""
    payload = _open_turn(env, read_private(state["key"]))
    entries = state["entries"]
    after = entries[-1]["digest"] if entries else ""
    if payload["entries"] or payload["first"] != env.first or payload["after"] != after:
        raise PbemError(
            f"{args.file}: a fork: it asks on another course of the game than this copy's at"
            f" entry {len(entries)} (nothing was changed)"
        )
    question = _question_in(env, payload, state)
    if question is None:
        raise PbemError(f"{args.file}: no new entries and no question (nothing was changed)")
    if question["ask"] == state.get("asked"):
        raise PbemError(
            f"{args.file}: a replay: this copy has had question {question['ask']} (nothing was"
            " changed)"
        )
    state.update(question=question, asked=question["ask"])
    _save_state(args.folder, state)
    print(
        f"{args.folder}: a question for {state['seat']} (its copy stands at entry {len(entries)})"
    )
    _say_question(question)
    return 0


def _check_commitment(
    path: str, state: dict[str, Any], header: dict[str, Any], entries: list[dict[str, Any]]
) -> None:
    """A --fair game's first turn file: the commitment is the one the seat was sent before it
    chose its contribution, and its contribution is in the log as it sent it."""
    commitment, contribution = state.get("commitment"), state.get("contribution")
    randomness = header.get("randomness") or {}
    if commitment is not None and randomness.get("commitment") != commitment:
        raise PbemError(
            f"{path}: the game's dice are not committed with the commitment this seat was sent"
            " (nothing was changed)"
        )
    if contribution is not None:
        given = [
            e["cmd"].get("contribution")
            for e in entries
            if e.get("kind") == "chance"
            and isinstance(e.get("cmd"), dict)
            and e["cmd"].get("op") == "contribute"
            and e["cmd"].get("seat") == state["seat"]
        ]
        if given != [contribution]:
            raise PbemError(
                f"{path}: the game does not hold this seat's contribution as it was sent"
                " (nothing was changed)"
            )


def _open_turn(env: Envelope, keys: PrivateKeys) -> dict[str, Any]:
    payload = env.open(keys)
    if payload.get("to") != keys.who or payload.get("game") != env.game:
        raise PbemError(f"{env.path}: its sealed part is for another seat or game")
    if not isinstance(payload.get("entries"), list) or "after" not in payload:
        raise PbemError(f"{env.path}: its sealed part holds no entries")
    return payload


def cmd_receive(args: argparse.Namespace) -> int:
    state = _state(args.folder)
    if state["role"] == HOST:
        return _receive_request(args, state)
    return _receive_turn(args, state)


def cmd_status(args: argparse.Namespace) -> int:
    state = _state(args.folder)
    if state["role"] == HOST:
        game = open_game(str(Path(args.folder) / GAME))
        try:
            length = len(game.table.entries)
        finally:
            game.close()
        print(f"{args.folder}: the host's game, at entry {length}")
        for seat, record in state["seats"].items():
            behind = length - record["sent"]
            print(
                f"  {seat}: sent entries 1..{record['sent']}"
                + (f" ({behind} to send)" if behind else "")
                + f"; requests taken: {record['request']}"
            )
        pending = state.get("pending")
        if pending is None:
            print("  no procedure waits")
            return 0
        print(f"  {_question_text(pending)}")
        for record in pending["questions"]:
            print(f"    {question_from_dict(record).describe()}")
        if state["seats"][pending["waiting"]].get("asked") != pending["ask"]:
            print(f"  send {pending['waiting']} its turn file: it carries the question")
        return 0
    have = len(state["entries"])
    print(
        f"{args.folder}: {state['seat']}'s copy, at entry {have}; requests made: {state['request']}"
    )
    question = state.get("question")
    if question is None:
        print("  no question waits for this seat")
    else:
        _say_question(question)
        if question.get("answered"):
            print(f"  answered in request {question['answered']}: send it to the host")
    return 0


def public_keys_of(folder: str) -> dict[str, Keys]:
    """The seats' public keys a host folder holds."""
    state = _host_state(folder)
    return {seat: keys_from_dict(r["keys"]) for seat, r in state["seats"].items()}


COMMANDS = {
    "keys": cmd_keys,
    "commit": cmd_commit,
    "contribution": cmd_contribution,
    "start": cmd_start,
    "join": cmd_join,
    "send": cmd_send,
    "request": cmd_request,
    "receive": cmd_receive,
    "status": cmd_status,
}
