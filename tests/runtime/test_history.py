"""The path as the model sees it: roles, senders, tool pairs kept whole, empty replies skipped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agents.runtime.history import records_to_messages, turn_messages
from storage.models import MessageRecord, MessageStatus, Role
from storage.sqlite_store import SqliteConversationStore


def _chain(
    store: SqliteConversationStore, profile: str = "paper-pilot"
) -> Callable[..., MessageRecord]:
    conversation = store.create_conversation(profile, "h")
    last: MessageRecord | None = None

    def add(role: Role, content: str, **meta: Any) -> MessageRecord:
        nonlocal last
        last = store.add_message(
            conversation.id, role, content, last.id if last else None, meta=meta or None
        )
        return last

    return add


def test_roles_and_tool_pairs(store: SqliteConversationStore) -> None:
    add = _chain(store)
    add("user", "find BM25")
    add(
        "assistant",
        "",
        tool_calls=[{"id": "c1", "name": "search_knowledge_base", "args": {"query": "BM25"}}],
    )
    add("tool", "BM25 ranks passages", tool_call_id="c1", name="search_knowledge_base", error=None)
    add("assistant", "BM25 is a ranking function.")
    user = add("user", "thanks")

    messages = turn_messages(store, user.id, 20)

    assert [type(m) for m in messages] == [
        HumanMessage,
        AIMessage,
        ToolMessage,
        AIMessage,
        HumanMessage,
    ]
    call, result = messages[1], messages[2]
    assert isinstance(call, AIMessage)
    assert isinstance(result, ToolMessage)
    assert call.tool_calls[0]["id"] == "c1"
    assert call.tool_calls[0]["args"] == {"query": "BM25"}
    assert result.tool_call_id == "c1"
    assert result.status == "success"


def test_a_tool_call_without_results_is_sent_without_the_call(
    store: SqliteConversationStore,
) -> None:
    add = _chain(store)
    add("user", "search")
    add(
        "assistant",
        "Searching now.",
        tool_calls=[{"id": "lost", "name": "search_knowledge_base", "args": {}}],
        status=MessageStatus.CANCELLED.value,
    )
    user = add("user", "never mind")

    messages = turn_messages(store, user.id, 20)

    assert [type(m) for m in messages] == [HumanMessage, AIMessage, HumanMessage]
    assert messages[1].content == "Searching now."
    assert isinstance(messages[1], AIMessage)
    assert messages[1].tool_calls == []


def test_a_tool_result_whose_call_was_cut_off_is_dropped(store: SqliteConversationStore) -> None:
    add = _chain(store)
    add("user", "q")
    call = add("assistant", "", tool_calls=[{"id": "c9", "name": "x", "args": {}}])
    tool = add("tool", "result", tool_call_id="c9", name="x")
    records = [store.get_message(tool.id)]  # a window that starts on the tool record

    assert records_to_messages(records) == []
    assert len(records_to_messages([store.get_message(call.id), *records])) == 2


def test_cancelled_and_error_replies_count_as_said_but_empty_ones_are_skipped(
    store: SqliteConversationStore,
) -> None:
    add = _chain(store)
    add("user", "one")
    add("assistant", "half an ans", status=MessageStatus.CANCELLED.value)
    add("user", "two")
    add("assistant", "", status=MessageStatus.ERROR.value, error="The server failed.")
    user = add("user", "three")

    contents = [m.content for m in turn_messages(store, user.id, 20)]

    assert contents == ["one", "half an ans", "two", "three"]


def test_mediator_messages_name_the_sender(store: SqliteConversationStore) -> None:
    add = _chain(store, "mediator")
    add("user", "I want to save more.", sender="Alex", visibility="shared")
    user = add("user", "I think we save enough.", sender="Sam", visibility="shared")

    said = [(m.name, m.content) for m in turn_messages(store, user.id, 20)]

    assert said == [("Alex", "I want to save more."), ("Sam", "I think we save enough.")]


def test_a_speaker_name_is_sent_in_the_characters_the_apis_accept(
    store: SqliteConversationStore,
) -> None:
    add = _chain(store, "mediator")
    user = add("user", "Hello.", sender="Mary Jane", visibility="shared")

    (message,) = turn_messages(store, user.id, 20)

    assert (message.name, message.content) == ("Mary_Jane", "Hello.")
