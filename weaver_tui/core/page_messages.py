"""The messages a served page may send its app, checked before any reaches it.

textual-serve's own loop trusts every text frame: a frame that is not JSON, not a list, or a
list of another shape raises inside the session and ends it with a traceback in the log. A
page is untrusted (a seat's participant holds one), so a frame is read against an allowlist
of what textual-serve's page script sends, and anything else is refused as a whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class PageMessage:
    """One message a page sent: ``kind`` and what it carries (``text`` for ``stdin`` and
    ``ping``, ``width``/``height`` as sent for ``resize``; they are bounded later)."""

    kind: str
    text: str = ""
    width: object = None
    height: object = None


def page_message(frame: str) -> PageMessage | None:
    """The message in a text frame, or ``None`` for anything the page script never sends.

    Allowed: ``["stdin", text]``, ``["ping", text]``, ``["resize", {"width": w, "height":
    h}]``, ``["focus"]`` and ``["blur"]``. Anything else (not JSON, another kind, another
    shape, a value of another type, text with a lone surrogate, which JSON allows but no
    terminal can send) is ``None``; this never raises.
    """
    try:
        envelope = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope:
        return None
    kind, *rest = envelope
    if kind in ("focus", "blur") and not rest:
        return PageMessage(kind)
    if kind in ("stdin", "ping") and len(rest) == 1 and _is_text(rest[0]):
        return PageMessage(kind, text=rest[0])
    if kind == "resize" and len(rest) == 1 and isinstance(rest[0], dict):
        size = rest[0]
        if set(size) == {"width", "height"}:
            return PageMessage(kind, width=size["width"], height=size["height"])
    return None


def _is_text(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
