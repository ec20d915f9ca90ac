"""``message_rows``: every record of one conversation as an undecoded, typed row, decoding to
exactly what ``list_messages`` returns (the chat decodes rows only when it shows them)."""

from __future__ import annotations

from storage.models import Conversation
from storage.rows import MessageRow
from storage.sqlite_store import SqliteConversationStore
from storage.tree_index import TreeIndex


def test_rows_decode_to_the_records_of_the_conversation_only(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "hello", None)
    reply = store.add_message(
        conversation.id, "assistant", "hi", root.id, {"provider": "p", "status": "error"}
    )
    store.add_message(conversation.id, "assistant", "hi again", root.id)
    other = store.create_conversation(conversation.profile, "Other")
    store.add_message(other.id, "user", "elsewhere", None)
    rows = store.message_rows(conversation.id)
    decoded = sorted((row.record() for row in rows), key=lambda r: r.id)
    assert decoded == sorted(store.list_messages(conversation.id), key=lambda r: r.id)
    by_id = {record.id: record for record in decoded}
    assert by_id[reply.id].status.value == "error"
    assert by_id[reply.id].meta["provider"] == "p"
    assert store.message_rows("no-such-conversation") == []


def test_rows_carry_the_stored_fields_by_name_with_meta_undecoded(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "hello", None)
    reply = store.add_message(conversation.id, "assistant", "hi", root.id, {"model": "m"})
    row = next(row for row in store.message_rows(conversation.id) if row.id == reply.id)
    assert isinstance(row, MessageRow)
    assert (row.conversation_id, row.role, row.content) == (conversation.id, "assistant", "hi")
    assert (row.parent_id, row.depth, row.version, row.status) == (root.id, 1, 1, "complete")
    assert isinstance(row.meta, str)
    assert '"model"' in row.meta
    assert "status" not in row.meta
    assert isinstance(row.created_at, str)
    assert row.created_at.endswith("Z")
    assert row.record() == reply


def test_the_index_over_rows_in_any_order_keeps_versions_in_order(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "q", None)
    versions = [
        store.add_message(conversation.id, "assistant", f"v{n}", root.id) for n in (1, 2, 3)
    ]
    rows = store.message_rows(conversation.id)
    for ordered in (rows, rows[::-1]):
        index = TreeIndex.from_rows(ordered)
        assert index.children(root.id) == [record.id for record in versions]
        assert index.decoded_count == 0


def test_peek_reads_a_record_without_keeping_it_decoded(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "q", None)
    reply = store.add_message(conversation.id, "assistant", "a", root.id, {"model": "m"})
    index = TreeIndex.from_rows(store.message_rows(conversation.id))
    assert index.peek(reply.id) == reply
    assert index.decoded_count == 0
    kept = index.get(reply.id)
    assert index.peek(reply.id) is kept  # a record decoded already is the one handed out
    assert index.decoded_count == 1
