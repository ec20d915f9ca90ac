"""The context window: the last N records of a path, never splitting a tool call from its results."""

from __future__ import annotations

from storage.models import Conversation, Role
from storage.sqlite_store import SqliteConversationStore
from tests.storage.builders import add_tool_round, add_turn


def _chain(store: SqliteConversationStore, conversation_id: str, turns: int) -> str:
    parent = store.add_message(conversation_id, "system", "system prompt", None).id
    for i in range(turns):
        _, reply = add_turn(store, conversation_id, parent, f"q{i}", f"a{i}")
        parent = reply.id
    return parent


def test_last_n_records_without_system(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    leaf = _chain(store, conversation.id, 15)
    window = store.context_window(leaf, limit=20)
    assert len(window) == 20
    assert [r.content for r in window[:2]] == ["q5", "a5"]
    assert window[-1].id == leaf
    assert all(r.role != "system" for r in window)
    whole = store.context_window(leaf, limit=100)
    assert len(whole) == 30
    assert whole[0].content == "q0"


def test_only_the_requested_branch_is_in_the_window(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, _ = add_turn(store, conversation.id, None, "q", "first version")
    other = store.add_message(conversation.id, "assistant", "second version", user.id)
    assert [r.content for r in store.context_window(other.id)] == ["q", "second version"]


def test_a_tool_result_whose_call_was_cut_off_is_dropped(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user = store.add_message(conversation.id, "user", "list and read", None)
    last_tool = add_tool_round(
        store,
        conversation.id,
        user.id,
        [
            ("c1", "list_files", {"directory": "."}, "a.py\nb.py"),
            ("c2", "read_file", {"path": "a.py"}, "print('a')"),
        ],
    )
    answer = store.add_message(conversation.id, "assistant", "a.py prints a", last_tool.id)
    # Path: user, call(c1,c2), tool c1, tool c2, answer. Limits that would start mid-pair:
    assert [r.role for r in store.context_window(answer.id, limit=2)] == ["assistant"]
    assert [r.role for r in store.context_window(answer.id, limit=3)] == ["assistant"]
    window = store.context_window(answer.id, limit=4)
    assert [r.role for r in window] == ["assistant", "tool", "tool", "assistant"]
    assert window[0].tool_calls[0]["name"] == "list_files"
    assert len(store.context_window(answer.id, limit=5)) == 5


def test_a_call_whose_results_are_missing_is_not_the_window_start(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user = store.add_message(conversation.id, "user", "q", None)
    call = store.add_message(
        conversation.id,
        "assistant",
        "",
        user.id,
        {
            "tool_calls": [
                {"id": "c1", "name": "a", "args": {}},
                {"id": "c2", "name": "b", "args": {}},
            ]
        },
    )
    only_one = store.add_message(conversation.id, "tool", "out", call.id, {"tool_call_id": "c1"})
    retry = store.add_message(conversation.id, "user", "try again", only_one.id)
    assert [r.id for r in store.context_window(retry.id, limit=3)] == [retry.id]
    # ...while a call at the very end (results still to come) is kept.
    assert store.context_window(call.id, limit=1) == [call]


def test_a_deep_path_walks_only_as_far_as_needed(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    parent = None
    for i in range(300):
        role: Role = "system" if i % 3 == 0 else "user"
        parent = store.add_message(conversation.id, role, f"m{i}", parent.id if parent else None)
    assert parent is not None
    window = store.context_window(parent.id, limit=50)
    assert len(window) == 50
    assert all(r.role == "user" for r in window)
    assert window[-1].id == parent.id
    assert store.context_window(parent.id, limit=0) == []
