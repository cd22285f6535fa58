"""What a Hunt Roll does to the table: losses (G0, F4), bog iron's snowflake, babies and disks
(G4), trophies and hand cards (G5–G7).

Each function takes the culture's ``Hunting`` (rules_assist/greenland/hunt_roll.py),
changes the scratch table through its procedure context and adds a sentence
to the log line.
"""

from __future__ import annotations

import functools
import re

from tabletop.core import actions

from .choices import Asker
from .hunt_roll import Die, Hunting, Outcome, culture, listing
from .variants import advanced_off


# The bog iron and snowflake abilities' patterns are compiled at the first hunt's results, not
# when the game is loaded.
@functools.cache
def _snowflake() -> re.Pattern[str]:
    return re.compile(r"^snowflake_on_success ([1-9])$")


@functools.cache
def _snowflake_less() -> re.Pattern[str]:
    return re.compile(r"^snowflake -([1-9])$")


# ---- losses -----------------------------------------------------------------------------
def losses(h: Hunting, dice: list[Die], outcome: Outcome, success: bool) -> list[str]:
    """G0 and F4: the dead go to Valhalla unless an iron cancels the losses. The dead, or []."""
    deaths = list(outcome.deaths)
    if not deaths:
        return []
    shown = listing([str(d.face) for d in dice if d.cube in deaths])
    noun = "raider" if h.raid else "colonist" if h.new_world else "hunter"
    if len(deaths) == 1:
        whom = "the Alpha" if h.alpha in deaths else f"a {noun}"
        h.note(f"the {shown} kills {whom}")
    else:
        among = ", the Alpha among them" if h.alpha in deaths else ""
        h.note(f"the {shown} kill {len(deaths)} {noun}s{among}")
    gained = int(h.row.get("iron") or 0) if success and not h.raid else 0
    no_iron_rule = advanced_off(h.view, "F4")  # C3 and C2: no iron rule
    if not no_iron_rule and h.view.disks(h.colour, "iron") + gained > 0:
        lost = f"{len(deaths)} {noun}{'' if len(deaths) == 1 else 's'}"
        question = f"{h.who}: pay an iron to cancel the loss of {lost} on {h.name} (F4)?"
        if h.ask.yes_no("pay_iron", question, "F4"):
            h.note("an iron cancels the losses (F4)")
            return []
    for cube in deaths:
        h.ctx.move(cube, f"valhalla_{h.colour}")
    return deaths


def pay_iron(h: Hunting) -> None:
    bowl = h.view.state.places[f"iron_{h.colour}"].contents
    h.ctx.move(bowl[-1], "supply_iron")


# ---- bog iron's snowflake -------------------------------------------------------------------
def snowflake(h: Hunting) -> bool:
    """G4: a successful hunt of a card with a snowflake (bog iron) is paid like D3, or it fails."""
    cost = sum(
        int(m.group(1)) for a in h.row.get("abilities") or [] if (m := _snowflake().match(a))
    )
    if not cost:
        return True
    for ability, _source in h.abilities:  # Saila (D3)
        if match := _snowflake_less().match(ability):
            cost = max(0, cost - int(match.group(1)))
    if not cost:
        h.note("the snowflake costs nothing (D3)")
        return True
    energy = h.view.disks(h.colour, "energy")
    options = ["energy"] if energy >= cost else []
    options += ["elder"] if sum(_elders(h).values()) >= cost else []
    if not options:
        h.note(f"cannot pay the snowflake of {cost}: the hunt fails (G4)")
        return False
    price = f"{cost} energy or {'an elder' if cost == 1 else f'{cost} elders'}"
    question = f"{h.who}: pay {price} for {h.name}'s snowflake (G4, D3), or let the hunt fail?"
    answer = h.ask.one_of("snowflake", question, [*options, "none"], "G4")
    if answer == "none":
        h.note("does not pay the snowflake: the hunt fails (G4)")
        return False
    if answer == "energy":
        bowl = h.view.state.places[f"energy_{h.colour}"].contents
        for pid in list(bowl[-cost:]):
            h.ctx.move(pid, "supply_energy")
        h.note(f"pays the snowflake with {cost} energy")
        return True
    for _ in range(cost):
        ranks = sorted(_elders(h))
        where = ranks[0]
        if len(ranks) > 1:
            question = f"{h.who}: which elder dies for the snowflake (D3)?"
            where = h.ask.one_of("snowflake_elder", question, ranks, "D3")
        card, rank = _elder_place(h, where)
        cube = next(
            pid
            for pid in h.view.state.contents(card, rank)
            if h.view.state.pieces[pid].owner == h.colour
        )
        h.ctx.move(cube, f"valhalla_{h.colour}")
        h.note(f"an elder ({where}) dies for the snowflake")
    return True


def _elders(h: Hunting) -> dict[str, int]:
    """A culture's elders by rank: 'rank6' on its own card, 'yellow-rank2' on another (D3)."""
    found: dict[str, int] = {}
    for owner in h.view.seats():
        for rank in range(1, 7):
            count = h.view.elders(h.colour, rank, on=owner)
            if count:
                found[f"rank{rank}" if owner == h.colour else f"{owner}-rank{rank}"] = count
    return found


def _elder_place(h: Hunting, where: str) -> tuple[str, str]:
    owner, _, rank = where.rpartition("-")
    return f"elder-{owner or h.colour}", rank


# ---- babies and disks -----------------------------------------------------------------------
def gains(h: Hunting) -> None:
    """G4: babies from Valhalla (the Alpha first; colonists in the New World, E2), disks; once."""
    found: list[str] = []
    babies = int(h.row.get("babies") or 0)
    if babies:
        valhalla = h.view.state.places[f"valhalla_{h.colour}"].contents
        born = sorted(valhalla, key=lambda c: c != h.alpha)[:babies]
        for cube in born:
            if h.new_world:
                h.ctx.move(cube, h.card, spot="hunters")
            else:
                h.ctx.move(cube, f"hunters_{h.colour}")
        if h.new_world:
            text = f"{len(born)} colonist{'' if len(born) == 1 else 's'}"
        else:
            text = f"{len(born)} {'baby' if len(born) == 1 else 'babies'}"
        if len(born) < babies:
            text += f" of {babies} (Valhalla holds no more)"
        if h.alpha in born:
            text += ", the Alpha reborn first (E7)"
        found.append(text)
    for disk in ("energy", "ivory", "iron"):
        count = int(h.row.get(disk) or 0)
        if count:
            found.append(_disks(h, disk, count))
    if found:
        h.note(", ".join(found))


def _disks(h: Hunting, disk: str, count: int) -> str:
    state = h.view.state
    bowl = f"{disk}_{h.colour}"
    supply = state.places[f"supply_{disk}"].contents
    if disk == "energy":
        woodpile = h.view.woodpile
        room = max(0, woodpile - len(state.places[bowl].contents))
        got = min(count, room, len(supply))
        for pid in list(supply[len(supply) - got :]):
            h.ctx.move(pid, bowl)
        if got < count and room < count:
            return f"{got} energy ({count - got} lost: the woodpile holds {woodpile}, B4)"
        if got < count:
            return f"{got} energy (the supply holds no more)"
        return f"{got} energy"
    for _ in range(count):
        if supply:
            h.ctx.move(supply[-1], bowl)
            continue
        n = sum(1 for p in state.pieces.values() if p.kind == disk) + 1
        while f"{disk}-{n}" in state.pieces:
            n += 1
        pid = f"{disk}-{n}"  # ivory and iron are unlimited (B4): a substitute disk
        h.ctx.build(lambda s, pid=pid: actions.add_piece(s, {"id": pid, "kind": disk}, bowl))
    return f"{count} {disk}"


# ---- the cubes and the card -------------------------------------------------------------------
def go_home(h: Hunting, success: bool) -> None:
    """Survivors (not colonists) go home; outside the New World a success sends all home (G4)."""
    if h.new_world:
        return
    for cube in h.view.hunters_on(h.card, h.colour):
        h.home(cube)
    if success:
        send_others_home(h, "go home unsuccessful (G4)")


def send_others_home(h: Hunting, why: str) -> None:
    state = h.view.state
    others = [c for c in h.view.hunters_on(h.card) if state.pieces[c].owner != h.colour]
    for cube in others:
        h.home(cube)
    colours = sorted({state.pieces[c].owner for c in others})
    if colours:
        h.note(f"{listing([culture(c) for c in colours])} {why}")


def take_card(h: Hunting, outcome: Outcome) -> None:
    """G5: a trophy, not replaced; G6: a D or I card into the hand, replaced from the deck (G7)."""
    state = h.view.state
    trophy = f"{h.who}: take {h.name} as a trophy (G5)?"
    if outcome.trophy and h.ask.yes_no("take_trophy", trophy, "G5"):
        send_others_home(h, "go home: the card is taken")
        h.ctx.move(h.card, f"trophies_{h.colour}")
        h.ctx.flip(h.card, True)
        h.note(f"takes {h.name} as a trophy (G5); it is not replaced (G7)")
        return
    if advanced_off(h.view, "G6"):  # C2: the beginners' game takes no cards into the hand
        return
    if not outcome.hand or not h.ask.yes_no(
        "take_card", f"{h.who}: take {h.name} into the hand (G6)?", "G6"
    ):
        return
    place = state.pieces[h.card].place
    index = state.places[place].contents.index(h.card)
    deck = state.places.get(f"{h.view.row_of(h.card)}_deck")
    replaced = not advanced_off(h.view, "G7")  # C3: cards taken are not replaced
    replacement = deck.contents[-1] if deck and deck.contents and replaced else None
    if replacement is not None:
        h.ctx.move(replacement, place, index=index)
        h.ctx.flip(replacement, True)
    text = f"takes {h.name} into the hand (G6)"
    if replacement is None:
        text += "; not replaced (C3)" if not replaced else "; the deck is empty"
    else:
        text += f"; {h.view.name(replacement)} replaces it (G7)"
    h.note(text)
    _others_after_hand(h, replacement)
    h.ctx.move(h.card, f"hand_{h.colour}")
    h.ctx.flip(h.card, False)


def _others_after_hand(h: Hunting, replacement: str | None) -> None:
    """G7: after an unsuccessful hunt the others may hunt the replacement card, or go home."""
    state = h.view.state
    staying: list[str] = []
    for colour in sorted({state.pieces[c].owner for c in h.view.hunters_on(h.card)}):
        cubes = h.view.hunters_on(h.card, colour)
        stay = False
        if replacement is not None:
            question = (
                f"{culture(colour)}: hunt {h.view.name(replacement)}, which replaces "
                f"{h.name}, with the hunters that were on it (G7)?"
            )
            stay = Asker(h.ctx, colour, True).yes_no("hunt_replacement", question, "G7")
        for cube in cubes:
            if stay:
                h.ctx.move(cube, replacement, spot="hunters")
            else:
                h.home(cube)
        if stay:
            staying.append(colour)
        else:
            h.note(f"{culture(colour)} go home: the card is taken")
    if staying and replacement is not None:
        h.replacement = replacement
        h.note(f"{listing([culture(c) for c in staying])} hunt {h.view.name(replacement)}")
