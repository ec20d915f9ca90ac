"""Finding and reopening conversations: full-text search lands on the branch of the hit, and a
new app instance on the same data folder reopens the last conversation on the exact branch."""

from __future__ import annotations

from storage.models import MessageRecord
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.conversations import ConversationsScreen
from weaver_tui.widgets.composer import Composer


def branched(services: Services, title: str, hidden_word: str) -> dict[str, MessageRecord]:
    """q → a1 (v1, holds ``hidden_word``) / a2 (v2, active)."""
    store = services.store
    conversation = store.create_conversation("atom-developer", title)
    question = store.add_message(conversation.id, "user", f"{title} question", None)
    hidden = store.add_message(conversation.id, "assistant", f"About {hidden_word}.", question.id)
    shown = store.add_message(conversation.id, "assistant", "Plain answer.", question.id)
    return {"question": question, "hidden": hidden, "shown": shown}


async def test_search_opens_the_conversation_on_the_branch_of_the_hit(
    services: Services,
) -> None:
    target = branched(services, "Zoo", "zebras")
    branched(services, "Farm", "cows")
    async with new_app(services).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        assert screen.state.conversation is not None
        assert screen.state.conversation.title == "Farm"
        await pilot.press("ctrl+p")
        await pilot.press(*"search conv")
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConversationsScreen))
        listing = pilot.app.screen
        assert isinstance(listing, ConversationsScreen)
        await wait_until(
            pilot, lambda: listing.focused is not None and listing.focused.id == "search"
        )
        await pilot.press(*"zebras")
        await wait_until(pilot, lambda: listing.searching and len(listing._hits) == 1)
        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: pilot.app.screen is screen)
        await settle(pilot)
        assert screen.state.conversation is not None
        assert screen.state.conversation.title == "Zoo"
        assert [item.content for item in screen.messages.items] == [
            "Zoo question",
            "About zebras.",
        ]
        assert screen.messages.selected_message_id == target["hidden"].id
        leaf = services.store.active_leaf(screen.state.conversation.id)
        assert leaf is not None
        assert leaf.id == target["hidden"].id


async def test_reopening_lands_on_the_branch_the_user_left(services: Services) -> None:
    ids = branched(services, "Zoo", "zebras")
    async with new_app(services).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        assert screen.messages.items[-1].id == ids["shown"].id
        screen.messages.focus()
        await pilot.press("down", "down")  # select the reply (v2/2)
        assert screen.messages.selected_message_id == ids["shown"].id
        await pilot.press("left_square_bracket")  # v1/2
        await pilot.pause()
        await send(pilot, "tell me more about zebras")
        leaf = screen.state.leaf_id
        path = [item.id for item in screen.messages.items]
        assert path[:2] == [ids["question"].id, ids["hidden"].id]
    services.close_store()
    again = build_services(provider="offline")
    try:
        async with new_app(again).run_test(size=SIZE) as pilot:
            screen = chat(pilot.app)
            await settle(pilot)
            assert screen.state.leaf_id == leaf
            assert [item.id for item in screen.messages.items] == path
            assert screen.tree.active_leaf_id == leaf
            assert isinstance(pilot.app.focused, Composer)
    finally:
        again.close_store()
