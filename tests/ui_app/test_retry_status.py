"""The tool pane shows a model call that waits and tries again, and then the answer it got
(real ``ChatOpenAI`` over HTTP to the fake server; the wait recorded, not slept)."""

from __future__ import annotations

import pytest

from agents.providers.retried_call import PROVIDER_STATUS_NODE
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.retry_waits import RecordedWaits
from tests.ui_app.conftest import SIZE, chat, new_app, send
from weaver_tui.core.services import Services
from weaver_tui.widgets.tool_pane import ToolRow

pytestmark = pytest.mark.usefixtures("researcher")


async def test_a_rate_limited_reply_shows_the_retry_in_the_tool_pane(
    remote_services: Services, fake_openai: FakeOpenAI, retry_waits: RecordedWaits
) -> None:
    fake_openai.script(Reply.rate_limited(retry_after=2), "After the wait.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "hello")
        rows = [row for row in screen.query(ToolRow) if row.stage_node == PROVIDER_STATUS_NODE]
        assert len(rows) == 1
        assert rows[0].state == "done"
        assert "rate limited" in rows[0].tool_name
        reply = screen.messages.items[-1]
        assert reply.status == "complete"
        assert reply.content == "After the wait."
    assert retry_waits == [2.0]
