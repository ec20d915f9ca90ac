"""Text from an atom's run made safe to show: one line of printable characters.

An atom chooses the messages of the exceptions it raises, and those messages become errors of
the validation report, which the chat, the tool pane, the command line and the next fix's
prompt show. Whatever characters a message holds, what is shown is one line: every character
that is not printable (C0 and C1 controls such as the escape that starts a terminal sequence,
line and paragraph separators, format characters such as bidirectional overrides, surrogates,
private-use and unassigned code points) is written as its Python escape (``\\x1b``,
``\\n``, ``\\u202e``), so a message can neither move the cursor or retitle a terminal nor start
a line of its own that reads like a level's verdict. Where the report is shown as Markdown,
each such text is also a code span (:func:`code_span`), so it is never read as Markdown.
"""

from __future__ import annotations

import re
import unicodedata

_SHOWN = frozenset({"L", "M", "N", "P", "S"})
"""The Unicode major categories shown as they are (letters, marks, numbers, punctuation,
symbols); of the separators, only spaces (``Zs``)."""


def printable(char: str) -> bool:
    """Whether ``char`` is shown as it is on one line."""
    category = unicodedata.category(char)
    return category[0] in _SHOWN or category == "Zs"


def _escaped(char: str) -> str:
    code = ord(char)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char)
    if named:
        return named
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(text: str) -> str:
    """``text`` with every character that is not printable written as its escape."""
    if all(printable(char) for char in text):
        return text
    return "".join(char if printable(char) else _escaped(char) for char in text)


def code_span(text: str) -> str:
    """``text`` as one line in a Markdown code span, so a chat shows it literally: no link,
    image, emphasis or HTML an atom wrote in an exception message is read as Markdown. The
    span's backtick run is longer than any inside, and one space pads a text that starts or
    ends with a backtick or a space (Markdown strips one from each end)."""
    line = one_line(text) or " "  # an empty span is no span: one space stands for nothing
    longest = max((len(run) for run in re.findall("`+", line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if line.strip(" ") and (line[0] in "` " or line[-1] in "` ") else ""
    return f"{fence}{pad}{line}{pad}{fence}"
