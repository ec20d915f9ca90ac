"""An MCP server's tools as LangChain tools the profiles' graphs can bind and call.

What a server answers is untrusted, like a provider's output: only its text reaches the
model (other content is named, not passed on), control characters and escape sequences are
stripped (:func:`storage.printable.printable`), and it is cut at :data:`RESULT_CHARS` here,
before the tool node's own, per-turn limit. Nothing in it is ever run.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any, Final

from langchain_core.tools import BaseTool, StructuredTool

from agents.mcp_servers.servers import McpServerConfig, McpServerError
from storage.printable import printable

if TYPE_CHECKING:
    from mcp.types import CallToolResult, Tool

    from agents.mcp_servers.connection import McpConnection

RESULT_CHARS: Final = 200_000
"""The most of one answer kept from a server (the tool node cuts further, per turn)."""
CALL_SECONDS: Final = 300.0
"""A call's own limit; the tool node's ``tool_seconds`` is usually the shorter one."""
APPROVAL_KEY: Final = "approval"
"""Tool metadata: ``ask``, ``always`` or ``never`` (see :mod:`agents.graph.approval`)."""
SERVER_KEY: Final = "mcp_server"
"""Tool metadata: the name of the server the tool belongs to."""
IDENTITY_KEY: Final = "mcp_identity"
"""Tool metadata: what the server said the tool is (:func:`tool_identity`)."""
TOOL_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The names a server's tool may have: what every OpenAI-compatible provider accepts."""


def tool_name_allowed(name: str) -> bool:
    """Whether a server may offer a tool called ``name``: an allowlist, ASCII letters, digits,
    ``_`` and ``-``, 1 to 64 of them.

    A tool's name is the one thing a server says that is shown and sent unchanged: in the
    approval question, in the sentences about the tool, and in every request to the provider.
    A name outside this set could carry escape sequences, markup, bidi controls or look-alike
    letters into what the user reads, or make the provider refuse every request of the turn;
    such a tool is left out, saying so, and the server's other tools still serve.
    """
    return TOOL_NAME.fullmatch(name) is not None


def tool_identity(tool: Tool) -> str:
    """A digest of everything the server says a tool is: its name, its description and its
    input schema. An approval holds for the tool as it was listed when the user answered;
    a server that renames a tool, rewrites what it does or adds one (``tools/list_changed``)
    lists a tool no earlier answer covers."""
    said = json.dumps([tool.name, tool.description or "", tool.inputSchema or {}],
                      sort_keys=True, ensure_ascii=False, default=str)  # fmt: skip
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def result_text(result: CallToolResult) -> str:
    """The answer as printable text: text blocks joined, other blocks named, cut to size."""
    parts: list[str] = []
    for block in result.content:
        text = getattr(block, "text", None)
        if isinstance(text, str):
            parts.append(text)
        else:
            parts.append(f"[{getattr(block, 'type', 'content')} content not shown]")
    if not parts and result.structuredContent is not None:
        parts.append(json.dumps(result.structuredContent, ensure_ascii=False))
    text = printable("\n".join(parts))
    if len(text) > RESULT_CHARS:
        text = f"{text[:RESULT_CHARS]}\n[cut: the server sent {len(text):,} characters]"
    return text


def _description(server: McpServerConfig, tool: Tool) -> str:
    said = printable(tool.description or "").strip()[:2_000]
    return f"{said} (from the MCP server {server.name})".strip()


def mcp_tool(connection: McpConnection, tool: Tool) -> BaseTool:
    """``tool`` of ``connection``'s server, called over its open session."""
    server = connection.server
    name = tool.name

    async def call(**arguments: Any) -> str:
        result = await connection.call(name, arguments, CALL_SECONDS)
        text = result_text(result)
        if result.isError:
            raise McpServerError(
                f"The MCP tool {name} answered with an error: {text[:500] or 'no detail'}"
            )
        return text

    return StructuredTool(
        name=name,
        description=_description(server, tool),
        args_schema=dict(tool.inputSchema or {"type": "object", "properties": {}}),
        coroutine=call,
        metadata={
            APPROVAL_KEY: server.approve,
            SERVER_KEY: server.name,
            IDENTITY_KEY: tool_identity(tool),
        },
    )
