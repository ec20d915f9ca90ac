"""While a mediator turn streams, the chosen view is already filtered: a participant never sees,
even for a frame, another person's private words; deliveries read as the mediator's message.

Every row the message view is handed during the turn is recorded (the view's own entry points:
``start_message``, ``update_item``, ``append_text``), so a row that flashed by and was replaced
at the end of the turn still fails the test. The model runs on the local OpenAI-compatible test
server (real HTTP, real SSE).
"""

from __future__ import annotations

from typing import Any

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_profiles.conftest import ALEX_REPLY, ALEX_SAYS, CLOSING_NOTE, SHARED_POST
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.widgets.message_view import MessageItem


def record_rows(screen: ChatScreen) -> list[str]:
    """Wrap the message view's entry points; return the list every shown text goes to."""
    seen: list[str] = []
    view = screen.messages
    start, update, append = view.start_message, view.update_item, view.append_text

    def start_message(item: MessageItem) -> None:
        seen.append(f"{item.badge}|{item.content}")
        start(item)

    def update_item(item: MessageItem) -> None:
        seen.append(f"{item.badge}|{item.content}")
        update(item)

    def append_text(message_id: str, text: str) -> None:
        seen.append(f"+|{text}")
        append(message_id, text)

    view.start_message = start_message  # type: ignore[method-assign]
    view.update_item = update_item  # type: ignore[method-assign]
    view.append_text = append_text  # type: ignore[method-assign]
    return seen


def script_turn(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Alex", "content": ALEX_REPLY}, id="p1"),
                ToolCall("post_to_shared", {"content": SHARED_POST}, id="s1"),
            ]
        ),
        Reply(CLOSING_NOTE),
    )


async def open_view(pilot: Any, presses: int) -> ChatScreen:
    screen = chat(pilot.app)
    await wait_until(pilot, lambda: screen.agents_ready)
    await pilot.pause()
    for _ in range(presses):
        await pilot.press("f3")
        await pilot.pause()
    return screen


async def test_sams_view_never_shows_alexs_private_exchange_while_it_streams(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    script_turn(fake_openai)
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 3)  # model view -> shared -> Alex -> Sam
        assert screen.space_view == "Sam"
        seen = record_rows(screen)
        await send(pilot, ALEX_SAYS)
        await settle(pilot)
        shown = "\n".join(seen)
        assert ALEX_REPLY not in shown
        assert ALEX_SAYS not in shown
        assert CLOSING_NOTE not in shown  # the mediator's own note to itself
        assert "Delivered" not in shown
        assert f"Mediator → everyone|{SHARED_POST}" in seen
        assert [item.content for item in screen.messages.items] == [SHARED_POST]


async def test_the_model_view_shows_deliveries_as_the_mediators_words_while_it_streams(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    script_turn(fake_openai)
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 0)
        assert screen.space_view is None
        seen = record_rows(screen)
        await send(pilot, ALEX_SAYS)
        await settle(pilot)
        assert not [row for row in seen if "Delivered" in row]
        assert f"Mediator → Alex|{ALEX_REPLY}" in seen
        assert f"Mediator → everyone|{SHARED_POST}" in seen
        assert "".join(row[2:] for row in seen if row.startswith("+|")) == CLOSING_NOTE


async def test_the_empty_views_hint_goes_when_the_first_row_it_may_read_streams_in(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """In Sam's view Alex's private message leaves nothing to show (the hint says so); the
    mediator's shared post is the first row Sam may read, and the hint goes as it arrives, not
    when the turn ends."""
    script_turn(fake_openai)
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 3)
        assert screen.space_view == "Sam"
        hint = screen.empty_hint
        hint_shown_at_rows: list[bool] = []
        start = screen.messages.start_message

        def start_message(item: MessageItem) -> None:
            start(item)
            hint_shown_at_rows.append(hint.display)

        screen.messages.start_message = start_message  # type: ignore[method-assign]
        await send(pilot, ALEX_SAYS, wait=False)
        await wait_until(pilot, lambda: "Nothing in Sam's view yet" in str(hint.render()))
        await wait_until(pilot, lambda: screen.turn is not None and not screen.running)
        await settle(pilot)
        assert hint_shown_at_rows
        assert not any(hint_shown_at_rows)
        assert [item.content for item in screen.messages.items] == [SHARED_POST]
        assert not hint.display
