"""A whole Greenland turn in the window with the phase panel: the event, hunters placed by hand
with live findings, the hunts rolled, the animals fed (A1)."""

from __future__ import annotations

from tabletop.modules import find_module


def step_named(panel, start: str):  # noqa: ANN001, ANN201
    for step in panel.offered:
        if step.label.startswith(start):
            return step
    raise AssertionError(f"no step {start!r} in {[s.label for s in panel.offered]}")


def test_a_whole_turn_with_the_phase_panel(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window, state = table.window, table.state
    panel = window.phase_panel
    panel.answerer = lambda need: need.options[0]  # the players' answers, scripted
    assert panel.status.phase == "event" and panel.status.turn == 1

    assert panel.run(step_named(panel, "Reveal the event"))
    assert state.places["event_current"].contents, "the event card is turned up"
    assert panel.run(step_named(panel, "Next"))
    assert panel.status.phase == "assignment"

    # hunters placed by hand, with live findings: the Norse have one mariner for North Greenland
    north = state.places["north_warm"].contents[1]
    hunters = [p for p in state.places["hunters_red"].contents if p.startswith("cube")]
    for cube in hunters[:4]:
        table.drag(table.piece_point(cube), table.piece_point(north))
    assert len([h for h in table.state.contents(north, "hunters") if h.startswith("cube-red")]) == 4
    findings = window.docks["findings"].widget().list
    assert findings.count() == 0
    table.drag(table.piece_point(hunters[4]), table.piece_point(north))
    assert (
        findings.count() == 1 and "E1" in findings.item(0).text()
    )  # a fifth cube needs a second mariner
    assert table.scene.pieces[hunters[4]].finding  # outlined on the table, with the reason
    window.undo()

    for _ in range(2):  # assignment done, negotiation done
        assert panel.run(step_named(panel, "Next"))
    assert panel.status.phase == "hunt"
    hunted = 0
    while any(s.label.startswith("Hunt ") for s in panel.offered):
        assert panel.run(step_named(panel, "Hunt "))
        hunted += 1
    assert hunted >= 1
    assert not table.state.contents(north, "hunters"), "the hunters went home or died"

    assert panel.run(step_named(panel, "Next"))
    assert panel.status.phase == "animals"
    assert panel.run(step_named(panel, "Feed the animals"))
    for _ in range(2):  # animals done, elders done: the next generation
        assert panel.run(step_named(panel, "Next"))
    assert panel.status.turn == 2 and panel.status.phase == "event"
    assert table.state.counters["turn"] == 2
