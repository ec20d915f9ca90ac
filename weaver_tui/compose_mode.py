"""What sending the composer's text will do, as one piece of state the chat screen owns.

A plain reply below the active leaf; a fork below a chosen message; a new version of a message
being edited (your own: sending makes it and a new reply; a reply: sending saves it, no turn);
and the files waiting to go with the next message. The composer's subtitle is derived from this
state in one place (:attr:`ComposeMode.hint`), so no action writes it by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal


@dataclass
class ComposeMode:
    """The mode of the next message (at most one of fork and edit) and its attachments."""

    fork_parent: str | None = None
    """The message the next one becomes a new child of (a fork), or ``None``."""
    editing_id: str | None = None
    """The message being edited into a new version, or ``None``."""
    editing_role: Literal["user", "assistant"] = "user"
    editing_version: tuple[int, int] = (1, 1)
    """(version, count) of the message being edited among its siblings."""
    attachments: list[Path] = field(default_factory=list)
    """Files chosen with "Attach file", sent with the next message."""

    @property
    def forking(self) -> bool:
        return self.fork_parent is not None

    @property
    def editing_reply(self) -> bool:
        return self.editing_id is not None and self.editing_role == "assistant"

    @property
    def active(self) -> bool:
        """A fork or an edit is under way (Esc leaves it)."""
        return self.forking or self.editing_id is not None

    def fork(self, parent_id: str) -> None:
        self.clear()
        self.fork_parent = parent_id

    def edit(
        self, message_id: str, role: Literal["user", "assistant"], version: int, count: int
    ) -> None:
        self.clear()
        self.editing_id, self.editing_role, self.editing_version = (
            message_id,
            role,
            (version, count),
        )

    def attach(self, path: Path) -> None:
        if path not in self.attachments:
            self.attachments.append(path)

    def clear(self) -> None:
        """Back to a plain reply (the attachments stay until the message is sent)."""
        self.fork_parent = self.editing_id = None

    def sent(self) -> None:
        """The message went out: a plain reply next, and nothing attached."""
        self.clear()
        self.attachments = []

    @property
    def hint(self) -> str:
        """The composer's subtitle: what Enter will do, else the files waiting to be sent."""
        if self.editing_id is not None:
            version, count = self.editing_version
            if self.editing_reply:
                return f"editing reply v{version}/{count}: Enter saves v{count + 1}"
            return f"editing v{version}/{count}: Enter sends v{count + 1}"
        if self.forking:
            return "fork: your next message starts a new branch here"
        if self.attachments:
            names = ", ".join(path.name for path in self.attachments)
            return f"📎 {names}: sent with your next message"
        return ""
