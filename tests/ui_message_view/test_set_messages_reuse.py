"""A new path that shares its first messages with the shown one keeps their rendered lines."""

from __future__ import annotations

from dataclasses import replace

from tests.ui_message_view.conftest import SIZE, HostApp
from weaver_tui.widgets.message_view import MessageItem, MessageView


def path(count: int, tail: str = "") -> list[MessageItem]:
    return [
        MessageItem(
            id=f"m{i}{tail if i >= count - 3 else ''}",
            role="user" if i % 2 == 0 else "assistant",
            content=f"Message {i}{tail}\n\n- a point\n- another point\n\n```python\nprint({i})\n```",
        )
        for i in range(count)
    ]


async def test_switching_to_a_sibling_path_keeps_the_entries_above_the_fork() -> None:
    first = path(60)
    app = HostApp(first)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        before = list(view._layout.entries)
        kept_blocks = [b for e in before[:57] for b in (e.blocks or []) if b.strips is not None]
        assert kept_blocks, "messages above the fork were rendered (on screen or prefetched)"
        other = first[:-3] + path(60, tail="b")[-3:]
        assert view.shared_prefix(other) == 57
        view.set_messages(other)
        await pilot.pause()
        entries = view._layout.entries
        assert all(entries[i] is before[i] for i in range(57))
        assert all(entries[i] is not before[i] for i in range(57, 60))
        assert all(block.strips is not None for block in kept_blocks)
        assert "Message 59b" in "\n".join(view.visible_text())
        assert [item.id for item in view.items] == [item.id for item in other]


async def test_a_changed_or_streaming_message_is_not_reused() -> None:
    items = path(10)
    app = HostApp(items)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        changed = list(items)
        changed[4] = replace(items[4], content="Edited text", version=1, sibling_count=2)
        assert view.shared_prefix(changed) == 4
        view.set_messages(changed)
        await pilot.pause()
        assert view.get_item(items[4].id).content == "Edited text"  # type: ignore[union-attr]
        view.start_message(MessageItem(id="s1", role="assistant", status="streaming"))
        view.append_text("s1", "partial")
        streaming_path = [*changed, MessageItem(id="s1", role="assistant", status="streaming")]
        assert view.shared_prefix(streaming_path) == len(changed)
        view.set_messages(streaming_path)
        await pilot.pause()
        assert view.get_item("s1").content == ""  # type: ignore[union-attr]
