"""Victory points and the game's end (J, J1), hand sizes (B2) and exchanges (B3), on positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_assist.greenland import hands, scoring
from rules_assist.greenland.hands import HandSize, hand_size
from rules_assist.procedures import ChoiceNeeded, ProcedureError
from tabletop.core import actions
from tabletop.modules import find_module, new_game

from .tables import build, cli, cli_run, contents, game_file, opened, put, run, view

# J's example. South Greenland lies all on the cold side, Vinland with it. The Thule
# representative is a missionary of the position on the Tunit elder card; the test makes
# sure he sits on rank 1, where the emissary action (I5) puts him (older positions put
# missionaries on rank 2).
J_EXAMPLE = """
variant = "standard"
turn = 10
phase = "elders"
[rows.south]
warm = []
cold = ["South biome 5", "Vinland"]
[cultures.red]
religion = "polytheist"
unassigned = 4
elders = {1 = 1}
colonists = {Vinland = 3}
trophies = ["Shark"]
ivory = 3
iron = 3
[cultures.yellow]
religion = "monotheist"
unassigned = 11
elders = {2 = 2, 3 = 1, 6 = 1}
missionaries = {green = 1}
ivory = 2
iron = 2
[cultures.green]
religion = "monotheist"
unassigned = 6
elders = {1 = 1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1}
ivory = 2
iron = 5
"""


def _representative_to_rank_1(game) -> None:  # noqa: ANN001
    cube = next(
        pid for pid in contents(game, "elder-green") if game.state.pieces[pid].owner == "yellow"
    )
    if game.state.pieces[cube].spot != "rank1":
        game.table.submit(actions.move(game.state, cube, "elder-green", spot="rank1"), "test")


def test_j_example_scores_16_26_and_24(tmp_path: Path) -> None:
    """J example: Norse 5 trophy + 11 population; Thule 6 + 16 + 4; Tunit 12 + 12."""
    game = build(tmp_path, J_EXAMPLE)
    _representative_to_rank_1(game)
    points = scoring.score(view(game))
    assert points["red"] == {
        "trophy": 5,
        "resource": 0,  # a polytheist's ivory and iron are worth nothing
        "population": 11,  # 4 unassigned + 1 elder + 3 cold Vinland colonists counted twice
        "democratic": 0,
        "total": 16,
    }
    assert points["yellow"] == {
        "trophy": 0,
        "resource": 6,
        "population": 16,  # 11 unassigned + 5 elders, the representative among them
        "democratic": 4,
        "total": 26,
    }
    assert points["green"] == {
        "trophy": 0,
        "resource": 12,
        "population": 12,
        "democratic": 0,
        "total": 24,
    }


def test_warm_colonists_count_once_and_a_missionary_on_a_polytheist_card_scores_nothing(
    tmp_path: Path,
) -> None:
    position = J_EXAMPLE.replace('cold = ["South biome 5", "Vinland"]', 'cold = ["South biome 5"]')
    position = position.replace("warm = []", 'warm = ["Vinland"]')
    position = position.replace(
        'religion = "monotheist"\nunassigned = 6', 'religion = "polytheist"\nunassigned = 6'
    )
    game = build(tmp_path, position)
    points = scoring.score(view(game))
    assert points["red"]["population"] == 8
    assert points["yellow"]["democratic"] == 0  # on a polytheist card the cube is a missionary
    assert points["green"]["resource"] == 0 and points["green"]["trophy"] == 0


def test_monotheists_count_card_values_as_exchanged(tmp_path: Path) -> None:
    """J with B3: a tableau card with an ivory Value counts as the ivory; a raided D card does not."""
    game = build(
        tmp_path,
        """
[cultures.yellow]
religion = "monotheist"
unassigned = 3
ivory = 0
iron = 1
tableau = ["Peepeelee", "Gyrfalcon"]
""",
    )
    assert scoring.score(view(game))["yellow"]["resource"] == 2 + 1
    game.table.submit(
        actions.set_property(game.state, "gyrfalcon", "raided", {"by": "red", "turn": 1}), "test"
    )
    assert scoring.score(view(game))["yellow"]["resource"] == 2


def test_j1_an_extinct_culture_scores_nothing(tmp_path: Path) -> None:
    game = build(
        tmp_path,
        """
[cultures.green]
religion = "monotheist"
alpha = "valhalla"
unassigned = 0
elders = {}
ivory = 4
iron = 4
""",
    )
    points = scoring.score(view(game))
    assert points["green"] == {
        "trophy": 0,
        "resource": 0,
        "population": 0,
        "democratic": 0,
        "total": 0,
        "extinct": True,
    }
    assert "extinct" not in points["red"]


def _empty_event_deck(game) -> None:  # noqa: ANN001
    for pid in list(contents(game, "event_deck")):
        put(game, pid, "events_out")


def test_j_the_game_ends_at_the_end_of_the_last_events_turn(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "hunt"\nturn = 10')
    assert scoring.game_over(view(game)) is None
    _empty_event_deck(game)
    assert scoring.game_over(view(game)) is None  # the last turn is still being played
    game.table.submit(actions.set_counter(game.state, "phase", "elders"), "test")
    assert scoring.game_over(view(game)) is None
    game.table.submit(
        actions.set_counter(game.state, "phase.done", ["red", "yellow", "green"]), "test"
    )
    assert scoring.game_over(view(game)) == "the event deck is used up"
    rows = scoring.score_table(game.state, find_module("greenland"))
    assert all(row["final"] for row in rows)
    assert [row["total"] for row in rows] == sorted((row["total"] for row in rows), reverse=True)


def test_j_the_game_ends_when_no_cards_remain_in_the_rows(tmp_path: Path) -> None:
    game = build(tmp_path, 'phase = "elders"')
    for row in ("north", "south"):
        for side in ("warm", "cold"):
            for pid in list(contents(game, f"{row}_{side}")):
                put(game, pid, "out_of_game")
    game.table.submit(actions.set_counter(game.state, "game_over", 3), "test")
    assert scoring.game_over(view(game)) == (
        "the game ended in turn 3 (no cards remain in either row)"
    )


# ---- B2 hand size -----------------------------------------------------------------------
def test_b2_example_hand_size_four(tmp_path: Path) -> None:
    """B2 example: Peepeelee (+1), a husband on Birgitta (+2), a Sage (rank 3): four cards.

    The shipped deck reads Peepeelee's +1 as room for D cards only (S000).
    """
    game = build(
        tmp_path,
        """
[cultures.yellow]
unassigned = 3
elders = {3 = 1}
husbands = {Birgitta = 1}
""",
    )
    size = hand_size(view(game), "yellow")
    assert size == HandSize(general=3, d_only=1) and size.total == 4
    assert hand_size(view(game), "green") == HandSize(1, 0)  # the starting artisan alone


CROWDED = """
[cultures.yellow]
unassigned = 3
elders = {3 = 1}
hand = ["Slit Goggles", "Toggle-head Harpoon", "Dogs"]
"""


def test_b2_discard_down_asks_and_keeps_what_fits(tmp_path: Path) -> None:
    """Room for one card and one D card: of two inventions and Dogs, an invention must go."""
    game = build(tmp_path, CROWDED)
    with pytest.raises(ChoiceNeeded) as need:
        run(game, hands.discard_down, colour="yellow")
    assert need.value.key == "discard_yellow"
    assert set(need.value.options) == {"slit-goggles", "toggle-head-harpoon", "dogs"}
    assert need.value.question.kind == "subset" and need.value.question.low == 1
    with pytest.raises(ProcedureError, match="do not fit"):
        run(game, hands.discard_down, {"discard_yellow": "Dogs"}, colour="yellow")
    with pytest.raises(ProcedureError, match="exactly 1"):
        run(
            game,
            hands.discard_down,
            {"discard_yellow": "Dogs, Slit Goggles"},
            colour="yellow",
        )
    change = run(game, hands.discard_down, {"discard_yellow": "slit goggles"}, colour="yellow")
    assert contents(game, "hand_yellow") == ["toggle-head-harpoon", "dogs"]
    assert game.state.pieces["slit-goggles"].place == "out_of_game"
    assert "Slit Goggles" in change.entry.command.label
    assert run(game, hands.discard_down, colour="yellow") is None  # it fits now


def test_b3_exchange_respects_the_woodpile_and_leaves_the_game(tmp_path: Path) -> None:
    game = build(tmp_path, "[cultures.red]\nunassigned = 3\nenergy = 8")
    change = run(game, hands.exchange, colour="red", card="Cattle")
    assert game.state.pieces["cattle-sheep"].place == "out_of_game"
    assert len(contents(game, "energy_red")) == 8
    assert "rots" in change.entry.command.label
    with pytest.raises(ProcedureError, match="no Value"):
        run(game, hands.exchange, colour="red", card="Birgitta")
    with pytest.raises(ProcedureError, match="not in red's tableau"):
        run(game, hands.exchange, colour="red", card="Shark")


def test_b3_a_raided_d_card_cannot_be_exchanged(tmp_path: Path) -> None:
    game = build(tmp_path, "[cultures.red]\nunassigned = 3\nenergy = 2")
    game.table.submit(
        actions.set_property(game.state, "cattle-sheep", "raided", {"by": "yellow", "turn": 1}),
        "test",
    )
    with pytest.raises(ProcedureError, match="livestock raided"):
        run(game, hands.exchange, colour="red", card="Cattle")


def test_b3_falconers_ransom_makes_a_falcon_worth_three_ivory(tmp_path: Path) -> None:
    """B3 example: while Falconer's Ransom is the event, a domestic falcon gives 3 ivory."""
    game = build(tmp_path, '[cultures.yellow]\nunassigned = 3\nivory = 0\ntableau = ["Gyrfalcon"]')
    put(game, "falconers-ransom", "event_current")
    run(game, hands.exchange, colour="yellow", card="Gyrfalcon")
    assert len(contents(game, "ivory_yellow")) == 3


# ---- the command line -------------------------------------------------------------------
def test_score_cli_json_and_text(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = game_file(tmp_path, J_EXAMPLE, _representative_to_rank_1)
    code, out, err = cli(capsys, "score", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["red"] == {
        "trophy": 5,
        "resource": 0,
        "population": 11,
        "democratic": 0,
        "total": 16,
    }
    assert {c: d["total"] for c, d in data.items()} == {"red": 16, "yellow": 26, "green": 24}
    code, out, err = cli(capsys, "score", str(path))
    assert code == 0, err
    assert "projected score" in out and "yellow (Thule)" in out and "26" in out


def test_score_cli_errors_are_one_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    code, out, err = cli(capsys, "score", str(tmp_path / "missing.jsonl"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    proto = tmp_path / "proto.jsonl"
    new_game(find_module("proto"), seed=1, path=str(proto)).close()
    code, out, err = cli(capsys, "score", str(proto))
    assert code == 2 and "no scoring" in err and len(err.strip().splitlines()) == 1


def test_discard_and_exchange_cli(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = game_file(tmp_path, CROWDED)
    code, out, err, result = cli_run(capsys, tmp_path, path, "discard", "--seat", "yellow")
    assert code == 2 and "discard_yellow" in err and not result.exists()
    code, out, err, result = cli_run(
        capsys,
        tmp_path,
        path,
        "discard",
        "--seat",
        "yellow",
        "--choice",
        "discard_yellow=Toggle-head Harpoon",
    )
    assert code == 0, err
    assert opened(result).state.pieces["toggle-head-harpoon"].place == "out_of_game"
    code, out, err, result = cli_run(
        capsys, tmp_path, path, "exchange", "--seat", "red", "--card", "cattle"
    )
    assert code == 0, err
    assert "exchanges Cattle" in out
    assert opened(result).state.pieces["cattle-sheep"].place == "out_of_game"
