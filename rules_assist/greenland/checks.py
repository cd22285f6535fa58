"""Greenland's checks: is this move legal, and if not, which rule says so and what would be.

``check(state, command, actor)`` is the table's checker: it looks at the moves
a player makes by hand (procedures follow the rules by construction and are
not checked) and at the table they leave behind, for the cultures they touch.
``audit(state)`` looks at a whole table (``tabletop check``).

Each finding names its section: B2 (a hand over its size, a reminder to
discard down), B4 (cubes and disks), D7 and D9 (the turn's bans), E1
(homeland, mariners, sleds), E2 (the New World), E3 and E4 (elders and
permanent assignments), E5 (raids and defence), F1 (one husband).

The beginners' game (C2, rules_assist/greenland/variants.py) plays without
D9, E2, E5 and F1, so none of their findings come up there; the moves they
would allow are judged by the basic rules. Section E names the places a
hunter is assigned to; without raids, defence, husbands and the New World
they are the biomes in the rows (E1) and the culture's own elder card (E3).
So in the beginners' game a cube on any tableau card or a daughter's
exogamy box is illegal under E, one on another culture's elder card under
E3, and one on Markland or Vinland (out of that game) under C2.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from tabletop.core import Command, Compound, Finding, Move, Severity, TableState

from .deck import Cards
from .hands import excess, hand, hand_size
from .variants import advanced_off
from .view import COLOURS, WOODPILE, Greenland

SMALL_CUBES = 18
DISKS = ("energy", "ivory", "iron")


def checker_for(module: Any) -> Callable[[TableState, Command, str], list[Finding]]:
    """The table's checker for a game of this module (its deck revision's rows)."""
    cards = Cards.of(module)

    def checker(state: TableState, command: Command, actor: str) -> list[Finding]:
        return check(state, command, actor, cards)

    checker.trusts_procedures = True  # type: ignore[attr-defined] # check() passes them (Table.submit)
    return checker


def _moves(command: Command) -> Iterable[Move]:
    if isinstance(command, Move):
        yield command
    elif isinstance(command, Compound) and not command.procedure:
        for step in command.commands:
            yield from _moves(step)


def check(state: TableState, command: Command, actor: str, cards: Cards) -> list[Finding]:
    """The findings for a command a player submits, before it applies."""
    if isinstance(command, Compound) and command.procedure:
        return []  # a procedure of the rules assistant
    moves = list(_moves(command))
    if not moves:
        return []
    view = Greenland(state, cards)
    findings = [f for move in moves for f in _move_findings(view, move, moves)]
    colours = {state.pieces[m.piece].owner for m in moves if state.pieces[m.piece].owner in COLOURS}
    colours |= {_colour_of_place(m.dst.place) for m in moves} - {None}
    if colours:
        arrivals = _new_world_arrivals(view, moves)
        mark = state.mark()
        command.apply(state)
        try:
            after = [f for c in colours for f in audit_colour(view, c, arrivals.get(c, {}))]
        finally:
            command.inverse().apply(state)
        state.back_to(mark)  # as it was: what the table's memo held is good again
        if after:  # only what the move brings: problems the table had before are not its fault
            before = {text for c in colours for text in _problems(view, c)}
            findings += [f for f in after if f.describe() not in before]
    return findings


def _problems(view: Greenland, colour: str) -> frozenset[str]:
    """What ``audit_colour`` finds on the table as it is (kept in its memo)."""
    memo = view.state.memo()
    key = ("greenland.problems", colour, id(view.cards))
    found = memo.get(key)
    if found is None:
        found = memo[key] = frozenset(f.describe() for f in audit_colour(view, colour))
    return found


def _new_world_arrivals(view: Greenland, moves: list[Move]) -> dict[str, dict[str, int]]:
    """Cubes this command takes onto New World cards, by colour and card: they need mariners (E2)."""
    arrivals: dict[str, dict[str, int]] = {}
    for move in moves:
        card = view.card_at(move.dst.place)
        if card is None or view.card_at(move.src.place) == card or not view.is_new_world(card):
            continue
        colour = view.state.pieces[move.piece].owner
        if colour in COLOURS:
            arrivals.setdefault(colour, {})[card] = arrivals.get(colour, {}).get(card, 0) + 1
    return arrivals


def _colour_of_place(place_id: str) -> str | None:
    for colour in COLOURS:
        if place_id.endswith(f"_{colour}"):
            return colour
    return None


def _illegal(rule: str, message: str, *pieces: str) -> Finding:
    return Finding(rule, message, Severity.ILLEGAL, tuple(pieces))


def _move_findings(view: Greenland, move: Move, all_moves: list[Move]) -> list[Finding]:
    state = view.state
    piece = state.pieces[move.piece]
    if piece.kind not in ("cube", "alpha"):
        return []
    colour = piece.owner
    src, dst = move.src, move.dst
    target = view.card_at(dst.place)
    origin = view.card_at(src.place)
    findings: list[Finding] = []
    if dst.place.startswith("hunters_") and dst.place != f"hunters_{colour}":
        findings.append(
            _illegal(
                "B4",
                f"a {colour} cube goes among {colour}'s own unassigned hunters, not another culture's",
                piece.id,
            )
        )
    if dst.place.startswith("valhalla_") and dst.place != f"valhalla_{colour}":
        findings.append(
            _illegal("B4", f"a {colour} cube goes to {colour}'s part of Valhalla", piece.id)
        )
    # abandoning a colony (E4): all the culture's colonists leave the New World together, by mariner
    if (
        origin is not None
        and target is not None
        and origin != target
        and view.is_new_world(origin)
        and not view.is_new_world(target)
    ):
        findings += _abandonment(view, colour, piece.id, all_moves)
    # leaving a permanent assignment (E4): elders, colonists, husbands
    if origin is not None and origin != target:
        row = view.row(origin)
        permanent = row.get("type") in ("elder", "new_world") or src.spot == "exogamy"
        if permanent and dst.place == f"hunters_{colour}" and len(view.unassigned(colour)) > 1:
            what = {"elder": "an elder", "new_world": "a colonist"}.get(
                row.get("type"), "a husband"
            )
            findings.append(
                _illegal(
                    "E4",
                    f"{what} is assigned for good; only a culture with one or no unassigned hunters may take one back",
                    piece.id,
                )
            )
        if row.get("type") == "elder" and view.row(target or "").get("type") == "elder":
            findings.append(_illegal("E3", "an elder cannot change rank", piece.id))
    if (
        origin is not None
        and origin == target
        and view.row(origin).get("type") == "elder"
        and src.spot != dst.spot
    ):
        findings.append(_illegal("E3", "an elder cannot change rank", piece.id))
    if (
        origin is not None
        and target is not None
        and origin != target
        and src.spot == "hunters"
        and view.counter("phase") == "assignment"
        and view.row(origin).get("type") != "new_world"
    ):
        findings += _reassignment(view, colour, piece.id, target)
    if target is None:
        return findings
    row = view.row(target)
    kind = row.get("type")
    name = row.get("name", target)
    if kind == "elder":
        if view.row(target).get("colour") != colour:
            basic = advanced_off(view, "E5")  # C2: E3 alone puts elders on one's own card
            findings.append(
                _illegal(
                    "E3" if basic else "E5",
                    f"hunters are never placed on another culture's elders ({name})",
                    piece.id,
                )
            )
        elif src.place == f"hunters_{colour}" and dst.spot != src.spot:
            paid = any(
                m.piece.startswith("energy") and m.src.place == f"energy_{colour}"
                for m in all_moves
            )
            if not paid and not view.has(colour, "free_promotion"):
                findings.append(
                    _illegal(
                        "E3",
                        f"promoting a hunter to {dst.spot} costs 1 energy: pay it in the same move (Promote)",
                        piece.id,
                    )
                )
        return findings
    if advanced_off(view, "E5"):
        basic = _basic_assignment(view, target, dst.spot, piece.id, name)
        if basic is not None:
            return [*findings, basic]
    if dst.spot == "exogamy":
        husband = view.husband(target)
        if husband is not None and husband != piece.id:
            findings.append(
                _illegal(
                    "F1",
                    f"{name} already has a husband; hunters never attack husbands (E5)",
                    piece.id,
                    husband,
                )
            )
        return findings
    if row.get("hand") == "I" and view.side(target) == "tableau":
        findings.append(
            _illegal("E5", f"{name} is an invention: no cube is ever placed on it", piece.id)
        )
    owner = view.tableau_owner(target)
    if owner is not None and owner != colour:
        raidable = kind in ("daughter", "norse_animal") or row.get("hand") == "D"
        if not raidable:
            findings.append(
                _illegal(
                    "E5",
                    f"only daughters and livestock in another tableau can be raided, not {name}",
                    piece.id,
                )
            )
        else:
            if not view.war_chiefs(colour):
                findings.append(
                    _illegal("E5", f"raiding {name} needs a war chief (a rank 4 elder)", piece.id)
                )
            if "no_raid" in (row.get("abilities") or []):
                findings.append(_illegal("E5", f"{name} cannot be livestock raided", piece.id))
    turn = view.counter("turn")
    if (
        view.counter("ban.maritime") == turn
        and turn is not None
        and view.biome_type(target) == "maritime"
        and not owner
    ):
        findings.append(
            _illegal("D7", f"no maritime hunting this turn: {name} is a maritime biome", piece.id)
        )
    if (
        view.counter("ban.markland") == turn
        and turn is not None
        and "markland" in (target, origin)
        and not advanced_off(view, "D9")
    ):
        findings.append(_illegal("D9", "nobody moves to or from Markland this turn", piece.id))
    return findings


def _basic_assignment(
    view: Greenland, target: str, spot: str | None, pid: str, name: str
) -> Finding | None:
    """C2: without raids, defence, husbands or the New World a hunter goes on a biome (E1)."""
    if view.is_new_world(target) and advanced_off(view, "E2"):
        return _illegal("C2", f"{name} is not in the beginners' game (C2)", pid)
    if spot == "exogamy" or view.side(target) == "tableau":
        return _illegal(
            "E",
            f"in the beginners' game a hunter goes on a biome in a row (E1) or is promoted (E3),"
            f" not onto {name} in a tableau (C2 skips raids and defence, E5, and exogamy, F1)",
            pid,
        )
    return None


def _abandonment(view: Greenland, colour: str, pid: str, moves: list[Move]) -> list[Finding]:
    """E4: colonists may hunt in Greenland only if every colonist of the culture leaves, 4 to a mariner."""
    state = view.state
    leaving = {
        m.piece
        for m in moves
        if state.pieces[m.piece].owner == colour
        and view.card_at(m.src.place) is not None
        and view.is_new_world(view.card_at(m.src.place))
        and not (view.card_at(m.dst.place) and view.is_new_world(view.card_at(m.dst.place)))
    }
    colonists = [
        c.id
        for c in view.cubes(colour)
        if c.spot == "hunters"
        and state.places[c.place].parent
        and view.is_new_world(state.places[c.place].parent)
    ]
    staying = [c for c in colonists if c not in leaving]
    if staying:
        return [
            _illegal(
                "E4",
                f"a colony is abandoned whole: {len(staying)} {colour} colonist(s) would stay behind",
                pid,
            )
        ]
    if math.ceil(len(leaving) / 4) > view.mariners(colour):
        return [
            _illegal(
                "E4",
                f"evacuating {len(leaving)} colonists needs {math.ceil(len(leaving) / 4)} mariner(s); {colour} has {view.mariners(colour)}",
                pid,
            )
        ]
    return []


def _reassignment(view: Greenland, colour: str, pid: str, target: str) -> list[Finding]:
    """E6: an assigned hunter moves to another card only by a Sun Stone, after everyone has assigned."""
    limit = max(
        (int(a.split()[1]) for a in view.abilities(colour) if a.startswith("reassign ")), default=0
    )
    if not limit:
        return [
            _illegal(
                "E6",
                "an assigned hunter stays where he was put; only a Sun Stone reassigns hunters",
                pid,
            )
        ]
    done = set(view.counter("phase.done") or [])
    others = [c for c in view.seats() if c != colour and c not in done]
    if others:
        return [
            _illegal(
                "E6",
                f"the Sun Stone reassigns after everyone else has assigned ({', '.join(others)} still to go)",
                pid,
            )
        ]
    if view.is_new_world(target):
        return [_illegal("E6", "a reassigned hunter cannot go to the New World", pid)]
    mine = view.tableau_owner(target) == colour and view.row(target).get("type") in (
        "daughter",
        "norse_animal",
    )
    if not mine and not view.hunters_on(target, colour) and view.row(target).get("hand") != "D":
        return [
            _illegal(
                "E6",
                "a reassigned hunter joins a card where the culture has cubes, or its own daughter or livestock",
                pid,
            )
        ]
    return []


def audit_colour(
    view: Greenland, colour: str, arrivals: dict[str, int] | None = None
) -> list[Finding]:
    """What is wrong with one culture's cubes and disks on this table.

    ``arrivals`` are cubes just moved onto New World cards (by card): they
    need mariners too, while colonists already there do not (E2).
    """
    state = view.state
    findings: list[Finding] = []
    cubes = view.cubes(colour)
    big = sum(1 for p in cubes if p.kind == "alpha")
    small = len(cubes) - big
    if (small, big) != (SMALL_CUBES, 1) and f"hunters_{colour}" in state.places:
        findings.append(
            _illegal(
                "B4", f"{colour} has {small} small cubes and {big} Alpha; a culture has 18 and 1"
            )
        )
    energy = view.disks(colour, "energy")
    if energy > WOODPILE:
        bowl = state.places[f"energy_{colour}"].contents
        findings.append(
            _illegal(
                "B4",
                f"{colour} holds {energy} energy; the woodpile rots above {WOODPILE}",
                *bowl[WOODPILE:],
            )
        )
    for kind in DISKS:
        place = state.places.get(f"{kind}_{colour}")
        for pid in place.contents if place else ():
            if state.pieces[pid].kind != kind:
                findings.append(
                    _illegal(
                        "B4", f"a {state.pieces[pid].kind} disk cannot stand in for {kind}", pid
                    )
                )
    # E1/E2: every card outside the homeland needs transport; mariners carry 4 cubes to one card each
    needed, sled_cards = 0, 0
    outside: list[tuple[str, int]] = []
    for card, count in view.assigned_cards(colour, cubes).items():
        if view.row(card).get("type") == "new_world":
            continue  # colonists stay; their transport was checked when they went
        if not view.in_homeland(colour, card):
            outside.append((card, count))
    outside.sort(key=lambda item: -item[1])
    sleds = view.sleds(colour) if outside else 0
    for _card, count in outside:
        if sled_cards < sleds:
            sled_cards += 1  # a sled carries any number to one card in Greenland
            continue
        needed += math.ceil(count / 4)
    for card, count in (arrivals or {}).items():
        needed += math.ceil(count / 4)
        outside.append((card, count))
    held = hand(view, colour)
    over = excess(view, hand_size(view, colour), held) if held else 0
    if over:
        findings.append(
            Finding(
                "B2",
                f"{colour} holds {len(held)} hand cards, {over} more than its hand size:"
                " it must discard down at once",
                Severity.INFO,
                tuple(held),
            )
        )
    mariners = view.mariners(colour) if needed else 0
    if needed > mariners:
        cards = ", ".join(f"{view.name(c)} ({n})" for c, n in outside)
        pieces = [cube for card, _n in outside for cube in view.hunters_on(card, colour)]
        findings.append(
            _illegal(
                "E1",
                f"{colour}'s hunters outside the homeland ({cards}) need {needed} mariner(s), 4 cubes each; {colour} has {mariners}",
                *pieces,
            )
        )
    return findings


def audit(state: TableState, cards: Cards) -> list[Finding]:
    """Every finding on a whole table, culture by culture."""
    view = Greenland(state, cards)
    findings: list[Finding] = []
    for colour in view.seats():
        findings += audit_colour(view, colour)
    for colour in view.seats():
        for pid in view.tableau(colour):
            if advanced_off(view, "E5") and view.hunters_on(pid):
                findings.append(
                    _illegal(
                        "E",
                        f"in the beginners' game no cube stands on {view.name(pid)} in a tableau"
                        " (C2 skips raids and defence, E5)",
                        *view.hunters_on(pid),
                    )
                )
            elif view.row(pid).get("hand") == "I" and view.hunters_on(pid):
                findings.append(
                    _illegal(
                        "E5",
                        f"{view.name(pid)} is an invention: no cube is ever placed on it",
                        *view.hunters_on(pid),
                    )
                )
    return findings


def finding_dicts(findings: list[Finding]) -> list[dict[str, Any]]:
    return [
        {
            "rule": f.rule,
            "severity": f.severity.value,
            "message": f.message,
            "pieces": list(f.pieces),
        }
        for f in findings
    ]


def audit_table(state: TableState, module: Any) -> list[Finding]:
    """The module's audit hook: every finding on a Greenland table."""
    return audit(state, Cards.of(module))
