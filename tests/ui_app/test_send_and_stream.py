"""Sending a message: the user record is stored first, the reply streams into the view, tools
show in the tool pane, and the header tells where we are."""

from __future__ import annotations

import pytest
from textual.message import Message

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send, wait_until
from weaver_tui.core.services import Services
from weaver_tui.messages import TokensArrived
from weaver_tui.widgets.tool_pane import ToolRow

pytestmark = pytest.mark.usefixtures("researcher")


async def test_send_on_the_offline_model_stores_user_then_complete_reply(
    services: Services,
) -> None:
    app = new_app(services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        assert screen.header.model_text == "offline"
        await send(pilot, "What does ReWOO do?")
        conversation = screen.state.conversation
        assert conversation is not None
        records = services.store.list_messages(conversation.id)
        assert records[0].role == "user"
        assert records[0].content == "What does ReWOO do?"
        final = records[-1]
        assert final.role == "assistant"
        assert final.status.value == "complete"
        assert final.meta["provider"] == "offline"
        shown = screen.messages.items
        assert [item.id for item in shown] == [r.id for r in records]
        assert shown[-1].content == final.content
        assert final.content
        assert screen.state.leaf_id == final.id
        assert str(screen.header.branch) == f"branch 1/1 · depth {len(records)}"
        assert conversation.title == "What does ReWOO do?"
        assert screen.header.title == "What does ReWOO do?"
        rows = screen.tools.rows
        assert rows
        assert rows[0].tool_name == "search_knowledge_base"
        assert rows[0].state == "done"


async def test_reply_streams_from_an_openai_compatible_server_with_a_tool(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "rewoo"})]),
        Reply("**ReWOO** plans first, then works.", usage=(42, 7)),
    )
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        assert screen.header.model_text == "openai-compatible · fake-model"
        await send(pilot, "Tell me about ReWOO")
        records = remote_services.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
        roles = [r.role for r in records]
        assert roles == ["user", "assistant", "tool", "assistant"]
        assert records[1].tool_calls[0]["name"] == "search_knowledge_base"
        assert records[-1].content == "**ReWOO** plans first, then works."
        assert records[-1].meta["model"] == "fake-model"
        assert fake_openai.last_body["messages"][-1]["role"] == "tool"
        view_text = "\n".join(screen.messages.text_lines())
        assert "ReWOO plans first, then works." in view_text
        row = screen.tools.rows[0]
        assert isinstance(row, ToolRow)
        assert row.state == "done"
        assert "rewoo" in row.detail
        usage = str(screen.tools.query_one("#tool-usage").render())
        tokens_in, tokens_out = (int(part.split()[0]) for part in usage.split(" · ")[:2])
        assert tokens_in >= 42
        assert tokens_out >= 7  # the turn's two model calls, summed


async def test_sending_while_a_reply_runs_holds_the_message_and_a_stop_keeps_it_unsent(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    # Held before its first word: the reply is still running when the second message comes.
    fake_openai.script(Reply("slow " * 40, holds=(0,)), Reply("second"))
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "first", wait=False)
        await wait_until(pilot, lambda: screen.running)
        await send(pilot, "too early", wait=False)
        await wait_until(pilot, lambda: len(screen.held.queue) == 1)
        assert screen.composer.text == ""
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        assert [p.text for p in screen.held.queue.held] == ["too early"]
        records = remote_services.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
        assert [r.content for r in records if r.role == "user"] == ["first"]


async def test_a_fast_stream_is_coalesced_into_few_view_updates(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    tokens = [f"t{n} " for n in range(3000)]
    fake_openai.script(Reply(deltas=tokens))
    arrived: list[TokensArrived] = []

    def hook(message: Message) -> None:
        # the hook sees a message again as it bubbles to the app: count each once
        if isinstance(message, TokensArrived) and all(message is not m for m in arrived):
            arrived.append(message)

    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        screen = chat(app)
        await send(pilot, "stream fast")
        reply = screen.messages.items[-1]
        assert reply.content == "".join(tokens)
        stored = remote_services.store.get_message(reply.id)
        assert stored.content == reply.content
        assert stored.status.value == "complete"
        turn = screen.turn  # how the turn ended, as its RunFinished told the screen
        assert turn is not None
        assert (turn.outcome.status, turn.outcome.leaf_id) == ("complete", reply.id)
        assert screen.state.leaf_id == reply.id
        assert not screen.running
    # one message per drained batch, not one per token
    assert 0 < len(arrived) < len(tokens) / 10
