"""Side panes that step aside when the terminal is too narrow for them and the chat.

The tree (28 columns) and the tool pane (30) leave a 120-column terminal 62 for the chat,
but an 80-column one (the default of many terminals) only 22. Below
:data:`TOOL_PANE_MIN_WIDTH` the tool pane is hidden, below :data:`TREE_MIN_WIDTH` the tree
too; they come back when the terminal is wide again. Only crossing a width changes anything,
so a pane the user shows on a narrow terminal (Ctrl+T, Ctrl+G) stays shown, and one the user
hid stays hidden when the terminal widens.
"""

from __future__ import annotations

from textual.widget import Widget

HIDDEN = "-hidden"
TOOL_PANE_MIN_WIDTH = 110
"""Narrower than this, the tool pane is hidden (beside both panes the chat would have fewer
than 52 columns)."""
TREE_MIN_WIDTH = 72
"""Narrower than this, the tree is hidden as well."""
PANES = (("side-pane", TOOL_PANE_MIN_WIDTH), ("tree-pane", TREE_MIN_WIDTH))
"""The ids the chat screen and its launch skeleton share, and each pane's minimum width."""


class PaneFit:
    """Hides and restores a screen's side panes as the terminal's width crosses their minimum."""

    def __init__(self) -> None:
        self._narrow: dict[str, bool] = {}
        self._auto_hidden: set[str] = set()

    def fit(self, screen: Widget, width: int) -> list[Widget]:
        """Apply ``width`` to the panes of ``screen``; returns the panes it hid just now."""
        hidden: list[Widget] = []
        for pane_id, minimum in PANES:
            narrow = width < minimum
            if self._narrow.get(pane_id) == narrow:
                continue
            self._narrow[pane_id] = narrow
            pane = screen.query_one(f"#{pane_id}")
            if narrow and not pane.has_class(HIDDEN):
                pane.add_class(HIDDEN)
                self._auto_hidden.add(pane_id)
                hidden.append(pane)
            elif not narrow and pane_id in self._auto_hidden:
                pane.remove_class(HIDDEN)
                self._auto_hidden.discard(pane_id)
        return hidden

    def user_toggled(self, pane: Widget) -> None:
        """The user showed or hid ``pane``: from now on it is their choice, not the width's."""
        self._auto_hidden.discard(pane.id or "")

    def toggle_tree(self, tree: Widget, composer: Widget) -> None:
        """Show and focus the tree; from the focused tree, hide it (the composer takes the
        focus)."""
        self.user_toggled(tree)
        if tree.has_class(HIDDEN):
            tree.remove_class(HIDDEN)
            tree.focus()
        elif not tree.has_focus:
            tree.focus()
        else:
            tree.add_class(HIDDEN)
            composer.focus()

    def toggle_side(self, side: Widget, focused: Widget | None, composer: Widget) -> None:
        """Show or hide the side pane; hidden with the focus inside, the composer takes it."""
        self.user_toggled(side)
        side.toggle_class(HIDDEN)
        if side.has_class(HIDDEN) and focused is not None and side in focused.ancestors:
            composer.focus()
