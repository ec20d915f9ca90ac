"""Moving the chat screen to another conversation: a new one, one chosen in the
conversations list (or found by its search), the latest of another profile.

:class:`ConversationSwitcher` opens it in the state (:class:`~weaver_tui.chat_state.ChatState`),
leaves fork or edit mode, and has the screen redraw everything. None of this happens while a
reply streams.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from storage.store import StorageError

if TYPE_CHECKING:
    from textual.screen import Screen

    from weaver_tui.chat_state import ChatState
    from weaver_tui.screens.compose_mode import ComposeMode

logger = logging.getLogger(__name__)

WAIT_SENTENCE = "Wait for the reply to finish (or press Esc) first."


class ConversationSwitcher:
    """New, open and switch-profile for one chat screen.

    ``host`` is the screen (modal screens, notifications); ``show_conversation`` redraws it
    from the state; ``select`` selects a message in the view; ``focus_composer`` puts the
    cursor back in the composer; ``is_running`` whether a reply streams; ``root_note`` the
    sentence naming the reopened conversation's project root.
    """

    def __init__(
        self,
        host: Screen[Any],
        state: ChatState,
        compose_mode: ComposeMode,
        *,
        show_conversation: Callable[[], None],
        select: Callable[[str], None],
        focus_composer: Callable[[], None],
        is_running: Callable[[], bool],
        root_note: Callable[[], str],
    ) -> None:
        self._host = host
        self._state = state
        self._mode = compose_mode
        self._show_conversation = show_conversation
        self._select = select
        self._focus_composer = focus_composer
        self._is_running = is_running
        self._root_note = root_note

    def _refused(self) -> bool:
        if self._is_running():
            self._host.notify(WAIT_SENTENCE)
            return True
        return False

    def _shown(self) -> None:
        self._mode.clear()
        self._show_conversation()

    def new(self) -> None:
        """A new conversation of the open profile."""
        if self._refused():
            return
        self._state.new()
        self._shown()
        self._focus_composer()

    def open(self, conversation_id: str, message_id: str | None = None) -> None:
        """Show ``conversation_id`` (at ``message_id``, selected, if given)."""
        try:
            self._state.open(conversation_id, message_id)
        except StorageError as exc:
            self._host.notify(str(exc), severity="error")
            return
        self._shown()
        if message_id is not None:
            self._select(message_id)

    def choose(self, search: bool = False) -> None:
        """The conversations list (with the cursor in its search field if ``search``)."""
        from weaver_tui.screens.conversations import (
            ConversationsScreen,
            NewConversation,
            OpenConversation,
        )

        if self._refused():
            return

        def chosen(result: Any) -> None:
            if isinstance(result, OpenConversation):
                self.open(result.conversation_id, result.message_id)
            elif isinstance(result, NewConversation):
                self.new()
            else:
                self._after_list_closed()

        screen = ConversationsScreen(self._state.store)
        self._host.app.push_screen(screen, chosen)
        if search:
            screen.call_after_refresh(screen.action_search)

    def _after_list_closed(self) -> None:
        """The list may have renamed or deleted the open conversation."""
        conversation = self._state.conversation
        if conversation is None:
            return
        try:
            self._state.open(conversation.id, None)
        except StorageError:
            self.new()
            return
        self._show_conversation()

    def switch_profile(self) -> None:
        """Choose a profile; its latest conversation opens (a new one if it has none)."""
        from weaver_tui.screens.profile_picker import ProfilePickerScreen

        if self._refused():
            return

        def chosen(name: str | None) -> None:
            if not name or name == self._state.profile:
                return
            if not self._state.open_latest(name):
                self._state.new(name)
            self._shown()
            conversation = self._state.conversation
            if conversation is None:
                self._host.notify(f"Profile: {name}")
            else:
                reopened = f"Profile: {name}, reopened “{conversation.title}”."
                self._host.notify(" ".join(filter(None, (reopened, self._root_note()))))

        self._host.app.push_screen(ProfilePickerScreen(self._state.profile), chosen)
