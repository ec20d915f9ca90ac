"""An in-memory index of one conversation's records, updated in place as records arrive.

The tree widget needs parent/child/sibling look-ups on every key press and incremental updates
while a reply streams, without asking the store (the widget never touches storage). This index
is that: plain dicts, O(1) look-ups, children kept in version order, and no recursion anywhere
(a path can be thousands of records deep).
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.models import MessageRecord


class BranchIndex:
    """Children, parents and versions of a conversation's records, keyed by message id.

    ``children(None)`` are the roots. Children are ordered by ``version`` then creation time,
    which is the order the user flips through versions with ``[`` and ``]``.
    """

    def __init__(self, records: Iterable[MessageRecord] = ()) -> None:
        self._records: dict[str, MessageRecord] = {}
        self._children: dict[str | None, list[str]] = {}
        self._sizes: dict[str, int] | None = None
        """Descendant counts, computed for all records at once when first asked for."""
        self.shape_version = 0
        """Bumped whenever a record is added or removed (not when one is updated), so callers
        can cache answers that depend only on the tree's shape (its leaves, for example)."""
        # siblings share a depth, so this order leaves every children list in version order
        for record in sorted(records, key=lambda r: (r.depth, r.version, r.created_at)):
            self._records[record.id] = record
            self._children.setdefault(record.parent_id, []).append(record.id)

    def _order(self, message_id: str) -> tuple[int, object]:
        record = self._records[message_id]
        return (record.version, record.created_at)

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._records

    def __len__(self) -> int:
        return len(self._records)

    def get(self, message_id: str) -> MessageRecord:
        return self._records[message_id]

    def children(self, message_id: str | None) -> list[str]:
        """Child ids of ``message_id`` (the roots for ``None``), in version order."""
        return self._children.get(message_id, [])

    def parent(self, message_id: str) -> str | None:
        return self._records[message_id].parent_id

    def siblings(self, message_id: str) -> list[str]:
        """``message_id`` and its sibling versions, in version order."""
        return self.children(self.parent(message_id))

    def version_of(self, message_id: str) -> tuple[int, int]:
        """(position among its siblings from 1, number of siblings)."""
        siblings = self.siblings(message_id)
        return siblings.index(message_id) + 1, len(siblings)

    def path_to(self, message_id: str) -> list[str]:
        """Ids from the root down to ``message_id`` inclusive."""
        path: list[str] = []
        current: str | None = message_id
        while current is not None:
            path.append(current)
            current = self._records[current].parent_id
        path.reverse()
        return path

    def descendant_count(self, message_id: str) -> int:
        """How many records hang below ``message_id`` (shown on a collapsed branch)."""
        if self._sizes is None:
            sizes: dict[str, int] = dict.fromkeys(self._records, 0)
            deepest_first = sorted(self._records.values(), key=lambda r: r.depth, reverse=True)
            for record in deepest_first:
                if record.parent_id is not None:
                    sizes[record.parent_id] += sizes[record.id] + 1
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
            record = self._records[current]
            if record.role == role:
                return current
            current = record.parent_id
        return None

    def add(self, record: MessageRecord) -> None:
        """Insert a new record (or replace one with the same id) keeping version order."""
        if record.id in self._records:
            self.update(record)
            return
        self._records[record.id] = record
        self._sizes = None
        self.shape_version += 1
        kids = self._children.setdefault(record.parent_id, [])
        kids.append(record.id)
        kids.sort(key=self._order)

    def update(self, record: MessageRecord) -> None:
        """Replace a record's content/meta; its place in the tree does not change."""
        self._records[record.id] = record

    def remove_branch(self, message_id: str) -> list[str]:
        """Forget ``message_id`` and its descendants; returns the ids removed."""
        removed = self.subtree(message_id)
        self._sizes = None
        self.shape_version += 1
        parent = self._records[message_id].parent_id
        self._children[parent].remove(message_id)
        if not self._children[parent]:
            del self._children[parent]
        for gone in removed:
            self._children.pop(gone, None)
            del self._records[gone]
        return removed
