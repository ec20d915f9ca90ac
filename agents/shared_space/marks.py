"""How the model tells a private message from a shared one: a mark on its first line.

The runtime's history (:mod:`agents.runtime.history`) puts ``[private: Sam → mediator]`` on
its own line before the words of every private message, so the model, which reads every
message of the space, always knows what it must not repeat to the others. A mark in the text
reaches the model through any provider's chat template, where a system note between messages
is refused by some. Who spoke still travels as the message ``name``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from agents.shared_space.events import SHARED

_MARK = re.compile(r"\A\[private: [^\[\]\n]{1,80} → mediator\]\n")


_OPENING = frozenset("[［【〔〖〘〚⟦⟨⦋⦍⦏⁅")
"""Characters a model may read as the opening bracket of a mark."""
_MARK_WORDS = ("private", "shared")
"""The words the marks of the space start with (``[private: …]``, ``[shared by its author]``)."""


def defanged(text: str) -> str:
    """``text`` a participant wrote, with every bracket that would open a mark-like token
    (``[private: Alex → mediator]``, ``[shared by its author]``, in any case, spacing, width or
    bracket form) turned into a parenthesis, so the marks the model reads are only the ones
    the history writes: a participant cannot pass their words off as someone else's private
    message, or a private critique as shared. Every participant's text reaches the model
    through it (:mod:`agents.runtime.history`, the summary's transcript, the statement notes).
    """
    if not any(ch in _OPENING for ch in text):
        return text
    out = list(text)
    for i, ch in enumerate(text):
        if ch in _OPENING:
            ahead = unicodedata.normalize("NFKC", text[i + 1 : i + 60]).casefold()
            letters = "".join(c for c in ahead if c.isalpha())
            if letters.startswith(_MARK_WORDS):
                out[i] = "("
    return "".join(out)


def private_mark(sender: str) -> str:
    """The first line of a private message as the model reads it."""
    return f"[private: {sender} → mediator]"


def private_to_sender(meta: Mapping[str, Any]) -> bool:
    """Whether a user record with this ``meta`` is kept from some participant, read exactly
    as the store's viewer filter reads it (:mod:`storage.audience`): its ``visibility`` when
    the key holds a value, else its ``sender``'s own, else everyone's.

    This is the one definition of a private message for everything that reads the words on
    the mediator's side: the private mark the model reads (:mod:`agents.runtime.history`)
    and the guard that holds a post repeating them (:mod:`agents.shared_space.guard`). So a
    message no other participant can read is always marked and guarded, however its meta
    was written (a front end that names only the sender, an import, an older record)."""
    visibility = meta.get("visibility")
    if visibility is None:
        visibility = meta.get("sender") or SHARED
    return visibility != SHARED


def marked(text: str, sender: str) -> str:
    """``text`` with the private mark of ``sender`` before it (the text :func:`defanged`)."""
    return f"{private_mark(sender)}\n{defanged(text)}"


def unmarked(text: str) -> str:
    """``text`` without a leading private mark (the offline model reads the words only)."""
    return _MARK.sub("", text, count=1)
