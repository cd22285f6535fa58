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
  (choice ``targets``: a split of the hits among the victims, none given
  more than its cubes there, e.g. 'yellow=1,green=1'); each victim picks
  which of its cubes die when it has more than one kind there (choice
  ``hits_<victim>``: a split of the hits among the kinds hunter, husband,
  alpha, capped by the cubes of each; given, also kinds or cube ids
  repeated, 'hunter,alpha'), and may pay an iron to cancel its losses
  (F4, choice ``pay_iron_<victim>``; not in the survivalist game, C3).
- ``resolve_new_world(ctx)``: after negotiations and attacks, a peaceful
  Markland or Vinland with more than 6 cubes on it turns hostile (F3);
  ``pacify(ctx, colour, card)`` then lets a culture with cubes on a hostile
  card pay an ivory to turn it peaceful again (the end of the phase, F3).
- ``agree_peace(ctx, colour, card)``: the cultures on a contested card settle it
  peacefully for the turn (A3): every other culture present must agree (choice
  ``consent_<colour>`` yes/no, as for leaving); a refusal stops the procedure
  and nothing changes. It is refused once an attack has been made there this
  turn. No attack is made on a card at peace for the rest of the turn
  (counter ``negotiation.peace`` = {"turn": n, "cards": [...]}).
- ``negotiation_order(view)`` (A3: most iron first, ties in player order) and
  ``attackers(view, card)``: who may attack on a card, in that order;
  ``chief_order(view, card)``: the cultures with a war chief among them;
  ``negotiation_reading(view)``: the attacks still owed and the rounds of
  attacks allowed now, ``obligations`` the ones owed, ``unmet`` why the phase
  cannot end yet (A3).

The order and the obligation to attack (A3), as this module reads them:

- Order. Everyone who may attack on a card (``attackers``: the war chiefs'
  cultures and the defenders of a raided tableau card, F2) goes in most iron
  order (A3, F2), defenders like everyone else. One attacks only when every
  war chief's culture ahead of it there has made its round this turn (or has
  no cubes or nobody left to attack there). A defender without a war chief
  need not strike (F2 allows it, A3 obliges only war chiefs), so it keeps
  nobody waiting; but once a culture behind it in the order has attacked
  there, its turn has gone by and it has passed.
- Negotiations fail on a card (``contested``) while cubes of two or more
  cultures are on it (on a tableau card: raiders, cubes that do not defend
  it; its owner and a husband's culture are on one side), at least one of
  them has a war chief who may attack there, and the cultures present have
  not agreed peace there this turn. Every culture with a war chief in
  ``chief_order`` of a contested card must then attack there once, most iron
  first (``obligations``); nobody declines alone. Leaving or marrying (F, F1)
  that leaves one culture on the card, or the peace agreement, ends it, and
  the first attack on a card closes the negotiations there (no peace after
  it). ``turn.next_phase`` refuses to leave the phase while an
  obligation is unmet.

The attack roll reuses the hunt's dice (rules_assist/greenland/hunt_roll.py:
``HuntRoll`` for the roll and the once-only re-roll, ``rerolls`` for the
abilities, with the type 'attack' in place of the biome's type, F2), and the
raid's defenders (rules_assist/greenland/raid.py). The raid itself is the hunt
procedure's raid roll in phase 4 (G1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..procedures import ProcedureContext, ProcedureError
from ..questions import Question
from .choices import Asker
from .deck import Cards
from .hands import discard_excess
from .hunt_roll import HIT_FACES, Die, HuntRoll, culture, hunting_abilities, listing, rerolls
from .payments import spend
from .raid import defenders
from .rules.bans import MARKLAND, MARKLAND_BAN, markland_closed
from .sequence import current_first, in_play, iron_order, view_of
from .variants import advanced_off, refuse_if_off
from .view import ROW_PLACES, Greenland

NEW_WORLD = ("markland", "vinland")
HOSTILE_ABOVE = 6  # F3: more than 6 cubes turn a peaceful New World card hostile
CUBES_PER_MARINER = 4  # F: transportation when leaving a card outside the homeland
ATTACKS = "negotiation.attacks"  # counter: {"turn": n, "done": ["yellow@birgitta", ...]}
PEACE = "negotiation.peace"  # counter: {"turn": n, "cards": ["walrus", ...]}
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
    """The cubes on a card by culture: hunters, colonists, raiders and a husband (read once a
    table: do not change what it gives)."""
    memo = view.state.positions_memo()
    key = ("greenland.present", card)
    found = memo.get(key)
    if found is None:
        found = {}
        pieces = view.state.pieces
        for cube in view.state.places[card].contents:
            owner = pieces[cube].owner
            if owner:
                on = found.get(owner)
                if on is None:
                    found[owner] = [cube]
                else:
                    on.append(cube)
        memo[key] = found
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


def attackers(view: Greenland, card: str, order: list[str] | None = None) -> list[str]:
    """Who may attack on a card now (F2), in most iron order (A3); read once a table."""
    if advanced_off(view, "F2"):  # C2: the beginners' game has no attacks
        return []
    cubes = present(view, card)
    if len(cubes) < 2:
        return []  # nobody else there: no victims
    order = order if order is not None else negotiation_order(view)
    memo = view.state.positions_memo()
    key = ("greenland.attackers", card, tuple(order))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _attackers(view, card, cubes, order)
    return list(found)


def _attackers(
    view: Greenland, card: str, cubes: dict[str, list[str]], order: list[str]
) -> list[str]:
    """The cultures of ``order`` with cubes on a card of two cultures or more that attack there:
    a war chief's, or the defenders of a raided tableau card (F2). Each has victims there: the
    others present, or for a defender the raiders (``_victims``), of whom there is one at least."""
    guard = defenders(view, card)
    raided = view.side(card) == "tableau" and any(c not in guard for c in cubes)
    return [
        colour
        for colour in order
        if colour in cubes and (view.war_chiefs(colour) or (raided and colour in guard))
    ]


def _this_turn(view: Greenland, counter: str, key: str) -> list[str]:
    record = view.counter(counter) or {}
    return list(record.get(key, [])) if record.get("turn") == view.counter("turn", 1) else []


def attacked(view: Greenland) -> list[str]:
    """The rounds of attacks made this turn, as 'colour@card' (F2: one each a card)."""
    return _this_turn(view, ATTACKS, "done")


def at_peace(view: Greenland) -> list[str]:
    """The cards whose cultures agreed peace this turn (A3, ``agree_peace``)."""
    return _this_turn(view, PEACE, "cards")


def chief_order(view: Greenland, card: str, order: list[str] | None = None) -> list[str]:
    """A3: the cultures with a war chief that may attack on a card, most iron first, ties in
    player order (A2)."""
    return [c for c in attackers(view, card, order) if view.war_chiefs(c)]


def _mixed(view: Greenland, card: str) -> bool:
    """Cubes of two or more cultures on a card; on a tableau card, raiders among them."""
    if len(present(view, card)) < 2:
        return False
    return view.side(card) != "tableau" or _raided(view, card)


def contested(view: Greenland, card: str, order: list[str] | None = None) -> bool:
    """A3: negotiations have failed on the card (see the module's reading): cubes of several
    cultures, a war chief among them who may attack, and no peace agreed this turn."""
    return (
        card not in at_peace(view) and _mixed(view, card) and bool(chief_order(view, card, order))
    )


def _begun(view: Greenland, card: str) -> bool:
    return any(d.endswith(f"@{card}") for d in attacked(view))


def obligations(view: Greenland) -> list[tuple[str, str]]:
    """A3: (colour, card) for each war chief that must still attack, most iron first."""
    return list(negotiation_reading(view)[0])


def mixed_cards(view: Greenland) -> tuple[str, ...]:
    """The cards in the rows and tableaus with cubes of two cultures or more, as they lie
    (read once a table): the only cards where anyone can attack (F2)."""
    memo = view.state.positions_memo()
    found = memo.get("greenland.mixed_cards")
    if found is None:
        places, pieces = view.state.places, view.state.pieces
        mixed = []
        for place in (*ROW_PLACES, *(f"tableau_{c}" for c in view.seats())):
            for card in places[place].contents if place in places else ():
                area = places.get(card)
                if area is None or len(area.contents) < 2:
                    continue
                first = None
                for cube in area.contents:
                    owner = pieces[cube].owner
                    if not owner:
                        continue
                    if first is None:
                        first = owner
                    elif owner != first:
                        mixed.append(card)
                        break
        found = memo["greenland.mixed_cards"] = tuple(mixed)
    return found


def negotiation_reading(
    view: Greenland,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A3: the war chiefs that must still attack and the rounds of attacks that may be made now
    (what ``obligations`` gives, and the rounds allowed now), read once while no piece moves and the counters
    they read (the turn, the first player, the attacks made, the peace agreed) stay."""
    key = reading_key(view)
    memo = view.state.positions_memo()
    found = memo.get(key)
    if found is None:
        found = memo[key] = _reading(view) if _may_attack(view) else ([], [])
    return found


def reading_key(view: Greenland) -> tuple[Any, ...]:
    """The counters ``negotiation_reading`` reads (the turn, the first player, the attacks made,
    the peace agreed), as a key for the memos kept while no piece moves; made once a table."""
    memo = view.state.memo()
    key = memo.get("greenland.negotiation.key")
    if key is None:
        counters = view.state.counters
        key = memo["greenland.negotiation.key"] = (
            "greenland.negotiation",
            counters.get("turn", 1),
            current_first(view),
            repr(counters.get(ATTACKS)),
            repr(counters.get(PEACE)),
        )
    return key


def _reading(view: Greenland) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """One pass over the cards where cultures meet, not at peace this turn: where a war chief
    may attack and the negotiations have failed (``contested``), each war chief in
    ``chief_order`` not done there owes an attack. Those who may attack now are, in most iron
    order, the ones up to the first war chief not done, without the defenders who have
    passed (a later culture has attacked there). Both most iron first (A3)."""
    order = negotiation_order(view)
    done = set(attacked(view))
    peace = at_peace(view)
    chiefs = {colour: bool(view.war_chiefs(colour)) for colour in order}
    owed: list[tuple[str, str]] = []
    ready: list[tuple[str, str]] = []
    for card in mixed_cards(view):  # cubes of one culture at most: nobody to attack
        if card in peace:
            continue
        may = attackers(view, card, order)
        to_come = [c for c in may if f"{c}@{card}" not in done]
        if any(chiefs[c] for c in may) and (view.side(card) != "tableau" or _raided(view, card)):
            owed += [(c, card) for c in to_come if chiefs[c]]
        for n, colour in enumerate(may):  # A3, F2: most iron first, defenders too
            if f"{colour}@{card}" in done:
                continue
            if not chiefs[colour] and any(f"{c}@{card}" in done for c in may[n + 1 :]):
                continue  # a defender whose turn has gone by: passed
            ready.append((colour, card))
            if chiefs[colour]:
                break  # those behind wait for this war chief
    rank = {colour: n for n, colour in enumerate(order)}
    owed.sort(key=lambda pair: rank[pair[0]])
    ready.sort(key=lambda pair: rank[pair[0]])
    return owed, ready


def _may_attack(view: Greenland) -> bool:
    """F2: an attack can be made only on a card with cubes of two cultures or more, by a war
    chief or by the defenders of a raided tableau card; without either nobody attacks."""
    mixed = mixed_cards(view)
    if not mixed:
        return False
    if any(view.war_chiefs(c) for c in in_play(view)):
        return True
    pieces = view.state.pieces
    return any(pieces[card].place.startswith("tableau_") for card in mixed)


def obligation_text(view: Greenland, colour: str, card: str) -> str:
    return f"{culture(colour)} must attack on {view.name(card)} (A3)"


def unmet(view: Greenland) -> str | None:
    """Why the negotiation phase cannot end yet (A3), or None: for ``turn.next_phase``."""
    owed = obligations(view)
    if not owed:
        return None
    colour, card = owed[0]
    name = view.name(card)
    others = [culture(c) for c in present(view, card) if c != colour]
    return (
        f"{obligation_text(view, colour, card)} before the phase ends: it has a war chief and "
        f"{listing(others)} {'is' if len(others) == 1 else 'are'} still on {name}, so the "
        "negotiations there have failed; attack, leave, or agree peace there"
    )


def _victims(view: Greenland, card: str, colour: str) -> dict[str, list[str]]:
    """The cubes an attack may kill, by culture: defenders strike only at the raiders."""
    cubes = {c: v for c, v in present(view, card).items() if c != colour}
    if _defending(view, card, colour):
        guard = defenders(view, card)
        cubes = {c: v for c, v in cubes.items() if c not in guard}
    return cubes


def _yes(ctx: ProcedureContext, colour: str, key: str, question: str, section: str) -> bool:
    return Asker(ctx, colour, False).yes_no(key, question, section)


# ---- leaving, marrying, divorcing (F, F1) -----------------------------------------------
def _consent(ctx: ProcedureContext, view: Greenland, colour: str, card: str, name: str) -> None:
    """F: everyone else with cubes on the card must let the culture leave."""
    for other in negotiation_order(view):
        if other == colour or other not in present(view, card):
            continue
        question = f"{culture(other)}: let {culture(colour)} leave {name} (F)?"
        if not _yes(ctx, other, f"consent_{other}", question, "F"):
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
    if not _yes(ctx, owner, f"bride_{owner}", question, "F1"):
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
    refuse_if_off(ctx.state, "F1", when=daughter is not None)  # C2: no exogamy
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
    """Cubes leave a card: the Markland ban (D9), transport (F, E1), everyone's consent (F), then
    home or married (F1)."""
    name = view.name(card)
    if card == MARKLAND and markland_closed(view):
        raise ProcedureError(f"{MARKLAND_BAN}: {culture(colour)} cannot leave {name} (D9)")
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
    refuse_if_off(ctx.state, "F1")  # C2: no exogamy
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
    discard_excess(ctx, view)  # B2
    return f"{culture(colour)} divorces {name}: the husband is unassigned (F)"


# ---- peace (A3) ------------------------------------------------------------------------
def agree_peace(ctx: ProcedureContext, colour: str, card: str, cards: Cards | None = None) -> str:
    """A3: the negotiations on a contested card succeed: with everyone present agreeing, nobody
    attacks there this turn."""
    view = view_of(ctx.state, cards)
    _in_phase(view)
    name = _card(view, card)
    who = culture(colour)
    cubes = present(view, card)
    if colour not in cubes:
        raise ProcedureError(f"{who} has no cubes on {name}: only those present negotiate (F)")
    if card in at_peace(view):
        raise ProcedureError(f"{name} is at peace this turn already (A3)")
    if _begun(view, card):
        raise ProcedureError(
            f"the attacks on {name} have begun this turn: the negotiations there have failed (A3)"
        )
    if not contested(view, card):
        raise ProcedureError(
            f"there is nothing to settle on {name}: no war chief there may attack (A3)"
        )
    others = [c for c in negotiation_order(view) if c != colour and c in cubes]
    for other in others:
        question = f"{culture(other)}: make peace with {who} on {name} this turn (A3)?"
        if not _yes(ctx, other, f"consent_{other}", question, "A3"):
            raise ProcedureError(
                f"{culture(other)} does not agree to peace on {name}: the negotiations there "
                "fail and the war chiefs must attack (A3)"
            )
    ctx.set_counter(PEACE, {"turn": view.counter("turn", 1), "cards": [*at_peace(view), card]})
    ctx.note("everyone present agrees: no attacks there this turn (A3)")
    return f"{who} and {listing([culture(c) for c in others])} make peace on {name} (A3)"


# ---- attacks (F2, F4) ------------------------------------------------------------------
def attack(ctx: ProcedureContext, colour: str, card: str, cards: Cards | None = None) -> str:
    """F2: one round of attacks by a culture on a card; the victims' losses (F4)."""
    refuse_if_off(ctx.state, "F2")  # C2: no attacks
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
    if card in at_peace(view):
        raise ProcedureError(f"{name} is at peace this turn: the cultures there agreed it (A3)")
    order = attackers(view, card)  # A3, F2: the most iron first, defenders like everyone
    place = order.index(colour) if colour in order else len(order)
    ahead = [c for c in order[:place] if view.war_chiefs(c) and f"{c}@{card}" not in done]
    if ahead:
        raise ProcedureError(
            f"{who} cannot {'defend' if defending else 'attack on'} {name} yet: "
            f"{culture(ahead[0])} attacks there first (A3, F2: the most iron first, ties in"
            " player order)"
        )
    behind = [c for c in order[place + 1 :] if f"{c}@{card}" in done]
    if behind and not view.war_chiefs(colour):
        raise ProcedureError(
            f"{who} has passed on {name}: {culture(behind[0])}, with less iron, has attacked"
            " there already (A3, F2: the most iron first, ties in player order)"
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
    discard_excess(ctx, view)  # B2
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
    chosen = Asker(ctx, colour, False).faces("reroll", question, offered, "F2")
    if chosen:
        roll.reroll(chosen)
        roll.story[-1] += f" ({sources})"


def _split(
    ctx: ProcedureContext, colour: str, victims: dict[str, list[str]], hits: int
) -> dict[str, int]:
    """The hits on each victim; the attacker splits them among several (choice 'targets': a
    split of the hits among the victims, none given more than its cubes there)."""
    if not hits:
        return {}
    if len(victims) == 1:
        ((victim, cubes),) = victims.items()
        return {victim: min(hits, len(cubes))}
    caps = {victim: len(cubes) for victim, cubes in victims.items()}
    usable = min(hits, sum(caps.values()))
    if usable == sum(caps.values()):  # every victim loses all its cubes there: nothing to choose
        return {v: n for v, n in caps.items() if n}
    question = Question.split(
        "targets",
        f"{culture(colour)}: how do the {usable} hits fall on "
        f"{listing([culture(v) for v in victims])} (F2)? COLOUR=HITS for each",
        usable,
        caps.items(),
        owner=colour,
        labels=tuple((v, culture(v)) for v in victims),
        section="F2",
    )
    return dict(ctx.answer(question))


def _losses(
    ctx: ProcedureContext, view: Greenland, victim: str, cubes: list[str], hits: int, name: str
) -> None:
    """The victim's losses: an iron may cancel them (F4), else the victim picks who dies."""
    whom = f"{hits} cube{'' if hits == 1 else 's'}"
    if not advanced_off(view, "F4") and view.disks(victim, "iron"):  # C3: no iron rule
        question = f"{culture(victim)}: pay an iron to cancel the loss of {whom} on {name} (F4)?"
        if _yes(ctx, victim, f"pay_iron_{victim}", question, "F4"):
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
    """F2: the victim chooses which cubes die (choice ``hits_<victim>``: a split of the hits
    among the kinds of cube there, each at most as many as there are); with one kind of cube
    there, the first ones."""
    kinds = {c: _kind(view, c) for c in cubes}
    if len(set(kinds.values())) == 1 or hits >= len(cubes):
        return cubes[:hits]
    counts = Counter(kinds.values())
    question = Question.split(
        f"hits_{victim}",
        f"{culture(victim)}: which {hits} of your cubes on {name} die (F2)? Kinds, e.g. hunter=1",
        hits,
        [(k, counts[k]) for k in DEATH_ORDER if counts.get(k)],
        owner=victim,
        section="F2",
    )
    key = question.key
    if key in ctx.choices:  # given: kinds or cube ids, any order
        ctx.choices[key] = _kinds_named(ctx.choices[key], kinds)
    share = ctx.answer(question)
    dead: list[str] = []
    for kind, n in share.items():
        dead.extend([c for c in cubes if kinds[c] == kind][:n])
    return dead


DEATH_ORDER = ("hunter", "husband", "alpha")  # the kinds of cube an attack kills, as offered


def _kinds_named(answer: Any, kinds: dict[str, str]) -> Any:
    """A ``hits_<victim>`` answer with the cube ids in it read as their kinds."""
    if isinstance(answer, Mapping):
        return answer
    items = answer if isinstance(answer, list | tuple) else str(answer).split(",")
    return [kinds.get(str(i).strip(), str(i).strip()) for i in items if str(i).strip()]


# ---- the New World (F3) ----------------------------------------------------------------
def _side(view: Greenland, pid: str) -> str:
    return str(view.state.pieces[pid].props.get("card", "")).rpartition("-")[2]


def resolve_new_world(ctx: ProcedureContext, cards: Cards | None = None) -> str:
    """F3: after negotiations and attacks, a peaceful New World card with over 6 cubes turns hostile."""
    if advanced_off(ctx.state, "F3"):  # C2: no New World; the turn goes on unchanged
        return "The New World after negotiations (F3): none in the beginners' game (C2)"
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
    refuse_if_off(ctx.state, "F3")  # C2: no New World
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
