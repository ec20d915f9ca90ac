"""Keys typed while the message view has focus: a printable key that is no command there goes
to the composer (so does every key while a draft is being typed); the single-key commands act
only when nothing is being typed, and the footer shows them dimmed while they wait."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle
from weaver_tui.core.services import Services


async def _conversation_with_view_focused(pilot) -> None:  # type: ignore[no-untyped-def]
    await chat_ready(pilot)
    await send(pilot, "hello")
    screen = chat(pilot.app)
    screen.messages.focus()
    await settle(pilot)  # the footer shows the view's keys after the next paint


async def test_letters_that_are_no_command_start_a_message(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await _conversation_with_view_focused(pilot)
        screen = chat(pilot.app)
        await pilot.press(*"hi there")
        await settle(pilot)
        assert screen.composer.text == "hi there"
        assert screen.composer.has_focus
        assert not screen.forking
        assert screen.editing_id is None


async def test_while_a_draft_is_typed_command_letters_type_into_it(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await _conversation_with_view_focused(pilot)
        screen = chat(pilot.app)
        screen.composer.load_text("please ")
        screen.messages.focus()
        await settle(pilot)
        fork = next(k for k in screen.query(FooterKey) if k.action == "request('fork')")
        assert fork.has_class("-disabled")  # visible: the command waits while you type
        await pilot.press(*"find all TODOs")
        await settle(pilot)
        assert screen.composer.text == "please find all TODOs"
        assert not screen.forking
        assert screen.editing_id is None


async def test_with_nothing_typed_a_command_letter_still_acts(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await _conversation_with_view_focused(pilot)
        screen = chat(pilot.app)
        fork = next(k for k in screen.query(FooterKey) if k.action == "request('fork')")
        assert not fork.has_class("-disabled")
        await pilot.press("f")
        await settle(pilot)
        assert screen.forking
