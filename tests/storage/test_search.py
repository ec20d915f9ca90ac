"""Full-text search over every branch and conversation, including tool calls, safe for any input."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.models import Conversation, MessageStatus
from storage.search import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, fts_query
from storage.sqlite_store import SqliteConversationStore
from tests.storage.builders import add_tool_round, add_turn, assert_consistent


def test_finds_text_on_every_branch_and_conversation(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, _ = add_turn(store, conversation.id, None, "tell me about pelicans", "Pelicans fish.")
    hidden = store.add_message(conversation.id, "assistant", "A pelican's pouch.", user.id)
    other = store.create_conversation("mediator", "Birds again")
    store.add_message(other.id, "user", "pelican budget?", None)
    store.set_active_leaf(conversation.id, user.id)

    hits = store.search("pelican")
    assert {h.message_id for h in hits} >= {user.id, hidden.id}
    assert {h.conversation_id for h in hits} == {conversation.id, other.id}
    by_id = {h.message_id: h for h in hits}
    assert by_id[hidden.id].role == "assistant"
    assert by_id[hidden.id].conversation_title == "Tree test"
    assert f"{HIGHLIGHT_OPEN}pelican" in by_id[hidden.id].snippet.lower()
    assert HIGHLIGHT_CLOSE in by_id[hidden.id].snippet


def test_finds_tool_call_names_arguments_and_results(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user = store.add_message(conversation.id, "user", "look around", None)
    add_tool_round(
        store,
        conversation.id,
        user.id,
        [("c1", "search_code", {"query": "frobnicate_widget"}, "src/x.py:3: def quux()")],
    )
    call_hits = store.search("frobnicate_widget")
    assert [h.role for h in call_hits] == ["assistant"]
    assert "frobnicate_widget" in call_hits[0].snippet
    assert {h.role for h in store.search("search_code")} == {"assistant", "tool"}
    assert [h.role for h in store.search("quux")] == ["tool"]


def test_all_terms_must_match_and_the_last_is_a_prefix(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    a = store.add_message(conversation.id, "user", "red apples and green pears", None)
    store.add_message(conversation.id, "user", "red cars", None)
    assert [h.message_id for h in store.search("red pea")] == [a.id]
    assert store.search("red pea", limit=0) == []
    assert len(store.search("red")) == 2
    assert len(store.search("red", limit=1)) == 1


@pytest.mark.parametrize(
    "query",
    ['foo"(', '"', "*", "AND", "OR NOT", "NEAR(a b", "content:x", "^start", "-minus", "a+b",
     "\x00", "(((", "'; DROP TABLE messages; --", "ünïcödé 🎉", "x" * 5000, "   ", ""],
)  # fmt: skip
def test_hostile_queries_never_raise(
    store: SqliteConversationStore, conversation: Conversation, query: str
) -> None:
    store.add_message(conversation.id, "user", "plain text with foo and AND words", None)
    assert isinstance(store.search(query), list)
    assert len(store.list_messages(conversation.id)) == 1


def test_quoted_input_is_searched_as_text(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    hit = store.add_message(conversation.id, "user", 'call foo"( now', None)
    assert [h.message_id for h in store.search('foo"(')] == [hit.id]
    assert fts_query('a "b') == '"a" """b"*'
    assert fts_query(" \t ") is None


def test_a_streaming_reply_is_indexed_once_it_finishes_and_deletes_leave_the_index(
    store: SqliteConversationStore, conversation: Conversation, db_path: Path
) -> None:
    user = store.add_message(conversation.id, "user", "q", None)
    reply = store.add_message(conversation.id, "assistant", "", user.id, {"status": "streaming"})
    store.update_message(reply.id, content="partial marmalade")
    assert store.search("marmalade") == []
    store.update_message(reply.id, content="finished marmalade", status=MessageStatus.CANCELLED)
    assert [h.message_id for h in store.search("marmalade")] == [reply.id]
    store.update_message(reply.id, content="edited jam")
    assert store.search("marmalade") == []
    assert len(store.search("jam")) == 1
    assert_consistent(db_path)
    store.delete_branch(user.id)
    assert store.search("jam") == []
    assert_consistent(db_path)


def test_tool_calls_added_by_a_later_update_become_searchable(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    reply = store.add_message(conversation.id, "assistant", "", None, {"status": "streaming"})
    store.update_message(
        reply.id,
        status=MessageStatus.COMPLETE,
        meta={"tool_calls": [{"id": "c9", "name": "list_files", "args": {"pattern": "*.toml"}}]},
    )
    assert [h.message_id for h in store.search("list_files toml")] == [reply.id]


def test_a_few_matches_are_ranked_and_very_many_are_listed_newest_first(
    store: SqliteConversationStore, conversation: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    best = store.add_message(conversation.id, "user", "otter otter otter otter", None)
    weaker = [
        store.add_message(conversation.id, "user", f"an otter and {n} other words", best.id)
        for n in range(4)
    ]
    ranked = [hit.message_id for hit in store.search("otter")]
    assert ranked[0] == best.id  # the most relevant first

    import storage.search

    monkeypatch.setattr(storage.search, "RANKED_MATCHES", 3)
    newest_first = [hit.message_id for hit in store.search("otter")]
    assert newest_first == [r.id for r in reversed(weaker)] + [best.id]
