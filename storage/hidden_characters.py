"""Characters that change what text looks like without showing themselves, made visible.

A bidi override (U+202E) reorders what follows, so a line of code can read differently from
what runs; an isolate (U+2066-2069), an embedding, a zero-width space or a direction mark
hides a difference between two names. The class is Unicode's format characters (category
``Cf``): :func:`reveal_hidden` shows each as ``<U+XXXX>``, except where a script or an emoji
needs it to be drawn right, and those are the only exceptions:

- a zero-width joiner or non-joiner (U+200D, U+200C) between two characters of a script that
  joins (Arabic, Syriac, N'Ko, Persian's letters, the Indic scripts, Myanmar, Khmer, Mongolian),
  or a joiner after an emoji (or its modifier or variation selector) and before another emoji;
- the tag characters (U+E0020-E007F) that spell a subdivision flag after U+1F3F4;
- the signs that prefix Arabic numbers (U+0600-0605, U+06DD, U+08E2), which are drawn.

Text without format characters comes back as it was.
"""

from __future__ import annotations

import unicodedata

_JOINERS = frozenset("\u200c\u200d")
_DRAWN_FORMATS = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u08e2")
_JOINING_SCRIPTS = (
    (0x0600, 0x08FF),  # Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic extended
    (0x0900, 0x0DFF),  # Devanagari to Sinhala
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x18AF),  # Khmer, Mongolian
    (0xA8E0, 0xA8FF),  # Devanagari extended
    (0xFB50, 0xFDFF),  # Arabic presentation forms A
    (0xFE70, 0xFEFE),  # Arabic presentation forms B
)
_BLACK_FLAG = "\U0001f3f4"


def reveal_hidden(text: str) -> str:
    """``text`` with each format character outside the contexts above as ``<U+XXXX>``."""
    if not any(unicodedata.category(char) == "Cf" for char in text):
        return text
    shown: list[str] = []
    for index, char in enumerate(text):
        if unicodedata.category(char) != "Cf" or _needed(text, index):
            shown.append(char)
        else:
            shown.append(f"<U+{ord(char):04X}>")
    return "".join(shown)


def _needed(text: str, index: int) -> bool:
    char = text[index]
    if char in _DRAWN_FORMATS:
        return True
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if char in _JOINERS:
        if _joins(before) and _joins(after):
            return True
        return char == "\u200d" and _emoji_end(before) and _emoji(after)
    if "\U000e0020" <= char <= "\U000e007f":
        start = index
        while start > 0 and "\U000e0020" <= text[start - 1] <= "\U000e007f":
            start -= 1
        return start > 0 and text[start - 1] == _BLACK_FLAG
    return False


def _joins(char: str) -> bool:
    if not char:
        return False
    code = ord(char)
    in_script = any(low <= code <= high for low, high in _JOINING_SCRIPTS)
    return in_script and unicodedata.category(char)[0] in "LM"


def _emoji(char: str) -> bool:
    """A pictograph an emoji sequence joins (the Symbols and Pictographs planes and kin)."""
    if not char:
        return False
    code = ord(char)
    return 0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF or code in (0x2640, 0x2642)


def _emoji_end(char: str) -> bool:
    """The end of an emoji a joiner may follow: the emoji, a skin tone, a variation selector."""
    return _emoji(char) or char == "\ufe0f" or 0x1F3FB <= ord(char or "\0") <= 0x1F3FF


_BIDI_CONTROLS = frozenset(map(chr, (*range(0x202A, 0x202F), *range(0x2066, 0x206A))))


def reveal_bidi_controls(text: str) -> str:
    """``text`` with each bidi embedding, override and isolate (U+202A-202E, U+2066-2069) as
    ``<U+XXXX>``: what a message shows, where prose keeps its direction marks and joiners but
    no span of it may be drawn in an order other than the one it is read in."""
    if _BIDI_CONTROLS.isdisjoint(text):
        return text
    return "".join(f"<U+{ord(char):04X}>" if char in _BIDI_CONTROLS else char for char in text)
