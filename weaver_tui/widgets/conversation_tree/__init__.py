"""The conversation-tree browser widget; see :mod:`.widget` for its API and keys."""

from weaver_tui.widgets.conversation_tree.widget import ConversationTree

__all__ = ["ConversationTree"]
