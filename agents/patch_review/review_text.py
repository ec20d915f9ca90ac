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
from the text shown. A tab draws as spaces, so on the rows a patch adds or removes (where a
tab traded for spaces, as in a Makefile, is the change) it is shown as ``→`` padded to its
tab stop, and a space at the end of such a row as ``<U+0020>``; context rows are kept.
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


TAB_SIZE = 4
"""The tab stops the review's diff view draws tabs to."""
TAB_SHOWN = "\u2192"
"""How a tab of a changed row is shown (padded with spaces to its tab stop)."""


def review_text(diff: str) -> str:
    """``diff`` with each character that cannot be seen for what it is as ``<U+XXXX>``, and
    the tabs of its added and removed rows as ``→``."""
    shown = "".join(
        marker(char) if char not in _KEPT and unicodedata.category(char) in _SHOWN_AS_CODE else char
        for char in diff
    )
    rows = reveal_hidden(shown).split("\n")
    return "\n".join(
        _changed_shown(row) if _changed_row(index, row) else row for index, row in enumerate(rows)
    )


def _changed_shown(row: str) -> str:
    """An added or removed row: its tabs as arrows, its trailing spaces as markers (a space
    added at the end of a line draws as nothing)."""
    body = row.rstrip(" ")
    return _tabs_shown(body) + marker(" ") * (len(row) - len(body))


def _changed_row(index: int, row: str) -> bool:
    header = index < 2 and row[:4] in ("--- ", "+++ ")
    return row[:1] in ("+", "-") and not header


def _tabs_shown(row: str) -> str:
    out: list[str] = []
    column = 0
    for char in row:
        if char == "\t":
            width = TAB_SIZE - column % TAB_SIZE
            out.append(TAB_SHOWN + " " * (width - 1))
            column += width
        else:
            out.append(char)
            column += 1
    return "".join(out)
