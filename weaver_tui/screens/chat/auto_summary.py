"""Context that manages itself: before a turn that would pass ``auto_summary_at`` (90%) of the
model's context window, the older part of the branch is summarised, as the palette's
"Summarise older turns" does (the summary is stored on the last message it covers; the tree
marks it ▤), and a notification says so. The ``auto_summary`` setting turns it off everywhere,
the palette's "Auto-summary for this conversation" for one conversation. Token trimming in the
runtime stays behind it as the hard limit.

On the offline demo (which cannot summarise) the summary is extractive: the first line of each
message it covers, so no summary ever replaces real messages with a sentence saying nothing.
A summary that fails is said in one sentence and the turn runs on (trimming applies).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from weaver_tui.messages import PathChanged

if TYPE_CHECKING:
    from agents.providers import ChatModelHandle
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

OFF_KEY = "auto_summary"
"""The conversation setting that is ``False`` when auto-summary is off for it."""


class AutoSummary:
    """The automatic summary before each turn of one chat screen (``window`` gives the model's
    context window in tokens, ``None`` when unknown)."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        window: Callable[[], int | None],
        controller: ChatController,
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._controller = controller
        self._window = window

    def toggle_for_conversation(self) -> None:
        """Turn auto-summary off for the open conversation, or back on."""
        off = self._state.setting(OFF_KEY) is False
        self._state.set_setting(OFF_KEY, None if off else False)
        if off:
            self._surface.notify("Auto-summary is on again for this conversation.")
        else:
            self._surface.notify(
                "Auto-summary is off for this conversation; older messages are only trimmed."
            )

    def _enabled(self) -> bool:
        settings = self._services.settings
        return settings.turns.auto_summary and (self._state.setting(OFF_KEY) is not False)

    async def before_turn(self, user_message_id: str, model: ChatModelHandle) -> None:
        """Summarise the older part of the branch to ``user_message_id`` if the turn would
        pass the threshold; never raises (the turn runs either way)."""
        from agents.context import needs_auto_summary
        from agents.runtime.events import RunError

        window = self._window()
        if not window or not self._enabled():
            return
        settings = self._services.settings
        path = self._state.store.path_to_root(user_message_id)
        tokens = needs_auto_summary(
            path,
            self._state.instructions,
            settings.turns.context_messages,
            window,
            settings.turns.auto_summary_at,
        )
        if tokens is None:
            return
        header = self._surface.header
        header.busy = "summarising"
        try:
            event = await self._controller.summarise(user_message_id, model)
        finally:
            header.busy = "replying"
        if isinstance(event, RunError):  # said, and trimming takes over
            sentence = event.error.user_message
            logger.warning("auto-summary failed: %s", sentence)
            self._surface.notify(
                f"{sentence[:250]} The turn runs on; the oldest messages are trimmed instead.",
                severity="warning",
                title="Not summarised",
            )
            return
        if event is None:
            return
        record = event.record  # applied to the state by the controller
        self._surface.tree.update_record(record)
        self._surface.post_message(PathChanged())
        how = (
            "an extract (this model cannot summarise)"
            if record.meta.get("summary_kind") == "extract"
            else "a summary"
        )
        note = record.meta.get("summary_note")
        self._surface.notify(
            f"This turn would send about {tokens:,} of the model's {window:,} tokens: the "
            f"{record.meta.get('summary_covers', 0)} older messages were replaced, for the "
            f"model, by {how} (▤ in the tree). Palette: 'Auto-summary for this conversation' "
            "turns this off." + (f" Note: {note}." if note else ""),
            severity="warning" if note else "information",
            title="Older turns summarised",
        )
