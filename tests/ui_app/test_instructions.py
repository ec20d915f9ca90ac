"""Instructions per conversation from the palette: typed, or from a template of the config
folder; shown in the header, stored on the conversation (even when set before its first
message), and sent after the profile's system prompt on every turn."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TextArea

from agents.instructions import HEADING
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.instructions import InstructionsScreen, TemplatePickerScreen


async def test_instructions_set_before_the_first_message_go_with_every_turn(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("Bonjour."), Reply("Encore bonjour."))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        await palette_run(pilot, "Set instructions")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, InstructionsScreen))
        pilot.app.screen.query_one(TextArea).load_text("Answer in French.")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, InstructionsScreen))
        assert any("✎" in text for text, _ in screen.header.shown())

        await send(pilot, "hello")
        await send(pilot, "and again")
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.meta["instructions"] == "Answer in French."
        for request in fake_openai.chat_requests:
            assert request.body is not None
            system = request.body["messages"][0]["content"]
            assert system.endswith(f"{HEADING}\nAnswer in French.\n")

        await palette_run(pilot, "Set instructions")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, InstructionsScreen))
        assert pilot.app.screen.query_one(TextArea).text == "Answer in French."
        pilot.app.screen.query_one(TextArea).load_text("")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "instructions" not in remote_services.store.get_conversation(conversation.id).meta
        assert not any("✎" in text for text, _ in screen.header.shown())


async def test_a_template_from_the_config_folder_sets_the_instructions(
    services: Services, weaver_env: Path
) -> None:
    templates = weaver_env / "templates"
    templates.mkdir()
    (templates / "terse.md").write_text("Be terse: three sentences at most.\n", encoding="utf-8")
    (templates / "french.md").write_text("Answer in French.\n", encoding="utf-8")
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "hello")
        await palette_run(pilot, "Use instructions template")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, TemplatePickerScreen))
        await pilot.press("down", "enter")  # french, terse: the second is terse
        await settle(pilot)
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.meta["instructions"] == "Be terse: three sentences at most."
        assert any("Instructions set from terse" in n.message for n in pilot.app._notifications)
