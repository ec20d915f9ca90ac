"""One profile as an ACP agent: the protocol's methods on the app's services and runtime.

``initialize`` says what the agent can do (load sessions; text, images and embedded files in a
prompt; MCP servers over stdio and HTTP); ``session/new`` opens a session of the profile
in the client's folder, its MCP servers' tools joining its turns; ``session/prompt`` runs a
turn (:class:`~weaver_tui.core.acp_agent.turn.AcpTurn`); ``session/cancel`` stops it;
``session/load`` replays a conversation's active branch; ``session/close`` cancels the
session's running turn, waits for it to end, then forgets the session and ends its MCP servers
(its conversation stays in the store, for ``session/load`` or the app); the agent's exit closes
every session.
Expected failures answer with one sentence (a JSON-RPC error whose message is the sentence).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp import PROTOCOL_VERSION, update_agent_thought_text
from acp.schema import (
    AgentCapabilities,
    CloseSessionResponse,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
)

from agents.attachments import AttachmentError, total_size
from agents.errors import WeaverError
from agents.profile_registry import get_traits
from agents.runtime.user_message import NewMessage
from storage.printable import printable
from weaver_tui import __version__
from weaver_tui.core.acp_agent.failures import turn_failure
from weaver_tui.core.acp_agent.prompt_content import prompt_content
from weaver_tui.core.acp_agent.replay import branch_updates
from weaver_tui.core.acp_agent.sessions import (
    SESSION_META,
    AcpSession,
    find_conversation,
    mcp_server_settings,
)
from weaver_tui.core.acp_agent.turn_updates import TurnUpdates

if TYPE_CHECKING:
    from acp.interfaces import Client

    from agents.runtime.agent_runtime import AgentRuntime
    from weaver_tui.core.services import Services


logger = logging.getLogger(__name__)


class WeaverAcpAgent:
    """The ACP agent of one profile (new sessions use it; a loaded conversation keeps its own)."""

    def __init__(
        self, services: Services, profile: str, resources: contextlib.AsyncExitStack
    ) -> None:
        self.services = services
        self.profile = profile
        self._resources = resources
        self._runtime: AgentRuntime | None = None
        self.sessions: dict[str, AcpSession] = {}
        self._client: Client | None = None
        resources.push_async_callback(self._close_sessions)

    async def runtime(self) -> AgentRuntime:
        """The runtime, opened on first use: ``initialize`` answers before the graph
        libraries are even imported (an editor waits on it)."""
        if self._runtime is None:
            self._runtime = await self._resources.enter_async_context(self.services.runtime())
        return self._runtime

    def on_connect(self, conn: Client) -> None:
        self._client = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=True, sse=False),
                session_capabilities=SessionCapabilities(close=SessionCloseCapabilities()),
            ),
            agent_info=Implementation(
                name="weaver-tui", title=f"weaver-tui ({self.profile})", version=__version__
            ),
        )

    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> NewSessionResponse:
        session = AcpSession(
            AcpSession.new_id(),
            self.profile,
            Path(cwd),
            mcp_servers=mcp_server_settings(mcp_servers),
        )
        self.sessions[session.id] = session
        logger.info(
            "acp session opened",
            extra={
                "session": session.id,
                "profile": session.profile,
                "mcp_servers": [s["name"] for s in session.mcp_servers],
            },
        )
        return NewSessionResponse(session_id=session.id)

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> LoadSessionResponse:
        store = (await self.runtime()).store
        conversation = find_conversation(store, session_id)
        if conversation is None:
            raise turn_failure(
                f"There is no conversation or session {session_id}: start a new session, or "
                "pick a conversation id from `weaver-tui conversations`.",
                "not_found",
            )
        # The session works where the client says (its cwd), never in a root the stored
        # conversation names: that root may be another folder, or came with an import.
        stored = conversation.meta.get("project_root")
        session = AcpSession(
            session_id,
            conversation.profile,
            Path(cwd),
            conversation_id=conversation.id,
            mcp_servers=mcp_server_settings(mcp_servers),
        )
        earlier = self.sessions.pop(session_id, None)
        if earlier is not None:  # loaded again: the servers it brought then are ended
            await earlier.aclose()
        self.sessions[session_id] = session
        leaf = store.active_leaf(conversation.id)
        branch = store.path_to_root(leaf.id) if leaf is not None else []
        for update in branch_updates(branch):
            await self._connection().session_update(session_id=session_id, update=update)
        if isinstance(stored, str) and _elsewhere(stored, cwd):
            note = (
                f"This conversation was made in {stored}; this session works in {cwd}, the "
                "folder the editor gave."
            )
            await self._connection().session_update(
                session_id=session_id, update=update_agent_thought_text(printable(note))
            )
        logger.info(
            "acp session loaded",
            extra={
                "session": session_id,
                "conversation_id": conversation.id,
                "records": len(branch),
            },
        )
        return LoadSessionResponse()

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> PromptResponse:
        session = self._session(session_id)
        if session.busy:
            raise turn_failure(
                "This session is still answering: wait for the reply, or cancel it first.", "busy"
            )
        try:
            content = prompt_content(prompt)
            model = self.services.model
        except AttachmentError as exc:
            raise turn_failure(str(exc), "attachment") from None
        except WeaverError as exc:
            raise turn_failure(exc.user_message, exc.code) from None
        if not content.text.strip() and not content.attachments:
            raise turn_failure("The prompt is empty: type a message to send.", "empty")
        size = len(content.text.encode("utf-8")) + total_size(content.attachments)
        limit = self.services.settings.turns.max_message_bytes
        if size > limit:  # refused before anything is stored
            raise turn_failure(
                f"The prompt is {size / 1e6:.1f} MB, over the {limit / 1e6:.1f} MB limit "
                "(max_message_bytes): send a shorter one, or attach the part that matters.",
                "too_large",
            )
        from weaver_tui.core.acp_agent.turn import AcpTurn

        session.busy, session.cancel = True, asyncio.Event()
        session.idle.clear()
        try:
            await self._open_tools(session)
            turn = AcpTurn(
                self._connection(),
                session,
                await self.runtime(),
                model,
                TurnUpdates(get_traits(session.profile).stages),
            )
            return await turn.run(self._message(session, content.text, content.attachments))
        finally:
            session.busy = False
            session.idle.set()

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        """Cancel the session's turn (its partial reply is kept, marked cancelled), wait for it
        to end, then end the session's MCP servers and forget the session."""
        session = self._session(session_id)
        del self.sessions[session_id]
        if session.cancel is not None:
            session.cancel.set()
        await session.idle.wait()
        await session.aclose()
        logger.info(
            "acp session closed",
            extra={"session": session_id, "conversation_id": session.conversation_id},
        )
        return CloseSessionResponse()

    async def _open_tools(self, session: AcpSession) -> None:
        """Start the session's MCP servers on its first prompt; say which could not serve."""
        if session.toolset is not None or not session.mcp_servers:
            return
        from weaver_tui.core.acp_agent.session_tools import open_session_tools

        session.toolset = await open_session_tools(session.mcp_servers, session.cwd)
        for problem in session.toolset.problems:
            await self._connection().session_update(
                session_id=session.id, update=update_agent_thought_text(printable(problem))
            )

    async def _close_sessions(self) -> None:
        sessions, self.sessions = list(self.sessions.values()), {}
        for session in sessions:
            await session.aclose()

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self.sessions.get(session_id)
        if session is not None and session.cancel is not None:
            session.cancel.set()

    def _message(self, session: AcpSession, text: str, attachments: list[Any]) -> NewMessage:
        """What the runtime stores: a new conversation for the session's first prompt, else
        the next message below the conversation's active leaf."""
        meta = {"attachments": attachments} if attachments else {}
        if session.conversation_id is not None:
            return NewMessage(
                profile=session.profile,
                text=text,
                conversation_id=session.conversation_id,
                at_active_leaf=True,
                meta=meta,
            )
        conversation_meta: dict[str, Any] = {SESSION_META: session.id}
        if get_traits(session.profile).project_root:
            conversation_meta["project_root"] = str(session.cwd.resolve())
        return NewMessage(
            profile=session.profile, text=text, meta=meta, conversation_meta=conversation_meta
        )

    def _session(self, session_id: str) -> AcpSession:
        session = self.sessions.get(session_id)
        if session is None:
            raise turn_failure(
                f"There is no session {session_id}: start a new session (or load it) first.",
                "not_found",
            )
        return session

    def _connection(self) -> Client:
        if self._client is None:
            raise turn_failure("The agent is not connected to a client yet.", "not_connected")
        return self._client


def _elsewhere(stored: str, cwd: str) -> bool:
    """Whether the stored project root is another folder than the client's ``cwd``."""
    try:
        return Path(stored).resolve() != Path(cwd).resolve()
    except (OSError, RuntimeError, ValueError):
        return True
