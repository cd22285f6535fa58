"""What the command line writes to a terminal: control characters a seat name or a note could
carry are written as their escapes, newlines and tabs stay, CR LF becomes LF (table: no rulebook
section applies). Its pattern is compiled at the first write, not when the module is imported."""

from __future__ import annotations

import io

from tabletop.core.textsafe import TerminalText


def test_table_a_terminal_is_sent_escapes_for_what_it_would_obey() -> None:
    out = io.StringIO()
    terminal = TerminalText(out)
    text = "Ann\x1b[2J\tBo\r\nnext\u202eline\x7f\x9b \ud800end\u2028"
    assert terminal.write(text) == len(text)
    assert out.getvalue() == "Ann\\x1b[2J\tBo\nnext\\u202eline\\x7f\\x9b \\ud800end\\u2028"


def test_table_plain_text_reaches_the_terminal_as_it_is_every_time() -> None:
    out = io.StringIO()
    terminal = TerminalText(out)
    for line in ("Greenland: seed 1\n", "élan — 3 ✓\n", "\tindented\n"):
        terminal.write(line)
    assert out.getvalue() == "Greenland: seed 1\nélan — 3 ✓\n\tindented\n"
    assert terminal.getvalue() == out.getvalue()  # everything else is the stream's own
