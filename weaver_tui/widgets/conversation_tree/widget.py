"""The conversation-tree browser: every message of one conversation, walkable from the keyboard.

Layout. A conversation is mostly a long chain, so a chain is drawn flat (one message per line,
no indent) and indentation only appears at a *fork*: the fork's versions are listed indented
under it (``v1/3``, ``v2/3``, ...), the version on the active path (or, off it, the newest)
carries on at the chain's level, and every other version is a collapsed branch (``+N``
records) whose lines are created only when it is expanded. A 2,000-message path in a tree of
10,000 records therefore materialises about one line per path message plus one per version.

Usage (the chat screen owns storage; this widget never touches it)::

    tree.load(store.list_messages(cid), active_leaf_id)   # whole conversation
    tree.load_index(branch_index, active_leaf_id)         # the same, from a TreeIndex
    tree.add_record(record)          # a new record; it becomes the active leaf (as in the store)
    tree.update_record(record)       # content/status changed (streaming, finished, error)
    tree.follow(reply_id)            # keep the cursor on the reply while it streams
    tree.set_active_path(leaf_id)    # after a checkout / version flip elsewhere
    tree.remove_branch(message_id)   # after the store deleted it; then set_active_path(...)
    tree.select(message_id)          # put the cursor on a message (a version flipped elsewhere)
    tree.selected_message_id         # the message under the cursor

It posts (handle as ``on_conversation_tree_<name>``, or all at once as their base
``ConversationTree.Request``): :class:`CheckoutRequested`, :class:`VersionFlipRequested`,
:class:`ForkRequested`, :class:`EditRequested`, :class:`RegenerateRequested`,
:class:`DeleteRequested`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import ClassVar, TypeAlias

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Tree

import weaver_tui.widgets.conversation_tree.messages as requests
from storage.models import MessageRecord
from storage.tree_index import TreeIndex
from weaver_tui.widgets.conversation_tree.rendering import NEAR_VERSIONS, LabelledTree

logger = logging.getLogger(__name__)


HEADING = "Conversation tree"
"""The pane's heading (the tool pane beside it is headed "Tools")."""


class ConversationTree(LabelledTree):
    """The whole message tree of one conversation, with the active path in bold."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "to_parent", "Parent", show=False),
        Binding("right", "to_child", "Child", show=False),
        Binding("left_square_bracket", "previous_version", "Prev version"),
        Binding("right_square_bracket", "next_version", "Next version"),
        Binding("enter", "checkout", "Check out"),
        Binding("f", "fork", "Fork"),
        Binding("e", "edit", "Edit"),
        Binding("r", "regenerate", "Regenerate"),
        Binding("delete", "delete_branch", "Delete branch"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down | Move to the line above / below. |
    | left | Move to the parent message. |
    | right | Move to the child last visited, else the one on the active path, else the first. |
    | [ / ] | Show the previous / next sibling version (the chat switches to it). |
    | space | Expand or collapse a branch. |
    | enter | Check out the message (root → message → its remembered leaf); opens or closes a group. |
    | f | Fork: the next message becomes a new child of this one. |
    | e | Edit a user message (sending creates a sibling version). |
    | r | Regenerate: a new version of this reply (or of the reply to this user message). |
    | delete | Delete this message and everything below it (after confirmation). |
    """

    HELP_BINDINGS: ClassVar[list[tuple[str, str]]] = [
        ("↑ / ↓", "Move to the line above / below"),
        ("←", "Move to the parent message"),
        ("→", "Move to the child (last visited, else on the active path)"),
        ("[ / ]", "Show the previous / next sibling version"),
        ("Space", "Expand or collapse a branch"),
        ("Enter", "Check out the message"),
        ("f", "Fork from the message"),
        ("e", "Edit a user message"),
        ("r", "Regenerate the reply"),
        ("Delete", "Delete the branch (asks first)"),
    ]
    """The tree's keys as (key, description) rows for the help screen."""

    DEFAULT_CSS = """
    ConversationTree {
        width: 1fr;
        height: 1fr;
        scrollbar-size-horizontal: 1;
    }
    """

    Request: TypeAlias = requests.Request
    CheckoutRequested: TypeAlias = requests.CheckoutRequested
    VersionFlipRequested: TypeAlias = requests.VersionFlipRequested
    ForkRequested: TypeAlias = requests.ForkRequested
    EditRequested: TypeAlias = requests.EditRequested
    RegenerateRequested: TypeAlias = requests.RegenerateRequested
    DeleteRequested: TypeAlias = requests.DeleteRequested

    def __init__(
        self,
        records: Iterable[MessageRecord] = (),
        active_leaf_id: str | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__("conversation", name=name, id=id, classes=classes, disabled=disabled)
        self.border_title = HEADING  # drawn where the app's CSS gives the pane a top border
        self.set_reactive(Tree.show_root, False)
        self.set_reactive(Tree.auto_expand, False)
        self.set_reactive(Tree.guide_depth, 3)
        self._visited_child: dict[str, str] = {}
        self._followed: str | None = None
        records = list(records)
        if records:
            self.load(records, active_leaf_id)

    # ----------------------------------------------------------------- public API

    @property
    def selected_message_id(self) -> str | None:
        """The message under the cursor (``None`` on the line grouping several first messages)."""
        node = self.cursor_node
        return node.data if node is not None else None

    @property
    def active_leaf_id(self) -> str | None:
        return self._active_path[-1] if self._active_path else None

    def is_shown(self, message_id: str) -> bool:
        """Whether ``message_id`` has a visible line (not inside a collapsed branch)."""
        node = self._line_nodes.get(message_id)
        if node is None:
            return False
        ancestor = node.parent
        while ancestor is not None and ancestor is not self.root:
            if not ancestor.is_expanded:
                return False
            ancestor = ancestor.parent
        return True

    def label_text(self, message_id: str) -> str:
        """The plain text of ``message_id``'s line (for tests and accessibility)."""
        node = self._line_nodes.get(message_id)
        if node is None:
            return ""
        return "".join(text for text, _ in self._label(node).parts)

    def load(self, records: Iterable[MessageRecord], active_leaf_id: str | None = None) -> None:
        """Show a whole conversation; the cursor lands on the active leaf."""
        self.load_index(TreeIndex(records), active_leaf_id)

    def load_index(self, index: TreeIndex, active_leaf_id: str | None = None) -> None:
        """Show a whole conversation from an index the tree may keep and change (the chat
        state's :meth:`~weaver_tui.core.chat_state.ChatState.tree_index` copy, whose records are
        decoded only for the lines that are laid out)."""
        self._index = index
        self._labels.clear()
        self._widths.clear()
        self._visited_child.clear()
        self._expanded_stubs.clear()
        leaf = active_leaf_id if active_leaf_id in self._index else None
        self._active_path = self._index.path_to(leaf) if leaf else []
        self._active = set(self._active_path)
        self._rebuild()
        if leaf is not None:
            self._move_to(leaf)
        elif self._index.children(None):
            self._move_to(self._index.children(None)[0])

    def select(self, message_id: str) -> None:
        """Put the cursor on ``message_id`` (expanding the branch it is in)."""
        if message_id in self._index:
            self._move_to(message_id)

    def set_active_path(self, leaf_id: str) -> None:
        """Make root → ``leaf_id`` the highlighted path; only the part below the fork changes."""
        self._set_active(leaf_id)

    def add_record(self, record: MessageRecord, *, make_active: bool = True) -> None:
        """Add a new record; like ``store.add_message`` it becomes the active leaf by default."""
        if record.parent_id is not None and record.parent_id not in self._index:
            logger.warning(
                "tree record without a known parent",
                extra={"message_id": record.id, "parent_id": record.parent_id},
            )
            return
        known = record.id in self._index
        self._index.add(record)
        if known:
            self.update_record(record)
            return
        for sibling in self._index.siblings(record.id):
            self._forget_label(sibling)
        if make_active:
            self._set_active(record.id)
        else:
            self._show_new_child(record)

    def update_record(self, record: MessageRecord) -> None:
        """Redraw one line after its content or status changed."""
        if record.id not in self._index:
            return
        self._index.update(record)
        siblings = self._index.siblings(record.id)
        position = siblings.index(record.id)
        near = siblings[max(position - NEAR_VERSIONS, 0) : position + 1 + NEAR_VERSIONS]
        for version in near:  # their lines say what differs from this one
            self._forget_label(version)
            node = self._line_nodes.get(version)
            if node is not None:
                node.refresh()

    def follow(self, message_id: str) -> None:
        """Keep the cursor on ``message_id`` (a streaming reply) unless the user browses away.

        While the tree has focus the cursor only follows from the previously followed node or
        from the new node's parent, so walking the tree during a reply is never interrupted.
        """
        if message_id not in self._index:
            return
        previous, self._followed = self._followed, message_id
        here = self.selected_message_id
        parent = self._index.parent(message_id)
        if not self.has_focus or here is None or here in (previous, parent):
            self._move_to(message_id)

    def remove_branch(self, message_id: str) -> None:
        """Drop ``message_id`` and its descendants (after the store deleted them)."""
        if message_id not in self._index:
            return
        parent = self._index.parent(message_id)
        if message_id in self._active:
            self._active_path = self._active_path[: self._active_path.index(message_id)]
            self._active = set(self._active_path)
        for gone in self._index.remove_branch(message_id):
            self._forget_label(gone)
            self._visited_child.pop(gone, None)
        if parent is None:
            self._rebuild()
        else:
            for sibling in self._index.children(parent):
                self._forget_label(sibling)
            self._reemit(parent)
        target = self.active_leaf_id or parent
        if target is not None:
            self._move_to(target)

    @on(Tree.NodeExpanded)
    def _expand_branch(self, event: Tree.NodeExpanded[str | None]) -> None:
        message_id = event.node.data
        if message_id is not None and self._continuation.get(message_id) is event.node:
            self._populate(message_id)

    @on(Tree.NodeCollapsed)
    def _collapse_branch(self, event: Tree.NodeCollapsed[str | None]) -> None:
        if event.node.data is not None:
            self._expanded_stubs.discard(event.node.data)

    # -------------------------------------------------------------------- actions

    def _selected_or_bell(self) -> str | None:
        message_id = self.selected_message_id
        if message_id is None:
            self.app.bell()
        return message_id

    def action_to_parent(self) -> None:
        """Move to the parent message, remembering where we came from for ``right``."""
        message_id = self._selected_or_bell()
        parent = self._index.parent(message_id) if message_id else None
        if message_id is None or parent is None:
            return
        self._visited_child[parent] = message_id
        self._move_to(parent)

    def action_to_child(self) -> None:
        """Move to the remembered child, else the one on the active path, else the first."""
        message_id = self._selected_or_bell()
        if message_id is None:
            return
        kids = self._index.children(message_id)
        if not kids:
            return
        remembered = self._visited_child.get(message_id)
        active = next((kid for kid in kids if kid in self._active), None)
        target = remembered if remembered in kids else active or kids[0]
        self._move_to(target)

    def _step_version(self, step: int) -> None:
        message_id = self._selected_or_bell()
        if message_id is None:
            return
        siblings = self._index.siblings(message_id)
        position = siblings.index(message_id) + step
        if not 0 <= position < len(siblings):
            self.app.bell()
            return
        self._move_to(siblings[position])
        self.post_message(self.VersionFlipRequested(self, message_id, step))

    def action_previous_version(self) -> None:
        """Move to the previous sibling version and ask the chat to show it."""
        self._step_version(-1)

    def action_next_version(self) -> None:
        """Move to the next sibling version and ask the chat to show it."""
        self._step_version(+1)

    def action_checkout(self) -> None:
        node = self.cursor_node
        if node is not None and node.data is None and node.allow_expand:
            node.toggle()  # a group line has no message to check out: open or close it
            return
        if (message_id := self._selected_or_bell()) is not None:
            self.post_message(self.CheckoutRequested(self, message_id))

    def action_fork(self) -> None:
        if (message_id := self._selected_or_bell()) is not None:
            self.post_message(self.ForkRequested(self, message_id))

    def action_edit(self) -> None:
        """Ask the chat to edit the selected message: it decides what can be edited (yours,
        or a written reply), exactly as for ``e`` in the message view."""
        if (message_id := self._selected_or_bell()) is not None:
            self.post_message(self.EditRequested(self, message_id))

    def action_regenerate(self) -> None:
        message_id = self._selected_or_bell()
        if message_id is None:
            return
        record = self._index.get(message_id)
        user_id = self._index.nearest(message_id, "user")
        if record.role not in ("assistant", "user") or user_id is None:
            self.notify("Only a reply (or your message) can be regenerated.", severity="warning")
            return
        self.post_message(self.RegenerateRequested(self, message_id, user_id))

    def action_delete_branch(self) -> None:
        if (message_id := self._selected_or_bell()) is not None:
            self.post_message(self.DeleteRequested(self, message_id))
