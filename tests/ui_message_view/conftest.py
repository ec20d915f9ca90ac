"""A tiny host app for the message view at a fixed size, recording what the view posts."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.theme import Theme

from weaver_tui.widgets.message_view import MessageItem, MessageView

SIZE = (100, 30)

WEAVER_TEST_THEME = Theme(
    name="weaver-test",
    primary="#3b82f6",
    secondary="#a855f7",
    dark=True,
    variables={"user": "#ff0000", "assistant": "#00ff00", "tool": "#0000ff", "private": "#ff00ff"},
)


class HostApp(App[None]):
    """Mounts one focused ``MessageView`` and keeps every message it posts."""

    def __init__(self, items: list[MessageItem] | None = None) -> None:
        super().__init__()
        self.initial_items = items or []
        self.posted: list[Message] = []
        self.register_theme(WEAVER_TEST_THEME)

    def compose(self) -> ComposeResult:
        yield MessageView(open_links=False)

    def on_mount(self) -> None:
        view = self.query_one(MessageView)
        view.set_messages(self.initial_items)
        view.focus()

    def on_message_view_selected(self, message: MessageView.Selected) -> None:
        self.posted.append(message)

    def on_message_view_version_flip_requested(
        self, message: MessageView.VersionFlipRequested
    ) -> None:
        self.posted.append(message)

    def on_message_view_action_requested(self, message: MessageView.ActionRequested) -> None:
        self.posted.append(message)

    def on_message_view_link_clicked(self, message: MessageView.LinkClicked) -> None:
        self.posted.append(message)

    def on_message_view_code_copied(self, message: MessageView.CodeCopied) -> None:
        self.posted.append(message)


def history(count: int) -> list[MessageItem]:
    """A path of ``count`` finished messages alternating user / assistant, with Markdown."""
    items = []
    for i in range(count):
        if i % 2 == 0:
            items.append(MessageItem(id=f"m{i}", role="user", content=f"Question number {i}?"))
        else:
            items.append(
                MessageItem(
                    id=f"m{i}",
                    role="assistant",
                    content=f"Answer **{i}**:\n\n- first point\n- second point\n\n"
                    f"```python\nprint({i})\n```\n",
                    badge="assistant · offline · 0.1s",
                )
            )
    return items


async def drained(
    view: MessageView,
    pilot: Pilot[None],
    timeout: float = 10.0,  # noqa: ASYNC109 (fails as an assertion)
) -> None:
    """Wait until everything appended to ``view`` is rendered and painted.

    A streamed render waits for the render budget (up to half a second on a busy machine), so
    a fixed pause is not enough on a loaded CI runner.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    await pilot.pause()
    while view.render_pending:
        if loop.time() > deadline:
            raise AssertionError("the message view never finished rendering what it was given")
        await pilot.pause(0.02)
    await pilot.pause()


async def landed(view: MessageView, pilot: Pilot[None]) -> None:
    """Wait until a scroll the user asked for (animated, for Page Up or Home) has finished and
    what it shows is rendered and painted."""
    await pilot.wait_for_scheduled_animations()
    await drained(view, pilot)
