"""How the model tells a private message from a shared one: a mark on its first line.

The runtime's history (:mod:`agents.runtime.history`) puts ``[private: Sam → mediator]`` on
its own line before the words of every private message, so the model, which reads every
message of the space, always knows what it must not repeat to the others. A mark in the text
reaches the model through any provider's chat template, where a system note between messages
is refused by some. Who spoke still travels as the message ``name``.
"""

from __future__ import annotations

import re

from agents.shared_space.events import SHARED

_MARK = re.compile(r"\A\[private: [^\[\]\n]{1,80} → mediator\]\n")


def private_mark(sender: str) -> str:
    """The first line of a private message as the model reads it."""
    return f"[private: {sender} → mediator]"


def is_private(visibility: str | None) -> bool:
    """Whether a user record's visibility keeps it from the other participants."""
    return visibility not in (None, SHARED)


def marked(text: str, sender: str) -> str:
    """``text`` with the private mark of ``sender`` before it."""
    return f"{private_mark(sender)}\n{text}"


def unmarked(text: str) -> str:
    """``text`` without a leading private mark (the offline model reads the words only)."""
    return _MARK.sub("", text, count=1)
