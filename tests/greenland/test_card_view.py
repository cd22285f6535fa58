"""card_view: what each Greenland card's face shows, read from its deck row (no Qt)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rules_assist.greenland.card_view import (
    ICONS,
    PRINTED_FIELDS,
    ability_text,
    card_back,
    card_view,
    icon_names,
    placeholder_count,
)

ROOT = Path(__file__).resolve().parents[2]
DECK = ROOT / "resources" / "greenland" / "decks" / "reconstructed.csv"
ICON_DIR = ROOT / "resources" / "greenland" / "icons"
ROLES = {
    "title",
    "subtitle",
    "kind",
    "band_colour",
    "corner_icon",
    "corner_number",
    "corner_colour",
    "corner_second_colour",
    "corner_letter",
    "icon_rows",
    "row_captions",
    "text",
    "upside_down",
    "regions",
    "badge",
    "back_key",
    "back_label",
    "back_colour",
    "placeholders",
}


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, str]]:
    """The deck as raw CSV strings (card_view reads these as well as typed rows)."""
    with DECK.open(encoding="utf-8-sig", newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def row_of(view: dict, caption: str) -> list:
    return view["icon_rows"][view["row_captions"].index(caption)]


def test_every_row_has_every_role_and_only_known_icons(rows):
    for row in rows.values():
        view = card_view(row)
        assert set(view) == ROLES, row["id"]
        assert view["title"] == row["name"]
        assert len(view["icon_rows"]) == len(view["row_captions"])
        assert icon_names(view) <= set(ICONS), row["id"]
    assert {p.stem for p in ICON_DIR.glob("*.svg")} >= set(ICONS)


def test_the_walrus_as_the_hunt_example_gives_it(rows):
    view = card_view(rows["walrus"])
    assert view["subtitle"] == "North biome · maritime"
    assert (view["corner_icon"], view["corner_number"], view["corner_colour"]) == (
        "kayak",
        15,
        "#3c9a5f",
    )
    assert view["row_captions"] == ["hunt", "loss", "yield", "trophy"]
    hunt = row_of(view, "hunt")
    assert {"icon": "die_warm", "count": 2} in hunt and {"icon": "die_cold", "count": 2} in hunt
    assert row_of(view, "loss") == [{"icon": "bite", "label": "3", "label_at": "centre"}]
    assert row_of(view, "yield") == [
        {"icon": "baby", "count": 4},
        {"icon": "energy", "count": 2},
        {"icon": "ivory", "count": 1},
    ]
    assert row_of(view, "trophy") == [
        {"icon": "antler"},
        {"icon": "die_blank", "count": 3},
        {"vp": 5},
    ]
    assert view["upside_down"] is None and view["regions"] == []


def test_typed_rows_read_as_the_raw_strings(rows):
    raw = rows["vinland-hostile"]
    typed = {
        **raw,
        "climax": 7,
        "dice": 1,
        "infinite": True,
        "attrition": [2, 3, 4, 5, 6],
        "babies": 2,
        "energy": 2,
        "iron": 1,
        "event_icons": None,
        "abilities": None,
        "hay": None,
        "vp": None,
    }
    assert card_view(typed) == card_view(raw)


def test_homeland_colours_and_the_new_world(rows):
    assert card_view(rows["shark"])["corner_colour"] == "#c0392b"
    assert card_view(rows["shark"])["subtitle"] == "South biome · fishing"
    hostile = card_view(rows["markland-hostile"])
    assert hostile["corner_colour"] == "#f4f1e8"
    assert "hostile" in hostile["subtitle"] and hostile["subtitle"].startswith("New World")
    assert {"icon": "infinity"} in row_of(hostile, "hunt")
    assert [e["label"] for e in row_of(hostile, "loss")] == ["3", "4", "5", "6"]


def test_hand_value_hay_and_sled(rows):
    dogs = card_view(rows["dogs"])
    hand = row_of(dogs, "hand")
    assert hand[0] == {"icon": "hand"} and hand[1]["text"] == "D"
    assert {"icon": "die_blank", "count": 2} in hand
    assert row_of(dogs, "hay") == [{"icon": "snowflake", "count": 1}]
    assert row_of(dogs, "sled") == [{"icon": "sled"}]
    assert "Sled" in dogs["text"]
    falcon = card_view(rows["gyrfalcon"])
    assert row_of(falcon, "value") == [{"icon": "value"}, {"icon": "ivory", "count": 1}]
    goggles = card_view(rows["slit-goggles"])
    assert row_of(goggles, "hand")[1]["text"] == "I"
    assert goggles["text"] == "3s count as 1s when land hunting"


def test_norse_animals_show_the_purple_d_and_their_raid(rows):
    cattle = card_view(rows["cattle"])
    assert cattle["corner_letter"] == "D" and cattle["corner_icon"] is None
    assert row_of(cattle, "hay") == [{"icon": "snowflake", "count": 2}]
    raid = row_of(cattle, "raid")
    assert raid[0] == {"icon": "archer"} and [e["label"] for e in raid[1:]] == ["1", "3"]
    assert cattle["back_label"] == "Norse animal"


def test_events_read_their_icons_left_to_right(rows):
    syphilis = card_view(rows["syphilis"])
    assert syphilis["corner_icon"] == "first"
    assert syphilis["corner_colour"] == "#c0392b"  # red first
    assert syphilis["corner_second_colour"] == "#e0b422"  # else yellow
    icons = syphilis["icon_rows"][0]
    assert [e["icon"] for e in icons] == ["ulu", "ulu", "snowflake", "ship"]
    assert [e.get("label") for e in icons[:3]] == ["yellow", "green", "D"]
    assert icons[0]["overlay"] == "female"
    assert syphilis["upside_down"] == {"title": "Import 3", "icons": [], "text": "Hand size +1"}
    assert syphilis["text"] == ""
    book = card_view(rows["book-ship"])["icon_rows"][0]
    assert [e.get("label") for e in book if e["icon"] == "pawprint"] == ["S", "N"]
    crowd = card_view(rows["event-9"])["icon_rows"][0]
    assert {"icon": "ulu", "label": "10+", "caption": "crowding"} in crowd
    snow = card_view(rows["event-10"])["icon_rows"][0]
    assert [e.get("label") for e in snow if e["icon"] == "snowflake"] == ["1"]


def test_an_import_is_turned_and_an_event_without_one_keeps_its_text(rows):
    crossbow = card_view(rows["crossbow-ship"])
    turned = crossbow["upside_down"]
    assert turned["title"] == "Imported Crossbow"
    assert turned["icons"] == [
        {"icon": "value"},
        {"icon": "ivory", "count": 1},
        {"icon": "iron", "count": 1},
    ]
    assert turned["text"] == "3s count as 1s when land hunting"
    pony = card_view(rows["iceland-trade-ship"])["upside_down"]
    assert pony == {"title": "Norse Pony", "icons": [], "text": ""}
    ransom = card_view(rows["falconers-ransom"])
    assert ransom["upside_down"] is None
    assert ransom["text"] == "Gyrfalcons are worth 3 ivory this turn"


def test_elders_have_six_ranks_and_the_monotheist_side_its_own(rows):
    poly = card_view(rows["elder-red-polytheist"])
    mono = card_view(rows["elder-red-monotheist"])
    assert [r["name"] for r in poly["regions"]] == [f"rank{i}" for i in range(1, 7)]
    assert [r["label"] for r in poly["regions"]] == [
        "Chief",
        "Shaman",
        "Blacksmith",
        "War chief",
        "Tracker",
        "Mariner",
    ]
    assert [r["label"] for r in mono["regions"]][1::3] == ["Bishop", "Acolyte"]
    assert [r["number"] for r in mono["regions"]] == [1, 2, 3, 4, 5, 6]
    assert card_view(rows["elder-yellow-polytheist"])["regions"][2]["label"] == "Sage"
    assert poly["back_label"] == "Elder" and poly["icon_rows"] == []


def test_daughters_have_the_exogamy_box_and_their_ability(rows):
    kirima = card_view(rows["kirima"])
    assert [r["name"] for r in kirima["regions"]] == ["exogamy", "hunters"]
    assert kirima["text"] == "Re-roll 4s when maritime hunting"
    assert kirima["subtitle"] == "Thule daughter"
    assert card_view(rows["peepeelee"])["text"] == "Hand size +1 (D cards only)\nWins tied auctions"


def test_each_type_has_its_own_back(rows):
    backs = {}
    for row in rows.values():
        view = card_view(row)
        backs.setdefault(row["type"], set()).add((view["back_key"], view["back_label"]))
    assert all(len(b) == 1 for b in backs.values())
    labels = {next(iter(b))[1] for b in backs.values()}
    assert labels == {
        "North Greenland",
        "South Greenland",
        "Event",
        "Elder",
        "Daughter",
        "New World",
        "Norse animal",
    }


def test_card_back_is_the_back_the_view_names(rows):
    for row in [*rows.values(), {"id": "x"}, {"id": "y", "type": "unknown"}]:
        view = card_view(row)
        assert card_back(row) == (view["back_key"], view["back_label"], view["back_colour"])


def test_placeholders_count_the_printed_values_with_no_source(rows):
    assert "name" in PRINTED_FIELDS and "provenance" not in PRINTED_FIELDS
    # walrus: climax, vp and homeland have no source; everything else is the G8 example's
    assert placeholder_count(rows["walrus"]) == 3
    assert card_view(rows["walrus"])["placeholders"] == 3
    assert placeholder_count(rows["elder-red-polytheist"]) == 0
    # an unsourced row: every filled printed value is a placeholder
    assert placeholder_count(rows["north-biome-10"]) == sum(
        1 for f in PRINTED_FIELDS if rows["north-biome-10"].get(f)
    )
    sourced = dict(rows["walrus"], provenance=rows["walrus"]["provenance"] + "; climax=X; vp=Y")
    assert placeholder_count(sourced) == 1


@pytest.mark.parametrize(
    ("ability", "words"),
    [
        ("reroll 4 maritime", "Re-roll 4s when maritime hunting"),
        ("reroll 6 attack", "Re-roll 6s when attacking"),
        ("modify 3->1 fishing", "3s count as 1s when fishing"),
        ("hand_size +1", "Hand size +1"),
        ("hand_size +1 D", "Hand size +1 (D cards only)"),
        ("sled", "Sled: one card outside the homeland without a mariner"),
        ("no_raid", "NO RAID: cannot be livestock raided"),
        ("hunt_first land", "Hunts first when land hunting"),
        ("wins_auction_ties", "Wins tied auctions"),
        ("snowflake -1", "Snowflake losses −1"),
        ("free_promotion", "Promotes hunters to elders at no cost"),
        ("reassign 3", "Reassign 3 hunters after all have assigned"),
        ("falcon_value 3", "Gyrfalcons are worth 3 ivory this turn"),
        ("snowflake_on_success 1", "A successful hunt costs a snowflake of 1"),
        ("something new", "something new"),
    ],
)
def test_abilities_in_plain_words(ability, words):
    assert ability_text(ability) == words
