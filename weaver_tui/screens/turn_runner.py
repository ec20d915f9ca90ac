"""Runs the turns of one chat screen: the profile's graph in an exclusive ``turn`` worker,
its events shown live through a :class:`~weaver_tui.screens.turn_view.TurnView`.

:class:`TurnRunner` owns what a running turn needs: the agent runtime (opened at the first
turn, closed with the screen), the cancel event Esc sets, and the view of the latest turn.
It draws on the panes the screen hands it and reports the end of each turn through the
``on_ended`` callback; a worker that fails unexpectedly is reported by Textual to the screen,
which calls :meth:`TurnRunner.failed`. A cancellable pause (:meth:`TurnRunner.hold`) uses the
same cancel event, so Esc ends it like a reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.errors import WeaverError
from weaver_tui.messages import TokensArrived

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.worker import Worker

    from agents.runtime import AgentRuntime
    from weaver_tui.chat_state import ChatState
    from weaver_tui.screens.turn_view import RowFilter, TurnOutcome, TurnView
    from weaver_tui.services import Services
    from weaver_tui.widgets.chat_header import ChatHeader
    from weaver_tui.widgets.conversation_tree import ConversationTree
    from weaver_tui.widgets.message_view import MessageView
    from weaver_tui.widgets.tool_pane import ToolStatusPane

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnPanes:
    """The widgets a turn draws on."""

    messages: MessageView
    tree: ConversationTree
    tools: ToolStatusPane
    header: ChatHeader


class TurnRunner:
    """The turns of one chat screen.

    ``host`` is the screen (it runs the worker and receives :class:`TokensArrived`);
    ``panes`` returns the widgets to draw on; ``sender`` the participant speaking (``None``
    without participants); ``row_filter`` how the chosen view shows a record;
    ``on_ended`` is called with the user message and the outcome when a turn ends.
    """

    def __init__(
        self,
        host: Screen[Any],
        state: ChatState,
        services: Services,
        *,
        project_root: Path | None,
        panes: Callable[[], TurnPanes],
        sender: Callable[[], str | None],
        row_filter: Callable[[], RowFilter | None],
        on_ended: Callable[[str, TurnOutcome], None],
    ) -> None:
        self._host = host
        self._state = state
        self._services = services
        self._project_root = project_root
        self._panes = panes
        self._sender = sender
        self._row_filter = row_filter
        self._on_ended = on_ended
        self._runtime: AgentRuntime | None = None
        self._runtime_stack = AsyncExitStack()
        self.cancel_event: asyncio.Event | None = None
        """Set while a turn (or a hold) runs; setting it stops that."""
        self.turn: TurnView | None = None
        """The view of the latest turn (its ``outcome`` says how it ended)."""
        self.worker: Worker[None] | None = None
        """The worker of the latest turn (running or finished)."""

    @property
    def running(self) -> bool:
        return self.cancel_event is not None

    def start(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None = None,
        continue_from: str | None = None,
    ) -> Worker[None]:
        """Start the turn answering ``user_message_id`` (or resume a paused one: ``resume``
        is the paused record's id and the value; or continue the reply ``continue_from``)."""
        self.worker = self._host.run_worker(
            self._run(user_message_id, resume, continue_from),
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
        self._panes().header.busy = "cancelling"
        return True

    def failed(self) -> None:
        """The turn's worker failed unexpectedly: nothing runs any more."""
        self.cancel_event = None
        self._panes().header.busy = ""

    def drain(self, message_id: str) -> None:
        """Show the tokens buffered for ``message_id`` (see :class:`TokensArrived`)."""
        if self.turn is not None:
            self.turn.drain(message_id)

    async def hold(self, seconds: float, busy: str) -> bool:
        """Wait ``seconds`` as a reply would: ``busy`` in the header, Esc ("Cancel reply")
        ends it early; ``False`` if it did."""
        header = self._panes().header
        stop = asyncio.Event()
        self.cancel_event = stop
        header.busy = busy
        self._host.refresh_bindings()
        try:
            await asyncio.wait_for(stop.wait(), timeout=seconds)
        except TimeoutError:
            pass
        finally:
            if self.cancel_event is stop:
                self.cancel_event = None
            header.busy = ""
        return not stop.is_set()

    async def aclose(self) -> None:
        """Close the agent runtime (the screen is going away)."""
        await self._runtime_stack.aclose()

    async def _open_runtime(self) -> AgentRuntime:
        if self._runtime is None:
            opened = self._services.runtime()
            self._runtime = await self._runtime_stack.enter_async_context(opened)
        return self._runtime

    async def _run(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None,
        continue_from: str | None,
    ) -> None:
        from weaver_tui.screens.turn_view import TurnView

        state = self._state
        assert state.conversation is not None
        conversation_id = state.conversation.id
        panes = self._panes()
        self.cancel_event = cancel = asyncio.Event()
        panes.header.busy = "replying"
        await panes.tools.new_turn()
        turn = self.turn = TurnView(
            state,
            view=panes.messages,
            tree=panes.tree,
            tools=panes.tools,
            header=panes.header,
            notify_tokens=lambda message_id: self._host.post_message(TokensArrived(message_id)),
            row_for=self._row_filter(),
        )
        try:
            try:
                model = self._services.model
            except WeaverError as exc:
                turn.model_unavailable(user_message_id, exc)
            else:
                runtime = await self._open_runtime()
                if resume is None:
                    events = runtime.run_turn(
                        conversation_id=conversation_id,
                        user_message_id=user_message_id,
                        model=model,
                        profile=state.profile,
                        cancel=cancel,
                        project_root=self._project_root,
                        sender=self._sender(),
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
            self.cancel_event = None
            panes.header.busy = ""
        self._on_ended(user_message_id, turn.outcome)
