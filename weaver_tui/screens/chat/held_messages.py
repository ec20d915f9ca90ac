"""Messages written while a reply is being written, on the chat screen: held, shown, sent.

Enter while a turn runs hands the composer's message to :meth:`HeldMessages.hold` (the
:class:`~weaver_tui.core.prompt_queue.PromptQueue` keeps it, the
:class:`~weaver_tui.widgets.queued_strip.QueuedStrip` under the reply shows it); when the turn
ends complete the next held message is sent through the screen's sender, one turn each, in
order. A stopped or failed turn pauses the queue (the strip says so): the user's own next
message resumes it. A row selected in the strip goes back into the composer; Delete drops it.
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
    ) -> None:
        self._surface = surface
        self._strip = strip
        self._send = send
        self.queue = PromptQueue()

    def hold(self, text: str) -> bool:
        """Keep ``text`` for after the running turn; ``False`` when no turn runs."""
        if not self._surface.running:
            return False
        self.queue.hold(text)
        logger.info("message held for the next turn", extra={"held": len(self.queue)})
        self._show()
        return True

    def hold_first(self, text: str) -> None:
        """Keep ``text`` as the next message to send (a steer the turn never read)."""
        self.queue.hold(text, first=True)
        self._show()

    def resume(self) -> None:
        """The user sends a message of their own: the held ones follow it again."""
        if self.queue.paused:
            self.queue.resume()
            self._show()

    def turn_ended(self, outcome: TurnOutcome) -> None:
        """Send the next held message after a complete turn; pause after any other."""
        complete = outcome.status == "complete" and not outcome.paused
        prompt = self.queue.turn_ended(complete=complete)
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

    def _show(self) -> None:
        self._strip().show(self.queue.held, self.queue.sentence)
