"""The chat screen as its pieces see it: its panes, its reactive status, and what any Textual
screen does for them (notifications, modal screens, workers, messages).

Each piece of the chat screen (:mod:`.branching`, :mod:`.sender`, :mod:`.turn_runner` ...)
is handed the screen typed as :class:`ChatSurface`, so it can read the status and draw on the
panes but knows nothing else of the screen. What a piece wants the screen to *do* (answer a
message again, open another conversation, redraw the header) it posts as one of the messages in
:mod:`.chat_requests`; what it wants to *know* (is a reply running, is the conversation read,
are the agent modules loaded) it reads from the status, which the screen keeps as Textual
reactives: their watchers refresh the key bindings and send a draft that waited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.widgets import Static
    from textual.worker import Worker

    from weaver_tui.widgets.chat_header import ChatHeader
    from weaver_tui.widgets.composer import Composer
    from weaver_tui.widgets.conversation_tree import ConversationTree
    from weaver_tui.widgets.message_view import MessageView
    from weaver_tui.widgets.tool_pane import ToolStatusPane


class ChatSurface(Protocol):
    """The panes, the status and the screen services the chat screen's pieces use."""

    # ------------------------------------------------------------------ the panes

    @property
    def header(self) -> ChatHeader: ...
    @property
    def messages(self) -> MessageView: ...
    @property
    def tree(self) -> ConversationTree: ...
    @property
    def tools(self) -> ToolStatusPane: ...
    @property
    def composer(self) -> Composer: ...
    @property
    def empty_hint(self) -> Static: ...

    # ------------------------------------------------------------------ the status (reactive)

    conversation_open: bool
    """The state holds the conversation (until then a long conversation's preview shows)."""
    agents_ready: bool
    """The warm-up after the first paint has imported the agent modules."""
    running: bool
    """A reply (or a cancellable pause) runs; Esc stops it."""
    retry_user_id: str | None
    """The user message whose reply failed or was cancelled on the shown path (F5 retries)."""

    # ------------------------------------------------------------------ what a screen does

    @property
    def app(self) -> App[Any]: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Worker[Any]: ...
    def refresh_bindings(self) -> None: ...
    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...
