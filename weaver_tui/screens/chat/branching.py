"""The chat's branching: fork, edit, regenerate, continue, flip versions, check out, copy a
branch, delete; and which message these act on (the selection).

Each is a call of the chat's controller (:class:`~weaver_tui.core.chat_controller.ChatController`:
a runtime call whose event it applies to the state: an edited reply, a branch copied or
deleted), followed by a redraw of
what it changed; checking out and flipping versions only move the state's path. :class:`Branching` is the chat's body (``#chat-body``:
tree | messages and composer | tools), the nearest widget that holds both the tree and the
message view: their keys post requests that bubble up to it (one handler for the tree's six,
:class:`~weaver_tui.widgets.conversation_tree.ConversationTree.Request`), and the command
palette runs its actions on it (``owner="Branching"`` in :mod:`weaver_tui.keymap`), so the
screen forwards none of them. Those that need a turn (regenerate, continue) or another
conversation (a branch copied out) post their request to the screen (:mod:`.requests`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import on
from textual.containers import Horizontal

from agents.runtime.events import RunError
from weaver_tui.screens.chat.requests import AnswerRequested, ConversationRequested
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.message_view import MessageView

if TYPE_CHECKING:
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.compose_mode import ComposeMode
    from weaver_tui.screens.chat.path_presenter import PathPresenter
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

BUSY_SENTENCE = "Wait for the reply to finish (or press Esc) first."

NEEDS_A_CONVERSATION = frozenset(
    {"fork_selected", "edit_selected", "regenerate_selected", "delete_selected"}
    | {"branch_to_conversation"}
)
"""Actions with nothing to act on before the conversation's first message."""


GoingBack = Callable[[str | None, Callable[[], object], Callable[[], object]], None]
"""``(point, proceed, cancelled)``: asks whether the files go back to ``point`` too, then runs
``proceed`` (or ``cancelled``) (see :meth:`FileRewind.offer_restore`)."""


class Branching(Horizontal):
    """The chat's body, which owns branching (``presenter`` redraws what an operation
    changed; ``after_checkout(old_leaf, message_id)`` runs after the path moved)."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        controller: ChatController,
        compose_mode: ComposeMode,
        presenter: PathPresenter,
        *,
        after_checkout: Callable[[str, str], None],
        going_back: GoingBack | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._surface = surface
        self._state = state
        self._controller = controller
        self._mode = compose_mode
        self._presenter = presenter
        self._after_checkout = after_checkout
        self._going_back = going_back
        self.selected_id: str | None = None
        """The message selected in the message view (``None``: none yet)."""

    # ------------------------------------------------------------------ selection

    def selected(self) -> str | None:
        """The message an action applies to: the tree's cursor when the tree has focus, else
        the message selected in the view, else the active leaf."""
        tree = self._surface.tree
        if tree.has_focus and tree.selected_message_id is not None:
            return tree.selected_message_id
        if self.selected_id is not None and self.selected_id in self._state.index:
            return self.selected_id
        return self._state.leaf_id

    def selected_or_leaf(self) -> str | None:
        """The message selected in the view, else the active leaf (the tree's cursor aside)."""
        if self.selected_id is not None and self.selected_id in self._state.index:
            return self.selected_id
        return self._state.leaf_id

    def with_selected(self, act: Callable[[str], Any]) -> None:
        """Apply ``act`` to the selected message (say so when there is none yet)."""
        message_id = self.selected()
        if message_id is None:
            self._surface.notify("There is no message to act on yet.")
            return
        act(message_id)

    def busy(self) -> bool:
        """A reply is streaming into the view, or the conversation is still being read: say
        so instead of changing the path under it."""
        if not self._surface.conversation_open:
            self._surface.notify("Opening the conversation; try again in a moment.")
            return True
        if self._surface.running:
            self._surface.notify(BUSY_SENTENCE)
            return True
        return False

    # ------------------------------------------------------------------ tree operations

    def checkout(self, message_id: str) -> bool:
        """Show root → ``message_id`` → its remembered leaf, and remember that choice;
        ``False`` when the chat cannot move now."""
        if self.busy():
            return False
        self._state.checkout(message_id)
        self._mode.clear()
        self._presenter.show_path()
        return True

    def checkout_and_offer_rewind(self, message_id: str) -> None:
        """Check out ``message_id``, then offer to rewind the files the move concerns."""
        old_leaf = self._state.leaf_id
        if self.checkout(message_id) and old_leaf is not None:
            self._after_checkout(old_leaf, message_id)

    def flip_version(self, message_id: str, delta: int) -> bool:
        """Show the sibling ``delta`` versions away (root → it → its remembered leaf) in the
        view and the tree alike, and remember it as the active branch; ``False`` if none."""
        if self.busy():
            return False
        old_leaf = self._state.leaf_id
        if self._state.flip_version(message_id, delta) is None:
            self._surface.app.bell()
            return False
        siblings = self._state.index.siblings(message_id)
        self.selected_id = siblings[siblings.index(message_id) + delta]
        self._mode.clear()
        self._presenter.show_path(select=self.selected_id)
        if not self._presenter.tree_pending:
            self._surface.tree.select(self.selected_id)
        if old_leaf is not None:  # a version flip is a checkout: the files may follow it
            self._after_checkout(old_leaf, self.selected_id)
        return True

    def flip_from_tree(self, message_id: str, delta: int) -> None:
        """The tree asked for another version; not switched, its cursor goes back."""
        if not self.flip_version(message_id, delta) and not self._presenter.tree_pending:
            self._surface.tree.select(message_id)

    def fork_from(self, message_id: str) -> None:
        """The next message starts a new branch at ``message_id`` (see
        :meth:`ComposeMode.fork`); the view shows the path it will follow."""
        if self.busy() or not self._mode.fork(message_id):
            return
        parent = self._mode.parent
        self._surface.messages.set_messages(self._state.path_items(parent) if parent else [])

    def edit(self, message_id: str) -> None:
        """Put a message in the composer: your own (sending makes a new version and a new
        reply) or a reply (saving makes a new version of it, which you can then continue)."""
        record = self._state.index.get(message_id)
        if record.role not in ("user", "assistant") or (
            record.role == "assistant" and not record.content
        ):
            self._surface.notify("Only messages and written replies can be edited.")
            return
        self._mode.edit(message_id)

    def save_edited_reply(self, text: str) -> None:
        """Keep ``text`` as a new version of the reply being edited (no turn runs)."""
        edited = self._mode.editing_id
        assert edited is not None
        state = self._state
        event = self._controller.edit_reply(edited, text)
        if isinstance(event, RunError):
            self._surface.notify(
                event.error.user_message, severity="error", title="Reply not saved"
            )
            self._mode.keep_draft(text)
            return
        record = event.record  # the controller has made it the leaf
        self._mode.clear()
        self._presenter.add_to_tree(record)
        self._presenter.show_path(select=record.id)
        version, count = state.index.version_of(record.id)
        more = (
            ' · "Continue reply" lets the model go on from it'
            if state.traits.continue_reply
            else ""
        )
        self._surface.notify(f"Saved your edit as v{version}/{count}{more}.")

    def copy_message(self, message_id: str | None) -> None:
        """Put a message's text on the clipboard, as shown (no escape sequences)."""
        from storage.printable import printable

        if message_id is None or message_id not in self._state.index:
            self._surface.notify("There is no message to copy yet.")
            return
        self._surface.app.copy_to_clipboard(printable(self._state.index.get(message_id).content))
        self._surface.notify("Copied the message.")

    def action_continue_reply(self) -> None:
        """A new version of the selected reply (else the path's last) that starts with its
        text and goes on from there."""
        index = self._state.index
        target = self.selected_id if self.selected_id in index else None
        if target is None or index.get(target).role != "assistant":
            path = self._state.path_ids()
            target = next((i for i in reversed(path) if index.get(i).role == "assistant"), None)
        if target is None or self.busy():
            if target is None:
                self._surface.notify("There is no reply here to continue.")
            return
        user_id = self._state.nearest_user(target)
        if user_id is None:
            self._surface.notify("There is no message of yours above this reply.")
            return
        self._surface.post_message(AnswerRequested(user_id, continue_from=target))

    def regenerate(self, message_id: str) -> None:
        """A new sibling version of the reply to the nearest user message above ``message_id``."""
        user_id = self._state.nearest_user(message_id)
        if user_id is None:
            self._surface.notify("There is no message of yours above this one to answer again.")
            return
        self.go_back(user_id, lambda: self._surface.post_message(AnswerRequested(user_id)))

    def go_back(
        self,
        point: str | None,
        proceed: Callable[[], object],
        cancelled: Callable[[], object] = lambda: None,
    ) -> None:
        """Go back in the conversation to ``point`` with ``proceed``, once the user chose
        whether the files go back too (asked only when patches were applied after it)."""
        if self._going_back is None:
            proceed()
        else:
            self._going_back(point, proceed, cancelled)

    def action_branch_to_conversation(self) -> None:
        """Copy the path to the selected message (else the active leaf) into a conversation
        of its own, and open it there."""
        state = self._state
        target = self.selected_id if self.selected_id in state.index else state.leaf_id
        if target is None or self.busy():
            if target is None:
                self._surface.notify("There is no message to branch from yet.")
            return
        event = self._controller.copy_branch(target)
        if isinstance(event, RunError):
            self._surface.notify(event.error.user_message, severity="error")
            return
        copy = event.conversation
        self._surface.post_message(ConversationRequested(copy.id))
        self._surface.notify(
            f"Copied {event.copied} messages into “{copy.title}”.", title="Branch copied"
        )

    def delete(self, message_id: str) -> None:
        """Delete ``message_id`` and everything below it, once the user confirms."""
        from weaver_tui.screens.confirm import ConfirmScreen

        if self.busy():
            return
        below = self._state.index.descendant_count(message_id)
        question = "Delete this message" + (
            f" and the {below} messages below it?" if below else "?"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete_confirmed(message_id)

        self._surface.app.push_screen(ConfirmScreen(question), answered)

    def _delete_confirmed(self, message_id: str) -> None:
        event = self._controller.delete(message_id)  # the leaf moves to a survivor
        if isinstance(event, RunError):
            self._surface.notify(event.error.user_message, severity="error")
            return
        self._surface.tree.remove_branch(message_id)
        tools = self._surface.tools
        if tools.turn_reply_id is not None and tools.turn_reply_id not in self._state.index:
            tools.clear()  # its rows were about the turn just deleted
        self._mode.clear()
        self._presenter.show_path()

    def view_action(self, action: str, message_id: str) -> None:
        """An action chosen on a message of the view (its keys or its buttons)."""
        if action == "copy":  # the view has put it on the clipboard already
            self._surface.notify("Copied the message.")
        elif not self._surface.conversation_open:
            self.busy()
        elif action == "fork":
            self.fork_from(message_id)
        elif action == "edit":
            self.edit(message_id)
        elif action in ("regenerate", "retry"):
            self.regenerate(message_id)

    # ------------------------------------------------------------------ what the panes ask

    @on(ConversationTree.Request)
    def _tree_asked(self, request: ConversationTree.Request) -> None:
        """A key pressed in the tree, on the message under its cursor."""
        request.stop()
        message_id = request.message_id
        match request:
            case ConversationTree.CheckoutRequested():
                self.checkout_and_offer_rewind(message_id)
            case ConversationTree.VersionFlipRequested(delta=delta):
                self.flip_from_tree(message_id, delta)
            case ConversationTree.ForkRequested():
                self.fork_from(message_id)
            case ConversationTree.EditRequested():
                self.edit(message_id)
            case ConversationTree.RegenerateRequested(user_message_id=user_id):
                self.go_back(user_id, lambda: self._surface.post_message(AnswerRequested(user_id)))
            case ConversationTree.DeleteRequested():
                self.delete(message_id)

    def on_message_view_selected(self, event: MessageView.Selected) -> None:
        self.selected_id = event.message_id

    def on_message_view_version_flip_requested(
        self, event: MessageView.VersionFlipRequested
    ) -> None:
        self.flip_version(event.message_id, event.delta)

    def on_message_view_action_requested(self, event: MessageView.ActionRequested) -> None:
        self.view_action(event.action, event.message_id)

    # ------------------------------------------------------------------ the palette's commands

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Nothing acts before the conversation is read; most need a conversation."""
        if not self._surface.conversation_open:
            return None
        if action in NEEDS_A_CONVERSATION:
            return self._state.conversation is not None
        if action == "continue_reply":
            return self._state.conversation is not None and self._state.traits.continue_reply
        return True

    def action_fork_selected(self) -> None:
        self.with_selected(self.fork_from)

    def action_edit_selected(self) -> None:
        self.with_selected(self.edit)

    def action_regenerate_selected(self) -> None:
        self.with_selected(self.regenerate)

    def action_next_version(self) -> None:
        self.with_selected(lambda message_id: self.flip_version(message_id, +1))

    def action_previous_version(self) -> None:
        self.with_selected(lambda message_id: self.flip_version(message_id, -1))

    def action_checkout_selected(self) -> None:
        self.with_selected(self.checkout_and_offer_rewind)

    def action_delete_selected(self) -> None:
        self.with_selected(self.delete)

    def action_copy_selected(self) -> None:
        self.copy_message(self.selected_or_leaf())
