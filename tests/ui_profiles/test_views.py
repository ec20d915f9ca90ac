"""Each view of a mediator space, from real records: nobody reads another person's private
messages; the model view holds everything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from tests.runtime.helpers import finish_of
from tests.support.fake_openai import Reply, ToolCall
from tests.ui_profiles.conftest import (
    ALEX_REPLY,
    ALEX_SAYS,
    CLOSING_NOTE,
    SAM_REPLY,
    SAM_SAYS,
    SHARED_POST,
    Space,
)
from weaver_tui.profile_panels import items_for_view
from weaver_tui.widgets.message_view import MessageItem


def rows(items: list[MessageItem]) -> list[tuple[str, str, str, str]]:
    return [(i.role, i.badge, i.content, i.visibility) for i in items]


def test_alex_sees_his_private_exchange_and_the_shared_channel(space: Space) -> None:
    assert rows(items_for_view(space.read("Alex"), "Alex", space.participants)) == [
        ("user", "Alex", ALEX_SAYS, "private → Alex"),
        ("assistant", "Mediator → Alex", ALEX_REPLY, "private"),
        ("assistant", "Mediator → everyone", SHARED_POST, ""),
        ("user", "Sam", SAM_SAYS, ""),
    ]


def test_sam_never_sees_what_alex_said_or_was_told_privately(space: Space) -> None:
    sam = items_for_view(space.read("Sam"), "Sam", space.participants)
    assert rows(sam) == [
        ("assistant", "Mediator → everyone", SHARED_POST, ""),
        ("user", "Sam", SAM_SAYS, ""),
        ("assistant", "Mediator → Sam", SAM_REPLY, "private"),
    ]
    shown = " ".join(item.content for item in sam)
    assert ALEX_SAYS not in shown
    assert ALEX_REPLY not in shown


def test_the_shared_view_holds_only_what_everyone_reads(space: Space) -> None:
    assert rows(items_for_view(space.read("shared"), "shared", space.participants)) == [
        ("assistant", "Mediator → everyone", SHARED_POST, ""),
        ("user", "Sam", SAM_SAYS, ""),
    ]


def test_the_model_view_holds_every_record_with_private_ones_marked(space: Space) -> None:
    everything = items_for_view(space.records, None, space.participants)
    assert [i.id for i in everything] == [r.id for r in space.records]
    marks = {i.content: i.visibility for i in everything}
    assert marks[ALEX_SAYS] == "private → Alex"
    assert marks[CLOSING_NOTE] == ""
    assert marks[SAM_SAYS] == ""
    assert [i.role for i in everything] == ["user", "assistant", "assistant", "assistant",
                                            "assistant", "user", "assistant", "assistant"]  # fmt: skip


def test_the_model_view_shows_each_delivery_as_the_mediators_message(space: Space) -> None:
    """Not "Delivered to Alex.": the words the mediator sent, headed with their audience."""
    everything = items_for_view(space.records, None, space.participants)
    deliveries = [i for i in everything if i.badge.startswith("Mediator →")]
    assert rows(deliveries) == [
        ("assistant", "Mediator → Alex", ALEX_REPLY, "private"),
        ("assistant", "Mediator → everyone", SHARED_POST, ""),
        ("assistant", "Mediator → Sam", SAM_REPLY, "private"),
    ]
    tool_ids = [r.id for r in space.records if r.role == "tool"]
    assert [i.id for i in deliveries] == tool_ids
    assert not any(i.content.startswith("Delivered to") for i in everything)


def test_rows_keep_what_the_chat_screen_built(space: Space) -> None:
    """Versions, status and ids come from the screen's own rows; a delivery shows its words."""
    built = {
        r.id: MessageItem(id=r.id, role=r.role, content=r.content, version=2, sibling_count=3)
        for r in space.records
    }
    sam = items_for_view(space.read("sam"), "sam", space.participants, built)  # any case
    assert {(i.version, i.sibling_count) for i in sam} == {(2, 3)}
    delivered = sam[-1]
    assert delivered.id == space.records[-1].id
    assert (delivered.role, delivered.content) == ("assistant", SAM_REPLY)
    assert built[delivered.id].content == "Delivered to Sam."


def test_an_unknown_view_is_refused(space: Space) -> None:
    with pytest.raises(ValueError, match="'Jordan' is not a participant"):
        items_for_view(space.read("Jordan"), "Jordan", space.participants)


async def test_views_of_a_turn_the_runtime_recorded(
    store: Any, tmp_path: Path, fake_openai: Any
) -> None:
    """The records as the real runtime writes them, from a model on the local test server."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from agents.providers import ProviderConfig, make_chat_model
    from agents.runtime.agent_runtime import AgentRuntime
    from agents.shared_space.events import UserMessageEvent
    from agents.shared_space.space import new_space, participants_of

    space = new_space(store, ("Alex", "Sam"), "budget")
    model = make_chat_model(
        ProviderConfig(
            provider="openai-compatible",
            model="fake-model",
            base_url=fake_openai.base_url,
            api_key=SecretStr("sk-test-not-a-real-key"),
            timeout=10.0,
        )
    )
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Alex", "content": ALEX_REPLY}, id="p1"),
                ToolCall("post_to_shared", {"content": SHARED_POST}, id="s1"),
            ]
        ),
        Reply(CLOSING_NOTE),
    )
    event = UserMessageEvent(sender="Alex", content=ALEX_SAYS)
    user = store.add_message(space.id, "user", event.content, None, meta=event.record_meta())
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, context_messages=40, max_tool_rounds=5)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=space.id, user_message_id=user.id, model=model
            )
        ]
    path = store.path_to_root(finish_of(events).leaf_id)
    people = participants_of(store.get_conversation(space.id))
    sams = store.path_to_root(path[-1].id, "Sam")
    assert rows(items_for_view(sams, "Sam", people)) == [
        ("assistant", "Mediator → everyone", SHARED_POST, "")
    ]
    alexs = store.path_to_root(path[-1].id, "Alex")
    # the two calls of one round run at once, and are stored in the order they were made
    assert [i.content for i in items_for_view(alexs, "Alex", people)] == [
        ALEX_SAYS,
        ALEX_REPLY,
        SHARED_POST,
    ]
    assert len(items_for_view(path, None, people)) == len(path)
