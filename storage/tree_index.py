"""An in-memory index of one conversation's message tree, for the UI.

The tree browser and the chat view ask "children of X", "versions of X", "path to X" many
times per key press; answering from dicts built once (from a single query, see
:meth:`storage.sqlite_store.SqliteConversationStore.tree_index`) keeps that off the database.
Pure Python, no I/O: rebuild or :meth:`TreeIndex.add` when the store changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from storage.codec import row_to_message
from storage.models import MessageRecord

ROOT_KEY = ""
"""The ``choices`` key for the choice among a conversation's root records."""


class LazyRecords(MutableMapping[str, MessageRecord]):
    """Records by id, held as decoded records or as database rows decoded on first use.

    Opening a 10,000-record conversation should not pay for parsing 10,000 meta JSON texts
    when the screen shows the active path and the few tree lines in view. Copies
    (:meth:`copy`) are independent maps that share the decoded rows (row -> record, checked by
    identity), so two indexes over one conversation never decode the same row twice.
    """

    __slots__ = ("_decode", "_decoded", "_values")

    def __init__(
        self,
        values: dict[str, MessageRecord | tuple[Any, ...]],
        decoded: dict[str, tuple[Any, MessageRecord]] | None = None,
        decode: Callable[[Any], MessageRecord] = row_to_message,
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

    @property
    def decoded_count(self) -> int:
        """How many rows were decoded so far (shared by copies)."""
        return len(self._decoded)

    def copy(self) -> LazyRecords:
        """An independent map over the same values, sharing the decoded rows."""
        return LazyRecords(dict(self._values), self._decoded, self._decode)


@dataclass(slots=True)
class TreeIndex:
    """Records by id, children by parent (ordered by version), and the remembered choices.

    ``choices`` maps a parent id (or :data:`ROOT_KEY` for the roots) to the child chosen there
    last; ``active_leaf_id`` is where the user was.
    """

    records: MutableMapping[str, MessageRecord] = field(default_factory=dict)
    children_of: dict[str | None, list[str]] = field(default_factory=dict)
    choices: dict[str, str] = field(default_factory=dict)
    active_leaf_id: str | None = None

    @classmethod
    def build(
        cls,
        records: Iterable[MessageRecord],
        choices: Mapping[str, str] | None = None,
        active_leaf_id: str | None = None,
    ) -> TreeIndex:
        index = cls(choices=dict(choices or {}), active_leaf_id=active_leaf_id)
        by_id = index.records
        children: dict[str | None, list[MessageRecord]] = {}
        for record in records:
            by_id[record.id] = record
            children.setdefault(record.parent_id, []).append(record)
        for parent, kids in children.items():
            kids.sort(key=lambda r: (r.version, r.created_at))
            index.children_of[parent] = [kid.id for kid in kids]
        return index

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[tuple[Any, ...]],
        choices: Mapping[str, str] | None = None,
        active_leaf_id: str | None = None,
    ) -> TreeIndex:
        """Build from rows in :data:`storage.codec.MESSAGE_COLUMNS` order, decoding lazily.

        Only ids, parents and versions are read now; a record is decoded on first use. Rows
        already ordered by (parent, version), as the store's index returns them, skip the sort.
        """
        by_id: dict[str, tuple[Any, ...]] = {}
        children: dict[str | None, list[str]] = {}
        last: dict[str | None, int] = {}
        unsorted: set[str | None] = set()
        for row in rows:
            msg_id, parent, version = row[0], row[4], row[6]
            by_id[msg_id] = row
            kids = children.get(parent)
            if kids is None:
                children[parent] = [msg_id]
            else:
                kids.append(msg_id)
                if version < last[parent]:
                    unsorted.add(parent)
            last[parent] = version
        for parent in unsorted:
            children[parent].sort(key=lambda kid: (by_id[kid][6], by_id[kid][8]))
        values = cast("dict[str, MessageRecord | tuple[Any, ...]]", by_id)  # rows only, so far
        return cls(LazyRecords(values), children, dict(choices or {}), active_leaf_id)

    def __len__(self) -> int:
        return len(self.records)

    def __contains__(self, message_id: object) -> bool:
        return message_id in self.records

    def add(self, record: MessageRecord) -> None:
        """Insert a record written after the build (it becomes its parent's newest child)."""
        self.records[record.id] = record
        kids = self.children_of.setdefault(record.parent_id, [])
        if record.id not in kids:
            kids.append(record.id)
            kids.sort(key=lambda kid: self.records[kid].version)

    def get(self, message_id: str) -> MessageRecord:
        return self.records[message_id]

    def parent(self, message_id: str) -> str | None:
        return self.records[message_id].parent_id

    def roots(self) -> list[MessageRecord]:
        return [self.records[kid] for kid in self.children_of.get(None, [])]

    def children(self, message_id: str | None) -> list[MessageRecord]:
        return [self.records[kid] for kid in self.children_of.get(message_id, [])]

    def siblings(self, message_id: str) -> list[MessageRecord]:
        """The record and its sibling versions, ordered by version."""
        return self.children(self.records[message_id].parent_id)

    def path_to(self, message_id: str) -> list[MessageRecord]:
        """Root first, ``message_id`` last."""
        path: list[MessageRecord] = []
        current: str | None = message_id
        while current is not None:
            record = self.records[current]
            path.append(record)
            current = record.parent_id
        path.reverse()
        return path

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
        kids = self.children_of.get(parent)
        if not kids:
            return None
        chosen = choices.get(ROOT_KEY if parent is None else parent)
        return chosen if chosen in kids else kids[-1]

    def active_path(self) -> list[MessageRecord]:
        """The path the user is on: to the active leaf, else to the remembered leaf."""
        leaf = self.active_leaf_id if self.active_leaf_id in self.records else self.leaf_from(None)
        return self.path_to(leaf) if leaf else []

    def choose(self, leaf_id: str) -> None:
        """Record ``leaf_id`` as active and the choice at every fork on its path (in memory)."""
        for record in self.path_to(leaf_id):
            self.choices[record.parent_id or ROOT_KEY] = record.id
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
