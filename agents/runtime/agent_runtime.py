"""One graph runtime for every profile: compile once, run a turn, yield UI-agnostic events.

``run_turn`` answers a user record that is already committed in the tree. It creates the
reply record before the model is called, streams the profile's graph (``messages``,
``updates`` and ``custom`` modes), writes tool calls, tool results and replies as records as
they happen, and ends with exactly one ``RunFinished`` or ``RunError``. Expected failures
(provider errors, a missing profile) become ``RunError`` events, never exceptions.

Every record it writes travels with an event as written (``TurnStarted``, ``RecordSaved``,
``RunError``), and it is the turn's only writer: a failed turn's reply is marked here (status
error, the sentence in its meta), so a consumer shows what arrives and reads nothing back.

How a turn ends is decided here, once, for every profile and front end: it ends *complete*
(a reply with text, or tool calls that ran on arguments received whole) or *marked* (failed,
refused, filtered, truncated, cancelled) with one sentence; never an unmarked empty or cut
reply. A model call that ended marked raises :class:`agents.reply_outcome.MarkedReply` in the
node that made it (no tool call of it runs); the reply is then stored with status error, the
sentence in ``meta["error"]`` and the mark in ``meta["outcome"]``, and the turn ends with
``RunError``. A turn that ran to its end on a reply with no text and no call, and ran no
tool, is marked ``empty`` the same way, whichever node wrote that reply.

The graph runs in its own task (:class:`agents.runtime.graph_stream.GraphStream`), so setting
``cancel`` stops a turn within milliseconds even while the provider is silent; the records
(:class:`agents.runtime.recorder.TurnRecorder`) and the event mapping
(:class:`agents.runtime.event_mapper.TurnEventMapper`) live in their own modules. ``resume_turn``
continues a turn a profile paused with ``interrupt()`` (ide-helper's patch review).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from langgraph.types import Command

from agents.context import PINNED_KEY, pinned_ids
from agents.context_budget import CONTEXT_WINDOW_KEY
from agents.errors import ConfigError, WeaverError
from agents.folder_instructions import FOLDER_INSTRUCTIONS_KEY, FolderInstructions
from agents.graph.steering import STEER_INBOX_KEY, Steer, SteerInbox
from agents.instructions import with_instructions
from agents.mcp_servers import McpServerConfig, McpToolbox
from agents.mcp_servers.toolbox import OFF_KEY
from agents.pending_interrupt import paused_here
from agents.profile import ToolApprovalMode, TurnContext, WarmUpContext
from agents.project_instructions import (
    META_KEY,
    OFF,
    find_project_instructions,
    with_project_instructions,
)
from agents.providers import ChatModelHandle
from agents.providers.context_overflow import effective_context_window
from agents.providers.model_options import with_options
from agents.reply_outcome import OUTCOME_META_KEY, MarkedReply, ReplyOutcome
from agents.runtime.continuation import continuation_messages
from agents.runtime.event_mapper import TurnEventMapper
from agents.runtime.events import (
    MessageStored,
    NodeStatus,
    RecordSaved,
    RunError,
    RunEvent,
    RunFinished,
    TokenDelta,
    TurnStarted,
)
from agents.runtime.failures import is_unexpected, start_failure, translate_error
from agents.runtime.graph_stream import GraphStream
from agents.runtime.history import turn_messages, user_words
from agents.runtime.recorder import STEER_KEPT_META, TurnRecorder
from agents.runtime.trace import new_trace_id
from agents.runtime.tree_edits import TreeEdits
from agents.runtime.turn_lock import ConversationBusy, conversation_turn
from agents.runtime.usage_tally import UsageTally
from agents.runtime.user_message import NewMessage, store_user_message
from storage.models import MessageStatus
from storage.store import StorageError
from storage.turn_locks import FileTurnLocks

BeforeTurn = Callable[["MessageRecord", ChatModelHandle], Awaitable[None]]
"""Run by :meth:`AgentRuntime.send` between the stored message and its turn."""
ModelSource = Callable[[], Awaitable[ChatModelHandle]]
"""The model, built when a turn first needs it (a missing key fails after the message is kept)."""

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from agents.profile import Profile
    from storage.models import Conversation, MessageRecord
    from storage.store import ConversationStore
    from storage.turn_locks import TurnLocks

logger = logging.getLogger(__name__)


class AgentRuntime:
    """Runs turns of any registered profile on a shared checkpointer and conversation store."""

    def __init__(
        self,
        store: ConversationStore,
        checkpointer: BaseCheckpointSaver[Any] | None,
        *,
        config_dir: Path | None = None,
        data_dir: Path | None = None,
        profile_settings: Mapping[str, Any] | None = None,
        tool_seconds: float = 30.0,
        tool_result_chars: int = 64_000,
        context_messages: int = 20,
        max_tool_rounds: int = 5,
        flush_interval: float = 0.1,
        mcp_servers: Sequence[McpServerConfig] = (),
        turn_locks: TurnLocks | None = None,
    ) -> None:
        self.store = store
        self.edits = TreeEdits(store)
        """The tree operations outside a turn (an edited reply, a branch copied or deleted,
        a context mark, a summary), each returning the event that carries what it wrote."""
        self.turn_locks = turn_locks
        """The storage's turn locks (``storage.backend.turn_locks``); else the data folder's."""
        self.checkpointer = checkpointer
        self.config_dir = config_dir
        self.data_dir = data_dir
        self.tool_seconds = tool_seconds
        self.tool_result_chars = tool_result_chars
        self.profile_settings: Mapping[str, Any] = dict(profile_settings or {})
        self.context_messages = context_messages
        self.max_tool_rounds = max_tool_rounds
        self.flush_interval = flush_interval
        self._graphs: dict[str, Any] = {}
        self._steer_inboxes: dict[str, SteerInbox] = {}
        """The inbox of the turn running in each conversation (see :meth:`steer`)."""
        self.mcp = McpToolbox(mcp_servers)
        """The user's own MCP servers, started when a turn first needs them."""

    def steer(
        self, conversation_id: str, text: str, meta: Mapping[str, Any] | None = None
    ) -> Steer | None:
        """Send ``text`` into the turn this runtime is running in ``conversation_id``: it joins
        the turn's next model call after the tool round under way (recorded in the tree where
        it was read) or, when the turn makes no further call, is handed back at its end
        (``Steer.state`` says which). ``None`` when no turn of this runtime runs there: the
        caller keeps the words (send them as the next message). ``meta``: who says it and to
        whom, as a user message's (only :data:`STEER_KEPT_META` is kept); the model reads it
        as it reads that user message in the history."""
        inbox = self._steer_inboxes.get(conversation_id)
        kept = {k: v for k, v in (meta or {}).items() if k in STEER_KEPT_META}
        steer = None if inbox is None else inbox.put(text, kept, user_words(text, kept))
        logger.info(
            "steer",
            extra={"conversation_id": conversation_id, "accepted": steer is not None},
        )
        return steer

    async def aclose(self) -> None:
        """End the sessions to the user's MCP servers (their processes with them)."""
        await self.mcp.aclose()

    async def _with_mcp_tools(
        self,
        context: TurnContext,
        profile: Profile,
        conversation: Conversation,
        session_tools: Sequence[BaseTool] = (),
    ) -> tuple[TurnContext, list[NodeStatus]]:
        """``context`` with the tools of the user's MCP servers that serve ``profile`` (and
        are on in ``conversation``) and then ``session_tools``, and a status line for each
        server (or tool) that could not join."""
        if not self.mcp and not session_tools:
            return context, []
        own = [tool.name for tool in profile.make_tools()]
        tools: list[BaseTool] = []
        problems: list[str] = []
        if self.mcp:
            tools, problems = await self.mcp.tools_for(
                profile.name,
                takes_tools=bool(own),
                off=set(conversation.meta.get(OFF_KEY) or ()),
                taken=own,
            )
        if session_tools and not own:
            problems.append(
                f"{profile.name} calls no tools, so the editor's MCP servers are not used here."
            )
        elif session_tools:
            problems.extend(_join_session_tools(tools, session_tools, taken={*own}))
        lines = [NodeStatus("mcp", problem, "error") for problem in problems]
        return replace(context, extra_tools=tuple(tools)), lines

    def graph_for(self, profile: Profile) -> Any:
        """The profile's graph, compiled with the checkpointer on first use and cached."""
        graph = self._graphs.get(profile.name)
        if graph is None:
            graph = profile.build_graph(profile).compile(checkpointer=self.checkpointer)
            self._graphs[profile.name] = graph
        return graph

    def warm_up(self, profile: Profile) -> None:
        """Start what ``profile``'s first turn would otherwise wait for (its ``warm_up``), on
        this event loop and with the data folder and settings its turns get; call it when a
        question may come (the app's warm-up, a conversation of the profile opened). Never
        raises: what failed is said by the turn that needs it."""
        if profile.warm_up is None:
            return
        try:
            profile.warm_up(WarmUpContext(self.data_dir, self.profile_settings))
        except Exception as exc:  # noqa: BLE001 (a warm-up only; the turn reports a real failure)
            logger.info(
                "profile warm-up failed", extra={"profile": profile.name, "error": str(exc)}
            )

    async def run_turn(
        self,
        *,
        conversation_id: str,
        user_message_id: str,
        model: ChatModelHandle,
        profile: str | None = None,
        cancel: asyncio.Event | None = None,
        project_root: Path | str | None = None,
        sender: str | None = None,
        continue_from: str | None = None,
        tool_approval: ToolApprovalMode = "ask",
        session_tools: Sequence[BaseTool] = (),
        consent_in_person: bool = False,
    ) -> AsyncGenerator[RunEvent, None]:
        """Answer ``user_message_id``; regenerating is simply a second run on the same record.

        ``consent_in_person``: the caller asks its own user a consent question for a
        participant with no seat (:attr:`agents.profile.TurnContext.consent_in_person`).

        ``tool_approval`` settles calls that need the user's approval when nobody can be asked
        (``approve`` or ``refuse``); ``ask`` pauses the turn for the answer.

        ``session_tools`` join this turn beside the configured servers' tools: those of MCP
        servers the caller opened itself (an editor's session's own servers).

        ``continue_from`` names a reply to that message to go on from: the new reply (a
        sibling version of it) starts with its text (``TurnStarted`` carries it) and the
        model writes what comes next.
        """
        from agents.profile_registry import get_profile

        trace_id = new_trace_id()
        recorder: TurnRecorder | None = None
        try:
            conversation = self.store.get_conversation(conversation_id)
            user_record = self.store.get_message(user_message_id)
            chosen = get_profile(profile or conversation.profile)
            context = self._context(
                conversation,
                chosen,
                model,
                user_message_id,
                trace_id,
                project_root=project_root,
                sender=sender or user_record.meta.get("sender"),
            )
            context = replace(
                context, tool_approval=tool_approval, consent_in_person=consent_in_person
            )
            context, mcp_lines = await self._with_mcp_tools(
                context, chosen, conversation, session_tools
            )
            # A continued reply gets its next version beside it: below the record it follows,
            # which is the user's message or, after a tool round, the round's last result.
            reply_parent = user_message_id
            continued = ""
            if continue_from is not None:
                continued_record = self.store.get_message(continue_from)
                continued = continued_record.content
                reply_parent = continued_record.parent_id or user_message_id
            history = turn_messages(self.store, reply_parent, self.context_messages)
            recorder = self._recorder(conversation_id, reply_parent, chosen, model)
            if continue_from is not None:
                history = continuation_messages(history, continued)
                recorder.continuing = continued
            reply = recorder.open_reply()
            if continue_from is not None:
                recorder.annotate(reply.id, {"continued_from": continue_from})
            thread_id = f"{conversation_id}:{reply.id}"
            reply = recorder.annotate(reply.id, {"thread_id": thread_id})
        except Exception as exc:  # noqa: BLE001 (a missing record or profile, an unreadable prompt, storage)
            error = exc if isinstance(exc, WeaverError) else ConfigError(start_failure(exc))
            logger.warning("turn not started", extra={"trace_id": trace_id, "error": str(error)})
            yield RunError(error, self._fail_start(recorder, error))
            return
        logger.info(
            "turn started",
            extra={
                "trace_id": trace_id,
                "conversation_id": conversation_id,
                "message_id": user_message_id,
                "profile": chosen.name,
                "provider": model.provider,
                "model": model.model_name,
                "content": user_record.content,
            },
        )
        yield TurnStarted(
            conversation_id,
            user_message_id,
            reply,
            model.provider,
            model.model_name,
            chosen.name,
        )
        for line in mcp_lines:
            yield line
        turn = self._drive(
            chosen, {"messages": history}, thread_id, context, recorder, cancel, trace_id, model
        )
        try:
            async for event in turn:
                yield event
        finally:
            await turn.aclose()  # a consumer that stops listening still finishes the records

    async def send(
        self,
        message: NewMessage,
        *,
        model: ChatModelHandle | ModelSource,
        cancel: asyncio.Event | None = None,
        project_root: Path | str | None = None,
        sender: str | None = None,
        tool_approval: ToolApprovalMode = "ask",
        session_tools: Sequence[BaseTool] = (),
        consent_in_person: bool = False,
        exclusive: bool | None = None,
        before_turn: BeforeTurn | None = None,
    ) -> AsyncGenerator[RunEvent, None]:
        """Commit ``message`` and answer it: ``MessageStored`` first, then :meth:`run_turn`'s
        events. This is every front end's one way in: none stores a user's message, takes the
        turn lock or marks a dead process's reply itself.

        A message that continues a conversation (or starts one) holds the conversation's
        turn lock (a file lock in the data folder, across processes) until its turn ends, so
        two front ends never answer the same leaf twice; a busy conversation is a ``RunError``
        and nothing is written. A message with an explicit parent in a stored conversation
        is a fork and runs beside a turn in progress, unless ``exclusive`` (a front end that
        answers one turn at a time, the chat screen) asks for the lock all the same. Holding
        the lock, the runtime marks the replies a dead process left streaming in the
        conversation interrupted (nobody answers there now) before the message is stored.

        ``model`` is the model, or an awaitable source of it, asked only once the message is
        stored: a model that cannot be built (a missing key) is a ``RunError`` with no reply,
        and the message is kept. ``before_turn`` runs once the model is known and before the
        turn starts (the chat's automatic summary of older turns).
        """
        explicit_fork = message.parent_id is not None and message.conversation_id is not None
        locked = bool(exclusive) or not explicit_fork
        with contextlib.ExitStack() as held:
            try:
                if message.conversation_id and locked:
                    held.enter_context(self._turn_lock(message.conversation_id))
                    self.store.mark_interrupted_replies(message.conversation_id)
                stored = store_user_message(self.store, message)
                if message.conversation_id is None:  # new: nobody else can hold its lock yet
                    held.enter_context(self._turn_lock(stored.conversation.id))
            except ConversationBusy as busy:
                yield RunError(busy)
                return
            except StorageError as exc:  # the message could not be written: say so, run nothing
                yield RunError(ConfigError(str(exc)))
                return
            yield MessageStored(stored.conversation, stored.record)
            try:
                handle = model if isinstance(model, ChatModelHandle) else await model()
            except WeaverError as exc:  # the model cannot be built: the message stays
                yield RunError(exc)
                return
            if before_turn is not None:
                await before_turn(stored.record, handle)
            turn = self.run_turn(
                conversation_id=stored.conversation.id,
                user_message_id=stored.record.id,
                model=handle,
                profile=message.profile,
                cancel=cancel,
                project_root=project_root,
                sender=sender,
                tool_approval=tool_approval,
                session_tools=session_tools,
                consent_in_person=consent_in_person,
            )
            try:
                async for event in turn:
                    yield event
            finally:
                await turn.aclose()

    async def exclusively(
        self, conversation_id: str, events: AsyncGenerator[RunEvent, None]
    ) -> AsyncGenerator[RunEvent, None]:
        """``events`` (a turn of :meth:`run_turn` or :meth:`resume_turn` not started yet) run
        holding ``conversation_id``'s turn lock, as :meth:`send` holds it: a busy conversation
        is one ``RunError`` and nothing is written; replies a dead process left streaming
        are marked interrupted first. A front end answering again, continuing a reply or
        resuming a paused turn calls this instead of taking the lock itself."""
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(self._turn_lock(conversation_id))
                self.store.mark_interrupted_replies(conversation_id)
            except (ConversationBusy, StorageError) as exc:
                await events.aclose()
                yield RunError(exc if isinstance(exc, ConversationBusy) else ConfigError(str(exc)))
                return
            try:
                async for event in events:
                    yield event
            finally:
                await events.aclose()

    def answerer_lock(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        """Be the one answering the space's waiting messages (``TurnBusy`` if another process
        or host is): see :meth:`storage.turn_locks.TurnLocks.hold_answerer`."""
        if self.turn_locks is not None:
            return self.turn_locks.hold_answerer(conversation_id)
        if self.data_dir is None:  # no data folder (tests, a store in memory): nothing to share
            return contextlib.nullcontext()
        return FileTurnLocks(self.data_dir).hold_answerer(conversation_id)

    def recover_interrupted(self, conversation_id: str) -> list[str]:
        """Mark the conversation's replies whose writer died (a host killed mid-reply) as
        interrupted, where the storage can tell a dead writer on another host from a live one
        (on a server, a live writer holds its writer lock, whichever host it is on). Returns
        the ids marked (none with the data folder's file, whose check runs when a store
        opens)."""
        mark = getattr(self.store, "mark_interrupted_replies", None)
        if self.turn_locks is None or not callable(mark):
            return []
        marked: list[str] = mark(conversation_id)
        return marked

    def _turn_lock(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        if self.turn_locks is not None:
            return conversation_turn(self.turn_locks, conversation_id)
        if self.data_dir is None:  # no data folder (tests, a store in memory): nothing to share
            return contextlib.nullcontext()
        return conversation_turn(self.data_dir, conversation_id)

    async def resume_turn(
        self,
        *,
        conversation_id: str,
        record_id: str,
        value: Any,
        model: ChatModelHandle,
        cancel: asyncio.Event | None = None,
        session_tools: Sequence[BaseTool] = (),
        consent_in_person: bool = False,
    ) -> AsyncGenerator[RunEvent, None]:
        """Resume a turn paused by ``interrupt()`` (recorded on ``record_id``) with ``value``
        (``session_tools`` and ``consent_in_person`` as for :meth:`run_turn`).

        The paused graph continues on its own checkpoint thread, below ``record_id``: the tool
        result comes first, then the next reply. There is no ``TurnStarted`` (the reply does not
        exist yet); each record is announced by ``RecordSaved``, and the turn ends as usual.
        """
        from agents.profile_registry import get_profile

        trace_id = new_trace_id()
        try:
            record = self.store.get_message(record_id)
            pending = paused_here(record)
            if pending is None or record.conversation_id != conversation_id:
                raise LookupError("no pause of this conversation's own is waiting there")
            conversation = self.store.get_conversation(conversation_id)
            chosen = get_profile(pending.get("profile") or conversation.profile)
        except Exception as exc:  # noqa: BLE001 (any unreadable paused turn is said in one sentence)
            yield RunError(
                ConfigError(f"There is no paused turn to resume on {record_id} ({exc}).")
            )
            return
        context = self._context(conversation, chosen, model, pending["user_message_id"], trace_id)
        context = replace(context, consent_in_person=consent_in_person)
        context, mcp_lines = await self._with_mcp_tools(
            context, chosen, conversation, session_tools
        )
        self.store.update_message(record_id, meta={"pending_interrupt": None})
        for line in mcp_lines:
            yield line
        recorder = self._recorder(conversation_id, record_id, chosen, model)
        recorder.resume_below(record_id)
        turn = self._drive(
            chosen,
            Command(resume=value),
            pending["thread_id"],
            context,
            recorder,
            cancel,
            trace_id,
            model,
        )
        try:
            async for event in turn:
                yield event
        finally:
            await turn.aclose()  # a consumer that stops listening still finishes the records

    def _context(
        self,
        conversation: Conversation,
        profile: Profile,
        model: ChatModelHandle,
        user_message_id: str,
        trace_id: str,
        *,
        project_root: Path | str | None = None,
        sender: str | None = None,
    ) -> TurnContext:
        root = project_root or conversation.meta.get("project_root") or Path.cwd()
        system_prompt, folders = _with_project(profile, conversation, Path(root), self.config_dir)
        return TurnContext(
            model=with_options(model.for_profile(profile), conversation.meta.get("model_options")),
            conversation_id=conversation.id,
            user_message_id=user_message_id,
            store=self.store,
            system_prompt=with_instructions(system_prompt, conversation.meta.get("instructions")),
            project_root=Path(root),
            max_tool_rounds=self.max_tool_rounds,
            sender=sender,
            participants=tuple(conversation.meta.get("participants") or ()),
            extra={
                "trace_id": trace_id,
                CONTEXT_WINDOW_KEY: effective_context_window(
                    model.context_window, model.base_url, model.model_name
                ),
                PINNED_KEY: pinned_ids(self.store.path_to_root(user_message_id)),
                FOLDER_INSTRUCTIONS_KEY: folders,
            },
            data_dir=self.data_dir,
            settings=self.profile_settings,
            tool_seconds=self.tool_seconds,
            tool_result_chars=self.tool_result_chars,
        )

    def _recorder(
        self, conversation_id: str, parent_id: str, profile: Profile, model: ChatModelHandle
    ) -> TurnRecorder:
        reply_meta = {
            "provider": model.provider,
            "model": model.model_name,
            "profile": profile.name,
        }
        return TurnRecorder(self.store, conversation_id, parent_id, reply_meta, self.flush_interval)

    async def _drive(
        self,
        profile: Profile,
        graph_input: Any,
        thread_id: str,
        context: TurnContext,
        recorder: TurnRecorder,
        cancel: asyncio.Event | None,
        trace_id: str,
        model: ChatModelHandle,
    ) -> AsyncGenerator[RunEvent, None]:
        """Run the turn with its steer inbox open (:meth:`steer`), closed when it ends."""
        started = time.perf_counter()
        inbox = SteerInbox()
        context = replace(context, extra={**context.extra, STEER_INBOX_KEY: inbox})
        self._steer_inboxes[context.conversation_id] = inbox
        turn = self._drive_graph(
            profile, graph_input, thread_id, context, recorder, cancel, trace_id, model, started
        )
        try:
            async for event in turn:
                yield event
        finally:
            await turn.aclose()  # a consumer that stops listening still finishes the records
            inbox.close()  # what no model call read is handed back (``Steer.state``)
            if self._steer_inboxes.get(context.conversation_id) is inbox:
                del self._steer_inboxes[context.conversation_id]

    async def _drive_graph(
        self,
        profile: Profile,
        graph_input: Any,
        thread_id: str,
        context: TurnContext,
        recorder: TurnRecorder,
        cancel: asyncio.Event | None,
        trace_id: str,
        model: ChatModelHandle,
        started: float,
    ) -> AsyncGenerator[RunEvent, None]:
        """Stream the graph, map its items to events, finish the records."""
        tally = UsageTally()  # every model call's tokens, internal stages included
        config = {
            "configurable": {"thread_id": thread_id},
            "recursion_limit": max(25, 4 * self.max_tool_rounds + 10),
            "callbacks": [tally],
        }
        stream = GraphStream(
            self.graph_for(profile),
            graph_input,
            config=config,
            context=context,
            cancel=cancel,
            trace_id=trace_id,
        )
        mapper = TurnEventMapper(recorder, tally)
        not_written: StorageError | None = None
        try:
            async for mode, payload in stream:
                for event in mapper.handle(mode, payload):
                    yield event
        except StorageError as exc:  # the reply could not be written (a full disk): stop here
            not_written = exc
        finally:
            await stream.stop()
            if stream.outcome is None and not_written is None:  # the consumer went away
                self._finish_if_written(
                    recorder, mapper, MessageStatus.CANCELLED, started, trace_id
                )
        failure = not_written or stream.error
        if failure is None:
            try:
                settled = self._settle(
                    recorder, mapper, stream, context, profile, thread_id, started, trace_id
                )
                async for event in settled:
                    yield event
                return
            except StorageError as exc:  # the closing write failed (a full disk)
                failure = exc
        error = translate_error(failure, model)
        logger.error(
            "turn failed",
            exc_info=failure if is_unexpected(failure) else None,
            extra={"trace_id": trace_id, "error": error.user_message, "code": error.code},
        )
        marked = error if isinstance(error, MarkedReply) else None
        failed = self._finish_if_written(
            recorder,
            mapper,
            MessageStatus.ERROR,
            started,
            trace_id,
            error=error.user_message,
            marked=marked,
        )
        await self._forget_thread(thread_id)
        if marked is not None and marked.content and failed is not None:
            # A refusal's words never streamed as text: every front end shows them as sent.
            yield TokenDelta(failed.id, marked.content)
        yield RunError(error, failed)

    async def _settle(
        self,
        recorder: TurnRecorder,
        mapper: TurnEventMapper,
        stream: GraphStream,
        context: TurnContext,
        profile: Profile,
        thread_id: str,
        started: float,
        trace_id: str,
    ) -> AsyncGenerator[RunEvent, None]:
        """Close a turn that ran to its end (complete, cancelled or paused): its records, then
        ``RecordSaved``, ``Usage`` and ``RunFinished``. Raises ``StorageError`` when a closing
        write fails, before any event is yielded."""
        flushed = list(mapper.flush_tool_results())  # a round's last results, in call order
        cancelled = stream.outcome == "cancelled"
        paused = not cancelled and bool(mapper.interrupted)
        interrupt_record: MessageRecord | None = None
        if paused:
            interrupt_record = recorder.record_interrupt(
                [getattr(i, "value", i) for i in mapper.interrupted],
                thread_id=thread_id,
                user_message_id=context.user_message_id,
                profile=profile.name,
            )
        status = MessageStatus.CANCELLED if cancelled else MessageStatus.COMPLETE
        leaf = self._finish(recorder, mapper, status, started, trace_id)
        empty = None if cancelled or paused or recorder.tools_ran else _unmarked_empty(leaf)
        if empty is not None:  # whatever node wrote it, an empty reply does not pass as one
            leaf = recorder.store.update_message(
                leaf.id,
                meta={"error": empty.user_message, OUTCOME_META_KEY: empty.outcome.kind},
                status=MessageStatus.ERROR,
            )
            logger.warning("empty reply", extra={"trace_id": trace_id, "message_id": leaf.id})
        if not paused:  # only a paused turn resumes from its checkpoints
            await self._forget_thread(thread_id)
        for event in flushed:
            yield event
        if interrupt_record is not None:
            yield RecordSaved(interrupt_record)
        yield RecordSaved(leaf)  # the turn's last record as closed: consumers need not read it
        usage = mapper.usage if mapper.has_usage else None
        if usage is not None:
            yield usage
        if empty is not None:
            yield RunError(empty, leaf)
            return
        yield RunFinished(
            "cancelled" if cancelled else "complete",
            leaf.id,
            list(recorder.record_ids),
            (time.perf_counter() - started) * 1000,
            usage,
            paused,
        )

    async def _forget_thread(self, thread_id: str) -> None:
        """Drop a settled turn's checkpoints: the tree holds its records, and every turn runs
        on a thread of its own, so nothing reads them again (they were most of the store's
        growth: a turn's checkpoints hold every message it saw, each step)."""
        delete = getattr(self.checkpointer, "adelete_thread", None)
        if delete is None:
            return
        try:
            await delete(thread_id)
        except Exception as exc:  # noqa: BLE001 (a checkpoint left behind costs space, not correctness)
            logger.warning(
                "checkpoints not deleted", extra={"thread_id": thread_id, "error": str(exc)}
            )

    def _finish(
        self,
        recorder: TurnRecorder,
        mapper: TurnEventMapper,
        status: MessageStatus,
        started: float,
        trace_id: str,
        *,
        error: str | None = None,
        marked: MarkedReply | None = None,
    ) -> MessageRecord:
        """Close the turn's records, write latency/usage (and a failure's sentence, with the
        mark and the content of a ``marked`` reply), move the active leaf; return the leaf
        record as written."""
        latency_ms = round((time.perf_counter() - started) * 1000, 1)
        usage = mapper.usage if mapper.has_usage else None
        list(mapper.flush_tool_results())  # results a round still held, in call order
        list(mapper.settle_reply())  # a reply cut short keeps the text its splitter held back
        record = recorder.finish_turn(
            status,
            latency_ms=latency_ms,
            usage=usage,
            error=error,
            outcome=marked.outcome.kind if marked is not None else None,
            content=marked.content if marked is not None else None,
        )
        logger.info(
            "turn finished",
            extra={
                "trace_id": trace_id,
                "conversation_id": recorder.conversation_id,
                "message_id": record.id,
                "profile": recorder.reply_meta.get("profile"),
                "provider": recorder.reply_meta.get("provider"),
                "model": recorder.reply_meta.get("model"),
                "status": status.value,
                "latency_ms": latency_ms,
                "input_tokens": mapper.usage.input_tokens,
                "output_tokens": mapper.usage.output_tokens,
                "content": record.content,
            },
        )
        return record

    def _finish_if_written(
        self,
        recorder: TurnRecorder,
        mapper: TurnEventMapper,
        status: MessageStatus,
        started: float,
        trace_id: str,
        *,
        error: str | None = None,
        marked: MarkedReply | None = None,
    ) -> MessageRecord | None:
        """:meth:`_finish` for a turn already ending badly, on a store that may refuse even
        that (a full disk): the refusal is logged, the records stay as last written (a reply
        left ``streaming`` is marked interrupted when the store is next opened)."""
        try:
            return self._finish(
                recorder, mapper, status, started, trace_id, error=error, marked=marked
            )
        except StorageError as exc:
            logger.warning("turn not closed", extra={"trace_id": trace_id, "error": str(exc)})
            return None

    @staticmethod
    def _fail_start(recorder: TurnRecorder | None, error: WeaverError) -> MessageRecord | None:
        """A turn that failed after its reply record was created: mark that reply failed (status
        error, the sentence in its meta), so nothing is left streaming; ``None`` without one."""
        if recorder is None or recorder.reply_id is None:
            return None
        try:
            return recorder.finish_turn(
                MessageStatus.ERROR, latency_ms=0.0, error=error.user_message
            )
        except Exception as exc:  # noqa: BLE001 (the store that failed the start may fail this write too)
            logger.warning("failed reply not marked", extra={"error": str(exc)})
            return None


def _unmarked_empty(leaf: MessageRecord) -> MarkedReply | None:
    """The mark for a turn that ran no tool and ended on a reply with no text and no tool
    call (a ``None`` for any other ending): the one place a turn's empty ending is caught,
    whichever node wrote its last reply."""
    if leaf.role != "assistant" or leaf.status is not MessageStatus.COMPLETE:
        return None
    if leaf.content.strip() or leaf.tool_calls or leaf.meta.get("pending_interrupt"):
        return None
    return MarkedReply(ReplyOutcome("empty"))


def _join_session_tools(
    tools: list[BaseTool], session_tools: Sequence[BaseTool], *, taken: set[str]
) -> list[str]:
    """Add ``session_tools`` to ``tools``, but none named like the profile's own (``taken``)
    or one already there; return a sentence for each left out."""
    names = taken | {tool.name for tool in tools}
    problems = []
    for tool in session_tools:
        if tool.name in names:
            problems.append(
                f"The editor's MCP server offers {tool.name}, a name already taken; it is left "
                "out (rename it in that server)."
            )
            continue
        names.add(tool.name)
        tools.append(tool)
    return problems


__all__ = ["AgentRuntime", "translate_error"]


def _with_project(
    profile: Profile, conversation: Conversation, root: Path, config_dir: Path | None
) -> tuple[str, FolderInstructions]:
    """The profile's system prompt, and the project's ``AGENTS.md`` after it for a profile
    that works in a project (unless the conversation turned it off); and the turn's folder
    instructions (the ``AGENTS.md`` of deeper folders it reads files in), off likewise."""
    prompt = profile.system_prompt(config_dir)
    if not profile.traits.project_root or conversation.meta.get(META_KEY) == OFF:
        return prompt, FolderInstructions(enabled=False)
    found = find_project_instructions(root)
    deeper_than = PurePosixPath(found.relative_path).parent.as_posix() if found else "."
    return with_project_instructions(prompt, found), FolderInstructions(deeper_than=deeper_than)
