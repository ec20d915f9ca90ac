"""Runs the turns of one chat screen: the profile's graph in an exclusive ``turn`` worker,
its events shown live through a :class:`~weaver_tui.screens.chat.turn_view.TurnView`.

:class:`TurnRunner` owns what a running turn needs: the agent runtime (opened at the first
turn, closed with the screen), the cancel event Esc sets, and the view of the latest turn.
It draws on the screen's panes, keeps the screen's reactive ``running`` status, and posts
:class:`~.chat_requests.TurnEnded` when a turn ends; a worker that fails unexpectedly is
reported by Textual to the screen, which calls :meth:`TurnRunner.failed`. A cancellable pause
(:meth:`TurnRunner.hold`) uses the same cancel event, so Esc ends it like a reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack, ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.errors import WeaverError
from agents.runtime.turn_lock import ConversationBusy, conversation_turn
from weaver_tui.daemon_work import in_daemon_thread
from weaver_tui.heap import AGENT_STACK_LOADED, freeze_long_lived
from weaver_tui.messages import TokensArrived
from weaver_tui.screens.chat.requests import TurnEnded

if TYPE_CHECKING:
    from textual.worker import Worker

    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime
    from storage.models import MessageRecord
    from weaver_tui.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_view import RowFilter, TurnView
    from weaver_tui.services import Services

logger = logging.getLogger(__name__)

BUSY_ELSEWHERE_SENTENCE = (
    "Another weaver-tui is writing a reply in this conversation; wait for it to finish, "
    "then send again."
)


class TurnRunner:
    """The turns of one chat screen.

    ``surface`` is the screen (it runs the worker, receives :class:`TokensArrived` and
    :class:`TurnEnded`, and gives the panes to draw on); ``row_filter`` returns how the
    chosen view shows a record.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        *,
        project_root: Path | None,
        row_filter: Callable[[], RowFilter | None],
        add_to_tree: Callable[[MessageRecord], object] | None = None,
        shows_calls: Callable[[], bool] = lambda: True,
        before_turn: Callable[[str, ChatModelHandle], Awaitable[None]] | None = None,
    ) -> None:
        self._before_turn = before_turn
        """Run before a new turn (not a resumed or continued one): the automatic summary."""
        self._surface = surface
        self._state = state
        self._services = services
        self._project_root = project_root
        self._row_filter = row_filter
        self._add_to_tree = add_to_tree
        self._shows_calls = shows_calls
        self._runtime: AgentRuntime | None = None
        self._runtime_stack = AsyncExitStack()
        self._runtime_opening = asyncio.Lock()
        self.cancel_event: asyncio.Event | None = None
        """Set while a turn (or a hold) runs; setting it stops that."""
        self.turn: TurnView | None = None
        """The view of the latest turn (its ``outcome`` says how it ended)."""
        self.worker: Worker[None] | None = None
        """The worker of the latest turn (running or finished)."""

    def _speaker(self) -> str | None:
        """Who is speaking, for a conversation with participants (the composer says)."""
        return self._surface.composer.speaker if self._state.traits.participants else None

    def _set_running(self, cancel: asyncio.Event | None, busy: str = "") -> None:
        """Start (``cancel`` set) or end a turn or hold: the event Esc sets, the header's busy
        word and the screen's ``running`` status change together."""
        self.cancel_event = cancel
        self._surface.header.busy = busy
        self._surface.running = cancel is not None

    def claim(self) -> ExitStack | None:
        """The open conversation's turn lock (shared with ``ask`` and other app windows), held
        until the returned stack is closed; ``None``, said in one sentence, when another
        process is writing a reply in it. A conversation not stored yet needs none. Replies a
        killed process left streaming in it are marked interrupted once it is claimed."""
        held = ExitStack()
        conversation = self._state.conversation
        if conversation is None:
            return held
        try:
            held.enter_context(conversation_turn(self._services.turn_locks, conversation.id))
        except ConversationBusy:
            logger.info("turn refused: busy elsewhere", extra={"conversation_id": conversation.id})
            self._surface.notify(BUSY_ELSEWHERE_SENTENCE, severity="warning", title="Not sent")
            return None
        try:
            # Nobody answers here now: a reply still "streaming" was left by a process that
            # died mid-reply (one that is alive, a fork made with ``ask --parent``, is kept).
            self._services.store.mark_interrupted_replies(conversation.id)
        except BaseException:
            held.close()
            raise
        return held

    def start(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None = None,
        continue_from: str | None = None,
        *,
        held: ExitStack | None = None,
    ) -> Worker[None] | None:
        """Start the turn answering ``user_message_id`` (or resume a paused one: ``resume``
        is the paused record's id and the value; or continue the reply ``continue_from``).

        The turn holds the conversation's turn lock until it ends: ``held`` when the caller
        claimed it already (:meth:`claim`), else it is claimed here; ``None`` (and nothing
        runs) when another process holds it."""
        held = held if held is not None else self.claim()
        if held is None:
            return None
        self.worker = self._surface.run_worker(
            self._run(user_message_id, resume, continue_from, held),
            name="run_turn",
            group="turn",
            exclusive=True,
            exit_on_error=False,
        )
        return self.worker

    def cancel(self) -> bool:
        """Stop the running turn (or hold); ``False`` if none runs."""
        if self.cancel_event is None:
            return False
        self.cancel_event.set()
        self._surface.header.busy = "cancelling"
        return True

    def failed(self) -> None:
        """The turn's worker failed unexpectedly: nothing runs any more."""
        self._set_running(None)

    def drain(self, message_id: str) -> None:
        """Show the tokens buffered for ``message_id`` (see :class:`TokensArrived`)."""
        if self.turn is not None:
            self.turn.drain(message_id)

    async def hold(self, seconds: float, busy: str) -> bool:
        """Wait ``seconds`` as a reply would: ``busy`` in the header, Esc ("Cancel reply")
        ends it early; ``False`` if it did."""
        stop = asyncio.Event()
        self._set_running(stop, busy)
        try:
            await asyncio.wait_for(stop.wait(), timeout=seconds)
        except TimeoutError:
            pass
        finally:
            if self.cancel_event is stop:
                self._set_running(None)
        return not stop.is_set()

    async def aclose(self) -> None:
        """Close the agent runtime (the screen is going away)."""
        await self._runtime_stack.aclose()

    async def prepare(self) -> None:
        """Open the runtime and compile the open profile's graph before the first turn needs
        them (the end of the screen's warm-up); a turn that comes first opens them itself."""
        from agents.profiles import get_profile

        runtime = await self.open_runtime()
        profile = get_profile(self._state.profile)
        runtime.graph_for(profile)
        runtime.warm_up(profile)
        if self.cancel_event is None:  # a turn that started first freezes when it ends
            freeze_long_lived(AGENT_STACK_LOADED, once=True)

    def warm_open_profile(self) -> None:
        """Another conversation opened: start what its profile's first turn needs (paper-pilot's
        knowledge server). Before the runtime is open, :meth:`prepare` does it instead."""
        if self._runtime is not None:
            self._surface.run_worker(self._warm_up(), group="warm-up", exit_on_error=False)

    async def _warm_up(self) -> None:
        from agents.profiles import get_profile

        name = self._state.profile
        profile = await in_daemon_thread(lambda: get_profile(name), "weaver-warm-up-profile")
        runtime = await self.open_runtime()
        runtime.warm_up(profile)

    async def open_runtime(self) -> AgentRuntime:
        """The agent runtime, opened once for the screen (a turn, or the MCP servers' list)."""
        async with self._runtime_opening:  # the warm-up's prepare and a first turn
            if self._runtime is None:
                opened = self._services.runtime()
                self._runtime = await self._runtime_stack.enter_async_context(opened)
        return self._runtime

    async def _run(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None,
        continue_from: str | None,
        held: ExitStack,
    ) -> None:
        with held:  # the turn lock, released when the turn ends however it ends
            await self._answer(user_message_id, resume, continue_from)

    async def _answer(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None,
        continue_from: str | None,
    ) -> None:
        from weaver_tui.screens.chat.turn_view import TurnView

        state = self._state
        assert state.conversation is not None
        conversation_id = state.conversation.id
        surface = self._surface
        cancel = asyncio.Event()
        self._set_running(cancel, "replying")
        await surface.tools.new_turn()
        turn = self.turn = TurnView(
            state,
            view=surface.messages,
            tree=surface.tree,
            tools=surface.tools,
            header=surface.header,
            notify_tokens=lambda message_id: surface.post_message(TokensArrived(message_id)),
            row_for=self._row_filter(),
            add_to_tree=self._add_to_tree,
            shows_calls=self._shows_calls,
        )
        try:
            try:
                model = await self._services.amodel()
            except WeaverError as exc:
                turn.model_unavailable(user_message_id, exc)
            else:
                runtime = await self.open_runtime()
                if resume is None and continue_from is None and self._before_turn is not None:
                    await self._before_turn(user_message_id, model)
                if resume is None:
                    events = runtime.run_turn(
                        conversation_id=conversation_id,
                        user_message_id=user_message_id,
                        model=model,
                        profile=state.profile,
                        cancel=cancel,
                        project_root=self._project_root,
                        sender=self._speaker(),
                        continue_from=continue_from,
                    )
                else:
                    events = runtime.resume_turn(
                        conversation_id=conversation_id,
                        record_id=resume[0],
                        value=resume[1],
                        model=model,
                        cancel=cancel,
                    )
                await turn.consume(events)
        finally:
            self._set_running(None)
        surface.post_message(TurnEnded(user_message_id, turn.outcome))
        freeze_long_lived(AGENT_STACK_LOADED, once=True)
