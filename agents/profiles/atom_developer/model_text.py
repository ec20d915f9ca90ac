"""What a model wrote, as text that can be stored and sent on.

JSON lets a server send half of a UTF-16 surrogate pair on its own (``"\\ud800"``), and the
client decodes it into a Python string no UTF-8 encoder accepts: the next request that quotes
it (a fix's prompt holds the draft) and the database that stores the reply both fail on it.
Each lone surrogate in a model's text becomes U+FFFD (the replacement character) before the
text is read as code, spec or notes, so the turn goes on and shows where the text was broken
(code broken there fails level 1 with one sentence).
"""

from __future__ import annotations

import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def unicode_text(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD; every other character kept."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)
