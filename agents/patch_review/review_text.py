"""A patch's diff as its reviewer sees it: every character the patch writes is on screen.

The class of mistakes this closes: a review that shows less than the patch writes. Stripping
control characters keeps a terminal safe, but a patch holding ``ESC``, a backspace, a lone
``CR`` or a C1 control would then be accepted as the text around it while the file gets the
bytes too; a format character (a bidi override, a zero-width space) or a line separator
(U+2028) can reorder, hide or break the text it sits in; a no-break or other wide space looks
like a plain space but is not one to a compiler.

The guarantee of :func:`review_text`: the result holds no character that draws nothing or
draws as something else (C0 and C1 controls but tab and newline, DEL, format characters
outside the contexts a script needs them in (see :mod:`storage.hidden_characters`), line and
paragraph separators, spaces other than U+0020); each such character is shown as
``<U+XXXX>``, and everything else is kept as it was, so the text written can be read back
from the text shown.
"""

from __future__ import annotations

import unicodedata

from storage.hidden_characters import reveal_hidden

_KEPT = frozenset("\t\n ")
_SHOWN_AS_CODE = frozenset({"Cc", "Zl", "Zp", "Zs"})
"""Categories every member of which (but :data:`_KEPT`) is shown as its code point; format
characters (``Cf``) are left to :func:`reveal_hidden`, which keeps those a script needs."""


def marker(char: str) -> str:
    """How a character that cannot be seen is shown: ``<U+001B>``."""
    return f"<U+{ord(char):04X}>"


def review_text(diff: str) -> str:
    """``diff`` with each character that cannot be seen for what it is as ``<U+XXXX>``."""
    shown = "".join(
        marker(char) if char not in _KEPT and unicodedata.category(char) in _SHOWN_AS_CODE else char
        for char in diff
    )
    return reveal_hidden(shown)
