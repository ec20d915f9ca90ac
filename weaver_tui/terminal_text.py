"""Text made safe to print on a terminal: no escape sequences, no control characters.

Titles, messages and tool output come from places the user does not control (a provider's
answer, an imported file, a project's files); printed raw, an escape sequence could retitle
the window, clear the screen or rewrite what the user sees. Tabs and newlines are kept.
"""

from __future__ import annotations

import re

_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, clear screen
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window title, hyperlinks, clipboard
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-character sequences
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay)."""
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))
