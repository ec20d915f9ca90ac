"""What ``space join`` lets through from a seat's host to the local terminal: an allowlist.

The seat's app runs at the host and sends its screen as terminal output over a websocket. A
host may be hostile (a link is only as trustworthy as whoever sent it), and a terminal obeys
more than drawing: OSC 52 writes the clipboard, OSC 0 the window's title, CSI 21 t and DECRQM
ask the terminal to *type* an answer into the relay's input, DCS strings reach the terminal's
own parsers. :class:`RelayFilter` passes what a Textual app draws and drops everything else,
whole. It is stateful: a sequence cut between two websocket frames is held until its end
arrives (a string past :data:`MAX_HELD` is dropped whole, however long it runs).

Passed:
- printable text (any script), ``\\r``, ``\\n``, ``\\t``, ``\\b``;
- SGR (``CSI ... m``: colours, bold, underline; colon sub-parameters too);
- cursor movement and positioning (``CSI A B C D E F G H f d``), saving and restoring the
  cursor (``CSI s``, ``CSI u`` without parameters, ``ESC 7``, ``ESC 8``);
- erasing and editing (``CSI J K X L M P @``), scrolling (``CSI S T``), the scroll region
  (``CSI r``);
- DEC private modes a Textual app sets and resets (``CSI ? n h`` / ``l``): 1 (cursor keys),
  7 (line wrap), 12 (cursor blink), 25 (cursor shown), 47, 1047, 1048, 1049 (the alternate
  screen), 1000, 1002, 1003, 1006, 1015 (mouse reporting), 1004 (focus events), 1007
  (alternate scroll), 2004 (bracketed paste), 2026 (synchronised output);
- the keypad modes (``ESC =``, ``ESC >``) and the ASCII and line-drawing character sets
  (``ESC ( B``, ``ESC ( 0``).

Dropped on purpose (each a member of a class that is dropped whole):
- every OSC (the clipboard 52 — Textual's own copy included —, titles 0/1/2, hyperlinks 8,
  colour queries 4/10/11, the pointer shape 22), DCS, SOS, PM and APC string;
- every query, whose answer the terminal would type into the seat: device status and cursor
  position (``CSI n``), device attributes (``CSI c``), DECRQM (``CSI ? n $ p``), window
  reports and moves (``CSI t``), the kitty keyboard protocol (``CSI > u``, ``CSI < u``,
  ``CSI = u``, ``CSI ? u``);
- modes that change what the terminal sends: pixel mouse (1016), in-band resize reports (2048)
  and any private mode not listed above; ANSI modes (``CSI n h`` / ``l``);
- a full reset (``ESC c``) and any other ``ESC`` sequence not listed;
- 8-bit controls (``\\x80``-``\\x9f``: CSI, OSC, DCS ... in one byte, which some terminals
  obey), other C0 controls (BEL among them) and DEL.
"""

from __future__ import annotations

import codecs
import re

MAX_HELD = 64 * 1024
"""Characters of an unfinished sequence held for the next frame; past it, dropped whole."""

PRIVATE_MODES = frozenset(
    {1, 7, 12, 25, 47, 1047, 1048, 1049, 1000, 1002, 1003, 1006, 1015, 1004, 1007, 2004, 2026}
)
"""DEC private modes passed (see the module)."""

_DRAWING_FINALS = frozenset("ABCDEFGHfdJKXLMP@STr")
_ESC_ALLOWED = frozenset({"7", "8", "=", ">", "(B", "(0"})
_KEPT_CONTROLS = frozenset("\r\n\t\b")
_SPECIAL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_STRING_OPENERS = frozenset("]PX^_")
"""After ``ESC``: OSC, DCS, SOS, PM, APC, strings that run to their terminator."""
_C1_STRINGS = frozenset("\x9d\x90\x98\x9e\x9f")
_NUMERIC = re.compile(r"[0-9;:]*")


class RelayFilter:
    """One per relayed seat: :meth:`feed` each frame's bytes, write what it returns."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._held = ""
        """An unfinished sequence from the end of the last frame."""
        self._in_string = False
        """Inside a string being dropped that outgrew :data:`MAX_HELD`: drop to its end."""

    def feed(self, data: bytes) -> bytes:
        text = self._held + self._decoder.decode(data)
        self._held = ""
        if self._in_string:
            end = _string_end(text, 0, osc=True)
            if end is None:
                return b""
            self._in_string = False
            text = text[end:]
        kept, held = self._filter(text)
        if len(held) > MAX_HELD:
            self._in_string = held[:2] != "\x1b[" and held[:1] != "\x9b"
            held = ""
        self._held = held
        return kept.encode("utf-8")

    def _filter(self, text: str) -> tuple[str, str]:
        """(what ``text`` keeps, an unfinished sequence at its end)."""
        out: list[str] = []
        i, size = 0, len(text)
        while i < size:
            found = _SPECIAL.search(text, i)
            if found is None:
                out.append(text[i:])
                break
            start = found.start()
            out.append(text[i:start])
            char = text[start]
            if char in _KEPT_CONTROLS:
                out.append(char)
                i = start + 1
                continue
            end, keep = _sequence(text, start)
            if end is None:
                return "".join(out), text[start:]
            if keep:
                out.append(text[start:end])
            i = end
        return "".join(out), ""


def _sequence(text: str, start: int) -> tuple[int | None, bool]:
    """The end of the control or sequence at ``start`` (``None``: it goes on past the text)
    and whether it is kept."""
    char = text[start]
    if char == "\x9b":
        end = _csi_end(text, start + 1)
        return end, False  # an 8-bit CSI: its extent read, never passed
    if char in _C1_STRINGS:
        return _string_end(text, start + 1, osc=char == "\x9d"), False
    if char != "\x1b":
        return start + 1, False  # another C0 or C1 control, or DEL
    if start + 1 >= len(text):
        return None, False
    kind = text[start + 1]
    if kind == "[":
        end = _csi_end(text, start + 2)
        return end, end is not None and _csi_kept(text[start + 2 : end])
    if kind in _STRING_OPENERS:
        return _string_end(text, start + 2, osc=kind == "]"), False
    # ESC, intermediates (0x20-0x2F), a final (0x30-0x7E)
    j = start + 1
    while j < len(text) and "\x20" <= text[j] <= "\x2f":
        j += 1
    if j >= len(text):
        return None, False
    if not "\x30" <= text[j] <= "\x7e":
        return start + 1, False  # a broken sequence: the ESC goes, what follows is read anew
    return j + 1, text[start + 1 : j + 1] in _ESC_ALLOWED


def _csi_end(text: str, i: int) -> int | None:
    """The end of a CSI whose parameters start at ``i`` (``None``: not ended in ``text``)."""
    size = len(text)
    while i < size and "\x30" <= text[i] <= "\x3f":
        i += 1
    while i < size and "\x20" <= text[i] <= "\x2f":
        i += 1
    if i >= size:
        return None
    return i + 1  # any other character ends it (a final byte, or a broken sequence)


def _csi_kept(body: str) -> bool:
    """Whether a CSI (``body``: parameters, intermediates, final) is one a Textual app draws."""
    final, parameters = body[-1], body[:-1]
    if not "\x40" <= final <= "\x7e":
        return False
    if parameters.startswith("?"):
        numbers = parameters[1:]
        if final not in "hl" or not numbers or _NUMERIC.fullmatch(numbers) is None:
            return False
        return all(part.isdigit() and int(part) in PRIVATE_MODES for part in numbers.split(";"))
    if _NUMERIC.fullmatch(parameters) is None:  # a private prefix (<, =, >) or intermediates
        return False
    if final == "m" or final in _DRAWING_FINALS:
        return True
    return final in "su" and not parameters


def _string_end(text: str, i: int, *, osc: bool) -> int | None:
    """The end of a string starting at ``i``: ST (``ESC \\`` or ``\\x9c``), or BEL for an
    OSC; ``None`` when it goes on past ``text``."""
    size = len(text)
    while i < size:
        char = text[i]
        if char == "\x9c" or (osc and char == "\x07"):
            return i + 1
        if char == "\x1b":
            if i + 1 >= size:
                return None
            if text[i + 1] == "\\":
                return i + 2
        i += 1
    return None
