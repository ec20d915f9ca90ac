"""The user's approval of a tool call, asked before the call runs.

A tool whose metadata says ``approval: ask`` (the user's MCP servers with ``approve: ask``)
does not run until the user agrees. The shared tool node asks here first, for every call of
the round that needs it, before any tool of the round runs: each question pauses the turn with
``interrupt({"kind": "tool_approval", ...})``, a checkpoint, so a question left open when the
app quits is still open when it reopens. The answer (:func:`approval_value`) is ``once``,
``always`` (for this conversation: kept in its meta, asked no more) or ``deny``. A denied
call, and every call of a tool with ``approval: never``, never runs: the model reads a refusal.
A run with nobody to ask (``weaver-tui ask``) settles them by ``TurnContext.tool_approval``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from langchain_core.messages import ToolCall
from langchain_core.tools import BaseTool
from langgraph.types import interrupt

from agents.graph.status import emit_status
from agents.pending_interrupt import pending_at_leaf
from agents.profile import TurnContext
from storage.authority import TOOL_APPROVAL, sign, verifies
from storage.printable import printable
from storage.store import ConversationStore, NotFoundError

logger = logging.getLogger(__name__)

INTERRUPT_KIND: Final = "tool_approval"
APPROVED_KEY: Final = "tools_approved"
"""Conversation meta: the tools (``server/tool``) approved for the whole conversation."""

APPROVED_MAC_KEY: Final = "tools_approved_mac"
"""Conversation meta: the MAC of :data:`APPROVED_KEY` under this user's key (see
:mod:`storage.authority`), over the conversation's id and the sorted tool keys. "Always" counts
only when the user answered it here: a list in a store file copied from elsewhere or crafted,
written by another client, edited, carried to another conversation (a branch copy asks again)
or from before the MAC approves nothing, and the tool is asked about as any other."""
STATUS_NODE: Final = "approval"
Decision = Literal["once", "always", "deny"]
DECISIONS: Final[tuple[Decision, ...]] = ("once", "always", "deny")


@dataclass(frozen=True, slots=True)
class ApprovalQuestion:
    """One call waiting for the user: which tool, of which server, with what arguments."""

    tool: str
    server: str
    args: dict[str, Any]
    call_id: str
    identity: str = ""
    """What the server said the tool is when it was listed (``tool_identity``)."""

    @property
    def key(self) -> str:
        """What an "always" answer approves: this server's tool as it is listed now, so a
        renamed, redescribed, re-schemed or new tool is asked about again."""
        key = f"{self.server}/{self.tool}" if self.server else self.tool
        return f"{key}@{self.identity}" if self.identity else key

    def as_value(self) -> dict[str, Any]:
        return {"kind": INTERRUPT_KIND, "tool": self.tool, "server": self.server,
                "args": self.args, "call_id": self.call_id, "identity": self.identity}  # fmt: skip

    @classmethod
    def of(cls, value: Any) -> ApprovalQuestion | None:
        """The question in an interrupt value (or a list of them, as the runtime stores them)."""
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, Mapping) and item.get("kind") == INTERRUPT_KIND:
                return cls(str(item.get("tool")), str(item.get("server") or ""),
                           dict(item.get("args") or {}), str(item.get("call_id")),
                           str(item.get("identity") or ""))  # fmt: skip
        return None


def approval_value(decision: Decision) -> dict[str, str]:
    """The value to resume a paused question with (``AgentRuntime.resume_turn(value=...)``)."""
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
    return {"decision": decision}


def approved_tools(store: ConversationStore, conversation_id: str) -> set[str]:
    try:
        meta = store.get_conversation(conversation_id).meta
    except NotFoundError:
        return set()
    listed = meta.get(APPROVED_KEY)
    if not isinstance(listed, list):
        return set()
    names = sorted({str(k) for k in listed})
    if not verifies(TOOL_APPROVAL, (conversation_id, *names), meta.get(APPROVED_MAC_KEY)):
        return set()
    return set(names)


def approval_meta(conversation_id: str, approved: Iterable[str]) -> dict[str, Any]:
    """The conversation meta recording ``approved`` as answered "always" by the user here."""
    names = sorted(set(approved))
    mac = sign(TOOL_APPROVAL, (conversation_id, *names))
    return {APPROVED_KEY: names, APPROVED_MAC_KEY: mac}


def _printable_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """The model's arguments, safe to show (they are the provider's output: untrusted)."""
    shown = json.loads(printable(json.dumps(dict(args), ensure_ascii=False, default=str)))
    return shown if isinstance(shown, dict) else {}


def _question(call: ToolCall, tool: BaseTool | None) -> tuple[str | None, ApprovalQuestion]:
    meta = (tool.metadata if tool is not None else None) or {}
    mode = meta.get("approval")
    question = ApprovalQuestion(call["name"], str(meta.get("mcp_server") or ""),
                                _printable_args(call["args"]), str(call["id"]),
                                str(meta.get("mcp_identity") or ""))  # fmt: skip
    return (mode if isinstance(mode, str) else None), question


def _refusal(question: ApprovalQuestion, why: str) -> str:
    return f"The tool {question.tool} was not run: {why} Do not call it again in this turn."


def _decide(question: ApprovalQuestion, context: TurnContext) -> tuple[Decision, str | None]:
    """Ask (or settle headless) one question: the decision, and the refusal the model reads."""
    if context.tool_approval == "approve":
        return "once", None
    if context.tool_approval == "refuse":
        emit_status(STATUS_NODE, f"Refused {question.tool}: it needs your approval; run ask "
                    "with --approve to allow it.", "error")  # fmt: skip
        why = "it needs the user's approval, and nobody was there to give it."
        return "deny", _refusal(question, why)
    emit_status(STATUS_NODE, f"Waiting for your approval of {question.tool}")
    answer = interrupt(question.as_value())
    decision = answer.get("decision") if isinstance(answer, Mapping) else answer
    if decision in ("once", "always"):
        emit_status(STATUS_NODE, f"Approved {question.tool}", "done")
        return decision, None
    emit_status(STATUS_NODE, f"Denied {question.tool}", "error")
    return "deny", _refusal(question, "the user denied it.")


def settle_approvals(
    calls: Sequence[ToolCall], tools: Iterable[BaseTool], context: TurnContext
) -> dict[str, str]:
    """Ask for every call of this round that needs approval; call id -> refusal for each
    call that must not run. Pauses the turn (``interrupt``) while a question is open.

    The node runs again from the start after each answer, and LangGraph hands the answers
    back by the order of the questions; so "always" is written to the conversation only once
    every question of the round is answered, and the same questions are asked each time."""
    by_name = {tool.name: tool for tool in tools}
    approved = approved_tools(context.store, context.conversation_id)
    always: list[str] = []
    refused: dict[str, str] = {}
    for call in calls:
        mode, question = _question(call, by_name.get(call["name"]))
        if mode == "never":
            refused[question.call_id] = _refusal(question, "the user's config never allows it.")
        elif mode == "ask" and question.key not in approved:
            decision, refusal = _decide(question, context)
            if refusal is not None:
                refused[question.call_id] = refusal
            if decision == "always":
                approved.add(question.key)
                always.append(question.key)
    if always:
        stored = approved_tools(context.store, context.conversation_id) | set(always)
        context.store.update_conversation_meta(
            context.conversation_id, **approval_meta(context.conversation_id, stored)
        )
    return refused


@dataclass(frozen=True, slots=True)
class PendingApproval:
    """A paused turn waiting for an answer: resume it on ``record_id`` with
    :func:`approval_value`."""

    record_id: str
    question: ApprovalQuestion


def find_pending_approval(
    store: ConversationStore, conversation_id: str, leaf_id: str | None = None
) -> PendingApproval | None:
    """The question waiting at the end of the path to ``leaf_id`` (default: the active leaf);
    a user message sent after the pause abandons it."""
    found = pending_at_leaf(store, conversation_id, leaf_id, ApprovalQuestion.of)
    return PendingApproval(*found) if found is not None else None
