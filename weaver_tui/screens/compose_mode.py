"""Where the next message goes: after the active leaf (the usual case), as a new branch of an
earlier message (fork), or as a new version of a message being edited.

:class:`ComposeMode` holds that choice and says it in the composer's hint; the chat screen
asks it where to attach what is sent and clears it whenever the path changes under it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weaver_tui.chat_state import ChatState
    from weaver_tui.widgets.composer import Composer


class ComposeMode:
    """The fork / edit mode of the composer, shown in its hint.

    ``composer`` returns the composer widget (a query: the widget exists only once mounted).
    """

    def __init__(self, state: ChatState, composer: Callable[[], Composer]) -> None:
        self._state = state
        self._composer = composer
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

    def fork(self, message_id: str) -> None:
        """The next message becomes a new child of ``message_id``."""
        self.clear()
        composer = self._composer()
        self.forking = True
        self.parent = message_id
        composer.hint = "fork: your next message starts a new branch here"
        composer.focus()

    def edit(self, message_id: str) -> None:
        """Put ``message_id`` in the composer; sending (or saving) makes its next version."""
        self.clear()
        composer = self._composer()
        record = self._state.index.get(message_id)
        self.editing_id = message_id
        version, count = self._state.index.version_of(message_id)
        if record.role == "assistant":
            composer.hint = f"editing reply v{version}/{count}: Enter saves v{count + 1}"
        else:
            composer.hint = f"editing v{version}/{count}: Enter sends v{count + 1}"
        composer.set_draft(record.content)

    def clear(self) -> None:
        """Back to the usual mode: the next message follows the active leaf."""
        self.forking = False
        self.parent = None
        self.editing_id = None
        self._composer().hint = ""

    def keep_draft(self, text: str) -> None:
        """Put ``text`` back in the composer (what was sent could not be kept)."""
        self._composer().set_draft(text)

    def show_attachments(self, paths: Sequence[Path]) -> None:
        """Name the files waiting for the next message in the hint (unless a mode uses it)."""
        if paths and not self.active:
            names = ", ".join(p.name for p in paths)
            self._composer().hint = f"📎 {names}: sent with your next message"
