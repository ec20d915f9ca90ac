"""The chat screen's branching: fork, edit, regenerate, flip versions, check out, delete.

Each is a store operation through ``self.state`` (:class:`~weaver_tui.chat_state.ChatState`)
followed by a refresh of what it changed. They are reached from the tree's keys, the message
view's keys, and the command palette (acting on the selected message). Mixed into
:class:`~weaver_tui.screens.chat.ChatScreen`; split out so each file stays readable.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.screens.chat_host import ChatHost as _Host
    from weaver_tui.widgets.conversation_tree import ConversationTree
    from weaver_tui.widgets.message_view import MessageView
else:
    _Host = object  # the type checker sees the chat screen's surface; Python a plain mixin

logger = logging.getLogger(__name__)


class ChatBranching(_Host):
    """Branching actions of the chat screen.

    Message handlers here use ``on_<widget>_<message>`` names rather than ``@on``: Textual
    collects ``@on`` handlers only from classes built by its message-pump metaclass, while
    named handlers are found along the whole MRO.
    """

    selected_id: str | None = None

    # ------------------------------------------------------------------ selection

    def _selected(self) -> str | None:
        """The message an action applies to: the tree's cursor when the tree has focus, else
        the message selected in the view, else the active leaf."""
        tree = self.tree
        if tree.has_focus and tree.selected_message_id is not None:
            return tree.selected_message_id
        if self.selected_id is not None and self.selected_id in self.state.index:
            return self.selected_id
        return self.state.leaf_id

    def on_message_view_selected(self, event: MessageView.Selected) -> None:
        self.selected_id = event.message_id

    # ------------------------------------------------------------------ tree operations

    def checkout(self, message_id: str) -> None:
        """Show root → ``message_id`` → its remembered leaf, and remember that choice."""
        if self._busy():
            return
        self.state.checkout(message_id)
        self.clear_compose_mode()
        self.show_path()

    def flip_version(self, message_id: str, delta: int) -> bool:
        """Show the sibling ``delta`` versions away (root → it → its remembered leaf) in the
        view and the tree alike, and remember it as the active branch; ``False`` if none."""
        if self._busy():
            return False
        if self.state.flip_version(message_id, delta) is None:
            self.app.bell()
            return False
        siblings = self.state.index.siblings(message_id)
        self.selected_id = siblings[siblings.index(message_id) + delta]
        self.clear_compose_mode()
        self.show_path(select=self.selected_id)
        if not self._tree_pending:
            self.tree.select(self.selected_id)
        return True

    def _busy(self) -> bool:
        """A reply is streaming into the view, or the conversation is still being read: say
        so instead of changing the path under it."""
        if not self.conversation_open:
            self.notify("Opening the conversation; try again in a moment.")
            return True
        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
        return self.running

    def fork_from(self, message_id: str) -> None:
        """The next message becomes a new child of ``message_id``; the view shows its path."""
        if self._busy():
            return
        self.messages.set_messages(self.state.path_items(message_id))
        self.set_compose_mode(fork_from=message_id)

    def edit(self, message_id: str) -> None:
        """Put a message in the composer: your own (sending makes a new version and a new
        reply) or a reply (saving makes a new version of it, which you can then continue)."""
        record = self.state.index.get(message_id)
        if record.role not in ("user", "assistant") or (
            record.role == "assistant" and not record.content
        ):
            self.notify("Only messages and written replies can be edited.")
            return
        self.set_compose_mode(edit=message_id)

    def save_edited_reply(self, text: str) -> None:
        """Keep ``text`` as a new version of the reply being edited (no turn runs)."""
        assert self.editing_id is not None
        edited = self.editing_id
        try:
            record = self.state.add_edited_reply(edited, text)
        except StorageError as exc:
            self.notify(str(exc), severity="error", title="Reply not saved")
            self.composer.set_draft(text)
            return
        self.clear_compose_mode()
        self.tree.add_record(record)
        self.show_path(select=record.id)
        version, count = self.state.index.version_of(record.id)
        more = (
            ' · "Continue reply" lets the model go on from it'
            if self.state.traits.continue_reply
            else ""
        )
        self.notify(f"Saved your edit as v{version}/{count}{more}.")

    def action_continue_reply(self) -> None:
        """A new version of the selected reply (else the path's last) that starts with its
        text and goes on from there."""
        index = self.state.index
        target = self.selected_id if self.selected_id in index else None
        if target is None or index.get(target).role != "assistant":
            path = self.state.path_ids()
            target = next((i for i in reversed(path) if index.get(i).role == "assistant"), None)
        if target is None or self._busy():
            if target is None:
                self.notify("There is no reply here to continue.")
            return
        user_id = self.state.nearest_user(target)
        if user_id is None:
            self.notify("There is no message of yours above this reply.")
            return
        self._load_tree()
        self.state.leaf_id = user_id
        self.show_path()
        self.run_turn(user_id, continue_from=target)

    def regenerate(self, message_id: str) -> None:
        """A new sibling version of the reply to the nearest user message above ``message_id``."""
        user_id = self.state.nearest_user(message_id)
        if user_id is None:
            self.notify("There is no message of yours above this one to answer again.")
            return
        self.start_turn(user_id)

    def action_branch_to_conversation(self) -> None:
        """Copy the path to the selected message (else the active leaf) into a conversation
        of its own, and open it there."""
        from storage.branch_copy import branch_to_conversation

        target = self.selected_id if self.selected_id in self.state.index else self.state.leaf_id
        if target is None or self._busy():
            if target is None:
                self.notify("There is no message to branch from yet.")
            return
        try:
            copy = branch_to_conversation(self.state.store, target)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        count = len(self.state.path_ids(target))
        self.open_conversation(copy.id)
        self.notify(f"Copied {count} messages into “{copy.title}”.", title="Branch copied")

    def delete(self, message_id: str) -> None:
        from weaver_tui.screens.confirm import ConfirmScreen

        if self._busy():
            return
        below = self.state.index.descendant_count(message_id)
        question = "Delete this message" + (
            f" and the {below} messages below it?" if below else "?"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete_confirmed(message_id)

        self.app.push_screen(ConfirmScreen(question), answered)

    def _delete_confirmed(self, message_id: str) -> None:
        try:
            self.state.delete_branch(message_id)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.tree.remove_branch(message_id)
        self.clear_compose_mode()
        self.show_path()

    # ------------------------------------------------------------------ requests from widgets

    def on_conversation_tree_checkout_requested(
        self, event: ConversationTree.CheckoutRequested
    ) -> None:
        self.checkout(event.message_id)

    def on_conversation_tree_version_flip_requested(
        self, event: ConversationTree.VersionFlipRequested
    ) -> None:
        if not self.flip_version(event.message_id, event.delta) and not self._tree_pending:
            self.tree.select(event.message_id)  # not switched: the cursor goes back with it

    def on_conversation_tree_fork_requested(self, event: ConversationTree.ForkRequested) -> None:
        self.fork_from(event.message_id)

    def on_conversation_tree_edit_requested(self, event: ConversationTree.EditRequested) -> None:
        self.edit(event.message_id)

    def on_conversation_tree_regenerate_requested(
        self, event: ConversationTree.RegenerateRequested
    ) -> None:
        self.start_turn(event.user_message_id)

    def on_conversation_tree_delete_requested(
        self, event: ConversationTree.DeleteRequested
    ) -> None:
        self.delete(event.message_id)

    def on_message_view_version_flip_requested(
        self, event: MessageView.VersionFlipRequested
    ) -> None:
        self.flip_version(event.message_id, event.delta)

    def on_message_view_action_requested(self, event: MessageView.ActionRequested) -> None:
        if event.action == "copy":  # the view has put it on the clipboard already
            self.notify("Copied the message.")
        elif not self.conversation_open:
            self._busy()
        elif event.action == "fork":
            self.fork_from(event.message_id)
        elif event.action == "edit":
            self.edit(event.message_id)
        elif event.action in ("regenerate", "retry"):
            self.regenerate(event.message_id)

    # ------------------------------------------------------------------ key / palette actions

    def _with_selected(self, act: Any) -> None:
        message_id = self._selected()
        if message_id is None:
            self.notify("There is no message to act on yet.")
            return
        act(message_id)

    def action_fork_selected(self) -> None:
        self._with_selected(self.fork_from)

    def action_edit_selected(self) -> None:
        self._with_selected(self.edit)

    def action_regenerate_selected(self) -> None:
        self._with_selected(self.regenerate)

    def action_next_version(self) -> None:
        self._with_selected(lambda message_id: self.flip_version(message_id, +1))

    def action_previous_version(self) -> None:
        self._with_selected(lambda message_id: self.flip_version(message_id, -1))

    def action_checkout_selected(self) -> None:
        self._with_selected(self.checkout)

    def action_delete_selected(self) -> None:
        self._with_selected(self.delete)

    # ------------------------------------------------------------------ modes

    def set_compose_mode(self, *, fork_from: str | None = None, edit: str | None = None) -> None:
        if edit is not None:
            self.compose_mode.edit(edit)
        elif fork_from is not None:
            self.compose_mode.fork(fork_from)
        else:
            self.compose_mode.clear()

    def clear_compose_mode(self) -> None:
        self.compose_mode.clear()
