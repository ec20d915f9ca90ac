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


class PaneFit:
    """Hides and restores panes as the terminal's width crosses each pane's minimum."""

    def __init__(self) -> None:
        self._narrow: dict[int, bool] = {}
        self._auto_hidden: set[int] = set()

    def fit(self, width: int, panes: list[tuple[Widget, int]]) -> bool:
        """Apply ``width`` to each (pane, minimum width); ``True`` when a pane was hidden."""
        hid = False
        for pane, minimum in panes:
            narrow = width < minimum
            if self._narrow.get(id(pane)) == narrow:
                continue
            self._narrow[id(pane)] = narrow
            if narrow and not pane.has_class(HIDDEN):
                pane.add_class(HIDDEN)
                self._auto_hidden.add(id(pane))
                hid = True
            elif not narrow and id(pane) in self._auto_hidden:
                pane.remove_class(HIDDEN)
                self._auto_hidden.discard(id(pane))
        return hid

    def user_toggled(self, pane: Widget) -> None:
        """The user showed or hid ``pane``: from now on it is their choice, not the width's."""
        self._auto_hidden.discard(id(pane))
