"""Text made safe to show on a terminal: no escape sequences, no control characters.

Titles, messages and tool output come from places the user does not control (a provider's
answer, an imported file, a project's files, an MCP server); shown raw, an escape sequence
could write the clipboard (OSC 52), retitle the window (OSC 0), hide a link (OSC 8), move the
cursor or clear the screen. Every surface that shows such text (the TUI's widgets, the CLI's
output) passes it through :func:`printable`, and the store keeps titles clean
(:func:`printable_title`). Tabs and newlines are kept; everything else below the space, DEL
and the C1 range (``\\x80``-``\\x9f``, which some terminals obey like ``ESC`` sequences) goes.
"""

from __future__ import annotations

import re

_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, clear screen
    r"|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC: window title, hyperlinks, clipboard
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-character sequences
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # 8-bit OSC
    r"|[\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # 8-bit DCS, SOS, PM, APC
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

UNTITLED = "Untitled conversation"
"""The title of a conversation whose title was nothing but control characters."""


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay)."""
    if _CONTROLS.search(text) is None:  # the common case: one scan, no copy
        return text
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))


def printable_title(title: str) -> str:
    """A conversation title as the store keeps it: printable, on one line, never empty."""
    return " ".join(printable(title).split()) or UNTITLED
