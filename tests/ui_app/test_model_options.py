"""Temperature and max tokens per conversation, from the model picker: stored on the
conversation, sent with its turns only (another conversation keeps the provider's defaults),
shown again when the picker reopens; a value out of range is refused in the picker."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.model_picker import ModelPickerScreen


async def open_picker(pilot: Pilot[Any]) -> ModelPickerScreen:
    await pilot.press("ctrl+l")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ModelPickerScreen))
    screen = pilot.app.screen
    assert isinstance(screen, ModelPickerScreen)
    return screen


def sampling(body: dict[str, Any]) -> tuple[object, object]:
    return body.get("temperature"), body.get("max_completion_tokens", body.get("max_tokens"))


async def test_options_go_with_this_conversations_turns_only(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("cold"), Reply("default"))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        picker = await open_picker(pilot)
        picker.query_one("#temperature-input", Input).value = "0.2"
        picker.query_one("#max-tokens-input", Input).value = "64"
        picker.query_one("#model-input", Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ModelPickerScreen))
        await send(pilot, "review this")
        assert sampling(fake_openai.chat_bodies[-1]) == (0.2, 64)
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.meta["model_options"] == {"temperature": 0.2, "max_tokens": 64}

        picker = await open_picker(pilot)
        assert picker.query_one("#temperature-input", Input).value == "0.2"
        await pilot.press("escape")
        await pilot.press("ctrl+n")
        await settle(pilot)
        await send(pilot, "another topic")
        assert sampling(fake_openai.chat_bodies[-1]) == (None, None)


async def test_an_option_out_of_range_is_refused_in_the_picker(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = await open_picker(pilot)
        picker.query_one("#temperature-input", Input).value = "hot"
        picker.query_one("#model-input", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is picker
        assert "Temperature is a number from 0 to 2" in str(
            picker.query_one("#model-hint").render()
        )
