"""How Looot's pieces look on the table (rules_assist/looot/card_view.py): a tile is a hexagon
with its picture; a longship on the ocean shows the type it improves, its bonus and its three
resources (DE:36), one in the bag nothing of them; a site its name, the tiles it needs and its
value (DE:32); a trophy its axes and points (DE:48); a shield its power until used (DE:40-44).
Every picture a view names is a flat 64 x 64 SVG of the module."""

from __future__ import annotations

import re

import pytest

from rules_assist.looot.card_view import ICONS, SITE_DONE, token_view
from rules_assist.looot.moves import looot_game
from tabletop.modules import find_module, new_game
from tabletop.ui.token_art import seen_of
from tabletop.visibility import can_see


@pytest.fixture(scope="module")
def table():  # noqa: ANN201
    return new_game(find_module("looot"), seats="blue,red,grey", seed=4).state


def view_of(state, pid: str) -> dict:  # noqa: ANN001
    """The roles a spectator's table draws for a piece."""
    piece = state.pieces[pid]
    found = looot_game().token_view(seen_of(piece, can_see(state, piece, None)))
    assert found is not None, pid
    return found


def test_a_tile_is_a_hexagon_with_its_picture(table) -> None:  # noqa: ANN001
    wood = next(p for p in table.place("supply").contents if table.pieces[p].kind == "wood")
    assert view_of(table, wood) == {"outline": "hex", "colour": "#3c6e2f", "icon": "wood"}
    house = next(p.id for p in table.pieces.values() if p.kind == "house")
    assert view_of(table, house)["icon"] == "house"


def test_de36_a_longship_shows_its_type_bonus_and_needs_and_in_the_bag_nothing(table) -> None:  # noqa: ANN001
    ship = next(p for p in table.pieces.values() if p.kind == "longship" and p.place != "bag")
    view = view_of(table, ship.id)
    assert view["icon"] == ship.props["type"] and view["number"] == f"+{ship.props['bonus']}"
    assert view["icons"] == ship.props["needs"] and len(view["icons"]) == 3
    hidden = table.place("bag").contents[0]
    assert view_of(table, hidden) == view_of(table, table.place("bag").contents[-1])
    assert "icons" not in view_of(table, hidden) and "number" not in view_of(table, hidden)


def test_de32_a_site_shows_its_name_needs_and_value(table) -> None:  # noqa: ANN001
    site = next(
        p for p in table.pieces.values() if p.kind == "site" and p.props["type"] == "palace"
    )
    view = view_of(table, site.id)
    assert view["title"] == "Palace" and view["number"] == 9 and len(view["icons"]) == 5
    done = token_view({"kind": "site", "face_up": True, "props": {**site.props, "complete": True}})
    assert done["colour"] == SITE_DONE and done["number"] == 9 and "icons" not in done


def test_de48_a_trophy_shows_its_axes_and_points(table) -> None:  # noqa: ANN001
    view = view_of(table, "trophy-4")
    assert view["caption"] == "4 axes" and view["number"] == 10 and view["icon"] == "trophy"


def test_de40_a_shield_shows_its_power_until_it_is_used(table) -> None:  # noqa: ANN001
    icons = {view_of(table, f"shield-blue-{n}")["icon"] for n in ("PlayAgain", "DoubleGain")}
    assert icons == {"shield_again", "shield_double"}
    used = token_view({"kind": "shield", "face_up": False})
    assert used["dim"] and not used.get("icon")


def test_every_picture_is_a_flat_64_svg_of_the_module() -> None:
    folder = find_module("looot").folder / "icons"
    for name in ICONS:
        text = (folder / f"{name}.svg").read_text(encoding="utf-8")
        assert 'viewBox="0 0 64 64"' in text, name
        assert not re.search(r"href|<image|url\(", text), name
