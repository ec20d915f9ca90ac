"""The chat screen's app-level actions: cancel and retry a reply, toggle panes, new and open
conversations, switch profile, compose in an editor; and the keys of the model, instructions,
attachments and exports, which :mod:`.conversation_settings` and :mod:`.artifact_saver` carry
out.

Mixed into :class:`~weaver_tui.screens.chat.ChatScreen`; each action either changes the state
and refreshes the screen or opens a modal screen whose answer comes back in a callback.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from textual import events

from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.screens.chat_host import ChatHost as _Host
else:
    _Host = object  # the type checker sees the chat screen's surface; Python a plain mixin

logger = logging.getLogger(__name__)


class ChatActions(_Host):
    """Actions bound to keys and palette commands (see :data:`weaver_tui.keymap.KEYMAP`)."""

    def action_cancel_reply(self) -> None:
        """Stop the running reply; with none running, leave edit or fork mode."""
        if self.turns.cancel():
            return
        if self.compose_mode.active:
            if self.editing_id is not None:
                self.composer.clear()
            self.clear_compose_mode()
            self.show_path()

    def action_retry(self) -> None:
        if self.retry_user_id is not None:
            self.start_turn(self.retry_user_id)

    def action_toggle_tree(self) -> None:
        """Show and focus the tree; from the focused tree, hide it."""
        tree = self.tree
        self.pane_fit.user_toggled(tree)
        if tree.has_class("-hidden"):
            tree.remove_class("-hidden")
            tree.focus()
        elif not tree.has_focus:
            tree.focus()
        else:
            tree.add_class("-hidden")
            self.composer.focus()

    def action_toggle_tool_pane(self) -> None:
        side = self.query_one("#side-pane")
        self.pane_fit.user_toggled(side)
        side.toggle_class("-hidden")
        if (
            side.has_class("-hidden")
            and self.focused is not None
            and side in self.focused.ancestors
        ):
            self.composer.focus()

    def on_resize(self, event: events.Resize) -> None:
        """Hide the side panes on a narrow terminal, bring them back on a wide one."""
        focused = self.focused
        for pane in self.pane_fit.fit(self, event.size.width):
            if focused is not None and (pane is focused or pane in focused.ancestors):
                self.composer.focus()

    def action_new_conversation(self) -> None:
        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return
        self.state.new()
        self.clear_compose_mode()
        self.show_conversation()
        self.composer.focus()

    def open_conversation(self, conversation_id: str, message_id: str | None = None) -> None:
        try:
            self.state.open(conversation_id, message_id)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.clear_compose_mode()
        self.show_conversation()
        if message_id is not None:
            self.selected_id = message_id
            self.messages.select_message(message_id)

    def action_search_conversations(self) -> None:
        """The conversations list with the cursor in its search field."""
        self.action_open_conversations(search=True)

    def action_open_conversations(self, search: bool = False) -> None:
        from weaver_tui.screens.conversations import (
            ConversationsScreen,
            NewConversation,
            OpenConversation,
        )

        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return

        def chosen(result: Any) -> None:
            if isinstance(result, OpenConversation):
                self.open_conversation(result.conversation_id, result.message_id)
            elif isinstance(result, NewConversation):
                self.action_new_conversation()
            else:
                self._after_conversations_closed()

        screen = ConversationsScreen(self.state.store)
        self.app.push_screen(screen, chosen)
        if search:
            screen.call_after_refresh(screen.action_search)

    def _after_conversations_closed(self) -> None:
        """The list may have renamed or deleted the open conversation."""
        conversation = self.state.conversation
        if conversation is None:
            return
        try:
            self.state.open(conversation.id, None)
        except StorageError:
            self.action_new_conversation()
            return
        self.show_conversation()

    def action_switch_profile(self) -> None:
        from weaver_tui.screens.profile_picker import ProfilePickerScreen

        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return

        def chosen(name: str | None) -> None:
            if not name or name == self.state.profile:
                return
            if not self.state.open_latest(name):
                self.state.new(name)
            self.clear_compose_mode()
            self.show_conversation()
            conversation = self.state.conversation
            if conversation is None:
                self.notify(f"Profile: {name}")
            else:
                reopened = f"Profile: {name}, reopened “{conversation.title}”."
                self.notify(" ".join(filter(None, (reopened, self.root_note()))))

        self.app.push_screen(ProfilePickerScreen(self.state.profile), chosen)

    def action_switch_model(self) -> None:
        self.conversation_settings.switch_model()

    def action_export_conversation(self) -> None:
        self.saver.export_conversation()

    def action_save_artifacts(self) -> None:
        """Save the selected reply's artifacts (else the latest on the path's) as files."""
        self.saver.save_artifacts(self.selected_id)

    def action_attach_file(self) -> None:
        self.conversation_settings.attach_file()

    def action_compose_in_editor(self) -> None:
        """Hand the terminal to the user's editor on the composer's text; take back what
        they saved (the composer keeps its text when the editor fails or is not set)."""
        from weaver_tui.editor import EditorError, edit_in_editor

        try:
            text = edit_in_editor(self.app, self.composer.text, self.composer.max_bytes)
        except EditorError as exc:
            self.notify(str(exc), severity="warning", title="Editor")
            return
        self.composer.set_draft(text)

    def action_set_instructions(self) -> None:
        self.conversation_settings.edit_instructions()

    def action_use_template(self) -> None:
        self.conversation_settings.use_template()
