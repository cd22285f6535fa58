"""Victory points (J) and the end of the game.

``score(view)`` counts each culture's four kinds of victory points as the
table lies now (a projection during the game, the result once it is over):

- trophy (polytheists only, J): the ``vp`` of the cards in the culture's
  trophies, and of any tableau card with a trophy icon (G5);
- resource (monotheists only, J): 1 per ivory and 2 per iron held, plus the
  ivory and iron Values of tableau cards, counted as if exchanged (B3); a D
  card being livestock raided cannot be exchanged, so it counts nothing;
- population (J): 1 per cube not in Valhalla, the Alpha included; a colonist
  on a New World card lying on the cold side counts 2;
- democratic (J, I5): 4 per opponent's elder card holding a representative.

Our reading of "representative" (I5): a cube of the culture's colour on
another culture's elder card while that card shows its monotheist side. The
emissary action puts it on the first rank (I5: the rank-5 elder moves there);
the rank it lies on changes nothing here, so any rank counts. A cube on a
polytheist elder card is a missionary and scores nothing.

A culture whose cubes are all in Valhalla is extinct (J1): it scores 0 and
its entry says ``extinct: True``.

In the solitaire or cooperative game (K) every culture's entry also says
``shared_victory``: True only when the game is over and all three cultures
survive with unassigned hunters or colonists. Our reading of "unassigned
hunters" is D2's: any cube outside the elder cards, the husbands and Valhalla
(a hunter still on a card counts); a colonist is a cube on a New World card.

``game_over(view)`` says why the game is over, or None (J).
``score_table(state, module)`` is the module's ``score`` hook: plain rows for
the window's score panel.
"""

from __future__ import annotations

from typing import Any

from .deck import Cards
from .payments import value_of
from .raid import being_raided
from .sequence import game_ends, in_play
from .variants import cooperative
from .view import COLOURS, Greenland

KINDS = ("trophy", "resource", "population", "democratic")
CULTURES = {"red": "Norse", "yellow": "Thule", "green": "Tunit"}
DEMOCRATIC_VP = 4  # per opponent's elder card with a representative (J)


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def extinct(view: Greenland, colour: str) -> bool:
    """J1: every cube of the colour is in Valhalla."""
    return all(cube.place.startswith("valhalla_") for cube in view.cubes(colour))


def trophy_vp(view: Greenland, colour: str) -> int:
    place = view.state.places.get(f"trophies_{colour}")
    cards = list(place.contents) if place else []
    cards += [pid for pid in view.tableau(colour) if view.row(pid).get("trophy")]
    return sum(_int(view.row(pid).get("vp")) for pid in cards)


def resource_vp(view: Greenland, colour: str) -> int:
    points = view.disks(colour, "ivory") + 2 * view.disks(colour, "iron")
    for pid in view.tableau(colour):
        if being_raided(view, pid):
            continue
        value = value_of(view, pid)
        points += value.get("ivory", 0) + 2 * value.get("iron", 0)
    return points


def population_vp(view: Greenland, colour: str) -> int:
    points = 0
    places = view.state.places
    for cube in view.cubes(colour):
        if cube.place.startswith("valhalla_"):
            continue
        card = places[cube.place].parent
        cold_colonist = (
            card is not None
            and cube.spot == "hunters"
            and view.is_new_world(card)
            and view.side(card) == "cold"
        )
        points += 2 if cold_colonist else 1
    return points


def representatives(view: Greenland, colour: str) -> list[str]:
    """The opponents whose monotheist elder card holds a cube of ``colour`` (I5)."""
    found = []
    for other in COLOURS:
        card = f"elder-{other}"
        if other == colour or card not in view.state.places:
            continue
        if view.religion(other) != "monotheist":
            continue
        if any(view.state.pieces[pid].owner == colour for pid in view.state.contents(card)):
            found.append(other)
    return found


def score_of(view: Greenland, colour: str) -> dict[str, Any]:
    if extinct(view, colour):
        return {**dict.fromkeys(KINDS, 0), "total": 0, "extinct": True}
    religion = view.religion(colour)
    points = {
        "trophy": trophy_vp(view, colour) if religion == "polytheist" else 0,
        "resource": resource_vp(view, colour) if religion == "monotheist" else 0,
        "population": population_vp(view, colour),
        "democratic": DEMOCRATIC_VP * len(representatives(view, colour)),
    }
    return {**points, "total": sum(points.values())}


def score(view: Greenland) -> dict[str, dict[str, Any]]:
    """Each seated culture's victory points by kind and in total (J); K's shared victory in solitaire."""
    points = {colour: score_of(view, colour) for colour in view.seats()}
    if cooperative(view):
        won = shared_victory(view)
        for entry in points.values():
            entry["shared_victory"] = won
    return points


def has_hunters_or_colonists(view: Greenland, colour: str) -> bool:
    """K: a cube of the colour that is neither an elder, a husband nor in Valhalla."""
    for cube in view.cubes(colour):
        if cube.place.startswith(("valhalla_", "elder-")) or cube.spot == "exogamy":
            continue
        return True
    return False


def shared_victory(view: Greenland) -> bool:
    """K: the game is over and all three cultures survive with unassigned hunters or colonists."""
    if game_over(view) is None:
        return False
    return all(
        colour in view.seats() and has_hunters_or_colonists(view, colour) for colour in COLOURS
    )


def game_over(view: Greenland) -> str | None:
    """Why the game is over (J), or None while it goes on.

    Over when the turn sequence recorded it (the counter ``game_over``), or
    when a game-ending condition holds (the event deck used up, or no cards
    left in the rows, as ``sequence.game_ends`` reads J) at the end of a
    turn: the elder actions phase with every culture in play finished.
    """
    turn = view.counter("game_over")
    if turn is not None:
        ending = game_ends(view)
        return f"the game ended in turn {turn}" + (f" ({ending})" if ending else "")
    ending = game_ends(view)
    if ending is None or view.counter("phase") != "elders":
        return None
    done = set(view.counter("phase.done") or [])
    if set(in_play(view)) <= done:
        return ending
    return None


def score_table(state: Any, module: Any) -> list[dict[str, Any]]:
    """The module's ``score`` hook: one plain row per culture, highest total first.

    Each row: colour, culture, religion, the four kinds, total, extinct, and
    ``final`` (the game is over) with ``ending`` (why, or None).
    """
    view = Greenland(state, Cards.of(module))
    ending = game_over(view)
    rows = []
    for colour, points in score(view).items():
        rows.append(
            {
                "seat": colour,
                "colour": colour,
                "culture": CULTURES.get(colour, colour),
                "religion": view.religion(colour),
                **{kind: points[kind] for kind in KINDS},
                "total": points["total"],
                "extinct": bool(points.get("extinct")),
                "final": ending is not None,
                "ending": ending,
            }
        )
    rows.sort(key=lambda row: -row["total"])
    return rows
