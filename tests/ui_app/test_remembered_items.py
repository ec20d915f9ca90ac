"""What a profile remembers across conversations, from the palette: paper-pilot's facts are
listed with where they came from, and Delete forgets one after a confirmation. A profile that
remembers nothing does not offer the command."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from agents.profiles.paper_pilot.memory import Memory, memory_path
from tests.ui_app.conftest import SIZE, chat, new_app, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.screens.remembered import RememberedScreen


@pytest.mark.usefixtures("shared_notes")  # paper-pilot only opens
async def test_the_palette_lists_the_facts_and_delete_forgets_one(services: Services) -> None:
    path = memory_path(services.data_dir)
    lora = services.store.create_conversation("paper-pilot", "Adapters for fine-tuning")
    with Memory(path) as memory:
        memory.save("LoRA trains low-rank adapters.", lora.id, "msg-1")
        memory.save("DPO skips the reward model.", "conv-bbbb2222", "msg-2")
    async with new_app(services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await palette_run(pilot, "Remembered items")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RememberedScreen))
        listing = pilot.app.screen.query_one("#remembered-list", OptionList)
        shown = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert any("DPO skips the reward model." in line for line in shown)
        (lora_line,) = [line for line in shown if "LoRA" in line]
        assert "Adapters for fine-tuning" in lora_line
        assert lora.id[:8] not in lora_line
        (dpo_line,) = [line for line in shown if "DPO" in line]
        assert "from a deleted conversation" in dpo_line

        listing.highlighted = next(i for i, line in enumerate(shown) if "LoRA" in line)
        await pilot.press("delete")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RememberedScreen))
        await pilot.pause()
        with Memory(path) as memory:
            assert [f.text for f in memory.all()] == ["DPO skips the reward model."]
        assert listing.option_count == 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, RememberedScreen))


async def test_a_profile_that_remembers_nothing_does_not_offer_the_command(
    services: Services,
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert chat(pilot.app).check_action("show_remembered", ()) is False
