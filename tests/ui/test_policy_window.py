"""The rules' policy in the window: a switch from the Rules menu is an entry in the log dock (by
the seat at the screen) that undo leaves alone; the finding of a move taken back shows as undone
(E1, five Norse cubes behind one mariner)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tabletop.core import Mode, Policy
from tabletop.inspection import strictness_text
from tabletop.modules import find_module, new_game

Ctrl = Qt.KeyboardModifier.ControlModifier


def rules_menu_action(window, mode: str):  # noqa: ANN001, ANN201
    """The Rules menu's item for ``mode``, as the menu bar holds it."""
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Rules")
    return next(a for a in menu.actions() if a.data() == mode)


def to_assignment(table):  # noqa: ANN001, ANN201
    """A Greenland game in the window, at the assignment of the first turn (E)."""
    table.start(find_module("greenland"), seed=5)
    panel = table.window.phase_panel
    panel.answerer = lambda need: need.options[0]
    for label in ("Reveal the event", "Next"):
        assert panel.run(next(s for s in panel.offered if s.label.startswith(label)))
    assert panel.status.phase == "assignment"
    state = table.state
    north = state.places["north_warm"].contents[1]
    hunters = [p for p in state.places["hunters_red"].contents if p.startswith("cube")]
    for cube in hunters[:4]:  # one mariner takes four cubes (E1)
        table.drag(table.piece_point(cube), table.piece_point(north))
    return north, hunters[4]


def test_e1_switching_off_and_back_through_the_rules_menu_is_in_the_log(table) -> None:  # noqa: ANN001
    table.window.settings.setValue("rules/greenland", "strict")  # as chosen for an earlier game
    north, fifth = to_assignment(table)
    window, live = table.window, table.live
    assert window.session.game.header.policy == Policy(Mode.STRICT)  # a new game starts so
    assert window.actions_by_name["mode_strict"].isChecked()
    log = window.log_panel.list
    table.drag(table.piece_point(fifth), table.piece_point(north))
    assert table.state.pieces[fifth].place == "hunters_red"  # refused: a second mariner lacks
    rules_menu_action(window, "off").trigger()
    off = live.seq
    assert live.policy == Policy(Mode.OFF) and window.actions_by_name["mode_off"].isChecked()
    assert log.count() == live.seq and log.item(off - 1).text().endswith("rules assistant: off")
    assert "Norse" in log.item(off - 1).text()  # by the seat at the screen
    assert log.item(off - 1).font().bold()
    table.drag(table.piece_point(fifth), table.piece_point(north))
    assert table.state.pieces[fifth].place == north and live.entries[-1].findings == ()
    moved = live.seq
    rules_menu_action(window, "strict").trigger()
    switches = [log.item(row).text() for row in range(log.count()) if "rules assistant" in log.item(row).text()]  # fmt: skip
    assert len(switches) == 2 and switches[1].endswith("rules assistant: strict")
    assert strictness_text(live) == f"strict throughout: no: off at entry {moved}"
    table.key(Qt.Key.Key_Z, Ctrl)  # undo takes back the move, not the switch
    assert table.state.pieces[fifth].place == "hunters_red"
    assert live.policy == Policy(Mode.STRICT) and window.actions_by_name["mode_strict"].isChecked()


def test_e1_the_finding_of_a_move_taken_back_shows_as_undone(table) -> None:  # noqa: ANN001
    north, fifth = to_assignment(table)
    window, live = table.window, table.live
    assert live.policy.mode is Mode.ADVISORY
    findings = window.docks["findings"].widget().list
    log = window.log_panel.list
    table.drag(table.piece_point(fifth), table.piece_point(north))
    flagged = live.seq
    assert findings.count() == 1 and "E1" in findings.item(0).text()
    assert not findings.item(0).font().strikeOut()
    assert "(undone)" not in log.item(flagged - 1).text()
    table.key(Qt.Key.Key_Z, Ctrl)
    item = findings.item(0)
    assert (
        findings.count() == 1
        and item.text().startswith(f"#{flagged} E1 (undone):")
        and item.font().strikeOut()
    )
    assert item.foreground().color().name() == "#8a8a8a"
    assert "(undone)" in log.item(flagged - 1).text()
    table.key(Qt.Key.Key_Z, Ctrl | Qt.KeyboardModifier.ShiftModifier)  # redone: it stands again
    assert table.state.pieces[fifth].place == north
    item = findings.item(0)
    assert "(undone)" not in item.text() and not item.font().strikeOut()
    assert "(undone)" not in log.item(flagged - 1).text()


def test_table_a_reopened_game_keeps_its_policy_and_an_old_one_logs_the_remembered(
    table,  # noqa: ANN001
    tmp_path,  # noqa: ANN001
) -> None:
    window = table.window
    path = tmp_path / "strict.jsonl"
    new_game(find_module("greenland"), seed=3, path=path, policy=Policy(Mode.STRICT)).close()
    window.settings.setValue("rules/greenland", "advisory")  # chosen since, for new games
    game = window.open_path(str(path))
    assert game.table.policy == Policy(Mode.STRICT) and not any(
        e.kind == "policy" for e in game.table.entries
    )
    assert window.actions_by_name["mode_strict"].isChecked()
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    del header["policy"]  # as written before policies were logged
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    window.settings.setValue("house_rules/greenland", "E1 off")
    game = window.open_path(str(old))
    last = game.table.entries[-1]
    assert last.kind == "policy" and last.actor == "table"
    assert game.table.policy == Policy(Mode.ADVISORY, {"E1": Mode.OFF})
    assert (
        window.log_panel.list.item(game.table.seq - 1)
        .text()
        .endswith("rules assistant: advisory (house rules: E1 off)")
    )
