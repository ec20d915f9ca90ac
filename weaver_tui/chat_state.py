"""What the chat screen is showing, and the tree operations on it, without any widget.

:class:`ChatState` holds the open conversation, an in-memory index of its records (so a key
press never waits on SQLite for sibling or path look-ups) and the active leaf. Every branching
action is a small store operation followed by an update of only the records it touched:
checking out a node, flipping to a sibling version, deleting a branch, adding the user's
message. It also turns records into the :class:`MessageItem` rows the message view draws.
Kept free of Textual so these operations are tested directly against a real SQLite store.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage.models import Conversation, MessageRecord
from storage.store import ConversationStore
from weaver_tui.widgets.chat_header import BranchPosition, model_badge
from weaver_tui.widgets.conversation_tree.branches import BranchIndex
from weaver_tui.widgets.message_view.items import MessageItem

logger = logging.getLogger(__name__)

DEFAULT_TITLE = "New conversation"
TITLE_LENGTH = 60


def title_from(text: str) -> str:
    """A conversation title from the first user message: its first line, cut short."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), DEFAULT_TITLE)
    return first if len(first) <= TITLE_LENGTH else first[: TITLE_LENGTH - 1] + "…"


def tool_calls_text(record: MessageRecord) -> str:
    """One line naming the tools an assistant record called (the tool pane has the details)."""
    names = [f"`{call.get('name', 'tool')}`" for call in record.tool_calls]
    return "Calling " + ", ".join(names) if names else ""


@dataclass
class ChatState:
    """The open conversation (``None`` until the first message of a new one) and its tree."""

    store: ConversationStore
    profile: str
    conversation: Conversation | None = None
    leaf_id: str | None = None

    def __post_init__(self) -> None:
        self.index = BranchIndex()
        self.opened_records: list[MessageRecord] = []
        """Every record as read by the last :meth:`open` (for loading the tree browser once)."""
        self._items: dict[str, tuple[MessageRecord, int, int, MessageItem]] = {}
        """Rows already built, with the record and (version, count) they were built from: a
        branch switch rebuilds only the rows below the fork, and the view, seeing the same
        row objects above it, keeps their rendered lines."""
        self._leaves: tuple[BranchIndex, int, dict[str, int]] | None = None
        """(index, its shape version, leaf -> position in tree order) for the header."""

    # ------------------------------------------------------------------ opening

    def open(self, conversation_id: str, message_id: str | None = None) -> None:
        """Load a conversation on its remembered branch (or the branch through ``message_id``)."""
        self.conversation = self.store.get_conversation(conversation_id)
        self.profile = self.conversation.profile
        self.opened_records = self.store.list_messages(conversation_id)
        self.index = BranchIndex(self.opened_records)
        self._items.clear()
        if message_id is not None and message_id in self.index:
            self.checkout(message_id)
            return
        active = self.store.active_leaf(conversation_id)
        self.leaf_id = active.id if active is not None else None

    def open_latest(self, profile: str | None = None) -> bool:
        """Open the most recently used conversation (of ``profile``); False if there is none."""
        conversations = self.store.list_conversations(profile)
        if not conversations:
            return False
        self.open(conversations[0].id)
        return True

    def new(self, profile: str | None = None) -> None:
        """Start an empty conversation; it is stored when its first message is sent."""
        self.conversation = None
        self.profile = profile or self.profile
        self.index = BranchIndex()
        self._items.clear()
        self.opened_records = []
        self.leaf_id = None

    # ------------------------------------------------------------------ writing

    def add_user_message(
        self,
        text: str,
        parent_id: str | None,
        *,
        meta: dict[str, Any] | None = None,
        project_root: Path | None = None,
        conversation_meta: dict[str, Any] | None = None,
    ) -> MessageRecord:
        """Commit the user's message (creating the conversation first if it is new, with
        ``conversation_meta`` and the project root)."""
        if self.conversation is None:
            created_meta = dict(conversation_meta or {})
            if project_root:
                created_meta["project_root"] = str(project_root)
            self.conversation = self.store.create_conversation(
                self.profile, title_from(text), meta=created_meta
            )
        elif self.conversation.title == DEFAULT_TITLE and parent_id is None:
            self.conversation = self.store.rename_conversation(
                self.conversation.id, title_from(text)
            )
        record = self.store.add_message(self.conversation.id, "user", text, parent_id, meta=meta)
        self.index.add(record)
        self.leaf_id = record.id
        return record

    def refresh(self, message_id: str) -> MessageRecord:
        """Re-read one record from the store into the index (new or changed)."""
        record = self.store.get_message(message_id)
        self.index.add(record)
        return record

    # ------------------------------------------------------------------ moving

    def checkout(self, message_id: str) -> str:
        """Make the branch through ``message_id`` (down to its remembered leaf) the active one."""
        assert self.conversation is not None
        leaf = self.store.latest_leaf(message_id)
        self.store.set_active_leaf(self.conversation.id, leaf.id)
        self.leaf_id = leaf.id
        return leaf.id

    def flip_version(self, message_id: str, delta: int) -> str | None:
        """Check out the sibling ``delta`` versions away; ``None`` if there is none that way."""
        siblings = self.index.siblings(message_id)
        position = siblings.index(message_id) + delta
        if not 0 <= position < len(siblings):
            return None
        return self.checkout(siblings[position])

    def delete_branch(self, message_id: str) -> str | None:
        """Delete ``message_id`` and everything below it; the active leaf moves to a survivor."""
        assert self.conversation is not None
        self.store.delete_branch(message_id)
        self.index.remove_branch(message_id)
        active = self.store.active_leaf(self.conversation.id)
        self.leaf_id = active.id if active is not None else None
        return self.leaf_id

    # ------------------------------------------------------------------ reading

    def path_ids(self, leaf_id: str | None = None) -> list[str]:
        leaf = leaf_id if leaf_id is not None else self.leaf_id
        return self.index.path_to(leaf) if leaf is not None and leaf in self.index else []

    def item(self, message_id: str) -> MessageItem:
        """The message view's row for one record (the same object while nothing it shows
        changed: the record is replaced on every change, so identity is the test)."""
        record = self.index.get(message_id)
        version, count = self.index.version_of(message_id)
        cached = self._items.get(message_id)
        if (
            cached is not None
            and cached[0] is record
            and cached[1] == version
            and cached[2] == count
        ):
            return cached[3]
        built = self._build_item(record, version, count)
        self._items[message_id] = (record, version, count, built)
        return built

    def _build_item(self, record: MessageRecord, version: int, count: int) -> MessageItem:
        meta = record.meta
        content = record.content
        badge = ""
        if record.role == "assistant":
            if not content and record.tool_calls:
                content = tool_calls_text(record)
            if meta.get("provider"):
                badge = model_badge(meta["provider"], meta.get("model", ""))
        elif record.role == "tool":
            badge = str(meta.get("name") or "")
        elif record.role == "user" and meta.get("sender"):
            badge = str(meta["sender"])
        visibility = meta.get("visibility")
        return MessageItem(
            id=record.id,
            role=record.role,
            content=content,
            status=record.status.value,  # type: ignore[arg-type]
            version=version,
            sibling_count=count,
            badge=badge,
            visibility="" if visibility in (None, "shared") else f"private → {visibility}",
            error=str(meta.get("error") or ""),
        )

    def path_items(self, leaf_id: str | None = None) -> list[MessageItem]:
        return [self.item(i) for i in self.path_ids(leaf_id) if self.index.get(i).role != "system"]

    def branch_position(self) -> BranchPosition:
        """Which leaf (in tree order) the active path ends at, of how many, and the path length.

        The leaves are listed once per tree shape (a walk of every record) and reused until a
        record is added or removed, so a branch switch only walks its own path.
        """
        leaves = self._leaf_positions()
        if self.leaf_id is None or self.leaf_id not in self.index:
            return BranchPosition(0, len(leaves), 0)
        depth = len(self.index.path_to(self.leaf_id))
        return BranchPosition(leaves.get(self.leaf_id, 0), len(leaves), depth)

    def _leaf_positions(self) -> dict[str, int]:
        """Every leaf -> its position (from 1) in tree order, cached per tree shape."""
        cached = self._leaves
        if cached is not None and cached[:2] == (self.index, self.index.shape_version):
            return cached[2]
        leaves: dict[str, int] = {}
        stack = list(reversed(self.index.children(None)))
        while stack:
            current = stack.pop()
            children = self.index.children(current)
            if children:
                stack.extend(reversed(children))
            else:
                leaves[current] = len(leaves) + 1
        self._leaves = (self.index, self.index.shape_version, leaves)
        return leaves

    def nearest_user(self, message_id: str) -> str | None:
        return self.index.nearest(message_id, "user")
