"""The event phase (D): reveal the event, find the first player, apply its icons, auction its import.

Each function is a procedure (``run_procedure(table, actor, fn, name=..., choices=...)``)
and can run alone: ``reveal`` (the top event face up, the first player),
``resolve_event`` (the current event's icons left to right, D1–D9, then the
auction, D10), ``event_phase`` (both), and one procedure per icon:
``migrate``, ``decimate``, ``snowflake``, ``cool``, ``die_off``, ``breakage``,
``no_maritime``, ``no_markland``, ``storm``, ``auction``.

Choices (each a typed question owned by the culture named in the key; the
Council of War and a migration's tie by the first player):

==========================  =====================================================
``council``                 the first player's Council of War (A2): a colour
``elder_<colour>``          the elder a decimated culture loses (D2): '3', or '2@yellow'
``snowflake_<colour>``      what pays a snowflake (D3), a payment: 'energy',
                            'elder:3', 'discard:<card>', comma-separated or
                            'energy=2' for several
``die_off_<colour>``        whose elder card loses the rank rolled (D5): a colour
``breakage_<colour>``       which iron import breaks (D6): a card's row id
``migrate_<row>``           which of several lowest-climax cards migrates out (D1),
                            the first player's choice
``bid_<colour>``            ivory bid at the auction (D10); 0 for none
==========================  =====================================================

When an event asks the same question twice (two snowflakes, two decimations),
the second key ends in ``_2``.

An event that kills an elder of rank 3 (D2, D3, D5; cooling's decimations in
the solitaire game) or breaks an import that granted hand size (D6) ends with
every culture whose hand no longer fits discarding down (B2, choice
``discard_<colour>``, ``_2`` for a second time in one event; hands.py). The
beginners' game skips the Markland icon (C2 skips D9).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

from tabletop.core import actions

from ..procedures import ProcedureContext, ProcedureError
from .choices import one_of
from .deck import Cards
from .hands import discard_excess
from .payments import (
    d_cards,
    elder_cubes,
    exchange,
    kill_elder,
    pay,
    remove_card,
    row_id,
    snowflake_relief,
    spend,
    value_of,
)
from .payments import describe_gain as _gain_text
from .payments import describe_payment as _payment_text
from .sequence import choose_first_player, current_first, player_order, view_of
from .variants import advanced_off, cooperative, refuse_if_off, skipped
from .view import COLOURS, Greenland

ROWS = ("north", "south")


def _current(view: Greenland) -> str:
    current = view.state.places["event_current"].contents
    if not current:
        raise ProcedureError("no event has been revealed this turn (D)")
    return current[-1]


def _order(view: Greenland) -> list[str]:
    return player_order(view, current_first(view))


# ---- revealing and resolving -------------------------------------------------------
def reveal(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """A1.1: the last event goes out of the game, the top event is turned up, the first player named."""
    view = view_of(ctx.state, cards)
    for pid in list(ctx.state.places["event_current"].contents):
        ctx.move(pid, "events_out")
    deck = ctx.state.places["event_deck"].contents
    if not deck:
        raise ProcedureError("the event deck is empty: the game has ended (J)")
    event = deck[-1]
    ctx.move(event, "event_current")
    if not ctx.state.pieces[event].face_up:
        ctx.flip(event, True)
    choose_first_player(ctx, view, event)
    turn = view.counter("turn", 1)
    if view.counter("event.revealed") != turn:
        ctx.set_counter("event.revealed", turn)
    return f"Event: {view.name(event)}"


def resolve_event(
    ctx: ProcedureContext, cards: Cards | None = None, bids: Mapping[str, int] | None = None
) -> str:
    """D: the current event's icons left to right (D1–D9), then its auction (D10)."""
    view = view_of(ctx.state, cards)
    event = _current(view)
    icons = list(view.row(event).get("event_icons") or [])
    asked: Counter[str] = Counter()
    i = 0
    while i < len(icons):
        icon = icons[i]
        i += 1
        if icon.startswith("first:") or icon == "auction":
            continue
        kind, _, arg = icon.partition(":")
        if icon.startswith("decimate:venereal:"):
            # one venereal decimation for the daughters' colours side by side (the D2 example)
            colours = [arg.split(":")[1]]
            while i < len(icons) and icons[i].startswith("decimate:venereal:"):
                colours.append(icons[i].split(":")[2])
                i += 1
            arg = "venereal:" + ",".join(colours)
        suffix = f"_{asked[kind] + 1}" if asked[kind] else ""
        asked[kind] += 1
        if kind == "migration":
            migrate(ctx, arg, cards)
        elif kind == "decimate":
            decimate(ctx, arg, cards, suffix)
        elif kind == "snowflake":
            snowflake(ctx, arg, cards, suffix)
        elif kind == "cooling":
            if cooperative(view):  # K: cooling decimates: number its keys
                suffix = f"_{asked['decimate'] + 1}" if asked["decimate"] else ""
                asked["decimate"] += 1
            cool(ctx, cards, suffix)
        elif kind == "die_off":
            die_off(ctx, cards)
        elif kind == "breakage":
            breakage(ctx, cards)
        elif kind == "no_maritime":
            no_maritime(ctx, cards)
        elif kind == "no_markland":
            if advanced_off(view, "D9"):
                ctx.note(skipped("D9"))
            else:
                no_markland(ctx, cards)
        elif kind == "storm":
            storm(ctx, cards)
        else:
            raise ProcedureError(f"{view.name(event)}: the icon {icon!r} is not one of D1–D10")
    if "auction" in icons:
        auction(ctx, bids, cards)
    turn = view.counter("turn", 1)
    if view.counter("event.resolved") != turn:
        ctx.set_counter("event.resolved", turn)
    return f"Event {view.name(event)} resolved"


def event_phase(
    ctx: ProcedureContext, cards: Cards | None = None, bids: Mapping[str, int] | None = None
) -> str:
    """The whole event phase: reveal, first player, icons, auction."""
    label = reveal(ctx, cards)
    resolve_event(ctx, cards, bids)
    return label


# ---- D1 migrations -----------------------------------------------------------------
def migrate(ctx: ProcedureContext, row: str, cards: Cards | None = None) -> str:
    """D1: the row's deck top card replaces the row's lowest-climax card, warm or cold, in its place."""
    if row not in ROWS:
        raise ProcedureError(f"a migration is north or south, not {row!r}")
    view = view_of(ctx.state, cards)
    deck = ctx.state.places[f"{row}_deck"].contents
    label = f"{row.capitalize()} migration"
    if not deck:
        ctx.note(f"the {row} deck is empty: no migration (D1)")
        return label
    lying = [
        (pid, place)
        for place in (f"{row}_cold", f"{row}_warm")
        for pid in ctx.state.places[place].contents
    ]
    if not lying:
        ctx.note(f"the {row} row is empty: no card to replace (D1)")
        return label
    lowest = min(int(view.row(pid).get("climax") or 0) for pid, _ in lying)
    tied = [(pid, place) for pid, place in lying if int(view.row(pid).get("climax") or 0) == lowest]
    old, place = tied[0]
    if len(tied) > 1:
        wanted = one_of(  # the rules leave the tie open: the first player settles it (A2)
            ctx,
            f"migrate_{row}",
            f"{label} (D1): {', '.join(view.name(p) for p, _ in tied)} share the lowest climax"
            f" {lowest}: which is replaced",
            [row_id(view, p) for p, _ in tied],
            current_first(view),
            "D1",
            [(row_id(view, p), view.name(p)) for p, _ in tied],
        )
        old, place = next((p, pl) for p, pl in tied if row_id(view, p) == str(wanted))
    index = ctx.state.places[place].contents.index(old)
    new = deck[-1]
    colonists = len(ctx.state.places[old].contents) if view.is_new_world(old) else 0
    remove_card(ctx, view, old)
    ctx.move(new, place, index=index)
    if not ctx.state.pieces[new].face_up:
        ctx.flip(new, True)
    side = place.split("_")[1]
    ctx.note(
        f"{view.name(new)} (climax {view.row(new).get('climax')}) replaces {view.name(old)}"
        f" (climax {lowest}) on the {side} side; {view.name(old)} leaves the game"
        + (f" and its {colonists} colonists go to Valhalla" if colonists else "")
    )
    return label


# ---- D2 decimations ----------------------------------------------------------------
def _pool(view: Greenland, colour: str) -> list[str]:
    """D2's unassigned hunters: cubes outside elders, colonies, husbands and Valhalla; the Alpha last."""
    cubes = view.unassigned(colour)
    for card, _count in view.assigned_cards(colour).items():
        if not view.is_new_world(card):
            cubes += view.hunters_on(card, colour)
    return sorted(cubes, key=lambda pid: view.state.pieces[pid].kind == "alpha")


def _married_to(view: Greenland, colour: str, daughters: list[str]) -> list[str]:
    """The daughters of those colours a husband of ``colour`` is married to."""
    found = []
    rows = view.cards.rows
    for piece in view.state.pieces.values():
        row = rows.get(piece.props.get("card", "")) or {}  # view.row of every piece, at once
        if row.get("type") != "daughter" or row.get("colour") not in daughters:
            continue
        husband = view.husband(piece.id)
        if husband is not None and view.state.pieces[husband].owner == colour:
            found.append(view.name(piece.id))
    return found


def decimate(
    ctx: ProcedureContext, cause: str, cards: Cards | None = None, suffix: str = ""
) -> str:
    """D2: the cultures the cause strikes lose half their unassigned hunters (rounded up) and one elder.

    ``cause``: 'crowd:10' (10 or more unassigned hunters), 'venereal:yellow'
    (husbands on yellow daughters; 'venereal:yellow,green' for either), 'feud'
    (no cube on rank 1 of one's own elder card).
    """
    view = view_of(ctx.state, cards)
    kind, _, arg = cause.partition(":")
    struck: list[tuple[str, str]] = []
    for colour in _order(view):
        if kind == "crowd":
            try:
                least = int(arg)
            except ValueError:
                raise ProcedureError(
                    f"crowd disease needs a number, e.g. crowd:10, not {cause!r}"
                ) from None
            hunters = len(_pool(view, colour))
            if hunters >= least:
                struck.append((colour, f"crowd disease ({hunters} unassigned hunters, {least}+)"))
        elif kind == "venereal":
            daughters = [c for c in arg.replace("/", ",").split(",") if c]
            if not daughters or any(c not in COLOURS for c in daughters):
                raise ProcedureError(f"venereal disease names daughters' colours, not {cause!r}")
            wives = _married_to(view, colour, daughters)
            if wives:
                struck.append((colour, f"venereal disease (married to {', '.join(wives)})"))
        elif kind == "feud":
            if not ctx.state.contents(f"elder-{colour}", "rank1"):
                struck.append((colour, "feud (no one on rank 1 of the elder card)"))
        else:
            raise ProcedureError(
                f"a decimation is crowd:N, venereal:<colour> or feud, not {cause!r}"
            )
    for colour, why in struck:
        _decimate_one(ctx, view, colour, why, suffix)
    if not struck:
        ctx.note(f"no culture is decimated ({cause})")
    discard_excess(ctx, view)  # B2: an elder of rank 3 lost shrinks the hand
    return f"Decimation: {cause}"


def _decimate_one(
    ctx: ProcedureContext, view: Greenland, colour: str, why: str, suffix: str
) -> None:
    pool = _pool(view, colour)
    loss = math.ceil(len(pool) / 2)  # losses rounded up (Icon Reference)
    for cube in pool[:loss]:
        ctx.move(cube, f"valhalla_{colour}")
    elders = elder_cubes(view, colour)
    dead = None
    if elders:
        dead = next(iter(elders))
        if len(elders) > 1:
            dead = str(
                one_of(
                    ctx,
                    f"elder_{colour}{suffix}",
                    f"Decimation of {colour} (D2): which elder dies (a rank, or rank@card for a missionary)",
                    list(elders),
                    colour,
                    "D2",
                )
            )
        kill_elder(ctx, elders[dead][-1])
    ctx.note(
        f"{colour} decimated by {why}: {loss} of {len(pool)} unassigned hunters die"
        + (f" and the rank-{dead} elder" if dead else ", no elder to lose")
    )


# ---- D3 snowflakes -----------------------------------------------------------------
def snowflake(
    ctx: ProcedureContext, n: int | str, cards: Cards | None = None, suffix: str = ""
) -> str:
    """D3: each culture pays n energy and/or elders ('per_d': one per D card in its tableau).

    A culture with neither elders nor D cards is not touched; 'snowflake -N'
    (Saila as wife or daughter) lowers the loss; a D card may be discarded for
    its Value instead of paying for it (B3).
    """
    view = view_of(ctx.state, cards)
    per_d = str(n) == "per_d"
    if not per_d:
        try:
            n = int(n)
        except ValueError:
            raise ProcedureError(f"a snowflake is a number or per_d, not {n!r}") from None
    for colour in _order(view):
        animals = d_cards(view, colour)
        if not animals and not elder_cubes(view, colour):
            ctx.note(f"{colour} has no elders and no D cards: no effect")
            continue
        owed = len(animals) if per_d else int(n)
        relief = snowflake_relief(view, colour)
        amount = max(0, owed - relief)
        if not amount:
            if owed:
                ctx.note(f"{colour} owes nothing (snowflake -{relief})")
            continue
        paid = pay(
            ctx,
            view,
            colour,
            amount,
            f"snowflake_{colour}{suffix}",
            f"Snowflake (D3): {colour} pays {amount} energy and/or elders",
            discards=animals,
        )
        ctx.note(
            f"{colour} pays {_payment_text(paid)}"
            + (f" (snowflake -{relief})" if relief and owed else "")
        )
    discard_excess(ctx, view)  # B2: an elder of rank 3 paid shrinks the hand
    return "Snowflake: " + ("one per D card" if per_d else str(n))


# ---- D4 global cooling -------------------------------------------------------------
SOLITAIRE_COOLED = "solitaire.cooled"  # counter: the turn a cooling last took effect (K)


def cool(ctx: ProcedureContext, cards: Cards | None = None, suffix: str = "") -> str:
    """D4: in each row the warm card furthest from the deck goes to the far end of the cold side.

    With no warm card left, the deep freeze takes the cold card nearest the deck out of the game.
    In the solitaire game (K) a cooling on turn 1 is ignored, a second one in a turn counts as
    none, and otherwise every culture is decimated (D2) after the cards move (choices
    ``elder_<colour>``, numbered like a decimation icon's).
    """
    view = view_of(ctx.state, cards)
    solitaire = cooperative(view)
    if solitaire:
        turn = view.counter("turn", 1)
        if turn == 1:
            ctx.note("the solitaire game ignores global cooling on the first turn (K)")
            return "Global cooling ignored"
        if view.counter(SOLITAIRE_COOLED) == turn:
            ctx.note("a second global cooling this turn counts as none (K)")
            return "Global cooling ignored"
        ctx.set_counter(SOLITAIRE_COOLED, turn)
    for row in ROWS:
        warm = ctx.state.places[f"{row}_warm"].contents
        cold = ctx.state.places[f"{row}_cold"].contents
        if warm:
            pid = warm[-1]
            ctx.move(pid, f"{row}_cold", index=0)
            ctx.note(f"{view.name(pid)} goes to the cold side of the {row} row")
        elif cold:
            pid = cold[-1]
            remove_card(ctx, view, pid)
            ctx.note(f"deep freeze: {view.name(pid)} leaves the {row} row and the game")
        else:
            ctx.note(f"the {row} row is empty")
    if solitaire:
        for colour in _order(view):
            _decimate_one(ctx, view, colour, "global cooling (K)", suffix)
        discard_excess(ctx, view)  # B2: an elder of rank 3 lost shrinks the hand
    return "Global cooling"


# ---- D5 elder die-off --------------------------------------------------------------
def die_off(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """D5: each culture rolls a die and loses an elder of that rank (on any elder card)."""
    view = view_of(ctx.state, cards)
    for colour in _order(view):
        rank = ctx.roll(1, f"die-off ({colour})")[0]
        elders = elder_cubes(view, colour, rank)
        if not elders:
            ctx.note(f"{colour} rolls {rank}: no elder of that rank")
            continue
        cards_of = {label.partition("@")[2] or colour: label for label in elders}
        card = next(iter(cards_of))
        if len(cards_of) > 1:
            card = str(
                one_of(
                    ctx,
                    f"die_off_{colour}",
                    f"Die-off (D5): {colour} rolled {rank}: from whose elder card",
                    list(cards_of),
                    colour,
                    "D5",
                )
            )
        kill_elder(ctx, elders[cards_of[card]][-1])
        where = "" if card == colour else f" on the {card} elder card"
        ctx.note(f"{colour} rolls {rank}: the rank-{rank} elder{where} dies")
    discard_excess(ctx, view)  # B2: an elder of rank 3 lost shrinks the hand
    return "Elder die-off"


# ---- D6 breakage -------------------------------------------------------------------
def breakage(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """D6: each culture with a card of iron Value exchanges one of them for its disks (B3)."""
    view = view_of(ctx.state, cards)
    for colour in _order(view):
        imports = [pid for pid in view.tableau(colour) if value_of(view, pid).get("iron")]
        if not imports:
            continue
        pid = imports[0]
        if len(imports) > 1:
            wanted = one_of(
                ctx,
                f"breakage_{colour}",
                f"Breakage (D6): which of {colour}'s iron imports breaks",
                [row_id(view, p) for p in imports],
                colour,
                "D6",
                [(row_id(view, p), view.name(p)) for p in imports],
            )
            pid = next(p for p in imports if row_id(view, p) == str(wanted))
        name = view.name(pid)
        ctx.note(f"{colour}'s {name} breaks: gains {_gain_text(exchange(ctx, view, colour, pid))}")
    discard_excess(ctx, view)  # B2: an import that granted hand size is gone
    return "Breakage"


# ---- D7, D9 bans, D8 storm ---------------------------------------------------------
def _ban(ctx: ProcedureContext, what: str, text: str, cards: Cards | None) -> str:
    turn = view_of(ctx.state, cards).counter("turn", 1)
    if ctx.state.counters.get(f"ban.{what}") != turn:
        ctx.set_counter(f"ban.{what}", turn)
    ctx.note(f"{text} on turn {turn}")
    return text[0].upper() + text[1:]


def no_maritime(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """D7: no cubes go to maritime biomes this turn (counter 'ban.maritime' = the turn)."""
    return _ban(ctx, "maritime", "no maritime hunting", cards)


def no_markland(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """D9: no moves to or from Markland this turn (counter 'ban.markland' = the turn).

    The beginners' game has no Markland ban (C2): resolve_event skips the icon.
    """
    refuse_if_off(ctx.state, "D9")
    return _ban(ctx, "markland", "no moving to or from Markland", cards)


def storm(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """D8: each culture with a mariner (rank 6) loses one."""
    view = view_of(ctx.state, cards)
    for colour in _order(view):
        mariners = [
            pid
            for pid in ctx.state.contents(f"elder-{colour}", "rank6")
            if ctx.state.pieces[pid].owner == colour
        ]
        if mariners:
            kill_elder(ctx, mariners[-1])
            ctx.note(f"{colour} loses a mariner")
    return "Storm"


# ---- D10 auction -------------------------------------------------------------------
def auction(
    ctx: ProcedureContext, bids: Mapping[str, int] | None = None, cards: Cards | None = None
) -> str:
    """D10: the highest ivory bid takes the event card into its tableau, turned 180°; an event
    without an import is not auctioned (refused).

    Bids come from ``bids`` or else the choices ``bid_<colour>``, asked of
    every culture with ivory in player order. Ties go to a culture with 'wins_auction_ties'
    (Peepeelee, as daughter or wife), then to player order. Without a bid
    the card goes out of the game.
    """
    view = view_of(ctx.state, cards)
    event = _current(view)
    row = view.row(event)
    if "auction" not in (row.get("event_icons") or ()) and not row.get("import"):
        raise ProcedureError(
            f"{view.name(event)} shows no import: only an event card with an import is"
            " auctioned (D10)"
        )
    order = _order(view)
    offered = row.get("import") or view.name(event)
    if bids is None:
        bids = {}
        for colour in order:
            ivory = view.disks(colour, "ivory")
            key = f"bid_{colour}"
            if not ivory and key not in ctx.choices:
                continue  # no ivory, no bid (D10: ivory only)
            bids[colour] = one_of(
                ctx,
                key,
                f"Auction of {offered} (D10): {colour}'s bid in ivory (0 for none)",
                [str(n) for n in range(ivory + 1)],
                colour,
                "D10",
            )
    offers: dict[str, int] = {}
    for colour, bid in bids.items():
        try:
            amount = int(bid)
        except (TypeError, ValueError):
            raise ProcedureError(f"{colour}'s bid must be a number of ivory, not {bid!r}") from None
        if colour not in order:
            raise ProcedureError(f"{colour} is not in the game and cannot bid")
        if amount < 0 or amount > view.disks(colour, "ivory"):
            raise ProcedureError(
                f"{colour} bids {amount} ivory but has {view.disks(colour, 'ivory')} (D10: ivory only)"
            )
        if amount:
            offers[colour] = amount
    if not offers:
        remove_card(ctx, view, event, "events_out")
        ctx.note(f"nobody bids for {offered}: the card leaves the game")
        return "Auction: no bid"
    best = max(offers.values())
    tied = [c for c in order if offers.get(c) == best]
    why = ""
    if len(tied) > 1:
        favoured = [c for c in tied if view.has(c, "wins_auction_ties")]
        why = " (wins ties)" if favoured else " (player order)"
        tied = favoured or tied
    winner = tied[0]
    spend(ctx, winner, "ivory", best)
    ctx.move(event, f"tableau_{winner}")
    if not ctx.state.pieces[event].face_up:
        ctx.flip(event, True)
    turn = (2 - ctx.state.pieces[event].rotation) % 4
    if turn:
        ctx.build(lambda s: actions.rotate(s, event, turn))
    ctx.note(f"{winner} wins {offered} for {best} ivory{why}")
    return f"Auction of {offered}"
