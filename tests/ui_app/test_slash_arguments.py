"""A slash command typed with an argument uses it where the command takes one: ``/search WORDS``
opens the conversations list searching for them, ``/profile NAME`` opens that profile (a name
that is no profile is said and changes nothing), ``/instructions TEXT`` sets them, ``/model NAME``
switches the next turn to that model of the shown provider; nothing of it is sent to the model
as a message."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot

from agents.profile_registry import PROFILE_NAMES
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle, wait_until
from tests.ui_app.test_slash_menu import user_texts
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.conversations import ConversationsScreen


async def enter(pilot: Pilot[Any], text: str) -> None:
    composer = chat(pilot.app).composer
    composer.focus()
    composer.load_text(text)
    await pilot.press("enter")
    await pilot.pause()


async def test_search_words_open_the_list_searching_for_them(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await enter(pilot, "/search quarterly budget")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConversationsScreen))
        listing = pilot.app.screen
        assert isinstance(listing, ConversationsScreen)
        await wait_until(pilot, lambda: listing._search_box.value == "quarterly budget")
        assert listing.focused is listing._search_box
    assert user_texts(services) == []


async def test_instructions_text_sets_them(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await enter(pilot, "/instructions answer in French")
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.state.instructions == "answer in French")
    assert user_texts(services) == []


async def test_profile_name_opens_that_profile(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await enter(pilot, "/profile paper-pilot")
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.state.profile == "paper-pilot")


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(st.characters(blacklist_categories=["Cs", "Zs", "Cc"]), min_size=1, max_size=20)
)
async def test_a_name_that_is_no_profile_changes_nothing(services: Services, name: str) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        await enter(pilot, f"/profile {name}")
        await settle(pilot)
        expected = name if name in PROFILE_NAMES else "ide-helper"
        assert screen.state.profile == expected
    assert user_texts(services) == []


async def test_every_command_that_names_an_argument_takes_it_in_the_composer(
    services: Services,
) -> None:
    """The class: a command whose table entry names an argument (its hint) runs with it in
    the composer, for the built-in table and the open profile's own commands alike."""
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        dispatch = chat(pilot.app).slash
        hinted = [command.name for command in dispatch.commands() if command.hint is not None]
        assert hinted
        assert [name for name in hinted if not dispatch.takes_argument(name)] == []


async def test_model_name_switches_the_next_turn_to_it(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("first"), Reply("second"))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        await send(pilot, "before")
        await enter(pilot, "/model other-model")
        await wait_until(pilot, lambda: screen.header.model == "other-model")
        assert isinstance(pilot.app.screen, ChatScreen)  # no picker: the name was enough
        await send(pilot, "after")
    models = [request.body["model"] for request in fake_openai.chat_requests if request.body]
    assert models == ["fake-model", "other-model"]
    assert user_texts(remote_services) == ["before", "after"]
