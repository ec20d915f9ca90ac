"""How the tree's lines are drawn: labels built from the records, coloured by the theme.

A layer between the layout (:mod:`.layout`) and the widget's keys and API (:mod:`.widget`).
Labels are cached per message and rebuilt only when the record, its version count, its place
on the active path or its collapsed-branch count changes; their widths (needed for every line
each time Tree lays its lines out) are cached apart, so moving the active path measures none.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.widgets.tree import TreeNode

from weaver_tui.widgets.conversation_tree.labels import (
    LabelStyles,
    build_label,
    label_parts,
    label_width,
)
from weaver_tui.widgets.conversation_tree.layout import TreeLayout

_TOGGLE = Style.from_meta({"toggle": True})

NEAR_VERSIONS = 4
"""Versions on each side a line is told apart from (the lines drawn next to it): a message
with hundreds of versions costs no more per line than one with a few."""


@dataclass(slots=True)
class _Label:
    """A line's label parts (cheap to measure) and, once drawn, its styled text."""

    key: tuple[bool, int]
    parts: list[tuple[str, str]]
    width: int
    text: Text | None = None


class LabelledTree(TreeLayout):
    """A :class:`TreeLayout` whose lines show role mark, content, version and status."""

    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "

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
        self._styles = LabelStyles.plain()
        self._labels: dict[str, _Label] = {}
        self._widths: dict[str, tuple[int, int]] = {}
        """(hidden count, cells) per message: unchanged when only the active path moves, so
        laying out thousands of lines after a branch switch measures no labels again."""

    def on_mount(self) -> None:
        self._apply_theme()
        self.watch(self.app, "theme", self._apply_theme, init=False)

    def _apply_theme(self) -> None:
        self._styles = LabelStyles.from_variables(self.app.get_css_variables())
        self._labels.clear()
        self._invalidate()

    def process_label(self, label: str | Text) -> Text:
        # Labels are drawn from the records in render_label; skip Tree's markup parsing.
        return label if isinstance(label, Text) else Text(label)

    def _label(self, node: TreeNode[str | None]) -> _Label:
        message_id = node.data
        if message_id is None:
            return self._group_label(self._group_forks.get(node.id))
        hidden = self._hidden_count(node)
        key = (message_id in self._active, hidden)
        cached = self._labels.get(message_id)
        if cached is not None and cached.key == key:
            return cached
        parts = self._label_parts(message_id, key, keep_records=True)
        label = self._labels[message_id] = _Label(key, parts, label_width(parts))
        return label

    def _label_parts(
        self, message_id: str, key: tuple[bool, int], *, keep_records: bool
    ) -> list[tuple[str, str]]:
        """The parts of ``message_id``'s label; ``keep_records=False`` (measuring a line that
        may never be drawn) leaves the records it reads undecoded in the index."""
        read = self._index.get if keep_records else self._index.peek
        siblings = self._index.siblings(message_id)
        position = siblings.index(message_id)
        near = siblings[max(position - NEAR_VERSIONS, 0) : position]
        near += siblings[position + 1 : position + 1 + NEAR_VERSIONS]
        return label_parts(
            read(message_id),
            version=(position + 1, len(siblings)),
            active=key[0],
            hidden=key[1],
            versions=[read(s) for s in near],
        )

    def _group_label(self, fork_id: str | None) -> _Label:
        """A group line's text: how many versions, of which message."""
        count = len(kids := self._index.children(fork_id))
        if fork_id is None:
            text = f"⑂ {count} first-message versions"
        elif kids and self._index.peek(kids[0]).role == "assistant":
            text = f"⑂ {count} reply versions"
        else:
            text = f"⑂ {count} message versions"
        parts = [(text, "muted")]
        return _Label((False, 0), parts, label_width(parts))

    def render_label(self, node: TreeNode[str | None], base_style: Style, style: Style) -> Text:
        label = self._label(node)
        if label.text is None:
            label.text = build_label(label.parts, self._styles, active=label.key[0])
        text = label.text.copy()
        text.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
        else:
            icon = "  "
        return Text.assemble((icon, base_style + _TOGGLE), text)

    def get_label_width(self, node: TreeNode[str | None]) -> int:
        message_id = node.data
        if message_id is None:
            return 2 + self._label(node).width
        hidden = self._hidden_count(node)
        cached = self._widths.get(message_id)
        if cached is None or cached[0] != hidden:
            cached = self._widths[message_id] = (hidden, self._measure(message_id, hidden))
        return 2 + cached[1]

    def _measure(self, message_id: str, hidden: int) -> int:
        """A line's label width. Tree measures every line it lays out, thousands of which are
        never drawn: their labels (and the records they read) are not kept, only the width;
        a drawn line builds and keeps its label in :meth:`_label`."""
        key = (message_id in self._active, hidden)
        drawn = self._labels.get(message_id)
        if drawn is not None and drawn.key == key:
            return drawn.width
        return label_width(self._label_parts(message_id, key, keep_records=False))

    def _forget_label(self, message_id: str) -> None:
        self._labels.pop(message_id, None)
        self._widths.pop(message_id, None)

    def _hidden_count(self, node: TreeNode[str | None]) -> int:
        """Records inside a collapsed side branch (0 for any other line)."""
        message_id = node.data
        if message_id is None or self._continuation.get(message_id) is not node:
            return 0
        return 0 if node.is_expanded else self._index.descendant_count(message_id)
