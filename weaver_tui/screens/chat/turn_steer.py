"""Steering the running turn from the chat screen: the composer's message sent INTO the reply
being written (Ctrl+Enter where the terminal reports it, Ctrl+F anywhere, or the palette's
"Steer the running turn").

The runtime owns the running turn: :meth:`ChatController.steer` hands it the words, the model
reads them after the tool round under way, and the runtime records them in the tree where they
were read (the screen shows that record as any record of the turn). A turn that makes no
further model call hands them back when it ends: they then wait as the next held message
(:mod:`.held_messages`), first in line, and the screen says so. With no turn running the key
sends the message as Enter does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.graph.steering import Steer
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.screens.chat.held_messages import HeldMessages
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

SENT_SENTENCE = "Sent into the running reply: the model reads it after the current tool round."
NOT_STEERABLE_SENTENCE = "This reply cannot take a message now: yours waits as the next one."
HANDED_BACK_SENTENCE = (
    "The reply was already being finished when your message came, so it waits as the next one."
)
EMPTY_SENTENCE = "Write the message to steer the reply with first."


class TurnSteer:
    """The steers this screen sent into its running turn, until the turn ends."""

    def __init__(
        self,
        surface: ChatSurface,
        controller: ChatController,
        held: HeldMessages,
        meta: Callable[[str], dict[str, Any] | None] = lambda text: None,
    ) -> None:
        self._surface = surface
        self._controller = controller
        self._held = held
        self._meta = meta
        """Who says ``text`` and to whom (the speakers' panel), as a sent message's meta."""
        self._sent: list[Steer] = []

    def steer(self) -> None:
        """Send the composer's message into the running turn (or as a plain message when no
        turn runs)."""
        surface = self._surface
        composer = surface.composer
        text = composer.text.strip("\n")
        if not text.strip():
            surface.notify(EMPTY_SENTENCE, severity="warning")
            return
        if not surface.running:
            composer.submit()
            return
        composer.clear()
        steer = self._controller.steer(text, self._meta(text))
        if steer is None:
            self._held.hold(text)
            surface.notify(NOT_STEERABLE_SENTENCE)
            return
        self._sent.append(steer)
        surface.notify(SENT_SENTENCE)

    def turn_ended(self) -> None:
        """The turn ended: what it never read goes first in the held messages, in order."""
        unread = [s for s in self._sent if s.state != "joined"]
        self._sent = []
        if not unread:
            return
        logger.info("steers handed back", extra={"steers": len(unread)})
        for steer in reversed(unread):
            self._held.hold_first(steer.text)
        self._surface.notify(HANDED_BACK_SENTENCE)
