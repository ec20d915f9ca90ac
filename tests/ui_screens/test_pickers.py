"""The profile and model pickers dismiss with the user's choice."""

from __future__ import annotations

import pytest
from textual._compositor import LayoutUpdate
from textual.widgets import Input, OptionList

from agents.providers.model_options import ModelOptions
from tests.ui_screens.conftest import SCREEN_SIZE, ScreenHost
from weaver_tui.screens.model_picker import ModelChoice, ModelPickerScreen
from weaver_tui.screens.profile_picker import ProfilePickerScreen

PROFILES = [
    ("mediator", "Mediator", "A shared space for two people, with private and shared replies."),
    ("ide-helper", "IDE helper", "Reads your code and proposes reviewed patches."),
    ("paper-pilot", "Paper pilot", "Finds and critiques papers."),
    ("atom-developer", "Atom developer", "Writes and validates atom code."),
]

PRESETS = [
    ModelChoice(
        "openai",
        "OpenAI",
        "gpt-4.1-mini",
        ("gpt-4.1-mini", "gpt-4o"),
        True,
        False,
        "OPENAI_API_KEY",
    ),
    ModelChoice("ollama", "Ollama (local)", "llama3.2", ("llama3.2", "mistral")),
    ModelChoice("offline", "Offline (embedded model)", "offline", ("offline",)),
]


async def test_profile_picker_starts_on_the_current_profile_and_returns_the_choice() -> None:
    app = ScreenHost(lambda: ProfilePickerScreen("ide-helper", PROFILES))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        options = app.screen.query_one(OptionList)
        assert options.highlighted == 1
        assert "Reads your code" in str(options.get_option_at_index(1).prompt)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.results == ["paper-pilot"]


async def test_profile_picker_escape_keeps_the_profile() -> None:
    app = ScreenHost(lambda: ProfilePickerScreen("mediator", PROFILES))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


async def test_profile_picker_reads_the_registry_by_default() -> None:
    app = ScreenHost(lambda: ProfilePickerScreen("ide-helper"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        picker = app.screen
        assert isinstance(picker, ProfilePickerScreen)
        names = [profile.name for profile in picker.profiles]
        assert "ide-helper" in names
        assert all(profile.description for profile in picker.profiles)
        # one-line descriptions: each is drawn whole on one line of the picker
        await pilot.pause()
        update = app.screen._compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)
        lines = ["".join(strip.text for strip in line) for line in update.strips]
        for profile in picker.profiles:
            assert any(profile.description in line for line in lines), profile.name


async def test_model_picker_prefills_the_current_model_then_each_default() -> None:
    app = ScreenHost(lambda: ModelPickerScreen("ollama", "qwen2.5-coder", PRESETS))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        field = app.screen.query_one("#model-input", Input)
        assert field.value == "qwen2.5-coder"
        await pilot.press("down")
        assert field.value == "offline"
        await pilot.press("up", "up")
        assert field.value == "gpt-4.1-mini"
        prompt = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "OPENAI_API_KEY" in prompt  # the missing key says what to set


async def test_model_picker_accepts_a_free_model_name() -> None:
    app = ScreenHost(lambda: ModelPickerScreen("offline", "offline", PRESETS))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("up", "enter")  # ollama, then to the model field
        field = app.screen.query_one("#model-input", Input)
        assert field.has_focus
        field.value = "my-finetune:7b"
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [("ollama", "my-finetune:7b", ModelOptions(), None, None)]


async def test_model_picker_reads_the_presets_by_default() -> None:
    app = ScreenHost(lambda: ModelPickerScreen("offline", "offline"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        model_picker = app.screen
        assert isinstance(model_picker, ModelPickerScreen)
        names = [preset.name for preset in model_picker.presets]
        assert "offline" in names
        assert "moonshot" in names
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


def test_a_key_shown_as_set_is_a_key_the_switch_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    from weaver_tui.screens.model_picker import preset_choices

    monkeypatch.setenv("WEAVER_API_KEY", "k-general")
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    choices = {c.name: c for c in preset_choices("openai")}
    assert choices["openai"].key_configured  # the configured provider's own key
    deepseek = choices["deepseek"]
    assert not deepseek.key_configured
    assert deepseek.key_variable == "DEEPSEEK_API_KEY"
    monkeypatch.setenv("DEEPSEEK_API_KEY", "k-deepseek")
    assert {c.name: c for c in preset_choices("openai")}["deepseek"].key_configured
