"""The host's side of a served space: the messages sent at seats, answered one at a time.

A seat's process holds no key and writes no conversation record: its participant's message
waits in the store's seat queue (:class:`storage.seats.SeatBook`). The host's process, which
has the model, takes the oldest one, hands it to the runtime as a
:class:`~agents.runtime.user_message.NewMessage` (the one writer of user records; it holds the
conversation's turn lock), and consumes the turn; then the next. A message is out of the queue
only once its record is stored and its turn has ended, so a seat closed mid-reply, or a host
that stops, loses nothing: on the next start the runner finds the message it was answering
and, if its record was stored, leaves it answered (the interrupted reply is marked as such by
the store), else sends it.

A turn paused for a participant's consent (:mod:`agents.shared_space.consent`) is the space's
turn still: the runner takes no other message while it waits, and resumes it once every
participant asked has answered at their seat.

Between messages the runner waits on the store's change signal
(:class:`storage.change_signal.StoreChanges`): a seat's enqueue is a commit in another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from agents.errors import WeaverError
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import MessageStored, RunError
from agents.runtime.user_message import NewMessage
from agents.shared_space.consent import all_answered, pending_consent, withdraw_abandoned
from agents.shared_space.events import SHARED, UserMessageEvent
from storage.seats import QueuedMessage
from storage.turn_locks import TurnBusy

if TYPE_CHECKING:
    from storage.backend import AnyChanges, AnySeatBook

logger = logging.getLogger(__name__)

BUSY_RETRY_S = 0.5
"""How long to wait before sending again when another front end is answering the space."""


class SeatQueueRunner:
    """Answers the seat messages of one space (``conversation_id``) in order."""

    def __init__(
        self,
        runtime: AgentRuntime,
        seats: AnySeatBook,
        conversation_id: str,
        model: ChatModelHandle,
    ) -> None:
        self._runtime = runtime
        self._seats = seats
        self._conversation_id = conversation_id
        self._model = model

    async def run(self, changes: AnyChanges, stop: asyncio.Event) -> None:
        """Answer what waits, then wait for the next change, until ``stop`` is set. While
        another process (another host) is the space's answerer, look again shortly: it may
        end, or die, with messages still in line."""
        while not stop.is_set():
            if await self.answer_waiting(stop) is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), BUSY_RETRY_S)
                continue
            await changes.wait(stop)

    async def answer_waiting(self, stop: asyncio.Event | None = None) -> int | None:
        """Answer every message in line now (oldest first); returns how many were taken, or
        ``None`` when another process is answering this space (it answers them)."""
        try:
            with self._runtime.answerer_lock(self._conversation_id):
                return await self._answer_in_line(stop)
        except TurnBusy:
            return None

    async def _answer_in_line(self, stop: asyncio.Event | None) -> int:
        taken = 0
        while stop is None or not stop.is_set():
            # a turn that was answering (on another host) may have died mid-reply
            self._runtime.recover_interrupted(self._conversation_id)
            if not await self.settle_consent():
                break  # a participant has still to answer: the space waits for them
            queued = self._seats.next_in_line(self._conversation_id)
            if queued is None:
                break
            if not await self._answer(queued):
                await asyncio.sleep(BUSY_RETRY_S)  # the space is busy elsewhere: try again
                continue
            taken += 1
        return taken

    async def settle_consent(self) -> bool:
        """Resume the turn paused for consent once every answer is in; ``False`` while one
        is still awaited (nothing else of the space may run)."""
        pending = pending_consent(self._runtime.store, self._conversation_id)
        if pending is None:
            withdraw_abandoned(self._runtime.store, self._conversation_id)
            return True
        if not all_answered(self._runtime.store, pending.call_id):
            return False
        async for event in self._runtime.resume_turn(
            conversation_id=self._conversation_id,
            record_id=pending.record_id,
            value={"kind": "consent", "answered": True},
            model=self._model,
        ):
            if isinstance(event, RunError):
                logger.warning("a consent turn did not resume", extra={"error": event.error.code})
        # a pause that could not be resumed at all stays; the space waits, not spins
        return pending_consent(self._runtime.store, self._conversation_id) != pending

    async def _answer(self, queued: QueuedMessage) -> bool:
        """Store and answer one message; ``False`` when the space was busy (nothing written)."""
        if queued.record_id is not None:  # stored before the host stopped: its turn is over
            self._seats.mark_answered(queued.id)
            return True
        self._seats.mark_answering(queued.id)
        conversation = self._runtime.store.get_conversation(self._conversation_id)
        event = UserMessageEvent(
            sender=queued.participant,
            content=queued.content,
            visibility=SHARED if queued.shared else None,
        )
        message = NewMessage(
            profile=conversation.profile,
            text=queued.content,
            conversation_id=conversation.id,
            at_active_leaf=True,
            meta=event.record_meta(),
        )
        failure: WeaverError | None = None
        stored = False
        async for turn_event in self._runtime.send(
            message, model=self._model, sender=queued.participant
        ):
            if isinstance(turn_event, MessageStored):
                stored = True
                self._seats.mark_answering(queued.id, turn_event.record.id)
            elif isinstance(turn_event, RunError):
                failure = turn_event.error
        if not stored and failure is not None:
            if failure.code == "busy":
                self._seats.mark_answering(queued.id)
                return False
            self._seats.mark_failed(queued.id, failure.user_message)
            logger.warning("a seat message was not stored", extra={"error": failure.code})
            return True
        if failure is not None:
            # The reply's record is the host's alone (its audience is settled only when it
            # completes): the sentence reaches its sender through the seat's line instead.
            self._seats.mark_failed(queued.id, failure.user_message)
            return True
        self._seats.mark_answered(queued.id)
        return True
