"""A window an overflow taught is the one the app works to: the turn that overflowed is cut
and asked again (the tool pane says so), and the next turn summarises older turns first, as
for a window the presets know (real ``ChatOpenAI`` over HTTP to the fake server)."""

from __future__ import annotations

import pytest

import agents.providers.context_overflow as context_overflow
from agents.context import SUMMARY_HEADING, SUMMARY_PROMPT
from agents.providers.retried_call import PROVIDER_STATUS_NODE
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from tests.ui_app.test_auto_summary import seed_long_branch
from weaver_tui.core.services import Services
from weaver_tui.widgets.tool_pane import ToolRow


@pytest.fixture(autouse=True)
def _nothing_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows learned in a test stay in it (the memory is process-wide)."""
    monkeypatch.setattr(context_overflow, "_LEARNED", {})


def overflow(window: int, tokens: int) -> Reply:
    return Reply.http_error(
        400,
        f"This model's maximum context length is {window} tokens. However, your messages "
        f"resulted in {tokens} tokens. Please reduce the length of the messages.",
    )


async def test_an_overflow_is_cut_then_the_next_turn_summarises_to_the_learned_window(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    seed_long_branch(remote_services)
    fake_openai.script(
        overflow(4096, 6500),
        Reply("answer 4"),
        Reply("- topics 0 to 2 were discussed"),
        Reply("answer 5"),
    )
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        await send(pilot, "topic 4 question")
        assert screen.messages.items[-1].content == "answer 4"
        rows = [row for row in screen.query(ToolRow) if row.stage_node == PROVIDER_STATUS_NODE]
        assert [row.state for row in rows] == ["done"]
        assert "context window" in rows[0].tool_name
        assert screen.steering.window() is not None

        await send(pilot, "topic 5 question")

        summary_request, turn_request = fake_openai.chat_bodies[-2:]
        assert summary_request["messages"][0]["content"] == SUMMARY_PROMPT
        sent = "\n".join(str(m["content"]) for m in turn_request["messages"])
        assert f"{SUMMARY_HEADING}\n> - topics 0 to 2 were discussed" in sent
        assert "topic 5 question" in sent
        assert screen.messages.items[-1].content == "answer 5"
    assert len(fake_openai.chat_bodies) == 4
