"""An in-memory index of one conversation's records, updated in place as records arrive.

The tree widget needs parent/child/sibling look-ups on every key press and incremental updates
while a reply streams, without asking the store (the widget never touches storage). This index
is that: plain dicts, O(1) look-ups, children kept in version order, and no recursion anywhere
(a path can be thousands of records deep).

Opening a 10,000-record conversation shows one path of it, so :meth:`BranchIndex.from_rows`
keeps the database rows as they are and decodes a record (its meta JSON, its timestamp) only
when something asks for it: the shape of the tree (parents, children, versions) is read from
the rows directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from storage.models import MessageRecord
from storage.tree_index import LazyRecords

Row = Sequence[Any]
"""A database row in :data:`storage.codec.MESSAGE_COLUMNS` order."""
_PARENT, _VERSION, _CREATED = 4, 6, 8
"""Positions of ``parent_id``, ``version`` and ``created_at`` in a :data:`Row`."""


class BranchIndex:
    """Children, parents and versions of a conversation's records, keyed by message id.

    ``children(None)`` are the roots. Children are ordered by ``version`` then creation time,
    which is the order the user flips through versions with ``[`` and ``]``.
    """

    def __init__(self, records: Iterable[MessageRecord] = ()) -> None:
        self._records = LazyRecords({})
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
    def from_rows(cls, rows: Iterable[Row]) -> BranchIndex:
        """An index over database rows (see :data:`Row`), decoding each record on first use."""
        index = cls()
        values: dict[str, MessageRecord | Row] = {}
        parents = index._parents
        children = index._children
        unsorted: set[str | None] = set()
        for row in rows:
            message_id, parent = row[0], row[_PARENT]
            values[message_id] = row
            parents[message_id] = parent
            kids = children.get(parent)
            if kids is None:
                children[parent] = [message_id]
            else:
                last = values[kids[-1]]
                if (row[_VERSION], row[_CREATED]) < (last[_VERSION], last[_CREATED]):  # type: ignore[index]
                    unsorted.add(parent)
                kids.append(message_id)
        for parent in unsorted:
            children[parent].sort(key=lambda kid: (values[kid][_VERSION], values[kid][_CREATED]))  # type: ignore[index]
        index._records = LazyRecords(values)
        return index

    def copy(self) -> BranchIndex:
        """An independent index over the same records (decoded rows are shared)."""
        twin = BranchIndex()
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
