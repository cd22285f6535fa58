"""The playtest report drawn from its data (tabletop/report/data.py): HTML or PDF.

The plots are drawn by matplotlib (the Agg backend, no display) into PNG. The HTML page is
whole in one file: plots and note snapshots are embedded as base64 PNG. The PDF is the same
page laid out on A4 by Qt's text document (QTextDocument printed to a QPdfWriter). The file
is written beside its target and renamed over it, so a failed report leaves no half file.
"""

from __future__ import annotations

import base64
import html
import io
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from PIL import Image  # noqa: E402
from PySide6.QtCore import QMarginsF, QRectF, QSizeF, QUrl  # noqa: E402
from PySide6.QtGui import (
    QFont,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextDocument,
)  # noqa: E402

from tabletop.export import application_for_snapshots  # noqa: E402
from tabletop.persist import atomic_path  # noqa: E402

from .data import ReportError  # noqa: E402

SUFFIXES = (".html", ".pdf")
INK = "#222222"
MUTED = "#6b6b6b"
RULE = "#d9d9d9"
HUMAN = "#2f5d8a"
BOTS = "#b0b0b0"
WHERE_SHOWN = 6  # entries listed per rule
THUMB = (300, 200)
PDF_MARGINS_MM = (16, 14, 16, 14)  # left, top, right, bottom
PDF_DPI = 144
WIDE = 660  # a plot's width on the page, in CSS pixels
DPI = 150
Progress = Callable[[str], None]

plt.rcParams.update(
    {
        "font.family": "DejaVu Sans",
        "font.size": 8.5,
        "axes.edgecolor": "#9a9a9a",
        "axes.labelcolor": INK,
        "axes.titlesize": 9.5,
        "axes.titleweight": "bold",
        "axes.titlelocation": "left",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "xtick.color": "#555555",
        "ytick.color": "#555555",
        "legend.frameon": False,
        "legend.fontsize": 8,
    }
)


# ---- plots ------------------------------------------------------------------------------
def _png(fig: Figure) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, bbox_inches="tight", facecolor="white")
    plt.close(fig)
    return out.getvalue()


def _percent(ax: Any) -> None:
    ax.set_xlim(-0.03, 1.03)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.grid(axis="x", color=RULE, linewidth=0.6)
    ax.set_axisbelow(True)


def _rates(ax: Any, rows: list[dict[str, Any]], y: float, colour: str, hollow: bool) -> None:
    for i, row in enumerate(rows):
        if row["rate"] is None:
            continue
        yy = i + y
        ax.plot([row["low"], row["high"]], [yy, yy], color=colour, linewidth=2.2, alpha=0.55)
        ax.plot(
            row["rate"],
            yy,
            "o",
            markersize=6.5,
            markerfacecolor="white" if hollow else colour,
            markeredgecolor=colour,
            markeredgewidth=1.6,
        )


def wins_figure(part: dict[str, Any]) -> bytes:
    """Win rates with their intervals: per seat, and per place in the order of play."""
    human, bots = part["human"], part["simulated"]
    seats = human["wins_by_seat"]
    places = human["wins_by_place"]
    tall = max(len(seats), len(places))
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 0.55 * tall + 1.3))
    offset = 0.17 if bots else 0.0
    _rates(left, seats, -offset, HUMAN, False)
    for i, row in enumerate(seats):
        left.plot(row["rate"] or 0, i - offset, "o", markersize=3.2, color=row["colour"])
    if bots:
        by_seat = {r["seat"]: r for r in bots["wins_by_seat"]}
        _rates(left, [by_seat.get(r["seat"], {"rate": None}) for r in seats], offset, BOTS, True)
    left.set_yticks(range(len(seats)), [f"{r['name']}\n{r['wins']} of {r['games']}" for r in seats])
    fair = [p["fair"] for p in places if p["fair"]]
    if fair:
        left.axvline(fair[0], color=MUTED, linestyle=(0, (3, 3)), linewidth=0.9)
    left.set_title(f"Win rate per {part['seat_word'].lower()}")
    _percent(left)
    left.invert_yaxis()
    _rates(right, places, -offset, HUMAN, False)
    if bots:
        by_place = {r["place"]: r for r in bots["wins_by_place"]}
        _rates(
            right, [by_place.get(r["place"], {"rate": None}) for r in places], offset, BOTS, True
        )
    right.set_yticks(
        range(len(places)),
        [f"{_ordinal(r['place'])} to move\n{r['wins']} of {r['games']}" for r in places],
    )
    for p in places:
        if p["fair"]:
            right.plot([p["fair"]] * 2, [p["place"] - 1.4, p["place"] - 0.6], color=MUTED,
                       linestyle=(0, (3, 3)), linewidth=0.9)  # fmt: skip
    right.set_title("Win rate by place in the order of play")
    _percent(right)
    right.invert_yaxis()
    handles = [
        matplotlib.lines.Line2D([], [], color=HUMAN, marker="o", linewidth=2, label="played"),
        matplotlib.lines.Line2D(
            [], [], color=MUTED, linestyle=(0, (3, 3)), label="even share (1/n)"
        ),
    ]
    if bots:
        handles.insert(1, matplotlib.lines.Line2D([], [], color=BOTS, marker="o",
                       markerfacecolor="white", linewidth=2, label="bot games"))  # fmt: skip
    fig.legend(handles=handles, loc="lower center", ncol=3, bbox_to_anchor=(0.5, -0.04))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return _png(fig)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _strip(ax: Any, groups: list[tuple[str, list[float], str, bool]]) -> None:
    """Horizontal boxes with every value as a dot: (label, values, colour, hollow) a row."""
    for y, (_label, values, colour, hollow) in enumerate(groups):
        if not values:
            continue
        box = ax.boxplot([values], positions=[y], widths=0.5, orientation="horizontal", patch_artist=True,
                         showfliers=False, medianprops={"color": INK})  # fmt: skip
        box["boxes"][0].set(facecolor="white" if hollow else colour,
                            alpha=1 if hollow else 0.35, edgecolor=colour)  # fmt: skip
        if not hollow:
            ax.scatter(values, [y] * len(values), s=12, color=colour, zorder=3)
    ax.set_yticks(range(len(groups)), [g[0] for g in groups])
    ax.set_ylim(len(groups) - 0.4, -0.6)
    ax.grid(axis="x", color=RULE, linewidth=0.6)
    ax.set_axisbelow(True)


def scores_figure(part: dict[str, Any]) -> bytes:
    """Each seat's final scores (box and every game as a dot), and the winning margins."""
    human, bots = part["human"], part["simulated"]
    seats = human["wins_by_seat"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 2.7), width_ratios=(1.7, 1))
    width = 0.34 if bots else 0.5
    for i, row in enumerate(seats):
        values = human["scores"].get(row["seat"], [])
        x = i - (width / 2 + 0.02 if bots else 0)
        if values:
            box = left.boxplot([values], positions=[x], widths=width, patch_artist=True,
                               showfliers=False, medianprops={"color": INK})  # fmt: skip
            box["boxes"][0].set(facecolor=row["colour"], alpha=0.35, edgecolor=row["colour"])
            left.scatter([x] * len(values), values, s=10, color=row["colour"], zorder=3)
        if bots and bots["scores"].get(row["seat"]):
            xb = i + width / 2 + 0.02
            box = left.boxplot([bots["scores"][row["seat"]]], positions=[xb], widths=width,
                               patch_artist=True, showfliers=False,
                               medianprops={"color": MUTED})  # fmt: skip
            box["boxes"][0].set(facecolor="white", edgecolor=BOTS)
    left.set_xticks(range(len(seats)), [r["name"] for r in seats])
    left.set_xlim(-0.6, len(seats) - 0.4)
    left.set_title("Final scores" + (" (coloured: played; white: bot games)" if bots else ""))
    left.grid(axis="y", color=RULE, linewidth=0.6)
    left.set_axisbelow(True)
    groups = [("played", human["margins"], HUMAN, False)]
    if bots:
        groups.append(("bot games", bots["margins"], BOTS, True))
    _strip(right, groups)
    right.set_title("Winning margin (1st − 2nd)")
    right.set_xlim(left=min([0.0, *(v for g in groups for v in g[1])]) - 0.5)
    fig.tight_layout()
    return _png(fig)


def length_figure(part: dict[str, Any]) -> bytes:
    """How long games were: turns (played and bot games) and playing minutes (played)."""
    human, bots = part["human"], part["simulated"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 2.1))
    series = [("played", human["turns"], HUMAN)]
    if bots:
        series.append(("bot games", bots["turns"], BOTS))
    values = sorted({t for _, turns, _ in series for t in turns})
    width = 0.8 / len(series)
    for k, (label, turns, colour) in enumerate(series):
        if not turns:
            continue
        shares = [turns.count(v) / len(turns) for v in values]
        xs = [v + (k - (len(series) - 1) / 2) * width for v in values]
        left.bar(xs, shares, width=width * 0.95, color=colour, label=label)
    if values:
        left.set_xticks(values)
        left.set_xlim(min(values) - 1.5, max(values) + 1.5)
    left.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    left.set_title("Game length in turns (share of games)")
    left.grid(axis="y", color=RULE, linewidth=0.6)
    left.set_axisbelow(True)
    if bots:
        left.legend()
    minutes = human["minutes"]
    _strip(right, [("played", minutes, HUMAN, False)])
    right.set_xlim(left=0, right=max([1.0, *minutes]) * 1.08)
    right.set_title("Playing time in minutes (pauses left out)")
    fig.tight_layout()
    return _png(fig)


def activity_figure(data: dict[str, Any]) -> bytes:
    """Games and hours played per revision (games only where no playing time was recorded)."""
    parts = data["revisions"]
    labels = [_short(p) for p in parts]
    timed = any(p["human"]["hours"] for p in parts)
    height = 0.42 * len(parts) + 1.1
    if timed:
        fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, height))
    else:
        fig, left = plt.subplots(1, 1, figsize=(7.4, height))
    y = range(len(parts))
    left.barh(y, [p["human"]["games"] for p in parts], color=HUMAN, height=0.55)
    left.barh(y, [p["human"]["finished"] for p in parts], color="#8fb1d3", height=0.25)
    left.set_yticks(y, labels)
    left.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    left.set_title(
        "Games played (thin bar: finished)" + ("" if timed else "; no playing time recorded")
    )
    axes = [left]
    if timed:
        right.barh(y, [p["human"]["hours"] for p in parts], color=HUMAN, height=0.55)
        right.set_yticks(y, [""] * len(parts))
        right.set_title("Hours played")
        axes.append(right)
    for ax in axes:
        ax.invert_yaxis()
        ax.grid(axis="x", color=RULE, linewidth=0.6)
        ax.set_axisbelow(True)
    fig.tight_layout()
    return _png(fig)


def _short(part: dict[str, Any]) -> str:
    decks = "+".join(d["name"] for d in part["decks"]) or "no deck"
    return f"{part['module']} {part['version']}\n{decks}"


def thumbnail(png_base64: str) -> bytes:
    """A note's snapshot made small for the report."""
    image = Image.open(io.BytesIO(base64.b64decode(png_base64)))
    image.thumbnail(THUMB)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()


# ---- the page ---------------------------------------------------------------------------
CSS = """
body { font-family: 'DejaVu Sans', sans-serif; color: #222; font-size: 10pt; }
h1 { font-size: 20pt; font-weight: normal; margin: 0 0 0.2em 0; }
h2 { font-size: 14pt; font-weight: normal; border-bottom: 1px solid #999; margin-top: 1.6em;
     padding-bottom: 0.15em; }
h3 { font-size: 11pt; margin: 1.2em 0 0.3em 0; }
p.sub, .muted { color: #6b6b6b; }
table { border-collapse: collapse; margin: 0.3em 0 0.8em 0; }
th { text-align: left; font-weight: bold; color: #444; border-bottom: 1px solid #999;
     padding: 3px 10px 3px 0; }
td { padding: 3px 10px 3px 0; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
td.n { text-align: right; }
.note { margin: 0.4em 0 0.8em 0; }
.tag { font-weight: bold; }
"""
# a browser's page: a column of a readable width (Qt's PDF layout takes no line-height: it
# would stretch the lines the plots stand in)
SCREEN_CSS = """
body { margin: 0 auto; max-width: 60em; padding: 1.5em; line-height: 1.35; }
img { max-width: 100%; height: auto; }
"""


class _Page:
    """The report's HTML; images as data URIs (HTML) or named resources (PDF)."""

    def __init__(self, inline: bool, width: int) -> None:
        self.inline = inline
        self.scale = width / WIDE  # the page's pixels to a plot's WIDE
        self.parts: list[str] = []
        self.images: dict[str, bytes] = {}
        self.widths: dict[str, int] = {}  # the PDF's images: their width on the page

    def add(self, text: str) -> None:
        self.parts.append(text)

    def image(self, png: bytes, width: int, alt: str) -> str:
        w, h = struct.unpack(">II", png[16:24])  # the PNG header's size
        width = round(width * self.scale)
        if self.inline:
            src = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
            return f'<p><img src="{src}" width="{width}" height="{round(h * width / w)}" alt="{_e(alt)}"></p>'
        src = f"image{len(self.images)}.png"
        self.images[src] = png
        self.widths[src] = width
        return f'<p><img src="{src}" alt="{_e(alt)}"></p>'  # sized by its pixel ratio

    def text(self) -> str:
        return "".join(self.parts)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _pc(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


def _num(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) else f"{value:.1f}"
    return str(value)


def _hours(value: float) -> str:
    """Hours to one decimal, or two below one hour (a few minutes still show)."""
    return f"{value:.1f}" if value >= 1 or value == 0 else f"{value:.2f}"


def _table(page: _Page, head: list[str], rows: list[list[str]], numeric: set[int]) -> None:
    page.add('<table cellspacing="0" cellpadding="3" width="100%"><tr>')
    page.add("".join(f"<th>{h}</th>" for h in head) + "</tr>")
    for row in rows:
        cells = "".join(
            f'<td class="n" align="right">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        page.add(f"<tr>{cells}</tr>")
    page.add("</table>")


def _summary(page: _Page, part: dict[str, Any]) -> None:
    human, bots = part["human"], part["simulated"]
    variants = ", ".join(f"{v} ({n})" for v, n in part["variants"].items())
    page.add(
        f'<p class="sub">Variants: {_e(variants)}. First game {_e(part["first_started"][:10])},'
        f" last {_e(part['last_started'][:10])}.</p>"
    )
    head = ["", "played"] + (
        [f"bot games ({_e(', '.join(sorted(set(bots['bots'].values()))))})"] if bots else []
    )
    rows = [
        ["games (finished)", f"{human['games']} ({human['finished']})"],
        ["hours played", _hours(human["hours"])],
        ["turns: median (range)", _spread(human["turn_spread"])],
        ["minutes: median (range)", _spread(human["minute_spread"])],
        ["winning margin: median", _num(human["margin_spread"]["median"])],
        ["first player wins", _first(human["first_player"])],
    ]
    if bots:
        extra = [
            f"{bots['games']} ({bots['finished']})",
            "–",
            _spread(bots["turn_spread"]),
            "–",
            _num(bots["margin_spread"]["median"]),
            _first(bots["first_player"]),
        ]
        rows = [[*r, x] for r, x in zip(rows, extra, strict=True)]
    _table(page, head, rows, set())


def _spread(s: dict[str, Any]) -> str:
    if not s["n"]:
        return "–"
    return f"{_num(s['median'])} ({_num(s['min'])}–{_num(s['max'])})"


def _first(first: dict[str, Any]) -> str:
    if not first["games"]:
        return "–"
    return (
        f"{_pc(first['rate'])} of {first['games']} (95% CI {_pc(first['low'])}–{_pc(first['high'])};"
        f" even share {_pc(first['fair'])})"
    )


def _rules(page: _Page, title: str, rows: list[dict[str, Any]], detail: str, why: str) -> None:
    page.add(f"<h3>{title}</h3>")
    if not rows:
        page.add('<p class="muted">None.</p>')
        return
    page.add(f'<p class="muted">{why}</p>')
    table = []
    for r in rows[:12]:
        where = "<br>".join(
            f"{_e(Path(w['file']).name)} entry {w['entry']} ({_e(w['actor'])}): {_e(w[detail])}"
            for w in r["where"][:WHERE_SHOWN]
        )
        if len(r["where"]) > WHERE_SHOWN:
            where += f"<br><i>and {len(r['where']) - WHERE_SHOWN} more</i>"
        table.append([f"<b>{_e(r['rule'])}</b>", str(r["count"]), str(r["games"]), where])
    _table(page, ["rule", "times", "games", "where"], table, {1, 2})


def _notes(page: _Page, part: dict[str, Any]) -> None:
    page.add("<h3>Notes by tag</h3>")
    if not part["notes"]:
        page.add('<p class="muted">No notes were written.</p>')
        return
    for group in part["notes"]:
        page.add(f'<p class="tag">{_e(group["label"].capitalize())} ({len(group["notes"])})</p>')
        rows = []
        for n in group["notes"]:
            words = (
                f"{_e(n['text'])}<br><span class='muted'>{_e(Path(n['file']).name)}, entry"
                f" {n['entry']}, by {_e(n['author'])}"
                + (f"; pieces {_e(', '.join(n['pieces']))}" if n["pieces"] else "")
                + "</span>"
            )
            picture = page.image(thumbnail(n["snapshot"]), 180, "snapshot") if n["snapshot"] else ""
            rows.append([words, picture])
        page.add('<table cellspacing="0" cellpadding="4" width="100%">')
        for words, picture in rows:
            page.add(f'<tr><td width="62%">{words}</td><td>{picture}</td></tr>')
        page.add("</table>")


def _forms(page: _Page, part: dict[str, Any]) -> None:
    forms = part["forms"]
    page.add("<h3>Players' forms</h3>")
    if not forms["count"]:
        page.add('<p class="muted">No forms were filled in.</p>')
        return
    means = ", ".join(f"{k} {_num(v)}" for k, v in forms["means"].items())
    page.add(f"<p>{forms['count']} forms; mean ratings (1–5): {_e(means)}.</p>")
    for t in forms["texts"]:
        page.add(
            f"<p>“{_e(t['text'])}” <span class='muted'>— {_e(t['seat'])}, {_e(Path(t['file']).name)}</span></p>"
        )


def _deck_changes(page: _Page, part: dict[str, Any]) -> None:
    change = part["deck_changes"]
    if change is None:
        return
    page.add(f"<h3>Deck changes from {_e(change['from'])} to {_e(change['to'])}</h3>")
    if change["problem"]:
        page.add(f'<p class="muted">{_e(change["problem"])}</p>')
    diff = change["diff"]
    if diff is None:
        return
    if not diff["cards"]:
        page.add("<p>No card differs.</p>")
        return
    rows = []
    for card in diff["cards"]:
        name = f"<b>{_e(card['name'])}</b> <span class='muted'>{_e(card['id'])}</span>"
        if card["status"] == "changed":
            changes = [
                f"{_e(v['column'])}: {_e(_cell(v['a']))} → {_e(_cell(v['b']))}"
                for v in card["values"]
            ]
            changes += [
                f"{_e(p['column'])}: {'now a placeholder' if p['b'] else 'no longer a placeholder'}"
                for p in card["placeholders"]
            ]
            rows.append([name, "<br>".join(changes)])
        else:
            side = change["from"] if card["status"] == "only_in_a" else change["to"]
            rows.append([name, f"only in {_e(side)}"])
    _table(page, ["card", "what changed"], rows, set())


def _cell(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "(empty)"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    return str(value)


def report_html(
    data: dict[str, Any], *, inline: bool = True, progress: Progress | None = None
) -> tuple[str, dict[str, tuple[bytes, int]]]:
    """The report as one HTML page; when not ``inline``, laid out for the PDF's text width,
    and its images by name (each PNG with its width on the page)."""
    page = _Page(inline, WIDE if inline else pdf_text_width())
    page.add(
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Playtest report</title><style>{CSS}{SCREEN_CSS if inline else ''}</style></head><body>"
    )
    page.add("<h1>Playtest report</h1>")
    parts = data["revisions"]
    page.add(
        f'<p class="sub">{data["games"]} games, {_hours(data["hours"])} hours of play, '
        f"{len(parts)} revision{'s' if len(parts) != 1 else ''}; from {_e(', '.join(data['sources']))}.</p>"
    )
    page.add(page.image(activity_figure(data), WIDE, "games and hours per revision"))
    page.add(
        '<p class="muted">How to read it: win rates are shown as a dot with its 95% confidence'
        " interval (Wilson score interval) as a bar; the dashed line is an even share (1 in the"
        " number of seats). A bar that crosses the line does not show an advantage yet. A tie"
        " counts a win for every seat tied first. The first player is the seat that made the"
        " first move of the game. Rules flagged are the rules assistant's findings; rules"
        " forced are moves made past the rules with a reason: candidates for rewriting or for"
        " a house rule.</p>"
    )
    for i, part in enumerate(parts, 1):
        if progress is not None:
            progress(f"drawing {part['label']}")
        brk = ' style="page-break-before: always"' if i > 1 else ""
        page.add(f"<h2{brk}>{_e(part['label'])}</h2>")
        _summary(page, part)
        _deck_changes(page, part)
        page.add(page.image(wins_figure(part), WIDE, "win rates"))
        page.add(page.image(scores_figure(part), WIDE, "scores and margins"))
        page.add(page.image(length_figure(part), WIDE, "game length"))
        _rules(page, "Rules most often flagged", part["rules_flagged"], "message",
               "The rules assistant's findings on moves that stand (undone moves left out).")  # fmt: skip
        _rules(page, "Rules most often forced past", part["rules_forced"], "reason",
               "Moves made against the rules, with the reason given.")  # fmt: skip
        _notes(page, part)
        _forms(page, part)
    if data["problems"]:
        page.add("<h2>Files left out</h2><ul>")
        page.add("".join(f"<li>{_e(p)}</li>" for p in data["problems"]))
        page.add("</ul>")
    page.add("</body></html>")
    return page.text(), {name: (png, page.widths[name]) for name, png in page.images.items()}


# ---- files ------------------------------------------------------------------------------
def check_output(path: str) -> str:
    """The output's form ('html' or 'pdf'); ReportError for a wrong suffix or folder."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ReportError(
            f"{path}: the report is written as .html or .pdf, not {suffix or 'no suffix'!r}"
        )
    check_folder(path)
    return suffix[1:]


def check_folder(path: str) -> None:
    """ReportError unless ``path``'s folder is there and can be written to."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ReportError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ReportError(f"{path}: the folder {folder} cannot be written to")


def _pdf_layout() -> QPageLayout:
    return QPageLayout(
        QPageSize(QPageSize.PageSizeId.A4),
        QPageLayout.Orientation.Portrait,
        QMarginsF(*PDF_MARGINS_MM),
        QPageLayout.Unit.Millimeter,
    )


def pdf_text_width() -> int:
    """The width of the PDF's text in CSS pixels (96 an inch: Qt scales an image's size to the
    PDF's resolution)."""
    return round(_pdf_layout().paintRect(QPageLayout.Unit.Inch).width() * 96)


def _pdf(text: str, images: dict[str, tuple[bytes, int]], target: str) -> None:
    """Lay the page out on A4 at the PDF's own resolution (fonts in points, plots as wide as
    the text) and paint it page by page."""
    application_for_snapshots()
    writer = QPdfWriter(target)
    writer.setTitle("Playtest report")
    writer.setCreator("tabletop")
    writer.setResolution(PDF_DPI)
    layout = _pdf_layout()
    writer.setPageLayout(layout)
    width = pdf_text_width()
    height = round(layout.paintRect(QPageLayout.Unit.Inch).height() * 96)
    document = QTextDocument()  # laid out at 96 pixels an inch, painted scaled to the PDF's
    document.setDocumentMargin(0)
    document.setDefaultFont(QFont("DejaVu Sans", 9))
    document.setPageSize(QSizeF(width, height))
    for name, (png, shown) in images.items():
        image = QImage.fromData(png)
        image.setDevicePixelRatio(image.width() / shown)  # all its pixels, at the width shown
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
    document.setHtml(text)
    painter = QPainter(writer)
    try:
        painter.scale(PDF_DPI / 96, PDF_DPI / 96)
        for number in range(document.pageCount()):
            if number:
                writer.newPage()
            painter.save()
            painter.translate(0, -number * height)
            document.drawContents(painter, QRectF(0, number * height, width, height))
            painter.restore()
    finally:
        painter.end()


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (ReportError for a folder that is not
    there or cannot be written)."""
    check_folder(path)
    _whole(path, lambda temp: Path(temp).write_text(text, encoding="utf-8"))


def _whole(path: str, write: Callable[[str], None]) -> None:
    """``write(temp)`` fills a fresh temporary file beside ``path``, which then replaces it."""
    with atomic_path(path, replace=True) as temp:
        write(str(temp))


def write_report(data: dict[str, Any], path: str, progress: Progress | None = None) -> None:
    """Write the report to ``path`` (.html or .pdf), whole or not at all."""
    form = check_output(path)

    def write(temp: str) -> None:
        text, images = report_html(data, inline=form == "html", progress=progress)
        if form == "html":
            Path(temp).write_text(text, encoding="utf-8")
            return
        if progress is not None:
            progress("laying out the PDF")
        _pdf(text, images, temp)

    _whole(path, write)
