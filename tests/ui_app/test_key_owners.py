"""The pieces that own keys are widgets with their own actions: the chat screen forwards none
of them. The profile panel's keys act when the panel has the focus and, through the screen,
from anywhere on the chat; the palette runs branching's commands on the chat's body."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import pytest
from textual.widget import Widget

from tests.ui_app.conftest import SIZE, chat, new_app, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run, seed_conversation
from weaver_tui.commands import WeaverCommands
from weaver_tui.core.services import Services
from weaver_tui.keymap import all_actions
from weaver_tui.screens.chat.branching import Branching
from weaver_tui.screens.chat.profile_panel import ProfilePanel
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.widgets.channel_tabs import ChannelTabs
from weaver_tui.widgets.speaker_bar import AudienceBar, SpeakerBar


def forwarding_actions(cls: type) -> dict[str, str]:
    """``action_*`` methods of ``cls`` whose whole body (docstring aside) is one call on an
    attribute of ``self`` (``self.branching.fork_from(...)``): action name -> that attribute."""
    module = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    class_def = module.body[0]
    assert isinstance(class_def, ast.ClassDef)
    found: dict[str, str] = {}
    for node in class_def.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = [
            s
            for s in node.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        if not node.name.startswith("action_") or len(body) != 1:
            continue
        call = body[0].value if isinstance(body[0], ast.Expr) else None
        func = call.func if isinstance(call, ast.Call) else None
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "self"
        ):
            found[node.name] = func.value.attr
    return found


def own_actions(widget_class: type[Widget]) -> set[str]:
    """The actions a widget class adds to those of Textual's containers."""
    inherited = {name for name in dir(widget_class.__mro__[1]) if name.startswith("action_")}
    return {name for name in dir(widget_class) if name.startswith("action_")} - inherited


def test_the_screen_forwards_no_action_of_the_widgets_that_own_them() -> None:
    forwarded = forwarding_actions(ChatScreen)
    assert not {name for name, helper in forwarded.items() if helper in ("branching", "panels")}
    for owner in (Branching, ProfilePanel):
        assert own_actions(owner), owner
        assert not own_actions(owner) & set(dir(ChatScreen)), owner


def test_each_owned_command_is_an_action_of_its_owner_and_its_chat_key_is_bound_twice() -> None:
    owners: dict[str, type[Widget]] = {"Branching": Branching, "ProfilePanel": ProfilePanel}
    screen_keys = {(b.key, b.action) for b in ChatScreen.BINDINGS}  # type: ignore[union-attr]
    owned = [item for item in all_actions() if item.owner]
    assert {item.owner for item in owned} == set(owners)
    for item in owned:
        owner = owners[item.owner]
        assert hasattr(owner, f"action_{item.action}"), item.command
        assert not hasattr(ChatScreen, f"action_{item.action}"), item.command
        if item.scope == "chat" and item.key:
            own_keys = {(b.key, b.action) for b in owner.BINDINGS}  # type: ignore[union-attr]
            assert (item.key, item.action) in own_keys, item.command
            assert (item.key, f"on_widget({item.owner!r}, {item.action!r})") in screen_keys


async def test_the_panels_keys_act_when_the_panel_has_the_focus(services: Services) -> None:
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        await pilot.pause()
        panel = screen.panels
        tabs = screen.query_one(ChannelTabs)
        tabs.focus()
        await pilot.pause()
        assert screen.active_bindings["f2"].node is panel  # the panel's own key, not the screen's
        assert screen.composer.speaker == "Alex"
        await pilot.press("f2")
        await wait_until(pilot, lambda: screen.composer.speaker == "Sam")
        await pilot.press("f8")
        await wait_until(pilot, lambda: screen.query_one(AudienceBar).shared)
        screen.query_one(SpeakerBar).focus()
        await pilot.pause()
        assert screen.active_bindings["f3"].node is panel
        await pilot.press("f3")
        await wait_until(pilot, lambda: screen.space_view == "shared")


async def test_from_the_composer_the_screen_hands_the_panels_keys_to_it(
    services: Services,
) -> None:
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        await pilot.pause()
        assert screen.composer.has_focus
        assert screen.active_bindings["f3"].node is screen
        await pilot.press("f3")
        await wait_until(pilot, lambda: screen.space_view == "shared")
        await pilot.press("f2")
        await wait_until(pilot, lambda: screen.composer.speaker == "Sam")


async def test_checking_keys_and_listing_commands_do_not_search_the_screen_each_time(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The footer reads the screen's bindings at every focus change, the palette lists its
    commands at every key typed into it: the owners of the panel's keys and of the commands
    are found without walking every widget for each key or command."""
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        await pilot.pause()
        searches: list[str] = []
        real = ChatScreen.query

        def recording(self: ChatScreen, selector: Any = None) -> Any:
            searches.append(str(selector))
            return real(self, selector)

        monkeypatch.setattr(ChatScreen, "query", recording)
        for _ in range(3):
            assert screen.active_bindings["f3"].enabled
        assert searches == []
        commands = WeaverCommands(screen)._available()
        assert "Switch speaker" in {c.command for c in commands}  # a command of the panel
        assert sorted(searches) == ["Branching", "ProfilePanel"]


async def test_a_profile_without_participants_offers_no_speaker_key(services: Services) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.conversation_open)
        await pilot.pause()
        assert "f2" not in screen.active_bindings
        await pilot.press("f2")
        await pilot.pause()
        assert screen.composer.speaker == "You"


async def test_the_palette_runs_branching_commands_on_the_chats_body(
    services: Services,
) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.open_conversation(seed_conversation(services))
        await wait_until(pilot, lambda: screen.state.conversation is not None)
        question = screen.messages.items[0]
        screen.selected_id = question.id
        await palette_run(pilot, "Fork from selected message")
        await wait_until(pilot, lambda: screen.forking)
        # a fork at a question asks another one in its place (here the first: a new root)
        assert screen.compose_mode.parent is None
        assert [item.id for item in screen.messages.items] == []  # nothing comes before it
