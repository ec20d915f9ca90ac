"""An in-memory index of one conversation's message tree: the one the app and the export read.

The tree widget and the chat view ask "children of X", "versions of X", "path to X" many times
per key press, and update it in place while a reply streams, without asking the store: plain
dicts, O(1) look-ups, children kept in version order, and no recursion anywhere (a path can be
thousands of records deep). It is built from one query
(:meth:`storage.sqlite_store.SqliteConversationStore.tree_index`, or ``message_rows``):
:meth:`TreeIndex.from_rows` keeps the :class:`storage.rows.MessageRow` values as they are,
reads their fields by name, and decodes a record (its meta JSON, its timestamp) only when
something asks for it. Pure Python, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from typing import cast

from storage.models import MessageRecord
from storage.rows import MessageRow

ROOT_KEY = ""
"""The ``choices`` key for the choice among a conversation's root records."""


class LazyRecords(MutableMapping[str, MessageRecord]):
    """Records by id, held as decoded records or as rows decoded on first use.

    Opening a 10,000-record conversation should not pay for parsing 10,000 meta JSON texts
    when the screen shows the active path and the few tree lines in view. Copies
    (:meth:`copy`) are independent maps that share the decoded rows (row -> record, checked by
    identity), so two indexes over one conversation never decode the same row twice.
    """

    __slots__ = ("_decode", "_decoded", "_values")

    def __init__(
        self,
        values: dict[str, MessageRecord | MessageRow],
        decoded: dict[str, tuple[MessageRow, MessageRecord]] | None = None,
        decode: Callable[[MessageRow], MessageRecord] = MessageRow.record,
    ) -> None:
        self._values = values
        self._decoded = {} if decoded is None else decoded
        self._decode = decode

    def __getitem__(self, message_id: str) -> MessageRecord:
        value = self._values[message_id]
        if isinstance(value, MessageRecord):
            return value
        cached = self._decoded.get(message_id)
        if cached is not None and cached[0] is value:
            return cached[1]
        record = self._decode(value)
        self._decoded[message_id] = (value, record)
        return record

    def __setitem__(self, message_id: str, record: MessageRecord) -> None:
        self._values[message_id] = record

    def __delitem__(self, message_id: str) -> None:
        del self._values[message_id]

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def peek(self, message_id: str) -> MessageRecord:
        """The record of ``message_id`` as :meth:`__getitem__` gives it, without keeping a
        record decoded for this call: for a reader that looks at many records once (measuring
        thousands of tree lines) and should not hold them all."""
        value = self._values[message_id]
        if isinstance(value, MessageRecord):
            return value
        cached = self._decoded.get(message_id)
        if cached is not None and cached[0] is value:
            return cached[1]
        return self._decode(value)

    @property
    def decoded_count(self) -> int:
        """How many rows were decoded so far (shared by copies)."""
        return len(self._decoded)

    def copy(self) -> LazyRecords:
        """An independent map over the same values, sharing the decoded rows."""
        return LazyRecords(dict(self._values), self._decoded, self._decode)


class TreeIndex:
    """Children, parents and versions of a conversation's records, keyed by message id, and the
    branch remembered at each fork.

    ``children(None)`` are the roots. Children are ordered by ``version`` then creation time,
    which is the order the user flips through versions with ``[`` and ``]``. ``choices`` maps a
    parent id (:data:`ROOT_KEY` for the roots) to the child chosen there last;
    ``active_leaf_id`` is where the user was. Look-ups answer ids; :meth:`get` (or
    :meth:`records`) gives the records.
    """

    def __init__(
        self,
        records: Iterable[MessageRecord] = (),
        choices: Mapping[str, str] | None = None,
        active_leaf_id: str | None = None,
    ) -> None:
        self._records = LazyRecords({})
        self.choices: dict[str, str] = dict(choices or {})
        self.active_leaf_id = active_leaf_id
        self._parents: dict[str, str | None] = {}
        self._children: dict[str | None, list[str]] = {}
        self._sizes: dict[str, int] | None = None
        """Descendant counts, computed for all records at once when first asked for."""
        self.shape_version = 0
        """Bumped whenever a record is added or removed (not when one is updated), so callers
        can cache answers that depend only on the tree's shape (its leaves, for example)."""
        self.change_version = 0
        """Bumped on every change (a record added, updated or removed): answers cached at one
        value hold, record for record, while it stays the same."""
        # siblings share a depth, so this order leaves every children list in version order
        for record in sorted(records, key=lambda r: (r.depth, r.version, r.created_at)):
            self._records[record.id] = record
            self._parents[record.id] = record.parent_id
            self._children.setdefault(record.parent_id, []).append(record.id)

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[MessageRow],
        choices: Mapping[str, str] | None = None,
        active_leaf_id: str | None = None,
    ) -> TreeIndex:
        """An index over undecoded rows (in any order), decoding each record on first use:
        only ids, parents, versions and creation times are read now."""
        index = cls(choices=choices, active_leaf_id=active_leaf_id)
        by_id: dict[str, MessageRow] = {}
        parents = index._parents
        children = index._children
        unsorted: set[str | None] = set()
        for row in rows:
            message_id, parent = row.id, row.parent_id
            by_id[message_id] = row
            parents[message_id] = parent
            kids = children.get(parent)
            if kids is None:
                children[parent] = [message_id]
            else:
                last = by_id[kids[-1]]
                if (row.version, row.created_at) < (last.version, last.created_at):
                    unsorted.add(parent)
                kids.append(message_id)
        for parent in unsorted:
            children[parent].sort(key=lambda kid: (by_id[kid].version, by_id[kid].created_at))
        # the map is handed over, not copied: it holds rows only until records replace them
        index._records = LazyRecords(cast(dict[str, MessageRecord | MessageRow], by_id))
        return index

    def copy(self) -> TreeIndex:
        """An independent index over the same records (decoded rows are shared)."""
        twin = TreeIndex(choices=self.choices, active_leaf_id=self.active_leaf_id)
        twin._records = self._records.copy()
        twin._parents = dict(self._parents)
        twin._children = {parent: list(kids) for parent, kids in self._children.items()}
        return twin

    def _order(self, message_id: str) -> tuple[int, object]:
        record = self._records[message_id]
        return (record.version, record.created_at)

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._parents

    def __len__(self) -> int:
        return len(self._parents)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parents)

    def get(self, message_id: str) -> MessageRecord:
        return self._records[message_id]

    def peek(self, message_id: str) -> MessageRecord:
        """:meth:`get` without keeping the record decoded (see :meth:`LazyRecords.peek`)."""
        return self._records.peek(message_id)

    def records(self, ids: Iterable[str]) -> list[MessageRecord]:
        """The records of ``ids``, in that order."""
        return [self._records[message_id] for message_id in ids]

    def leaf_count(self) -> int:
        """How many records have no children (every children list held is non-empty)."""
        return len(self._parents) - len(self._children) + (None in self._children)

    @property
    def decoded_count(self) -> int:
        """How many records were decoded from rows so far (shared by copies)."""
        return self._records.decoded_count

    def children(self, message_id: str | None) -> list[str]:
        """Child ids of ``message_id`` (the roots for ``None``), in version order."""
        return self._children.get(message_id, [])

    def parent(self, message_id: str) -> str | None:
        return self._parents[message_id]

    def siblings(self, message_id: str) -> list[str]:
        """``message_id`` and its sibling versions, in version order."""
        return self.children(self._parents[message_id])

    def version_of(self, message_id: str) -> tuple[int, int]:
        """(position among its siblings from 1, number of siblings)."""
        siblings = self.siblings(message_id)
        return siblings.index(message_id) + 1, len(siblings)

    def path_to(self, message_id: str) -> list[str]:
        """Ids from the root down to ``message_id`` inclusive."""
        parents = self._parents
        path: list[str] = []
        current: str | None = message_id
        while current is not None:
            path.append(current)
            current = parents[current]
        path.reverse()
        return path

    def descendant_count(self, message_id: str) -> int:
        """How many records hang below ``message_id`` (shown on a collapsed branch)."""
        if self._sizes is None:
            order: list[str] = []  # every record after its parent (roots first)
            stack = list(self._children.get(None, []))
            while stack:
                current = stack.pop()
                order.append(current)
                stack.extend(self._children.get(current, ()))
            sizes: dict[str, int] = dict.fromkeys(order, 0)
            parents = self._parents
            for current in reversed(order):
                parent = parents[current]
                if parent is not None:
                    sizes[parent] += sizes[current] + 1
            self._sizes = sizes
        return self._sizes[message_id]

    def subtree(self, message_id: str) -> list[str]:
        """``message_id`` and every id below it."""
        found = [message_id]
        stack = list(self.children(message_id))
        while stack:
            current = stack.pop()
            found.append(current)
            stack.extend(self.children(current))
        return found

    def nearest(self, message_id: str, role: str) -> str | None:
        """The closest record with ``role`` on the path up from ``message_id`` (itself included)."""
        current: str | None = message_id
        while current is not None:
            if self._records[current].role == role:
                return current
            current = self._parents[current]
        return None

    def fork_parent(self, message_id: str) -> str | None:
        """The parent of a new user message sent as a fork at ``message_id``, so that versions
        (siblings) only ever group messages of one role and every tool call keeps its results.

        Forking at a user message asks something else at that point: the new message is its
        sibling (as an edit is, with new text). Forking at a reply continues below it; at a
        record of a tool round (a reply that calls tools, a tool's result), below the reply
        that ends the round (the remembered branch, else the newest). Raises
        :class:`ForkError` (one sentence) for a round that has no such reply yet.
        """
        record = self._records[message_id]
        if record.role == "user":
            return self._parents[message_id]
        current = message_id
        while _in_tool_round(self._records[current]):
            following = self._pick(current, self.choices)
            if following is None:
                raise ForkError(
                    "That tool round has no reply yet: fork at the question before it, or at "
                    "a reply."
                )
            current = following
        return current

    def add(self, record: MessageRecord) -> None:
        """Insert a new record (or replace one with the same id) keeping version order."""
        if record.id in self._parents:
            self.update(record)
            return
        self._records[record.id] = record
        self._parents[record.id] = record.parent_id
        self._sizes = None
        self.shape_version += 1
        self.change_version += 1
        kids = self._children.setdefault(record.parent_id, [])
        kids.append(record.id)
        kids.sort(key=self._order)

    def update(self, record: MessageRecord) -> None:
        """Replace a record's content/meta; its place in the tree does not change."""
        self._records[record.id] = record
        self.change_version += 1

    def remove_branch(self, message_id: str) -> list[str]:
        """Forget ``message_id`` and its descendants; returns the ids removed."""
        removed = self.subtree(message_id)
        self._sizes = None
        self.shape_version += 1
        self.change_version += 1
        parent = self._parents[message_id]
        self._children[parent].remove(message_id)
        if not self._children[parent]:
            del self._children[parent]
        for gone in removed:
            self._children.pop(gone, None)
            del self._records[gone]
            del self._parents[gone]
        return removed

    # ------------------------------------------------------------------ remembered branches

    def leaf_from(
        self, message_id: str | None, choices: Mapping[str, str] | None = None
    ) -> str | None:
        """Follow the remembered child (else the newest) from ``message_id`` down to a leaf.

        ``message_id=None`` starts at the roots; ``choices`` defaults to the index's own.
        Returns ``None`` only for an empty tree.
        """
        remembered = self.choices if choices is None else choices
        current = message_id
        if current is None:
            current = self._pick(None, remembered)
            if current is None:
                return None
        while (nxt := self._pick(current, remembered)) is not None:
            current = nxt
        return current

    def _pick(self, parent: str | None, choices: Mapping[str, str]) -> str | None:
        kids = self._children.get(parent)
        if not kids:
            return None
        chosen = choices.get(ROOT_KEY if parent is None else parent)
        return chosen if chosen in kids else kids[-1]

    def active_path(self) -> list[MessageRecord]:
        """The records of the path the user is on: to the active leaf, else to the leaf the
        remembered choices lead to."""
        leaf = self.active_leaf_id if self.active_leaf_id in self else self.leaf_from(None)
        return self.records(self.path_to(leaf)) if leaf else []

    def choose(self, leaf_id: str) -> None:
        """Record ``leaf_id`` as active and the choice at every fork on its path (in memory)."""
        for message_id in self.path_to(leaf_id):
            self.choices[self._parents[message_id] or ROOT_KEY] = message_id
        self.active_leaf_id = leaf_id


def trim_context(path: Sequence[MessageRecord], limit: int) -> list[MessageRecord]:
    """The last ``limit`` non-system records of ``path``, without leading orphans.

    A window must not begin with a tool result whose assistant tool call was cut off, nor with
    an assistant tool call whose results are not all in the window: providers reject both.
    """
    if limit <= 0:
        return []
    window = [record for record in path if record.role != "system"][-limit:]
    start = 0
    while start < len(window):
        head = window[start]
        if head.role == "tool":
            start += 1
            continue
        if head.role == "assistant" and head.tool_calls and start + 1 < len(window):
            wanted = {call.get("id") for call in head.tool_calls}
            answered = {
                record.tool_call_id for record in window[start + 1 :] if record.role == "tool"
            }
            if not wanted <= answered:
                start += 1
                continue
        break
    return window[start:]


class ForkError(ValueError):
    """A fork asked where no message can follow (one sentence for the user)."""


def _in_tool_round(record: MessageRecord) -> bool:
    """A reply that calls tools, or a tool's result: a user message cannot follow it."""
    return record.role == "tool" or (record.role == "assistant" and bool(record.tool_calls))
