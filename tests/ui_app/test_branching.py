"""Keyboard branching: fork, edit, regenerate, flip versions, check out and delete, asserted on
the store and on the widgets. Replies come from the fake OpenAI server's echo ("You said: X")."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from storage.models import MessageRecord
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.confirm import ConfirmScreen

pytestmark = pytest.mark.usefixtures("researcher")

PROFILE = "researcher"


def records(screen: ChatScreen) -> list[MessageRecord]:
    assert screen.state.conversation is not None
    return screen.state.store.list_messages(screen.state.conversation.id)


def by_content(screen: ChatScreen, content: str) -> MessageRecord:
    return next(r for r in records(screen) if r.content == content)


def shown(screen: ChatScreen) -> list[str]:
    return [item.content for item in screen.messages.items]


async def tree_cursor_to(pilot: Pilot[Any], message_id: str) -> None:
    """Focus the tree (Ctrl+T) and walk the cursor to ``message_id`` with the arrow keys."""
    screen = chat(pilot.app)
    if not screen.tree.has_focus:
        await pilot.press("ctrl+t")
    for key in ("up", "down"):
        for _ in range(40):
            if screen.tree.selected_message_id == message_id:
                return
            await pilot.press(key)
    raise AssertionError(f"the tree cursor never reached {message_id}")


async def view_select(pilot: Pilot[Any], message_id: str) -> None:
    """Focus the message view and select ``message_id`` with the arrow keys."""
    screen = chat(pilot.app)
    screen.messages.focus()
    for key in ("up", "down"):
        for _ in range(40):
            if screen.messages.selected_message_id == message_id:
                return
            await pilot.press(key)
    raise AssertionError(f"the message view never selected {message_id}")


def seed_two_turns(services: Services) -> None:
    """one → "You said: one" → two → "You said: two", written straight into the store (the
    turns themselves are tested elsewhere; here they only set the scene)."""
    store = services.store
    conversation = store.create_conversation(PROFILE, "one")
    parent = None
    for text in ("one", "two"):
        parent = store.add_message(conversation.id, "user", text, parent).id
        meta = {"provider": "openai-compatible", "model": "fake-model", "status": "complete"}
        parent = store.add_message(
            conversation.id, "assistant", f"You said: {text}", parent, meta
        ).id


async def two_turns(pilot: Pilot[Any]) -> ChatScreen:
    screen = chat(pilot.app)
    assert shown(screen) == ["one", "You said: one", "two", "You said: two"]
    return screen


async def test_fork_from_a_tree_node_starts_a_new_branch_there(
    remote_services: Services,
) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        first_reply = by_content(screen, "You said: one")
        await tree_cursor_to(pilot, first_reply.id)
        await pilot.press("f")
        assert screen.composer.has_focus
        assert "fork" in screen.composer.hint
        assert shown(screen) == ["one", "You said: one"]
        await pilot.press("escape")  # changed my mind: back to the branch as it was
        assert not screen.compose_mode.forking
        assert screen.composer.hint == ""
        assert shown(screen) == ["one", "You said: one", "two", "You said: two"]
        await tree_cursor_to(pilot, first_reply.id)
        await pilot.press("f")
        await send(pilot, "other way")
        forked = by_content(screen, "other way")
        assert forked.parent_id == first_reply.id
        assert forked.version == 2
        assert shown(screen) == ["one", "You said: one", "other way", "You said: other way"]
        assert str(screen.header.branch) == "branch 2/2 · depth 4"
        leaf = screen.state.store.active_leaf(forked.conversation_id)
        assert leaf is not None
        assert leaf.content == "You said: other way"


async def test_edit_makes_a_sibling_version_and_a_new_reply(remote_services: Services) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        second = by_content(screen, "two")
        await view_select(pilot, second.id)
        await pilot.press("e")
        assert screen.composer.text == "two"
        assert "editing" in screen.composer.hint
        await send(pilot, "two, edited")
        edited = by_content(screen, "two, edited")
        assert edited.parent_id == second.parent_id
        assert edited.version == 2
        assert [r.id for r in screen.state.store.siblings(second.id)] == [second.id, edited.id]
        assert by_content(screen, "You said: two, edited").parent_id == edited.id
        assert by_content(screen, "You said: two").parent_id == second.id  # the old one stays
        item = screen.messages.get_item(edited.id)
        assert item is not None
        assert (item.version, item.sibling_count) == (2, 2)


async def test_e_on_a_reply_edits_it_from_the_tree_as_from_the_view(
    remote_services: Services,
) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        reply = by_content(screen, "You said: one")
        await tree_cursor_to(pilot, reply.id)
        await pilot.press("e")
        await pilot.pause()
        assert screen.composer.text == "You said: one"
        assert screen.composer.hint.startswith("editing reply")
        await pilot.press("escape")
        await view_select(pilot, reply.id)
        await pilot.press("e")
        await pilot.pause()
        assert screen.composer.text == "You said: one"
        assert screen.composer.hint.startswith("editing reply")


async def test_regenerate_adds_a_sibling_reply(remote_services: Services) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        old = by_content(screen, "You said: two")
        await tree_cursor_to(pilot, old.id)
        await pilot.press("r")
        await settle(pilot)
        replies = screen.state.store.siblings(old.id)
        assert [r.version for r in replies] == [1, 2]
        assert replies[1].content == "You said: two"
        assert replies[1].id != old.id
        assert screen.messages.items[-1].id == replies[1].id
        assert (screen.messages.items[-1].version, screen.messages.items[-1].sibling_count) == (
            2,
            2,
        )


async def test_version_flip_switches_the_rest_of_the_path(remote_services: Services) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        second = by_content(screen, "two")
        await view_select(pilot, second.id)
        await pilot.press("e")
        await send(pilot, "deux")
        await send(pilot, "trois")
        edited = by_content(screen, "deux")
        await view_select(pilot, edited.id)
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert shown(screen) == ["one", "You said: one", "two", "You said: two"]
        assert screen.messages.selected_message_id == second.id
        leaf = screen.state.store.active_leaf(second.conversation_id)
        assert leaf is not None
        assert leaf.content == "You said: two"
        await pilot.press("right_square_bracket")
        await pilot.pause()
        # back on v2, the remembered branch below it comes back, down to its last reply
        assert shown(screen)[-2:] == ["trois", "You said: trois"]
        assert str(screen.header.branch) == "branch 2/2 · depth 6"
        # the tree is in step with the view: its cursor is on the version shown
        assert screen.tree.selected_message_id == edited.id
        assert screen.tree.active_leaf_id == by_content(screen, "You said: trois").id


def seed_two_versions(services: Services) -> None:
    """The two turns, then a second version of "two" ("deux") answered twice over, so its
    remembered leaf is two records below it; "deux" is the active branch."""
    seed_two_turns(services)
    store = services.store
    conversation = store.list_conversations()[0]
    two = next(r for r in store.list_messages(conversation.id) if r.content == "two")
    parent = two.parent_id
    for text in ("deux", "trois"):
        parent = store.add_message(conversation.id, "user", text, parent).id
        parent = store.add_message(conversation.id, "assistant", f"You said: {text}", parent).id


async def test_tree_brackets_switch_the_version_the_chat_shows(
    remote_services: Services,
) -> None:
    seed_two_versions(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        assert shown(screen)[-2:] == ["trois", "You said: trois"]
        two, deux = by_content(screen, "two"), by_content(screen, "deux")
        await tree_cursor_to(pilot, deux.id)
        await pilot.press("left_square_bracket")  # v1/2 of the second question
        await pilot.pause()
        assert screen.tree.selected_message_id == two.id
        assert shown(screen) == ["one", "You said: one", "two", "You said: two"]
        assert screen.messages.selected_message_id == two.id
        assert str(screen.header.branch) == "branch 1/2 · depth 4"
        assert screen.tree.active_leaf_id == by_content(screen, "You said: two").id
        screen.state.settle()
        leaf = screen.state.store.active_leaf(two.conversation_id)
        assert leaf is not None
        assert leaf.content == "You said: two"  # remembered, as Enter does
        await pilot.press("left_square_bracket")  # no version before v1: nothing changes
        await pilot.pause()
        assert screen.tree.selected_message_id == two.id
        await pilot.press("right_square_bracket")  # back to v2 and its remembered leaf
        await pilot.pause()
        assert screen.tree.selected_message_id == deux.id
        assert shown(screen)[2:] == ["deux", "You said: deux", "trois", "You said: trois"]
        assert screen.tree.has_focus  # the user goes on walking the tree


async def test_check_out_a_tree_node_shows_its_remembered_branch(
    remote_services: Services,
) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        first_reply = by_content(screen, "You said: one")
        await tree_cursor_to(pilot, first_reply.id)
        await pilot.press("f")
        await send(pilot, "side")
        two = by_content(screen, "two")
        await tree_cursor_to(pilot, two.id)
        await pilot.press("enter")
        await pilot.pause()
        assert shown(screen) == ["one", "You said: one", "two", "You said: two"]
        assert screen.tree.active_leaf_id == by_content(screen, "You said: two").id
        leaf = screen.state.store.active_leaf(two.conversation_id)
        assert leaf is not None
        assert leaf.content == "You said: two"


async def test_delete_branch_asks_first_and_removes_the_subtree(
    remote_services: Services,
) -> None:
    seed_two_turns(remote_services)
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = await two_turns(pilot)
        two = by_content(screen, "two")
        await tree_cursor_to(pilot, two.id)
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert len(records(screen)) == 4
        await tree_cursor_to(pilot, two.id)
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert [r.content for r in records(screen)] == ["one", "You said: one"]
        assert shown(screen) == ["one", "You said: one"]
        assert screen.state.leaf_id == by_content(screen, "You said: one").id
