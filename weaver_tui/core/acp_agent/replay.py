"""A conversation's active branch as the session updates a client replays on ``session/load``.

User records become ``user_message_chunk``, replies ``agent_message_chunk`` (their reasoning
``agent_thought_chunk``), and each tool call a ``tool_call`` carrying its final state: its
result when the branch holds one (failed when the result is an error), pending while a patch
waits for review, in progress when the branch ends before its result.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from acp import (
    start_tool_call,
    update_agent_message_text,
    update_agent_thought_text,
    update_user_message_text,
)
from acp.helpers import SessionUpdate
from acp.schema import ToolCallStatus

from storage.models import MessageRecord
from storage.printable import printable
from weaver_tui.core.acp_agent.turn_updates import output_content, tool_kind, tool_title


def branch_updates(branch: Sequence[MessageRecord]) -> Iterator[SessionUpdate]:
    """The updates that show ``branch`` (root first) as the conversation so far."""
    results = {
        record.meta.get("tool_call_id"): record for record in branch if record.role == "tool"
    }
    for record in branch:
        if record.role == "user" and record.content:
            yield update_user_message_text(printable(record.content))
        elif record.role == "assistant":
            reasoning = record.meta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                yield update_agent_thought_text(printable(reasoning))
            if record.content:
                yield update_agent_message_text(printable(record.content))
            for call in record.meta.get("tool_calls") or ():
                yield _tool_call(call, results.get(call.get("id")))


def _tool_call(call: dict[str, Any], result: MessageRecord | None) -> SessionUpdate:
    name = str(call.get("name", "tool"))
    raw_args = call.get("args")
    args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
    status: ToolCallStatus = "in_progress"
    content = None
    if result is not None:
        error = result.meta.get("error")
        if result.meta.get("pending_interrupt"):
            status = "pending"
        else:
            status = "failed" if error else "completed"
        content = output_content(str(error or result.content))
    return start_tool_call(
        str(call.get("id", "")),
        tool_title(name, args),
        kind=tool_kind(name),
        status=status,
        content=content,
        raw_input=args,
    )
