"""ACP sessions: one conversation of the tree each, and the MCP servers the client brought
(their tools: :mod:`weaver_tui.core.acp_agent.session_tools`).

A new session has no conversation until its first prompt: the runtime creates it then (as for
any first message), with the session id in its meta (``acp_session``), so a session that never
gets a prompt leaves nothing in the tree. ``session/load`` and ``session/resume`` take that
session id, a forked session's id, or any conversation's id (one started in the app, say).
Where in the tree each session stands: :mod:`weaver_tui.core.acp_agent.session_leaves`.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.models import Conversation
from storage.store import ConversationStore, NotFoundError
from weaver_tui.core.acp_agent.session_leaves import Placement, leaf_key

if TYPE_CHECKING:
    from agents.mcp_servers import McpToolset
    from agents.providers import ChatModelHandle

SESSION_META = "acp_session"
CWD_META = "acp_cwd"
"""The folder the session that started a conversation was opened in (``session/list``)."""


@dataclass
class AcpSession:
    """What the agent keeps for one client session."""

    id: str
    profile: str
    cwd: Path
    conversation_id: str | None = None
    placement: Placement = field(default_factory=Placement)
    """Where the session's next message goes in its conversation."""
    model: ChatModelHandle | None = None
    """The model the session chose (``session/set_config_option``); ``None``: the agent's."""
    project_instructions: bool = True
    """Whether the project's ``AGENTS.md`` is sent (kept with the conversation too)."""
    commands_told: bool = False
    """Whether the client has the slash commands (sent once the client holds the session's
    id: on ``session/load`` and ``session/resume``, else before its first prompt's answer)."""
    title_told: str | None = None
    """The conversation title the client was last told (``session_info_update``)."""
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    """The client's MCP servers (``session/new``), as plain settings: name, then command,
    args and env (stdio) or url and headers (http, sse)."""
    toolset: McpToolset | None = None
    """Those servers' tools, opened on the session's first prompt (closed by :meth:`aclose`)."""
    cancel: asyncio.Event | None = None
    """Set by ``session/cancel`` and ``session/close``; a fresh one for each prompt."""
    busy: bool = False
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    """Clear while a prompt's turn runs: ``session/close`` waits on it before ending the
    session's servers, so a turn never loses its tools midway."""

    def __post_init__(self) -> None:
        self.idle.set()

    @staticmethod
    def new_id() -> str:
        return f"acp-{uuid.uuid4().hex}"

    async def aclose(self) -> None:
        """End the sessions to the client's MCP servers (their processes with them)."""
        toolset, self.toolset = self.toolset, None
        if toolset is not None:
            await toolset.aclose()


def mcp_server_settings(servers: list[Any] | None) -> list[dict[str, Any]]:
    """The client's MCP server descriptions as plain dicts (the shape of the config's ``mcp``)."""
    found: list[dict[str, Any]] = []
    for server in servers or ():
        data = server.model_dump(exclude_none=True, exclude={"field_meta"})
        for key in ("env", "headers"):
            if key in data:
                data[key] = {item["name"]: item["value"] for item in data[key]}
        data.setdefault("type", "stdio")
        found.append(data)
    return found


def find_conversation(store: ConversationStore, session_id: str) -> Conversation | None:
    """The conversation ``session_id`` names: its own id, the id of the ACP session that
    started it, or the id of a session that remembers a leaf in it (a fork)."""
    try:
        return store.get_conversation(session_id)
    except NotFoundError:
        pass
    for conversation in store.list_conversations():
        meta = conversation.meta
        if meta.get(SESSION_META) == session_id or leaf_key(session_id) in meta:
            return conversation
    return None
