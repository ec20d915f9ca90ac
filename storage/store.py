"""The storage interface every upper layer depends on.

Two implementations: the SQLite file (:mod:`storage.sqlite_store`) and a PostgreSQL server
(:mod:`storage.pg_store`), held to the same protocol by the contract suite in
``tests/storage/test_interface*.py``, which runs against every store factory the tests list;
:mod:`storage.backend` opens the one the storage settings choose. Records go out typed: a
:class:`storage.models.MessageRecord`, or a :class:`storage.rows.MessageRow` where decoding can
wait. All methods are synchronous: SQLite answers in well under a millisecond for the
operations here, and callers in an event loop may wrap the heavier ones (search, import) in a
thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from storage.audience import Viewer
from storage.models import AcceptedPatch, Conversation, MessageRecord, MessageStatus, Role
from storage.rows import MessageRow


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A full-text search match: the record, its conversation, and a highlighted snippet."""

    conversation_id: str
    conversation_title: str
    message_id: str
    role: Role
    snippet: str


class StorageError(Exception):
    """A storage failure explained in one sentence (``str(err)``) that a user can act on."""


class NotFoundError(StorageError):
    """A conversation or message id that does not exist."""


class ConversationStore(Protocol):
    # conversations
    def create_conversation(
        self, profile: str, title: str = "New conversation", meta: dict[str, Any] | None = None
    ) -> Conversation: ...
    def get_conversation(self, conversation_id: str) -> Conversation: ...
    def list_conversations(
        self, profile: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[Conversation]:
        """Newest ``updated_at`` first: ``limit`` of them (all when ``None``) after the first
        ``offset``, so a list can show a page at a time however big the store grows."""
        ...

    def count_conversations(self, profile: str | None = None) -> int:
        """How many conversations there are (of ``profile``)."""
        ...

    def recent_prompts(self, profile: str, limit: int = 200) -> list[str]:
        """The user's last distinct messages to ``profile``, newest first."""
        ...

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation: ...
    def update_conversation_meta(self, conversation_id: str, **meta: Any) -> Conversation: ...
    def delete_conversation(self, conversation_id: str) -> None: ...

    # messages
    def add_message(
        self,
        conversation_id: str,
        role: Role,
        content: str,
        parent_id: str | None,
        meta: dict[str, Any] | None = None,
    ) -> MessageRecord:
        """Commit a new record (depth and version computed) and make it the active leaf."""
        ...

    def update_message(
        self,
        message_id: str,
        *,
        content: str | None = None,
        meta: dict[str, Any] | None = None,
        status: MessageStatus | None = None,
    ) -> MessageRecord:
        """Replace content and/or merge ``meta`` keys; used to flush a streaming reply."""
        ...

    def get_message(self, message_id: str) -> MessageRecord: ...
    def list_messages(self, conversation_id: str) -> list[MessageRecord]:
        """Every record of the conversation, ordered by (depth, created_at)."""
        ...

    def message_rows(self, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]:
        """Every record as an undecoded :class:`MessageRow` (any order of rows; none for an
        unknown conversation), decoded when read with :meth:`MessageRow.record`. With a
        ``viewer`` (:mod:`storage.audience`) only the records they may read, each with its
        nearest readable ancestor as ``parent_id``."""
        ...

    def write_mark(self) -> int:
        """A mark of every record written so far (new records come after it)."""
        ...

    def rows_written_after(self, conversation_id: str, mark: int) -> tuple[list[MessageRow], int]:
        """The conversation's records written after ``mark`` (by any process), oldest first,
        and the mark to ask from next time: a front end follows what others write without
        reading the whole conversation again."""
        ...

    def children(self, message_id: str | None, conversation_id: str) -> list[MessageRecord]:
        """Children ordered by version; ``message_id=None`` gives the roots."""
        ...

    def siblings(self, message_id: str) -> list[MessageRecord]:
        """The record and its siblings (same parent), ordered by version."""
        ...

    def path_to_root(self, message_id: str, viewer: Viewer = None) -> list[MessageRecord]:
        """Root first, ``message_id`` last; with a ``viewer`` only the records of the path
        they may read."""
        ...

    def path_tail(self, leaf_id: str, limit: int) -> list[tuple[MessageRecord, int, int]]:
        """The last ``limit`` records of the path to ``leaf_id`` (root side first), each with
        its version among its siblings (from 1, in version then creation order) and their
        count: what a view needs to draw the bottom of a long path before reading it all."""
        ...

    def context_window(self, leaf_id: str, limit: int = 20) -> list[MessageRecord]:
        """The last ``limit`` records on the path to ``leaf_id``, without system records, never
        starting on a tool record whose assistant tool call was cut off."""
        ...

    def latest_leaf(self, message_id: str) -> MessageRecord:
        """Follow the remembered (else newest) child from ``message_id`` down to a leaf."""
        ...

    def set_active_leaf(self, conversation_id: str, message_id: str) -> None:
        """Remember ``message_id`` as where the user is, and at every fork on its path which
        child was chosen, so reopening and :meth:`latest_leaf` return to this branch."""
        ...

    def active_leaf(self, conversation_id: str) -> MessageRecord | None: ...
    def delete_branch(self, message_id: str) -> None:
        """Delete the record and all its descendants; the active leaf moves to a survivor."""
        ...

    def mark_interrupted_replies(self, conversation_id: str | None = None) -> list[str]:
        """Mark the replies a dead process left ``streaming`` (in one conversation, or all)
        cancelled and interrupted; a reply a live process streams is left alone. Returns the
        ids marked."""
        ...

    # search and interchange
    def search(self, query: str, limit: int = 50, viewer: Viewer = None) -> list[SearchHit]:
        """With a ``viewer``, a shared space's records only when they may read them."""
        ...

    def export_markdown(
        self, conversation_id: str, leaf_id: str | None = None, viewer: Viewer = None
    ) -> str:
        """The path to ``leaf_id`` (default: the active leaf) as Markdown; with a ``viewer``
        only the records of it they may read."""
        ...

    def export_jsonl(self, conversation_id: str, directory: Path, viewer: Viewer = None) -> Path:
        """Write ``meta.json`` + ``messages.jsonl`` (see :mod:`storage.export`) into
        ``directory``; with a ``viewer``, the tree they may read."""
        ...

    def import_jsonl(self, directory: Path) -> Conversation: ...

    # patches accepted here (see storage.accepted_patches): never exported nor imported
    def accept_patch(
        self,
        record_id: str,
        patch_id: str,
        path: str,
        base_sha256: str | None,
        new_sha256: str,
    ) -> None: ...
    def accepted_patches(self, record_ids: Sequence[str]) -> dict[str, AcceptedPatch]: ...
    def copy_accepted_patches(self, copies: Mapping[str, str]) -> None: ...
    def close(self) -> None: ...


__all__: Sequence[str] = [
    "ConversationStore",
    "NotFoundError",
    "SearchHit",
    "StorageError",
]
