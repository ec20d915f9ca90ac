"""What may be a participant's name: plain text that no other name of the space looks like.

A participant's name is who they are to everyone else in the space: the seats show it beside
what each person said, the model reads it as the message ``name``, a delivery names its reader
by it. So a name must read as itself everywhere and be told apart from every other name of the
space at a glance. The rules are an allowlist:

- **characters**: letters and their accents, digits, spaces, and the apostrophes, hyphens and
  dots of real names (``O'Brien``, ``Anne-Marie``, ``J. R.``); nothing else: no control or
  format characters (escape sequences, zero-width characters, bidi overrides), no brackets,
  colons or symbols;
- **one form**: the name as written is its own compatibility form (NFKC), so fullwidth letters
  or a decomposed accent are refused with the plain spelling to use;
- **one script**: the letters of a name come from one writing system when Latin, Cyrillic or
  Greek is among them, so ``Аlex`` with a Cyrillic ``А`` is refused;
- **told apart**: two names of a space differ in their :func:`skeleton`: case, accents and
  letters of another script that look the same (Cyrillic ``а``, Greek ``ο``) do not tell names
  apart, so ``Alex`` and ``ALEX``, ``Zoe`` and ``Zoë``, ``Straße`` and ``STRASSE`` cannot sit in
  one space.
"""

from __future__ import annotations

import unicodedata

_PUNCTUATION = frozenset("'’-.")
"""The punctuation a name may hold besides letters, digits and spaces."""

_LOOKALIKE = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j",
        "ѕ": "s", "ԁ": "d", "ӏ": "l", "ɡ": "g", "һ": "h", "ԛ": "q", "ԝ": "w",
        # Greek letters drawn like Latin ones
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u", "ω": "w",
        "ς": "c", "σ": "o",
        # digits drawn like letters
        "0": "o", "1": "l",
    }
)  # fmt: skip


def skeleton(name: str) -> str:
    """What a name looks like, for telling names apart: spaces collapsed, case folded, accents
    dropped, letters that look alike across scripts made one."""
    folded = " ".join(name.split()).casefold()
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch)
    )
    return bare.translate(_LOOKALIKE).replace("’", "'")


_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
"""Scripts whose letters are drawn alike: a name may not mix one of them with another script
(a Japanese name's kanji and kana may mix)."""


def _script(ch: str) -> str:
    """The writing system of a letter: the first word of its Unicode name (LATIN, CYRILLIC)."""
    return unicodedata.name(ch, "UNKNOWN").split(" ")[0]


def name_problem(name: str) -> str | None:
    """Why ``name`` (spaces already collapsed) cannot be a participant's name, as the end of a
    sentence that starts with the name; ``None`` when it can."""
    for ch in name:
        kind = unicodedata.category(ch)
        if not ((kind[0] in "LMN" and kind != "No" and kind != "Nl") or ch == " "
                or ch in _PUNCTUATION):  # fmt: skip
            return (
                f"holds {ch!r}: use letters, digits, spaces, apostrophes, hyphens and dots, "
                "without brackets, colons, line breaks or other signs"
            )
    plain = unicodedata.normalize("NFKC", name)
    if plain != name:
        return f"is written in special character forms; type it as {plain!r}"
    scripts = sorted({_script(ch) for ch in name if ch.isalpha()})
    if len(scripts) > 1 and _LOOKALIKE_SCRIPTS.intersection(scripts):
        return f"mixes letters of {' and '.join(s.title() for s in scripts)}; use one script"
    return None
