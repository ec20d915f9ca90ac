"""Sessions on one conversation each keep their own leaf; paging lists every session once.

Generated runs of prompts and forks across several sessions of one conversation, on a real
SQLite store, with each session's placement read back from the store before each use (as an
agent restarted between prompts would): every message goes below its own session's leaf,
whatever the others did, and a fork at a user message makes a sibling of it.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from acp import RequestError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.runtime.user_message import NewMessage, store_user_message
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.core.acp_agent.session_leaves import (
    Placement,
    fork_placement,
    leaf_key,
    remembered,
    sessions_of,
)
from weaver_tui.core.acp_agent.session_list import page

Step = tuple[str, int, int]
steps = st.lists(
    st.tuples(st.sampled_from(["prompt", "fork"]), st.integers(0, 7), st.integers(0, 63)),
    min_size=1,
    max_size=14,
)


def _prompt(
    store: SqliteConversationStore, conversation_id: str, session: str, text: str
) -> tuple[str, str | None, str]:
    """One turn of ``session`` as the agent runs it; returns (user id, its parent, reply id)."""
    placement = remembered(store.get_conversation(conversation_id), session)
    stored = store_user_message(
        store,
        NewMessage(
            profile="paper-pilot",
            text=text,
            conversation_id=conversation_id,
            parent_id=placement.leaf_id,
            at_active_leaf=not placement.placed,
        ),
    )
    reply = store.add_message(conversation_id, "assistant", f"re: {text}", stored.record.id)
    store.update_conversation_meta(
        conversation_id, **{leaf_key(session): Placement(True, reply.id).stored()}
    )
    return stored.record.id, stored.record.parent_id, reply.id


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(run=steps)
def test_each_session_continues_from_its_own_leaf(tmp_path: Path, run: list[Step]) -> None:
    with SqliteConversationStore(tmp_path / f"{uuid.uuid4().hex}.db") as store:
        conversation = store.create_conversation("paper-pilot", "Tree")
        user, _, reply = _prompt(store, conversation.id, "s0", "first")
        expected: dict[str, str | None] = {"s0": reply}
        records = [user, reply]
        for number, (kind, who, which) in enumerate(run):
            sessions = sorted(expected)
            session = sessions[who % len(sessions)]
            if kind == "prompt":
                # the app (or anything) may move the active leaf: a placed session ignores it
                store.set_active_leaf(conversation.id, records[which % len(records)])
                user, parent, reply = _prompt(store, conversation.id, session, f"m{number}")
                assert parent == expected[session]
                expected[session] = reply
                records += [user, reply]
            else:
                record = store.get_message(records[which % len(records)])
                placement = fork_placement(record)
                fork = f"s{len(expected)}"
                store.update_conversation_meta(
                    conversation.id, **{leaf_key(fork): placement.stored()}
                )
                expected[fork] = placement.leaf_id
                if record.role == "user":
                    user, parent, reply = _prompt(store, conversation.id, fork, f"v{number}")
                    assert parent == record.parent_id  # a sibling of the forked-at message
                    assert store.get_message(user).version > 1
                    expected[fork] = reply
        stored = store.get_conversation(conversation.id)
        assert sorted(sessions_of(stored)) == sorted(expected)
        for session, leaf in expected.items():
            assert remembered(stored, session) == Placement(True, leaf)


def test_a_value_this_module_did_not_write_leaves_the_session_unplaced(
    store: SqliteConversationStore,
) -> None:
    conversation = store.create_conversation(
        "paper-pilot", "Tree", meta={leaf_key("a"): "m1", leaf_key("b"): {"leaf": 3}}
    )
    assert remembered(conversation, "a") == Placement()
    assert remembered(conversation, "b") == Placement()
    assert remembered(conversation, "c") == Placement()


@settings(max_examples=150, deadline=None)
@given(count=st.integers(0, 130), size=st.integers(1, 60))
def test_following_cursors_lists_every_item_once_in_order(count: int, size: int) -> None:
    items = list(range(count))
    seen: list[int] = []
    chunk, cursor = page(items, None, size)
    seen += chunk
    while cursor is not None:
        chunk, cursor = page(items, cursor, size)
        assert chunk
        seen += chunk
    assert seen == items


def _well_formed(cursor: str) -> bool:
    digits = cursor.removeprefix("after:")
    return cursor.startswith("after:") and digits.isascii() and digits.isdigit()


@settings(max_examples=150, deadline=None)
@given(cursor=st.text(max_size=30) | st.from_regex(r"after:[0-9]{1,3}", fullmatch=True))
def test_only_a_cursor_the_agent_gives_is_taken(cursor: str) -> None:
    if not _well_formed(cursor):
        with pytest.raises(RequestError, match="cursor") as refused:
            page(list(range(10)), cursor, 3)
        assert "\n" not in str(refused.value)
        return
    start = int(cursor.removeprefix("after:"))
    chunk, _ = page(list(range(10)), cursor, 3)
    assert chunk == list(range(10))[start : start + 3]


@pytest.mark.parametrize("cursor", ["after:-1", "after:", "after:１２", "after:99999999999999"])
def test_reported_bad_cursors(cursor: str) -> None:
    with pytest.raises(RequestError):
        page([1, 2, 3], cursor)
