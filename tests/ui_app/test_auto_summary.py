"""Context that manages itself: a turn that would pass 90% of the model's window first
summarises the older part of the branch (through the model over real HTTP; on the offline demo
an extract of the messages' first lines), says so, and marks it in the tree; it can be turned
off for one conversation."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from agents import context
from agents.context import EXTRACT_HEADING, SUMMARY_HEADING, SUMMARY_PROMPT
from storage.models import MessageRecord, Role
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.widgets.conversation_tree.labels import SUMMARY_MARK

PADDING = " ".join(["context"] * 400)  # about 700 tokens a message


def seed_long_branch(services: Services, turns: int = 4) -> list[str]:
    """``turns`` long question/answer pairs, each message's first line naming it: its ids."""
    store = services.store
    conversation = store.create_conversation("ide-helper", "long")
    parent, ids = None, []
    for n in range(turns):
        turn: tuple[tuple[Role, str], ...] = (
            ("user", f"topic {n} question"),
            ("assistant", f"topic {n} answer"),
        )
        for role, text in turn:
            meta = {"status": "complete"} if role == "assistant" else None
            parent = store.add_message(conversation.id, role, f"{text}\n{PADDING}", parent, meta).id
            ids.append(parent)
    assert parent is not None
    store.set_active_leaf(conversation.id, parent)
    return ids


def summaries(services: Services, ids: list[str]) -> list[MessageRecord]:
    """The records of ``ids`` that carry a summary."""
    records = [services.store.get_message(i) for i in ids]
    return [r for r in records if r.meta.get("summary")]


def summarised(pilot: Pilot[Any]) -> list[str]:
    return [n.message for n in pilot.app._notifications if n.title == "Older turns summarised"]


async def test_a_turn_near_the_window_summarises_older_turns_through_the_model(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "fake-model", 6000)
    ids = seed_long_branch(remote_services)
    fake_openai.script(Reply("- topics 0 and 1 were discussed"), Reply("the answer"))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "topic 4 question")
        summary_request, turn_request = (r.body for r in fake_openai.chat_requests[-2:])
        assert summary_request is not None
        assert turn_request is not None
        assert summary_request["messages"][0]["content"] == SUMMARY_PROMPT
        assert "topic 0 question" in summary_request["messages"][-1]["content"]
        sent = "\n".join(str(m["content"]) for m in turn_request["messages"])
        assert f"{SUMMARY_HEADING}\n> - topics 0 and 1 were discussed" in sent
        assert "topic 0 question" not in sent
        assert "topic 4 question" in sent
        assert summarised(pilot)
        [covered] = summaries(remote_services, ids)
        assert covered.meta["summary"] == "- topics 0 and 1 were discussed"
        assert SUMMARY_MARK in chat(pilot.app).tree.label_text(covered.id)


@pytest.mark.parametrize(
    "summary",
    [
        Reply("- topics 0 and 1 were", finish_reason="length"),
        Reply("- topics 0", finish_reason="content_filter"),
        Reply(refusal="I can't summarise that."),
        Reply(""),
    ],
)
async def test_a_summary_cut_filtered_refused_or_empty_replaces_nothing(
    remote_services: Services,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    summary: Reply,
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "fake-model", 6000)
    ids = seed_long_branch(remote_services)
    fake_openai.script(summary, Reply("the answer"))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "topic 4 question")
        turn_request = fake_openai.chat_requests[-1].body
        assert turn_request is not None
        sent = "\n".join(str(m["content"]) for m in turn_request["messages"])
        assert SUMMARY_HEADING not in sent
        assert summaries(remote_services, ids) == []
        assert not summarised(pilot)
        assert [n for n in pilot.app._notifications if n.title == "Not summarised"]


async def test_offline_the_summary_is_an_extract_of_the_messages(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "offline", 6000)
    ids = seed_long_branch(services)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "topic 4 question")
        [covered] = summaries(services, ids)
        summary = covered.meta["summary"]
        assert summary.startswith(EXTRACT_HEADING)
        assert "topic 0 question" in summary
        assert "topic 0 answer" in summary
        assert PADDING not in summary  # first lines only
        assert any("extract" in note for note in summarised(pilot))


async def test_auto_summary_can_be_turned_off_for_one_conversation(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "offline", 6000)
    ids = seed_long_branch(services)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await palette_run(pilot, "Auto-summary for this conversation")
        await settle(pilot)
        await send(pilot, "topic 4 question")
        assert summaries(services, ids) == []
        assert not summarised(pilot)
