"""The chat screen's part in approving tool calls of the user's MCP servers.

A turn that reaches such a call pauses (a checkpoint); when it ends paused, the question
opens at once, and the palette's "Answer tool approval" opens it again later (after Esc, or
after a restart). The answer resumes the paused turn through a :class:`ResumeRequested`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from weaver_tui.screens.chat.requests import ResumeRequested

if TYPE_CHECKING:
    from agents.graph.approval import Decision, PendingApproval
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)


class ToolApprovals:
    """Finds the question waiting on the branch shown and asks it."""

    def __init__(self, surface: ChatSurface, state: ChatState) -> None:
        self._surface = surface
        self._state = state

    def pending(self) -> PendingApproval | None:
        conversation = self._state.conversation
        if conversation is None:
            return None
        from agents.graph.approval import find_pending_approval

        try:
            return find_pending_approval(self._state.store, conversation.id, self._state.leaf_id)
        except Exception as exc:  # noqa: BLE001 (a damaged record must not break the chat)
            logger.warning("pending approval not readable", extra={"error": str(exc)})
            return None

    def ask(self, *, quiet: bool = False) -> bool:
        """Open the waiting question; ``False`` (and, unless ``quiet``, a note) if none."""
        from agents.graph.approval import approval_value
        from weaver_tui.screens.tool_approval import ToolApprovalScreen

        pending = self.pending()
        if pending is None or self._surface.running:
            if not quiet:
                self._surface.notify("No tool call is waiting for your approval on this branch.")
            return False

        def decided(decision: Decision | None) -> None:
            if decision is None:
                return
            user_id = self._state.nearest_user(pending.record_id) or pending.record_id
            self._surface.post_message(
                ResumeRequested(user_id, pending.record_id, approval_value(decision))
            )

        self._surface.app.push_screen(ToolApprovalScreen(pending.question), decided)
        return True
