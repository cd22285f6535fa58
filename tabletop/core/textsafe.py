"""Text read from a file, made safe to show a person: in a message, on a terminal, in a window.

A received file may hold anything: carriage returns and escape sequences that would move the
cursor or retitle a terminal, lone UTF-16 surrogates that no output encoding can write, values
megabytes long. Every message that quotes what a file holds goes through these:

- ``quoted(value)`` quotes one value as ``repr`` does (control characters, surrogates and
  other unprintable characters escaped: ``'\\r'``, ``'\\x1b'``, ``'\\udc80'``), cut after
  ``LIMIT`` characters with an ellipsis and the length said;
- ``escaped(text)`` escapes the unprintable characters of a text without quoting it;
- ``clipped(text)`` escapes a text and cuts it after ``limit`` characters;
- ``printable(message)`` is what is printed for an error or a warning: every line of it
  escaped, the whole cut at ``MESSAGE_LIMIT``;
- ``without_surrogates(value)`` writes lone surrogates as their escapes in text made from a
  file and written elsewhere (a report);
- ``TerminalText`` is the command line's stdout on a terminal: control characters escaped.
"""

from __future__ import annotations

import functools
import re
from typing import Any

LIMIT = 200  # characters of one quoted value
MESSAGE_LIMIT = 2000  # characters of a whole message
LINE_LIMIT = 900  # characters of one of its lines (a list of problems is a line each)

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every unprintable character (controls, escape sequences' ESC, lone
    surrogates, line separators, direction overrides) written as its escape, e.g. ``\\x1b``;
    the characters in ``keep`` (such as a newline) stay as they are."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " or c in keep else _escape_char(c) for c in text)


def _more(length: int) -> str:
    return f"… ({length:,} characters in all)"


def clipped(text: str, limit: int = LIMIT) -> str:
    """``text`` escaped, and cut after ``limit`` characters with an ellipsis and its length."""
    if len(text) <= limit:
        return escaped(text)
    return escaped(text[:limit]) + _more(len(text))


def quoted(value: Any, limit: int = LIMIT) -> str:
    """A value from a file as a message quotes it: ``repr``'s quoting and escapes, cut after
    ``limit`` characters (of the text itself, for a string) with an ellipsis and the length."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit]) + _more(len(value))
    try:
        text = repr(value)
    except RecursionError:  # a value nested too deep to write out
        return f"<{type(value).__name__} nested too deeply to show>"
    if len(text) <= limit:
        return escaped(text)
    return escaped(text[:limit]) + _more(len(text))


def printable(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """An error message as it is printed: its lines kept, nothing in them a terminal would
    obey (a carriage return, an escape sequence), at most ``limit`` characters before the
    ellipsis, and each line at most ``LINE_LIMIT`` (a problem quoting long values)."""
    shown = "\n".join(
        line if len(line) <= LINE_LIMIT else line[:LINE_LIMIT] + _more(len(line))
        for line in escaped(message[:limit], keep="\n").split("\n")
    )
    return shown + _more(len(message)) if len(message) > limit else shown


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """``value`` (text, or lists and objects of it) with each lone UTF-16 surrogate written as
    its escape (``\\udc80``): for what is made from a file's text and written elsewhere (a
    report, a table of sessions), where such a character cannot be encoded or drawn."""
    if isinstance(value, str):
        if _SURROGATE.search(value) is None:
            return value
        return _SURROGATE.sub(lambda m: _escape_char(m.group()), value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if type(value) is list:
        return [without_surrogates(v) for v in value]
    if type(value) is tuple:
        return tuple(without_surrogates(v) for v in value)
    return value


@functools.cache
def _terminal_unsafe() -> re.Pattern[str]:
    """What a terminal obeys or cannot show: the controls but newline and tab, lone surrogates,
    the line and paragraph separators and the direction overrides. Compiled when first written:
    a start that writes nothing to a terminal does not pay for it (some 4 M instructions)."""
    return re.compile(
        "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
    )


class TerminalText:
    """A text stream on a terminal that writes the control characters it is given as their
    escapes (newlines and tabs kept; a line ending CR LF written as LF), so that a seat name or
    a note from a received file cannot move the cursor, clear the screen or retitle the
    window. Everything else is the stream's own."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        shown = _terminal_unsafe().sub(
            lambda m: _escape_char(m.group()), text.replace("\r\n", "\n")
        )
        self._stream.write(shown)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
