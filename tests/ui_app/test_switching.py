"""Switching profile, model and theme from the keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from tests.support.fake_openai import FakeOpenAI
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.model_picker import ModelPickerScreen
from weaver_tui.screens.profile_picker import ProfilePickerScreen


async def highlight(pilot: Pilot[Any], option_list: OptionList, option_id: str) -> None:
    """Move an option list's highlight to ``option_id`` with the arrow keys."""
    for key in ("up", "down"):
        for _ in range(len(option_list.options) + 1):
            index = option_list.highlighted
            if index is not None and option_list.get_option_at_index(index).id == option_id:
                return
            await pilot.press(key)
    raise AssertionError(f"no option {option_id!r}")


@pytest.mark.usefixtures("shared_notes")  # paper-pilot only opens
async def test_profile_switch_starts_then_reopens_conversations_of_that_profile(
    remote_services: Services,
) -> None:
    store = remote_services.store
    earlier = store.create_conversation("paper-pilot", "Earlier paper chat")
    store.add_message(earlier.id, "user", "about papers", None)
    async with new_app(remote_services).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        assert screen.state.conversation is not None
        assert screen.state.conversation.id == earlier.id
        await pilot.press("ctrl+r")
        await pilot.pause()
        picker = pilot.app.screen
        assert isinstance(picker, ProfilePickerScreen)
        await highlight(pilot, picker.query_one(OptionList), "atom-developer")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state.profile == "atom-developer"
        assert screen.state.conversation is None
        assert screen.header.profile == "atom-developer"
        await send(pilot, "write an atom")
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.profile == "atom-developer"
        assert store.get_conversation(conversation.id).profile == "atom-developer"
        await pilot.press("ctrl+r")
        await pilot.pause()
        await highlight(pilot, pilot.app.screen.query_one(OptionList), "paper-pilot")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state.conversation is not None
        assert screen.state.conversation.id == earlier.id
        assert [item.content for item in screen.messages.items] == ["about papers"]


async def test_model_switch_applies_from_the_next_turn(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "first")
        await pilot.press("ctrl+l")
        await pilot.pause()
        picker = pilot.app.screen
        assert isinstance(picker, ModelPickerScreen)
        await pilot.press("enter")  # keep the provider, move to the model field
        picker.query_one(Input).value = "fake-model-large"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.header.model_text == "openai-compatible · fake-model-large"
        await send(pilot, "second")
        assert fake_openai.last_body["model"] == "fake-model-large"
        await pilot.press("ctrl+l")
        await pilot.pause()
        await highlight(pilot, pilot.app.screen.query_one(OptionList), "offline")
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert screen.header.model_text == "offline"
        await send(pilot, "third")
        replies = [
            r
            for r in remote_services.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
            if r.role == "assistant" and r.parent_id is not None
        ]
        first, second, third = (
            next(r for r in replies if r.parent_id == user.id)
            for user in remote_services.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
            if user.role == "user"
        )
        assert (first.meta["provider"], first.meta["model"]) == ("openai-compatible", "fake-model")
        assert second.meta["model"] == "fake-model-large"
        assert third.meta["provider"] == "offline"


async def test_theme_chosen_in_the_palette_is_saved_and_used_next_time(
    services: Services, weaver_env: Path
) -> None:
    app = new_app(services)
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "weaver-dark"
        await palette_run(pilot, "Theme")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await palette_run(pilot, "weaver-light", opened=True)
        assert app.theme == "weaver-light"
    saved = yaml.safe_load((weaver_env / "config.yaml").read_text(encoding="utf-8"))
    assert saved["ui"]["theme"] == "weaver-light"
    again = build_services(provider="offline")
    try:
        assert new_app(again).theme == "weaver-light"
    finally:
        again.close_store()
