"""Turning a message tree into Tree lines: flat chains, indented versions, lazy side branches.

Kept apart from the widget's keys and labels so the one tricky part, which lines exist and where
a chain continues, reads on its own. Vocabulary:

* the *continuation container* of a message is the Tree node whose children hold the rest of its
  chain: the chain's own container for a message on a chain or for the chosen version of a
  fork; the message's own node for every other version (a *stub*: a collapsed side branch,
  filled in only when expanded);
* the *chosen* version of a fork is the one on the active path, else the newest;
* a *group line* stands for a fork whose message has no line of its own at the chain's level:
  the several first messages of a conversation, or a chosen version that is itself a fork (a
  regenerated reply to an edited question). Its versions nest under it, so a run of such forks
  stays one indent deep instead of stepping right with every fork.

Everything is iterative: paths can be far deeper than Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.text import Text
from textual.widgets.tree import TreeNode

from storage.models import MessageRecord
from storage.tree_index import TreeIndex
from weaver_tui.widgets.conversation_tree.lines import IncrementalLines

Node = TreeNode[str | None]
_NO_LABEL = Text()
"""Labels are drawn from the records (``render_label``); nodes share this placeholder."""
_Work = tuple[str | None, Node | None, Node]


class TreeLayout(IncrementalLines):
    """A Tree whose lines are laid out from a :class:`TreeIndex` and an active path."""

    def __init__(
        self,
        label: str,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(label, name=name, id=id, classes=classes, disabled=disabled)
        self._index = TreeIndex()
        self._line_nodes: dict[str, Node] = {}
        self._continuation: dict[str, Node] = {}
        self._unpopulated: set[str] = set()
        self._expanded_stubs: set[str] = set()
        self._active_path: list[str] = []
        self._active: set[str] = set()
        self._group_forks: dict[int, str | None] = {}
        """Group lines (by node id) and the message whose versions they hold (``None``: the
        conversation's first messages)."""
        self._batch_depth = 0

    def _invalidate(self) -> None:
        # Tree invalidates its line cache on every node added or removed; while a batch of
        # lines is laid out that is thousands of needless refreshes: done once at the end.
        if not self._batch_depth:
            super()._invalidate()

    @contextmanager
    def _batch(self) -> Iterator[None]:
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if not self._batch_depth:
                self._invalidate()

    def _chosen_child(self, message_id: str | None) -> str:
        kids = self._index.children(message_id)
        return next((kid for kid in kids if kid in self._active), kids[-1])

    def _rebuild(self) -> None:
        """Lay out the whole conversation from scratch."""
        with self._batch():
            self._rebuild_lines()

    def _rebuild_lines(self) -> None:
        self.clear()
        self._line_nodes.clear()
        self._continuation.clear()
        self._unpopulated.clear()
        self._group_forks.clear()
        self._emit([(None, None, self.root)])

    def _add_line(self, parent: Node, message_id: str, container: Node | None) -> Node:
        """Add one message line; ``container=None`` makes it a stub (its own container)."""
        kids = self._index.children(message_id)
        is_fork = len(kids) > 1
        if container is None:
            expand = message_id in self._expanded_stubs
            node = parent.add(_NO_LABEL, message_id, expand=expand, allow_expand=bool(kids))
            self._continuation[message_id] = node
            if kids:
                self._unpopulated.add(message_id)
        else:
            # Only a chain-level line holds its versions; a nested one's go to a group line.
            nests = is_fork and parent is container
            node = parent.add(_NO_LABEL, message_id, expand=nests, allow_expand=nests)
            self._continuation[message_id] = container
        self._line_nodes[message_id] = node
        return node

    def _emit(self, work: list[_Work]) -> None:
        """Lay out the descendants of each (message, its node, its continuation container)."""
        with self._batch():
            self._emit_lines(work)

    def _emit_lines(self, work: list[_Work]) -> None:
        while work:
            message_id, node, container = work.pop()
            while True:
                kids = self._index.children(message_id)
                if not kids:
                    break
                if len(kids) == 1:
                    node = self._add_line(container, kids[0], container)
                    message_id = kids[0]
                    continue
                if node is None or (node is not container and node.parent is not container):
                    node = self._add_group(container, message_id)
                # A fork heading a side branch has no chain to continue: every version nests.
                chosen = None if node is container else self._chosen_child(message_id)
                for kid in kids:
                    kid_node = self._add_line(node, kid, container if kid == chosen else None)
                    if kid != chosen and kid in self._expanded_stubs:
                        self._unpopulated.discard(kid)
                        work.append((kid, kid_node, kid_node))
                if chosen is None:
                    break
                message_id, node = chosen, self._line_nodes[chosen]

    def _add_group(self, container: Node, fork_id: str | None) -> Node:
        """A group line in ``container`` for the versions below ``fork_id``."""
        node = container.add(_NO_LABEL, None, expand=True, allow_expand=True)
        self._group_forks[node.id] = fork_id
        return node

    def _drop_from(self, parent: Node, start: int) -> None:
        """Remove ``parent``'s lines from its child ``start`` on, and everything under them.

        One slice, not ``TreeNode.remove`` per line: that searches the parent's children for
        each node, so dropping the rest of a long chain would take quadratic time."""
        stack = parent._children[start:]
        if not stack:
            return
        del parent._children[start:]
        tree_nodes = self._tree_nodes
        while stack:
            current = stack.pop()
            tree_nodes.pop(current.id, None)
            if current.data is not None:
                self._line_nodes.pop(current.data, None)
                self._continuation.pop(current.data, None)
                self._unpopulated.discard(current.data)
            else:
                self._group_forks.pop(current.id, None)
            stack.extend(current._children)
        self._invalidate()

    def _reemit(self, message_id: str) -> None:
        """Lay out again everything below ``message_id`` (the branch that changed)."""
        with self._batch():
            self._reemit_lines(message_id)

    def _reemit_lines(self, message_id: str) -> None:
        node = self._line_nodes.get(message_id)
        if node is None:
            return
        container = self._continuation[message_id]
        if container is not node:
            anchor = node
            while anchor.parent is not container and anchor.parent is not None:
                anchor = anchor.parent
            self._lines_change_from(anchor)
            self._drop_from(container, container._children.index(anchor) + 1)
        else:
            self._lines_change_from(node)
        self._drop_from(node, 0)
        kids = self._index.children(message_id)
        is_fork = len(kids) > 1
        if container is node:
            node.allow_expand = bool(kids)
            if kids and not node.is_expanded:
                self._unpopulated.add(message_id)
                return
            self._unpopulated.discard(message_id)
        else:
            nests = is_fork and node.parent is container
            node.allow_expand = nests
            if nests and not node.is_expanded:
                node.expand()
        self._emit([(message_id, node, container)])

    def _set_active(self, leaf_id: str) -> None:
        """Move the active path to root → ``leaf_id`` and lay out what changed below the fork."""
        if leaf_id not in self._index:
            return
        old, new = self._active_path, self._index.path_to(leaf_id)
        if old == new and leaf_id in self._line_nodes:
            return
        common = 0
        for a, b in zip(old, new, strict=False):
            if a != b:
                break
            common += 1
        self._active_path, self._active = new, set(new)
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        if common == 0:
            self._rebuild()
        else:
            self._reemit(new[common - 1])
        if cursor is not None and cursor in self._line_nodes:
            self._move_to(cursor)
        else:
            self._move_to(leaf_id)

    def _show_new_child(self, record: MessageRecord) -> None:
        """Show a record added without moving the active path."""
        if record.parent_id is None:
            self._rebuild()
            return
        path = self._index.path_to(record.parent_id)
        shown = next(mid for mid in reversed(path) if mid in self._line_nodes)
        if shown == record.parent_id:
            self._reemit(shown)
        else:
            self._line_nodes[shown].refresh()  # a collapsed branch: only its +N count changes

    def _populate(self, message_id: str) -> None:
        """Fill in a side branch the first time it is expanded."""
        self._expanded_stubs.add(message_id)
        node = self._line_nodes[message_id]
        if message_id in self._unpopulated:
            self._unpopulated.discard(message_id)
            self._emit([(message_id, node, node)])
        if not node.is_expanded:
            node.expand()

    def _materialize(self, message_id: str) -> Node:
        """The line of ``message_id``, expanding the side branches and forks that hide it."""
        for step in self._index.path_to(message_id):
            if step not in self._line_nodes:
                parent = self._index.parent(step)
                if parent is not None:
                    self._populate(parent)
        node = self._line_nodes[message_id]
        ancestor = node.parent
        while ancestor is not None and ancestor is not self.root:
            if not ancestor.is_expanded:
                if ancestor.data is not None and self._continuation.get(ancestor.data) is ancestor:
                    self._populate(ancestor.data)
                else:
                    ancestor.expand()
            ancestor = ancestor.parent
        return node

    def _move_to(self, message_id: str) -> None:
        """Put the cursor on ``message_id`` and scroll it into view."""
        node = self._materialize(message_id)
        _ = self.last_line  # lays the lines out now, so node.line is current
        self.move_cursor(node)
        self.call_after_refresh(self._scroll_cursor_into_view)

    def _scroll_cursor_into_view(self) -> None:
        node = self.cursor_node
        if node is not None and node.line >= 0:
            self.scroll_to_line(node.line, animate=False)
