"""What the chat screen does to paint its first frame early: the conversation is read in a
thread while the screen composes, and the tree pane is filled on the frame after the first.
These tests check that the result is the same as doing it all at once, including when the
conversation cannot be opened or a message is sent before the tree has loaded."""

from __future__ import annotations

from storage.models import Role
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle
from weaver_tui.core.services import Services


def _seed(services: Services, count: int = 6) -> tuple[str, list[str]]:
    store = services.store
    conversation = store.create_conversation("ide-helper", "Seeded")
    ids: list[str] = []
    parent = None
    for n in range(count):
        role: Role = "user" if n % 2 == 0 else "assistant"
        parent = store.add_message(conversation.id, role, f"message {n}", parent).id
        ids.append(parent)
    return conversation.id, ids


async def test_the_tree_pane_fills_after_the_first_frame(services: Services) -> None:
    conversation_id, ids = _seed(services)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        assert [item.id for item in screen.messages.items] == ids
        assert screen.tree.active_leaf_id == ids[-1]
        assert all(screen.tree.is_shown(message_id) for message_id in ids)
        assert screen.tree.label_text(ids[0]).strip()


async def test_a_message_sent_before_the_tree_loads_is_in_the_tree(services: Services) -> None:
    conversation_id, _ = _seed(services, 2)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        screen.tree.load([])  # as between the first frame and the next: the tree still empty
        screen.presenter.tree_pending = True
        assert screen.tree.active_leaf_id is None
        await send(pilot, "hello before the tree")
        records = services.store.list_messages(conversation_id)
        sent = [r for r in records if r.role == "user" and r.content == "hello before the tree"]
        assert len(sent) == 1
        assert records[-1].role == "assistant"
        leaf = screen.state.leaf_id
        assert leaf == records[-1].id
        assert screen.tree.active_leaf_id == leaf
        assert all(screen.tree.is_shown(record.id) for record in records)


async def test_a_conversation_that_cannot_be_opened_is_reported_not_raised(
    services: Services,
) -> None:
    async with new_app(services, conversation_id="no-such-conversation").run_test(
        size=SIZE
    ) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        assert screen.state.conversation is None
        assert screen.messages.items == []
        titles = [notification.title for notification in pilot.app._notifications]
        assert "Could not open the conversation" in titles
