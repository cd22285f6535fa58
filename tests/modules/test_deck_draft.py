"""A deck being edited (tabletop/modules/deck_draft.py): read as the CSV holds it, written back
unchanged, checked cell by cell, and saved only through the import's checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabletop.modules import ModuleError, find_module, resources_dir
from tabletop.modules.deck_draft import DeckDraft, describe
from tabletop.modules.revisions import revisions, with_revision


@pytest.fixture
def proto(tmp_path: Path):  # noqa: ANN201
    folder = tmp_path / "proto"
    shutil.copytree(resources_dir() / "proto", folder)
    return find_module(str(folder))


@pytest.mark.parametrize("module_id", ["proto", "greenland"])
def test_an_untouched_draft_writes_the_file_it_read(module_id: str) -> None:
    module = find_module(module_id)
    draft = DeckDraft.open(module)
    deck = module.decks[draft.deck_id]
    assert draft.csv_text() == deck.path.read_bytes().decode("utf-8")  # line ends too
    assert draft.problems() == []
    assert draft.diff().cards == []


def test_a_cell_out_of_range_is_named_and_refused_at_saving(proto) -> None:  # noqa: ANN001
    draft = DeckDraft.open(proto)
    draft.set(0, "cost", "12")
    assert draft.error(0, "cost") == "12 is above the largest allowed, 9"
    assert (0, "cost", "12 is above the largest allowed, 9") in draft.problems()
    assert describe(draft.column("cost")) == "a whole number, from 0 to 9"
    before = revisions(proto)
    card = draft.card_id(0)
    with pytest.raises(ModuleError) as refused:
        draft.save("dear")
    assert f"card {card!r} (Harvest): column 'cost': 12 is above the largest allowed" in str(
        refused.value
    )
    assert revisions(proto) == before
    assert draft.cells[0]["cost"] == "12"  # the edit is kept


def test_a_saved_draft_is_a_revision_with_only_that_change(proto) -> None:  # noqa: ANN001
    draft = DeckDraft.open(proto)
    card = draft.card_id(0)
    draft.set(0, "cost", "3")
    changed = draft.diff()
    assert [(c.id, c.values) for c in changed.cards] == [(card, [("cost", 1, 3)])]
    target = draft.save("dear")
    assert target.name == "dear.csv" and draft.revision == "dear"
    old, new = proto.decks["cards"], with_revision(proto, "dear").decks["cards"]
    assert new.card(card)["cost"] == 3
    assert [c for c in new.cards if c["id"] != card] == [c for c in old.cards if c["id"] != card]
    with pytest.raises(ModuleError, match="exists already"):
        draft.save("dear")
    with pytest.raises(ModuleError, match="letters, digits"):
        draft.save("no good")
