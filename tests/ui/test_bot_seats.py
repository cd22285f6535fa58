"""Seats given to bots in the window (the module's ``bots`` hook): a person plays Greenland's Norse
against two bots, who place their hunters and answer their own questions; a seat can be taken back."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from rules_assist.questions import Question
from tabletop.modules import find_module
from tabletop.modules.rules import game_of


def step_named(panel, start: str):  # noqa: ANN001, ANN201
    """The action of a button of the panel, by the start of its label."""
    for step in panel.offered:
        if step.label.startswith(start):
            return step
    raise AssertionError(f"no step {start!r} in {[s.label for s in panel.offered]}")


def to_assignment(panel) -> None:  # noqa: ANN001
    """The event phase played through (D), on to hunter assignment (E)."""
    assert panel.run(step_named(panel, "Reveal the event"))
    if any(s.label.startswith("Apply the event") for s in panel.offered):
        assert panel.run(step_named(panel, "Apply the event"))
    assert panel.run(step_named(panel, "Next"))
    assert panel.status.phase == "assignment"


def buttons(panel) -> list[QPushButton]:  # noqa: ANN001
    layout = panel.buttons
    return [layout.itemAt(i).widget() for i in range(layout.count())]


def seat_texts(window) -> list[str]:  # noqa: ANN001
    seats = window.docks["seats"].widget().list
    return [seats.item(i).text() for i in range(seats.count())]


def test_the_game_gives_its_bots() -> None:
    """The bots a seat may be given are the game object's (module.toml names only the game)."""
    module = find_module("greenland")
    assert list(game_of(module).bots) == ["random", "greedy"]
    assert "bots" not in module.raw["module"] and not module.notes


def test_a_turn_against_two_bots(table) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window, session = table.window, table.session
    panel = window.phase_panel
    seats = window.docks["seats"].widget()
    assert session.bot_kinds() == ["random", "greedy"]
    assert panel.auto_bots  # by default the bots play by themselves; here, by the button
    window.actions_by_name["bots_auto"].trigger()
    assert not panel.auto_bots and window.settings.value("bots/auto") == "false"

    # yellow by the context menu's action, green directly
    menu = seats.seat_menu("yellow")
    next(a for a in menu.actions() if a.text().endswith("greedy")).trigger()
    assert session.set_bot("green", "random")
    assert session.bot_seats == {"yellow": "greedy", "green": "random"}
    texts = seat_texts(window)
    assert "(bot: greedy)" in texts[1] and "(bot: random)" in texts[2]
    assert "bot" not in texts[0]

    asked: dict[str, list[Question]] = {"yellow": [], "green": []}
    for colour in asked:
        bot = session.bot_of(colour)
        plain = bot.answer

        def answer(state, question, colour=colour, plain=plain):  # noqa: ANN001, ANN202
            asked[colour].append(question)
            return plain(state, question)

        bot.answer = answer
    people: list[Question] = []

    def person(need):  # noqa: ANN001, ANN202
        people.append(need.question)
        return need.options[0]

    panel.answerer = person
    state = table.live.state
    to_assignment(panel)
    assert panel.status.phase == "assignment"

    # the person places two hunters by hand, then lets the bots play
    north = state.places["north_warm"].contents[1]
    hunters = [p for p in state.places["hunters_red"].contents if p.startswith("cube")]
    assert panel.status.to_move == "red"  # A2: the Norse place first this turn
    assert not [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
    for cube in hunters[:2]:
        table.drag(table.piece_point(cube), table.piece_point(north))
    # a '&' in a step shows as itself, not as a shortcut underline
    assert any(b.text() == "Next: Negotiate && attacks" for b in buttons(panel))
    assert panel.run(step_named(panel, "Norse: done placing hunters"))
    let = [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
    assert let and "Thule" in let[0].text()  # the next in order
    let[0].click()
    assert set(state.counters.get("phase.done") or []) >= {"red", "yellow", "green"}
    assert not [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
    placed = {
        colour: [
            p.id
            for p in state.pieces.values()
            if p.owner == colour and p.place not in (f"hunters_{colour}",) and p.spot == "hunters"
        ]
        for colour in ("yellow", "green")
    }
    assert placed["yellow"], "the greedy bot sent hunters out"
    entries = [e for e in table.live.entries if e.actor in ("bot:yellow", "bot:green")]
    assert entries, "the bots' moves are in the log as theirs, named as bots"

    for _ in range(2):  # assignment done, negotiation done
        if panel.status.phase == "negotiation":  # the Norse are done; the bots owe their attacks
            done = [b for b in buttons(panel) if b.text().startswith("Norse: done")]
            if done:
                done[0].click()
            let = [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
            if let:
                let[0].click()
        assert panel.run(step_named(panel, "Next"))
    assert panel.status.phase == "hunt"
    for _ in range(12):
        if not any(s.label.startswith("Hunt ") for s in panel.offered):
            break
        assert panel.run(step_named(panel, "Hunt "))
    else:
        raise AssertionError("the panel offers a card hunted this turn again")
    assert panel.run(step_named(panel, "Next"))
    assert panel.run(step_named(panel, "Feed the animals"))
    for _ in range(2):
        assert panel.run(step_named(panel, "Next"))
    assert panel.status.turn == 2 and panel.status.phase == "event"

    # every question went to its owner: the bots answered theirs, the person was asked the rest
    assert asked["yellow"] or asked["green"], "the bots answered their choices"
    for colour, questions in asked.items():
        assert all(q.owner in (colour, None) for q in questions)
    assert not [q for q in people if q.owner in ("yellow", "green")]


PERSON_STEPS = ("event", "resolve-event", "new-world", "animals", "next-phase")  # the table's


def test_a_whole_game_in_strict_mode(table) -> None:  # noqa: ANN001
    """The acceptance game: a standard game played to its end (J) in the window in strict mode,
    the three seats given to bots, the table's own buttons pressed as a person would."""
    table.start(find_module("greenland"), seed=11)
    window, session = table.window, table.session
    panel = window.phase_panel
    panel.auto_bots = False  # each press as a person makes it
    window.actions_by_name["mode_strict"].trigger()
    for colour, kind in (("red", "greedy"), ("yellow", "random"), ("green", "greedy")):
        assert session.set_bot(colour, kind)
    asked_person = []
    panel.answerer = lambda need: asked_person.append(need.key) or need.options[0]
    presses = 0
    while panel.status is not None and panel.offered:
        presses += 1
        assert presses < 2000, "the game does not end"
        let = [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
        if let:
            let[0].click()
            continue
        step = next(s for s in panel.offered if s.name in PERSON_STEPS)
        assert panel.run(step), step.label
    state = table.live.state
    assert state.counters.get("game_over") is not None
    assert panel.status.phase_label and "over" in panel.detail.text()
    assert not asked_person, "every question went to a bot"
    assert all(e.override is None for e in table.live.entries), "strict: nothing forced"
    assert {e.actor for e in table.live.entries} >= {"bot:red", "bot:yellow", "bot:green"}
    score = window.docks["score"].widget()
    score.refresh()
    assert score.final


def test_play_gives_seats_to_bots_from_the_command_line(
    qapp, tmp_path, monkeypatch, capsys
) -> None:  # noqa: ANN001
    from tabletop.cli import main

    monkeypatch.setenv("TABLETOP_GAMES", str(tmp_path / "games"))
    shot = tmp_path / "solo.png"
    argv = ["play", "greenland", "--seed", "3", "--screenshot", str(shot)]
    assert main([*argv, "--bot", "yellow=greedy", "--bot", "green=random"]) == 0
    assert shot.stat().st_size > 10_000

    for bad, says in (
        ("yellow", "write it as SEAT=BOT"),
        ("blue=greedy", "there is no seat 'blue' (seats: red, yellow, green)"),
        ("green=clever", "there is no bot 'clever' (bots: random, greedy)"),
    ):
        capsys.readouterr()
        assert main([*argv, "--bot", bad]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err
    assert main(["play", "proto", "--screenshot", str(shot), "--bot", "red=random"]) == 2
    assert "has no bots" in capsys.readouterr().err


def test_bots_play_by_themselves_when_their_turn_comes(table, qtbot) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window, session = table.window, table.session
    panel = window.phase_panel
    assert panel.auto_bots and window.actions_by_name["bots_auto"].isChecked()
    session.set_bot("yellow", "greedy")
    session.set_bot("green", "random")
    panel.answerer = lambda need: need.options[0]
    state = table.live.state
    to_assignment(panel)
    qtbot.wait(50)
    assert not state.counters.get("phase.done"), "the bots wait for the Norse (A2)"
    assert panel.run(step_named(panel, "Norse: done placing hunters"))
    qtbot.waitUntil(
        lambda: set(state.counters.get("phase.done") or []) == {"red", "yellow", "green"}
    )
    assert {e.actor for e in table.live.entries} >= {"bot:yellow", "bot:green"}
    assert "has played" in window.statusBar().currentMessage()


def test_ctrl_b_lets_the_bots_play_and_says_when_there_is_none(table, qtbot) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window, session = table.window, table.session
    window.let_bots_play()
    assert "No seat is played by a bot" in window.statusBar().currentMessage()
    window.actions_by_name["bots_auto"].trigger()  # off
    panel = window.phase_panel
    panel.answerer = lambda need: need.options[0]
    to_assignment(panel)
    first = panel.status.to_move
    session.set_bot(first, "random")
    qtbot.wait(50)
    assert not table.live.state.counters.get("phase.done")  # not by itself: auto is off
    action = window.actions_by_name["bots_play"]
    assert action.shortcut().toString() == "Ctrl+B"
    action.trigger()
    assert table.live.state.counters.get("phase.done") == [first]
    window.let_bots_play()
    assert window.statusBar().currentMessage() == "The bots have nothing to play now"


def test_after_an_undo_the_bots_wait_for_the_next_move(table, qtbot) -> None:  # noqa: ANN001
    """Undoing a bot's move does not make it play the same again at once."""
    table.start(find_module("greenland"), seed=5)
    window, session = table.window, table.session
    panel = window.phase_panel
    session.set_bot("yellow", "greedy")
    session.set_bot("green", "random")
    panel.answerer = lambda need: need.options[0]
    state = table.live.state
    to_assignment(panel)
    assert panel.run(step_named(panel, "Norse: done placing hunters"))
    qtbot.waitUntil(
        lambda: set(state.counters.get("phase.done") or []) == {"red", "yellow", "green"}
    )
    seq = table.live.seq
    window.undo()  # the Tunit's "done"
    qtbot.wait(100)
    assert table.live.seq == seq + 1  # the undo entry, and no bot move after it
    assert "green" not in (state.counters.get("phase.done") or [])
    let = [b for b in buttons(panel) if b.text().startswith("Let the bots play")]
    assert let and "Tunit" in let[0].text()  # the panel offers it
    window.let_bots_play()  # Ctrl+B: the bot plays again
    assert "green" in state.counters.get("phase.done")


def test_a_reopened_game_keeps_its_bots(table, tmp_path) -> None:  # noqa: ANN001
    table.start(find_module("greenland"), seed=5)
    window, session = table.window, table.session
    path = session.game.path
    session.set_bot("green", "greedy")
    session.set_bot("yellow", "random")
    session.set_bot("yellow", None)
    copy = str(tmp_path / "copy.jsonl")
    assert window.save_as(copy)
    assert window.session.bot_seats == {"green": "greedy"}  # the copy goes on with them
    assert window.open_path(path) is not None
    assert window.session.bot_seats == {"green": "greedy"}
    texts = seat_texts(window)
    assert "(bot: greedy)" in texts[2]
    window.session.set_bot("green", None)
    assert window.open_path(copy) is not None
    assert window.session.bot_seats == {"green": "greedy"}  # each file its own
    assert window.open_path(path) is not None
    assert window.session.bot_seats == {}


def test_the_new_game_dialog_seats_bots(qtbot, window, monkeypatch) -> None:  # noqa: ANN001
    from tabletop.ui.dialogs import NewGameDialog

    dialog = NewGameDialog(window, "greenland")
    qtbot.addWidget(dialog)
    boxes = dialog._bot_boxes
    assert set(boxes) == {"red", "yellow", "green"}
    assert [boxes["red"].itemText(i) for i in range(boxes["red"].count())] == [
        "a person",
        "the random bot",
        "the greedy bot",
    ]
    boxes["yellow"].setCurrentIndex(boxes["yellow"].findData("greedy"))
    boxes["green"].setCurrentIndex(boxes["green"].findData("random"))
    assert dialog.choices()["bots"] == {"yellow": "greedy", "green": "random"}

    proto = NewGameDialog(window, "proto")  # a module without bots: no column
    qtbot.addWidget(proto)
    assert proto._bot_boxes == {} and proto.choices()["bots"] == {}

    chosen = {**dialog.choices(), "seed": 4}
    monkeypatch.setattr(NewGameDialog, "exec", lambda self: 1)
    monkeypatch.setattr(NewGameDialog, "choices", lambda self: chosen)
    window.new_game_dialog()
    assert window.session.bot_seats == {"yellow": "greedy", "green": "random"}
