"""Where the next message goes: after the active leaf (the usual case), as a new branch of an
earlier message (fork), or as a new version of a message being edited.

:class:`ComposeMode` holds that choice and says it in the composer's hint; the chat screen
asks it where to attach what is sent and clears it whenever the path changes under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface


class ComposeMode:
    """The fork / edit mode of the composer, shown in its hint (``surface`` has the composer)."""

    def __init__(self, surface: ChatSurface, state: ChatState) -> None:
        self._surface = surface
        self._state = state
        self.forking = False
        self.parent: str | None = None
        """The message a fork starts from (``None`` unless forking)."""
        self.editing_id: str | None = None

    @property
    def active(self) -> bool:
        """Forking or editing: Esc leaves the mode."""
        return self.forking or self.editing_id is not None

    @property
    def editing_reply(self) -> bool:
        """A reply is being edited: Enter saves a new version, no turn runs."""
        return (
            self.editing_id is not None
            and self._state.index.get(self.editing_id).role == "assistant"
        )

    def parent_of_next(self) -> str | None:
        """The message the next user message is attached under."""
        if self.editing_id is not None:
            return self._state.index.parent(self.editing_id)
        if self.forking:
            return self.parent
        return self._state.leaf_id

    def fork(self, message_id: str) -> bool:
        """The next message starts a new branch at ``message_id``: below it, or beside it when
        it is a user message (see :meth:`storage.tree_index.TreeIndex.fork_parent`); False,
        said, when no message can follow it."""
        from storage.tree_index import ForkError

        index = self._state.index
        try:
            parent = index.fork_parent(message_id)
        except ForkError as exc:
            self._surface.notify(str(exc), severity="warning")
            return False
        self.clear()
        composer = self._surface.composer
        self.forking = True
        self.parent = parent
        if index.get(message_id).role == "user":
            composer.hint = "fork: your next message is asked instead of this one"
        else:
            composer.hint = "fork: your next message starts a new branch here"
        composer.focus()
        self._surface.refresh_bindings()  # Esc leaves the mode
        return True

    def edit(self, message_id: str) -> None:
        """Put ``message_id`` in the composer; sending (or saving) makes its next version."""
        self.clear()
        composer = self._surface.composer
        record = self._state.index.get(message_id)
        self.editing_id = message_id
        version, count = self._state.index.version_of(message_id)
        if record.role == "assistant":
            composer.hint = f"editing reply v{version}/{count}: Enter saves v{count + 1}"
        else:
            composer.hint = f"editing v{version}/{count}: Enter sends v{count + 1}"
        composer.set_draft(record.content)
        self._surface.refresh_bindings()  # Esc leaves the mode

    def clear(self) -> None:
        """Back to the usual mode: the next message follows the active leaf."""
        was_active = self.active
        self.forking = False
        self.parent = None
        self.editing_id = None
        self._surface.composer.hint = ""
        if was_active:
            self._surface.refresh_bindings()  # Esc has no mode to leave any more

    def keep_draft(self, text: str) -> None:
        """Put ``text`` back in the composer (what was sent could not be kept)."""
        self._surface.composer.set_draft(text)

    def show_attachments(self, paths: Sequence[Path]) -> None:
        """Name the files waiting for the next message in the hint (unless a mode uses it)."""
        if paths and not self.active:
            names = ", ".join(p.name for p in paths)
            self._surface.composer.hint = f"📎 {names}: sent with your next message"
