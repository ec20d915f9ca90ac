"""A tool call waiting for the user's approval (one of the user's MCP servers with
``approve: ask``) as an ACP permission request: allow once, allow always (for this
conversation), or deny."""

from __future__ import annotations

from typing import Any

from acp.schema import PermissionOption, ToolCallUpdate

from agents.graph.approval import ApprovalQuestion, Decision
from agents.pending_interrupt import paused_here
from storage.printable import printable
from storage.store import ConversationStore
from weaver_tui.core.acp_agent.turn_updates import tool_title

APPROVAL_OPTIONS = [
    PermissionOption(option_id="once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="always", name="Allow in this conversation", kind="allow_always"),
    PermissionOption(option_id="deny", name="Deny", kind="reject_once"),
]


def pending_approval(store: ConversationStore, leaf_id: str) -> tuple[str, ApprovalQuestion] | None:
    """The approval question the turn ending at ``leaf_id`` paused on, and its record."""
    for record in reversed(store.path_to_root(leaf_id)):
        if record.role == "user":
            return None
        pending = paused_here(record)  # a pause copied from another conversation is not one
        if pending:
            question = ApprovalQuestion.of(pending.get("values"))
            if question is not None:
                return record.id, question
    return None


def approval_request(question: ApprovalQuestion) -> ToolCallUpdate:
    where = f" ({question.server})" if question.server else ""
    return ToolCallUpdate(
        tool_call_id=question.call_id,
        title=printable(f"Allow {tool_title(question.tool, question.args)}{where}?"),
        status="pending",
        raw_input=question.args,
    )


def approval_decision(option_id: Any) -> Decision:
    return option_id if option_id in ("once", "always") else "deny"
