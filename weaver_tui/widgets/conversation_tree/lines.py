"""Tree lines rebuilt from the first changed line on, not from the top.

Textual's ``Tree`` lists every visible line again (a walk of every node, measuring each label)
whenever any node changes. After a branch switch near the bottom of a 2,000-message chain,
only the lines from the fork down differ, so :class:`IncrementalLines` keeps the lines (and
their widths) above the first line the layout says it changed and walks only the rest. Any
change the layout did not describe (a user expanding a node, a theme change, a clear) falls
back to Textual's full build.
"""

from __future__ import annotations

from rich.text import Text
from textual._loop import loop_last
from textual.geometry import Size
from textual.widgets import Tree
from textual.widgets._tree import _TreeLine
from textual.widgets.tree import TreeNode

Node = TreeNode[str | None]


class IncrementalLines(Tree[str | None]):
    """A Tree that rebuilds its line list from a described change on (see module doc)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._previous_lines: list[_TreeLine[str | None]] | None = None
        self._previous_widths: list[int] = []
        """Cell widths of ``_previous_lines`` (label widths are cached per message, so
        measuring them again after a full build is a walk of dict look-ups)."""
        self._resume_line: int | None = None
        """Lines before this one are unchanged since the last build."""
        self._rebuild_all = True
        """A change nobody described happened since the last build: list every line."""
        self._described = False

    def _lines_change_from(self, node: Node) -> None:
        """Declare that the next invalidation changes only ``node``'s line and those after."""
        previous, line = self._previous_lines, node._line
        if previous is None or not 0 <= line < len(previous) or previous[line].node is not node:
            self._rebuild_all = True
            return
        self._described = True
        if self._resume_line is None or line < self._resume_line:
            self._resume_line = line

    def _invalidate(self) -> None:
        described, self._described = self._described, False
        if not described or self._resume_line is None:
            self._rebuild_all = True
            super()._invalidate()
            return
        # Only the lines from the resume line on change: keep the drawn lines above it
        # (Textual would clear them all and redraw the whole pane on a branch switch). A
        # cached line is keyed by its number and the update counts of its nodes, not by the
        # node, so every line drawn at or below the resume line is dropped.
        resume = self._resume_line
        cache = self._line_cache
        stale = [
            key
            for key in cache.keys()  # noqa: SIM118 (no __iter__)
            if isinstance(key[0], int) and key[0] >= resume
        ]
        for key in stale:
            cache.discard(key)
        self._tree_lines_cached = None
        self.refresh(layout=True)

    def _add_node(
        self, parent: Node | None, label: Text, data: str | None, expand: bool = False
    ) -> Node:
        # Textual counts every node added as a change of the whole tree, which is part of the
        # key of every drawn line: keep the count, so lines above a described change stay
        # drawn (the new node's own lines are dropped by ``_invalidate``; an undescribed
        # change still clears them all).
        updates = self._updates
        node = super()._add_node(parent, label, data, expand)
        self._updates = updates
        return node

    def _build(self) -> None:
        resume = None if self._rebuild_all else self._resume_line
        previous = self._previous_lines
        self._resume_line, self._rebuild_all = None, False
        if resume is None or previous is None or self.show_root:
            super()._build()
            lines = self._tree_lines_cached or []
            self._previous_lines = lines
            guide, show_root = self.guide_depth, self.show_root
            self._previous_widths = [
                self.get_label_width(line.node) + line._get_guide_width(guide, show_root)
                for line in lines
            ]
            return
        self._build_from(previous, resume)

    def _build_from(self, previous: list[_TreeLine[str | None]], resume: int) -> None:
        """Keep ``previous[:resume]`` and walk the nodes from that line's node on."""
        guide, show_root = self.guide_depth, self.show_root
        get_label_width = self.get_label_width
        lines = previous[:resume]
        widths = self._previous_widths[:resume]

        def add_node(path: list[Node], node: Node, last: bool) -> None:
            child_path = [*path, node]
            node._line = len(lines)
            line = _TreeLine(child_path, last)
            lines.append(line)
            widths.append(get_label_width(node) + line._get_guide_width(guide, show_root))
            if node._expanded:
                for is_last, child in loop_last(node._children):
                    add_node(child_path, child, is_last)

        # The resumed node, then the siblings after it at each level up to the top.
        start = previous[resume].node
        ancestors = previous[resume].path[:-1]
        top = self.root
        chain = [*ancestors, start]
        for depth in range(len(chain) - 1, -1, -1):
            node = chain[depth]
            parent = chain[depth - 1] if depth else top
            siblings = list(parent._children)
            position = siblings.index(node)
            # Tree draws the root's children as if each were the last one (no root line).
            top_level = parent is top and not show_root
            if depth == len(chain) - 1:
                add_node(chain[:depth], node, top_level or position == len(siblings) - 1)
            for offset, sibling in enumerate(siblings[position + 1 :], position + 1):
                add_node(chain[:depth], sibling, top_level or offset == len(siblings) - 1)
        self._tree_lines_cached = lines
        self._previous_lines = lines
        self._previous_widths = widths
        self.virtual_size = Size(max(widths) if widths else self.size.width, len(lines))
        if self.cursor_line != -1:
            if self.cursor_node is not None:
                self.cursor_line = self.cursor_node._line
            if self.cursor_line >= len(lines):
                self.cursor_line = -1
