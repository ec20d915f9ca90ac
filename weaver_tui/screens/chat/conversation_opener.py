"""Reading the conversation a chat screen starts on, while the screen is being built.

A thread started with the screen reads it: first the bottom of a long path
(:func:`~weaver_tui.chat_preview.read_preview`), which the screen draws at its first mount;
then, once that frame is painted (before it, the two would only share the GIL), the whole
conversation into the screen's :class:`~weaver_tui.core.chat_state.ChatState`. Without a preview the
screen waits for the whole read, which overlaps with Textual composing the screen. Nothing
else touches the state until the screen has taken the result (``conversation_open``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING

from weaver_tui.chat_preview import Preview, read_preview

if TYPE_CHECKING:
    from weaver_tui.core.chat_state import ChatState

logger = logging.getLogger(__name__)

PREVIEW_PAINT_WAIT_S = 1.0
"""How long the open thread waits for the preview's frame before reading on anyway."""


class ConversationOpener:
    """One read of the start conversation (``conversation_id``, else the latest of
    ``profile``, else a new one) into ``state``, in a thread started at once."""

    def __init__(self, state: ChatState, profile: str | None, conversation_id: str | None) -> None:
        self._state = state
        self.profile = profile
        self.conversation_id = conversation_id
        self.preview: Preview | None = None
        self._error: Exception | None = None
        self._preview_ready = threading.Event()
        self._preview_painted = threading.Event()
        self.thread = threading.Thread(
            target=self._read, name="weaver-open-conversation", daemon=True
        )
        self.thread.start()

    def wait_for_preview(self) -> Preview | None:
        """The preview to draw first (``None``: wait for the whole read instead)."""
        self._preview_ready.wait()
        return self.preview

    def preview_painted(self) -> None:
        """The preview is on screen: the whole read may start."""
        self._preview_painted.set()

    def join(self) -> None:
        self.thread.join()

    async def join_async(self) -> None:
        await asyncio.to_thread(self.thread.join)

    def take_error(self) -> Exception | None:
        """What the read raised (once), for the screen to report."""
        error, self._error = self._error, None
        return error

    async def close(self) -> None:
        """The screen is going away: let a read still running finish first."""
        self._preview_painted.set()
        if self.thread.is_alive():
            await self.join_async()

    def _read(self) -> None:
        profile, conversation_id = self.profile, self.conversation_id
        try:
            self.preview = read_preview(self._state.store, profile, conversation_id)
        except Exception:  # only a preview: the full read below reports a real problem
            logger.debug("no preview of the conversation", exc_info=True)
        finally:
            self._preview_ready.set()
        if self.preview is not None:
            self._preview_painted.wait(PREVIEW_PAINT_WAIT_S)
        try:
            if conversation_id is not None:
                self._state.open(conversation_id)
            elif not self._state.open_latest(profile):
                self._state.new(profile)
        except Exception as exc:  # noqa: BLE001 (handed to the screen, which reports it)
            self._error = exc
