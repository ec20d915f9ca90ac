"""The ide-helper profile: registered, its manual-like tool docstrings, its prompt, and the
review helpers the app calls."""

from __future__ import annotations

from typing import Any

import pytest

from agents.patch_review.patches import Patch
from agents.patch_review.review import (
    find_pending_review,
    patch_of_interrupt,
    resume_value,
)
from agents.profile_registry import get_profile

PATCH = Patch("p-1", "a.py", "0" * 64, "x\n", "--- a/a.py\n+++ b/a.py\n", 1, 1, "c1")


def test_profile_tools_prompt_and_graph() -> None:
    profile = get_profile("ide-helper")
    tools = {t.name: t for t in profile.make_tools()}
    assert list(tools) == ["read_file", "list_files", "search_code", "propose_edit"]
    assert all(len(t.description) > 150 for t in tools.values())
    assert "Nothing is written" in tools["propose_edit"].description
    prompt = profile.system_prompt()
    for rule in ("Read before you edit", "path:line", "relative to the project root"):
        assert rule in prompt
    graph = profile.build_graph(profile).compile()
    assert set(graph.nodes) == {"__start__", "agent", "tools", "review"}


def test_resume_values_and_interrupt_payloads() -> None:
    assert resume_value("accept") == {"decision": "accept"}
    assert resume_value("reject", "no") == {"decision": "reject", "comment": "no"}
    with pytest.raises(ValueError, match="decision must be 'accept' or 'reject'"):
        resume_value("maybe")  # type: ignore[arg-type]
    payload = [{"kind": "patch_review", "patch": PATCH.to_dict()}]
    assert patch_of_interrupt(payload) == PATCH
    assert patch_of_interrupt([{"kind": "other"}]) is None


def test_a_later_user_message_abandons_a_pending_review(store: Any) -> None:
    conversation = store.create_conversation("ide-helper")
    user = store.add_message(conversation.id, "user", "edit it", None)
    thread = f"{conversation.id}:{user.id}"  # a thread of this conversation's own
    pending = {"values": [{"kind": "patch_review", "patch": PATCH.to_dict()}], "thread_id": thread}
    call = store.add_message(
        conversation.id, "assistant", "", user.id, meta={"pending_interrupt": pending}
    )
    tool = store.add_message(
        conversation.id, "tool", "waiting", call.id, meta={"tool_call_id": "c1"}
    )
    found = find_pending_review(store, conversation.id)
    assert found is not None
    assert found.record_id == call.id
    assert found.patch == PATCH
    store.add_message(conversation.id, "user", "never mind", tool.id)
    assert find_pending_review(store, conversation.id) is None
    assert find_pending_review(store, conversation.id, tool.id) is not None
