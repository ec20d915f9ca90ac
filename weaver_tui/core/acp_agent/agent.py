"""One profile as an ACP agent: the protocol's methods on the app's services and runtime.

``initialize`` says what the agent can do (load, list, resume, fork and close sessions; text,
images and embedded files in a prompt; MCP servers over stdio and HTTP); ``session/new`` opens a
session of the profile in the client's folder, its MCP servers' tools joining its turns;
``session/prompt`` runs a turn (:class:`~weaver_tui.core.acp_agent.turn.AcpTurn`), then tells
the client the context used (``usage_update``) and a new conversation's title
(``session_info_update``); ``session/cancel`` stops it; ``session/list`` lists the profile's
conversations (:mod:`.session_list`); ``session/load`` replays the session's branch and
``session/resume`` goes on without replaying; ``session/fork`` opens a new session on a branch
of the same conversation, at its latest message or at a message id given in ``_meta``
(``messageId``), each session keeping its own leaf (:mod:`.sessions`); ``session/close`` cancels the
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
    ForkSessionResponse,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionForkCapabilities,
    SessionListCapabilities,
    SessionResumeCapabilities,
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
    SESSION_CWD,
    SESSION_META,
    AcpSession,
    find_conversation,
    mcp_server_settings,
    remember_leaf,
    session_leaf,
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
                session_capabilities=SessionCapabilities(
                    close=SessionCloseCapabilities(),
                    list=SessionListCapabilities(),
                    resume=SessionResumeCapabilities(),
                    fork=SessionForkCapabilities(),
                ),
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
        session, branch = await self._attach(session_id, cwd, mcp_servers)
        for update in branch_updates(branch):
            await self._connection().session_update(session_id=session_id, update=update)
        await self._say_elsewhere(session, cwd)
        logger.info(
            "acp session loaded",
            extra={
                "session": session_id,
                "conversation_id": session.conversation_id,
                "records": len(branch),
            },
        )
        return LoadSessionResponse()

    async def resume_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> ResumeSessionResponse:
        """As ``session/load``, without replaying the conversation (the client has it)."""
        session, _ = await self._attach(session_id, cwd, mcp_servers)
        await self._say_elsewhere(session, cwd)
        logger.info(
            "acp session resumed",
            extra={"session": session_id, "conversation_id": session.conversation_id},
        )
        return ResumeSessionResponse()

    async def fork_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> ForkSessionResponse:
        """A new session on a branch of the same conversation (not a copy): at the session's
        latest message, or at the message ``_meta.messageId`` names; at a user message the
        next prompt is its sibling (another question in its place), at a reply it goes below."""
        store = (await self.runtime()).store
        source = self.sessions.get(session_id)
        conversation = find_conversation(store, session_id)
        if conversation is None:
            raise turn_failure(
                f"There is no conversation or session {session_id} to fork: send a prompt in it "
                "first, or pick one from session/list.",
                "not_found",
            )
        at = _fork_point(kwargs.get("field_meta") or kwargs.get("_meta"))
        if at is None:
            at = (source.leaf_id if source is not None else None) or session_leaf(
                store, conversation, session_id
            )
            active = store.active_leaf(conversation.id)
            at = at or (active.id if active is not None else None)
        parent = _fork_parent(store, conversation.id, at) if at is not None else None
        fork = AcpSession(
            AcpSession.new_id(),
            conversation.profile,
            Path(cwd),
            conversation_id=conversation.id,
            leaf_id=parent,
            at_root=at is not None and parent is None,
            mcp_servers=mcp_server_settings(mcp_servers),
        )
        self.sessions[fork.id] = fork
        if parent is not None:
            remember_leaf(store, fork)
        logger.info(
            "acp session forked",
            extra={"session": fork.id, "from": session_id, "conversation_id": conversation.id},
        )
        return ForkSessionResponse(session_id=fork.id)

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        from weaver_tui.core.acp_agent.session_list import list_page

        store = (await self.runtime()).store
        return list_page(store, self.profile, cwd, cursor)

    async def _attach(
        self, session_id: str, cwd: str, mcp_servers: list[Any] | None
    ) -> tuple[AcpSession, list[Any]]:
        """The session ``session_id`` names (a session or a conversation id), opened in the
        client's ``cwd`` on the leaf it left off at, and that leaf's branch."""
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
        leaf_id = session_leaf(store, conversation, session_id)
        session = AcpSession(
            session_id,
            conversation.profile,
            Path(cwd),
            conversation_id=conversation.id,
            leaf_id=leaf_id,
            mcp_servers=mcp_server_settings(mcp_servers),
        )
        earlier = self.sessions.pop(session_id, None)
        if earlier is not None:  # loaded again: the servers it brought then are ended
            await earlier.aclose()
        self.sessions[session_id] = session
        leaf = store.get_message(leaf_id) if leaf_id else store.active_leaf(conversation.id)
        branch = store.path_to_root(leaf.id) if leaf is not None else []
        return session, branch

    async def _say_elsewhere(self, session: AcpSession, cwd: str) -> None:
        conversation = (await self.runtime()).store.get_conversation(session.conversation_id or "")
        stored = conversation.meta.get("project_root")
        if isinstance(stored, str) and _elsewhere(stored, cwd):
            note = (
                f"This conversation was made in {stored}; this session works in {cwd}, the "
                "folder the editor gave."
            )
            await self._connection().session_update(
                session_id=session.id, update=update_agent_thought_text(printable(note))
            )

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
            runtime = await self.runtime()
            turn = AcpTurn(
                self._connection(),
                session,
                runtime,
                model,
                TurnUpdates(get_traits(session.profile).stages),
            )
            titled = session.conversation_id is not None
            answered = await turn.run(self._message(session, content.text, content.attachments))
            remember_leaf(runtime.store, session)
            await self._after_turn(session, model, announce_title=not titled)
            return answered
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

    async def _after_turn(self, session: AcpSession, model: Any, *, announce_title: bool) -> None:
        """Tell the client what the session's context now holds against the model's window,
        and the title a new conversation was given."""
        from weaver_tui.core.acp_agent.session_info import info_update, usage_update

        if session.conversation_id is None:
            return
        store = (await self.runtime()).store
        updates: list[Any] = [usage_update(store, session, model)]
        if announce_title:
            updates.append(info_update(store.get_conversation(session.conversation_id)))
        for update in updates:
            if update is not None:
                await self._connection().session_update(session_id=session.id, update=update)

    def _message(self, session: AcpSession, text: str, attachments: list[Any]) -> NewMessage:
        """What the runtime stores: a new conversation for the session's first prompt, else
        the next message below the session's leaf (the conversation's remembered leaf for a
        session that has none yet)."""
        meta = {"attachments": attachments} if attachments else {}
        if session.conversation_id is not None and (session.leaf_id or session.at_root):
            return NewMessage(
                profile=session.profile,
                text=text,
                conversation_id=session.conversation_id,
                parent_id=session.leaf_id,
                meta=meta,
            )
        if session.conversation_id is not None:
            return NewMessage(
                profile=session.profile,
                text=text,
                conversation_id=session.conversation_id,
                at_active_leaf=True,
                meta=meta,
            )
        conversation_meta: dict[str, Any] = {
            SESSION_META: session.id,
            SESSION_CWD: str(session.cwd),
        }
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


def _fork_point(meta: Any) -> str | None:
    """The message id a ``session/fork`` names in its ``_meta`` (``messageId``), if any."""
    if not isinstance(meta, dict):
        return None
    value = meta.get("messageId")
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > 200:
        raise turn_failure("_meta.messageId must be a message id of this session.", "bad_fork")
    return value


def _fork_parent(store: Any, conversation_id: str, message_id: str) -> str | None:
    """Where a fork at ``message_id`` puts its first prompt (see ``TreeIndex.fork_parent``)."""
    from storage.store import NotFoundError
    from storage.tree_index import ForkError

    try:
        record = store.get_message(message_id)
    except NotFoundError:
        record = None
    if record is None or record.conversation_id != conversation_id:
        raise turn_failure(
            f"There is no message {message_id} in this session's conversation to fork at.",
            "bad_fork",
        )
    try:
        parent: str | None = store.tree_index(conversation_id).fork_parent(message_id)
    except ForkError as exc:
        raise turn_failure(str(exc), "bad_fork") from None
    return parent


def _elsewhere(stored: str, cwd: str) -> bool:
    """Whether the stored project root is another folder than the client's ``cwd``."""
    try:
        return Path(stored).resolve() != Path(cwd).resolve()
    except (OSError, RuntimeError, ValueError):
        return True
