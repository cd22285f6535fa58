"""Real gestures on the table window: press, move with the button held, release; keys; hover.

Every test drives the viewport with mouse and key events where a player would
put the pointer, then asserts on the model (the table state, the log, the
undo stack) and on what is drawn.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QMenu

Shift = Qt.KeyboardModifier.ShiftModifier
Ctrl = Qt.KeyboardModifier.ControlModifier


def _menu_texts(menu: QMenu) -> list[str]:
    texts = []
    for action in menu.actions():
        if action.menu() is not None:
            texts.append(action.text())
            texts += ["  " + t for t in _menu_texts(action.menu())]
        elif not action.isSeparator() or action.text():
            texts.append(action.text())
    return texts


# ---- moving pieces ----------------------------------------------------------------


def test_drag_a_cube_onto_a_cards_region(table, boards_module):
    table.start(boards_module)
    assert table.piece_pixels("cube-red-1") >= 12  # big enough to hit
    before = len(table.live.entries)
    table.drag(table.piece_point("cube-red-1"), table.spot_point("elder-red", "rank3"))
    cube = table.state.pieces["cube-red-1"]
    assert (cube.place, cube.spot) == ("elder-red", "rank3"), table.status()
    assert len(table.live.entries) == before + 1
    assert table.live.entries[-1].actor == "red"
    # the item is drawn where the layout puts it: inside rank 3 of the card
    item = table.scene.pieces["cube-red-1"]
    assert (item.pos().x(), item.pos().y()) == table.layout.piece_pos("cube-red-1")
    rank3 = table.layout.spots("elder-red")["rank3"]
    centre = item.sceneBoundingRect().center()
    assert rank3.contains(centre.x(), centre.y())


def test_dragging_a_cube_lights_the_rank_under_the_cursor_not_the_row(table, boards_module):
    table.start(boards_module)
    card = table.state.pieces["elder-red"]
    start = table.piece_point("cube-red-1")
    rank3 = table.spot_point("elder-red", "rank3")
    table.press(start)
    for t in (0.25, 0.5, 0.75, 1.0):
        table.move(
            QPoint(
                round(start.x() + (rank3.x() - start.x()) * t),
                round(start.y() + (rank3.y() - start.y()) * t),
            )
        )
    QApplication.processEvents()
    # the lit target is that rank of that card; the place the card lies in is not lit
    assert table.scene.lit() == ("elder-red", "rank3")
    assert table.scene.pieces["elder-red"].highlight_spot == "rank3"
    assert not table.scene.places[card.place].highlighted
    # one step to the next rank moves the light with the cursor
    rank1 = table.spot_point("elder-red", "rank1")
    table.move(rank1)
    assert table.scene.lit() == ("elder-red", "rank1")
    table.move(rank3)
    before = len(table.live.entries)
    table.release(rank3)
    QApplication.processEvents()
    assert table.scene.lit() is None
    assert not table.scene.pieces["elder-red"].highlighted
    cube = table.state.pieces["cube-red-1"]
    assert (cube.place, cube.spot) == ("elder-red", "rank3"), table.status()
    assert len(table.live.entries) == before + 1
    entry = table.live.entries[-1]
    assert entry.actor == "red"
    assert "rank3" in str(entry.command.to_dict()) and "cube-red-1" in str(entry.command.to_dict())


def test_a_card_carries_what_lies_on_it(table, boards_module):
    table.start(boards_module)
    table.drag(table.piece_point("cube-red-1"), table.spot_point("elder-red", "rank3"))
    table.drag(table.piece_point("cube-red-2"), table.spot_point("elder-red", "rank1"))
    cube_before = table.scene.pieces["cube-red-1"].scenePos()
    entries = len(table.live.entries)
    # pick the card up by its title, away from the cubes, and put it in Blue's reserve
    table.drag(
        table.place_point("elder-red", 0.5, 0.12), table.place_point("reserve_blue", 0.5, 0.7)
    )
    state = table.state
    assert state.pieces["elder-red"].place == "reserve_blue", table.status()
    assert len(table.live.entries) == entries + 1
    assert (state.pieces["cube-red-1"].place, state.pieces["cube-red-1"].spot) == (
        "elder-red",
        "rank3",
    )
    assert state.pieces["cube-red-2"].spot == "rank1"
    # and on screen the cubes went along, still on the card
    card = table.scene.pieces["elder-red"].sceneBoundingRect()
    for pid in ("cube-red-1", "cube-red-2"):
        item = table.scene.pieces[pid]
        assert (item.pos().x(), item.pos().y()) == table.layout.piece_pos(pid)
        assert card.contains(item.sceneBoundingRect().center())
        assert item.zValue() > table.scene.pieces["elder-red"].zValue()
    assert table.scene.pieces["cube-red-1"].scenePos() != cube_before


def test_draw_the_top_card_into_a_hand_and_onto_the_table(table, proto_module):
    table.start(proto_module, seats=3)
    deck = list(table.state.places["deck"].contents)
    top, second = deck[-1], deck[-2]
    hand = list(table.state.places["hand_red"].contents)
    # pressing anywhere on the deck picks up its top card
    table.drag(table.place_point("deck", 0.4, 0.6), table.place_point("hand_red", 0.9, 0.5))
    state = table.state
    assert state.places["deck"].contents == deck[:-1], table.status()
    assert state.places["hand_red"].contents == [*hand, top]
    # face down, but in Red's own hand: Red (at the screen) sees it, nobody else does
    assert table.state.pieces[top].face_up is False
    assert table.scene.pieces[top].visible_face is True

    # the next one onto the free table area: x, y in millimetres from the area's corner
    rect = table.layout.place_rect("table")
    drop = table.place_point("table", 0.5, 0.4)
    table.drag(table.piece_point(second), drop)
    piece = table.state.pieces[second]
    assert piece.place == "table", table.status()
    assert table.state.places["deck"].contents == deck[:-2]
    scene_drop = table.view.mapToScene(drop)
    w, h = table.scene.size_of(second)
    # the card is centred where it was dropped (to within a pixel of the view)
    tolerance = 2 / table.view.zoom / 4 + 0.1
    assert abs(piece.x - ((scene_drop.x() - rect.x) / 4 - w / 8)) <= tolerance
    assert abs(piece.y - ((scene_drop.y() - rect.y) / 4 - h / 8)) <= tolerance
    item = table.scene.pieces[second]
    assert (item.pos().x(), item.pos().y()) == table.layout.piece_pos(second)


def test_a_full_slot_refuses_the_drop_and_the_card_snaps_back(table, proto_module):
    table.start(proto_module, seats=3)
    state = table.state
    assert all(
        sum(1 for p in state.places["market"].contents if state.pieces[p].spot == s) == 1
        for s in ("1", "2", "3", "4")
    )
    card = state.places["hand_red"].contents[0]
    home = table.scene.pieces[card].pos()
    entries = len(table.live.entries)
    table.press(table.piece_point(card))
    target = table.spot_point("market", "2")
    table.move(QPoint((table.piece_point(card).x() + target.x()) // 2, target.y()))
    table.move(target)
    assert table.scene.pieces[card].pos() != home  # it follows the pointer during the drag
    assert table.scene.places["market"].highlighted
    table.release(target)
    assert table.state.pieces[card].place == "hand_red"
    assert len(table.live.entries) == entries
    assert table.scene.pieces[card].pos() == home
    assert not table.scene.places["market"].highlighted
    assert "full" in table.status(), table.status()


def test_rubber_band_selects_cubes_and_one_drag_moves_them_all(table, boards_module):
    table.start(boards_module)
    cubes = [f"cube-red-{n}" for n in (1, 2, 3)]
    bowl = table.layout.place_rect("reserve_red")
    first = table.layout.piece_pos("cube-red-1")
    third = table.piece_point("cube-red-3")
    # Shift+drag from the bowl's empty part, above-left of the cubes, down to the third cube
    start = table.to_view(bowl.x + 3, first[1] - 4)
    assert table.scene.piece_at(table.view.mapToScene(start)) is None
    table.drag(start, third, modifiers=Shift)
    assert sorted(table.scene.selected_pieces()) == cubes
    assert "3 selected" in table.window.status.text()

    entries = len(table.live.entries)
    undo_depth = len(table.live.undo_stack)
    table.drag(table.piece_point("cube-red-2"), table.spot_point("grid_red", "1,1"))
    state = table.state
    for pid in cubes:
        assert (state.pieces[pid].place, state.pieces[pid].spot) == ("grid_red", "1,1"), pid
    assert state.pieces["cube-red-4"].place == "reserve_red"
    assert len(table.live.entries) == entries + 1  # one entry
    assert len(table.live.undo_stack) == undo_depth + 1  # one undo step

    table.key(Qt.Key.Key_Z, Ctrl)
    for pid in cubes:
        assert table.state.pieces[pid].place == "reserve_red"
    assert table.state.places["reserve_red"].contents[:3] == cubes


def test_the_decks_handle_moves_the_whole_deck(table, proto_module):
    table.start(proto_module, seats=2)
    deck = list(table.state.places["deck"].contents)
    entries = len(table.live.entries)
    table.drag(table.handle_point("deck"), table.place_point("discard"))
    assert table.state.places["deck"].contents == [], table.status()
    assert table.state.places["discard"].contents == deck  # same order, same top
    assert len(table.live.entries) == entries + 1
    assert table.live.entries[-1].command.label == "move deck to discard"
    for pid in deck:
        assert table.state.pieces[pid].face_up is False
    table.key(Qt.Key.Key_Z, Ctrl)
    assert table.state.places["deck"].contents == deck


# ---- flipping, turning, undo --------------------------------------------------------


def test_double_click_flips(table, proto_module):
    table.start(proto_module, seats=3)
    card = table.state.places["market"].contents[0]
    assert table.state.pieces[card].face_up
    entries = len(table.live.entries)
    table.double_click(table.piece_point(card))
    assert table.state.pieces[card].face_up is False
    assert len(table.live.entries) == entries + 1
    assert table.scene.pieces[card].visible_face is False
    table.double_click(table.piece_point(card))
    assert table.state.pieces[card].face_up is True
    assert table.scene.pieces[card].visible_face is True


def test_keys_flip_and_turn_the_selected_piece(table, proto_module):
    table.start(proto_module, seats=3)
    card = table.state.places["market"].contents[1]
    other = table.state.places["market"].contents[2]
    table.click(table.piece_point(card))
    assert table.scene.selected_pieces() == [card]
    table.key(Qt.Key.Key_F)
    assert table.state.pieces[card].face_up is False
    assert table.state.pieces[other].face_up is True
    table.key(Qt.Key.Key_R)
    assert table.state.pieces[card].rotation == 1
    assert table.scene.pieces[card].rotation() == 90
    table.key(Qt.Key.Key_R, Shift)
    assert table.state.pieces[card].rotation == 3
    assert table.scene.pieces[card].rotation() == 270
    assert table.state.pieces[other].rotation == 0


def test_ctrl_z_and_ctrl_shift_z_undo_and_redo(table, boards_module):
    table.start(boards_module)
    live = table.live
    assert not live.can_undo  # setup cannot be undone
    table.drag(table.piece_point("cube-red-1"), table.spot_point("grid_red", "0,0"))
    assert table.state.pieces["cube-red-1"].place == "grid_red"
    assert len(live.undo_stack) == 1 and not live.can_redo
    entries = len(live.entries)

    table.key(Qt.Key.Key_Z, Ctrl)
    assert table.state.pieces["cube-red-1"].place == "reserve_red"
    assert live.can_redo and not live.can_undo
    assert live.entries[-1].kind == "undo" and len(live.entries) == entries + 1
    assert table.scene.pieces["cube-red-1"].pos().toTuple() == table.layout.piece_pos("cube-red-1")
    assert table.status().startswith("Undone")

    table.key(Qt.Key.Key_Z, Ctrl | Shift)
    cube = table.state.pieces["cube-red-1"]
    assert (cube.place, cube.spot) == ("grid_red", "0,0")
    assert live.can_undo and not live.can_redo
    assert live.entries[-1].kind == "redo"
    assert table.window.actions_by_name["redo"].isEnabled() is False
    assert table.window.actions_by_name["undo"].isEnabled() is True


def test_the_last_moved_piece_is_marked(table, boards_module):
    table.start(boards_module)
    items = table.scene.pieces
    table.drag(table.piece_point("cube-red-1"), table.spot_point("grid_red", "0,0"))
    assert items["cube-red-1"].marked
    table.drag(table.piece_point("cube-red-2"), table.spot_point("grid_red", "2,1"))
    assert items["cube-red-2"].marked
    assert not items["cube-red-1"].marked
    assert [pid for pid, item in items.items() if item.marked] == ["cube-red-2"]


# ---- looking ---------------------------------------------------------------------------


def test_hover_preview_shows_only_what_the_viewer_may_see(qtbot, table, proto_module):
    table.start(proto_module, seats=3)
    window = table.window
    preview = window.preview
    art = table.scene.art

    def hover_and_wait(pid: str):  # noqa: ANN202
        table.hover(table.piece_point(pid) + QPoint(3, 0))
        table.hover(table.piece_point(pid))
        assert not preview.isVisible()  # not at once: after a short delay
        qtbot.waitUntil(preview.isVisible, timeout=3000)
        return preview.pixmap().toImage()

    def drawn(pid: str, visible: bool):  # noqa: ANN202
        preview.show_piece(art, table.state.pieces[pid], visible, QPoint(0, 0))
        return preview.pixmap().toImage()

    mine = table.state.places["hand_red"].contents[0]
    theirs = table.state.places["hand_yellow"].contents[0]
    assert drawn(mine, True) != drawn(mine, False)  # the comparison below can tell them apart

    shown = hover_and_wait(mine)
    assert shown == drawn(mine, True)
    table.hover(table.place_point("table", 0.5, 0.5))  # off the pieces: the preview goes
    assert not preview.isVisible()

    shown = hover_and_wait(theirs)
    assert shown == drawn(theirs, False)
    assert shown != drawn(theirs, True)

    table.press(table.piece_point(theirs))  # a press hides it
    assert not preview.isVisible()
    table.release(table.piece_point(theirs))


def test_the_deck_menu_offers_shuffle_draw_deal_peek_search(table, proto_module):
    table.start(proto_module, seats=3)
    window = table.window
    menu = QMenu(window)
    window._deck_menu(menu, "deck")
    texts = _menu_texts(menu)
    count = len(table.state.places["deck"].contents)
    assert texts[0] == f"Draw deck ({count})"
    for wanted in (
        "Shuffle",
        "Draw one into my hand",
        "Deal to every hand",
        "  1 each",
        "Peek at the top 3…",
        "Search…",
    ):
        assert wanted in texts, texts

    # the entries do what they say
    actions = {a.text(): a for a in menu.actions()}
    entries = len(table.live.entries)
    actions["Shuffle"].trigger()
    assert table.live.entries[-1].command.op == "shuffle"
    top = table.state.places["deck"].contents[-1]
    actions["Draw one into my hand"].trigger()
    assert table.state.pieces[top].place == "hand_red"
    deal = actions["Deal to every hand"].menu()
    deal.actions()[0].trigger()  # 1 each
    assert [len(table.state.places[f"hand_{s}"].contents) for s in ("red", "yellow", "green")] == [
        6,
        5,
        5,
    ]
    assert len(table.live.entries) == entries + 3
    menu.deleteLater()

    # an empty deck offers only a shuffle
    empty = QMenu(window)
    window._deck_menu(empty, "discard")
    texts = _menu_texts(empty)
    assert "Shuffle" in texts and "Search…" not in texts and "Draw one into my hand" not in texts
    QApplication.processEvents()
