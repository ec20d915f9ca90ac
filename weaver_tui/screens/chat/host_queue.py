"""One turn at a time per space, for the host too: a message typed while a turn runs waits.

In a conversation with participants the host's chat is one front end of the space among
others (the space's runner answers the seats in another process). A message the host sends
while a reply is written (here, or by any process holding the conversation's turn lock) is
not refused: it joins the space's seat queue (:class:`storage.seats.SeatBook`) as the chosen
speaker with the chosen audience, shows as waiting in the mediator's panel, and is answered in
order by whichever front end is free first: the space's runner, or this chat once its own turn
has ended and no one else holds the conversation (:class:`agents.runtime.seat_queue.SeatQueueRunner`
in a worker; the records it writes appear through the screen's change follower).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from agents.runtime.turn_lock import conversation_busy
from storage.backend import open_seat_book
from storage.store import StorageError

if TYPE_CHECKING:
    from storage.backend import AnySeatBook
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_runner import TurnRunner

logger = logging.getLogger(__name__)


class HostQueue:
    """Messages the host sent while the space was busy, and their answering."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        *,
        panels: ProfilePanel,
        turns: TurnRunner,
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._panels = panels
        self._turns = turns
        self._book: AnySeatBook | None = None
        self.answering = False
        """This chat's worker is answering the queue (a send meanwhile waits too)."""
        self.pending = False
        """This chat queued a message not yet answered: it tries to answer when free."""

    def book(self) -> AnySeatBook:
        if self._book is None:
            self._book = open_seat_book(self._services.storage)
        return self._book

    def space_busy(self) -> bool:
        """Whether a reply is being written in the open conversation, here or elsewhere."""
        conversation = self._state.conversation
        if self._surface.running or self.answering:
            return True
        if conversation is None or not self._state.traits.participants:
            return False
        return conversation_busy(self._services.turn_locks, conversation.id)

    def wait_in_line(self, text: str) -> bool:
        """Queue ``text`` as the panel's speaker and audience; ``False`` when this chat has
        no space to queue in (a conversation without participants, or not stored yet)."""
        conversation = self._state.conversation
        panel = self._panels.space_panel()
        if conversation is None or panel is None or panel.speaker is None:
            return False
        try:
            self.book().enqueue(conversation.id, panel.speaker, text, panel.shared)
        except StorageError as exc:
            self._surface.notify(str(exc), severity="error", title="Not sent")
            return False
        self.pending = True
        self._surface.notify("A reply is being written: your message waits for its turn.")
        return True

    def tick(self) -> None:
        """Answer what this chat queued, once no reply is being written anywhere."""
        if not self.pending or self.space_busy():
            return
        self.pending = False
        self.answering = True
        self._surface.run_worker(
            self._answer(), name="answer_queue", group="answer-queue", exit_on_error=False
        )

    async def _answer(self) -> None:
        from agents.runtime.seat_queue import SeatQueueRunner

        conversation = self._state.conversation
        try:
            if conversation is None:
                return
            runtime = await self._turns.open_runtime()
            model = await self._services.amodel()
            runner = SeatQueueRunner(runtime, self.book(), conversation.id, model)
            await runner.answer_waiting()
        finally:
            self.answering = False

    def waiting(self) -> list[tuple[str, str]]:
        """(speaker, words) of each message of the open space still in line."""
        conversation = self._state.conversation
        if conversation is None:
            return []
        queued = self.book().queued(conversation.id)
        # a stored message whose reply failed is in the conversation, not in line
        return [
            (q.participant, q.content)
            for q in queued
            if not (q.status == "failed" and q.record_id is not None)
        ]

    def close(self) -> None:
        if self._book is not None:
            self._book.close()
