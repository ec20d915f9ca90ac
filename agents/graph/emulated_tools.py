"""Tools for a model that takes none: the tools described in the prompt, one JSON call per reply.

Some servers refuse a request with ``tools`` (Ollama with a small model: "... does not support
tools"; vLLM without its tool parser: '"auto" tool choice requires --enable-auto-tool-choice
...'). The agent node then asks again without ``tools``: the system prompt describes each tool
with its JSON schema, and the model answers either in plain text or with exactly one JSON
object ``{"tool": NAME, "arguments": {...}}``. The endpoint (base URL and model) is remembered
for the life of the process, so its later calls go straight to this protocol.

The guarantee of :func:`parse_call`, for any text a model writes: it yields a call only when the
whole reply is one JSON object (optionally in one ```json fence), naming a tool offered, with
arguments the tool's schema accepts; anything else is the answer text, never a call. A call read
this way becomes a real tool call (an ``AIMessage`` with ``tool_calls``, its id made here), so
approval, patch review and the tree treat it as any other. The history goes back as text (a
call as its JSON, a result as a user message naming its tool), since a server that takes no
tools may refuse tool messages too.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ValidationError

from agents.providers.rejections import Refused, refused_feature
from agents.structured.json_text import only_json_object
from agents.structured.rungs import Endpoint, endpoint_of

logger = logging.getLogger(__name__)

EMULATED_ID_PREFIX = "emulated-"
"""Ids of the tool calls read from a reply's text start with this."""

_lock = threading.Lock()
_EMULATED: set[Endpoint] = set()
"""Endpoints that refused ``tools``: their calls use the prompted protocol at once."""


def emulates_tools(model: Any) -> bool:
    """Whether ``model``'s endpoint was seen to refuse tools in this process."""
    with _lock:
        return endpoint_of(model) in _EMULATED


def remember_emulation(model: Any) -> None:
    with _lock:
        _EMULATED.add(endpoint_of(model))
    base_url, name = endpoint_of(model)
    logger.info(
        "model refuses tools; tools are emulated", extra={"base_url": base_url, "model": name}
    )


def forget_emulation() -> None:
    """Forget every endpoint (a test that starts afresh)."""
    with _lock:
        _EMULATED.clear()


def refuses_tools(exc: BaseException) -> bool:
    """Whether a provider error says the model takes no tools (or no automatic tool choice)."""
    return refused_feature(exc) in (Refused.TOOLS, Refused.TOOL_CHOICE)


def tools_prompt(tools: Sequence[BaseTool]) -> str:
    """The protocol and every tool with its JSON schema, for the system prompt."""
    lines = [
        "You can use tools. To use one, reply with exactly one JSON object and nothing else:",
        '{"tool": "<tool name>", "arguments": {<arguments matching its schema>}}',
        "One tool per reply; its result comes back in the next user message. "
        "To answer the user, reply in plain text without any JSON object.",
        "",
        "Tools:",
    ]
    for tool in tools:
        function = convert_to_openai_tool(tool)["function"]
        schema = json.dumps(function.get("parameters") or {}, ensure_ascii=False)
        lines.append(f"- {function['name']}: {function.get('description', '')}\n  schema: {schema}")
    return "\n".join(lines)


def as_text_history(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """``messages`` with every tool call and result written as text."""
    out: list[AnyMessage] = []
    for message in messages:
        if isinstance(message, AIMessage) and (message.tool_calls or message.invalid_tool_calls):
            calls = [
                json.dumps({"tool": c["name"], "arguments": c["args"]}, ensure_ascii=False)
                for c in message.tool_calls
            ]
            calls += [
                json.dumps({"tool": c.get("name"), "arguments": c.get("args")}, ensure_ascii=False)
                for c in message.invalid_tool_calls
            ]
            text = message.content if isinstance(message.content, str) else ""
            out.append(
                AIMessage(content="\n".join([t for t in (text, *calls) if t]), id=message.id)
            )
        elif isinstance(message, ToolMessage):
            name = message.name or "tool"
            out.append(HumanMessage(f"Result of tool {name}:\n{message.text}", id=message.id))
        else:
            out.append(message)
    return out


def parse_call(text: str, tools: Sequence[BaseTool]) -> dict[str, Any] | None:
    """The one tool call ``text`` is, as ``{"name", "args"}``; ``None`` when it is answer text."""
    found = only_json_object(text)
    if found is None or set(found) != {"tool", "arguments"}:
        return None
    name, args = found["tool"], found["arguments"]
    tool = next((t for t in tools if t.name == name), None) if isinstance(name, str) else None
    if tool is None or not isinstance(args, dict) or not _accepts(tool, args):
        return None
    return {"name": name, "args": args}


def _accepts(tool: BaseTool, args: dict[str, Any]) -> bool:
    schema = tool.tool_call_schema
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            schema.model_validate(args, strict=True)
        except ValidationError:
            return False
        return True
    if isinstance(schema, Mapping):  # a JSON schema (an MCP tool's): the tool checks the rest
        properties = schema.get("properties") or {}
        required = schema.get("required") or []
        if any(key not in args for key in required):
            return False
        if schema.get("additionalProperties") is False and any(k not in properties for k in args):
            return False
        return all(_of_type(value, properties.get(key)) for key, value in args.items())
    return False


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _of_type(value: Any, schema: Any) -> bool:
    """``value`` has the JSON type its property's schema names (any, when it names none)."""
    named = schema.get("type") if isinstance(schema, Mapping) else None
    if not isinstance(named, str) or named not in _JSON_TYPES:
        return True
    if isinstance(value, bool) and named in ("integer", "number"):
        return False
    return isinstance(value, _JSON_TYPES[named])


def as_tool_call(response: AIMessage, call: dict[str, Any]) -> AIMessage:
    """``response`` (a reply whose text was a call) as the same reply holding that call."""
    tool_call = {
        "name": call["name"],
        "args": call["args"],
        "id": f"{EMULATED_ID_PREFIX}{uuid.uuid4().hex[:12]}",
        "type": "tool_call",
    }
    return AIMessage(
        content="",
        tool_calls=[tool_call],
        id=response.id,
        additional_kwargs=response.additional_kwargs,
        response_metadata=response.response_metadata,
        usage_metadata=response.usage_metadata,
    )
