"""Sending from the chat screen's composer: the checks, then the message handed to the
runtime's one way in (:meth:`agents.runtime.agent_runtime.AgentRuntime.send`), which stores it
and runs its turn; the screen shows what the events carry and writes nothing itself.

The runtime stores the user's message before the model is called, so nothing typed is lost
when the model fails or the app dies mid-reply. Enter pressed before the chat can send (at the launch
frame, or while a long conversation is still being read) is kept: :meth:`Sender.send_pending`
sends the draft once the screen's status says it can (the screen's watchers call it). Enter
while this chat's reply is being written holds the message for after it
(:mod:`.held_messages`); in a conversation with participants it waits in the space's line.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from agents.runtime.turn_lock import ConversationBusy
from weaver_tui.screens.chat_skeleton import SEND_WHEN_READY_SENTENCE

if TYPE_CHECKING:
    from agents.runtime.events import RunError
    from storage.models import MessageRecord
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.branching import Branching
    from weaver_tui.screens.chat.compose_mode import ComposeMode
    from weaver_tui.screens.chat.conversation_settings import ConversationSettings
    from weaver_tui.screens.chat.held_messages import HeldMessages
    from weaver_tui.screens.chat.host_queue import HostQueue
    from weaver_tui.screens.chat.path_presenter import PathPresenter
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_runner import TurnRunner

logger = logging.getLogger(__name__)

BUSY_SENTENCE = "A reply is still being written; press Esc to cancel it first."


class Sender:
    """What Enter in the composer does on one chat screen."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        *,
        compose_mode: ComposeMode,
        branching: Branching,
        settings: ConversationSettings,
        panels: ProfilePanel,
        presenter: PathPresenter,
        turns: TurnRunner,
        queue: HostQueue,
        held: HeldMessages | None = None,
    ) -> None:
        self._queue = queue
        self._held = held
        self._surface = surface
        self._state = state
        self._mode = compose_mode
        self._branching = branching
        self._settings = settings
        self._panels = panels
        self._presenter = presenter
        self._turns = turns
        self._pending = False
        """Enter was pressed before the chat could send: :meth:`send_pending` sends it."""

    @property
    def can_send(self) -> bool:
        """Whether a message sent now can start its turn: the conversation is open and what
        the profile's panel needs (who speaks, to whom) is loaded."""
        surface = self._surface
        return surface.conversation_open and not (
            self._state.traits.participants and not surface.agents_ready
        )

    def send_when_ready(self) -> None:
        """Send what the composer holds as soon as the chat can (now, if it can)."""
        self._pending = True
        self.send_pending()

    def send_pending(self) -> None:
        """Send the draft whose Enter came too early, once the chat can."""
        if self._pending and self.can_send and not self._surface.running:
            self._pending = False
            self._surface.composer.submit()

    def send(self, text: str) -> None:
        """Store ``text`` as the user's next message (where the compose mode puts it) and
        answer it; or keep it in the composer and say why not."""
        surface = self._surface
        composer = surface.composer
        if not self.can_send:
            composer.set_draft(text)
            if not self._pending:
                surface.notify(SEND_WHEN_READY_SENTENCE)
            self._pending = True
            return
        if self._queue.space_busy():
            if not self._mode.active and self._queue.wait_in_line(text):
                return  # answered in its turn (see :mod:`.host_queue`)
            if not self._mode.active and self._held is not None and self._held.hold(text):
                return  # sent when the running turn ends (see :mod:`.held_messages`)
            surface.notify(BUSY_SENTENCE)
            composer.set_draft(text)
            return
        if len(text.encode("utf-8", errors="surrogateescape")) > composer.max_bytes:
            composer.set_draft(text)
            surface.notify(
                f"The message is over {composer.max_bytes / 1e6:.1f} MB "
                "(max_message_bytes); shorten it before sending.",
                severity="error",
            )
            return
        if self._mode.editing_reply:
            self._branching.save_edited_reply(text)
            return
        try:
            meta = self._settings.with_attachments(text, self._panels.user_meta(text))
        except ValueError as exc:  # an attachment that cannot be read, or too much of them
            composer.set_draft(text)
            surface.notify(str(exc), severity="error", title="Not sent")
            return
        if self._mode.active:  # an edit resent or a fork: back to where it starts
            self._branching.go_back(
                self._mode.parent_of_next(),
                lambda: self._store_and_answer(text, meta),
                lambda: composer.set_draft(text),
            )
            return
        self._store_and_answer(text, meta)

    def _store_and_answer(self, text: str, meta: dict[str, Any] | None) -> None:
        """Store ``text`` where the compose mode puts it and answer it."""
        if self._held is not None:
            self._held.resume()
        self._presenter.load_tree()
        self._take_others_writes()
        self._turns.send(
            text,
            parent_id=self._mode.parent_of_next(),
            meta=meta,
            conversation_meta=self._panels.new_conversation_meta(),
            stored=lambda event: self._shown_stored(event.record),
            not_stored=lambda event: self._not_stored(text, event),
        )

    def _shown_stored(self, user: MessageRecord) -> None:
        """The runtime stored the message (the state holds it): show it, leave fork or edit
        mode, and forget the attachments it took."""
        self._mode.clear()
        self._settings.pending_attachments = []
        # the replies the runtime found left streaming by a dead process, marked interrupted
        taken = self._state.take_written()
        for record in taken:
            self._presenter.add_to_tree(record)
        self._presenter.add_to_tree(user)
        if taken or not self._presenter.append_sent(user.id):
            self._presenter.show_path()  # the new leaf is a complete message: no retry offered

    def _not_stored(self, text: str, event: RunError) -> None:
        """The runtime wrote nothing (another process answers here, or the store refused):
        the draft goes back to the composer, and a refusal by the store is said (a busy
        conversation is said by the turn runner)."""
        self._surface.composer.set_draft(text)
        if not isinstance(event.error, ConversationBusy):
            self._surface.notify(
                event.error.user_message, severity="error", title="Message not saved"
            )

    def _take_others_writes(self) -> None:
        """Show what other processes wrote in the conversation since this chat read it (another
        window's or ``ask``'s turn, a reply a killed process left interrupted), so the message
        goes below their last one, not beside it."""
        taken = self._state.take_written()
        for record in taken:
            self._presenter.add_to_tree(record)
        if taken:
            self._presenter.show_path()
