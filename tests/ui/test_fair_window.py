"""A game with committed dice and shuffles (docs/fairness.md) in the window: its log panel shows
the seats' contributions and never the referee's secret seed; dice rolled with Ctrl+R are the
ones the seed and contributions give, so the game verifies once the seed is revealed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tabletop.cli import main
from tabletop.core.randomness import SecretSeed, derive_faces
from tabletop.modules import new_game
from tabletop.persist.fairness import FAIR, verify_log

SEATS = ("red", "yellow")
CONTRIBUTIONS = {"red": "0a" * 32, "yellow": "0b" * 32}


def test_a_committed_game_in_the_window_keeps_its_secret_and_verifies(
    table, proto_module, tmp_path, capsys
) -> None:
    path = tmp_path / "fair.jsonl"
    committed = SecretSeed(bytes(range(32, 64)))
    new_game(
        proto_module,
        seats=list(SEATS),
        seed=1,
        path=path,
        committed=committed,
        contributions=CONTRIBUTIONS,
    ).close()
    window = table.window
    assert window.open_path(str(path)) is not None
    table.show()
    secret = committed.secret.hex()
    panel = window.log_panel

    def lines() -> list[str]:
        return [panel.list.item(i).text() for i in range(panel.list.count())]

    assert any("added its contribution to the dice and shuffles" in line for line in lines())
    assert not any(secret in line or secret[:16] in line for line in lines())
    draws = table.live.random.draws
    table.key(Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # roll every die in view
    entry = table.live.entries[-1]
    assert entry.command.op == "roll", window.statusBar().currentMessage()
    dice = [table.state.pieces[pid].props["faces"] for pid in entry.command.pieces]
    contributions = {seat: bytes.fromhex(hex_text) for seat, hex_text in CONTRIBUTIONS.items()}
    want = derive_faces(committed.secret, list(SEATS), contributions, draws, dice)
    assert list(entry.command.new) == want
    assert not any(secret[:16] in line for line in lines())
    window.session.game.close()
    assert main(["reveal", str(path)]) == 0
    verdict = verify_log(path)
    assert verdict.status == FAIR and verdict.rolls >= 1, verdict.message
