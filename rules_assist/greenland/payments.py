"""What a culture pays and gains: energy and elders spent, cards exchanged for disks, babies born.

Shared by the event, hunt and animal procedures. Every function changes the
table only through a ProcedureContext (``ctx``) and reads it through a
Greenland view of ``ctx.state`` (which follows each step as it is made).

Elders are named in choices as their rank, ``'3'``, or ``'3@yellow'`` for a
missionary of that rank on another culture's elder card (D3: the elders of
your colour on any elder card). A payment of several units is written as a
comma-separated list: ``'energy,elder:3'``; one unit given for several
(``'energy'`` for two) means that unit every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.core import actions

from ..procedures import ProcedureContext
from ..questions import Question
from .deck import CULTURES
from .variants import cooperative
from .view import COLOURS, Greenland

DISKS = ("energy", "ivory", "iron")
SUBSTITUTES = ("ivory", "iron")  # K: in the solitaire game they may be spent as if orange


def substitutes(view: Greenland, colour: str) -> dict[str, int]:
    """K: the ivory and iron a culture may spend as energy (solitaire only), by kind."""
    if not cooperative(view):
        return {}
    return {kind: n for kind in SUBSTITUTES if (n := view.disks(colour, kind))}


def promotion_disk(view: Greenland, colour: str) -> str | None:
    """E3: the disk a promotion is paid with: an energy disk, or in the solitaire game (K) an
    ivory, else an iron, when the culture has no energy left; None when it has none of them."""
    state = view.state
    for kind in ("energy", *substitutes(view, colour)):
        bowl = state.places.get(f"{kind}_{colour}")
        if bowl is not None and bowl.contents:
            return bowl.contents[-1]
    return None


def promotion_means(view: Greenland, colour: str) -> tuple[str, ...]:
    """E3 with K: the kinds of disk that may pay a promotion (energy; ivory and iron too in the
    solitaire game)."""
    return ("energy", *SUBSTITUTES) if cooperative(view) else ("energy",)


# ---- choices ---------------------------------------------------------------------
UNPAID = "unpaid"  # K: the units a culture leaves unpaid rather than spend its ivory or iron


def means_label(unit: str) -> str:
    """How a means of payment reads in a dialog: 'elder:2@yellow' is an elder of rank 2 on
    the Thule's elder card."""
    if unit == UNPAID:
        return "left unpaid (K)"
    if unit.startswith("elder:"):
        rank, _, card = unit.removeprefix("elder:").partition("@")
        where = f" on the {CULTURES.get(card, card)} elder card" if card else ""
        return f"an elder of rank {rank}{where}"
    if unit.startswith("discard:"):
        return f"discard {unit.removeprefix('discard:').replace('_', ' ')}"
    if unit in ("ivory", "iron"):
        return f"{unit} (as energy, K)"
    return unit


def ask_payment(
    ctx: ProcedureContext,
    key: str,
    text: str,
    amount: int,
    have: Mapping[str, int],
    owner: str,
    section: str,
    alternatives: Sequence[str] = (),
    least: int | None = None,
) -> list[str] | str:
    """A payment question: ``amount`` units from ``have`` (each at most as many as there are),
    or one of ``alternatives``; the units paid, or the alternative chosen.

    With ``least`` the culture may leave up to ``amount - least`` units unpaid
    (K: ivory and iron only stand in for energy; the means ``unpaid``). Given
    answers are read as before: 'energy,elder:3', 'energy+elder:3', one unit
    for several ('energy' for two), 'none' when nothing need be paid.
    """
    means = list(have.items())
    short = amount - least if least is not None else 0
    if short:
        means.append((UNPAID, short))
    question = Question.payment(
        key,
        text,
        amount,
        means,
        alternatives,
        owner,
        labels=tuple((unit, means_label(unit)) for unit, _n in means),
        section=section,
    )
    if key in ctx.choices:
        ctx.choices[key] = _given_payment(ctx.choices[key], amount, short, alternatives)
    paid = ctx.answer(question)
    if isinstance(paid, str):
        return paid
    return [unit for unit, n in paid.items() if unit != UNPAID for _ in range(n)]


def _given_payment(answer: Any, amount: int, short: int, alternatives: Sequence[str]) -> Any:
    """A given payment answer in the question's terms: one unit named for several, '+' as ',',
    and (K) the units not named left unpaid."""
    if isinstance(answer, Mapping | bool):
        return answer
    if isinstance(answer, list | tuple):
        units = [str(u).strip() for u in answer if str(u).strip()]
    else:
        text = str(answer).strip()
        if text.lower() in (a.lower() for a in alternatives):
            return text
        units = [u.strip() for u in text.replace("+", ",").split(",") if u.strip()]
    units = [u for u in units if u.lower() != "none"]
    if any("=" in u for u in units):
        return units
    if len(units) == 1 and amount > 1 and not units[0].startswith("discard:"):
        units = units * amount
    if short and amount - short <= len(units) < amount:
        units += [UNPAID] * (amount - len(units))
    return units


# ---- reading ---------------------------------------------------------------------
RANK_SPOTS = {f"rank{r}": r for r in range(1, 7)}


def elder_cubes(view: Greenland, colour: str, rank: int | None = None) -> dict[str, list[str]]:
    """The elders of ``colour`` on every elder card, by label ('3', or '2@yellow' on another card)."""
    found: dict[str, list[str]] = {}
    places, pieces = view.state.places, view.state.pieces
    wanted = RANK_SPOTS if rank is None else {f"rank{rank}": rank}
    for card in COLOURS:
        place = places.get(f"elder-{card}")
        if place is None:
            continue
        by_rank: dict[int, list[str]] = {}
        for pid in place.contents:  # one look at the card, the cubes kept in their order
            piece = pieces[pid]
            r = wanted.get(piece.spot) if piece.owner == colour else None
            if r is not None:
                by_rank.setdefault(r, []).append(pid)
        for r in sorted(by_rank):
            found[str(r) if card == colour else f"{r}@{card}"] = by_rank[r]
    return found


def d_cards(view: Greenland, colour: str) -> list[str]:
    """The "D" cards (domesticated animals) in a tableau, left to right (B2)."""
    place = view.state.places.get(f"tableau_{colour}")
    if place is None:
        return []
    pieces, rows = view.state.pieces, view.cards.rows
    found = []
    for pid in place.contents:  # each card's row as ``view.row`` reads it
        piece = pieces.get(pid)
        row = rows.get(piece.props.get("card", "")) if piece is not None else None
        if row and row.get("hand") == "D":
            found.append(pid)
    return found


def row_id(view: Greenland, pid: str) -> str:
    """The card's deck row id, as choices name cards ('cattle', 'dogs')."""
    return str(view.state.pieces[pid].props.get("card", pid))


def value_of(view: Greenland, pid: str) -> dict[str, int]:
    """The disks a card is exchanged for (B3); a falcon is worth more while an event says so."""
    row = view.row(pid)
    value = {kind: int(row.get(f"value_{kind}") or 0) for kind in DISKS}
    if value["ivory"] and "falcon" in str(row.get("name", "")).casefold():
        current = view.state.places["event_current"].contents
        abilities = (view.row(current[-1]).get("abilities") or []) if current else []
        for ability in abilities:
            if ability.startswith("falcon_value "):
                value["ivory"] = int(ability.split()[1])
    return {kind: n for kind, n in value.items() if n}


def snowflake_relief(view: Greenland, colour: str) -> int:
    """By how much snowflake losses shrink ('snowflake -N', e.g. Saila as wife or daughter, D3)."""
    return sum(
        int(a.split()[1].lstrip("-")) for a in view.abilities(colour) if a.startswith("snowflake -")
    )


# ---- changing the table ----------------------------------------------------------
def spend(ctx: ProcedureContext, colour: str, kind: str, count: int = 1) -> int:
    """Return ``count`` disks of a kind from a culture to the supply; how many there were."""
    bowl = ctx.state.places[f"{kind}_{colour}"].contents
    paid = min(count, len(bowl))
    for _ in range(paid):
        ctx.move(ctx.state.places[f"{kind}_{colour}"].contents[-1], f"supply_{kind}")
    return paid


def gain(ctx: ProcedureContext, view: Greenland, colour: str, kind: str, count: int) -> int:
    """Give a culture disks from the supply; how many it got.

    Energy: never more than the woodpile held (8, B4: more rots; the module's
    [constants]) and no more than the disks there are. Ivory and iron are
    unlimited: a substitute disk is added when the supply runs out (B4).
    """
    got = 0
    woodpile = view.woodpile
    for _ in range(count):
        held = len(ctx.state.places[f"{kind}_{colour}"].contents)
        if kind == "energy" and held >= woodpile:
            break
        supply = ctx.state.places[f"supply_{kind}"].contents
        if supply:
            ctx.move(supply[-1], f"{kind}_{colour}")
        elif kind == "energy":
            break
        else:
            n = 1
            while f"{kind}-{n}" in ctx.state.pieces:
                n += 1
            ctx.build(
                lambda s, pid=f"{kind}-{n}": actions.add_piece(
                    s, {"id": pid, "kind": kind}, f"{kind}_{colour}"
                )
            )
        got += 1
    return got


def kill_elder(ctx: ProcedureContext, cube: str) -> None:
    """An elder dies: his cube goes to his culture's Valhalla."""
    ctx.move(cube, f"valhalla_{ctx.state.pieces[cube].owner}")


def clear_card(ctx: ProcedureContext, view: Greenland, pid: str) -> list[str]:
    """Take the cubes off a card that leaves play: colonists die (E2), others go home (B4).

    Returns the cubes sent to Valhalla.
    """
    dead = []
    if pid not in ctx.state.places:
        return dead
    new_world = view.is_new_world(pid)
    for cube in list(ctx.state.places[pid].contents):
        owner = ctx.state.pieces[cube].owner
        if new_world:
            ctx.move(cube, f"valhalla_{owner}")
            dead.append(cube)
        else:
            ctx.move(cube, f"hunters_{owner}")
    return dead


def remove_card(
    ctx: ProcedureContext, view: Greenland, pid: str, place: str = "out_of_game"
) -> None:
    """A card leaves play for good, face up, with the cubes on it taken off first."""
    clear_card(ctx, view, pid)
    ctx.move(pid, place)
    if not ctx.state.pieces[pid].face_up:
        ctx.flip(pid, True)


def exchange(ctx: ProcedureContext, view: Greenland, colour: str, pid: str) -> dict[str, int]:
    """B3: discard a tableau card for the disks of its Value (energy within the woodpile limit)."""
    value = value_of(view, pid)
    remove_card(ctx, view, pid)
    return {kind: gain(ctx, view, colour, kind, n) for kind, n in value.items()}


def babies(ctx: ProcedureContext, colour: str, count: int) -> int:
    """New hunters from Valhalla into the unassigned hunters, the Alpha first if he died; how many."""
    valhalla = ctx.state.places[f"valhalla_{colour}"].contents
    cubes = sorted(valhalla, key=lambda pid: ctx.state.pieces[pid].kind != "alpha")[:count]
    for cube in cubes:
        ctx.move(cube, f"hunters_{colour}")
    return len(cubes)


def describe_gain(gained: dict[str, int]) -> str:
    parts = [f"{n} {kind}" for kind, n in gained.items() if n]
    return " and ".join(parts) if parts else "nothing"


# ---- paying energy and elders (D3, H1) -------------------------------------------
def pay_options(
    view: Greenland, colour: str, discards: Sequence[str] = ()
) -> tuple[list[str], dict[str, int]]:
    """What a culture can pay with, as choice words, and how many of each it has."""
    have: dict[str, int] = {}
    energy = view.disks(colour, "energy")
    if energy:
        have["energy"] = energy
    for label, cubes in elder_cubes(view, colour).items():
        have[f"elder:{label}"] = len(cubes)
    for pid in discards:
        have[f"discard:{row_id(view, pid)}"] = 1
    have.update(substitutes(view, colour))  # K: offered beside energy, never taken unasked
    return list(have), have


def pay_units(
    ctx: ProcedureContext, view: Greenland, colour: str, units: Sequence[str]
) -> dict[str, Any]:
    """Pay the units: energy to the supply, elders to Valhalla, D cards exchanged (B3)."""
    paid: dict[str, Any] = {"energy": 0, "elders": [], "discarded": [], "gained": Counter()}
    for unit in units:
        if unit == "energy":
            paid["energy"] += spend(ctx, colour, "energy")
        elif unit in SUBSTITUTES:  # K: ivory or iron spent as if orange
            paid[unit] = paid.get(unit, 0) + spend(ctx, colour, unit)
        elif unit.startswith("elder:"):
            label = unit.removeprefix("elder:")
            kill_elder(ctx, elder_cubes(view, colour)[label][-1])
            paid["elders"].append(label)
        elif unit.startswith("discard:"):
            wanted = unit.removeprefix("discard:")
            pid = next(p for p in view.tableau(colour) if row_id(view, p) == wanted)
            paid["discarded"].append(view.name(pid))
            paid["gained"].update(exchange(ctx, view, colour, pid))
    return paid


def describe_payment(paid: dict[str, Any]) -> str:
    parts = []
    if paid["energy"]:
        parts.append(f"{paid['energy']} energy")
    for kind in SUBSTITUTES:
        if paid.get(kind):
            parts.append(f"{paid[kind]} {kind} as energy (K)")
    for label in paid["elders"]:
        rank, _, card = label.partition("@")
        parts.append(f"the rank-{rank} elder" + (f" on the {card} elder card" if card else ""))
    for name in paid["discarded"]:
        parts.append(f"{name} (discarded)")
    text = ", ".join(parts) if parts else "nothing"
    gained = {k: n for k, n in paid["gained"].items() if n}
    return text + (f"; gains {describe_gain(gained)}" if gained else "")


def pay(
    ctx: ProcedureContext,
    view: Greenland,
    colour: str,
    amount: int,
    key: str,
    question: str,
    discards: Sequence[str] = (),
    section: str = "D3",
) -> dict[str, Any] | None:
    """Pay ``amount`` energy and/or elders (or D cards in ``discards``); None when nothing is owed.

    Without the means to pay in full, everything there is goes; with only one
    way to pay, it is taken without asking; otherwise the player answers ``key``
    (a payment of ``amount`` from the means there are).
    """
    if amount <= 0:
        return None
    options, have = pay_options(view, colour, discards)
    if any(unit in SUBSTITUTES for unit in have):
        # K: ivory and iron may stand in for energy; the player always says which units go,
        # paying at least what the other means allow and at most what is owed
        least = min(amount, sum(n for unit, n in have.items() if unit not in SUBSTITUTES))
        most = min(amount, sum(have.values()))
        text = f"{question}: give {most} (ivory and iron count as energy, K)"
        units = ask_payment(ctx, key, text, most, have, colour, section, least=least)
        return pay_units(ctx, view, colour, units)
    if sum(have.values()) <= amount:
        units = [unit for unit, n in have.items() for _ in range(n)]
    elif len(options) == 1:
        units = [options[0]] * amount
    else:
        text = f"{question}: give {amount}"
        units = ask_payment(ctx, key, text, amount, have, colour, section)
    return pay_units(ctx, view, colour, list(units))
