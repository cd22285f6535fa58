"""``tabletop report DIR... -o report.html|report.pdf``: the playtest report.

Sessions are Greenland bot games of two deck revisions (the shipped deck, then a revision
``printed`` imported through the command line with a few cards changed) and Looot bot games,
played to the end by ``tabletop simulate``, with forms and notes written through the command
line, a note with a snapshot of the table drawn by ``tabletop render``, and a Greenland game
whose moves were flagged (E1) and forced past the rules. The report's data is checked number
by number against what ``tabletop sessions --json`` and the game files say; the Wilson
intervals against values worked out by hand.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tabletop.cli import main
from tabletop.core import Annotate, seat_of
from tabletop.core.notes import png_text
from tabletop.modules import resources_dir
from tabletop.persist import Game
from tests.test_deck_diff import _edit
from tests.test_sessions_cli import flagged_and_forced

try:  # Qt's PDF reader comes with PySide6's add-ons, not with the essentials
    from PySide6 import QtPdf
except ImportError:
    QtPdf = None

# Wilson 95% intervals worked out by hand: (wins, games) -> (low, high)
WILSON = {
    (0, 2): (0.0, 0.6576),
    (1, 2): (0.0945, 0.9055),
    (2, 2): (0.3424, 1.0),
    (0, 3): (0.0, 0.5615),
    (1, 3): (0.0615, 0.7923),
    (2, 3): (0.2077, 0.9385),
    (3, 3): (0.4385, 1.0),
}
FORCED = "our house rule lets a sixth hunter in"


def cli(*argv: str) -> int:
    try:
        return main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        return int(stop.code or 0)


@pytest.fixture(scope="module")
def playtest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The sessions folder and what was written into it."""
    tmp = tmp_path_factory.mktemp("report")
    patch = pytest.MonkeyPatch()
    resources = tmp / "resources"
    shutil.copytree(resources_dir(), resources)
    patch.setenv("TABLETOP_RESOURCES", str(resources))
    candidate = tmp / "printed.csv"
    shutil.copy(resources / "greenland" / "decks" / "reconstructed.csv", candidate)
    _edit(candidate, {"walrus": {"climax": "12"}, "harbor-seal": {"climax": "7"}})
    assert cli("deck", "import", str(candidate), "--name", "printed", "--module", "greenland") == 0
    root = tmp / "sessions"
    first, second, looot = root / "1-first", root / "2-printed", root / "3-looot"
    for folder, argv in (
        (first, ["greenland", "--games", "3", "--seed", "3", "--bots", "greedy,random,random"]),
        (second, ["greenland", "--games", "2", "--seed", "20", "--deck", "printed"]),
        (looot, ["looot", "--games", "2", "--seed", "3", "--bots", "random,random"]),
    ):
        assert cli("simulate", *argv, "--save-logs", str(folder)) == 0
    formed = first / "game-3.jsonl"
    assert cli("form", str(formed), "--seat", "red", "--fun", "4", "--length", "3") == 0
    assert cli("form", str(formed), "--seat", "yellow", "--fun", "2", "--clarity", "5") == 0
    assert cli("note", str(formed), "--tag", "balance", "walrus too strong") == 0
    assert cli("note", str(second / "game-20.jsonl"), "--tag", "rules", "who hunts first?") == 0
    pictured = second / "game-21.jsonl"
    snapshot = tmp / "table.png"
    assert cli("render", str(pictured), "-o", str(snapshot)) == 0
    game = Game.open(pictured)
    game.table.annotate(
        Annotate("add", None, "typo", "the legend", 5, (), png_text(snapshot.read_bytes())), "red"
    )
    game.close()
    findings, overrides = flagged_and_forced(first / "flagged.jsonl")
    yield {
        "root": root,
        "tmp": tmp,
        "first": first,
        "second": second,
        "looot": looot,
        "snapshot": snapshot.read_bytes(),
        "findings": findings,
        "overrides": overrides,
    }
    patch.undo()


def first_mover(path: str) -> str:
    """The seat of the first move a seat made in the log."""
    game = Game.open(path, writable=False)
    seats = {s.id for s in game.header.seats}
    return next(
        seat_of(e.actor)
        for e in game.table.entries
        if e.kind not in ("setup", "note", "record", "policy") and seat_of(e.actor) in seats
    )


def report(tmp: Path, *argv: str) -> tuple[int, dict[str, Any] | None]:
    data_file = tmp / "data.json"
    data_file.unlink(missing_ok=True)
    code = cli("report", *argv, "--json", str(data_file))
    data = json.loads(data_file.read_text()) if data_file.exists() else None
    return code, data


def test_table_report_numbers_match_the_sessions(
    playtest: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    root, tmp = playtest["root"], playtest["tmp"]
    capsys.readouterr()
    assert cli("sessions", str(root), "--json") == 0
    rows = {r["file"]: r for r in json.loads(capsys.readouterr().out)}
    assert len(rows) == 8
    out = tmp / "report.html"
    code, data = report(tmp, str(root), "-o", str(out))
    err = capsys.readouterr().err
    assert code == 0, err
    assert "read 8 of 8 game files" in err and f"{out}: 8 games, 3 revisions" in err
    assert data is not None and data["games"] == 8
    assert data["interval"] == "Wilson score interval, 95%"
    assert data["hours"] == pytest.approx(sum(r["minutes"] for r in rows.values()) / 60, abs=0.01)

    parts = data["revisions"]
    assert [p["module"] for p in parts] == ["greenland", "greenland", "looot"]
    assert [[d["name"] for d in p["decks"]] for p in parts[:2]] == [["reconstructed"], ["printed"]]
    assert [p["seat_word"] for p in parts] == ["Culture", "Culture", "Player"]
    for part in parts:
        mine = [rows[f] for f in part["files"]]
        finished = [r for r in mine if r["finished"]]
        human = part["human"]
        assert human["games"] == len(mine) and human["finished"] == len(finished)
        assert human["hours"] == pytest.approx(sum(r["minutes"] for r in mine) / 60, abs=0.01)
        assert {r["deck_sha256"] for r in mine} == {
            "+".join(d["sha256"][:12] for d in part["decks"])
        }
        for seat in human["wins_by_seat"]:
            played = [r for r in finished if seat["seat"] in r["scores"]]
            wins = sum(seat["seat"] in r["winners"] for r in played)
            assert (seat["games"], seat["wins"]) == (len(played), wins)
            assert seat["rate"] == pytest.approx(wins / len(played), abs=1e-4)
            assert (seat["low"], seat["high"]) == pytest.approx(WILSON[wins, len(played)])
            assert human["scores"][seat["seat"]] == [r["scores"][seat["seat"]] for r in played]
        firsts = [first_mover(r["file"]) for r in finished]
        fp = human["first_player"]
        assert fp["seats"] == {s: firsts.count(s) for s in set(firsts)}
        first_wins = sum(s in r["winners"] for s, r in zip(firsts, finished, strict=True))
        assert (fp["games"], fp["wins"]) == (len(finished), first_wins)
        assert (fp["low"], fp["high"]) == pytest.approx(WILSON[first_wins, len(finished)])
        assert fp["fair"] == pytest.approx(1 / len(finished[0]["scores"]), abs=1e-4)
        assert human["wins_by_place"][0]["wins"] == first_wins
        margins = [
            sorted(r["scores"].values())[-1] - sorted(r["scores"].values())[-2] for r in finished
        ]
        assert human["margins"] == pytest.approx(margins)
        assert human["turns"] == [r["turns"] for r in finished]
        assert human["minutes"] == [r["minutes"] for r in finished]

    first, second, looot = parts
    # the flagged game: E1's findings, and the move forced past them with its reason
    flagged = str(playtest["first"] / "flagged.jsonl")
    assert sum(r["count"] for r in first["rules_flagged"]) == playtest["findings"]
    assert first["rules_flagged"][0]["rule"].startswith("E1")
    assert all(w["file"] == flagged for r in first["rules_flagged"] for w in r["where"])
    [forced] = first["rules_forced"]
    assert forced["count"] == playtest["overrides"] == 1
    assert forced["where"][0]["reason"] == FORCED and forced["rule"].startswith("E1")
    assert second["rules_flagged"] == [] and second["rules_forced"] == []
    # the notes by tag, the snapshot kept whole
    assert [(g["tag"], [n["text"] for n in g["notes"]]) for g in first["notes"]] == [
        ("balance", ["walrus too strong"])
    ]
    assert [(g["tag"], [n["text"] for n in g["notes"]]) for g in second["notes"]] == [
        ("rules", ["who hunts first?"]),
        ("typo", ["the legend"]),
    ]
    typo = second["notes"][1]["notes"][0]
    assert typo["entry"] == 5 and typo["author"] == "red"
    assert base64.b64decode(typo["snapshot"]) == playtest["snapshot"]
    # the forms
    assert first["forms"]["count"] == 2
    assert first["forms"]["means"] == {"fun": 3.0, "length": 3.0, "clarity": 5.0}
    assert second["forms"]["count"] == 0
    # the deck's changes from one revision to the next, per card and value
    assert first["deck_changes"] is None and looot["deck_changes"] is None
    changes = second["deck_changes"]
    assert (changes["from"], changes["to"], changes["problem"]) == (
        "reconstructed",
        "printed",
        None,
    )
    values = {
        c["id"]: {v["column"]: (v["a"], v["b"]) for v in c["values"]}
        for c in changes["diff"]["cards"]
    }
    assert values == {"walrus": {"climax": (15, 12)}, "harbor-seal": {"climax": (6, 7)}}
    assert all(p["simulated"] is None for p in parts)

    # the page: whole in one file, every plot and the thumbnail embedded
    page = out.read_text(encoding="utf-8")
    assert "Wilson score interval" in page and "walrus too strong" in page and FORCED in page
    assert "Deck changes from reconstructed to printed" in page
    assert not re.search(r'src="(?!data:image/png;base64,)', page)
    assert page.count('src="data:image/png;base64,') == 1 + 3 * len(parts) + 1
    assert not [p for p in tmp.iterdir() if p.name.startswith(".report-")]


def test_table_report_of_one_revision_beside_its_bot_games_as_pdf(
    playtest: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    root, tmp = playtest["root"], playtest["tmp"]
    out = tmp / "printed.pdf"
    code, data = report(
        tmp, str(root), "-o", str(out), "--revision", "printed", "--compare-simulated", "3"
    )
    err = capsys.readouterr().err
    assert code == 0, err
    assert "bot games: 3 of 3" in err and "laying out the PDF" in err
    [part] = data["revisions"]
    assert [d["name"] for d in part["decks"]] == ["printed"]
    assert part["deck_changes"] is None  # one revision: nothing to compare it with
    bots = part["simulated"]
    assert bots["games"] == bots["finished"] == 3
    assert bots["variant"] == "standard" and bots["seats"] == ["red", "yellow", "green"]
    assert set(bots["bots"].values()) == {"random"} and bots["seeds"] == [1, 3]
    assert sum(s["games"] for s in bots["wins_by_seat"]) == 9
    for seat in bots["wins_by_seat"]:
        assert (seat["low"], seat["high"]) == pytest.approx(WILSON[seat["wins"], 3])
    assert len(bots["turns"]) == len(bots["margins"]) == 3
    sha = part["decks"][0]["sha256"]
    code, again = report(tmp, str(root), "-o", str(out), "--revision", sha[:8])
    assert code == 0 and [p["decks"] for p in again["revisions"]] == [part["decks"]]
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pages >= 2
    if QtPdf is not None:  # the first page drawn: not blank
        document = QtPdf.QPdfDocument()
        document.load(str(out))
        assert document.pageCount() == pages
        image = document.render(0, document.pagePointSize(0).toSize())
        assert (
            len(
                {
                    image.pixel(x, y)
                    for x in range(0, image.width(), 7)
                    for y in range(0, image.height(), 7)
                }
            )
            > 2
        )
    if shutil.which("pdftoppm"):  # a PDF reader of its own draws the first page
        _looks_like_a_report_page(out, tmp / "page")


def _looks_like_a_report_page(pdf: Path, prefix: Path) -> None:
    """Poppler's pdftoppm draws page 1 at 40 dpi: an A4 page in portrait, mostly white (the
    paper), with text and plots in more than one colour across its upper half."""
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "40",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(prefix),
        ],
        check=True,
        timeout=120,
    )
    with Image.open(f"{prefix}.png") as page:
        rgb = page.convert("RGB")
    width, height = rgb.size
    assert 1.3 < height / width < 1.5  # A4 upright
    pixels = [rgb.getpixel((x, y)) for x in range(0, width, 2) for y in range(0, height // 2, 2)]
    white = sum(1 for p in pixels if min(p) > 240)
    assert 0.5 < white / len(pixels) < 0.97  # paper with something printed on it
    assert len({p for p in pixels if min(p) <= 240}) > 20  # text and coloured plots


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["{root}", "-o", "{tmp}/r.txt"], "written as .html or .pdf"),
        (["{tmp}/nowhere", "-o", "{tmp}/r.html"], "no game files found"),
        (["{root}", "-o", "{tmp}/r.html", "--revision", "unknown"], "no sessions of it"),
        (["{root}", "-o", "{tmp}/no/such/r.pdf"], "does not exist"),
    ],
)
def test_table_report_bad_input_is_one_line_and_no_file(
    playtest: dict[str, Any], capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    tmp = playtest["tmp"] / "bad"
    tmp.mkdir(exist_ok=True)
    argv = [a.format(root=playtest["root"], tmp=tmp) for a in argv]
    capsys.readouterr()
    assert cli("report", *argv) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("tabletop report: read ")]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err
    assert list(tmp.iterdir()) == []
