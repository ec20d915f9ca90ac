"""ACP sessions: one conversation of the tree each, and the MCP servers the client brought
(their tools: :mod:`weaver_tui.core.acp_agent.session_tools`).

A new session has no conversation until its first prompt: the runtime creates it then (as for
any first message), with the session id in its meta (``acp_session``), so a session that never
gets a prompt leaves nothing in the tree. ``session/load`` takes that session id or any
conversation's id (one started in the app, say).

Each session keeps its own place in its conversation's tree (its leaf), stored in the
conversation's meta under ``acp_leaves`` (session id -> leaf id) after each turn: two sessions
on one conversation (a fork, or a session beside the app) never move each other's branch, and
a session resumed or loaded later goes on where it left off.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.models import Conversation
from storage.store import ConversationStore, NotFoundError

if TYPE_CHECKING:
    from agents.mcp_servers import McpToolset

SESSION_META = "acp_session"
SESSION_LEAVES = "acp_leaves"
"""Conversation meta: session id -> the leaf that session's next prompt goes below."""
SESSION_CWD = "acp_cwd"
"""Conversation meta: the folder the client gave the session that started the conversation."""


@dataclass
class AcpSession:
    """What the agent keeps for one client session."""

    id: str
    profile: str
    cwd: Path
    conversation_id: str | None = None
    leaf_id: str | None = None
    """Where the session's next prompt goes (``None``: the conversation's remembered leaf,
    unless :attr:`at_root`)."""
    cost: float | None = None
    """What the session's turns cost so far, as the server counted it (``None``: not told)."""
    at_root: bool = False
    """A session forked at the conversation's first message: its next prompt is a new first
    message (that message's sibling)."""
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
    started it, or of a session forked in it."""
    try:
        return store.get_conversation(session_id)
    except NotFoundError:
        pass
    for conversation in store.list_conversations():
        if conversation.meta.get(SESSION_META) == session_id:
            return conversation
        leaves = conversation.meta.get(SESSION_LEAVES)
        if isinstance(leaves, dict) and session_id in leaves:
            return conversation
    return None


def session_leaf(
    store: ConversationStore, conversation: Conversation, session_id: str
) -> str | None:
    """The leaf ``session_id`` stood on in ``conversation`` (``None``: the conversation's
    remembered leaf), if that record is still there."""
    leaves = conversation.meta.get(SESSION_LEAVES)
    leaf = leaves.get(session_id) if isinstance(leaves, dict) else None
    if not isinstance(leaf, str):
        return None
    try:
        record = store.get_message(leaf)
    except NotFoundError:
        return None
    return leaf if record.conversation_id == conversation.id else None


def remember_leaf(store: ConversationStore, session: AcpSession) -> None:
    """Store where ``session`` now stands in its conversation (see the module)."""
    if session.conversation_id is None or session.leaf_id is None:
        return
    conversation = store.get_conversation(session.conversation_id)
    leaves = conversation.meta.get(SESSION_LEAVES)
    known = dict(leaves) if isinstance(leaves, dict) else {}
    if known.get(session.id) != session.leaf_id:
        known[session.id] = session.leaf_id
        store.update_conversation_meta(conversation.id, **{SESSION_LEAVES: known})
