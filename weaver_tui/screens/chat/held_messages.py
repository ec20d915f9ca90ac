"""Messages written while a reply is being written, on the chat screen: held, shown, sent.

Enter while a turn runs hands the composer's message to :meth:`HeldMessages.hold` (the
:class:`~weaver_tui.core.prompt_queue.PromptQueue` keeps it, the
:class:`~weaver_tui.widgets.queued_strip.QueuedStrip` under the reply shows it); when the turn
ends complete the next held message is sent through the screen's sender, one turn each, in
order. A stopped or failed turn pauses the queue (the strip says so): the user's own next
message resumes it. A held message is sent only in the conversation it was written in; the
strip shows the open conversation's. A row selected in the strip goes back into the composer; Delete drops it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from weaver_tui.core.prompt_queue import PromptQueue

if TYPE_CHECKING:
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_view import TurnOutcome
    from weaver_tui.widgets.queued_strip import QueuedStrip

logger = logging.getLogger(__name__)

DRAFT_IN_THE_WAY = "The composer holds a draft: send or clear it first, then select the message."


class HeldMessages:
    """The queue of one chat screen and its strip."""

    def __init__(
        self,
        surface: ChatSurface,
        *,
        strip: Callable[[], QueuedStrip],
        send: Callable[[str], object],
        conversation: Callable[[], str | None],
    ) -> None:
        self._surface = surface
        self._strip = strip
        self._send = send
        self._conversation = conversation
        """The id of the open conversation (``None`` before its first message is stored)."""
        self.queue = PromptQueue()
        self._shown_for: str | None = None

    def hold(self, text: str) -> bool:
        """Keep ``text`` for after the running turn; ``False`` when no turn runs."""
        if not self._surface.running:
            return False
        self.queue.hold(text, conversation=self._conversation())
        logger.info("message held for the next turn", extra={"held": len(self.queue)})
        self._show()
        return True

    def hold_first(self, text: str) -> None:
        """Keep ``text`` as the next message to send (a steer the turn never read)."""
        self.queue.hold(text, conversation=self._conversation(), first=True)
        self._show()

    def resume(self) -> None:
        """The user sends a message of their own: the held ones of this conversation follow
        it again."""
        conversation = self._conversation()
        if self.queue.paused(conversation):
            self.queue.resume(conversation)
            self._show()

    def turn_ended(self, outcome: TurnOutcome) -> None:
        """Send the next held message after a complete turn; pause after any other."""
        complete = outcome.status == "complete" and not outcome.paused
        prompt = self.queue.turn_ended(self._conversation(), complete=complete)
        self._show()
        if prompt is not None:
            self._send(prompt.text)

    def edit(self, key: int) -> None:
        """Put the held message ``key`` back into the composer (out of the queue)."""
        composer = self._surface.composer
        if composer.text.strip():
            self._surface.notify(DRAFT_IN_THE_WAY, severity="warning")
            return
        prompt = self.queue.take(key)
        if prompt is not None:
            composer.set_draft(prompt.text)
        self._show()

    def drop(self, key: int) -> None:
        """Drop the held message ``key``."""
        self.queue.take(key)
        self._show()

    def follow_conversation(self) -> None:
        """When another conversation is open, the strip shows the messages held there."""
        if self._conversation() != self._shown_for:
            self._show()

    def _show(self) -> None:
        conversation = self._shown_for = self._conversation()
        self._strip().show(self.queue.held_in(conversation), self.queue.sentence(conversation))
