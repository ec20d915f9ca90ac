"""Up in an empty composer recalls the prompts sent before, newest first, per profile, as a
shell does; Down walks back to the empty draft; a composer with text keeps Up for the cursor."""

from __future__ import annotations

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.services import Services


async def test_up_and_down_walk_the_prompts_of_this_profile(services: Services) -> None:
    other = services.store.create_conversation("mediator", "elsewhere")
    services.store.add_message(other.id, "user", "a mediator prompt", None)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "first question")
        await send(pilot, "second question\nwith two lines")
        composer = screen.composer
        composer.focus()

        await pilot.press("up")
        assert composer.text == "second question\nwith two lines"
        await pilot.press("up")  # the cursor is on the last line: it moves up first
        assert composer.text == "second question\nwith two lines"
        await pilot.press("up")
        assert composer.text == "first question"
        await pilot.press("up")  # the oldest: nothing further back, not the other profile's
        assert composer.text == "first question"
        await pilot.press("down")
        assert composer.text == "second question\nwith two lines"
        await pilot.press("down", "down")
        assert composer.text == ""


async def test_typing_makes_a_recalled_prompt_a_draft_and_up_moves_the_cursor(
    services: Services,
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "one")
        await send(pilot, "two")
        composer = screen.composer
        composer.focus()
        await pilot.press("up")
        assert composer.text == "two"
        await pilot.press("!")
        await pilot.press("up")
        assert composer.text == "two!"  # a draft now: Up is the editor's again
        await settle(pilot)
