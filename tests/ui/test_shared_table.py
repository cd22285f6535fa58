"""Everyone at one screen (no screen passed, every hand in view): the log names who made each move.

A hand move is credited to the owner of the piece moved, else to the seat
whose turn it is; a procedure to the seat it runs for, the table's own steps
to the table; a seat played by a bot is named as a bot ('bot:yellow', shown
"Thule (bot)"). "Acting as" in the toolbar or the Rules menu says who moves
instead, and the rules then judge the move as that seat (the rule 'table':
only the owner moves their pieces). Strict refuses what advisory flags: a
hunter placed out of its phase, the assignment ended before everyone has
placed (E).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from rules_assist.driver import CHANCE
from tabletop.modules import find_module

Left = Qt.MouseButton.LeftButton
CULTURES = {"red": "Norse", "yellow": "Thule", "green": "Tunit"}


def buttons(panel) -> list[QPushButton]:  # noqa: ANN001
    layout = panel.buttons
    return [layout.itemAt(i).widget() for i in range(layout.count())]


def press(table, panel, start: str) -> None:  # noqa: ANN001
    """Click the phase panel's button whose text starts so, as a player would."""
    for button in buttons(panel):
        if button.text().replace("&&", "&").startswith(start):
            table.qtbot.mouseClick(button, Left)
            return
    raise AssertionError(f"no button {start!r} in {[b.text() for b in buttons(panel)]}")


def cubes(table, colour: str) -> list[str]:  # noqa: ANN001
    return [p for p in table.state.places[f"hunters_{colour}"].contents if p.startswith("cube")]


def south_biomes(table) -> list[str]:  # noqa: ANN001
    """The cards of the south row: the Norse homeland (E1) but Vinland (E2)."""
    state = table.state
    return [c for row in ("south_warm", "south_cold") for c in state.places[row].contents][::-1]


def to_assignment(table, panel) -> None:  # noqa: ANN001
    press(table, panel, "Reveal the event")
    if any(s.label.startswith("Apply the event") for s in panel.offered):
        press(table, panel, "Apply the event")
    press(table, panel, "Next")
    assert panel.status.phase == "assignment"


def shared_table(table, seed: int = 11):  # noqa: ANN001, ANN201
    table.start(find_module("greenland"), seed=seed)
    window, session = table.window, table.session
    session.set_viewer(None)  # nobody passes the screen: the whole table plays at it
    window.phase_panel.auto_bots = False
    window.phase_panel.answerer = lambda need: need.question.default()  # the plainest answer
    return window, session, window.phase_panel


def test_a_hand_move_is_credited_to_the_owner_and_acting_as_is_judged(table) -> None:  # noqa: ANN001
    window, session, panel = shared_table(table, seed=5)
    window.actions_by_name["mode_strict"].trigger()
    live = table.live
    setup = live.seq
    to_assignment(table, panel)
    assert {e.actor for e in live.entries[setup:]} == {"table"}  # the table's own steps
    assert panel.status.to_move == "red"

    # automatic: the owner of the cube moved, whoever's turn it is
    target = (
        "walrus" if "walrus" in table.state.places else table.state.places["north_warm"].contents[0]
    )
    thule = cubes(table, "yellow")[0]
    table.drag(table.piece_point(thule), table.piece_point(target))
    assert table.state.pieces[thule].place == target and live.entries[-1].actor == "yellow"
    # nobody's pieces (the dice, Ctrl+R): the seat whose turn it is
    table.qtbot.keyClick(table.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert live.entries[-1].command.op == "roll" and live.entries[-1].actor == "red"

    # "Acting as" in the toolbar: the Thule say they make the moves; moving a Norse cube is
    # then one seat moving another's pieces, refused in strict
    box = window.acting_box
    assert [box.itemText(i) for i in range(box.count())] == [
        "Automatic",
        *CULTURES.values(),
    ]
    box.setFocus()
    for _ in range(2):  # Automatic -> Norse -> Thule, by the keyboard
        table.qtbot.keyClick(box, Qt.Key.Key_Down)
    assert session.acting_as == "yellow" and box.currentText() == "Thule"
    norse = cubes(table, "red")[0]
    before = live.seq
    table.drag(table.piece_point(norse), table.piece_point(target))
    assert live.seq == before and table.state.pieces[norse].place == "hunters_red"
    assert "only the owner moves their pieces" in table.status()
    window.actions_by_name["mode_advisory"].trigger()  # flagged, and credited as said
    table.drag(table.piece_point(norse), table.piece_point(target))
    entry = live.entries[-1]
    assert entry.actor == "yellow" and [f.rule for f in entry.findings] == ["table"]
    findings = window.docks["findings"].widget().list
    assert "only the owner moves their pieces" in findings.item(findings.count() - 1).text()

    # the Rules menu says the same and goes back to automatic
    window.acting_menu.aboutToShow.emit()
    chosen = {a.text(): a for a in window.acting_menu.actions()}
    assert chosen["Thule"].isChecked()
    chosen["Automatic"].trigger()
    assert session.acting_as is None and box.currentText() == "Automatic"
    other = cubes(table, "red")[0]
    table.drag(table.piece_point(other), table.piece_point(target))
    assert live.entries[-1].actor == "red" and live.entries[-1].findings == ()


def test_e_strict_refuses_hunters_out_of_their_phase_and_next_before_everyone(table) -> None:  # noqa: ANN001
    """E: in the event phase no hunter is placed; the assignment ends only when every culture
    has said it is done. Strict refuses both with the section; advisory flags them."""
    window, session, panel = shared_table(table, seed=5)
    window.actions_by_name["mode_strict"].trigger()
    live = table.live
    press(table, panel, "Reveal the event")
    card = south_biomes(table)[0]
    cube = cubes(table, "red")[0]
    before = live.seq
    table.drag(table.piece_point(cube), table.piece_point(card))
    assert live.seq == before and table.state.pieces[cube].place == "hunters_red"
    assert "hunter assignment phase" in table.status() and "E:" in table.status()
    if any(s.label.startswith("Apply the event") for s in panel.offered):
        press(table, panel, "Apply the event")
    press(table, panel, "Next")
    assert panel.status.phase == "assignment"

    before = live.seq
    press(table, panel, "Next")  # nobody has placed yet
    assert live.seq == before and panel.status.phase == "assignment"
    assert "not finished placing hunters" in table.status()
    window.actions_by_name["mode_advisory"].trigger()
    press(table, panel, "Next")
    entry = live.entries[-1]
    assert panel.status.phase == "negotiation" and entry.actor == "table"
    assert [f.rule for f in entry.findings] == ["E"]
    assert "red, yellow, green have not finished placing hunters" in entry.findings[0].message


def test_a_whole_strict_game_at_a_shared_table_names_who_acted_in_every_entry(table) -> None:  # noqa: ANN001
    """The acceptance game: a standard game to its end (J) in strict mode at one screen, the
    Thule and the Tunit played by bots, the Norse by a person who places hunters by hand, rolls
    the dice at their turn, and presses their own buttons; the table's steps pressed by anyone.
    Every entry of the log names who acted."""
    window, session, panel = shared_table(table)
    window.actions_by_name["mode_strict"].trigger()
    assert session.set_bot("yellow", "greedy") and session.set_bot("green", "random")
    live, driver = table.live, panel.driver
    expected: dict[int, str] = {e.seq: "setup" for e in live.entries}
    # the switch to strict, made at a shared table where nobody said who they are: the table
    expected.update({e.seq: "table" for e in live.entries if e.kind == "policy"})
    seat_before: dict[int, str] = {}  # the seat to move before each entry (a bot's turn)
    to_move = [driver.current_player()]

    def noted(change) -> None:  # noqa: ANN001
        seat_before[change.entry.seq] = to_move[0]
        to_move[0] = driver.current_player()

    live.subscribe(noted)

    def by(actor: str, act) -> None:  # noqa: ANN001
        """Do ``act``; every entry it adds was made by ``actor`` ('bot' for the seat to move)."""
        start = live.seq
        act()
        for entry in live.entries[start:]:
            who = f"bot:{seat_before[entry.seq]}" if actor == "bot" else actor
            expected[entry.seq] = who

    placed_in: set[int] = set()
    presses = 0
    while panel.offered or panel.bots_to_play():
        presses += 1
        assert presses < 3000, "the game does not end"
        status = panel.status
        if panel.bots_to_play():
            by("bot", lambda: press(table, panel, "Let the bots play"))
            continue
        if status.to_move == "red":
            if status.phase == "assignment" and status.turn not in placed_in:
                placed_in.add(status.turn)
                by(
                    "red",
                    lambda: table.qtbot.keyClick(
                        table.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier
                    ),
                )
                for cube in cubes(table, "red")[:2]:
                    for card in south_biomes(table):
                        if card == "vinland":
                            continue
                        start = live.seq
                        by(
                            "red",
                            lambda c=cube, t=card: table.drag(
                                table.piece_point(c), table.piece_point(t)
                            ),
                        )
                        if live.seq > start:
                            break
                continue
            mine = [a for a in panel.offered if a.actor == "red"]
            step = next((a for a in mine if a.name == "finish"), mine[0])
            by("red", lambda s=step: press(table, panel, s.label))
            continue
        assert status.to_move == CHANCE, status
        step = next(a for a in panel.offered if a.actor is None)  # the table's, not a bot's
        by("table", lambda s=step: press(table, panel, s.label))
    assert live.state.counters.get("game_over") is not None, "played to the end (J)"
    assert all(e.override is None for e in live.entries), "strict: nothing forced"
    actors = [e.actor for e in live.entries]
    wrong = [
        (e.seq, e.actor, expected.get(e.seq), e.command.describe()[:90])
        for e in live.entries
        if e.actor != expected.get(e.seq)
    ]
    assert not wrong, wrong[:8]  # every entry, the right one
    assert {"red", "table", "bot:yellow", "bot:green"} <= set(actors)
    hand = [e for e in live.entries if e.actor == "red" and not getattr(e.command, "procedure", "")]
    assert any(e.command.op == "move" for e in hand) and any(e.command.op == "roll" for e in hand)
    assert any(e.actor == "red" and getattr(e.command, "procedure", "") for e in live.entries)
    assert live.state.counters["turn"] > 3, "a whole game, turn after turn"
    log = window.docks["log"].widget().list
    lines = [log.item(i).text() for i in range(log.count())]
    assert any("Thule (bot)" in line for line in lines)
    assert any("Tunit (bot)" in line for line in lines)
