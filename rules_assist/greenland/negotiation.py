"""Phase 3, Negotiate & Attacks (F): leaving, exogamy, divorce, attacks, the New World turning hostile.

Procedures for ``rules_assist.procedures.run_procedure`` (one compound, one
undo step each); every one of them runs only in the negotiation phase.

- ``leave(ctx, colour, card)``: a culture's hunters leave a card (F). Every
  other culture with cubes on the card must agree (choice ``consent_<colour>``
  yes/no); a refusal stops the procedure and nothing changes. Leaving a card
  outside the homeland is limited to 4 cubes a mariner unless a sled may be
  used (not to the New World, E2). The cubes become unassigned, or with
  ``daughter`` one of them marries her (F1) if her tableau's owner agrees
  (choice ``bride_<owner>``).
- ``marry(ctx, colour, cube_or_card, daughter)``: one assigned hunter becomes
  the husband of a daughter in a foreign tableau (F1: one husband a daughter).
- ``divorce(ctx, colour, daughter)``: the husband becomes an unassigned hunter (F).
- ``attack(ctx, colour, card)``: one round of attacks by a culture on a card
  (F2). It needs a war chief (rank 4) and rolls a die a cube present; the
  dice named by a 'reroll F attack' ability may be re-rolled once (choice
  ``reroll``, as in the hunt). Hits are 1s and 2s on the warm side and in a
  tableau, 1s on the cold side. Defenders of a tableau card against raiders
  (its owner's cubes, a husband and his culture's cubes, raid.defenders) need
  no war chief and each strikes an automatic 1; the survivors other than
  husbands then go home. With several victims the attacker splits the hits
  (choice ``targets``, e.g. 'yellow=1,green=1'); each victim picks which of
  its cubes die when it has more than one kind there (choice ``hits_<victim>``:
  kinds alpha/hunter/husband or cube ids, comma-separated), and may pay an
  iron to cancel its losses (F4, choice ``pay_iron_<victim>``; not in the
  survivalist game, C3).
- ``resolve_new_world(ctx)``: after negotiations and attacks, a peaceful
  Markland or Vinland with more than 6 cubes on it turns hostile (F3);
  ``pacify(ctx, colour, card)`` then lets a culture with cubes on a hostile
  card pay an ivory to turn it peaceful again (the end of the phase, F3).
- ``negotiation_order(view)`` (A3: most iron first, ties in player order) and
  ``attackers(view, card)``: who may attack on a card, in that order.

The attack roll reuses the hunt's dice (rules_assist/greenland/hunt_roll.py:
``HuntRoll`` for the roll and the once-only re-roll, ``rerolls`` for the
abilities, with the type 'attack' in place of the biome's type, F2), and the
raid's defenders (rules_assist/greenland/raid.py). The raid itself is the hunt
procedure's raid roll in phase 4 (G1).
"""

from __future__ import annotations

import argparse
from typing import Any

from tabletop.core import TableError

from ..procedures import ProcedureContext, ProcedureError
from .choices import Asker
from .deck import Cards
from .hunt_roll import HIT_FACES, Die, HuntRoll, culture, hunting_abilities, listing, rerolls
from .payments import spend
from .raid import defenders
from .sequence import iron_order, view_of
from .view import ROW_PLACES, Greenland

NEW_WORLD = ("markland", "vinland")
HOSTILE_ABOVE = 6  # F3: more than 6 cubes turn a peaceful New World card hostile
CUBES_PER_MARINER = 4  # F: transportation when leaving a card outside the homeland
ATTACKS = "negotiation.attacks"  # counter: {"turn": n, "done": ["yellow@birgitta", ...]}
RESOLVED = "new_world.resolved"  # counter: the turn F3 was resolved


# ---- reading -------------------------------------------------------------------------
def negotiation_order(view: Greenland) -> list[str]:
    """A3: the most iron first; ties in player order."""
    return iron_order(view)


def _in_phase(view: Greenland) -> None:
    phase = view.counter("phase", "event")
    if phase != "negotiation":
        raise ProcedureError(
            f"this is done in the negotiation phase (F); the table is in the {phase} phase"
        )


def _card(view: Greenland, card: str) -> str:
    """The name of a card in a row or a tableau, or ProcedureError."""
    if card not in view.state.pieces or card not in view.state.places:
        raise ProcedureError(f"there is no card {card!r} on the table")
    if view.side(card) is None:
        raise ProcedureError(f"{view.name(card)} is not in a row or a tableau")
    return view.name(card)


def present(view: Greenland, card: str) -> dict[str, list[str]]:
    """The cubes on a card by culture: hunters, colonists, raiders and a husband."""
    found: dict[str, list[str]] = {}
    for cube in view.state.places[card].contents:
        owner = view.state.pieces[cube].owner
        if owner:
            found.setdefault(owner, []).append(cube)
    return found


def _kind(view: Greenland, cube: str) -> str:
    piece = view.state.pieces[cube]
    if piece.spot == "exogamy":
        return "husband"
    return "alpha" if piece.kind == "alpha" else "hunter"


def _raided(view: Greenland, card: str) -> bool:
    """A tableau card with raiders on it: cubes of a culture that does not defend it."""
    guard = defenders(view, card)
    return view.side(card) == "tableau" and any(c not in guard for c in present(view, card))


def _defending(view: Greenland, card: str, colour: str) -> bool:
    return (
        _raided(view, card)
        and colour in defenders(view, card)
        and bool(_fighters(view, card, colour))
    )


def _fighters(view: Greenland, card: str, colour: str) -> list[str]:
    """A culture's cubes that attack on a card: hunters, colonists, raiders, and a defending husband."""
    return present(view, card).get(colour, [])


def attackers(view: Greenland, card: str) -> list[str]:
    """Who may attack on a card now (F2), in most iron order (A3)."""
    cubes = present(view, card)
    found = []
    for colour in negotiation_order(view):
        if colour not in cubes or not _victims(view, card, colour):
            continue
        if view.war_chiefs(colour) or _defending(view, card, colour):
            found.append(colour)
    return found


def _victims(view: Greenland, card: str, colour: str) -> dict[str, list[str]]:
    """The cubes an attack may kill, by culture: defenders strike only at the raiders."""
    cubes = {c: v for c, v in present(view, card).items() if c != colour}
    if _defending(view, card, colour):
        guard = defenders(view, card)
        cubes = {c: v for c, v in cubes.items() if c not in guard}
    return cubes


def _yes(ctx: ProcedureContext, colour: str, key: str, question: str) -> bool:
    return Asker(ctx, colour, False).yes_no(key, question)


# ---- leaving, marrying, divorcing (F, F1) -----------------------------------------------
def _consent(ctx: ProcedureContext, view: Greenland, colour: str, card: str, name: str) -> None:
    """F: everyone else with cubes on the card must let the culture leave."""
    for other in negotiation_order(view):
        if other == colour or other not in present(view, card):
            continue
        question = f"{culture(other)}: let {culture(colour)} leave {name} (F)?"
        if not _yes(ctx, other, f"consent_{other}", question):
            raise ProcedureError(
                f"{culture(other)} does not let {culture(colour)} leave {name}: "
                "leaving needs the consent of everyone present (F)"
            )
    if len(present(view, card)) > 1:
        ctx.note("everyone present agrees (F)")


def _bride(view: Greenland, colour: str, daughter: str) -> str:
    """F1: a daughter in a foreign tableau, unmarried; her name."""
    if daughter not in view.state.pieces or view.row(daughter).get("type") != "daughter":
        raise ProcedureError(f"{view.name(daughter)} is not a daughter card (F1)")
    name = view.name(daughter)
    owner = view.tableau_owner(daughter)
    if owner is None:
        raise ProcedureError(f"{name} is not in a tableau: only a daughter in play marries (F1)")
    if owner == colour:
        raise ProcedureError(
            f"{name} is in {culture(colour)}'s own tableau: exogamy marries a foreign bride (F1)"
        )
    husband = view.husband(daughter)
    if husband is not None:
        whose = culture(view.state.pieces[husband].owner)
        raise ProcedureError(
            f"{name} is married already ({whose}'s husband): one husband a daughter (F1)"
        )
    return name


def _ask_bride(ctx: ProcedureContext, view: Greenland, colour: str, daughter: str) -> str:
    """F1: the daughter's owner must agree to the marriage."""
    name = view.name(daughter)
    owner = view.tableau_owner(daughter) or ""
    question = f"{culture(owner)}: give {name} in marriage to {culture(colour)} (F1)?"
    if not _yes(ctx, owner, f"bride_{owner}", question):
        raise ProcedureError(f"{culture(owner)} does not give {name} in marriage (F1)")
    return name


def leave(
    ctx: ProcedureContext,
    colour: str,
    card: str,
    count: int | None = None,
    daughter: str | None = None,
    cards: Cards | None = None,
) -> str:
    """F: a culture's hunters (all, or ``count``, the Alpha last) leave a card, unassigned or one
    of them married (F1)."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    name = _card(view, card)
    mine = sorted(view.hunters_on(card, colour), key=lambda c: _kind(view, c) == "alpha")
    if not mine:
        raise ProcedureError(f"{culture(colour)} has no hunters on {name} to leave")
    count = len(mine) if count is None else count
    if not 1 <= count <= len(mine):
        raise ProcedureError(f"{culture(colour)} has {len(mine)} hunters on {name}, not {count}")
    _go(ctx, view, colour, card, mine[:count], daughter)
    return f"{culture(colour)} leaves {name}"


def _go(
    ctx: ProcedureContext,
    view: Greenland,
    colour: str,
    card: str,
    going: list[str],
    daughter: str | None,
) -> None:
    """Cubes leave a card: transport (F, E1), everyone's consent (F), then home or married (F1)."""
    name = view.name(card)
    if not view.in_homeland(colour, card):
        sled = view.sleds(colour) and not view.is_new_world(card)
        limit = CUBES_PER_MARINER * view.mariners(colour)
        if not sled and len(going) > limit:
            raise ProcedureError(
                f"{culture(colour)} can take {limit} cubes off {name} "
                f"({view.mariners(colour)} mariners, 4 each; F, E1), not {len(going)}"
            )
    if daughter is not None:
        _bride(view, colour, daughter)
    _consent(ctx, view, colour, card, name)
    if daughter is not None:
        bride = _ask_bride(ctx, view, colour, daughter)
        kind = _kind(view, going[0])
        ctx.move(going[0], daughter, spot="exogamy")
        ctx.note(f"{'the Alpha' if kind == 'alpha' else 'a hunter'} marries {bride} (F1)")
        going = going[1:]
    for cube in going:
        ctx.move(cube, f"hunters_{colour}")
    if going:
        ctx.note(f"{len(going)} unassigned")


def marry(
    ctx: ProcedureContext,
    colour: str,
    cube_or_card: str,
    daughter: str,
    cards: Cards | None = None,
) -> str:
    """F1: an assigned hunter (a cube, or one of the culture's on a card, the Alpha last) leaves
    his card and marries a daughter in a foreign tableau."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    pieces = view.state.pieces
    if cube_or_card in pieces and pieces[cube_or_card].kind in ("cube", "alpha"):
        cube = pieces[cube_or_card]
        card = view.card_at(cube.place)
        if cube.owner != colour:
            raise ProcedureError(f"{cube_or_card} is not {culture(colour)}'s")
        if card is None or cube.spot != "hunters":
            raise ProcedureError(
                f"{cube_or_card} is not an assigned hunter: only a hunter on a card marries (F1)"
            )
        groom = cube_or_card
    else:
        card = cube_or_card
        _card(view, card)
        mine = sorted(view.hunters_on(card, colour), key=lambda c: _kind(view, c) == "alpha")
        if not mine:
            raise ProcedureError(
                f"{culture(colour)} has no hunters on {view.name(card)}: only an assigned hunter "
                "marries (F1)"
            )
        groom = mine[0]
    _go(ctx, view, colour, card, [groom], daughter)
    return f"{culture(colour)} marries {view.name(daughter)} (F1)"


def divorce(ctx: ProcedureContext, colour: str, daughter: str, cards: Cards | None = None) -> str:
    """F: a husband abandons his wife and becomes an unassigned hunter."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    name = view.name(daughter)
    husband = view.husband(daughter)
    if husband is None or view.state.pieces[husband].owner != colour:
        raise ProcedureError(f"{culture(colour)} has no husband on {name}")
    ctx.move(husband, f"hunters_{colour}")
    return f"{culture(colour)} divorces {name}: the husband is unassigned (F)"


# ---- attacks (F2, F4) ------------------------------------------------------------------
def attack(ctx: ProcedureContext, colour: str, card: str, cards: Cards | None = None) -> str:
    """F2: one round of attacks by a culture on a card; the victims' losses (F4)."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    name = _card(view, card)
    who = culture(colour)
    cubes = _fighters(view, card, colour)
    if not cubes:
        raise ProcedureError(f"{who} has no cubes on {name} to attack with")
    turn = view.counter("turn", 1)
    record = view.counter(ATTACKS) or {}
    done = list(record.get("done", [])) if record.get("turn") == turn else []
    if f"{colour}@{card}" in done:
        raise ProcedureError(f"{who} has attacked on {name} this turn: one round each (F2)")
    victims = _victims(view, card, colour)
    if not victims:
        raise ProcedureError(f"{who} has nobody to attack on {name}")
    defending = _defending(view, card, colour)
    if not defending and not view.war_chiefs(colour):
        raise ProcedureError(
            f"{who} has no war chief (rank 4): only defenders attack without one (F2)"
        )
    if defending:
        dice = [Die(c, 1, auto=True) for c in cubes]
        faces = HIT_FACES["tableau"]
        story = f"{len(cubes)} defender{'s' if len(cubes) > 1 else ''} strike{'s' if len(cubes) == 1 else ''} automatically"
    else:
        roll = HuntRoll(ctx, f"{who} attacks on {name}")
        roll.roll(cubes, None)
        _reroll(ctx, view, colour, name, roll)
        dice = roll.dice
        faces = HIT_FACES.get(view.side(card) or "", (1,))
        story = ", ".join(roll.story)
    hits = sum(1 for d in dice if d.face in faces)
    ctx.note(f"{story} → {hits} hit{'' if hits == 1 else 's'}")
    for victim, count in _split(ctx, colour, victims, hits).items():
        _losses(ctx, view, victim, victims[victim], count, name)
    if defending:
        home = view.hunters_on(card, colour)
        for cube in home:
            ctx.move(cube, f"hunters_{colour}")
        if home:
            ctx.note("the surviving defenders go home (F2)")
    ctx.set_counter(ATTACKS, {"turn": turn, "done": [*done, f"{colour}@{card}"]})
    return f"{who} {'defends' if defending else 'attacks on'} {name}"


def _reroll(ctx: ProcedureContext, view: Greenland, colour: str, name: str, roll: HuntRoll) -> None:
    """F2: the archer icon ('reroll F attack') re-rolls the attack dice showing F, once."""
    allowed = rerolls(hunting_abilities(view, colour), "attack")
    offered = roll.rerollable(list(allowed))
    if not offered:
        return
    sources = listing(sorted({allowed[f] for f in offered}))
    question = (
        f"{culture(colour)}: re-roll the attack dice showing "
        f"{listing([str(f) for f in offered])} on {name} ({sources}, F2)?"
    )
    chosen = Asker(ctx, colour, False).faces("reroll", question, offered)
    if chosen:
        roll.reroll(chosen)
        roll.story[-1] += f" ({sources})"


def _split(
    ctx: ProcedureContext, colour: str, victims: dict[str, list[str]], hits: int
) -> dict[str, int]:
    """The hits on each victim; the attacker splits them among several (choice 'targets')."""
    if not hits:
        return {}
    if len(victims) == 1:
        ((victim, cubes),) = victims.items()
        return {victim: min(hits, len(cubes))}
    usable = min(hits, sum(len(v) for v in victims.values()))
    question = (
        f"{culture(colour)}: how do the {usable} hits fall on "
        f"{listing([culture(v) for v in victims])} (F2)? e.g. "
        + ",".join(f"{v}=N" for v in victims)
    )
    answer = ctx.choose("targets", question, [])
    split: dict[str, int] = {}
    for part in str(answer).replace(" ", "").split(","):
        victim, _, n = part.partition("=")
        if victim not in victims or not n.isdigit():
            raise ProcedureError(f"{question}: {part!r} is not COLOUR=N for a culture present")
        split[victim] = split.get(victim, 0) + int(n)
    for victim, n in split.items():
        if n > len(victims[victim]):
            raise ProcedureError(
                f"{culture(victim)} has {len(victims[victim])} cubes there, not {n}"
            )
    if sum(split.values()) != usable:
        raise ProcedureError(
            f"{question}: the hits given add up to {sum(split.values())}, not {usable}"
        )
    return {v: n for v, n in split.items() if n}


def _losses(
    ctx: ProcedureContext, view: Greenland, victim: str, cubes: list[str], hits: int, name: str
) -> None:
    """The victim's losses: an iron may cancel them (F4), else the victim picks who dies."""
    whom = f"{hits} cube{'' if hits == 1 else 's'}"
    survivalist = view.counter("variant") == "survivalist"
    if not survivalist and view.disks(victim, "iron"):
        question = f"{culture(victim)}: pay an iron to cancel the loss of {whom} on {name} (F4)?"
        if _yes(ctx, victim, f"pay_iron_{victim}", question):
            spend(ctx, victim, "iron")
            ctx.note(f"{culture(victim)} pays an iron to cancel the losses (F4)")
            return
    dead = _chosen_dead(ctx, view, victim, cubes, hits, name)
    for cube in dead:
        ctx.move(cube, f"valhalla_{victim}")
    kinds = [_kind(view, c) for c in dead]
    ctx.note(
        f"{culture(victim)} loses {listing([f'the {k}' if k != 'hunter' else 'a cube' for k in kinds])}"
    )


def _chosen_dead(
    ctx: ProcedureContext, view: Greenland, victim: str, cubes: list[str], hits: int, name: str
) -> list[str]:
    """F2: the victim chooses which cubes die; with one kind of cube there, the first ones."""
    kinds = {c: _kind(view, c) for c in cubes}
    if len(set(kinds.values())) == 1 or hits >= len(cubes):
        return cubes[:hits]
    options = sorted(set(kinds.values())) + cubes
    question = (
        f"{culture(victim)}: which {hits} of your cubes on {name} die "
        f"({', '.join(sorted(set(kinds.values())))}, comma-separated; F2)?"
    )
    answer = ctx.choose(f"hits_{victim}", question, [])
    items = answer if isinstance(answer, list | tuple) else str(answer).replace(" ", "").split(",")
    left, dead = list(cubes), []
    for item in (str(i).strip() for i in items if str(i).strip()):
        match = next((c for c in left if c == item or kinds[c] == item), None)
        if match is None:
            raise ProcedureError(f"{question}: {item!r} is not one of {', '.join(options)} left")
        left.remove(match)
        dead.append(match)
    if len(dead) != hits:
        raise ProcedureError(f"{question}: name {hits}, not {len(dead)}")
    return dead


# ---- the New World (F3) ----------------------------------------------------------------
def _side(view: Greenland, pid: str) -> str:
    return str(view.state.pieces[pid].props.get("card", "")).rpartition("-")[2]


def resolve_new_world(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """F3: after negotiations and attacks, a peaceful New World card with over 6 cubes turns hostile."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    for pid in NEW_WORLD:
        if pid not in view.state.pieces or view.card_place(pid) not in ROW_PLACES:
            continue
        count = len(view.state.places[pid].contents)
        if _side(view, pid) == "peaceful" and count > HOSTILE_ABOVE:
            ctx.set_property(pid, "card", f"{pid}-hostile")
            ctx.note(f"{view.name(pid)} has {count} cubes and turns hostile; they stay on it")
    if not ctx.notes:
        ctx.note("no New World card turns hostile")
    ctx.set_counter(RESOLVED, view.counter("turn", 1))
    return "The New World after negotiations (F3)"


def pacify(ctx: ProcedureContext, colour: str, card: str, cards: Cards | None = None) -> str:
    """F3: at the end of the phase, a culture with cubes on a hostile card pays an ivory to pacify it."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    if card not in NEW_WORLD or card not in view.state.pieces:
        raise ProcedureError(f"{view.name(card)} is not a New World card (F3)")
    name = view.name(card)
    if _side(view, card) != "hostile":
        raise ProcedureError(f"{name} is peaceful already (F3)")
    if view.counter(RESOLVED) != view.counter("turn", 1):
        raise ProcedureError(
            "resolve the New World first: pacification comes at the end of the phase (F3)"
        )
    if colour not in present(view, card):
        raise ProcedureError(f"{culture(colour)} has no cubes on {name} (F3)")
    if not spend(ctx, colour, "ivory"):
        raise ProcedureError(f"{culture(colour)} has no ivory to pay (F3)")
    ctx.set_property(card, "card", f"{card}-peaceful")
    return f"{culture(colour)} pays an ivory: {name} is peaceful again (F3)"


# ---- the phase panel -------------------------------------------------------------------
def panel_steps(view: Greenland, cards: Cards) -> list[Any]:
    """For sequence.phase_status: resolve F3, pacify, and an attack where one is possible."""
    from ..phases import Step

    turn = view.counter("turn", 1)
    steps = []
    record = view.counter(ATTACKS) or {}
    done = record.get("done", []) if record.get("turn") == turn else []
    for place in (*ROW_PLACES, *(f"tableau_{c}" for c in view.seats())):
        for pid in view.state.places[place].contents if place in view.state.places else ():
            if pid not in view.state.places:
                continue
            for colour in attackers(view, pid):
                if f"{colour}@{pid}" in done:
                    continue
                verb = "defends" if _defending(view, pid, colour) else "attacks on"
                steps.append(
                    Step(
                        f"{culture(colour)} {verb} {view.name(pid)} (F2)",
                        "greenland.attack",
                        attack,
                        {"colour": colour, "card": pid, "cards": cards},
                        actor=colour,
                        help="one round of attacks; most iron first (A3)",
                    )
                )
    if view.counter(RESOLVED) != turn:
        steps.append(
            Step(
                "Resolve the New World (F3)",
                "greenland.new_world",
                resolve_new_world,
                {"cards": cards},
                help="more than 6 cubes turn a peaceful Markland or Vinland hostile",
            )
        )
    else:
        for pid in NEW_WORLD:
            if pid in view.state.places and _side(view, pid) == "hostile":
                for colour in negotiation_order(view):
                    if colour in present(view, pid) and view.disks(colour, "ivory"):
                        steps.append(
                            Step(
                                f"{culture(colour)} pacifies {view.name(pid)} (F3)",
                                "greenland.pacify",
                                pacify,
                                {"colour": colour, "card": pid, "cards": cards},
                                actor=colour,
                                help="pay an ivory to turn it peaceful",
                            )
                        )
    return steps


# ---- the command line --------------------------------------------------------------------
def add_cli(procedures: Any) -> None:
    """``tabletop greenland attack|leave|marry|divorce|new-world|pacify FILE -o OUT ...``."""
    from .cli import common
    from .events import choice_argument

    def parser(name: str, text: str, runner: Any, card: bool = True) -> argparse.ArgumentParser:
        p = procedures.add_parser(name, help=text)
        common(p)
        choice_argument(p)
        if card:
            p.add_argument(
                "--card", required=name != "marry", help="the card's name, e.g. Markland"
            )
        p.set_defaults(runner=runner)
        return p

    parser("attack", "one round of attacks on a card (F2); --seat the attacker", _attack)
    p = parser("leave", "hunters leave a card with everyone's consent (F)", _leave)
    p.add_argument("--count", type=int, help="how many leave (default: all)")
    p.add_argument("--daughter", help="one of them marries this daughter (F1)")
    p = parser("marry", "a hunter on --card (or --cube) marries a foreign daughter (F1)", _marry)
    p.add_argument("--cube", help="the cube that marries, e.g. cube-red-3")
    p.add_argument("--daughter", required=True, help="the daughter's name")
    p = parser("divorce", "a husband leaves his wife (F)", _divorce, card=False)
    p.add_argument("--daughter", required=True, help="the daughter's name")
    parser("new-world", "the New World turns hostile above 6 cubes (F3)", _new_world, card=False)
    parser("pacify", "pay an ivory to turn a hostile New World card peaceful (F3)", _pacify)


def _named(game: Any, name: str, flag: str) -> str:
    from .sequence import cards_for

    rows = cards_for(game.state).by_name(name)
    if not rows:
        raise TableError(f"{flag} {name!r}: there is no card of that name in the deck")
    return str(rows[0]["card"])


def _seat(args: argparse.Namespace) -> str:
    if not args.seat:
        raise TableError("--seat: name the culture acting (red, yellow or green)")
    return str(args.seat)


def _attack(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    card = _named(game, args.card, "--card")
    return run_cli(game, args, attack, "attack", colour=_seat(args), card=card)


def _leave(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    params: dict[str, Any] = {"colour": _seat(args), "card": _named(game, args.card, "--card")}
    if args.count is not None:
        params["count"] = args.count
    if args.daughter:
        params["daughter"] = _named(game, args.daughter, "--daughter")
    return run_cli(game, args, leave, "leave", **params)


def _marry(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    if bool(args.cube) == bool(args.card):
        raise TableError("marry: give --card NAME (one of your hunters there) or --cube ID")
    what = args.cube or _named(game, args.card, "--card")
    daughter = _named(game, args.daughter, "--daughter")
    return run_cli(
        game, args, marry, "marry", colour=_seat(args), cube_or_card=what, daughter=daughter
    )


def _divorce(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    daughter = _named(game, args.daughter, "--daughter")
    return run_cli(game, args, divorce, "divorce", colour=_seat(args), daughter=daughter)


def _new_world(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    return run_cli(game, args, resolve_new_world, "new_world")


def _pacify(game: Any, args: argparse.Namespace) -> str:
    from .events import run_cli

    card = _named(game, args.card, "--card")
    return run_cli(game, args, pacify, "pacify", colour=_seat(args), card=card)
