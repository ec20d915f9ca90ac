"""Moving the chat screen to another conversation: a new one, one chosen in the
conversations list (or found by its search), the latest of another profile.

:class:`ConversationSwitcher` opens it in the state (:class:`~weaver_tui.core.chat_state.ChatState`),
leaves fork or edit mode, and has the screen redraw everything. None of this happens while a
reply streams.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from storage.printable import printable
from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.branching import Branching
    from weaver_tui.screens.chat.compose_mode import ComposeMode
    from weaver_tui.screens.chat.path_presenter import PathPresenter
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

WAIT_SENTENCE = "Wait for the reply to finish (or press Esc) first."


class ConversationSwitcher:
    """New, open and switch-profile for one chat screen.

    ``presenter`` redraws the screen from the state; ``branching`` keeps the selected
    message; ``panels`` names the reopened conversation's project root; ``warm_up`` starts what
    the shown conversation's profile needs before its first question.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        compose_mode: ComposeMode,
        *,
        presenter: PathPresenter,
        branching: Branching,
        panels: ProfilePanel,
        warm_up: Callable[[], None] = lambda: None,
    ) -> None:
        self._surface = surface
        self._warm_up = warm_up
        self._state = state
        self._mode = compose_mode
        self._presenter = presenter
        self._branching = branching
        self._panels = panels

    def _refused(self) -> bool:
        if self._surface.running:
            self._surface.notify(WAIT_SENTENCE)
            return True
        return False

    def _shown(self) -> None:
        self._mode.clear()
        self._presenter.show_conversation()
        self._warm_up()

    def new(self) -> None:
        """A new conversation of the open profile."""
        if self._refused():
            return
        self._state.new()
        self._shown()
        self._surface.composer.focus()

    def open(self, conversation_id: str, message_id: str | None = None) -> None:
        """Show ``conversation_id`` (at ``message_id``, selected, if given)."""
        try:
            self._state.open(conversation_id, message_id)
        except StorageError as exc:
            self._surface.notify(str(exc), severity="error")
            return
        self._shown()
        if message_id is not None:
            self._branching.selected_id = message_id
            self._presenter.select(message_id)

    def choose(self, search: bool = False, words: str = "") -> None:
        """The conversations list (with the cursor in its search field if ``search``, the
        search for ``words`` already made when given)."""
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

        screen = ConversationsScreen(self._state.store, viewer=self._panels.viewer())
        self._surface.app.push_screen(screen, chosen)
        if words:
            screen.call_after_refresh(screen.search_for, words)
        elif search:
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
        self._presenter.show_conversation()

    def switch_profile(self) -> None:
        """Choose a profile; its latest conversation opens (a new one if it has none)."""
        from weaver_tui.screens.profile_picker import ProfilePickerScreen

        if self._refused():
            return

        self._surface.app.push_screen(
            ProfilePickerScreen(self._state.profile), lambda name: self.switch_to(name)
        )

    def switch_to(self, name: str | None) -> None:
        """Open ``name``'s latest conversation (a new one if it has none); a name that is no
        profile is said in one sentence."""
        from agents.profile_registry import PROFILE_NAMES

        if not name or name == self._state.profile or self._refused():
            return
        if name not in PROFILE_NAMES:
            shown = printable(name)[:40]
            self._surface.notify(
                f"{shown!r} is not a profile; the profiles are {', '.join(PROFILE_NAMES)}.",
                severity="warning",
                markup=False,
            )
            return
        if not self._state.open_latest(name):
            self._state.new(name)
        self._shown()
        conversation = self._state.conversation
        if conversation is None:
            self._surface.notify(f"Profile: {name}")
        else:
            reopened = f"Profile: {name}, reopened “{conversation.title}”."
            self._surface.notify(" ".join(filter(None, (reopened, self._panels.root_note()))))
