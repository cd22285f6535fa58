"""Greenland's deck as the deck editor changes it: a value entered gets a source in the
``provenance`` column and is no longer a placeholder; marked again, it is one."""

from __future__ import annotations

from tabletop.modules import find_module
from tabletop.modules.deck_draft import DeckDraft


def test_b1_a_climax_entered_is_no_longer_a_placeholder_and_can_be_marked_again() -> None:
    """B1: a biome's climax (0 to 15). Walrus's is a placeholder in the shipped deck."""
    draft = DeckDraft.open(find_module("greenland"))
    i = next(i for i in range(len(draft.cells)) if draft.card_id(i) == "walrus")
    assert "climax" in draft.placeholders(i)
    draft.set(i, "climax", "9")
    for column, text in draft.placeholder_cells(i, "climax", False, "printed card").items():
        draft.set(i, column, text)
    assert "climax" not in draft.placeholders(i)
    assert "climax=printed card" in draft.cells[i]["provenance"]
    assert "name=S001 G8" in draft.cells[i]["provenance"]  # the other sources stay
    (card,) = draft.diff().cards
    assert card.placeholders == [("climax", True, False)]
    for column, text in draft.placeholder_cells(i, "climax", True, "").items():
        draft.set(i, column, text)
    assert "climax" in draft.placeholders(i)
    assert draft.placeholder_cells(i, "provenance", False, "x") == {}  # not a printed value
    assert draft.problems() == []


def test_the_abilities_vocabulary_is_offered_and_checked() -> None:
    """B2, G2, G3: the abilities the rules assistant reads; a word outside them is a problem."""
    draft = DeckDraft.open(find_module("greenland"))
    words = dict(draft.vocabulary("abilities"))
    assert "reroll F TYPE" in words and "sled" in words
    assert draft.vocabulary("climax") == []
    draft.set(0, "abilities", "fly")
    assert (0, "abilities", "'fly' is not an ability of the vocabulary (see resources/greenland/README.md)") in draft.problems()  # fmt: skip
