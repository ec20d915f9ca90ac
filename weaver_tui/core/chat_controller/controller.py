"""The chat's operations as runtime calls, each applying its events to the chat's state.

A turn (:meth:`ChatController.send`, :meth:`~ChatController.fork`, :meth:`~ChatController.edit`
of a user message, :meth:`~ChatController.regenerate`, :meth:`~ChatController.continue_reply`,
:meth:`~ChatController.resume`) is an async stream of runtime events: each is applied to the
state (:class:`~weaver_tui.core.chat_controller.applying.EventApplier`) and then yielded, so a front
end renders an event knowing the state already holds what it carries. Every turn holds the
conversation's turn lock in the runtime; a busy conversation is a ``RunError`` with nothing
written. An edit outside a turn (a reply's new version, a branch copied or deleted, a context
mark, a summary) returns its one event, applied likewise. The controller writes nothing
itself, reads back nothing it was handed, and names no widget.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.errors import ConfigError, WeaverError
from agents.project_instructions import META_KEY as PROJECT_INSTRUCTIONS_KEY
from agents.project_instructions import OFF as PROJECT_INSTRUCTIONS_OFF
from agents.runtime.events import (
    BranchCopied,
    BranchDeleted,
    RecordSaved,
    ReplyEdited,
    RunError,
    RunEvent,
)
from agents.runtime.tree_edits import TreeEdits
from weaver_tui.core.chat_controller.applying import EventApplier
from weaver_tui.core.chat_controller.state_port import ChatStatePort

if TYPE_CHECKING:
    from agents.graph.steering import Steer
    from agents.patch_review.rewind import Direction, PatchOnBranch, RewindOutcome, Step
    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime

ModelSource = Callable[[], Awaitable["ChatModelHandle"]]
BeforeTurn = Callable[[str, "ChatModelHandle"], Awaitable[None]]
"""Run between a stored message and its turn: (the user's message id, the model)."""
ChatEvent = RunEvent | ReplyEdited
"""What a chat operation yields: a turn's events, or a reply's new version (no turn)."""
RuntimeOpener = Callable[[], contextlib.AbstractAsyncContextManager["AgentRuntime"]]


class ChatController:
    """One chat: its ``state``, the runtime it opens on first use (``open_runtime``), the model
    it asks for when a turn needs it (``model``), and the folder turns work in.

    ``before_turn`` runs before each new turn (not a continued or resumed one): the chat's
    automatic summary of older turns.
    """

    def __init__(
        self,
        state: ChatStatePort,
        *,
        open_runtime: RuntimeOpener,
        model: ModelSource,
        project_root: Path | None = None,
        before_turn: BeforeTurn | None = None,
    ) -> None:
        self.state = state
        self.project_root = project_root
        self.before_turn = before_turn
        self._model = model
        self._open_runtime = open_runtime
        self._runtime: AgentRuntime | None = None
        self._runtime_stack = contextlib.AsyncExitStack()
        self._runtime_opening = asyncio.Lock()

    # ------------------------------------------------------------------ the runtime

    async def runtime(self) -> AgentRuntime:
        """The agent runtime, opened once for this chat (a turn, a warm-up, the MCP list)."""
        async with self._runtime_opening:
            if self._runtime is None:
                opened = self._open_runtime()
                self._runtime = await self._runtime_stack.enter_async_context(opened)
        return self._runtime

    @property
    def runtime_open(self) -> bool:
        return self._runtime is not None

    async def aclose(self) -> None:
        """Close the runtime (the chat is going away)."""
        await self._runtime_stack.aclose()

    def _edits(self) -> TreeEdits:
        self.state.settle()  # the branches checked out before reach the store first
        return TreeEdits(self.state.store)

    # ------------------------------------------------------------------ turns

    def send(
        self,
        text: str,
        *,
        parent_id: str | None = None,
        below_leaf: bool = True,
        meta: dict[str, Any] | None = None,
        conversation_meta: dict[str, Any] | None = None,
        sender: str | None = None,
        cancel: asyncio.Event | None = None,
    ) -> AsyncGenerator[RunEvent, None]:
        """Send ``text`` below the active leaf (or below ``parent_id`` with ``below_leaf``
        false) through :meth:`AgentRuntime.send`: ``MessageStored`` first (or one
        ``RunError``, nothing written), then the turn's events."""
        parent = self.state.leaf_id if below_leaf else parent_id
        message = self.state.new_message(
            text,
            parent,
            meta=meta,
            project_root=self.project_root,
            conversation_meta=conversation_meta,
        )
        return self._applied(self._sent(message, sender, cancel))

    async def _sent(
        self, message: Any, sender: str | None, cancel: asyncio.Event | None
    ) -> AsyncGenerator[RunEvent, None]:
        runtime = await self.runtime()
        before = self.before_turn
        events = runtime.send(
            message,
            model=self._model,
            cancel=cancel,
            project_root=self.project_root,
            sender=sender,
            exclusive=True,
            before_turn=(
                None if before is None else lambda record, model: before(record.id, model)
            ),
        )
        try:
            async for event in events:
                yield event
        finally:
            await events.aclose()

    def steer(self, text: str, meta: dict[str, Any] | None = None) -> Steer | None:
        """Send ``text`` into the turn running in this chat's conversation
        (:meth:`AgentRuntime.steer`; ``meta`` says who says it, to whom, as a message's);
        ``None`` when none runs that can take it."""
        conversation = self.state.conversation
        if self._runtime is None or conversation is None:
            return None
        return self._runtime.steer(conversation.id, text, meta)

    @property
    def project_instructions_on(self) -> bool:
        """Whether this conversation's turns send the project's ``AGENTS.md``
        (:mod:`agents.project_instructions`; on unless the conversation turned them off)."""
        return bool(self.state.setting(PROJECT_INSTRUCTIONS_KEY) != PROJECT_INSTRUCTIONS_OFF)

    def set_project_instructions(self, on: bool) -> None:
        """Send the project's ``AGENTS.md`` (and its folders' own) with this conversation's
        turns, or not: kept in the conversation's meta (or with its first message)."""
        self.state.set_setting(PROJECT_INSTRUCTIONS_KEY, None if on else PROJECT_INSTRUCTIONS_OFF)

    def fork(self, message_id: str, text: str, **options: Any) -> AsyncGenerator[RunEvent, None]:
        """Send ``text`` as a new branch at ``message_id``: below it, or beside it when it is
        a user message (:meth:`TreeIndex.fork_parent`). ``options`` as for :meth:`send`."""
        parent = self.state.index.fork_parent(message_id)
        return self.send(text, parent_id=parent, below_leaf=False, **options)

    def edit(self, message_id: str, text: str, **options: Any) -> AsyncGenerator[ChatEvent, None]:
        """A new version of ``message_id`` with ``text``: a user message's is sent (beside it)
        and answered; a reply's is stored and no turn runs (one ``ReplyEdited``)."""
        record = self.state.index.get(message_id)
        if record.role == "assistant":
            return _one(self.edit_reply(message_id, text))
        parent = self.state.index.parent(message_id)
        return self.send(text, parent_id=parent, below_leaf=False, **options)

    def regenerate(
        self, message_id: str, *, cancel: asyncio.Event | None = None, sender: str | None = None
    ) -> AsyncGenerator[RunEvent, None]:
        """A new version of the reply to the nearest user message above ``message_id``."""
        user_id = self.state.nearest_user(message_id)
        if user_id is None:
            return _refused("There is no message of yours above this one.")
        return self.answer(user_id, cancel=cancel, sender=sender)

    def continue_reply(
        self, reply_id: str, *, cancel: asyncio.Event | None = None, sender: str | None = None
    ) -> AsyncGenerator[RunEvent, None]:
        """A new version of the reply ``reply_id`` that starts with its text and goes on."""
        user_id = self.state.nearest_user(reply_id)
        if user_id is None:
            return _refused("There is no message of yours above this reply.")
        return self.answer(user_id, continue_from=reply_id, cancel=cancel, sender=sender)

    def answer(
        self,
        user_message_id: str,
        *,
        continue_from: str | None = None,
        cancel: asyncio.Event | None = None,
        sender: str | None = None,
    ) -> AsyncGenerator[RunEvent, None]:
        """Answer ``user_message_id`` (again), holding the turn lock in the runtime. A model
        that cannot be built is one ``RunError`` (no reply). The active leaf moves when the
        reply opens (``TurnStarted``), so a refused turn leaves the state as it was."""
        return self._applied(self._answered(user_message_id, continue_from, cancel, sender))

    async def _answered(
        self,
        user_message_id: str,
        continue_from: str | None,
        cancel: asyncio.Event | None,
        sender: str | None,
    ) -> AsyncGenerator[RunEvent, None]:
        state = self.state
        assert state.conversation is not None
        try:
            model = await self._model()
        except WeaverError as exc:
            yield RunError(exc)
            return
        runtime = await self.runtime()
        if continue_from is None and self.before_turn is not None:
            await self.before_turn(user_message_id, model)
        turn = runtime.run_turn(
            conversation_id=state.conversation.id,
            user_message_id=user_message_id,
            model=model,
            profile=state.profile,
            cancel=cancel,
            project_root=self.project_root,
            sender=sender,
            continue_from=continue_from,
        )
        events = runtime.exclusively(state.conversation.id, turn)
        try:
            async for event in events:
                yield event
        finally:
            await events.aclose()

    def resume(
        self, record_id: str, value: Any, *, cancel: asyncio.Event | None = None
    ) -> AsyncGenerator[RunEvent, None]:
        """Resume the turn paused on ``record_id`` (a patch review, an approval) with
        ``value``, holding the turn lock in the runtime."""
        return self._applied(self._resumed(record_id, value, cancel))

    async def _resumed(
        self, record_id: str, value: Any, cancel: asyncio.Event | None
    ) -> AsyncGenerator[RunEvent, None]:
        state = self.state
        assert state.conversation is not None
        try:
            model = await self._model()
        except WeaverError as exc:
            yield RunError(exc)
            return
        runtime = await self.runtime()
        turn = runtime.resume_turn(
            conversation_id=state.conversation.id,
            record_id=record_id,
            value=value,
            model=model,
            cancel=cancel,
        )
        events = runtime.exclusively(state.conversation.id, turn)
        try:
            async for event in events:
                yield event
        finally:
            await events.aclose()

    async def _applied(
        self, events: AsyncGenerator[RunEvent, None]
    ) -> AsyncGenerator[RunEvent, None]:
        applier = EventApplier(self.state)
        try:
            async for event in events:
                applier.apply(event)
                yield event
        finally:
            await events.aclose()

    # ------------------------------------------------------------------ edits outside a turn

    def edit_reply(self, reply_id: str, text: str) -> ReplyEdited | RunError:
        """Store ``text`` as a new version of the reply ``reply_id``; it becomes the leaf."""
        event = self._edits().edit_reply(reply_id, text)
        if isinstance(event, ReplyEdited):
            self.state.apply_new_leaf(event.record)
        return event

    def copy_branch(self, message_id: str) -> BranchCopied | RunError:
        """Copy the path to ``message_id`` into a conversation of its own (this one keeps
        every branch; the copy is opened by whoever asked)."""
        return self._edits().copy_branch(message_id)

    def delete(self, message_id: str) -> BranchDeleted | RunError:
        """Delete ``message_id`` and everything below it; the leaf moves to a survivor."""
        event = self._edits().delete(message_id)
        if isinstance(event, BranchDeleted):
            self.state.apply_deleted(event)
        return event

    def mark_context(self, message_id: str, mark: str | None) -> RecordSaved | RunError:
        """Pin ``message_id`` (``pinned``), leave it out (``excluded``), or neither."""
        event = self._edits().mark_context(message_id, mark)
        if isinstance(event, RecordSaved):
            self.state.apply(event.record)
        return event

    def rewind(self, root: Path, patch: PatchOnBranch, direction: Direction) -> RewindOutcome:
        """Revert (or re-apply) an accepted ``patch`` in the files under ``root``; the patch's
        record with its new status is applied to the state (see
        :func:`agents.patch_review.rewind.rewind`)."""
        return self.rewind_all(root, [(patch, direction)])[0]

    def rewind_all(self, root: Path, steps: Sequence[Step]) -> list[RewindOutcome]:
        """Take all of ``steps`` (revert or re-apply each patch, in order) or none (see
        :func:`agents.patch_review.rewind.rewind_all`); the records written are applied to
        the state."""
        from agents.patch_review.rewind import rewind_all

        self.state.settle()
        outcomes = rewind_all(root, self.state.store, steps)
        for outcome in outcomes:
            if outcome.record is not None:
                self.state.apply(outcome.record)
        return outcomes

    async def summarise(
        self, leaf_id: str | None = None, model: ChatModelHandle | None = None
    ) -> RecordSaved | RunError | None:
        """Summarise the branch to ``leaf_id`` (default: the active leaf) above its latest
        turns, with the ``summary`` role's model when the settings the runtime's profiles read
        give it one, else ``model`` (default: the chat's): the record holding the summary
        (applied), a ``RunError``, or ``None`` when the branch is short enough."""
        leaf = leaf_id if leaf_id is not None else self.state.leaf_id
        if leaf is None:
            return None
        if model is None:
            try:
                model = await self._model()
            except WeaverError as exc:
                return RunError(exc)
        settings = (await self.runtime()).profile_settings
        event = await self._edits().summarise(
            leaf, model.model, extractive=not model.can_summarise, settings=settings
        )
        if isinstance(event, RecordSaved):
            self.state.apply(event.record)
        return event


async def _one(event: ChatEvent) -> AsyncGenerator[ChatEvent, None]:
    yield event


async def _refused(sentence: str) -> AsyncGenerator[RunEvent, None]:
    yield RunError(ConfigError(sentence))
