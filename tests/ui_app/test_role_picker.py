"""Roles in the model picker: its "Model for" selector sets a role's model for the running
app, from the next turn on (as the picker's choice of the turn's model is kept), shows it when
the picker reopens, and an empty model gives the role back to the turn's model. The summary
role picked here writes the automatic summary before the next turn, over real HTTP; the
turn's reply stays on the turn's model."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from agents import context
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.loop_builds import recording_loops
from tests.ui_app.conftest import SIZE, new_app, send, settle, wait_until
from tests.ui_app.test_auto_summary import seed_long_branch, summaries
from tests.ui_app.test_model_options import open_picker
from weaver_tui.core.services import Services
from weaver_tui.screens.model_picker import ModelPickerScreen

ROLE_ROWS = ["turn", "router", "critic", "structured", "summary"]


async def pick_role(pilot: Pilot[Any], role: str, model: str) -> ModelPickerScreen:
    """Open the picker, choose ``role`` with the keyboard, type ``model``, press Enter."""
    picker = await open_picker(pilot)
    picker.query_one("#role-select", Select).focus()
    await pilot.press("enter")
    for _ in range(ROLE_ROWS.index(role)):
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()
    assert picker.query_one("#role-select", Select).value == role
    field = picker.query_one("#model-input", Input)
    field.value = model
    field.focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ModelPickerScreen))
    # the role's model is built to check it, in a thread: the choice applies once it is built
    await wait_until(pilot, lambda: not any(w.group == "model-switch" for w in pilot.app.workers))
    return picker


def built_on_a_loop(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each role model the picker builds is built on a thread running a loop."""
    import weaver_tui.core.role_choices as role_choices
    from agents.providers import make_chat_model

    recording, on_loop = recording_loops(make_chat_model)
    monkeypatch.setattr(role_choices, "make_chat_model", recording)
    return on_loop


async def test_a_role_picked_in_the_picker_answers_its_calls_from_the_next_turn(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "fake-model", 6000)
    ids = seed_long_branch(remote_services)
    fake_openai.script(Reply("- topics 0 and 1 were discussed"), Reply("the answer"))
    on_loop = built_on_a_loop(monkeypatch)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pick_role(pilot, "summary", "small-summary")
        assert on_loop == [False]  # built off the app's loop
        assert remote_services.profile_settings()["roles"]["summary"]["model"] == "small-summary"

        await send(pilot, "topic 4 question")

        summary_body, turn_body = fake_openai.chat_bodies[-2:]
        assert summary_body["model"] == "small-summary"
        assert turn_body["model"] == "fake-model"
        [covered] = summaries(remote_services, ids)
        assert covered.meta["summary_model"] == "small-summary"

        picker = await open_picker(pilot)
        select = picker.query_one("#role-select", Select)
        shown = [str(prompt) for prompt, _ in select._options]
        assert any("summary" in p and "small-summary" in p for p in shown)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ModelPickerScreen))

        await pick_role(pilot, "summary", "")
        assert "summary" not in remote_services.profile_settings()["roles"]


async def test_a_role_model_that_cannot_be_built_is_said_and_nothing_changes(
    remote_services: Services,
) -> None:
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = await open_picker(pilot)
        names = [p.name for p in picker.presets]
        needs_key = next(p for p in picker.presets if p.needs_key and not p.key_configured)
        picker.query_one("#role-select", Select).value = "critic"
        await pilot.pause()
        picker._provider_list.highlighted = names.index(needs_key.name)
        await pilot.pause()
        field = picker.query_one("#model-input", Input)
        field.value = "some-model"
        field.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ModelPickerScreen))
        await pilot.pause()
        said = [n for n in pilot.app._notifications if n.title == "Role model not set"]
        assert len(said) == 1
        assert "\n" not in said[0].message
        assert "critic" not in remote_services.profile_settings()["roles"]
