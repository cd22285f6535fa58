"""The event phase (D): the rulebook's examples, each naming its section, on positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_assist.greenland import events
from rules_assist.greenland.deck import Cards
from rules_assist.procedures import ChoiceNeeded, ProcedureError

from .tables import (
    build,
    cli_run,
    contents,
    game_file,
    opened,
    owned,
    put,
    revised_module,
    run,
    view,
)


# ---- D1 migrations ----------------------------------------------------------------------
def test_d1_southern_migration_replaces_the_lowest_climax_in_place(tmp_path: Path) -> None:
    """D1 example: climax 6 and 11 warm, 4 cold: the 4 goes, even for a lower newcomer.

    The shipped deck has no South biome of climax 6 (its climaxes are placeholders),
    so the test revision gives South biome 7 climax 6 and South biome 8 climax 2.
    """
    module = revised_module(
        tmp_path, {"south-biome-7": {"climax": "6"}, "south-biome-8": {"climax": "2"}}
    )
    cards = Cards.of(module)
    game = build(
        tmp_path,
        """
[rows.south]
warm = ["South biome 7", "South biome 13"]
cold = ["South biome 5"]
""",
        module,
    )
    assert [cards.rows[p]["climax"] for p in contents(game, "south_warm")] == [6, 11]
    assert [cards.rows[p]["climax"] for p in contents(game, "south_cold")] == [4]
    put(game, "south-biome-8", "south_deck")  # the next card of the south deck, lower still
    change = run(game, events.migrate, row="south", cards=cards)
    assert contents(game, "south_cold") == ["south-biome-8"]
    assert game.state.pieces["south-biome-8"].face_up
    assert contents(game, "south_warm") == ["south-biome-7", "south-biome-13"]
    assert game.state.pieces["south-biome-5"].place == "out_of_game"
    assert "South biome 8 (climax 2) replaces South biome 5 (climax 4)" in (
        change.entry.command.label
    )


def test_d1_colonists_of_a_migrated_new_world_card_go_to_valhalla(tmp_path: Path) -> None:
    """D1 with E2: a New World card replaced by migration takes its colonists to Valhalla."""
    game = build(
        tmp_path,
        """
[rows.south]
warm = ["Shark", "Vinland", "South biome 15"]
[cultures.green]
unassigned = 2
colonists = {Vinland = 3}
""",
    )
    v = view(game)
    lowest = min(v.row(p)["climax"] for p in contents(game, "south_warm"))
    assert v.row("vinland")["climax"] == lowest
    top = contents(game, "south_deck")[-1]
    valhalla = len(contents(game, "valhalla_green"))
    run(game, events.migrate, row="south")
    assert contents(game, "south_warm")[1] == top
    assert game.state.pieces["vinland"].place == "out_of_game"
    assert len(contents(game, "valhalla_green")) == valhalla + 3
    assert contents(game, "vinland", "hunters") == []


def test_d1_no_migration_from_an_empty_deck(tmp_path: Path) -> None:
    game = build(tmp_path, '[rows.north]\nwarm = ["Walrus", "Dogs"]\n')
    for pid in list(contents(game, "north_deck")):
        put(game, pid, "out_of_game")
    before = game.state.digest()
    assert run(game, events.migrate, row="north") is None
    assert game.state.digest() == before


# ---- D2 decimations ---------------------------------------------------------------------
SYPHILIS = """
first_player = "red"
[cultures.red]
religion = "monotheist"
unassigned = 3          # the Alpha and two hunters
elders = {2 = 1, 6 = 1} # a bishop and a mariner
husbands = {Kirima = 1}
[cultures.yellow]
unassigned = 7
husbands = {Meeka = 1}
[cultures.green]
unassigned = 4
elders = {1 = 1}
"""


def test_d2_syphilis_example(tmp_path: Path) -> None:
    """D2 example: the Norse, married to Kirima, lose two hunters (the Alpha stays) and choose
    the bishop; the Thule, married to Meeka, lose four of seven and have no elder to lose."""
    game = build(tmp_path, SYPHILIS)
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.decimate, cause="venereal:yellow,green")
    assert need.value.key == "elder_red" and need.value.options == ["2", "6"]
    run(game, events.decimate, {"elder_red": 2}, cause="venereal:yellow,green")
    assert contents(game, "hunters_red") == ["alpha-red"]
    assert owned(game, "elder-red", "red", "rank2") == 0
    assert owned(game, "elder-red", "red", "rank6") == 1
    assert len(contents(game, "hunters_yellow")) == 3
    assert len(contents(game, "hunters_green")) == 4  # not married: untouched
    assert owned(game, "elder-green", "green", "rank1") == 1


def test_d2_the_syphilis_card_decimates_each_culture_once(tmp_path: Path) -> None:
    """D2 through the event card: two venereal icons side by side, one decimation each;
    then the per-D snowflake (D3) and the auction (D10)."""
    game = build(tmp_path, SYPHILIS.replace('religion = "monotheist"\n', ""))
    put(game, "syphilis", "event_current")
    choices = {
        "elder_red": "6",
        "snowflake_red": "elder:2",
        "bid_red": 0,
        "bid_yellow": 0,
        "bid_green": 0,
    }
    run(game, events.resolve_event, choices)
    assert contents(game, "hunters_red") == ["alpha-red"]
    assert owned(game, "elder-red", "red", "rank6") == 0
    assert len(contents(game, "hunters_yellow")) == 3
    # the per-D snowflake: red pays for the cattle with the shaman rather than discard it
    assert owned(game, "elder-red", "red", "rank2") == 0
    assert "cattle-sheep" in contents(game, "tableau_red")
    assert game.state.pieces["syphilis"].place == "events_out"  # nobody bid


def test_d2_crowd_disease_rounds_losses_up_and_feud(tmp_path: Path) -> None:
    """D2, Icon Reference: half the unassigned hunters, losses rounded up; feud without a chief."""
    game = build(
        tmp_path,
        """
[cultures.red]
unassigned = 11
elders = {1 = 1}
[cultures.yellow]
unassigned = 9
elders = {3 = 1}
[cultures.green]
unassigned = 10
""",
    )
    run(game, events.decimate, cause="crowd:10")
    assert len(contents(game, "hunters_red")) == 5  # 11 - 6
    assert owned(game, "elder-red", "red", "rank1") == 0
    assert len(contents(game, "hunters_yellow")) == 9  # fewer than 10: spared
    assert len(contents(game, "hunters_green")) == 5
    run(game, events.decimate, cause="feud")
    assert len(contents(game, "hunters_red")) == 2  # now without a chief: 5 - 3
    assert (
        len(contents(game, "hunters_yellow")) == 4
        and owned(game, "elder-yellow", "yellow", "rank3") == 0
    )
    assert "alpha-green" in contents(game, "hunters_green")  # the Alpha goes last


# ---- D3 snowflakes ----------------------------------------------------------------------
def test_d3_per_d_snowflake_without_elders_or_energy_discards_the_d_card(tmp_path: Path) -> None:
    """D3 example: a D card, no elders, no energy: the D card is discarded for its Value (B3)."""
    game = build(
        tmp_path,
        """
[cultures.red]
unassigned = 2
energy = 0
tableau = ["Cattle", "Birgitta"]
""",
    )
    v = view(game)
    value = v.row("cattle-sheep")["value_energy"]
    assert value and v.row("cattle-sheep")["hand"] == "D"
    change = run(game, events.snowflake, n="per_d")
    assert game.state.pieces["cattle-sheep"].place == "out_of_game"
    assert len(contents(game, "energy_red")) == value
    assert contents(game, "tableau_red") == ["birgitta"]
    # yellow and green have elders but no D cards: a per-D snowflake costs them nothing
    assert len(contents(game, "energy_yellow")) == 5
    assert "Cattle (discarded)" in change.entry.command.label


def test_d3_saila_reduces_the_snowflake_by_one(tmp_path: Path) -> None:
    """D3: Saila (a Tunit daughter) lowers the loss by one; the others choose what to pay."""
    game = build(tmp_path, 'first_player = "red"\n')
    assert "saila" in contents(game, "tableau_green")
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.snowflake, n=1)
    assert need.value.key == "snowflake_red"
    assert need.value.options[:2] == ["energy", "elder:1"]
    run(game, events.snowflake, {"snowflake_red": "energy", "snowflake_yellow": "elder:3"}, n=1)
    assert len(contents(game, "energy_red")) == 4
    assert owned(game, "elder-yellow", "yellow", "rank3") == 0
    assert len(contents(game, "energy_green")) == 5
    assert all(owned(game, "elder-green", "green", f"rank{r}") == 1 for r in range(1, 7))


def test_d3_a_culture_with_neither_elders_nor_d_cards_is_untouched(tmp_path: Path) -> None:
    game = build(
        tmp_path,
        """
[cultures.red]
unassigned = 3
tableau = ["Birgitta"]
energy = 4
[cultures.yellow]
unassigned = 3
energy = 2
""",
    )
    run(game, events.snowflake, {"snowflake_green": "energy"}, n=2)
    assert len(contents(game, "energy_red")) == 4
    assert len(contents(game, "energy_yellow")) == 2
    assert len(contents(game, "energy_green")) == 4  # Saila: 2 - 1


def test_d3_a_wrong_payment_is_refused(tmp_path: Path) -> None:
    game = build(tmp_path, 'first_player = "red"\n')
    with pytest.raises(ProcedureError, match="elder:9"):
        run(game, events.snowflake, {"snowflake_red": "elder:9", "snowflake_yellow": "energy"}, n=1)


# ---- D4 global cooling ------------------------------------------------------------------
def test_d4_cooling_and_deep_freeze(tmp_path: Path) -> None:
    """D4: the warm card furthest from the deck goes left of all cold cards; with no warm card
    left, the cold card nearest the deck leaves the game (deep freeze), colonists to Valhalla."""
    game = build(
        tmp_path,
        """
[rows.north]
warm = ["Walrus", "Dogs", "Markland"]
cold = ["Caribou"]
[rows.south]
cold = ["Shark", "Vinland"]
[cultures.green]
unassigned = 3
colonists = {Markland = 2}
[cultures.red]
unassigned = 3
colonists = {Vinland = 2}
""",
    )
    run(game, events.cool)
    assert contents(game, "north_warm") == ["walrus", "dogs"]
    assert contents(game, "north_cold") == ["markland", "caribou"]
    assert owned(game, "markland", "green", "hunters") == 2  # colonists follow (E2)
    assert contents(game, "south_cold") == ["shark"]
    assert game.state.pieces["vinland"].place == "out_of_game"
    assert owned(game, "valhalla_red", "red") == 19 - 3
    run(game, events.cool)
    run(game, events.cool)
    assert contents(game, "north_warm") == []
    assert contents(game, "north_cold") == ["walrus", "dogs", "markland", "caribou"]
    assert contents(game, "south_cold") == []
    run(game, events.cool)
    assert contents(game, "north_cold") == ["walrus", "dogs", "markland"]


# ---- D5 die-off, D6 breakage, D8 storm, D7/D9 bans --------------------------------------
def test_d5_die_off_with_forced_dice(tmp_path: Path) -> None:
    """D5: each culture rolls a die in player order and loses an elder of that rank; with
    elders of that rank on several elder cards, the player says whose card."""
    game = build(
        tmp_path,
        """
first_player = "yellow"
[cultures.red]
unassigned = 2
elders = {3 = 1, 4 = 1}
[cultures.yellow]
unassigned = 2
elders = {1 = 1}
missionaries = {red = 1}
[cultures.green]
unassigned = 2
elders = {5 = 1}
""",
    )
    game.table.random.force_faces([1, 6, 3])  # yellow, green, red
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.die_off)
    assert need.value.key == "die_off_yellow" and set(need.value.options) == {"yellow", "red"}
    assert game.table.random.forced_pending == 3  # nothing used up
    change = run(game, events.die_off, {"die_off_yellow": "red"})
    assert owned(game, "elder-red", "yellow", "rank1") == 0  # the missionary on red's rank 1 (I5)
    assert owned(game, "elder-yellow", "yellow", "rank1") == 1
    assert owned(game, "elder-green", "green", "rank5") == 1  # rolled 6: no mariner
    assert owned(game, "elder-red", "red", "rank3") == 0
    assert owned(game, "elder-red", "red", "rank4") == 1
    assert "green rolls 6: no elder of that rank" in change.entry.command.label


def test_d8_storm_takes_one_mariner(tmp_path: Path) -> None:
    """D8: each culture with mariners loses one."""
    game = build(
        tmp_path,
        """
[cultures.red]
unassigned = 2
elders = {6 = 2}
[cultures.yellow]
unassigned = 2
elders = {6 = 1, 4 = 1}
[cultures.green]
unassigned = 2
elders = {4 = 1}
""",
    )
    run(game, events.storm)
    assert owned(game, "elder-red", "red", "rank6") == 1
    assert owned(game, "elder-yellow", "yellow", "rank6") == 0
    assert owned(game, "elder-yellow", "yellow", "rank4") == 1
    assert owned(game, "elder-green", "green", "rank4") == 1


def test_d7_d9_bans_are_counters_for_the_turn(tmp_path: Path) -> None:
    game = build(tmp_path, "turn = 3\n")
    run(game, events.no_maritime)
    run(game, events.no_markland)
    assert game.state.counters["ban.maritime"] == 3
    assert game.state.counters["ban.markland"] == 3


def test_d6_breakage_exchanges_an_iron_import(tmp_path: Path) -> None:
    """D6: a culture with an iron-Value card exchanges it for its disks (B3)."""
    game = build(tmp_path, "[cultures.red]\nunassigned = 2\niron = 0\nivory = 0\n")
    put(game, "crossbow-ship", "tableau_red")
    value = view(game).row("crossbow-ship")
    run(game, events.breakage)
    assert game.state.pieces["crossbow-ship"].place == "out_of_game"
    assert len(contents(game, "iron_red")) == value["value_iron"]
    assert len(contents(game, "ivory_red")) == (value["value_ivory"] or 0)


# ---- D10 auction ------------------------------------------------------------------------
def test_d10_peepeelee_wins_the_tie(tmp_path: Path) -> None:
    """D10 example: Red and Yellow bid one ivory; Yellow has Peepeelee and wins the tie; the
    import goes into Yellow's tableau turned 180°."""
    game = build(tmp_path, 'first_player = "red"\n')
    assert "peepeelee" in contents(game, "tableau_yellow")
    put(game, "iceland-trade-ship", "event_current")
    change = run(game, events.auction, {"bid_red": 1, "bid_yellow": 1, "bid_green": 0})
    card = game.state.pieces["iceland-trade-ship"]
    assert card.place == "tableau_yellow" and card.rotation == 2 and card.face_up
    assert len(contents(game, "ivory_yellow")) == 0
    assert len(contents(game, "ivory_red")) == 1
    assert len(contents(game, "supply_ivory")) == 12 - 3 + 1
    assert "yellow wins Norse Pony for 1 ivory (wins ties)" in change.entry.command.label


def test_d10_married_to_peepeelee_and_player_order(tmp_path: Path) -> None:
    """D10: a husband on Peepeelee wins ties too; without her, ties go in player order."""
    game = build(
        tmp_path,
        'first_player = "green"\n[cultures.red]\nunassigned = 2\nhusbands = {Peepeelee = 1}\nivory = 2\n',
    )
    put(game, "iceland-trade-ship", "event_current")
    run(game, events.auction, {"bid_red": 1, "bid_green": 1, "bid_yellow": 0})
    assert game.state.pieces["iceland-trade-ship"].place == "tableau_red"
    game = build(tmp_path, 'first_player = "green"\n')
    put(game, "iceland-trade-ship", "event_current")
    run(game, events.auction, {"bid_red": 1, "bid_green": 1, "bid_yellow": 0})
    assert game.state.pieces["iceland-trade-ship"].place == "tableau_green"


def test_d10_no_bid_and_bids_beyond_ivory(tmp_path: Path) -> None:
    game = build(tmp_path, "")
    put(game, "iceland-trade-ship", "event_current")
    with pytest.raises(ChoiceNeeded) as need:
        run(game, events.auction)
    assert need.value.key == "bid_red" and need.value.options == ["0", "1"]
    with pytest.raises(ProcedureError):
        run(game, events.auction, {"bid_red": 2, "bid_yellow": 0, "bid_green": 0})
    run(game, events.auction, {"bid_red": 0, "bid_yellow": 0, "bid_green": 0})
    assert game.state.pieces["iceland-trade-ship"].place == "events_out"


def test_d10_an_event_without_an_import_is_not_auctioned(tmp_path: Path) -> None:
    """D10 auctions an event card showing an import; Event 14 (a storm alone) shows none, so
    the auction refuses and the card stays where it is."""
    game = build(tmp_path, 'first_player = "red"\n')
    put(game, "event-14", "event_current")
    with pytest.raises(ProcedureError, match=r"Event 14 shows no import.*\(D10\)"):
        run(game, events.auction, {"bid_red": 1, "bid_yellow": 0, "bid_green": 0})
    assert game.state.pieces["event-14"].place == "event_current"
    assert len(contents(game, "ivory_red")) == 1


def test_d10_cli_auction_of_an_event_without_an_import(tmp_path: Path, capsys) -> None:
    def prepare(game):
        put(game, "event-14", "event_current")

    file = game_file(tmp_path, 'first_player = "red"\n', prepare)
    code, _, err, _ = cli_run(capsys, tmp_path, file, "auction", "--bid", "red=1")
    assert code == 2 and "shows no import" in err and "(D10)" in err
    assert "Traceback" not in err


# ---- the whole event phase --------------------------------------------------------------
def test_reveal_and_resolve_an_event(tmp_path: Path) -> None:
    """A1.1, D: the last event leaves, the top event is turned up, the first player named
    (Council of War asked: green has a war chief), the icons applied, the auction held."""
    game = build(tmp_path, "turn = 2\n")
    put(game, "event-11", "event_current")
    put(game, "iceland-trade-ship", "event_deck")
    choices = {"council": "green", "bid_red": 0, "bid_yellow": 1, "bid_green": 0}
    change = run(game, events.event_phase, choices)
    assert game.state.pieces["event-11"].place == "events_out"
    assert game.state.counters["first_player"] == "green"
    assert game.state.counters["event.revealed"] == 2
    assert game.state.counters["event.resolved"] == 2
    assert game.state.pieces["iceland-trade-ship"].place == "tableau_yellow"
    assert "no culture is decimated (feud)" in change.entry.command.label
    game.table.undo("test")  # one entry, one undo
    assert game.state.pieces["iceland-trade-ship"].place == "event_deck"


# ---- the command line -------------------------------------------------------------------
def test_cli_event(tmp_path: Path, capsys) -> None:
    def prepare(game):
        put(game, "iceland-trade-ship", "event_deck")

    file = game_file(tmp_path, "", prepare)
    code, _, err, out = cli_run(capsys, tmp_path, file, "event", "--bid", "yellow=1")
    assert code == 2 and not out.exists()
    assert (
        "needs answers (nothing was written)" in err and "choice 'council'" in err
    )  # green has a war chief
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "event", "--choice", "council=green", "--bid", "yellow=1"
    )
    assert code == 0, err
    assert "Event: Iceland Trade Ship" in text and "yellow wins Norse Pony" in text
    state = opened(out).state
    assert state.pieces["iceland-trade-ship"].place == "tableau_yellow"
    assert state.pieces["iceland-trade-ship"].rotation == 2
    assert state.counters["first_player"] == "green"


def test_cli_migrate_and_cool(tmp_path: Path, capsys) -> None:
    file = game_file(
        tmp_path, '[rows.south]\nwarm = ["Shark", "South biome 15"]\ncold = ["South biome 5"]\n'
    )
    code, text, err, out = cli_run(capsys, tmp_path, file, "migrate", "--row", "south")
    assert code == 0, err
    assert "replaces South biome 5" in text
    state = opened(out).state
    assert state.pieces["south-biome-5"].place == "out_of_game"
    assert len(state.places["south_cold"].contents) == 1
    code, text, err, out = cli_run(capsys, tmp_path, file, "cool")
    assert code == 0, err
    assert opened(out).state.places["south_cold"].contents == ["south-biome-15", "south-biome-5"]
    code, _, err, out = cli_run(capsys, tmp_path, file, "migrate", "--row", "east")
    assert code == 2 and err.count("\n") == 1 and not out.exists()


def test_cli_decimate(tmp_path: Path, capsys) -> None:
    file = game_file(tmp_path, SYPHILIS)
    code, _, err, out = cli_run(capsys, tmp_path, file, "decimate", "--cause", "venereal:yellow")
    assert (
        code == 2 and "needs answers (nothing was written)" in err and "choice 'elder_red'" in err
    )
    assert not out.exists()
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "decimate", "--cause", "venereal:yellow", "--choice", "elder_red=2"
    )
    assert code == 0, err
    state = opened(out).state
    assert state.places["hunters_red"].contents == ["alpha-red"]
    assert "2 of 3 unassigned hunters die and the rank-2 elder" in text


def test_cli_die_off_with_dice(tmp_path: Path, capsys) -> None:
    file = game_file(tmp_path, 'first_player = "red"\n')
    code, text, err, out = cli_run(capsys, tmp_path, file, "die-off", "--dice", "3,5,1")
    assert code == 0, err
    state = opened(out).state
    assert state.contents("elder-red", "rank3") == []
    assert state.contents("elder-yellow", "rank5") == []
    assert state.contents("elder-green", "rank1") == []
    assert "red rolls 3" in text


def test_cli_auction(tmp_path: Path, capsys) -> None:
    def prepare(game):
        put(game, "iceland-trade-ship", "event_current")

    file = game_file(tmp_path, 'first_player = "red"\n', prepare)
    code, _, err, out = cli_run(capsys, tmp_path, file, "auction")
    assert code == 2 and "choice 'bid_red'" in err and "--bid red=VALUE" in err
    code, text, err, out = cli_run(
        capsys, tmp_path, file, "auction", "--bid", "red=1", "--bid", "yellow=1"
    )
    assert code == 0, err
    assert opened(out).state.pieces["iceland-trade-ship"].place == "tableau_yellow"
    code, _, err, _ = cli_run(capsys, tmp_path, file, "auction", "--bid", "red=5")
    assert code == 2 and "'5' is not one of 0, 1" in err
