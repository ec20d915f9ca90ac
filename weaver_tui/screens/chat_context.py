"""Steering what the model reads of the branch: pin a message, leave one out, summarise the
older turns, and the header's count of what the next turn sends against the model's window.

Mixed into :class:`~weaver_tui.screens.chat.ChatScreen`. Pins and omissions are a mark on the
message (``meta["context"]``); a summary is stored on the last message it covers. The tree
keeps every message either way (see :mod:`agents.context`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from textual import work

from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.screens.chat_host import ChatHost as _Host
else:
    _Host = object  # the type checker sees the chat screen's surface; Python a plain mixin

logger = logging.getLogger(__name__)

WARN_AT = 0.8
"""The share of the context window at which the header's count turns to a warning."""
NOTIFY_AT = 0.9
"""The share at which the user is told once what to do."""


class ChatContext(_Host):
    _context_told: tuple[str, int] | None = None

    def _selected_message(self) -> str | None:
        index = self.state.index
        if self.selected_id is not None and self.selected_id in index:
            return self.selected_id
        return self.state.leaf_id

    def _mark_context(self, mark: str) -> None:
        message_id = self._selected_message()
        if message_id is None:
            self.notify("Select a message first (in the tree or the message view).")
            return
        record = self.state.index.get(message_id)
        value = None if record.meta.get("context") == mark else mark
        try:
            self.state.store.update_message(message_id, meta={"context": value})
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.state.refresh(message_id)
        self.show_path(select=message_id)
        said = {"pinned": "Pinned: always sent", "excluded": "Left out of what the model reads"}
        self.notify(said[mark] if value else "Sent as usual again.")

    def action_pin_in_context(self) -> None:
        self._mark_context("pinned")

    def action_leave_out_of_context(self) -> None:
        self._mark_context("excluded")

    def action_summarise_older(self) -> None:
        if self.state.leaf_id is None or self.running:
            self.notify(
                "Wait for the reply to finish first."
                if self.running
                else "Nothing to summarise yet."
            )
            return
        self._summarise(self.state.leaf_id)

    @work(exclusive=True, group="summary", exit_on_error=False)
    async def _summarise(self, leaf_id: str) -> None:
        from agents.context import summarise_older
        from agents.errors import WeaverError

        self.header.busy = "summarising"
        try:
            handle = self.services.model
            record = await summarise_older(self.state.store, handle.model, leaf_id)
        except WeaverError as exc:
            self.notify(exc.user_message, severity="error", title="Not summarised")
            return
        except Exception as exc:  # a provider's failure, in one sentence
            sentence = getattr(exc, "user_message", None) or str(exc)
            self.notify(sentence[:300], severity="error", title="Not summarised")
            return
        finally:
            self.header.busy = ""
        if record is None:
            self.notify("This branch is short enough: nothing to summarise.")
            return
        self.state.refresh(record.id)
        self.show_path()
        covered = record.meta.get("summary_covers", 0)
        self.notify(
            f"Summarised the {covered} older messages: the model reads the summary in their place."
        )

    def _served_window(self) -> int | None:
        """The server's own figure for the current model (asked once, in a thread)."""
        try:
            handle = self.services.model
        except Exception:  # no model yet (a missing key ...): nothing to ask
            return None
        if handle.is_offline or not handle.base_url:
            return None
        key = (handle.base_url, handle.model_name)
        if key not in _SERVED:
            _SERVED[key] = None
            self._ask_served_window(key)
        return _SERVED[key]

    @work(thread=True, group="context-window", exit_on_error=False)
    def _ask_served_window(self, key: tuple[str, str]) -> None:
        from agents.context import ask_served_context_window

        api_key = self.services.settings.provider_config().api_key
        secret = api_key.get_secret_value() if api_key else None
        window = ask_served_context_window(key[0], secret, key[1])
        if window:
            _SERVED[key] = window
            self.app.call_from_thread(self.update_context_count)

    def update_context_count(self) -> None:
        """The header's count of what the next turn sends (once the agent stack is loaded)."""
        if not self.agents_ready or self.state.conversation is None:
            self.header.context = ""
            return
        from agents.context import context_records, context_window_of, estimate_tokens

        index = self.state.index
        path = [index.get(i) for i in self.state.path_ids()]
        limit = int(getattr(self.services.settings, "context_messages", 20))
        summary, records = context_records(path, limit)
        tokens = estimate_tokens(self.state.instructions, summary, records)
        window = context_window_of(self.header.model) or self._served_window()
        self.header.context_warn = bool(window and tokens >= window * WARN_AT)
        self.header.context = _count(tokens, window)
        told = (self.state.conversation.id, 1)
        if window and tokens >= window * NOTIFY_AT and self._context_told != told:
            self._context_told = told
            self.notify(
                f"This branch sends about {tokens:,} tokens of the model's {window:,}: "
                "summarise older turns or leave messages out (palette).",
                severity="warning",
                title="Context nearly full",
            )


_SERVED: dict[tuple[str, str], int | None] = {}
"""Context windows servers listed, by (base URL, model); ``None`` while asking or unknown."""


def _k(value: int) -> str:
    if value < 1000:
        return str(value)
    return f"{value / 1000:.1f}k" if value < 10_000 else f"{value // 1000}k"


def _count(tokens: int, window: int | None) -> str:
    return f"{_k(tokens)}/{_k(window)} tok" if window else f"{_k(tokens)} tok"
