"""Text made safe to show on a terminal: no escape sequences, no control characters.

Titles, messages and tool output come from places the user does not control (a provider's
answer, an imported file, a project's files, an MCP server); shown raw, an escape sequence
could write the clipboard (OSC 52), retitle the window (OSC 0), hide a link (OSC 8), move the
cursor or clear the screen. Every surface that shows such text (the TUI's widgets, the CLI's
output) passes it through :func:`printable`, and the store keeps titles clean
(:func:`printable_title`). Tabs and newlines are kept; everything else below the space, DEL
and the C1 range (``\\x80``-``\\x9f``, which some terminals obey like ``ESC`` sequences) goes.

Two more kinds of character never reach a terminal as they are, whatever the surface:

- a bidi embedding, override or isolate (U+202A-202E, U+2066-2069) shows as ``<U+XXXX>``: a
  terminal that reorders text would draw what follows in an order other than it is read
  (a file name, a command, a title that reads one way and is another);
- a lone surrogate (U+D800-DFFF alone, what a JSON ``\\udXXX`` escape or an undecodable file
  name gives) becomes U+FFFD: no encoder writes it, so it would end the write with an error;
  the two halves of a pair that came apart (in two tokens) are joined first (:func:`whole_text`).
"""

from __future__ import annotations

import re

_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, clear screen
    r"|\x1b\][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)"  # OSC: window title, hyperlinks, clipboard
    r"|\x1b[PX^_][^\x1b\x9c\n]*(?:\x1b\\|\x9c)"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-character sequences (an unterminated string's introducer)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x9d[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)"  # 8-bit OSC
    r"|[\x90\x98\x9e\x9f][^\x1b\x9c\n]*(?:\x1b\\|\x9c)"  # 8-bit DCS, SOS, PM, APC
)
"""Escape sequences, removed whole. A control string (OSC, DCS, SOS, PM, APC) is removed with
its body only when a terminator ends it on the same line: one left open (a stray introducer)
loses its introducer alone, so it never hides the text after it, a reply's rest included."""
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_REORDERING_OR_LONE = re.compile("[\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

UNTITLED = "Untitled conversation"
"""The title of a conversation whose title was nothing but control characters."""


_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_text(text: str) -> str:
    """``text`` as whole Unicode: a surrogate pair that stands as two code points (an
    astral character whose two halves came in two JSON strings, joined) is the one character
    it encodes, and every surrogate left alone is U+FFFD. Text without a surrogate comes back
    as it is."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay), its
    bidi controls shown as ``<U+XXXX>`` and its lone surrogates as U+FFFD (see the module)."""
    if _UNSAFE.search(text) is None:  # the common case: one scan, no copy
        return text
    if _CONTROLS.search(text) is not None:
        text = _CONTROLS.sub("", _SEQUENCES.sub("", text))
    return _REORDERING_OR_LONE.sub(_shown, whole_text(text))


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    return "\ufffd" if "\ud800" <= char <= "\udfff" else f"<U+{ord(char):04X}>"


def printable_title(title: str) -> str:
    """A conversation title as the store keeps it: printable, on one line, never empty."""
    return " ".join(printable(title).split()) or UNTITLED


_RAW_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable_json(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with the characters JSON leaves raw
    but a terminal obeys (DEL, C1, line separators, bidi controls) written as ``\\uXXXX``
    escapes, and each lone surrogate, which no encoder writes, as ``\\ufffd`` (as the store
    keeps it): the same JSON value, safe to write and to ``cat``.

    Such characters can only stand inside a JSON string, where an escape means the same."""
    if _RAW_IN_JSON.search(text) is None:
        return text
    return _RAW_IN_JSON.sub(_escaped, whole_text(text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\\ufffd" if 0xD800 <= code <= 0xDFFF else f"\\u{code:04x}"
