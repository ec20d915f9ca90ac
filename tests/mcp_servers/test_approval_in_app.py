"""In the app: a call of an MCP tool with ``approve: ask`` pauses the turn and asks; deny
never runs it, once runs it, and a question left for later is answered after a restart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.graph.approval import APPROVED_KEY
from tests.mcp_servers.conftest import SharedTickets, ran
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply, ToolCall
from tests.ui_app.conftest import (
    build_services,
    chat,
    chat_ready,
    new_app,
    send,
    settle,
    wait_until,
)
from weaver_tui.core.services import Services
from weaver_tui.screens.tool_approval import ToolApprovalScreen


@pytest.fixture
def mcp_services(
    weaver_env: Path, fake_openai: FakeOpenAI, tickets_http: SharedTickets
) -> Iterator[Services]:
    """Services on the fake provider, with the (shared, HTTP) tickets server in config.yaml."""
    server = tickets_http.entry()
    (weaver_env / "config.yaml").write_text(json.dumps({"mcp_servers": {"tickets": server}}))
    built = build_services(provider="openai-compatible", base_url=fake_openai.base_url,
                           api_key="test-key", model="fake-model", http_timeout=10)  # fmt: skip
    yield built
    built.close_store()


def _script(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "42"})]),
                       Reply("Done."))  # fmt: skip


def _tool_results(fake_openai: FakeOpenAI) -> list[str]:
    body = fake_openai.chat_requests[-1].body
    assert body is not None
    return [str(m["content"]) for m in body["messages"] if m["role"] == "tool"]


async def test_the_turn_asks_and_deny_never_runs_the_tool_while_once_runs_it(
    mcp_services: Services, fake_openai: FakeOpenAI, tickets_log: Path
) -> None:
    """Each turn of one conversation asks before the call: answered with deny ('d') the tool
    never runs, the next turn's answered with once ('o') it runs (a denial is for one call)."""
    _script(fake_openai)
    _script(fake_openai)
    app = new_app(mcp_services)
    async with app.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        for key, runs in (("d", False), ("o", True)):
            await send(pilot, "what is ticket 42?")
            await wait_until(pilot, lambda: isinstance(app.screen, ToolApprovalScreen))
            assert isinstance(app.screen, ToolApprovalScreen)
            assert app.screen.question.tool == "lookup_ticket"
            assert ran(tickets_log) == []
            await pilot.press(key)
            await settle(pilot)
            assert not isinstance(app.screen, ToolApprovalScreen)
            assert ran(tickets_log) == (["lookup_ticket 42"] if runs else [])
            result = _tool_results(fake_openai)[-1]  # this turn's; the history comes before
            assert ("on fire" in result) is runs
            assert ("denied" in result) is not runs


async def test_a_question_left_for_later_is_answered_after_a_restart(
    mcp_services: Services, fake_openai: FakeOpenAI, tickets_log: Path
) -> None:
    _script(fake_openai)
    app = new_app(mcp_services)
    async with app.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        await send(pilot, "what is ticket 42?")
        await wait_until(pilot, lambda: isinstance(app.screen, ToolApprovalScreen))
        await pilot.press("escape")
        await settle(pilot)
        conversation = chat(app).state.conversation
        assert conversation is not None
        conversation_id = conversation.id
    assert ran(tickets_log) == []
    again = new_app(mcp_services, conversation_id=conversation_id)
    async with again.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        chat(again).action_answer_tool_approval()
        await wait_until(pilot, lambda: isinstance(again.screen, ToolApprovalScreen))
        await pilot.press("a")
        await settle(pilot)
    assert ran(tickets_log) == ["lookup_ticket 42"]
    meta = mcp_services.store.get_conversation(conversation_id).meta
    [approved] = meta[APPROVED_KEY]
    assert approved.startswith("tickets/lookup_ticket@")
