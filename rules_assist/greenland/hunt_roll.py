"""The Hunt Roll (G, E7, G2, G3): one die a cube, the Alpha's automatic face, re-rolls, modifications.

``Hunting`` is one culture's hunt (or raid, G1) on one card: what every step
reads and the log's sentences. ``roll_hunt`` rolls its dice through the
procedure's context (so the faces are recorded and can be forced): the Alpha
may take his automatic face (E7, C3), then the dice an ability names may be
re-rolled once (G2), then the faces an invention names become 1s (G3).
``judge`` reads the dice: hits, success, deaths, trophy and hand dice. No Qt.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules_assist.procedures import ProcedureContext, ProcedureError

from .choices import Asker
from .variants import alpha_face, refuse_if_off
from .view import Greenland

# The tracker (rank 5, E3) lets a culture re-roll 4s on land hunts (G3 example). The elder
# cards' printed abilities are not in the deck; this one is known from the rulebook.
TRACKER_RANK = 5
TRACKER_ABILITY = "reroll 4 land"
OF_A_KIND = {"doubles": 2, "triples": 3, "quadruples": 4}  # G5, G6
HIT_FACES = {"warm": (1, 2), "tableau": (1, 2), "cold": (1,)}  # G, D4
RAID_ATTRITION = (3,)  # G1: each 3 kills a raider
ALPHA_INACTIVE = ("metallurgy", "raid")  # E7


# The two abilities' patterns are compiled at the first hunt roll, not when the game is loaded.
@functools.cache
def _reroll() -> re.Pattern[str]:
    return re.compile(r"^reroll ([1-6]) (\w+)$")


@functools.cache
def _modify() -> re.Pattern[str]:
    return re.compile(r"^modify ([1-6])->([1-6]) (\w+)$")


def hunting_abilities(view: Greenland, colour: str) -> list[tuple[str, str]]:
    """(ability, where it comes from) for a culture: tableau cards, wives (F1) and the tracker."""
    cards = tuple(view.ability_cards(colour))
    memo = view.state.layout_memo()  # the same cards, the same abilities and sources
    key = ("greenland.hunting_abilities", cards, id(view.cards))
    kept = memo.get(key)
    if kept is None:
        kept = memo[key] = tuple(
            (ability, _source(view, pid))
            for pid in cards
            for ability in view.row(pid).get("abilities") or []
        )
    found = list(kept)
    if view.religion(colour) == "polytheist" and view.elders(colour, TRACKER_RANK):
        found.append((TRACKER_ABILITY, "the tracker"))
    return found


def _source(view: Greenland, pid: str) -> str:
    """A card's name, or for an event card in a tableau the import it brought (D10)."""
    row = view.row(pid)
    if row.get("type") == "event" and row.get("import"):
        return str(row["import"])
    return view.name(pid)


def rerolls(abilities: Sequence[tuple[str, str]], kind: str) -> dict[int, str]:
    """Faces that may be re-rolled on a hunt of this kind (G2), with the card that allows it."""
    return dict(_rerolls_of(tuple(abilities), kind))


@lru_cache(maxsize=1024)
def _rerolls_of(abilities: tuple[tuple[str, str], ...], kind: str) -> tuple[tuple[int, str], ...]:
    faces: dict[int, str] = {}
    for ability, source in abilities:
        match = _reroll().match(ability)
        if match and match.group(2) in (kind, "any"):
            faces.setdefault(int(match.group(1)), source)
    return tuple(faces.items())


def modifications(abilities: Sequence[tuple[str, str]], kind: str) -> dict[int, tuple[int, str]]:
    """Faces that become another face on a hunt of this kind (G3): face -> (new face, source)."""
    return dict(_modifications_of(tuple(abilities), kind))


@lru_cache(maxsize=1024)
def _modifications_of(
    abilities: tuple[tuple[str, str], ...], kind: str
) -> tuple[tuple[int, tuple[int, str]], ...]:
    faces: dict[int, tuple[int, str]] = {}
    for ability, source in abilities:
        match = _modify().match(ability)
        if match and match.group(3) in (kind, "any"):
            faces.setdefault(int(match.group(1)), (int(match.group(2)), source))
    return tuple(faces.items())


@dataclass
class Die:
    """One hunter's die: its face now, and what it showed before a re-roll or a modification."""

    cube: str
    face: int
    auto: bool = False  # the Alpha's automatic face (E7): not rolled, not re-rolled
    rerolled_from: int | None = None
    modified_from: int | None = None


def faces_text(faces: Sequence[int]) -> str:
    return " ".join([str(f) for f in faces])


def plural(face: int, count: int) -> str:
    return f"the {face}" if count == 1 else f"the {face}s"


def listing(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


@dataclass
class HuntRoll:
    """A culture's dice on one card, one a cube, in the order the cubes lie (the Alpha first)."""

    ctx: ProcedureContext
    what: str
    dice: list[Die] = field(default_factory=list)
    story: list[str] = field(default_factory=list)

    def roll(self, cubes: Sequence[str], alpha_auto: tuple[str, int] | None) -> None:
        """E7: the Alpha may take his automatic face without rolling; every other cube rolls."""
        rolling = [c for c in cubes if alpha_auto is None or c != alpha_auto[0]]
        faces = self.ctx.roll(len(rolling), self.what)
        if alpha_auto is not None:
            self.dice.append(Die(alpha_auto[0], alpha_auto[1], auto=True))
        self.dice += [Die(cube, face) for cube, face in zip(rolling, faces, strict=True)]
        rolled = faces_text(faces)
        if alpha_auto is not None:
            self.story.append(f"the Alpha's {alpha_auto[1]}" + (f" and {rolled}" if rolled else ""))
        else:
            self.story.append(rolled)

    def reroll(self, faces: Sequence[int]) -> None:
        """G2: re-roll every die showing one of ``faces``, once (a re-rolled face is final)."""
        targets = [
            d for d in self.dice if d.face in faces and not d.auto and d.rerolled_from is None
        ]
        if not targets:
            return
        new = self.ctx.roll(len(targets), f"{self.what}: re-roll")
        shown = Counter(d.face for d in targets)
        for die, face in zip(targets, new, strict=True):
            die.rerolled_from, die.face = die.face, face
        which = listing([plural(f, n) for f, n in sorted(shown.items())])
        self.story.append(f"re-rolls {which}: {faces_text(new)}")

    def rerollable(self, faces: Sequence[int]) -> list[int]:
        return sorted(
            {
                d.face
                for d in self.dice
                if d.face in faces and not d.auto and d.rerolled_from is None
            }
        )

    def modified(self, mods: dict[int, tuple[int, str]]) -> list[Die]:
        """The dice as G3 would make them (copies; the roll is unchanged)."""
        result = []
        for die in self.dice:
            if die.face in mods and die.modified_from is None:
                result.append(
                    Die(die.cube, mods[die.face][0], die.auto, die.rerolled_from, die.face)
                )
            else:
                result.append(die)
        return result

    def modify(self, mods: dict[int, tuple[int, str]]) -> None:
        """G3: dice showing a face an invention names become its new face, for every purpose."""
        changed = Counter(d.face for d in self.dice if d.face in mods and d.modified_from is None)
        self.dice = self.modified(mods)
        for face, count in sorted(changed.items()):
            new, source = mods[face]
            verb = "becomes a" if count == 1 else "become"
            self.story.append(
                f"{plural(face, count)} {verb} {new}{'' if count == 1 else 's'} ({source})"
            )

    @property
    def faces(self) -> list[int]:
        return [d.face for d in self.dice]


def alike(dice: Sequence[Die]) -> int:
    """The most dice showing the same face (G5: doubles, triples, quadruples of any value)."""
    faces = [d.face for d in dice]
    return max(map(faces.count, set(faces)), default=0)


def culture(colour: str | None) -> str:
    return (colour or "nobody").capitalize()


def huntable(view: Greenland, card: str) -> str:
    """The name of a card that can be hunted or raided where it lies, or ProcedureError."""
    if card not in view.state.pieces or card not in view.state.places:
        raise ProcedureError(f"there is no card {card!r} to hunt on the table")
    if view.side(card) is None:
        raise ProcedureError(
            f"{view.name(card)} is not in a row or a tableau: nobody hunts or raids it there"
        )
    return view.name(card)


@dataclass
class Hunting:
    """One culture's hunt (or raid) on one card: what every step reads, and the log's sentences."""

    ctx: ProcedureContext
    view: Greenland
    card: str
    colour: str
    ask: Asker
    name: str
    row: dict[str, Any]
    side: str
    kind: str
    variant: str
    cubes: list[str]
    abilities: list[tuple[str, str]]
    # read once a hunt (the card and the culture stay): the culture's name, its Alpha, whether
    # it raids (a tableau card, G1) or hunts in the New World (E2), the log line's label
    who: str
    alpha: str
    raid: bool
    new_world: bool
    label: str
    parts: list[str] = field(default_factory=list)
    replacement: str | None = None  # G7: the card the others go on to hunt

    @classmethod
    def start(
        cls, ctx: ProcedureContext, view: Greenland, card: str, colour: str, qualify: bool
    ) -> Hunting:
        name = huntable(view, card)
        new_world = view.is_new_world(card)
        refuse_if_off(view, "E2", when=new_world)  # C2: no New World
        side = view.side(card) or ""
        cubes = view.hunters_on(card, colour)
        if not cubes:
            raise ProcedureError(f"{culture(colour)} has no hunters on {name}")
        alpha = f"alpha-{colour}"
        if alpha in cubes and cubes[0] != alpha:
            cubes.remove(alpha)
            cubes.insert(0, alpha)  # the Alpha's die is the first, the others as they lie
        raid = side == "tableau"
        who = culture(colour)
        return cls(
            ctx,
            view,
            card,
            colour,
            Asker(ctx, colour, qualify),
            name,
            view.row(card),
            side,
            "raid" if raid else (view.biome_type(card) or ""),
            view.counter("variant", "standard") or "standard",
            cubes,
            hunting_abilities(view, colour),
            who,
            alpha,
            raid,
            new_world,
            f"{who} {'raids' if raid else 'hunts'} {name}",
        )

    def note(self, text: str) -> None:
        self.parts.append(text)

    def home(self, cube: str) -> None:
        """A cube back among its culture's unassigned hunters."""
        self.ctx.move(cube, f"hunters_{self.view.state.pieces[cube].owner}")


@dataclass
class Outcome:
    """What the dice say on a card (``judge``), read and never changed (not frozen: one is made
    for every roll of every hunt)."""

    hits: int
    success: bool
    deaths: tuple[str, ...]  # the cubes whose dice show an attrition face
    trophy: bool  # G5: the dice allow taking the card as a trophy
    hand: bool  # G6: the dice allow taking the card into the hand


def judge(h: Hunting, dice: Sequence[Die]) -> Outcome:
    """What the dice say on this card (before the iron rule and bog iron's snowflake)."""
    attrition = set(h.row.get("attrition") or [])
    if h.raid:
        attrition |= set(RAID_ATTRITION)
    deaths = tuple([d.cube for d in dice if d.face in attrition])
    if h.raid:
        faces = set(h.row.get("raid_faces") or [])
        hits = len([d for d in dice if d.face in faces])
        return Outcome(hits, hits > 0 and len(deaths) < len(dice), deaths, False, False)
    hits = len([d for d in dice if d.face in HIT_FACES.get(h.side, (1,))])
    success = hits >= (h.row.get("dice") or 0)
    trophy = h.row.get("trophy")
    hand_dice = h.row.get("hand_dice") or "success"
    wants_hand = bool(h.row.get("hand"))
    # the dice alike are counted only for a card that asks for them (G5, G6)
    same = alike(dice) if trophy or (wants_hand and hand_dice != "success") else 0
    hand = wants_hand and (
        success if hand_dice == "success" else same >= OF_A_KIND.get(hand_dice, 99)
    )
    return Outcome(hits, success, deaths, bool(trophy) and same >= OF_A_KIND.get(trophy, 99), hand)


def roll_hunt(h: Hunting) -> HuntRoll:
    """The dice of the hunt: the Alpha's choice (E7), the roll, re-rolls (G2), modifications (G3)."""
    roll = HuntRoll(h.ctx, h.label)
    roll.roll(h.cubes, _alpha_auto(h))
    _rerolls(h, roll)
    _modifications(h, roll)
    return roll


def _alpha_auto(h: Hunting) -> tuple[str, int] | None:
    if h.alpha not in h.cubes or h.raid or h.kind in ALPHA_INACTIVE:
        return None
    face = alpha_face(h.view)  # E7 gives a 1; the survivalist game a 2 (C3)
    rule = "E7, C3" if face != 1 else "E7"
    question = (
        f"{h.who}: does the Alpha take his automatic {face} on {h.name} "
        f"instead of rolling ({rule})?"
    )
    return (h.alpha, face) if h.ask.yes_no("alpha", question, "E7") else None


def _rerolls(h: Hunting, roll: HuntRoll) -> None:
    allowed = rerolls(h.abilities, h.kind)
    offered = roll.rerollable(list(allowed))
    if not offered:
        return
    sources = listing(sorted({allowed[f] for f in offered}))
    question = (
        f"{h.who}: re-roll the dice showing {listing([str(f) for f in offered])} "
        f"on {h.name} ({sources}, G2)?"
    )
    chosen = h.ask.faces("reroll", question, offered, "G2")
    if chosen:
        roll.reroll(chosen)


def _modifications(h: Hunting, roll: HuntRoll) -> None:
    """G3, asked only when it changes what the roll does (else the dice simply become 1s)."""
    mods = modifications(h.abilities, h.kind)
    faces = sorted({d.face for d in roll.dice if d.face in mods and d.modified_from is None})
    if not faces:
        return
    if judge(h, roll.modified(mods)) != judge(h, roll.dice):
        which = listing([f"{f}s as {mods[f][0]}s" for f in faces])
        sources = listing(sorted({mods[f][1] for f in faces}))
        question = f"{h.who}: count the {which} on {h.name} ({sources}, G3)?"
        if not h.ask.yes_no("modify", question, "G3"):
            return
    roll.modify(mods)
