"""One SVG snapshot of the view: a user message, a versioned reply with a list and code, and a
cancelled reply."""

from __future__ import annotations

from collections.abc import Callable

from weaver_tui.widgets.message_view import MessageItem

from .conftest import HostApp

ITEMS = [
    MessageItem(id="u1", role="user", content="How do I read a file line by line in Python?"),
    MessageItem(
        id="a1",
        role="assistant",
        content=(
            "Open it with a `with` block and iterate:\n\n"
            "1. the file closes itself\n"
            "2. lines keep their `\\n`\n\n"
            "```python\nwith open(path) as handle:\n    for line in handle:\n"
            "        print(line.rstrip())\n```\n\n"
            "See **pathlib** for more."
        ),
        version=2,
        sibling_count=3,
        badge="assistant · gpt-4o · 1.2s",
    ),
    MessageItem(id="u2", role="user", content="And in reverse order?"),
    MessageItem(
        id="a2",
        role="assistant",
        content="You can read all lines first and then",
        status="cancelled",
        badge="assistant · gpt-4o",
    ),
]


def test_message_view_snapshot(snap_compare: Callable[..., bool]) -> None:
    app = HostApp(ITEMS)
    app.theme = "textual-dark"
    assert snap_compare(app, terminal_size=(100, 30))
