"""Runs the turns of one chat screen: the profile's graph in an exclusive ``turn`` worker,
its events shown live through a :class:`~weaver_tui.screens.chat.turn_view.TurnView`.

Every turn goes through the chat's controller
(:class:`~weaver_tui.core.chat_controller.ChatController`): a message sent through the runtime's
one way in (:meth:`AgentRuntime.send`), an answer again, a continued reply or a resumed turn
through :meth:`AgentRuntime.exclusively`. The runtime stores, takes the conversation's turn
lock and marks what a dead process left streaming; the controller applies each event to the
state; the runner shows the events and writes nothing, holds no lock.

:class:`TurnRunner` owns what a running turn needs on screen: the cancel event Esc sets, and
the view of the latest turn (the controller opens the agent runtime at the first turn and
closes it with the screen).
It draws on the screen's panes, keeps the screen's reactive ``running`` status, and posts
:class:`~.chat_requests.TurnEnded` when a turn ends; a worker that fails unexpectedly is
reported by Textual to the screen, which calls :meth:`TurnRunner.failed`. A cancellable pause
(:meth:`TurnRunner.hold`) uses the same cancel event, so Esc ends it like a reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any

from agents.runtime.events import MessageStored, RunError, RunEvent
from agents.runtime.turn_lock import ConversationBusy
from weaver_tui.core.daemon_work import in_daemon_thread
from weaver_tui.core.heap import AGENT_STACK_LOADED, freeze_long_lived
from weaver_tui.messages import TokensArrived
from weaver_tui.once_timer import call_once_after
from weaver_tui.screens.chat.requests import TurnEnded

if TYPE_CHECKING:
    from textual.worker import Worker

    from agents.runtime.agent_runtime import AgentRuntime
    from storage.models import MessageRecord
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_view import RowFilter, TurnView

logger = logging.getLogger(__name__)

BUSY_ELSEWHERE_SENTENCE = (
    "Another weaver-tui is writing a reply in this conversation; wait for it to finish, "
    "then send again."
)


FREEZE_AFTER_S = 0.5
"""How long after the first turn's end the heap is frozen (its last frames are drawn by then)."""


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
        controller: ChatController,
        *,
        row_filter: Callable[[], RowFilter | None],
        add_to_tree: Callable[[MessageRecord], object] | None = None,
        shows_calls: Callable[[], bool] = lambda: True,
    ) -> None:
        self._surface = surface
        self._state = state
        self._controller = controller
        self._row_filter = row_filter
        self._add_to_tree = add_to_tree
        self._shows_calls = shows_calls
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

    def send(
        self,
        text: str,
        *,
        parent_id: str | None,
        meta: dict[str, Any] | None,
        conversation_meta: dict[str, Any] | None,
        stored: Callable[[MessageStored], object],
        not_stored: Callable[[RunError], object],
    ) -> Worker[None]:
        """Send ``text`` below ``parent_id`` through the controller (the runtime's one way in,
        :meth:`AgentRuntime.send`) and show the turn its events describe. ``stored(event)``
        runs when the runtime has committed the message (its ``MessageStored``, already
        applied to the state), before any token; ``not_stored(event)`` when it wrote nothing
        (another process is answering here, the store refused): the screen keeps the draft
        and says why."""
        self._set_running(asyncio.Event(), "replying")  # no second Enter before it is stored
        events = self._controller.send(
            text,
            parent_id=parent_id,
            below_leaf=False,
            meta=meta,
            conversation_meta=conversation_meta,
            sender=self._speaker(),
            cancel=self.cancel_event,
        )
        self.worker = self._surface.run_worker(
            self._send(events, stored, not_stored),
            name="run_turn",
            group="turn",
            exclusive=True,
            exit_on_error=False,
        )
        return self.worker

    def start(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None = None,
        continue_from: str | None = None,
    ) -> Worker[None]:
        """Start the turn answering ``user_message_id`` (or resume a paused one: ``resume``
        is the paused record's id and the value; or continue the reply ``continue_from``).

        The runtime holds the conversation's turn lock for the turn
        (:meth:`AgentRuntime.exclusively`); when another process holds it, the turn ends at
        once with a ``RunError`` saying so, and nothing is written."""
        self.worker = self._surface.run_worker(
            self._answer(user_message_id, resume, continue_from),
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
        await self._controller.aclose()

    async def prepare(self) -> None:
        """Open the runtime and compile the open profile's graph before the first turn needs
        them (the end of the screen's warm-up); a turn that comes first opens them itself."""
        from agents.profile_registry import get_profile

        runtime = await self.open_runtime()
        profile = get_profile(self._state.profile)
        runtime.graph_for(profile)
        runtime.warm_up(profile)
        if self.cancel_event is None:  # a turn that started first freezes when it ends
            freeze_long_lived(AGENT_STACK_LOADED, once=True)

    def warm_open_profile(self) -> None:
        """Another conversation opened: start what its profile's first turn needs (paper-pilot's
        knowledge server). Before the runtime is open, :meth:`prepare` does it instead."""
        if self._controller.runtime_open:
            self._surface.run_worker(self._warm_up(), group="warm-up", exit_on_error=False)

    async def _warm_up(self) -> None:
        from agents.profile_registry import get_profile

        name = self._state.profile
        profile = await in_daemon_thread(lambda: get_profile(name), "weaver-warm-up-profile")
        runtime = await self.open_runtime()
        runtime.warm_up(profile)

    async def open_runtime(self) -> AgentRuntime:
        """The agent runtime, opened once for the screen (a turn, or the MCP servers' list)."""
        return await self._controller.runtime()

    def _new_view(self) -> TurnView:
        from weaver_tui.screens.chat.turn_view import TurnView

        surface = self._surface
        return TurnView(
            self._state,
            view=surface.messages,
            tree=surface.tree,
            tools=surface.tools,
            header=surface.header,
            notify_tokens=lambda message_id: surface.post_message(TokensArrived(message_id)),
            row_for=self._row_filter(),
            add_to_tree=self._add_to_tree,
            shows_calls=self._shows_calls,
        )

    async def _send(
        self,
        events: AsyncGenerator[RunEvent, None],
        stored: Callable[[MessageStored], object],
        not_stored: Callable[[RunError], object],
    ) -> None:
        surface = self._surface
        cancel = self.cancel_event or asyncio.Event()
        self._set_running(cancel, "replying")
        user_message_id: str | None = None
        turn: TurnView | None = None
        try:
            first = await anext(events, None)
            if not isinstance(first, MessageStored):
                if isinstance(first, RunError):
                    if _busy(first):
                        self._say_busy()
                    not_stored(first)
                return
            user_message_id = first.record.id
            stored(first)
            await surface.tools.new_turn()
            turn = self.turn = self._new_view()
            turn.outcome.user_message_id = user_message_id
            await turn.consume(events)
        finally:
            await events.aclose()
            self._set_running(None)
        if turn is not None and user_message_id is not None:
            if turn.outcome.status == "running":  # the stream ended with no last event
                turn.outcome.status = "error"
            surface.post_message(TurnEnded(user_message_id, turn.outcome))
        self._freeze_after_frame()

    async def _answer(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None,
        continue_from: str | None,
    ) -> None:
        surface = self._surface
        cancel = asyncio.Event()
        self._set_running(cancel, "replying")
        controller = self._controller
        if resume is None:
            events = controller.answer(
                user_message_id, continue_from=continue_from, cancel=cancel, sender=self._speaker()
            )
        else:
            events = controller.resume(resume[0], resume[1], cancel=cancel)
        turn: TurnView | None = None
        try:
            first = await anext(events, None)
            if first is None or _busy(first):
                self._say_busy()
                return
            await surface.tools.new_turn()
            turn = self.turn = self._new_view()
            turn.outcome.user_message_id = user_message_id
            turn.apply(first)
            await turn.consume(events)
        finally:
            await events.aclose()
            self._set_running(None)
            if turn is not None:
                surface.post_message(TurnEnded(user_message_id, turn.outcome))
                self._freeze_after_frame()

    def _freeze_after_frame(self) -> None:
        """The first turn's end freezes the long-lived heap (:mod:`weaver_tui.core.heap`) a
        moment after it ends (:data:`FREEZE_AFTER_S`), when no turn runs: the freeze walks the
        heap (60-90 ms), which the reply's last frames must not wait for. A turn running then
        freezes at its own end."""
        call_once_after(self._surface.app, FREEZE_AFTER_S, self._freeze_if_idle, name="freeze")

    def _freeze_if_idle(self) -> None:
        if self.cancel_event is None:
            freeze_long_lived(AGENT_STACK_LOADED, once=True)

    def _say_busy(self) -> None:
        conversation = self._state.conversation
        logger.info(
            "turn refused: busy elsewhere",
            extra={"conversation_id": conversation.id if conversation else None},
        )
        self._surface.notify(BUSY_ELSEWHERE_SENTENCE, severity="warning", title="Not sent")


def _busy(event: RunEvent) -> bool:
    """Whether ``event`` is the runtime's refusal of a turn another process is running."""
    return isinstance(event, RunError) and isinstance(event.error, ConversationBusy)
