"""SVG snapshots at 120x40 (pytest-textual-snapshot). Deterministic by construction: fixed
conversations (``scenes``), UTC, no cursor blink, tool timings hidden, no spinner running.

Update deliberately with ``pytest tests/ui_app/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app import scenes
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle
from weaver_tui.app import WeaverApp
from weaver_tui.core.services import Services
from weaver_tui.widgets.message_view import MessageView
from weaver_tui.widgets.tool_pane import ToolStatusPane

pytestmark = pytest.mark.usefixtures("researcher")

SnapCompare = Callable[..., bool]
PROJECT = Path("/srv/projects/demo")
"""A fixed project root: the ide-helper panel and the header show it (tmp paths vary)."""
RunBefore = Callable[[Pilot[Any]], Awaitable[None]]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def steady(pilot: Pilot[Any]) -> None:
    """Freeze what moves: cursors stop blinking, tool timings are hidden."""
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    for field in pilot.app.screen.query(Input):  # the conversation list's search
        field.cursor_blink = False
    for screen in pilot.app.screen_stack:
        for pane in screen.query(ToolStatusPane):
            pane.show_timings = False
    await settle(pilot)
    await pilot.pause(0.2)  # the message view's frame timer (30 Hz) flushes its last render
    for view in pilot.app.screen.query(MessageView):
        view.text_lines()  # render every block: real heights, not estimates, set the scrollbar
        if view.following:
            view.action_jump_to_latest()  # land on the bottom however the frames fell
    await settle(pilot)


def app_for(services: Services, **kwargs: Any) -> WeaverApp:
    return new_app(services, project_root=PROJECT, **kwargs)


def then(*steps: RunBefore) -> RunBefore:
    async def run(pilot: Pilot[Any]) -> None:
        await chat_ready(pilot)
        for step in steps:
            await step(pilot)
        await steady(pilot)

    return run


def test_empty_chat(snap_compare: SnapCompare, services: Services) -> None:
    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then())


def test_streamed_reply_with_the_tool_pane(snap_compare: SnapCompare, services: Services) -> None:
    async def ask(pilot: Pilot[Any]) -> None:
        await send(pilot, "What does ReWOO do?")

    app = app_for(services, profile="researcher")
    assert snap_compare(app, terminal_size=SIZE, run_before=then(ask))


def test_branched_tree_with_versions(snap_compare: SnapCompare, services: Services) -> None:
    scenes.branched_conversation(services.store)

    async def browse(pilot: Pilot[Any]) -> None:
        await settle(pilot)  # the tree is built after the first paint: keys go to it once it is
        await pilot.press("ctrl+t", "up", "up")

    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then(browse))


def test_tree_bracket_switches_the_version_shown(
    snap_compare: SnapCompare, services: Services
) -> None:
    """``[`` on the edited follow-up (v2/2) in the tree: the chat shows v1/2 and its reply,
    and the tree's active path moves with it."""
    scenes.branched_conversation(services.store)

    async def flip(pilot: Pilot[Any]) -> None:
        await pilot.press("ctrl+t")
        tree = chat(pilot.app).tree
        for _ in range(10):
            if tree.selected_message_id == "m-f2":
                break
            await pilot.press("up")
        assert tree.selected_message_id == "m-f2"
        await pilot.press("left_square_bracket")

    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then(flip))


def test_conversations_screen(snap_compare: SnapCompare, services: Services) -> None:
    scenes.conversation_list(services.store)

    async def open_list(pilot: Pilot[Any]) -> None:
        await pilot.press("ctrl+o")

    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then(open_list))


def test_help(snap_compare: SnapCompare, services: Services) -> None:
    async def help_screen(pilot: Pilot[Any]) -> None:
        await pilot.press("f1")

    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then(help_screen))


def test_light_theme(snap_compare: SnapCompare, services: Services) -> None:
    scenes.branched_conversation(services.store)

    async def light(pilot: Pilot[Any]) -> None:
        pilot.app.theme = "weaver-light"

    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then(light))


def test_error_state(
    snap_compare: SnapCompare, remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply.unauthorized())

    async def fail(pilot: Pilot[Any]) -> None:
        await send(pilot, "Hello?")
        assert chat(pilot.app).messages.items[-1].status == "error"

    app = app_for(remote_services, profile="researcher")
    assert snap_compare(app, terminal_size=SIZE, run_before=then(fail))


def test_cancelled_reply(snap_compare: SnapCompare, services: Services) -> None:
    scenes.cancelled_reply(services.store)
    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then())


def test_steered_conversation_marks(snap_compare: SnapCompare, services: Services) -> None:
    """The header's instructions mark and token count; an attachment folded under its message;
    pinned, left-out and summarised messages marked in their badges."""
    scenes.steered_conversation(services.store)
    assert snap_compare(app_for(services), terminal_size=SIZE, run_before=then())


def test_reply_with_folded_thinking(
    snap_compare: SnapCompare, remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        Reply(
            reasoning=["The user asks what ReWOO does. ", "It plans the tool calls first."],
            deltas=["**ReWOO** plans every tool call first, ", "then runs them and answers."],
        )
    )

    async def ask(pilot: Pilot[Any]) -> None:
        await send(pilot, "What does ReWOO do?")

    app = app_for(remote_services, profile="researcher")
    assert snap_compare(app, terminal_size=SIZE, run_before=then(ask))
