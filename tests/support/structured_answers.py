"""A provider that answers structured requests as real ones do, for the fake OpenAI server.

``StructuredAnswers`` is a reply source (``fake_openai.default = StructuredAnswers(...)``): it
reads which schema a request asks for (the bound tool's name, or the ``"title"`` of the JSON
schema written into the messages), answers with that schema's arguments in the server's
``style``, and refuses what the model it plays cannot do, with the words real servers use:

- ``refuses={"tool_choice"}``: a thinking mode (DeepSeek's reasoner): HTTP 400 "... does not
  support this tool_choice" to a forced tool choice;
- ``refuses={"tools"}``: an Ollama model without tool support: HTTP 400 "... does not support
  tools" to any request with tools;
- ``refuses={"response_format"}``: a server without JSON mode.

Styles: ``"tool"`` calls the tool when tools are bound (JSON text otherwise); ``"fence"``
ignores ``tool_choice`` and writes prose with a ```json fence; ``"prose"`` writes prose that
holds no JSON at all. A request that asks for no schema gets ``text`` (a function of the body,
or a string).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.support.openai_script import Reply, ToolCall

Args = Mapping[str, Any] | Callable[[dict[str, Any]], Mapping[str, Any]]


def message_texts(body: Mapping[str, Any]) -> str:
    """Every message's text in a request body, joined."""
    texts = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        texts.append(str(content or ""))
    return "\n".join(texts)


def forced_tool(body: Mapping[str, Any]) -> str | None:
    """The tool a request forces (``tool_choice`` naming a function), else ``None``."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return str((choice.get("function") or {}).get("name") or "") or None
    return None


@dataclass
class StructuredAnswers:
    answers: dict[str, Args]
    text: str | Callable[[dict[str, Any]], str] = "An answer."
    style: str = "tool"
    refuses: frozenset[str] = frozenset()
    model: str = "deepseek-reasoner"
    asked: list[str] = field(default_factory=list)
    """The schema each structured request asked for, in order."""

    def schema_of(self, body: Mapping[str, Any]) -> str | None:
        tools = body.get("tools") or []
        if tools:
            return str(tools[0]["function"]["name"])
        texts = message_texts(body)
        return next((name for name in self.answers if f'"title": "{name}"' in texts), None)

    def refusal(self, body: Mapping[str, Any]) -> Reply | None:
        if "tools" in self.refuses and body.get("tools"):
            return Reply.http_error(
                400, f"registry.ollama.ai/library/{self.model} does not support tools"
            )
        if "tool_choice" in self.refuses and forced_tool(body):
            return Reply.http_error(400, f"{self.model} does not support this tool_choice")
        if "response_format" in self.refuses and body.get("response_format"):
            return Reply.http_error(400, "response_format json_object is not supported")
        return None

    def __call__(self, body: dict[str, Any]) -> Reply:
        refused = self.refusal(body)
        if refused is not None:
            return refused
        name = self.schema_of(body)
        if name is None:
            return Reply(self.text(body) if callable(self.text) else self.text)
        self.asked.append(name)
        source = self.answers[name]
        args = dict(source(body) if callable(source) else source)
        if self.style == "prose":
            return Reply("Looks good to me: the draft passes and the question is factual.")
        if self.style == "fence":
            return Reply(f"Here is my answer.\n\n```json\n{json.dumps(args)}\n```\n")
        if body.get("tools"):
            return Reply(tool_calls=[ToolCall(name, args)])
        return Reply(json.dumps(args))
