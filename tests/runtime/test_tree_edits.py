"""The runtime's tree edits outside a turn: each writes through the store and returns the event
that carries exactly what it wrote, or a ``RunError`` and nothing written; none raises."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.events import BranchCopied, BranchDeleted, RecordSaved, ReplyEdited, RunError
from agents.runtime.tree_edits import KEPT_ON_EDIT, TreeEdits
from storage.sqlite_store import SqliteConversationStore

REPLY_META = st.dictionaries(
    st.sampled_from([*KEPT_ON_EDIT, "usage", "error", "outcome", "thread_id", "latency_ms"]),
    st.text(max_size=8),
    max_size=6,
)


@settings(max_examples=25, deadline=None)
@given(text=st.text(max_size=60), meta=REPLY_META, versions=st.integers(1, 3))
def test_an_edited_reply_is_a_new_sibling_version_as_the_event_carries_it(
    text: str, meta: dict[str, str], versions: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        try:
            conversation = store.create_conversation("ide-helper", "edits")
            user = store.add_message(conversation.id, "user", "question", None)
            replies = [
                store.add_message(conversation.id, "assistant", f"answer {n}", user.id, meta=meta)
                for n in range(versions)
            ]
            edited = replies[0]

            event = TreeEdits(store).edit_reply(edited.id, text)

            assert isinstance(event, ReplyEdited)
            record = event.record
            assert record == store.get_message(record.id)  # the event is the record as stored
            assert (record.role, record.content, record.parent_id) == ("assistant", text, user.id)
            assert record.version == versions + 1
            assert store.get_message(edited.id) == edited  # beside it, never over it
            kept = {k: v for k, v in meta.items() if k in KEPT_ON_EDIT}
            told = {k: v for k, v in record.meta.items() if k != "status"}  # the store's own
            assert told == {**kept, "edited_from": edited.id}
            assert store.active_leaf(conversation.id) == record
        finally:
            store.close()


def test_a_failed_edit_is_one_sentence_and_writes_nothing(
    store: SqliteConversationStore,
) -> None:
    conversation = store.create_conversation("ide-helper", "edits")
    user = store.add_message(conversation.id, "user", "question", None)
    edits = TreeEdits(store)

    for event in (
        edits.edit_reply("no-such-id", "text"),
        edits.edit_reply(user.id, "not a reply"),
        edits.delete("no-such-id"),
        edits.copy_branch("no-such-id"),
        edits.mark_context("no-such-id", "pinned"),
    ):
        assert isinstance(event, RunError)
        assert event.record is None
        assert event.error.user_message
    assert store.list_messages(conversation.id) == [user]
    assert [c.id for c in store.list_conversations()] == [conversation.id]


def test_delete_copy_and_marks_carry_what_they_wrote(store: SqliteConversationStore) -> None:
    conversation = store.create_conversation("ide-helper", "tree")
    user = store.add_message(conversation.id, "user", "question", None)
    first = store.add_message(conversation.id, "assistant", "one", user.id)
    second = store.add_message(conversation.id, "assistant", "two", user.id)
    edits = TreeEdits(store)

    pinned = edits.mark_context(first.id, "pinned")
    assert isinstance(pinned, RecordSaved)
    assert pinned.record == store.get_message(first.id)
    assert pinned.record.meta["context"] == "pinned"

    copied = edits.copy_branch(second.id)
    assert isinstance(copied, BranchCopied)
    assert copied.conversation == store.get_conversation(copied.conversation.id)
    assert copied.copied == len(store.list_messages(copied.conversation.id)) == 2

    deleted = edits.delete(second.id)
    assert isinstance(deleted, BranchDeleted)
    assert deleted.leaf == store.active_leaf(conversation.id)
    assert deleted.leaf is not None
    assert deleted.leaf.id == first.id
    assert [r.id for r in store.list_messages(conversation.id)] == [user.id, first.id]
