"""Elder actions (I1–I7, A1 phase 6): what a culture's elders do at the end of the turn.

One procedure per action, each ``procedure(ctx, colour, cards=None, ...)``:

- ``domesticate`` (I1, rank 2, polytheist): 1 energy, a D card from the hand
  into the tableau (choice ``card``: its row id or name).
- ``banish`` (I2, rank 2, polytheist): 1 energy; choice ``target``:
  ``elder:R`` kills one of your own elders of rank R (the acting shaman may
  name himself), ``martyr`` rolls the Martyr Roll, dice = your maximum Hand
  Size (B2), one opponent's missionary or husband in your tableau dies for
  each 1 (choice ``kill`` when the 1s must be shared out).
- ``witch_burn`` (I3, rank 2, monotheist): 1 energy, kills one cube in your
  tableau, no roll; choice ``target``: ``elder:R``, ``husband:<daughter>``
  or ``representative:<colour>`` (``missionary:<colour>`` on a polytheist card).
- ``tool_maker`` (I4, rank 3, either religion): 1 iron (the Tunit may pay
  ivory, choice ``pay``), an I card from the hand into the tableau (``card``).
- ``emissary`` (I5, rank 5, monotheist): 1 energy, the acting rank-5 cube
  moves to rank 1 of an opponent's elder card (choice ``target``: a colour).
- ``proselytize`` (I6, rank 2, monotheist): 1 energy, dice = maximum Hand
  Size; any 1 turns the opponent monotheist (choice ``target`` if several).
- ``baptize`` (I7 and A1 phase 6): a polytheist with no elders of its colour
  turns its elder card to the monotheist side; no cost, no elder acts.

Readings (see the README's design notes):

- Each elder cube acts once a turn (I): the acting cube gets the property
  ``acted`` = the turn; a cube whose ``acted`` is this turn cannot act again.
- The emissary's cube goes to rank 1 of the other card, as I5 says ("the
  first rank"), whatever the side: a *missionary* on a polytheist card, a
  *representative* on a monotheist one. Proselytize and the killing actions
  count a cube of another colour on *any* rank of an elder card as such, since
  positions written before this module put missionaries on rank 2.
- I6's limit: the emissary's cube gets ``placed`` = the turn it arrived; it
  may be used to proselytize only on a later turn. A cube without the
  property (laid out by a position) has been there since before the turn.
- Norse husbands are immune to banishment and witch-burning in the three
  culture game (I3); with two cultures they are not.
- The beginners' game (C2) has no domestication (I1) and no tool-making
  (I4): they are not offered, and asked for they refuse. A banishment or a
  witch-burn that kills an elder of rank 3 or a husband (whose culture loses
  the wife's hand size) ends with the discard down to the hand size (B2,
  ``hands.discard_excess``, choice ``discard_<colour>``).
- Elder actions happen in the elder phase (counter ``phase`` = ``elders``),
  in A5's order: every polytheist, then every monotheist, each in player
  order (sequence.elder_order). A culture acts only when every culture
  ahead of it in that order has finished the phase (``turn.finish``, the
  counter ``phase.done``); asked out of order, an action is refused naming
  A5 (``out_of_turn``). The order is read as the table stands: a culture
  that turns monotheist (I6, I7) joins the monotheists.
- The chief's "Promote: rank +1" (E3) is not an elder action here: E3 says an
  elder never changes rank and section I lists no chief action; promotion to
  elder is done in the assignment phase (assignment.py).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tabletop.core import actions

from ..procedures import ProcedureContext, ProcedureError
from ..questions import Question
from .choices import one_of
from .deck import Cards
from .hands import discard_excess
from .payments import RANK_SPOTS, elder_cubes, kill_elder, row_id, spend
from .sequence import out_of_turn, view_of
from .variants import advanced_off, cooperative, refuse_if_off
from .view import COLOURS, Greenland

ACTIONS = (
    "domesticate",
    "banish",
    "witch-burn",
    "tool-maker",
    "emissary",
    "proselytize",
    "baptize",
    "convert",
)
EMISSARY_RANK = 1  # I5: "the first rank" of the opponent's elder card


# ---- reading --------------------------------------------------------------------------
def turn_of(view: Greenland) -> int:
    return int(view.counter("turn", 1) or 1)


def max_hand_size(view: Greenland, colour: str) -> int:
    """B2: what daughters (also wives) and imports grant, plus one per rank-3 elder."""
    granted = 0
    for ability in view.abilities(colour):
        if ability.startswith("hand_size +"):
            granted += int(ability.split()[1].lstrip("+"))
    return granted + view.elders(colour, 3)


def ready_elders(view: Greenland, colour: str, rank: int) -> list[str]:
    """The cubes of ``colour`` on rank ``rank`` of its own card that have not acted this turn."""
    place = f"elder-{colour}"
    if place not in view.state.places:
        return []
    turn = turn_of(view)
    return [
        pid
        for pid in view.state.contents(place, f"rank{rank}")
        if view.state.pieces[pid].owner == colour
        and view.state.pieces[pid].props.get("acted") != turn
    ]


def visitors(view: Greenland, colour: str) -> dict[str, list[str]]:
    """Other colours' cubes on ``colour``'s elder card (missionaries or representatives), by colour."""
    place = f"elder-{colour}"
    found: dict[str, list[str]] = {}
    if place not in view.state.places:
        return found
    for pid in view.state.places[place].contents:
        owner = view.state.pieces[pid].owner
        if owner and owner != colour:
            found.setdefault(owner, []).append(pid)
    return found


def visitor_word(view: Greenland, colour: str) -> str:
    """I5: a missionary on a polytheist card, a representative on a monotheist one."""
    return "representative" if view.religion(colour) == "monotheist" else "missionary"


def norse_immune(view: Greenland, cube: str) -> bool:
    """I3: in the three-culture game Norse husbands cannot be banished or burnt."""
    return view.state.pieces[cube].owner == "red" and len(view.seats()) >= 3


def husbands(view: Greenland, colour: str) -> dict[str, str]:
    """Opponents' husbands on daughters in ``colour``'s tableau that may be killed: {daughter row id: cube}."""
    found = {}
    for pid in view.tableau(colour):
        cube = view.husband(pid)
        if cube is None or view.state.pieces[cube].owner == colour:
            continue
        if not norse_immune(view, cube):
            found[row_id(view, pid)] = cube
    return found


def hand_cards(view: Greenland, colour: str, kind: str) -> list[str]:
    place = view.state.places.get(f"hand_{colour}")
    return [pid for pid in (place.contents if place else ()) if view.row(pid).get("hand") == kind]


def mission_fields(view: Greenland, colour: str) -> list[str]:
    """Opponents with a polytheist card holding a missionary of ``colour`` placed before this turn (I6)."""
    turn = turn_of(view)
    found = []
    for other in view.seats():
        if other == colour or view.religion(other) == "monotheist":
            continue
        cubes = visitors(view, other).get(colour, [])
        if any(view.state.pieces[c].props.get("placed") != turn for c in cubes):
            found.append(other)
    return found


# ---- the common part of an action -----------------------------------------------------
def _in_turn(view: Greenland, colour: str, action: str, section: str) -> None:
    why = out_of_turn(view, colour)
    if why is not None:
        raise ProcedureError(f"{action} ({section}): {why}")


def _acting(
    view: Greenland, colour: str, rank: int, religion: str | None, action: str, section: str
) -> str:
    """The elder cube that performs the action; ProcedureError naming what is missing."""
    if colour not in view.seats():
        raise ProcedureError(f"{colour} is not at the table")
    phase = view.counter("phase", "event")
    if phase != "elders":
        raise ProcedureError(f"{action} ({section}) is an elder action: the phase is {phase} (A1)")
    if religion is not None and view.religion(colour) != religion:
        raise ProcedureError(
            f"{action} ({section}) needs a {religion} culture; {colour} is {view.religion(colour)}"
        )
    ready = ready_elders(view, colour, rank)
    if not ready:
        have = view.elders(colour, rank)
        why = "each has acted this turn" if have else "there is none"
        raise ProcedureError(
            f"{action} ({section}) needs a rank-{rank} elder of {colour} who has not acted"
            f" this turn (I): {why}"
        )
    _in_turn(view, colour, action, section)
    return ready[0]


def _pay(ctx: ProcedureContext, colour: str, kind: str, action: str, section: str) -> None:
    if kind == "energy" and cooperative(ctx.state):
        held = [
            k for k in ("energy", "ivory", "iron") if ctx.state.places[f"{k}_{colour}"].contents
        ]
        if held and held != ["energy"]:  # K: ivory or iron may be spent as if orange; asked
            question = f"{action} ({section}) costs one energy: {colour} pays with (K: ivory and iron count as energy)"
            kind = str(one_of(ctx, f"energy_{colour}", question, held, colour, "K"))
    if not ctx.state.places[f"{kind}_{colour}"].contents:
        raise ProcedureError(f"{action} ({section}) costs one {kind}; {colour} has none")
    spend(ctx, colour, kind)


def _acted(ctx: ProcedureContext, cube: str, turn: int) -> None:
    ctx.set_property(cube, "acted", turn)


def _pick_card(
    ctx: ProcedureContext, view: Greenland, colour: str, kind: str, why: str, section: str
) -> str:
    cards = hand_cards(view, colour, kind)
    if not cards:
        raise ProcedureError(f"{why}: {colour} has no {kind} card in hand")
    ids = [row_id(view, pid) for pid in cards]
    given = ctx.choices.get("card")
    if given is not None:  # a card may be named by its row id or its printed name
        for pid, rid in zip(cards, ids, strict=True):
            if str(given).casefold() in (rid.casefold(), view.name(pid).casefold()):
                ctx.choices["card"] = rid
    if len(cards) == 1 and given is None:
        return cards[0]
    labels = [(rid, view.name(pid)) for pid, rid in zip(cards, ids, strict=True)]
    text = f"{why}: which {kind} card does {colour} play"
    chosen = one_of(ctx, "card", text, ids, colour, section, labels)
    return cards[ids.index(chosen)]


def _into_tableau(ctx: ProcedureContext, pid: str, colour: str) -> None:
    """I1: into the tableau, face up, turned 180° so the purple text reads upright."""
    ctx.move(pid, f"tableau_{colour}")
    if not ctx.state.pieces[pid].face_up:
        ctx.flip(pid, True)
    turn = (2 - ctx.state.pieces[pid].rotation) % 4
    if turn:
        ctx.build(lambda s: actions.rotate(s, pid, turn))


# ---- the actions ----------------------------------------------------------------------
def domesticate(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """I1: a polytheist shaman plays a D card from the hand for one energy."""
    view = view_of(ctx.state, cards)
    refuse_if_off(view, "I1")
    cube = _acting(view, colour, 2, "polytheist", "Domestication", "I1")
    pid = _pick_card(ctx, view, colour, "D", "Domestication (I1)", "I1")
    _pay(ctx, colour, "energy", "Domestication", "I1")
    _into_tableau(ctx, pid, colour)
    _acted(ctx, cube, turn_of(view))
    ctx.note(f"{colour} pays 1 energy and plays {view.name(pid)} into the tableau")
    return f"Domestication (I1) by {colour}"


def tool_maker(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """I4: a rank-3 elder plays an I card from the hand for one iron (the Tunit: or one ivory)."""
    view = view_of(ctx.state, cards)
    refuse_if_off(view, "I4")
    cube = _acting(view, colour, 3, None, "Tool-maker", "I4")
    pid = _pick_card(ctx, view, colour, "I", "Tool-maker (I4)", "I4")
    kinds = ["iron"] + (["ivory"] if colour == "green" else [])  # the ivory carver (I4)
    held = [k for k in kinds if view.disks(colour, k)]
    if not held:
        raise ProcedureError(f"Tool-maker (I4) costs one {' or '.join(kinds)}; {colour} has none")
    kind = (
        held[0]
        if len(held) == 1
        else one_of(ctx, "pay", "Tool-maker (I4): pay with", held, colour, "I4")
    )
    _pay(ctx, colour, kind, "Tool-maker", "I4")
    _into_tableau(ctx, pid, colour)
    _acted(ctx, cube, turn_of(view))
    ctx.note(f"{colour} pays 1 {kind} and plays {view.name(pid)} into the tableau")
    return f"Tool-maker (I4) by {colour}"


def _kill_targets(view: Greenland, colour: str) -> dict[str, list[str]]:
    """I3: the cubes in a tableau that may be killed, by choice word."""
    targets: dict[str, list[str]] = {}
    for label, cubes in elder_cubes(view, colour).items():
        if "@" not in label:
            targets[f"elder:{label}"] = cubes
    for daughter, cube in husbands(view, colour).items():
        targets[f"husband:{daughter}"] = [cube]
    word = visitor_word(view, colour)
    for other, cubes in visitors(view, colour).items():
        targets[f"{word}:{other}"] = cubes
    return targets


def _describe(label: str) -> str:
    kind, _, what = label.partition(":")
    if kind == "elder":
        return f"the rank-{what} elder"
    if kind == "husband":
        return f"the husband on {what}"
    return f"a {what} {kind}"


def banish(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """I2: kill one of your elders, or roll the Martyr Roll against missionaries and husbands."""
    view = view_of(ctx.state, cards)
    cube = _acting(view, colour, 2, "polytheist", "Banishment", "I2")
    turn = turn_of(view)
    own = {k: v for k, v in _kill_targets(view, colour).items() if k.startswith("elder:")}
    foes = {k: v for k, v in _kill_targets(view, colour).items() if not k.startswith("elder:")}
    options = list(own) + (["martyr"] if foes else [])
    target = one_of(
        ctx, "target", f"Banishment (I2): whom does {colour} banish", options, colour, "I2"
    )
    _pay(ctx, colour, "energy", "Banishment", "I2")
    _acted(ctx, cube, turn)
    if target != "martyr":
        victim = cube if target == "elder:2" else own[target][-1]
        kill_elder(ctx, victim)
        ctx.note(f"{colour} pays 1 energy; {_describe(target)} is banished to Valhalla")
        discard_excess(ctx, view)  # B2: a rank-3 elder lost shrinks the hand
        return f"Banishment (I2) by {colour}"
    dice = max_hand_size(view, colour)
    if dice <= 0:
        raise ProcedureError(f"Martyr Roll (I2): {colour}'s Hand Size is 0 (B2), so no dice")
    faces = ctx.roll(dice, "martyr roll")
    ones = faces.count(1)
    pool = [label for label, cubes in foes.items() for _ in cubes]
    if ones >= len(pool):
        chosen = pool
    elif ones == 0:
        chosen = []
    elif len(set(pool)) == 1:
        chosen = pool[:ones]
    else:
        chosen = _kills(ctx, colour, ones, Counter(pool))
    for label, n in Counter(chosen).items():
        for victim in foes[label][-n:]:
            kill_elder(ctx, victim)
    rolled = ", ".join(map(str, faces))
    killed = ", ".join(_describe(label) for label in chosen) or "nobody"
    ctx.note(f"{colour} pays 1 energy and rolls {rolled} (Martyr Roll): {killed} dies")
    discard_excess(ctx, view)  # B2: a husband killed takes his culture's wife's hand size
    return f"Banishment (I2) by {colour}"


def _kills(ctx: ProcedureContext, colour: str, ones: int, have: Counter[str]) -> list[str]:
    """I2: the 1s of the Martyr Roll shared among the missionaries and husbands there (choice
    ``kill``: a split, none more than there are; 'husband:x,missionary:y' or 'missionary:y=2')."""
    question = Question.split(
        "kill",
        f"Martyr Roll (I2): {ones} killed; name them, separated by commas",
        ones,
        have.items(),
        owner=colour,
        labels=tuple((label, _describe(label)) for label in have),
        section="I2",
    )
    share = ctx.answer(question)
    return [label for label, n in share.items() for _ in range(n)]


def witch_burn(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """I3: a bishop kills one cube in the tableau for one energy: an elder, a husband, a representative."""
    view = view_of(ctx.state, cards)
    cube = _acting(view, colour, 2, "monotheist", "Witch-burn", "I3")
    targets = _kill_targets(view, colour)
    target = one_of(
        ctx, "target", f"Witch-burn (I3): whom does {colour} burn", list(targets), colour, "I3"
    )
    _pay(ctx, colour, "energy", "Witch-burn", "I3")
    _acted(ctx, cube, turn_of(view))
    kill_elder(ctx, cube if target == "elder:2" else targets[target][-1])
    ctx.note(f"{colour} pays 1 energy; {_describe(target)} is burnt")
    discard_excess(ctx, view)  # B2: a rank-3 elder or a wife lost shrinks a hand
    return f"Witch-burn (I3) by {colour}"


def emissary(
    ctx: ProcedureContext, colour: str, cards: Cards | None = None, target: str | None = None
) -> str:
    """I5: an acolyte goes to the first rank of an opponent's elder card for one energy."""
    view = view_of(ctx.state, cards)
    cube = _acting(view, colour, 5, "monotheist", "Emissary", "I5")
    others = [c for c in view.seats() if c != colour and f"elder-{c}" in view.state.places]
    if target is not None:
        ctx.choices.setdefault("target", target)
    text = f"Emissary (I5): whose elder card does {colour} go to"
    other = one_of(ctx, "target", text, others, colour, "I5")
    _pay(ctx, colour, "energy", "Emissary", "I5")
    turn = turn_of(view)
    ctx.move(cube, f"elder-{other}", spot=f"rank{EMISSARY_RANK}")
    _acted(ctx, cube, turn)
    ctx.set_property(cube, "placed", turn)
    ctx.note(
        f"{colour} pays 1 energy; an acolyte becomes a {visitor_word(view, other)}"
        f" on rank {EMISSARY_RANK} of {other}'s elder card"
    )
    return f"Emissary (I5) by {colour}"


def proselytize(
    ctx: ProcedureContext, colour: str, cards: Cards | None = None, target: str | None = None
) -> str:
    """I6: a bishop with a missionary in place since the turn began rolls Hand Size dice; a 1 converts."""
    view = view_of(ctx.state, cards)
    cube = _acting(view, colour, 2, "monotheist", "Proselytize", "I6")
    fields = mission_fields(view, colour)
    if not fields:
        raise ProcedureError(
            f"Proselytize (I6): {colour} has no missionary on a polytheist elder card"
            " that has been there since the start of the turn"
        )
    if target is not None:
        ctx.choices.setdefault("target", target)
    other = (
        fields[0]
        if len(fields) == 1 and "target" not in ctx.choices
        else one_of(
            ctx, "target", f"Proselytize (I6): whom does {colour} preach to", fields, colour, "I6"
        )
    )
    dice = max_hand_size(view, colour)
    if dice <= 0:
        raise ProcedureError(f"Proselytize (I6): {colour}'s Hand Size is 0 (B2), so no dice")
    _pay(ctx, colour, "energy", "Proselytize", "I6")
    _acted(ctx, cube, turn_of(view))
    faces = ctx.roll(dice, "proselytize")
    rolled = ", ".join(map(str, faces))
    if 1 in faces:
        ctx.set_property(f"elder-{other}", "card", f"elder-{other}-monotheist")
        ctx.note(f"{colour} pays 1 energy and rolls {rolled}: {other} turns monotheist")
    else:
        ctx.note(f"{colour} pays 1 energy and rolls {rolled}: {other} stays polytheist")
    return f"Proselytize (I6) by {colour}"


def baptize(ctx: ProcedureContext, colour: str, cards: Cards | None = None) -> str:
    """I7, A1 phase 6: a polytheist without elders may turn its elder card to monotheism."""
    view = view_of(ctx.state, cards)
    if colour not in view.seats():
        raise ProcedureError(f"{colour} is not at the table")
    phase = view.counter("phase", "event")
    if phase != "elders":
        raise ProcedureError(f"Baptism (I7) happens in the elder phase: the phase is {phase}")
    if view.religion(colour) == "monotheist":
        raise ProcedureError(f"Baptism (I7): {colour} is already monotheist")
    left = sum(len(c) for c in elder_cubes(view, colour).values())
    if left:
        raise ProcedureError(
            f"Baptism (I7): {colour} still has {left} elder(s); only a culture without elders converts"
        )
    _in_turn(view, colour, "Baptism", "I7")
    ctx.set_property(f"elder-{colour}", "card", f"elder-{colour}-monotheist")
    ctx.note(f"{colour} turns its elder card to the monotheist side for good")
    return f"Baptism (I7) of {colour}"


PROCEDURES = {
    "domesticate": domesticate,
    "banish": banish,
    "witch-burn": witch_burn,
    "tool-maker": tool_maker,
    "emissary": emissary,
    "proselytize": proselytize,
    "baptize": baptize,
    "convert": baptize,
}


# ---- what a culture can do now --------------------------------------------------------
def available_actions(view: Greenland, colour: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """The elder actions ``colour`` can start now: (label, procedure, params) for a phase panel."""
    if view.counter("phase", "event") != "elders" or colour not in view.seats():
        return []
    found: list[tuple[str, Any, dict[str, Any]]] = []
    params = {"colour": colour, "cards": view.cards}
    poly = view.religion(colour) != "monotheist"
    energy = view.disks(colour, "energy") > 0
    ready = _ready_ranks(view, colour)
    hand = _hand_kinds(view, colour)
    bishops = 2 in ready and energy
    if poly and bishops and "D" in hand and not advanced_off(view, "I1"):
        found.append(("Domestication (I1): play a D card", domesticate, params))
    if poly and bishops:
        found.append(("Banishment (I2): kill an elder or roll the Martyr Roll", banish, params))
    if not poly and bishops:  # the bishop may burn himself ('elder:2'): never without a target
        found.append(("Witch-burn (I3): kill a cube in the tableau", witch_burn, params))
    pay = view.disks(colour, "iron") or (colour == "green" and view.disks(colour, "ivory"))
    playable = "I" in hand and not advanced_off(view, "I4")
    if 3 in ready and pay and playable:
        found.append(("Tool-maker (I4): play an I card", tool_maker, params))
    if not poly and energy and 5 in ready:
        for other in view.seats():
            if other != colour:
                found.append(
                    (
                        f"Emissary (I5): an acolyte to {other}'s elder card",
                        emissary,
                        {**params, "target": other},
                    )
                )
    if not poly and bishops and max_hand_size(view, colour):
        for other in mission_fields(view, colour):
            found.append(
                (f"Proselytize (I6): preach to {other}", proselytize, {**params, "target": other})
            )
    if poly and not _has_elders(view, colour):
        found.append(("Baptism (I7): turn monotheist", baptize, params))
    return found


def _ready_ranks(view: Greenland, colour: str) -> set[int]:
    """The ranks of ``colour``'s own card with an elder who has not acted this turn
    (``ready_elders``), read in one look at the card."""
    place = view.state.places.get(f"elder-{colour}")
    if place is None:
        return set()
    turn = turn_of(view)
    pieces = view.state.pieces
    found = set()
    for pid in place.contents:
        piece = pieces[pid]
        rank = RANK_SPOTS.get(piece.spot)
        if rank is not None and piece.owner == colour and piece.props.get("acted") != turn:
            found.add(rank)
    return found


def _hand_kinds(view: Greenland, colour: str) -> set[str]:
    """The kinds of card in ``colour``'s hand (``hand_cards``: 'D', 'I', ...), in one look."""
    place = view.state.places.get(f"hand_{colour}")
    return {view.row(pid).get("hand") for pid in (place.contents if place else ())}


def _has_elders(view: Greenland, colour: str) -> bool:
    """Any cube of ``colour`` on a rank of an elder card (``elder_cubes``), without listing them."""
    places, pieces = view.state.places, view.state.pieces
    for card in COLOURS:
        place = places.get(f"elder-{card}")
        for pid in place.contents if place is not None else ():
            piece = pieces[pid]
            if piece.owner == colour and piece.spot in RANK_SPOTS:
                return True
    return False
