"""The chat without Textual: send / fork / edit / regenerate / continue / resume / summarise
in, runtime events out.

:class:`~weaver_tui.core.chat_controller.controller.ChatController` is what the chat screen maps its
keys and messages to, and what tests drive without a Pilot. Every call goes through the
runtime (a turn through :meth:`AgentRuntime.send` or :meth:`AgentRuntime.exclusively`, an edit
through :class:`agents.runtime.tree_edits.TreeEdits`); the controller applies each event to the
chat's state before handing it on, so the state changes only by events and a front end only
renders them. Nothing here imports Textual (a test starts a fresh interpreter to check).
"""

from weaver_tui.core.chat_controller.controller import ChatController

__all__ = ["ChatController"]
