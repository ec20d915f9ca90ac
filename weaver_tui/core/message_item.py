"""What the message view shows for one message: a frozen, UI-only description of a record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast, get_args

Status = Literal["complete", "streaming", "cancelled", "error"]
"""The lifecycle of a message, the same values as ``storage.models.MessageStatus``."""

STATUSES: frozenset[str] = frozenset(get_args(Status))


def as_status(value: str) -> Status:
    """A stored status as the view names it (one it does not know shows as complete)."""
    return cast(Status, value) if value in STATUSES else "complete"


@dataclass(frozen=True, slots=True)
class MessageItem:
    """One message of the active path, as the view draws it.

    The app builds these from storage records; the view never sees a record. ``badge`` is the
    header text after the role ("gpt-4o · 1.2s"), ``visibility`` a label such as
    "private → Alex" (mediator), ``error`` the one-sentence reason shown under a failed reply.
    ``version`` / ``sibling_count`` drive the ``< 2/3 >`` control in the header.
    ``reasoning`` is a reply's thinking, shown folded above its content.
    """

    id: str
    role: str
    content: str = ""
    status: Status = "complete"
    version: int = 1
    sibling_count: int = 1
    badge: str = ""
    visibility: str = ""
    error: str = ""
    reasoning: str = ""

    @property
    def has_versions(self) -> bool:
        """Whether the header shows the ``< n/m >`` version control."""
        return self.sibling_count > 1
