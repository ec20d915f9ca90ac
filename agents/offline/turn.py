"""What the offline model reads for one call: the calling node and that node's state.

Inside a LangGraph run the model reads the node's name from the run's metadata
(``langgraph_node``) and the graph state the node started with, the way LangGraph's own
``ToolNode`` reads it for injected state; it also reads the turn's ``TurnContext``. It never
reads the prompt's wording: prompts change freely.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from agents.offline.reply import PlannedCall, Reply

logger = logging.getLogger(__name__)

CONNECT = (
    "To get real answers, connect a model: set `WEAVER_API_KEY` (and `WEAVER_PROVIDER`, e.g. "
    "openai or deepseek), or point `WEAVER_BASE_URL` at a local Ollama, vLLM or llama.cpp "
    "server; Ctrl+L picks the model."
)


def _is_text_part(part: Any) -> bool:
    return isinstance(part, Mapping) and part.get("type") == "text"


def text_of(content: Any) -> str:
    """Message content (a string or a list of content blocks) as plain text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b if isinstance(b, str) else str(b.get("text", ""))
            for b in content
            if isinstance(b, str) or (isinstance(b, Mapping) and b.get("type") == "text")
        )
    return "" if content is None else str(content)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A tool call made after the last user message, and what came back."""

    name: str
    args: Mapping[str, Any]
    content: str
    is_error: bool


@dataclass(frozen=True, slots=True)
class OfflineTurn:
    """One call of the offline model, as data: who calls, with what state, and which tools."""

    node: str | None
    state: Mapping[str, Any]
    messages: Sequence[BaseMessage]
    tools: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Bound tools: name → JSON-schema parameters."""
    tool_choice: str | None = None
    """``None`` (free), ``"none"``, ``"any"``, or the name of the one tool to call."""
    context: Any = None
    """The turn's ``TurnContext`` inside a weaver-tui graph run, else ``None``."""

    @property
    def last_user(self) -> HumanMessage | None:
        return next((m for m in reversed(self.messages) if isinstance(m, HumanMessage)), None)

    @property
    def user_text(self) -> str:
        """The user's own words in their last message: never an attached file's text (a
        message with attachments is a list of parts, the words first), so the demo acts only
        on what the user asked."""
        last = self.last_user
        if last is None:
            return ""
        content: Any = last.content
        if isinstance(content, list):
            words = (p for p in content if isinstance(p, str) or _is_text_part(p))
            content = [next(words, "")]
        return text_of(content).strip()

    @property
    def images(self) -> int:
        last = self.last_user
        blocks = last.content if last is not None and isinstance(last.content, list) else []
        return sum(1 for b in blocks if isinstance(b, Mapping) and b.get("type") in ("image", "image_url"))  # fmt: skip

    @property
    def results(self) -> list[ToolResult]:
        """This turn's tool calls and their results, oldest first."""
        calls: dict[str, tuple[str, Mapping[str, Any]]] = {}
        found: list[ToolResult] = []
        after = False
        for message in self.messages:
            if message is self.last_user:
                after, calls, found = True, {}, []
            elif after and isinstance(message, AIMessage):
                calls.update({str(c["id"]): (c["name"], c["args"]) for c in message.tool_calls})
            elif after and isinstance(message, ToolMessage):
                name, args = calls.get(message.tool_call_id, (message.name or "", {}))
                content = text_of(message.content)
                failed = message.status == "error" or content.startswith("Error")
                found.append(ToolResult(name, args, content, failed))
        return found

    def called(self, name: str, args: Mapping[str, Any]) -> bool:
        """Whether this turn already made exactly this call."""
        key = json.dumps(dict(args), sort_keys=True, default=str)
        return any(
            r.name == name and json.dumps(dict(r.args), sort_keys=True, default=str) == key
            for r in self.results
        )

    def answer(self, fields: Mapping[str, Any]) -> Reply:
        """A structured answer: a call of the forced (or only) tool, else the fields as JSON."""
        name = self.tool_choice if self.tool_choice in self.tools else None
        name = name or (next(iter(self.tools)) if len(self.tools) == 1 else None)
        if name is None:
            return Reply(text=json.dumps(dict(fields)), structured=True)
        return Reply(calls=(PlannedCall(name, dict(fields)),))


Step = Callable[[OfflineTurn], Reply | None]
"""A node's offline behaviour; ``None`` when the state gives it nothing it can do."""
OfflineSteps = Mapping[str, Step]
"""A profile's offline behaviour: graph node name → step."""


def cannot(what: str | None = None, can: str | None = None) -> str:
    """The honest sentence: what the offline model cannot do, what it can, how to connect."""
    said = f"I'm the offline demo model, so I cannot {what or 'answer that'}."
    return " ".join(part for part in (said, can, CONNECT) if part)


def read_turn(
    messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]], choice: Any
) -> OfflineTurn:
    """The :class:`OfflineTurn` for a call with ``messages`` and the bound ``tools``."""
    node, state, context = _graph_position()
    specs = {}
    for tool in tools:
        function = tool.get("function", tool)
        specs[str(function.get("name", ""))] = function.get("parameters") or {}
    return OfflineTurn(node, state, messages, specs, _choice(choice), context)


def _graph_position() -> tuple[str | None, Mapping[str, Any], Any]:
    """The calling node, its state and the turn's context; ``(None, {}, None)`` outside a graph."""
    try:
        from langgraph.config import get_config

        config = get_config()
    except (RuntimeError, ImportError):
        return None, {}, None
    node = (config.get("metadata") or {}).get("langgraph_node")
    configurable = config.get("configurable") or {}
    runtime = configurable.get("__pregel_runtime")
    read = configurable.get("__pregel_read")
    state: Mapping[str, Any] = {}
    args: tuple[Any, ...] = tuple(getattr(read, "args", ()))
    channels = args[1] if len(args) > 1 else None
    if read is not None and isinstance(channels, Mapping):
        try:
            state = read([c for c in channels if not c.startswith("branch:")], False) or {}
        except Exception:
            logger.debug("offline model: node state unreadable", exc_info=True)
    return node, state, getattr(runtime, "context", None)


def _choice(choice: Any) -> str | None:
    if choice in (None, False, "auto"):
        return None
    if choice is True or choice in ("any", "required"):
        return "any"
    if isinstance(choice, Mapping):
        function = choice.get("function") or choice
        return str(function.get("name")) if function.get("name") else None
    return str(choice)
