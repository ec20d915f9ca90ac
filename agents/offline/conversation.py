"""What the offline model reads from its input: the messages and the tools bound to it.

Every decision the offline model makes is a function of a :class:`Conversation`, built here
from exactly what a real provider would receive (the message list, the tool schemas, the
tool choice). Nothing else goes in, so the same input always gives the same reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from agents.shared_space.marks import unmarked
from agents.speaker import speaker_of

_PARTICIPANTS = re.compile(r"^\s*participants\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_NOW_SPEAKING = re.compile(
    r"^\s*now speaking\s*:[^\n]*?\b(privately to you|in the shared space)",
    re.IGNORECASE | re.MULTILINE,
)


def _image_parts(content: Any) -> int:
    if not isinstance(content, list):
        return 0
    return sum(
        1 for b in content if isinstance(b, Mapping) and b.get("type") in ("image_url", "image")
    )


def text_of(content: Any) -> str:
    """Flatten message content (a string or a list of content blocks) to plain text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts)
    return "" if content is None else str(content)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One bound tool as the model sees it: name, manual, and JSON-schema parameters."""

    name: str
    description: str
    parameters: Mapping[str, Any]

    @property
    def properties(self) -> Mapping[str, Any]:
        return self.parameters.get("properties") or {}

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(self.parameters.get("required") or ())

    @classmethod
    def from_openai(cls, tool: Mapping[str, Any]) -> ToolSpec:
        function = tool.get("function", tool)
        return cls(
            name=str(function.get("name", "")),
            description=str(function.get("description") or ""),
            parameters=function.get("parameters") or {},
        )


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A tool call made this turn and what came back."""

    name: str
    args: Mapping[str, Any]
    call_id: str
    content: str
    is_error: bool


@dataclass(frozen=True, slots=True)
class Conversation:
    """The offline model's reading of one request.

    ``user_text`` is the last human message and ``sender`` who said it (its ``name``, mapped
    back to a participant); ``results`` are the tool calls and results that followed it (this
    turn's rounds, oldest first).
    """

    system: str
    user_text: str
    sender: str | None
    participants: tuple[str, ...]
    earlier_user_texts: tuple[str, ...]
    results: tuple[ToolResult, ...]
    tools: Mapping[str, ToolSpec]
    tool_choice: str | None
    prior_call_count: int
    calls_made: frozenset[str] = field(default_factory=frozenset)
    earlier_tool_output: tuple[str, ...] = ()
    """Tool results of earlier turns (newest last), e.g. a listing that names full paths."""
    last_reply: str = ""
    """The text of the assistant message just before the last human message."""
    images: int = 0
    """Image parts in the last human message (the offline model cannot read them)."""
    channel: str | None = None
    """Where the last message was said, as the system prompt tells it (the mediator's "Now
    speaking: Alex, privately to you ..."): ``"private"``, ``"shared"`` or ``None``."""

    def has_tool(self, name: str) -> bool:
        return name in self.tools

    def results_of(self, *names: str) -> list[ToolResult]:
        return [r for r in self.results if r.name in names]

    def already_called(self, name: str, args: Mapping[str, Any]) -> bool:
        return call_signature(name, args) in self.calls_made

    @property
    def may_call_tools(self) -> bool:
        return bool(self.tools) and self.tool_choice != "none"


def call_signature(name: str, args: Mapping[str, Any]) -> str:
    """A stable key for "the same tool with the same arguments"."""
    return f"{name}:{json.dumps(dict(args), sort_keys=True, default=str)}"


def normalise_tool_choice(choice: Any) -> str | None:
    """``None``/"auto" → None; "none"; "any" (also "required"/True); or a forced tool name."""
    if choice is None or choice is False or choice == "auto":
        return None
    if choice is True or choice in ("any", "required"):
        return "any"
    if choice == "none":
        return "none"
    if isinstance(choice, str):
        return choice
    if isinstance(choice, Mapping):
        function = choice.get("function")
        if isinstance(function, Mapping) and function.get("name"):
            return str(function["name"])
        if choice.get("name"):
            return str(choice["name"])
    return None


def read_conversation(
    messages: Sequence[BaseMessage],
    tools: Sequence[Mapping[str, Any]] = (),
    tool_choice: Any = None,
) -> Conversation:
    """Build the :class:`Conversation` the rules decide from."""
    system = "\n\n".join(text_of(m.content) for m in messages if isinstance(m, SystemMessage))
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    earlier = tuple(
        unmarked(text_of(m.content)).strip()
        for m in messages[: max(last_human, 0)]
        if isinstance(m, HumanMessage)
    )
    channel = None
    if speaking := _NOW_SPEAKING.search(system):
        channel = "shared" if "shared" in speaking.group(1).lower() else "private"
    participants: tuple[str, ...] = ()
    match = _PARTICIPANTS.search(system)
    if match:
        participants = tuple(p.strip() for p in re.split(r",|\band\b", match.group(1)) if p.strip())
    sender, user_text, images = (None, "", 0)
    last_reply = next(
        (
            text_of(m.content)
            for m in reversed(messages[: max(last_human, 0)])
            if isinstance(m, AIMessage)
        ),
        "",
    )
    if last_human >= 0:
        human = messages[last_human]
        sender = speaker_of(human.name, participants)
        user_text = unmarked(text_of(human.content)).strip()
        images = _image_parts(human.content)

    calls: dict[str, tuple[str, Mapping[str, Any]]] = {}
    results: list[ToolResult] = []
    prior_calls = 0
    for message in messages:
        if isinstance(message, AIMessage):
            prior_calls += len(message.tool_calls)
    for message in messages[last_human + 1 :]:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                calls[str(call.get("id"))] = (call["name"], call.get("args") or {})
        elif isinstance(message, ToolMessage):
            name, args = calls.get(message.tool_call_id, (message.name or "", {}))
            content = text_of(message.content)
            results.append(
                ToolResult(
                    name=name,
                    args=args,
                    call_id=message.tool_call_id,
                    content=content,
                    is_error=message.status == "error" or content.startswith("Error"),
                )
            )
    specs = {spec.name: spec for spec in (ToolSpec.from_openai(t) for t in tools) if spec.name}
    return Conversation(
        system=system,
        user_text=user_text,
        sender=sender,
        participants=participants,
        channel=channel,
        images=images,
        last_reply=last_reply,
        earlier_user_texts=earlier,
        results=tuple(results),
        tools=specs,
        tool_choice=normalise_tool_choice(tool_choice),
        prior_call_count=prior_calls,
        calls_made=frozenset(call_signature(n, a) for n, a in calls.values()),
        earlier_tool_output=tuple(
            text_of(m.content) for m in messages[: max(last_human, 0)] if isinstance(m, ToolMessage)
        ),
    )
