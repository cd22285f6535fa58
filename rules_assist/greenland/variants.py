"""The variant a game plays, read from the module's data: the rules it plays without, its numbers.

Each variant of resources/greenland/module.toml lists ``rules_off`` (the
sections it plays without) and ``params``; rules_assist/game.py ``Variant``
holds them. This module is the one place Greenland's rules read them:

- ``variant(table)``: the ``Variant`` a game records (the counter ``variant``),
  for a Greenland view (its deck knows the module), a table state or a
  procedure context;
- ``advanced_off(table, rule)``: the game plays without that rule (the
  beginners' game and an advanced rule, C2; the survivalist game and the iron
  rule or the replacements, C3); ``off_rules(table)`` lists them;
- ``param(table, name, default)``: one of the variant's numbers or faces (the
  survivalist Alpha's face, C3; the solitaire game's 16 turns, K);
- ``refuse_if_off(table, rule, when=True)``: a procedure asked to apply a rule
  the game plays without stops with a ProcedureError naming C2 and the rule.

C2 of the English rulebook says to skip the rules marked as advanced but does
not list them. The beginners' ``rules_off`` comes from C2 of the older Danish
edition (27 May 2014, greenland-rulebook-da-2014.txt), which names them:
``ADVANCED_RULES`` here, with their subjects in our words for the messages.

How the rest of the rules assistant reads the beginners' game:

- The rulebook (rules/) gives no findings under these rules and judges the
  moves they would allow by the basic ones. Section E lists where a hunter
  may be assigned; without E2 and E5 that is a biome in a row (E1) or a rank
  of the culture's own elder card (E3). So a cube on any tableau card (a
  raid, a defence, a husband) is illegal under E, a cube on another
  culture's elder card under E3, and a cube on a card C2 takes out of the
  game (Markland, Vinland) under C2.
- Procedures neither offer nor apply these rules: no raids (G1), no cards
  taken into the hand (G6), no iron rule (F4), no marriages (F1), no attacks
  (F2), no New World (E2, F3), no Markland ban (D9), no hay or babies from
  domestic animals (H1, H2), no domestication (I1) or tool-making (I4).
  Inside the hunt the iron rule and taking a card are simply not asked. The
  procedures that do nothing but apply one of these rules refuse when asked
  (a raid roll, a hunt in the New World, marry, leave to marry, attack,
  pacify, the Markland ban, feeding the animals, domestication,
  tool-making), and the negotiation steps and elder actions of the phase
  panel do not offer them.
  Two are parts of a turn that every game goes through, so there nothing
  happens instead of a refusal: the New World's check after the
  negotiations (F3) and the Markland icon of an event (D9).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tabletop.core import TableState

from ..game import Variant
from ..procedures import ProcedureError

BEGINNERS = "beginners"

# The rules the beginners' game skips, by what they are about: the sections C2 of the 2014
# Danish edition names, each with its subject in a few words (for messages).
RULE_NAMES = {
    "E2": "the New World",
    "F3": "the New World turning hostile",
    "D9": "the Markland ban",
    "E5": "livestock and Sabine raids",
    "G1": "livestock and Sabine raids",
    "F1": "exogamy",
    "F2": "attacks",
    "F4": "the iron rule",
    "G6": "taking cards into the hand",
    "H1": "hay for domestic animals",
    "H2": "babies from domestic animals",
    "I1": "domestication",
    "I4": "tool-making",
}
ADVANCED_RULES = tuple(sorted(RULE_NAMES))  # in section order: the beginners' rules_off


@cache
def _shipped() -> dict[str, Variant]:
    """The variants of the shipped module, for a table read without its deck."""
    from tabletop.modules import find_module

    from .deck import Cards

    return Cards.of(find_module("greenland")).variants


def variant_of(table: Any) -> str:
    """The variant of the game: from a view's or a context's state, or a state's counters."""
    state = getattr(table, "state", table)
    counters = getattr(state, "counters", None) or {}
    return str(counters.get("variant") or "standard")


def variant(table: Any) -> Variant:
    """The game's ``Variant`` (its rules_off and params), from the module its deck came from."""
    vid = variant_of(table)
    cards = getattr(table, "cards", None)
    known = cards.variants if getattr(cards, "module", None) is not None else _shipped()
    found = known.get(vid)
    if found is None:
        found = Variant(vid, vid)
    return found


def variant_in(module: Any, vid: str | None) -> Variant:
    """A module's variant by its id (the standard game when none is named)."""
    from .deck import Cards

    vid = vid or "standard"
    return Cards.of(module).variants.get(vid) or Variant(vid, vid)


def off_rules(table: Any) -> tuple[str, ...]:
    """The sections the game plays without (kept in the table's layout memo)."""
    state = getattr(table, "state", table)
    if not isinstance(state, TableState):
        return variant(table).rules_off
    memo = state.layout_memo()
    key = ("greenland.rules_off", state.counters.get("variant"), id(getattr(table, "cards", None)))
    found = memo.get(key)
    if found is None:
        found = memo[key] = variant(table).rules_off
    return found


def advanced_off(table: Any, rule: str) -> bool:
    """The game plays without ``rule`` (an advanced rule in the beginners' game, C2; the iron
    rule and the replacements in the survivalist game, C3)."""
    off = getattr(table, "rules_off", None)  # a Greenland view keeps them
    if off is None:
        off = off_rules(table)
    return bool(off) and (rule in off or rule.rstrip("0123456789") in off)


def param(table: Any, name: str, default: Any = None) -> Any:
    """One of the variant's parameters (module.toml ``params``), or ``default``."""
    return variant(table).param(name, default)


def cooperative(table: Any) -> bool:
    """The game plays K's own rules (solitaire or cooperative: swaps, ivory and iron spent as
    energy, cooling decimates, the shared victory)."""
    return bool(param(table, "cooperative", False))


def alpha_face(table: Any) -> int:
    """The face the Alpha auto-rolls (E7: a 1; the survivalist game's ``alpha_faces``, C3: a 2)."""
    faces = param(table, "alpha_faces", None) or (1,)
    return int(faces[0])


def skipped(rule: str) -> str:
    """A sentence for a log or an error: the beginners' game skips the rule (C2)."""
    return f"the beginners' game skips {RULE_NAMES.get(rule, 'the rule')} ({rule}, C2)"


def refuse_if_off(table: Any, rule: str, when: bool = True) -> None:
    """ProcedureError naming C2 and the rule when the game plays without it (and ``when``)."""
    if when and advanced_off(table, rule):
        text = skipped(rule)
        raise ProcedureError(text[0].upper() + text[1:])
