"""Plays a profile's scripted demo in the chat screen, turn by turn, live.

"Play demo" (command palette) imports the demo module a profile declares
(``ProfileTraits.demo``: the mediator's couple's financial counselling), opens a new
conversation with its participants (``create_demo_space``) and sends each scripted turn
through the chat screen's own send path: the speakers' panel is set to the turn's speaker and
audience, the screen's ``send`` commits the participant's message with the panel's meta and
starts the ``turn`` worker, so the reply streams, tools show in the tool pane and the view
filters exactly as when a person types. Between turns the player waits ``pause_s`` through
the screen's ``hold``; Esc stops it, in a turn (the turn ends cancelled, as any reply) or in
the pause (a hold is cancelled like a reply).

The player sees the screen only as a :class:`DemoStage`: what a person at the keyboard
reaches (open a conversation, choose speaker and audience, send, wait, Esc).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import TYPE_CHECKING, Any, Literal, Protocol

from textual.worker import WorkerCancelled, WorkerFailed

from weaver_tui.core.daemon_work import in_daemon_thread
from weaver_tui.widgets.composer import Composer

if TYPE_CHECKING:
    from textual.worker import Worker

    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.turn_view import TurnView
    from weaver_tui.widgets.space_panel import SpacePanel

logger = logging.getLogger(__name__)


class DemoTurn(Protocol):
    """One turn of a profile's scripted demo, as the player sends it."""

    sender: str
    content: str
    channel: Literal["private", "shared"]


class DemoStage(Protocol):
    """The chat screen as the player uses it: the public actions of a person at the keys."""

    @property
    def state(self) -> ChatState: ...
    @property
    def composer(self) -> Composer: ...
    @property
    def turn(self) -> TurnView | None: ...
    @property
    def turn_worker(self) -> Worker[None] | None: ...
    def notify(self, message: str, *, title: str = "", severity: Any = "information") -> None: ...
    def refresh_bindings(self) -> None: ...
    def open_conversation(self, conversation_id: str, message_id: str | None = None) -> None: ...
    def space_panel(self) -> SpacePanel | None: ...
    def send(self, event: Composer.Submitted) -> None: ...
    async def hold(self, seconds: float, busy: str) -> bool: ...


Phase = Literal["starting", "turn", "pause", "finished", "stopped", "failed"]

PANEL_WAIT_S = 5.0
"""The longest the player waits for the new space's panel to mount (a bound, not a delay)."""


class DemoPlayer:
    """One run of the demo on ``screen``; :meth:`play` is the screen worker's body."""

    def __init__(self, screen: DemoStage, pause_s: float, module: str) -> None:
        self.screen = screen
        self.pause_s = pause_s
        self.module = module
        """The demo's module (``create_demo_space``, ``DEMO_TURNS``, ``DEMO_PARTICIPANTS``)."""
        self.phase: Phase = "starting"
        self.demo: Any = None
        """The demo's module, once imported."""
        self.conversation_id: str | None = None
        self.user_ids: list[str] = []
        """The participant messages sent so far, one per played turn."""
        self.statuses: list[str] = []
        """How each played turn ended (``complete``, ``cancelled``, ``error``)."""

    @property
    def active(self) -> bool:
        return self.phase in ("starting", "turn", "pause")

    async def play(self) -> None:
        module = self.module
        demo = await in_daemon_thread(lambda: importlib.import_module(module), "weaver-demo-import")
        self.demo = demo
        screen = self.screen
        conversation = demo.create_demo_space(screen.state.store)
        self.conversation_id = conversation.id
        screen.open_conversation(conversation.id)
        panel = await self._panel()
        turns: tuple[DemoTurn, ...] = demo.DEMO_TURNS
        screen.notify(
            f"{len(turns)} turns by {' and '.join(demo.DEMO_PARTICIPANTS)}; Esc stops it.",
            title="Playing the demo",
        )
        for index, turn in enumerate(turns):
            if index and not await self._pause():
                return self._end("stopped")
            self.phase = "turn"
            status = await self._play_turn(panel, turn)
            self.statuses.append(status)
            logger.info("demo turn %d by %s: %s", index + 1, turn.sender, status)
            if status != "complete":
                return self._end("stopped" if status == "cancelled" else "failed")
        self._end("finished")

    async def _panel(self) -> SpacePanel:
        """The new conversation's speakers' panel, once mounted with its bars."""
        from weaver_tui.widgets.speaker_bar import AudienceBar

        loop = asyncio.get_running_loop()
        deadline = loop.time() + PANEL_WAIT_S
        while True:
            panel = self.screen.space_panel()
            if panel is not None and panel.is_mounted and panel.query(AudienceBar):
                return panel
            if loop.time() > deadline:
                raise RuntimeError("the speakers' panel did not appear")
            await asyncio.sleep(0.01)

    async def _play_turn(self, panel: SpacePanel, turn: DemoTurn) -> str:
        """Send ``turn`` as its participant through the chat's send path; the turn's status."""
        screen = self.screen
        panel.speaker_bar.set_speaker(turn.sender)
        panel.audience_bar.set_shared(turn.channel == "shared")
        screen.composer.speaker = turn.sender
        before, earlier = screen.turn_worker, screen.turn
        screen.send(Composer.Submitted(screen.composer, turn.content, turn.sender))
        worker = screen.turn_worker
        if worker is None or worker is before:
            return "error"  # the send was refused (and said why)
        try:
            await worker.wait()
        except (WorkerFailed, WorkerCancelled):
            return "error"
        shown = screen.turn
        if shown is None or shown is earlier or shown.outcome.user_message_id is None:
            return "error"  # the runtime stored nothing (and the screen said why)
        self.user_ids.append(shown.outcome.user_message_id)
        status = shown.outcome.status
        give = getattr(self.demo, "give_answers", None)  # the participants' part, if any
        if status == "complete" and give is not None and self.conversation_id is not None:
            for miss in give(screen.state.store, self.conversation_id, turn):
                screen.notify(f"The demo could not answer: {miss}.", severity="warning")
        return status

    async def _pause(self) -> bool:
        """Wait between turns; ``False`` if Esc stopped the demo meanwhile."""
        self.phase = "pause"
        return await self.screen.hold(self.pause_s, "demo: next turn")

    def _end(self, phase: Phase) -> None:
        self.phase = phase
        self.screen.refresh_bindings()
        played = len(self.statuses)
        if phase == "finished":
            self.screen.notify(f"All {played} turns played.", title="Demo finished")
        elif phase == "stopped":
            self.screen.notify(f"Stopped after {played} turn(s).", title="Demo stopped")
        else:
            self.screen.notify(
                f"Turn {played} did not complete; the demo stopped there.",
                severity="error",
                title="Demo stopped",
            )
