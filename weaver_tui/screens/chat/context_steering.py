"""Steering what the model reads of the branch: pin a message, leave one out, summarise the
older turns, and the header's count of what the next turn sends against the model's window.

Pins and omissions are a mark on the message (``meta["context"]``); a summary is stored on the
last message it covers. The tree keeps every message either way (see :mod:`agents.context`).
:class:`ContextSteering` asks the chat's controller for the change (a runtime call, whose
record the controller applies to the state) and tells the screen through a
:class:`~weaver_tui.messages.PathChanged` message; the screen redraws.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from agents.runtime.events import RunError
from weaver_tui.messages import ContextWindowKnown, PathChanged

if TYPE_CHECKING:
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

WARN_AT = 0.8
"""The share of the context window at which the header's count turns to a warning."""
NOTIFY_AT = 0.9
"""The share at which the user is told once what to do."""


class ContextSteering:
    """Context marks, summaries and the header's token count for one chat screen.

    ``surface`` is the screen: it runs the workers, shows notifications, receives the
    messages, has the header, and says whether the agent stack is imported (the count needs
    it).
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        controller: ChatController,
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._controller = controller
        self._told: tuple[str, int] | None = None
        self._turn_ended = False

    def toggle_mark(self, message_id: str | None, mark: str) -> None:
        """Set ``mark`` (``pinned``, ``excluded``) on ``message_id``, or take it off again."""
        if message_id is None:
            self._surface.notify("Select a message first (in the tree or the message view).")
            return
        record = self._state.index.get(message_id)
        value = None if record.meta.get("context") == mark else mark
        event = self._controller.mark_context(message_id, value)
        if isinstance(event, RunError):
            self._surface.notify(event.error.user_message, severity="error")
            return
        self._surface.post_message(PathChanged(select=message_id))
        said = {"pinned": "Pinned: always sent", "excluded": "Left out of what the model reads"}
        self._surface.notify(said[mark] if value else "Sent as usual again.")

    def summarise(self, leaf_id: str) -> None:
        """Summarise the turns older than the context keeps, in a worker of the screen."""
        self._surface.run_worker(
            self._summarise(leaf_id),
            name="summarise",
            group="summary",
            exclusive=True,
            exit_on_error=False,
        )

    async def _summarise(self, leaf_id: str) -> None:
        header = self._surface.header
        header.busy = "summarising"
        try:
            event = await self._controller.summarise(leaf_id)
        finally:
            header.busy = ""
        if isinstance(event, RunError):
            self._surface.notify(event.error.user_message, severity="error", title="Not summarised")
            return
        if event is None:
            self._surface.notify("This branch is short enough: nothing to summarise.")
            return
        record = event.record  # applied to the state by the controller
        self._surface.post_message(PathChanged())
        covered = record.meta.get("summary_covers", 0)
        note = record.meta.get("summary_note")
        self._surface.notify(
            f"Summarised the {covered} older messages: the model reads the summary in their place."
            + (f" Note: {note}." if note else ""),
            severity="warning" if note else "information",
        )

    def turn_ended(self) -> None:
        """A turn has streamed: from now on the header's count may ask the server for the
        model's context window. Asked earlier, the question would compete with the first
        turn; asked now, it goes over the connection the turn left open."""
        self._turn_ended = True

    def window(self) -> int | None:
        """The header's model's context window in tokens (``None`` while unknown): the
        presets' or the server's figure, or a smaller one a request that overflowed taught
        (:mod:`agents.providers.context_overflow`), so auto-summary works to the real one."""
        from agents.context import context_window_of
        from agents.providers.context_overflow import effective_context_window

        model = self._surface.header.model
        known = context_window_of(model) or self._served_window()
        if not self._services.model_built or self._services.model.model_name != model:
            return known
        return effective_context_window(known, self._services.model.base_url, model)

    def _served_window(self) -> int | None:
        """The server's own figure for the header's model, asked once per model and server,
        after a turn, with the model's own client (see :meth:`turn_ended`)."""
        header = self._surface.header
        key = (
            header.provider,
            header.model,
            str(self._services.settings.provider_config().base_url),
        )
        if key not in _SERVED:
            if not (self._turn_ended and self._services.model_built):
                return None
            _SERVED[key] = None
            self._surface.run_worker(
                self._ask_served_window(key), group="context-window", exit_on_error=False
            )
        return _SERVED[key]

    async def _ask_served_window(self, key: tuple[str, str, str]) -> None:
        window = await self._services.model.served_context_window()
        if window:
            _SERVED[key] = window
            self._surface.post_message(ContextWindowKnown())

    def update_count(self) -> None:
        """The header's count of what the next turn sends (once the agent stack is loaded)."""
        header = self._surface.header
        if not self._surface.agents_ready or self._state.conversation is None:
            header.context = ""
            return
        from agents.context import context_records, estimate_tokens

        index = self._state.index
        path = [index.get(i) for i in self._state.path_ids()]
        limit = self._services.settings.turns.context_messages
        summary, records = context_records(path, limit)
        tokens = estimate_tokens(self._state.instructions, summary, records)
        window = self.window()
        header.context_warn = bool(window and tokens >= window * WARN_AT)
        header.context = _count(tokens, window)
        told = (self._state.conversation.id, 1)
        if window and tokens >= window * NOTIFY_AT and self._told != told:
            self._told = told
            self._surface.notify(
                f"This branch sends about {tokens:,} tokens of the model's {window:,}: "
                "summarise older turns or leave messages out (palette).",
                severity="warning",
                title="Context nearly full",
            )


_SERVED: dict[tuple[str, str, str], int | None] = {}
"""Context windows servers listed, by the header's (provider, model) and the base URL; ``None``
while asking or unknown."""


def _k(value: int) -> str:
    if value < 1000:
        return str(value)
    return f"{value / 1000:.1f}k" if value < 10_000 else f"{value // 1000}k"


def _count(tokens: int, window: int | None) -> str:
    return f"{_k(tokens)}/{_k(window)} tok" if window else f"{_k(tokens)} tok"
