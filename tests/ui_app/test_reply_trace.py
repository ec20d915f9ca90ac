"""A paper-pilot reply's trace opens from its key (F9, on the selected reply, else the latest)
and from the palette: the stages in order with their timings and the model of each model call,
the critic's verdict and the citation audit per sentence. A profile without traces does not
offer the command."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.reply_trace import ReplyTraceScreen


def shown_trace(screen: ReplyTraceScreen) -> str:
    return screen.query_one("#reply-trace-text", Markdown).source


@pytest.mark.usefixtures("shared_notes")
async def test_the_key_and_the_palette_open_the_replys_trace(services: Services) -> None:
    async with new_app(services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "What is LoRA?")
        chat(pilot.app).messages.focus()
        await pilot.press("f9")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReplyTraceScreen))
        assert isinstance(pilot.app.screen, ReplyTraceScreen)
        text = shown_trace(pilot.app.screen)
        stages = [s for s in ("load_memory", "scope", "route", "direct", "synthesize", "critic", "audit") if f"**{s}**" in text]  # fmt: skip
        assert stages == ["load_memory", "scope", "route", "direct", "synthesize", "critic", "audit"]  # fmt: skip
        assert text.index("**route**") < text.index("**synthesize**") < text.index("**audit**")
        assert "model `" in text
        assert "Citation audit" in text
        assert "✓ supported" in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ReplyTraceScreen))

        await palette_run(pilot, "Reply trace")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReplyTraceScreen))


async def test_a_profile_without_traces_does_not_offer_the_command(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert chat(pilot.app).check_action("show_trace", ()) is False
