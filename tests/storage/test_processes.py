"""Nothing is lost: a reply killed mid-stream, and two processes writing one file at once."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from storage.models import Conversation, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.storage.builders import assert_consistent
from tests.storage.processes import Child

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


@posix_only
def test_sigkill_mid_stream_leaves_a_consistent_file_and_the_partial_reply(
    store: SqliteConversationStore, conversation: Conversation, db_path: Path
) -> None:
    child = Child("stream", str(db_path), conversation.id)
    try:
        ids = child.wait_for("reply")
        flushed = child.wait_for("flushed", at_least=25)["flushed"]
        os.kill(child.process.pid, signal.SIGKILL)
    finally:
        child.kill()
    assert child.process.returncode == -signal.SIGKILL

    assert_consistent(db_path)
    with SqliteConversationStore(db_path) as reopened:
        user = reopened.get_message(ids["user"])
        reply = reopened.get_message(ids["reply"])
        assert user.content == "tell me a long story"
        assert reply.status is MessageStatus.STREAMING
        assert reply.content.startswith("token0 token1 ")
        assert len(reply.content.split()) >= flushed  # every acknowledged flush is on disk
        assert reopened.active_leaf(conversation.id) == reply

        assert reopened.mark_interrupted_replies() == [reply.id]
        marked = reopened.get_message(reply.id)
        assert marked.status is MessageStatus.CANCELLED
        assert marked.meta["interrupted"] is True
        assert marked.content == reply.content
        assert reopened.mark_interrupted_replies() == []
        assert [h.message_id for h in reopened.search("token3")] == [reply.id]
    assert_consistent(db_path)


@posix_only
def test_a_reply_still_streaming_in_a_live_process_is_not_marked(
    store: SqliteConversationStore, conversation: Conversation, db_path: Path
) -> None:
    child = Child("stream", str(db_path), conversation.id, "3")
    try:
        ids = child.wait_for("reply")
        child.wait_for("flushed", at_least=3)
        assert store.mark_interrupted_replies() == []
        assert store.get_message(ids["reply"]).status is MessageStatus.STREAMING
        assert child.finish() == 0
    finally:
        child.kill()
    assert store.mark_interrupted_replies(conversation.id) == [ids["reply"]]


def test_a_leftover_of_this_process_is_marked(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    reply = store.add_message(conversation.id, "assistant", "half", None, {"status": "streaming"})
    other = store.create_conversation("mediator")
    store.add_message(other.id, "assistant", "other", None, {"status": "streaming"})
    assert store.mark_interrupted_replies(conversation.id) == [reply.id]
    assert store.get_message(reply.id).meta == {
        "status": "cancelled", "interrupted": True,
    }  # fmt: skip


def test_two_writer_processes_on_one_file_lose_nothing(
    store: SqliteConversationStore, conversation: Conversation, db_path: Path
) -> None:
    shared = store.add_message(conversation.id, "user", "shared parent", None)
    count = 120
    writers = [
        Child("append", str(db_path), conversation.id, shared.id, str(count), tag) for tag in "AB"
    ]
    try:
        for writer in writers:
            writer.wait_for("ready")
        for writer in writers:
            writer.send("go\n")
        for writer in writers:
            assert writer.wait_for("done")["done"] == count
            assert writer.finish() == 0, (
                writer.process.stderr.read() if writer.process.stderr else ""
            )
    finally:
        for writer in writers:
            writer.kill()

    assert_consistent(db_path)
    records = store.list_messages(conversation.id)
    assert len(records) == 1 + 2 * count
    versions = [r.version for r in store.children(shared.id, conversation.id)]
    # count // 2 versions and the start of its own chain from each writer, none duplicated
    assert sorted(versions) == list(range(1, count + 3))
    for tag in "AB":
        chain = [r for r in records if r.content.startswith(f"{tag} chain")]
        assert len(chain) == count // 2
        assert all(r.status is MessageStatus.COMPLETE and r.content.endswith("done") for r in chain)
        assert sorted(r.depth for r in chain) == list(range(1, count // 2 + 1))
