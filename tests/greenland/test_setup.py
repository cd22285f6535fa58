"""Section C: every variant's setup, cube by cube and card by card."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_assist.greenland.deck import Cards
from rules_assist.greenland.reading import read
from tabletop.modules import SetupError, new_game

from .tables import cli, opened


def colour_counts(state, colour: str) -> Counter:
    """Where a colour's cubes are: by place (a card's regions count under the card's place kind)."""
    counts: Counter = Counter()
    for piece in state.pieces.values():
        if piece.owner == colour and piece.kind in ("cube", "alpha"):
            counts[(piece.kind, piece.place, piece.spot)] += 1
    return counts


def cubes(state, colour: str) -> tuple[int, int]:
    small = sum(1 for p in state.pieces.values() if p.owner == colour and p.kind == "cube")
    big = sum(1 for p in state.pieces.values() if p.owner == colour and p.kind == "alpha")
    return small, big


@pytest.mark.parametrize("variant", ["standard", "survivalist", "solitaire", "beginners"])
def test_three_culture_setup_c6_c7(greenland, variant: str) -> None:
    game = new_game(greenland, variant=variant, seed=5)
    state = game.state
    reading = read(state, Cards.of(greenland))
    for colour in ("red", "yellow", "green"):
        assert cubes(state, colour) == (18, 1), "18 small cubes and the Alpha, always (B4)"
        culture = reading["cultures"][colour]
        assert (
            culture["unassigned"] == 6 and culture["alpha"] == "unassigned"
        )  # the Alpha and 5 (C6)
        assert culture["elders"] == {str(r): 1 for r in range(1, 7)}  # one on each rank (C6)
        assert (culture["energy"], culture["ivory"], culture["iron"]) == (5, 1, 1)  # C7
        assert culture["religion"] == "polytheist"  # C5
    colony = 0 if variant == "beginners" else 5
    assert reading["cultures"]["green"]["colonists"]["Markland"] == colony  # the Tunit colony (C6)
    assert reading["cultures"]["green"]["valhalla"] == 7 - colony
    assert reading["cultures"]["red"]["valhalla"] == 7


def test_standard_rows_events_and_tableaus(greenland) -> None:
    game = new_game(greenland, variant="standard", seed=5, options={"norse_animal": "sheep"})
    reading = read(game.state, Cards.of(greenland))
    for row, deck_size, first in (("north", 14 - 6, "Markland"), ("south", 15 - 6, "Vinland")):
        cards = reading["rows"][row]
        assert (
            len(cards["warm"]) == 7 and cards["cold"] == []
        )  # six biomes and the New World card (C3, C4)
        assert cards["warm"][0] == {
            "name": first,
            "climax": cards["warm"][0]["climax"],
            "side": "peaceful",
        }
        assert cards["deck"] == deck_size
    assert reading["events"] == {"deck": 10, "current": None, "out": 0}  # ten events (C1)
    assert (
        len(game.state.places["out_of_game"].contents) == 6 + 1
    )  # six events and the other Norse animal
    assert reading["cultures"]["red"]["tableau"] == ["Birgitta", "Norse daughter 2", "Sheep"]  # C5
    assert (
        len(reading["cultures"]["yellow"]["tableau"]) == 3
        and len(reading["cultures"]["green"]["tableau"]) == 3
    )
    assert game.state.counters["turn"] == 1 and game.state.counters["phase"] == "event"
    assert not any(
        p.face_up
        for pid in ("north_deck", "south_deck", "event_deck")
        for p in map(game.state.pieces.get, game.state.places[pid].contents)
    )


def test_two_player_c1(greenland) -> None:
    game = new_game(greenland, variant="two-player", seats="red,green", seed=8)
    reading = read(game.state, Cards.of(greenland))
    assert set(reading["cultures"]) == {"red", "green"}
    for row in ("north", "south"):
        assert len(reading["rows"][row]["warm"]) == 6  # five biomes and the New World card
    state = game.state
    out = {state.pieces[p].props["card"] for p in state.places["out_of_game"].contents}
    assert {
        "elder-yellow-polytheist",
        "peepeelee",
        "kirima",
        "thule-daughter-3",
    } <= out  # Yellow's cards unused
    with pytest.raises(SetupError, match=r"Greenland \(Two players\) seats 2 players, not 3"):
        new_game(greenland, variant="two-player", seats="red,yellow,green", seed=1)


def test_c1_two_random_cultures_by_the_seed(greenland) -> None:
    """C1: without seats named, the two-player game picks two of the three cultures at random,
    the game's seed deciding (the same seed, the same two); every pair comes up."""
    drawn = {}
    for seed in range(12):
        for seats in (None, "2"):
            game = new_game(greenland, variant="two-player", seats=seats, seed=seed)
            chosen = tuple(s.id for s in game.header.seats)
            assert drawn.setdefault(seed, chosen) == chosen  # the seed decides, not the count
            assert len(chosen) == 2 and list(chosen) == sorted(chosen, key="red yellow green".index)
            reading = read(game.state, Cards.of(greenland))
            assert set(reading["cultures"]) == set(chosen)
            out = {p for p in game.state.places["out_of_game"].contents}
            third = ({"red", "yellow", "green"} - set(chosen)).pop()
            assert f"elder-{third}" in out  # the third culture's cards are not used
    assert set(drawn.values()) == {("red", "yellow"), ("red", "green"), ("yellow", "green")}


def test_beginners_c2_removes_advanced_cards(greenland) -> None:
    game = new_game(greenland, variant="beginners", seed=4)
    state = game.state
    cards = Cards.of(greenland)
    in_play = set()
    for place in (
        "north_deck",
        "south_deck",
        "north_warm",
        "south_warm",
        "tableau_red",
        "tableau_yellow",
        "tableau_green",
    ):
        in_play |= {state.pieces[p].props["card"] for p in state.places[place].contents}
    rows = [cards.rows[r] for r in in_play]
    assert not [r for r in rows if r["type"] in ("daughter", "norse_animal", "new_world")]
    assert not [r for r in rows if r.get("hand")]  # no D or I cards
    reading = read(state, cards)
    assert all(len(reading["rows"][r]["warm"]) == 6 for r in ("north", "south"))


def test_solitaire_uses_all_sixteen_events(greenland) -> None:
    game = new_game(greenland, variant="solitaire", seed=2)
    assert len(game.state.places["event_deck"].contents) == 16


def test_norse_animal_choice_and_colours(greenland) -> None:
    for animal in ("cattle", "sheep", "pony", "goat"):
        game = new_game(greenland, seed=1, options={"norse_animal": animal})
        tableau = read(game.state, Cards.of(greenland))["cultures"]["red"]["tableau"]
        assert tableau[-1].lower() == animal
    with pytest.raises(SetupError, match="not one of cattle, sheep, pony, goat"):
        new_game(greenland, options={"norse_animal": "reindeer"})
    game = new_game(
        greenland, seats="red=Ann,yellow=Bo,green=Cy", seed=3, options={"colours": "random"}
    )
    assert sorted(s.name for s in game.header.seats) == ["Ann", "Bo", "Cy"]
    assert game.header.extra["options"]["colours"] == "random"


def test_same_seed_same_table(greenland) -> None:
    assert new_game(greenland, seed=9).state.digest() == new_game(greenland, seed=9).state.digest()
    assert new_game(greenland, seed=9).state.digest() != new_game(greenland, seed=10).state.digest()


def test_c5_c7_a_game_set_up_again_is_a_table_of_its_own(greenland) -> None:
    """The cards, cubes, disks and dice put out and the starting cubes and disks (C5 to C7) do
    not depend on the seed: a process builds them the first time, builds and keeps them the
    second, and lays out what it kept from then on. Each game set up so is the same table, with
    the same log, untouched by what was done in the others, and its log replays to it."""
    from tabletop.core import actions
    from tabletop.modules import load_module

    def logged(game) -> list[dict]:
        return [{k: v for k, v in e.to_dict().items() if k != "t"} for e in game.table.entries]

    module = load_module(greenland.folder)  # loaded anew: no game of it set up yet
    games = [new_game(module, seed=4) for _ in range(2)]
    fresh = games[0].state.digest()
    for game in games:
        state = game.state
        game.table.submit(actions.move(state, "cube-red-1", "elder-red", spot="rank3"), "red")
        game.table.submit(actions.set_property(state, "kirima", "raided", {"turn": 1}), "red")
    again = new_game(module, seed=4)
    assert again.state.digest() == fresh != games[0].state.digest()
    assert again.state.digest() == new_game(greenland, seed=4).state.digest()
    assert again.state.pieces["cube-red-1"].place == "hunters_red"
    assert "raided" not in again.state.pieces["kirima"].props
    assert again.table.state_at(again.table.seq).digest() == fresh
    assert (
        logged(again) == logged(games[1])[: again.table.seq] == logged(games[0])[: again.table.seq]
    )
    for game in games:
        game.table.submit(actions.move(game.state, "cube-red-2", "elder-red", spot="rank3"), "red")
    assert again.state.digest() == fresh


def test_c5_c7_players_named_anew_find_their_own_names_on_a_table_set_up_again(greenland) -> None:
    """The entries a process keeps for the same setup copy the places they fill as they were
    left, and a seat's places are labelled with its player's name ("Ann unassigned hunters"):
    games for the same cultures played by other people get places in their own names."""
    from tabletop.modules import load_module

    module = load_module(greenland.folder)  # loaded anew: no game of it set up yet
    named = [new_game(module, seats="red=Ann,yellow=Bo,green=Cy", seed=4) for _ in range(3)]
    other = new_game(module, seats="red=Dee,yellow=Ed,green=Fi", seed=4)
    label = {game: game.state.places["hunters_red"].label for game in (*named, other)}
    assert [label[game] for game in named] == ["Ann unassigned hunters"] * 3
    assert label[other] == "Dee unassigned hunters"
    alone = new_game(load_module(greenland.folder), seats="red=Dee,yellow=Ed,green=Fi", seed=4)
    assert other.state.digest() == alone.state.digest()
    assert not any("Ann" in (place.label or "") for place in other.state.places.values())


def test_header_records_the_deck_revision(greenland, tmp_path) -> None:
    game = new_game(greenland, seed=1, path=tmp_path / "g.jsonl")
    game.close()
    deck = greenland.decks["greenland"]
    assert game.header.decks == [
        {"id": "greenland", "file": "decks/reconstructed.csv", "sha256": deck.sha256}
    ]
    counters = game.state.counters
    assert counters["deck.name"] == "reconstructed" and counters["deck.sha256"] == deck.sha256
    assert counters["deck.placeholders"] > 0


def test_a_card_dropped_on_an_elder_card_rank(greenland) -> None:
    """The elder card carries six ranks: a cube put there is an elder (E3)."""
    from tabletop.core import actions

    game = new_game(greenland, seed=1)
    state = game.state
    game.table.submit(actions.move(state, "cube-red-1", "elder-red", spot="rank3"), "red")
    assert read(state, Cards.of(greenland))["cultures"]["red"]["elders"]["3"] == 2
    game.table.submit(actions.move(state, "cube-red-2", "kirima", spot="exogamy"), "red")
    assert read(state, Cards.of(greenland))["cultures"]["red"]["husbands"] == {"Kirima": 1}


def test_c1_cli_two_player_game_draws_or_takes_the_seats(tmp_path, capsys) -> None:
    """C1 on the command line: ``--variant two-player`` alone or with ``--seats 2`` draws two
    cultures by the seed (the same two for the same seed); named seats are kept; three seats
    are one clear error."""
    runs = {}
    for n, extra in enumerate(([], ["--seats", "2"])):
        out = tmp_path / f"two-{n}.jsonl"
        argv = ["new", "greenland", "--variant", "two-player", "--seed", "6", "-o", str(out)]
        code, text, err = cli(capsys, *argv, *extra)
        assert code == 0, err
        assert "variant two-player (seed 6)" in text
        runs[n] = [s.id for s in opened(out).header.seats]
    assert runs[0] == runs[1] == ["yellow", "green"]  # seed 6 draws the Thule and the Tunit
    out = tmp_path / "named.jsonl"
    argv = ["new", "greenland", "--variant", "two-player", "--seed", "6", "-o", str(out)]
    code, text, err = cli(capsys, *argv, "--seats", "red,yellow")
    assert code == 0 and [s.id for s in opened(out).header.seats] == ["red", "yellow"], err
    out = tmp_path / "three.jsonl"
    argv = ["new", "greenland", "--variant", "two-player", "-o", str(out), "--seats", "3"]
    code, _, err = cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and "seats 2 players, not 3" in err
    assert not out.exists()
