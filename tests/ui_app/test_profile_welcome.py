"""An empty conversation opens with its profile's own welcome (what to ask it, and how), read
from the profile's declaration, then the keys every profile shares."""

from __future__ import annotations

import pytest

from agents.profile_registry import get_traits, list_profiles
from tests.ui_app.conftest import SIZE, chat, new_app, settle
from weaver_tui.core.services import Services

PROFILES = [profile.name for profile in list_profiles()]


def test_every_shipped_profile_declares_a_welcome_of_its_own() -> None:
    welcomes = [get_traits(name).welcome for name in PROFILES]
    assert all(welcomes)
    assert len(set(welcomes)) == len(welcomes)


@pytest.mark.parametrize("profile", PROFILES)
async def test_the_empty_chat_shows_the_profiles_welcome(services: Services, profile: str) -> None:
    async with new_app(services, profile=profile).run_test(size=SIZE) as pilot:
        await settle(pilot)
        hint = chat(pilot.app).empty_hint
        shown = " ".join(str(hint.render()).split())
        assert hint.display
        assert " ".join(get_traits(profile).welcome.split()) in shown
        assert "F1 lists every key" in shown


async def test_atom_developer_explains_the_intent_and_the_fenced_sample(
    services: Services,
) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = str(chat(pilot.app).empty_hint.render())
        assert "intent" in shown
        assert "fenced" in shown
