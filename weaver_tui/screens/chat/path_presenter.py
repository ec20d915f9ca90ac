"""Drawing the chat screen from its state: the active path in the message view and the tree,
the header, and which failed reply F5 retries.

:class:`PathPresenter` is the one place the panes are redrawn from
:class:`~weaver_tui.core.chat_state.ChatState` (a turn in progress draws its own records, see
:mod:`.turn_view`). The first mount fills the tree a frame late, after the messages and the
composer have painted; :meth:`PathPresenter.load_tree` fills it early when something is about
to add to it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from storage.import_meta import IMPORTED_FROM
from weaver_tui.chat_preview import profile_badge

if TYPE_CHECKING:
    from storage.models import MessageRecord
    from storage.tree_index import TreeIndex
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.context_steering import ContextSteering
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface

EMPTY_HINT = (
    "Write a message below and press Enter. The reply streams here; tools run on the right.\n"
    "Ctrl+O opens your conversations · Ctrl+R switches profile · Ctrl+L the model · F1 lists "
    "every key."
)
"""What the message view says while the conversation is empty."""


def empty_hint(welcome: str) -> str:
    """The empty conversation's hint: the profile's welcome (if it declares one), then the
    keys every profile shares."""
    return f"{welcome}\n\n{EMPTY_HINT}" if welcome else EMPTY_HINT


RETRYABLE = ("error", "cancelled")
"""Statuses of a reply that F5 ("Retry") answers again."""


class PathPresenter:
    """Redraws one chat screen from its state.

    ``panels`` gives the path as the chosen view shows it and mounts the profile's panel;
    ``steering`` counts the context for the header; ``project_root`` is the folder the app was
    started for (``--project-root``), named in the header when the conversation keeps none.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        panels: ProfilePanel,
        steering: ContextSteering,
        project_root: Path | None,
    ) -> None:
        self._surface = surface
        self._state = state
        self._panels = panels
        self._steering = steering
        self._project_root = project_root
        self.tree_pending = False
        """The tree pane waits for the frame after the first paint (see :meth:`load_tree`)."""
        self._reader_index: TreeIndex | None = None
        """The tree pane's index while a reader's view is shown (``None``: the whole tree)."""

    def show_conversation(self, *, defer_tree: bool = False) -> None:
        """Redraw everything from the state (after opening, new, delete).

        ``defer_tree`` (the first mount) leaves the tree pane empty for the first frame and
        fills it right after: laying out and drawing a big tree would otherwise delay the
        messages and the composer, which are what the user looks at first.
        """
        surface = self._surface
        self.tree_pending = defer_tree
        surface.tools.clear()
        self._panels.show_for_conversation()
        if defer_tree:
            surface.call_after_refresh(self.load_tree)
        else:
            self.reload_tree()
        self.show_path()

    def load_tree(self) -> None:
        """Fill the tree pane if the first mount deferred it (also called before anything
        that adds to the tree, so no record can arrive before the tree has its index)."""
        if not self.tree_pending:
            return
        self.tree_pending = False
        self.reload_tree()

    def reload_tree(self) -> None:
        """Fill the tree pane for the chosen view: the whole tree, or in a reader's view the
        part the store's filtered query gives for that reader."""
        viewer = self._panels.viewer()
        if viewer is None:
            self._reader_index = None
            self._surface.tree.load_index(self._state.tree_index(), self._state.leaf_id)
            return
        index = self._reader_index = self._state.reader_tree_index(viewer)
        self._surface.tree.load_index(index, self._state.nearest_in(index, self._state.leaf_id))

    def add_to_tree(self, record: MessageRecord) -> None:
        """Show a record just written in the tree pane: added, or in a reader's view by
        reading the reader's tree again (the record may be one they may not read)."""
        if self._panels.viewer() is None:
            self._surface.tree.add_record(record)
        elif not self.tree_pending:
            self.reload_tree()

    def show_path(self, *, select: str | None = None) -> None:
        """Show the active path in the view, the tree and the header (``select``: and select
        that message in the view, bringing it into view)."""
        surface, state = self._surface, self._state
        items = self._panels.visible_items()
        surface.messages.set_messages(items, select=select)
        if not items:  # the hint shows while the view is empty (the screen watches it)
            note = self._panels.empty_view_note()
            surface.empty_hint.update(note or empty_hint(state.traits.welcome))
        leaf = state.leaf_id
        tree = surface.tree
        if leaf is not None and not self.tree_pending:
            if self._reader_index is not None:  # the path's last record this reader may read
                leaf = state.nearest_in(self._reader_index, leaf)
            if leaf is not None and tree.active_leaf_id != leaf:
                tree.set_active_path(leaf)
        retry = None
        if leaf is not None and state.index.get(leaf).status.value in RETRYABLE:
            retry = state.nearest_user(leaf)
        surface.retry_user_id = retry
        surface.refresh_bindings()  # what the keys act on may have changed with the path
        self.update_header()
        if not surface.running:  # a running turn's rows are live; else the path's last turn's
            self._show_last_turns_tools()

    def _show_last_turns_tools(self) -> None:
        """The tool pane shows the tools of the turn that ends the path on screen."""
        state = self._state
        ids = state.path_ids()
        turn: list[str] = []
        for record_id in reversed(ids):
            if state.index.get(record_id).role == "user":
                break
            turn.append(record_id)
        leaf = ids[-1] if ids else None
        reader = self._panels.viewer()
        if reader is None and leaf is not None and leaf == self._surface.tools.turn_reply_id:
            return  # its rows are shown already (a live turn's stages among them)
        if reader is not None:  # a reader sees only what they may read
            readable = self._reader_index
            turn = [
                record_id for record_id in turn if readable is not None and record_id in readable
            ]
        records = [state.index.get(record_id) for record_id in reversed(turn)]
        usage = state.index.get(leaf).meta.get("turn_usage") if leaf is not None else None
        self._surface.tools.show_stored_turn(
            leaf,
            [record for record in records if record.role == "tool"],
            usage if isinstance(usage, dict) else None,
        )

    def append_sent(self, user_id: str) -> bool:
        """Show the message just sent by appending it to the view, when the view ends with
        its parent (the common case); ``False`` when the whole path has to be redrawn."""
        surface, state = self._surface, self._state
        shown = surface.messages.items
        parent = state.index.parent(user_id)
        if parent is None or not shown or shown[-1].id != parent or self._panels.view is not None:
            return False
        surface.messages.start_message(state.item(user_id))
        surface.messages.finish_message(user_id, "complete")
        surface.retry_user_id = None
        self.update_header()
        return True

    def select(self, message_id: str) -> None:
        """Select ``message_id`` in the message view, bringing it into view."""
        self._surface.messages.select_message(message_id)

    on_header: Callable[[], object] | None = None
    """Runs with each header update: the fields other pieces keep (the AGENTS.md badge)."""

    def update_header(self) -> None:
        """The header from the state: profile, title, branch, project, instructions, count."""
        state = self._state
        header = self._surface.header
        conversation = state.conversation
        header.profile = profile_badge(state.profile)
        header.title = conversation.title if conversation else "New conversation"
        header.branch = state.branch_position()
        root = conversation.meta.get("project_root") if conversation else None
        if root is None and state.traits.project_root:
            root = self._project_root or Path.cwd()
        header.project = Path(root).name if root else ""
        header.instructions = bool(state.instructions)
        header.imported = bool(conversation and conversation.meta.get(IMPORTED_FROM))
        if self.on_header is not None:
            self.on_header()
        self._steering.update_count()
