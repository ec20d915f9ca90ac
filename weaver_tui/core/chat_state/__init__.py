"""What the chat screen is showing, and the tree operations on it, without any widget.

:class:`ChatState` holds the open conversation, an in-memory index of its records (so a key
press never waits on SQLite for sibling or path look-ups) and the active leaf. It writes no
record: the runtime writes (a turn, a reply's new version, a deleted branch) and the chat's
controller (:mod:`weaver_tui.core.chat_controller`) hands the events to the ``apply_*`` methods,
which take the records as written. Moving along the tree is the state's own: checking out a
node or flipping to a sibling version remembers the choice in the conversation. It also turns
records into the :class:`MessageItem` rows the message view draws, and is tested directly
against a real SQLite store.

Opening keeps the records as database rows and decodes one only when it is shown or asked for
(the active path, the tree lines in view), and remembering a checked-out branch in the store is
written behind on the store's writer thread (:mod:`weaver_tui.core.chat_state.writes`): the state
settles those writes before any other store call of its own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.profile import ProfileTraits
from agents.profile_registry import UnknownProfileError, get_traits
from agents.runtime.user_message import NewMessage
from storage.models import Conversation, MessageRecord
from storage.store import ConversationStore, NotFoundError
from storage.tree_index import TreeIndex
from weaver_tui.core.branch_position import BranchPosition
from weaver_tui.core.chat_state.rows import build_item
from weaver_tui.core.chat_state.writes import OrderedWrites, writes_for
from weaver_tui.core.heap import freeze_long_lived
from weaver_tui.core.message_item import MessageItem

if TYPE_CHECKING:
    from agents.runtime.events import BranchDeleted

logger = logging.getLogger(__name__)

FREEZE_ABOVE = 1_000
"""Records from which an opened conversation is moved out of the cyclic collector's sight."""


@dataclass
class ChatState:
    """The open conversation (``None`` until the first message of a new one) and its tree."""

    store: ConversationStore
    profile: str
    conversation: Conversation | None = None

    def __post_init__(self) -> None:
        self.pending_meta: dict[str, Any] = {}
        """Settings chosen before the conversation's first message (stored with it)."""
        self.index = TreeIndex()
        self._leaf_id: str | None = None
        self._writes: OrderedWrites = writes_for(self.store)
        self._items: dict[str, tuple[MessageRecord, int, int, MessageItem]] = {}
        """Rows already built, with the record and (version, count) they were built from: a
        branch switch rebuilds only the rows below the fork, and the view, seeing the same
        row objects above it, keeps their rendered lines."""
        self._path_rows: tuple[tuple[TreeIndex, int], list[str], list[MessageItem | None]] | None
        self._path_rows = None
        """(index and its change version, path ids, row per id or ``None`` for a system
        record) of the last :meth:`path_items`."""
        self._leaves: tuple[TreeIndex, int, dict[str, int]] | None = None
        """(index, its shape version, message -> leaves in its subtree) for the header."""
        self._written_mark = 0
        """The store's write mark when the open conversation was read (see
        :meth:`take_written`)."""
        self._streaming_elsewhere: set[str] = set()
        """Records another process was streaming when last taken: read again until done."""

    @property
    def traits(self) -> ProfileTraits:
        """What the open profile declares for the app (plain traits for a profile that is no
        longer registered, so its old conversations still open)."""
        try:
            return get_traits(self.profile)
        except UnknownProfileError:
            return ProfileTraits()

    @property
    def leaf_id(self) -> str | None:
        """The last message of the active path (``None`` for an empty conversation)."""
        return self._leaf_id

    @leaf_id.setter
    def leaf_id(self, leaf_id: str | None) -> None:
        # Whoever moves the leaf is about to write below it (a turn adds its reply): the
        # branch remembered by an earlier checkout must reach the store first.
        self._writes.settle()
        self._leaf_id = leaf_id

    # ------------------------------------------------------------------ opening

    def open(self, conversation_id: str, message_id: str | None = None) -> None:
        """Load a conversation on its remembered branch (or the branch through ``message_id``).

        Also builds the rows of that branch and the header's leaf positions, so a caller that
        opens in a thread (the chat screen's first mount) leaves only drawing to the UI.
        """
        self._writes.settle()
        self._written_mark = self.store.write_mark()  # before the read: nothing falls between
        self._streaming_elsewhere.clear()
        self.conversation = self.store.get_conversation(conversation_id)
        self.profile = self.conversation.profile
        self.index = TreeIndex.from_rows(self.store.message_rows(conversation_id))
        self._items.clear()
        if message_id is not None and message_id in self.index:
            self.checkout(message_id)
        else:
            remembered = self.conversation.meta.get("active_leaf")
            if remembered not in self.index:
                active = self.store.active_leaf(conversation_id)
                remembered = active.id if active is not None else None
            self.leaf_id = remembered
        self.path_items()
        self.freeze_if_big()

    def freeze_if_big(self) -> None:
        """Move everything alive now out of the cyclic collector's sight, if the open
        conversation is big (:mod:`weaver_tui.core.heap`).

        Its rows, records and rows of the view live as long as it is open, and are freed by
        reference counting when it closes (none is part of a cycle). Left to the collector,
        every full collection rescans them all: pauses of 80-150 ms on a 10,000-record tree,
        landing in the middle of a branch switch.
        """
        if len(self.index) >= FREEZE_ABOVE:
            freeze_long_lived("a big conversation opened")

    def tree_index(self) -> TreeIndex:
        """A copy of the index for the tree browser (its own, updated by its own calls; the
        records decoded so far are shared)."""
        return self.index.copy()

    def reader_tree_index(self, viewer: str) -> TreeIndex:
        """The tree as ``viewer`` may read it, read from the store's filtered query (the
        records they may not read never enter it), with the remembered choices."""
        if self.conversation is None:
            return TreeIndex()
        self._writes.settle()
        rows = self.store.message_rows(self.conversation.id, viewer)
        return TreeIndex.from_rows(rows, self.index.choices)

    def reader_path(self, viewer: str) -> list[MessageRecord]:
        """The records of the active path ``viewer`` may read, root first, read from the
        store's filtered query (the records they may not read never enter this process's rows
        of the view); empty while nothing of the path is stored."""
        if self.conversation is None or self.leaf_id is None:
            return []
        self._writes.settle()
        try:
            return self.store.path_to_root(self.leaf_id, viewer)
        except NotFoundError:  # the leaf is not stored (yet, or any more)
            return []

    def nearest_in(self, index: TreeIndex, message_id: str | None) -> str | None:
        """The last record of the path to ``message_id`` that ``index`` holds (a reader's
        tree holds only part of the path)."""
        if message_id is None or message_id not in self.index:
            return None
        return next((i for i in reversed(self.index.path_to(message_id)) if i in index), None)

    def open_latest(self, profile: str | None = None) -> bool:
        """Open the most recently used conversation (of ``profile``); False if there is none."""
        conversations = self.store.list_conversations(profile, limit=1)
        if not conversations:
            return False
        self.open(conversations[0].id)
        return True

    def new(self, profile: str | None = None) -> None:
        """Start an empty conversation; it is stored when its first message is sent."""
        self.conversation = None
        self.pending_meta = {}
        self.profile = profile or self.profile
        self.index = TreeIndex()
        self._items.clear()
        self.leaf_id = None

    # ------------------------------------------------------------------ writing

    def new_message(
        self,
        text: str,
        parent_id: str | None,
        *,
        meta: dict[str, Any] | None = None,
        project_root: Path | None = None,
        conversation_meta: dict[str, Any] | None = None,
    ) -> NewMessage:
        """The user's message as the runtime's one way in takes it (:meth:`AgentRuntime.send`):
        below ``parent_id`` in the open conversation, or starting one (with
        ``conversation_meta``, the settings chosen before it and the project root). Writes
        nothing: the runtime stores it, and its ``MessageStored`` comes back through
        :meth:`apply_stored`. Earlier checkouts reach the store first, so the message is
        stored after the branch it follows is remembered."""
        self._writes.settle()
        created_meta: dict[str, Any] = {}
        if self.conversation is None:
            created_meta = dict(conversation_meta or {})
            created_meta.update(self.pending_meta)
            if project_root:
                created_meta["project_root"] = str(project_root)
        return NewMessage(
            profile=self.profile,
            text=text,
            conversation_id=self.conversation.id if self.conversation else None,
            parent_id=parent_id,
            meta=meta or {},
            conversation_meta=created_meta,
        )

    def apply_stored(self, conversation: Conversation, record: MessageRecord) -> MessageRecord:
        """The runtime stored the user's message (``MessageStored``): take its conversation
        (created or retitled) and the record as written, which becomes the active leaf."""
        self.conversation = conversation
        self.profile = conversation.profile
        self.index.add(record)
        self.leaf_id = record.id
        return record

    def setting(self, key: str) -> Any:
        """A setting the conversation keeps in its meta (``instructions``, ``model_options``),
        or the one waiting for its first message."""
        if self.conversation is None:
            return self.pending_meta.get(key)
        return self.conversation.meta.get(key)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a conversation setting (``None`` removes it), or keep it for the first
        message when the conversation is not stored yet."""
        if self.conversation is None:
            if value is None:
                self.pending_meta.pop(key, None)
            else:
                self.pending_meta[key] = value
            return
        self.conversation = self.store.update_conversation_meta(
            self.conversation.id, **{key: value}
        )

    @property
    def instructions(self) -> str:
        """The conversation's instructions (or those waiting for its first message)."""
        return str(self.setting("instructions") or "")

    def apply_new_leaf(self, record: MessageRecord) -> MessageRecord:
        """A record the runtime wrote that becomes the active leaf (a reply's new version,
        ``ReplyEdited``): into the index as given, and the path moves to it."""
        self.index.add(record)
        self.leaf_id = record.id
        return record

    def refresh(self, message_id: str) -> MessageRecord:
        """Re-read one record from the store into the index (new or changed)."""
        return self.apply(self.store.get_message(message_id))

    def apply(self, record: MessageRecord) -> MessageRecord:
        """Put a record someone else just wrote into the index (new or changed), as given: a
        running turn's events carry its records, so showing them reads nothing back."""
        self.index.add(record)
        return record

    def take_written(self) -> list[MessageRecord]:
        """Put into the index what was written to the open conversation since it was read
        (or since the last call) that the index does not hold as it is: another process's
        records (a shared space's host runner, a seat's message stored). Reads only the
        records written since (and those still streaming then), never the whole conversation.
        Returns them oldest first; the active leaf follows a record written below it."""
        if self.conversation is None:
            return []
        self._writes.settle()
        rows, self._written_mark = self.store.rows_written_after(
            self.conversation.id, self._written_mark
        )
        records = [row.record() for row in rows]
        fresh = {record.id for record in records}
        for message_id in sorted(self._streaming_elsewhere - fresh):
            records.append(self.store.get_message(message_id))
        taken: list[MessageRecord] = []
        for record in records:
            if record.id in self.index and self.index.get(record.id) == record:
                continue
            self.index.add(record)
            if record.parent_id == self._leaf_id:
                self._leaf_id = record.id
            taken.append(record)
        self._streaming_elsewhere = {r.id for r in records if r.status == "streaming"}
        return taken

    # ------------------------------------------------------------------ moving

    def checkout(self, message_id: str) -> str:
        """Make the branch through ``message_id`` (down to its remembered leaf) the active one.

        The leaf is read now (after earlier checkouts reached the store, since they change
        what is remembered); remembering the new choice is written behind.
        """
        assert self.conversation is not None
        self._writes.settle()
        self.leaf_id = leaf_id = self.store.latest_leaf(message_id).id
        self._writes.submit(
            "remember the checked-out branch",
            self.store.set_active_leaf,
            self.conversation.id,
            leaf_id,
        )
        return leaf_id

    def settle(self) -> None:
        """Wait until every branch checked out so far is remembered in the store."""
        self._writes.settle()

    def flip_version(self, message_id: str, delta: int) -> str | None:
        """Check out the sibling ``delta`` versions away; ``None`` if there is none that way."""
        siblings = self.index.siblings(message_id)
        position = siblings.index(message_id) + delta
        if not 0 <= position < len(siblings):
            return None
        return self.checkout(siblings[position])

    def apply_deleted(self, event: BranchDeleted) -> str | None:
        """The runtime deleted a branch (``BranchDeleted``): it leaves the index, and the
        active leaf is the survivor the store chose."""
        self.index.remove_branch(event.message_id)
        leaf = event.leaf
        if leaf is not None and leaf.id not in self.index:
            self.index.add(leaf)
        self.leaf_id = leaf.id if leaf is not None else None
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
        built = build_item(record, version, count, self.traits)
        self._items[message_id] = (record, version, count, built)
        return built

    def path_items(self, leaf_id: str | None = None) -> list[MessageItem]:
        """The rows of the path to ``leaf_id`` (default: the active leaf), system records left
        out. While the index has not changed since the last call, the rows of the leading
        messages both paths share are taken over without a look: a branch switch near the
        bottom of a long path builds only the rows below its fork."""
        ids = self.path_ids(leaf_id)
        key = (self.index, self.index.change_version)
        rows: list[MessageItem | None] = []
        keep = 0
        if self._path_rows is not None and self._path_rows[0] == key:
            _, old_ids, old_rows = self._path_rows
            limit = min(len(ids), len(old_ids))
            while keep < limit and ids[keep] == old_ids[keep]:
                keep += 1
            rows = old_rows[:keep]
        index = self.index
        for message_id in ids[keep:]:
            shown = index.get(message_id).role != "system"
            rows.append(self.item(message_id) if shown else None)
        self._path_rows = (key, ids, rows)
        return [row for row in rows if row is not None]

    def branch_position(self) -> BranchPosition:
        """Which leaf (in tree order) the active path ends at, of how many, and the path length.

        Tree order is depth first, children in version order; the leaves before the active
        one are those below the earlier siblings of each message on its path, counted once
        per subtree and tree shape, so neither opening nor a branch switch walks the tree.
        """
        index = self.index
        total = index.leaf_count()
        leaf = self.leaf_id
        if leaf is None or leaf not in index:
            return BranchPosition(0, total, 0)
        path = index.path_to(leaf)
        if index.children(leaf):  # the active message is not a leaf (a reply is on its way)
            return BranchPosition(0, total, len(path))
        before = 0
        parent: str | None = None
        for message_id in path:
            for sibling in index.children(parent):
                if sibling == message_id:
                    break
                before += self._leaves_under(sibling)
            parent = message_id
        return BranchPosition(before + 1, total, len(path))

    def _leaves_under(self, message_id: str) -> int:
        """How many leaves ``message_id``'s subtree holds (cached per tree shape)."""
        index = self.index
        if self._leaves is None or self._leaves[:2] != (index, index.shape_version):
            self._leaves = (index, index.shape_version, {})
        counts = self._leaves[2]
        count = counts.get(message_id)
        if count is None:
            count = counts[message_id] = sum(
                1 for node in index.subtree(message_id) if not index.children(node)
            )
        return count

    def nearest_user(self, message_id: str) -> str | None:
        return self.index.nearest(message_id, "user")
