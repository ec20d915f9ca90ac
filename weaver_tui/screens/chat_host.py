"""What the chat screen's parts share: the surface its mixins and the demo player work on.

:class:`~weaver_tui.screens.chat.ChatScreen` is assembled from mixins (actions, branching,
profile wiring) and is driven by the demo player; they all read and call the members listed
here, which the screen provides. Typing them against this protocol, not against the screen
class, keeps every one of those modules from importing the screen that imports them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode
    from textual.widget import Widget
    from textual.worker import Worker

    from weaver_tui.chat_state import ChatState
    from weaver_tui.screens.artifact_saver import ArtifactSaver
    from weaver_tui.screens.compose_mode import ComposeMode
    from weaver_tui.screens.context_steering import ContextSteering
    from weaver_tui.screens.conversation_settings import ConversationSettings
    from weaver_tui.screens.pane_fit import PaneFit
    from weaver_tui.screens.turn_runner import TurnRunner
    from weaver_tui.screens.turn_view import TurnView
    from weaver_tui.services import Services
    from weaver_tui.widgets.chat_header import ChatHeader
    from weaver_tui.widgets.composer import Composer
    from weaver_tui.widgets.conversation_tree import ConversationTree
    from weaver_tui.widgets.mediator_panel import MediatorPanel
    from weaver_tui.widgets.message_view import MessageView
    from weaver_tui.widgets.tool_pane import ToolStatusPane


class ChatHost(Protocol):
    """The chat screen as its parts see it."""

    # the Textual screen
    @property
    def app(self) -> App[Any]: ...
    @property
    def focused(self) -> Widget | None: ...
    def notify(self, message: str, *, title: str = "", severity: Any = "information") -> None: ...
    def query_one(self, selector: Any, expect_type: Any = None) -> Any: ...
    def refresh_bindings(self) -> None: ...
    def run_worker(
        self, work: Callable[[], Any] | Awaitable[Any], name: str | None = "", **kwargs: Any
    ) -> Worker[Any]: ...
    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...
    def post_message(self, message: Any) -> bool: ...
    def set_class(self, add: bool, *class_names: str) -> DOMNode: ...

    # what the screen holds
    services: Services
    state: ChatState
    project_root: Path | None
    turns: TurnRunner
    retry_user_id: str | None
    compose_mode: ComposeMode
    steering: ContextSteering
    selected_id: str | None
    conversation_settings: ConversationSettings
    saver: ArtifactSaver
    pane_fit: PaneFit
    conversation_open: bool
    agents_ready: bool
    mediator_view: str | None
    profile_panel: Widget | None
    demo_pause_s: float

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
    def running(self) -> bool: ...
    @property
    def cancel_event(self) -> asyncio.Event | None: ...
    @property
    def turn(self) -> TurnView | None: ...

    # what the screen does
    def show_conversation(self, *, defer_tree: bool = False) -> None: ...
    def show_path(self, *, select: str | None = None) -> None: ...
    def update_header(self) -> None: ...
    def show_panel(self, panel: Widget | None) -> None: ...
    def send(self, event: Composer.Submitted) -> None: ...
    def start_turn(self, user_message_id: str) -> None: ...
    def run_turn(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None = None,
        continue_from: str | None = None,
    ) -> Worker[None]: ...
    def open_conversation(self, conversation_id: str, message_id: str | None = None) -> None: ...
    def set_compose_mode(
        self, *, fork_from: str | None = None, edit: str | None = None
    ) -> None: ...
    def clear_compose_mode(self) -> None: ...
    def mount_profile_panel(self) -> None: ...
    def mediator_panel(self) -> MediatorPanel | None: ...
    def participants(self) -> tuple[str, ...]: ...
    def project_dir(self) -> Path: ...
    def update_context_count(self) -> None: ...
    def visible_items(self) -> list[Any]: ...
