"""Forking never puts a question below a question: a new user message sent as a fork at any
record of any tree is that record's sibling when it is a user message and its child otherwise,
so versions (siblings) only ever group messages of one role."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.sqlite_store import SqliteConversationStore
from storage.tree_index import ForkError

# Each step answers a question below an earlier record (its index among those added so far):
# with a reply, a tool round that ends in a reply, or a tool round with no reply yet.
steps = st.lists(
    st.tuples(st.integers(min_value=0, max_value=30), st.sampled_from(["reply", "tool", "open"])),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(shape=steps, fork_at=st.integers(min_value=0, max_value=60))
def test_a_fork_at_any_record_keeps_each_set_of_versions_to_one_role(
    tmp_path_factory: object, shape: list[tuple[int, str]], fork_at: int
) -> None:
    folder = Path(str(tmp_path_factory.mktemp("fork")))  # type: ignore[attr-defined]
    with SqliteConversationStore(folder / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper")
        first = store.add_message(conversation.id, "user", "first question", None)
        records, answers = [first], [first.parent_id]  # a question follows a reply, or is a root
        unfinished: set[str] = set()  # records of tool rounds that have no reply yet
        for pick, kind in shape:
            after = answers[pick % len(answers)]
            question = store.add_message(conversation.id, "user", "next", after)
            records.append(question)
            if kind == "reply":
                reply = store.add_message(conversation.id, "assistant", "ok", question.id)
                records.append(reply)
                answers.append(reply.id)
                continue
            calls = {"tool_calls": [{"id": "c1", "name": "read_file", "args": {}}]}
            call = store.add_message(conversation.id, "assistant", "", question.id, meta=calls)
            result = store.add_message(
                conversation.id, "tool", "out", call.id, meta={"tool_call_id": "c1"}
            )
            records += [call, result]
            if kind == "tool":
                done = store.add_message(conversation.id, "assistant", "done", result.id)
                records.append(done)
                answers.append(done.id)
            else:
                unfinished |= {call.id, result.id}
        at = records[fork_at % len(records)]
        index = store.tree_index(conversation.id)
        if at.id in unfinished:  # only a round with no reply yet refuses, in one sentence
            with pytest.raises(ForkError, match=r"^[^\n]+\.$"):
                index.fork_parent(at.id)
            return
        parent = index.fork_parent(at.id)
        forked = store.add_message(conversation.id, "user", "asked instead", parent)
        everything = store.list_messages(conversation.id)
        by_id = {record.id: record for record in everything}
        siblings = [r for r in everything if r.parent_id == forked.parent_id]
        assert {r.role for r in siblings} == {"user"}
        assert forked.parent_id is None or by_id[forked.parent_id].role != "user"
        if at.role == "user":
            assert forked.parent_id == at.parent_id
        elif at.role == "assistant" and not at.tool_calls:
            assert forked.parent_id == at.id
        else:  # in a tool round: below the reply that ends it, every call answered first
            assert forked.parent_id is not None
            ended = by_id[forked.parent_id]
            assert ended.role == "assistant"
            assert not ended.tool_calls
