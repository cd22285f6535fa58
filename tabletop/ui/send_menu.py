"""The context menu's "Send to": every place a piece may be sent, grouped by who owns it.

A submenu per seat (named as the players call the seat) holds the places that seat owns; a
"Table" submenu holds the shared places. A card carrying regions (the spots a module declares
on a piece, e.g. a card's hunters or an elder card's ranks) adds one entry per region, in the
group of the place the card lies in, named "card · region". A region is offered only on a card
whose face the seat at the screen may see, so the menu names no hidden card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtWidgets import QMenu

from tabletop.core import Piece, TableState
from tabletop.visibility import can_see, home_place

TABLE_GROUP = "Table"


@dataclass(frozen=True)
class Target:
    """One entry of the menu: a place (and the spot in it, for a card's region)."""

    label: str
    place: str
    spot: str | None = None


@dataclass
class Group:
    """A submenu: a seat's places, or the table's shared ones."""

    title: str
    targets: list[Target] = field(default_factory=list)


def _spot_words(spot: str) -> str:
    """A region's name as read: 'rank3' -> 'rank 3', 'hunters' -> 'hunters'."""
    head = spot.rstrip("0123456789")
    tail = spot[len(head) :]
    words = head.replace("_", " ").replace("-", " ").strip()
    return f"{words} {tail}" if tail and words else spot.replace("_", " ")


def send_groups(
    state: TableState,
    pieces: list[str],
    viewer: str | None,
    seat_names: dict[str, str],
    card_name: Callable[[Piece], str | None],
) -> list[Group]:
    """The groups of places the ``pieces`` may be sent to: the seats' in seating order, then the
    table's. The place a piece lies in is left out (but its regions' spots are offered)."""
    here = {state.pieces[p].place for p in pieces}
    groups: dict[str | None, Group] = {seat: Group(name) for seat, name in seat_names.items()}
    groups[None] = Group(TABLE_GROUP)

    def group_of(owner: str | None) -> Group:
        if owner not in groups:  # an owner the header does not seat: called by its id
            groups[owner] = Group(str(owner))
        return groups[owner]

    for place in state.places.values():
        if place.kind == "regions":
            card = state.pieces.get(place.parent or "")
            if card is None or card.id in pieces or not can_see(state, card, viewer):
                continue
            holder = home_place(state, card)
            if holder.kind in ("deck", "hand"):
                continue
            name = card_name(card) or card.id
            for spot in place.spots:
                if place.id in here and all(state.pieces[p].spot == spot for p in pieces):
                    continue  # already there
                group_of(holder.owner).targets.append(
                    Target(f"{name} · {_spot_words(spot)}", place.id, spot)
                )
        elif place.id not in here:
            group_of(place.owner).targets.append(Target(place.label or place.id, place.id))
    return [g for g in groups.values() if g.targets]


def fill_send_menu(menu: QMenu, groups: list[Group], send: Callable[[Target], None]) -> None:
    """One submenu per group, its entries sending to their place (and spot)."""
    for group in groups:
        sub = menu.addMenu(group.title)
        for target in group.targets:
            sub.addAction(target.label, lambda t=target: send(t))
