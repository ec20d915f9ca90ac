"""Who said a user message, as the model is told: the message's ``name``.

OpenAI-compatible chat APIs take a participant's name on the message itself (``name``), in
characters their pattern allows: no whitespace and none of ``< | \\ / >``. A participant's
display name ("Mary Jane") is sent with those replaced by ``_`` ("Mary_Jane");
:func:`speaker_of` maps such a name back to the participant it stands for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_NOT_IN_NAME = re.compile(r"[\s<|\\/>]+")
MAX_NAME = 64


def message_name(speaker: str) -> str:
    """``speaker`` as a message ``name`` the chat APIs accept."""
    return _NOT_IN_NAME.sub("_", speaker.strip())[:MAX_NAME] or "_"


def speaker_of(name: str | None, participants: Sequence[str] = ()) -> str | None:
    """The participant a message ``name`` stands for (``name`` itself when none matches)."""
    if not name:
        return None
    return next((p for p in participants if message_name(p) == name), name)
