"""One profile as an ACP agent: the protocol's methods on the app's services and runtime.

``initialize`` says what the agent can do (load sessions; text, images and embedded files in a
prompt; MCP servers over stdio and HTTP); ``session/new`` opens a session of the profile
in the client's folder, its MCP servers' tools joining its turns; ``session/prompt`` runs a
turn (:class:`~weaver_tui.core.acp_agent.turn.AcpTurn`); ``session/cancel`` stops it;
``session/load`` replays a session's branch (``session/resume`` opens it without the replay);
``session/list`` lists the profile's conversations; ``session/fork`` opens a new session on
the same conversation at another place in its tree (each session keeps its own leaf:
:mod:`~weaver_tui.core.acp_agent.session_leaves`); ``session/close`` cancels the
session's running turn, waits for it to end, then forgets the session and ends its MCP servers
(its conversation stays in the store, for ``session/load`` or the app); the agent's exit closes
every session; ``session/set_config_option`` sets the session's model, profile or project
instructions. The client's ``initialize`` says whether it shows forms: a consent question the
mediator asks then comes as ``elicitation/create`` (:mod:`~weaver_tui.core.acp_agent.turn`).
Expected failures answer with one sentence (a JSON-RPC error whose message is the sentence).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp import PROTOCOL_VERSION, update_agent_message_text, update_agent_thought_text
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    CloseSessionResponse,
    ConfigOptionUpdate,
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
    SetSessionConfigOptionResponse,
)

from agents.attachments import AttachmentError, total_size
from agents.errors import WeaverError
from agents.profile_registry import get_traits
from agents.project_instructions import META_KEY as PROJECT_INSTRUCTIONS_META
from agents.project_instructions import OFF
from agents.runtime.user_message import NewMessage
from agents.slash_commands import SlashInput, parse_slash
from storage.models import Conversation, MessageRecord
from storage.printable import printable
from storage.store import NotFoundError, StorageError
from weaver_tui import __version__
from weaver_tui.core.acp_agent.consent_elicitation import elicits_forms
from weaver_tui.core.acp_agent.failures import turn_failure
from weaver_tui.core.acp_agent.fork_point import leaf_record, message_of, unknown_session
from weaver_tui.core.acp_agent.prompt_content import prompt_content
from weaver_tui.core.acp_agent.replay import branch_updates
from weaver_tui.core.acp_agent.session_config import (
    MODEL,
    PROFILE,
    PROJECT_INSTRUCTIONS,
    ConfigChoices,
    ConfigOption,
)
from weaver_tui.core.acp_agent.session_leaves import (
    Placement,
    fork_placement,
    leaf_key,
    remembered,
)
from weaver_tui.core.acp_agent.session_list import page, session_infos
from weaver_tui.core.acp_agent.sessions import (
    CWD_META,
    SESSION_META,
    AcpSession,
    find_conversation,
    mcp_server_settings,
)
from weaver_tui.core.acp_agent.slash import (
    acp_commands,
    available_commands,
    help_text,
    unknown_command,
)
from weaver_tui.core.acp_agent.turn_report import info_update, usage_update
from weaver_tui.core.acp_agent.turn_updates import TurnUpdates
from weaver_tui.core.daemon_work import in_daemon_thread

if TYPE_CHECKING:
    from acp.interfaces import Client

    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime
    from storage.store import ConversationStore
    from weaver_tui.core.acp_agent.turn import AcpTurn
    from weaver_tui.core.services import Services

FORK_AT_META = "messageId"
"""The ``_meta`` key of ``session/fork`` that names the message to fork at (a message of the
session's own conversation; anything else is refused)."""


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
        self._windows: dict[tuple[str, str], int | None] = {}
        self._elicits = False
        """Whether the client shows form elicitations (its ``initialize`` said so)."""
        resources.push_async_callback(self._close_sessions)

    async def runtime(self) -> AgentRuntime:
        """The runtime, opened on first use: ``initialize`` answers before the graph
        libraries are even imported (an editor waits on it)."""
        if self._runtime is None:
            self._runtime = await self._resources.enter_async_context(self.services.runtime())
        return self._runtime

    def _turn_class(self) -> type[AcpTurn]:
        self.services.import_runtime()
        from weaver_tui.core.acp_agent.turn import AcpTurn

        return AcpTurn

    def on_connect(self, conn: Client) -> None:
        self._client = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        self._elicits = elicits_forms(client_capabilities)
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
        return NewSessionResponse(
            session_id=session.id, config_options=await self._config_options(session)
        )

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> LoadSessionResponse:
        """Open a stored session (or conversation) and replay its branch."""
        session, conversation, branch = await self._open_stored(cwd, session_id, mcp_servers)
        for update in branch_updates(branch):
            await self._connection().session_update(session_id=session_id, update=update)
        await self._note_elsewhere(session, conversation, cwd)
        await self._tell_commands(session)
        logger.info(
            "acp session loaded",
            extra={
                "session": session_id,
                "conversation_id": conversation.id,
                "records": len(branch),
            },
        )
        return LoadSessionResponse(config_options=await self._config_options(session))

    async def resume_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> ResumeSessionResponse:
        """Open a stored session (or conversation) where it stands, without a replay."""
        session, conversation, _branch = await self._open_stored(cwd, session_id, mcp_servers)
        await self._note_elsewhere(session, conversation, cwd)
        await self._tell_commands(session)
        logger.info(
            "acp session resumed",
            extra={"session": session_id, "conversation_id": conversation.id},
        )
        return ResumeSessionResponse(config_options=await self._config_options(session))

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """The profile's conversations, newest first, a page at a time."""
        if cwd is not None and not Path(cwd).is_absolute():
            raise turn_failure(
                f"The folder {printable(cwd)!r} is not an absolute path: give the project's "
                "absolute path, or list without a folder.",
                "invalid_params",
            )
        store = (await self.runtime()).store
        infos = session_infos(store.list_conversations(self.profile), cwd, str(Path.cwd()))
        sessions, next_cursor = page(infos, cursor)
        return ListSessionsResponse(sessions=sessions, next_cursor=next_cursor)

    async def fork_session(
        self, session_id: str, cwd: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> ForkSessionResponse:
        """A new session on the same conversation, at the session's leaf or at the message
        ``_meta.messageId`` names (a message of that conversation): the tree's new branch
        grows from there when the new session is prompted."""
        store = (await self.runtime()).store
        conversation, placement = self._standing(store, session_id)
        at = kwargs.get(FORK_AT_META)
        record = (
            message_of(store, conversation, at)
            if at is not None
            else leaf_record(store, conversation, placement)
        )
        fork = AcpSession(
            AcpSession.new_id(),
            conversation.profile,
            Path(cwd),
            conversation_id=conversation.id,
            placement=fork_placement(record),
            mcp_servers=mcp_server_settings(mcp_servers),
            title_told=conversation.title,
            project_instructions=conversation.meta.get(PROJECT_INSTRUCTIONS_META) != OFF,
        )
        store.update_conversation_meta(
            conversation.id, **{leaf_key(fork.id): fork.placement.stored()}
        )
        self.sessions[fork.id] = fork
        logger.info(
            "acp session forked",
            extra={
                "session": fork.id,
                "from_session": session_id,
                "conversation_id": conversation.id,
                "at": record.id,
            },
        )
        return ForkSessionResponse(
            session_id=fork.id, config_options=await self._config_options(fork)
        )

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        """Choose the session's model or (before its first prompt) its profile, from the
        values its options list (:mod:`~weaver_tui.core.acp_agent.session_config`)."""
        session = self._session(session_id)
        options = await self._set_option(session, config_id, value)
        return SetSessionConfigOptionResponse(config_options=options)

    async def _set_option(
        self, session: AcpSession, config_id: str, value: object
    ) -> list[ConfigOption]:
        """Set one option from its own values; tell the client the options as they now are."""
        choices = await self._choices(session)
        chosen = choices.checked(config_id, value)
        if config_id == MODEL and isinstance(chosen, str) and chosen != choices.model:
            session.model = await self._model_named(chosen)
        elif config_id == PROFILE and isinstance(chosen, str):
            before = acp_commands(session.profile)
            session.profile = chosen
            if session.commands_told and acp_commands(chosen) != before:  # a profile's own
                await self._connection().session_update(
                    session_id=session.id, update=available_commands(chosen)
                )
        elif config_id == PROJECT_INSTRUCTIONS and isinstance(chosen, bool):
            await self._keep_project_instructions(session, chosen)
        options = await self._config_options(session)
        await self._connection().session_update(
            session_id=session.id,
            update=ConfigOptionUpdate(
                session_update="config_option_update", config_options=options
            ),
        )
        logger.info(
            "acp session option set",
            extra={"session": session.id, "option": config_id, "value": chosen},
        )
        return options

    async def _tell_commands(self, session: AcpSession) -> None:
        if not session.commands_told:
            session.commands_told = True
            await self._connection().session_update(
                session_id=session.id, update=available_commands(session.profile)
            )

    async def _command(
        self, session: AcpSession, typed: SlashInput, attachments: bool
    ) -> PromptResponse:
        """Answer a slash command (nothing is stored: a command is not a message)."""
        if attachments:
            raise turn_failure(
                f"/{typed.name} takes no attached files: send it as text alone.", "invalid_params"
            )
        if typed.name == "help":
            answer = help_text(session.profile)
        elif typed.name not in ("model", "profile"):
            from weaver_tui.core.acp_agent.command_answers import command_answer

            command = next(c for c in acp_commands(session.profile) if c.name == typed.name)
            store = (await self.runtime()).store
            answer = await command_answer(
                command, typed.argument, session, store, self._connection(), self.services
            )
        else:
            option = MODEL if typed.name == "model" else PROFILE
            if typed.argument:
                await self._set_option(session, option, typed.argument)
            choices = await self._choices(session)
            current = choices.model if option == MODEL else choices.profile
            offered = choices.models() if option == MODEL else choices.profiles()
            answer = f"The {option} is {current}; the choices are {', '.join(offered)}."
        await self._connection().session_update(
            session_id=session.id, update=update_agent_message_text(printable(answer))
        )
        return PromptResponse(stop_reason="end_turn")

    async def _choices(self, session: AcpSession) -> ConfigChoices:
        try:
            handle = session.model or await self.services.amodel()
        except WeaverError as exc:
            raise turn_failure(exc.user_message, exc.code) from None
        in_project = get_traits(session.profile).project_root
        return ConfigChoices(
            handle.provider,
            handle.model_name,
            session.profile,
            conversation_started=session.conversation_id is not None,
            project_instructions=session.project_instructions if in_project else None,
        )

    async def _keep_project_instructions(self, session: AcpSession, on: bool) -> None:
        """Send the project's AGENTS.md or not, for the session and its conversation."""
        session.project_instructions = on
        if session.conversation_id is not None:
            store = (await self.runtime()).store
            store.update_conversation_meta(
                session.conversation_id, **{PROJECT_INSTRUCTIONS_META: None if on else OFF}
            )

    async def _config_options(self, session: AcpSession) -> list[ConfigOption]:
        return (await self._choices(session)).options()

    async def _model_named(self, name: str) -> ChatModelHandle:
        """The configured provider's model ``name``, for one session (the agent's stays),
        built in a thread: a build imports the provider's stack and makes its HTTP clients,
        tenths of a second the loop that answers the client would otherwise stall for."""
        import dataclasses

        from agents.providers import make_chat_model

        try:
            current = await self.services.amodel()
            config = dataclasses.replace(
                self.services.settings.provider_config(), provider=current.provider, model=name
            )
            return await in_daemon_thread(lambda: make_chat_model(config), "weaver-model-build")
        except WeaverError as exc:
            raise turn_failure(exc.user_message, exc.code) from None

    def _standing(
        self, store: ConversationStore, session_id: str
    ) -> tuple[Conversation, Placement]:
        """The conversation of an open or stored session, and where the session stands."""
        open_session = self.sessions.get(session_id)
        if open_session is not None and open_session.conversation_id is None:
            raise turn_failure(
                "This session has no messages yet: send a prompt before forking it.", "empty"
            )
        conversation = find_conversation(
            store,
            open_session.conversation_id
            if open_session is not None and open_session.conversation_id is not None
            else session_id,
        )
        if conversation is None:
            raise unknown_session(session_id)
        if open_session is not None:
            return conversation, open_session.placement
        return conversation, remembered(conversation, session_id)

    async def _open_stored(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None
    ) -> tuple[AcpSession, Conversation, list[MessageRecord]]:
        """Open the session ``session_id`` names where it stands: its own remembered leaf, or
        the conversation's active leaf when it remembers none (or that leaf is gone)."""
        store = (await self.runtime()).store
        conversation = find_conversation(store, session_id)
        if conversation is None:
            raise unknown_session(session_id)
        placement = remembered(conversation, session_id)
        leaf: MessageRecord | None = None
        if placement.placed and placement.leaf_id is not None:
            try:
                leaf = store.get_message(placement.leaf_id)
            except NotFoundError:  # its branch was deleted in the app
                placement = Placement()
            else:
                if leaf.conversation_id != conversation.id:
                    leaf, placement = None, Placement()
        if not placement.placed:
            leaf = store.active_leaf(conversation.id)
        # The session works where the client says (its cwd), never in a root the stored
        # conversation names: that root may be another folder, or came with an import.
        session = AcpSession(
            session_id,
            conversation.profile,
            Path(cwd),
            conversation_id=conversation.id,
            placement=placement,
            mcp_servers=mcp_server_settings(mcp_servers),
            title_told=conversation.title,
            project_instructions=conversation.meta.get(PROJECT_INSTRUCTIONS_META) != OFF,
        )
        earlier = self.sessions.pop(session_id, None)
        if earlier is not None:  # opened again: the servers it brought then are ended
            await earlier.aclose()
        self.sessions[session_id] = session
        branch = store.path_to_root(leaf.id) if leaf is not None else []
        return session, conversation, branch

    async def _note_elsewhere(
        self, session: AcpSession, conversation: Conversation, cwd: str
    ) -> None:
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
        await self._tell_commands(session)
        try:
            content = prompt_content(prompt)
            model = session.model or await self.services.amodel()
        except AttachmentError as exc:
            raise turn_failure(str(exc), "attachment") from None
        except WeaverError as exc:
            raise turn_failure(exc.user_message, exc.code) from None
        if not content.text.strip() and not content.attachments:
            raise turn_failure("The prompt is empty: type a message to send.", "empty")
        typed = parse_slash(content.text, acp_commands(session.profile))
        if typed.kind == "unknown":
            raise unknown_command(typed.name)
        if typed.kind == "command":
            return await self._command(session, typed, bool(content.attachments))
        text = typed.text
        size = len(text.encode("utf-8")) + total_size(content.attachments)
        limit = self.services.settings.turns.max_message_bytes
        if size > limit:  # refused before anything is stored
            raise turn_failure(
                f"The prompt is {size / 1e6:.1f} MB, over the {limit / 1e6:.1f} MB limit "
                "(max_message_bytes): send a shorter one, or attach the part that matters.",
                "too_large",
            )
        # the turn's module imports the graph libraries: in a thread, never on the loop that
        # answers the client (agents.runtime.stack_imports)
        turn_class = await in_daemon_thread(self._turn_class, "weaver-runtime-imports")
        if not await self._wait_turn(session):
            return PromptResponse(stop_reason="cancelled")
        # nothing awaited between the wait and here: the prompt that woke first runs first
        session.busy, session.cancel = True, asyncio.Event()
        session.idle.clear()
        turn: AcpTurn | None = None
        try:
            await self._open_tools(session)
            turn = turn_class(
                self._connection(),
                session,
                await self.runtime(),
                model,
                TurnUpdates(get_traits(session.profile).stages),
                elicits=self._elicits,
            )
            response = await turn.run(self._message(session, text, content.attachments))
            self._remember(session, turn.leaf_id)  # before the report reads the branch
            await self._report(session, model, turn)
            return response
        finally:
            if turn is not None:
                self._remember(session, turn.leaf_id)
            session.busy = False
            session.idle.set()

    async def _wait_turn(self, session: AcpSession) -> bool:
        """Queue behind the session's running turn: a prompt sent while a turn runs is sent
        when it ends, in the order sent. False when the session was cancelled (or closed)
        while this prompt waited: it then ends ``cancelled``, never stored."""
        if session.busy:
            await self._connection().session_update(
                session_id=session.id,
                update=update_agent_thought_text(
                    "Your next message waits for the reply being written: it is sent when that "
                    "reply ends (cancel ends both)."
                ),
            )
        while session.busy:
            running = session.cancel
            await session.idle.wait()
            cancelled = running is not None and running.is_set()
            if cancelled or self.sessions.get(session.id) is not session:
                return False
        return True

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
            placement = session.placement
            return NewMessage(
                profile=session.profile,
                text=text,
                conversation_id=session.conversation_id,
                parent_id=placement.leaf_id,
                at_active_leaf=not placement.placed,
                meta=meta,
            )
        conversation_meta: dict[str, Any] = {
            SESSION_META: session.id,
            CWD_META: str(session.cwd.resolve()),
        }
        if not session.project_instructions:
            conversation_meta[PROJECT_INSTRUCTIONS_META] = OFF
        if get_traits(session.profile).project_root:
            conversation_meta["project_root"] = str(session.cwd.resolve())
        return NewMessage(
            profile=session.profile, text=text, meta=meta, conversation_meta=conversation_meta
        )

    async def _report(self, session: AcpSession, model: ChatModelHandle, turn: AcpTurn) -> None:
        """Tell the client the conversation's new title and how full the context is."""
        if session.conversation_id is None:
            return
        store = (await self.runtime()).store
        conversation = find_conversation(store, session.conversation_id)
        if conversation is None:  # deleted in the app meanwhile
            return
        if conversation.title != session.title_told:
            session.title_told = conversation.title
            await self._connection().session_update(
                session_id=session.id, update=info_update(conversation)
            )
        leaf = session.placement.leaf_id
        branch = store.path_to_root(leaf) if leaf is not None else []
        limit = self.services.settings.turns.context_messages
        update = usage_update(branch, limit, await self._window(model), turn.usage)
        if update is None:
            logger.info("acp usage not sent: the context window is unknown")
            return
        await self._connection().session_update(session_id=session.id, update=update)

    async def _window(self, model: ChatModelHandle) -> int | None:
        """The model's context window: the presets' figure, else the server's (asked once)."""
        from agents.providers.context_overflow import effective_context_window

        key = (model.base_url or "", model.model_name)
        if key not in self._windows:
            self._windows[key] = model.context_window or await model.served_context_window()
        return effective_context_window(self._windows[key], model.base_url, model.model_name)

    def _remember(self, session: AcpSession, leaf_id: str | None) -> None:
        """Keep the session's new leaf (in the session and in its conversation's meta)."""
        if session.conversation_id is None or leaf_id is None:
            return
        session.placement = Placement(True, leaf_id)
        assert self._runtime is not None  # the turn opened it
        try:
            self._runtime.store.update_conversation_meta(
                session.conversation_id, **{leaf_key(session.id): session.placement.stored()}
            )
        except StorageError as exc:  # deleted in the app meanwhile: the session keeps its leaf
            logger.warning(
                "acp session leaf not stored", extra={"session": session.id, "error": str(exc)}
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
