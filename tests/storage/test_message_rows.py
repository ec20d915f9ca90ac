"""``message_rows``: every record of one conversation as an undecoded row, decoding to exactly
what ``list_messages`` returns (the chat decodes rows only when it shows them)."""

from __future__ import annotations

from storage.codec import row_to_message
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore


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
    decoded = sorted((row_to_message(row) for row in rows), key=lambda r: r.id)
    assert decoded == sorted(store.list_messages(conversation.id), key=lambda r: r.id)
    by_id = {record.id: record for record in decoded}
    assert by_id[reply.id].status.value == "error" and by_id[reply.id].meta["provider"] == "p"
    assert store.message_rows("no-such-conversation") == []
