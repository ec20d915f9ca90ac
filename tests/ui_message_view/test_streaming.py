"""Streaming into the view: many small appends, code fences split across appends, coalescing."""

from __future__ import annotations

import asyncio
import random

from weaver_tui.widgets.message_view import MessageItem, MessageView

from .conftest import SIZE, HostApp, drained


def _words(count: int) -> list[str]:
    return [f"w{i}" for i in range(count)]


async def test_two_thousand_small_appends_end_with_the_full_text_in_the_lines() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        words = _words(2000)
        for i, word in enumerate(words):
            view.append_text("r", word + ("\n\n" if i % 97 == 96 else " "))
            if i % 50 == 0:
                await asyncio.sleep(0)
        view.finish_message("r", "complete", badge="assistant · offline · 0.5s")
        await pilot.pause()

        body = " ".join(view.text_lines()).split()
        assert [w for w in body if w.startswith("w")] == words
        item = view.get_item("r")
        assert item is not None
        assert item.content.split() == words
        assert item.status == "complete"
        visible = " ".join(view.visible_text())
        assert "w1999" in visible


async def test_appends_between_frames_are_coalesced_into_one_render() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        await pilot.pause()
        before = view.blocks_rendered
        for word in _words(500):
            view.append_text("r", word + " ")
        await drained(view, pilot)
        # One paragraph, one frame: the 500 appends cost one tail render, not 500.
        assert 1 <= view.blocks_rendered - before <= 2
        assert "w499" in " ".join(view.visible_text())


async def test_a_code_fence_streamed_in_pieces_renders_as_code() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        reply = "Here is code:\n\n```python\ndef answer():\n    return 42\n```\n\nThat's all."
        pieces = [reply[i : i + 3] for i in range(0, len(reply), 3)]
        for piece in pieces[: len(pieces) // 2]:
            view.append_text("r", piece)
        await drained(view, pilot)
        # Mid-stream the fence is still open: it is closed before rendering, so no ``` shows.
        assert not any("```" in line for line in view.visible_text())
        for piece in pieces[len(pieces) // 2 :]:
            view.append_text("r", piece)
        view.finish_message("r", "complete")
        await pilot.pause()

        lines = view.text_lines()
        assert not any("```" in line for line in lines)
        code_line = next(i for i, line in enumerate(lines) if "def answer():" in line)
        strip = view._line_strip(code_line)
        assert strip is not None
        assert view._palette is not None
        code_background = view._palette.code_background.lower()
        assert any(
            seg.style is not None
            and seg.style.bgcolor is not None
            and seg.style.bgcolor.name.lower() == code_background
            for seg in strip
        )
        # Highlighted: the keyword has a colour of its own (pygments), unlike the prose.
        colours = {seg.style.color for seg in strip if seg.style and seg.style.color}
        assert len(colours) >= 2
        assert lines[-1] == ""
        assert "That's all." in lines


async def test_cancelled_and_error_replies_are_marked_in_the_header() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="a", role="assistant"))
        view.append_text("a", "partial answ")
        await drained(view, pilot)
        assert "streaming ..." in view.text_lines()[0]
        view.finish_message("a", "cancelled")
        view.start_message(MessageItem(id="b", role="assistant"))
        view.finish_message("b", "error", error="The server closed the connection.")
        await pilot.pause()
        lines = view.text_lines()
        assert "cancelled" in lines[0]
        assert "partial answ" in lines[1]
        assert any("✗ The server closed the connection." in line for line in lines)
        item = view.get_item("a")
        assert item is not None
        assert item.content == "partial answ"


async def test_a_reply_streamed_in_random_pieces_draws_the_lines_of_the_finished_text() -> None:
    """Coalesced flushes, tail re-splits and per-pass relayouts must not change the result:
    the streamed reply ends with exactly the lines of the same text shown finished."""
    from tests.support.openai_script import markdown_tokens

    text = "".join(markdown_tokens(1500))
    rng = random.Random(7)
    streamed = HostApp()
    async with streamed.run_test(size=SIZE) as pilot:
        view = streamed.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        position = 0
        while position < len(text):
            size = rng.choice((1, 2, 5, 17, 80, 400))
            view.append_text("r", text[position : position + size])
            position += size
            if rng.random() < 0.3:
                await asyncio.sleep(0)
            if rng.random() < 0.05:
                await pilot.pause()
        view.finish_message("r", "complete")
        await pilot.pause()
        streamed_lines = view.text_lines()
        streamed_blocks = [(b.kind, b.source) for b in view._layout.entries[0].blocks or []]

    finished = HostApp([MessageItem(id="r", role="assistant", content=text, status="complete")])
    async with finished.run_test(size=SIZE) as pilot:
        view = finished.query_one(MessageView)
        await pilot.pause()
        finished_lines = view.text_lines()
        entry = view._layout.entries[0]
        entry.split(view._width)
        finished_blocks = [(b.kind, b.source) for b in entry.blocks or []]

    assert streamed_blocks == finished_blocks
    assert streamed_lines == finished_lines
