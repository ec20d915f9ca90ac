"""Text streamed as the process stalls still reaches the screen.

The view renders streamed text on a timer a few milliseconds out. Textual's one-shot timer
ends without calling back when a stall (a busy machine, a garbage collection) puts its first
wait past the deadline, and the streamed text then stayed unrendered for good: the view said
a render was pending forever. Here the flush timer's clock stalls as it starts.
"""

from __future__ import annotations

import pytest

from tests.support.stalled_clock import stall_after_start
from weaver_tui.widgets.message_view import MessageItem, MessageView
from weaver_tui.widgets.message_view.viewport import FLUSH_TIMER

from .conftest import SIZE, HostApp, drained


async def test_text_streamed_while_the_flush_timer_stalls_is_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        await drained(view, pilot)
        stall_after_start(monkeypatch, FLUSH_TIMER)
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "streamed while the clock stalled")
        await drained(view, pilot, timeout=5)
        assert any("streamed while the clock stalled" in line for line in view.text_lines())
