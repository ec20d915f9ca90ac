"""A branch as its own conversation: the path to the selected message is copied (roles,
text, status, tool pairing), the copy notes where it came from and opens; the original keeps
every branch."""

from __future__ import annotations

from storage.branch_copy import branch_to_conversation
from storage.models import MessageStatus
from tests.ui_app.conftest import SIZE, chat, new_app, settle
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services


def seed(services: Services) -> tuple[str, list[str], str]:
    """A conversation with a fork: q1 → a1 → q2 → a2, and q1 → a1 → q2' (another branch)."""
    store = services.store
    conversation = store.create_conversation("ide-helper", "Refactor", meta={"project_root": "/p"})
    q1 = store.add_message(conversation.id, "user", "q1", None)
    a1 = store.add_message(
        conversation.id, "assistant", "", q1.id,
        meta={"tool_calls": [{"id": "c1", "name": "list_files", "args": {}}]},
    )  # fmt: skip
    t1 = store.add_message(
        conversation.id, "tool", "a.py", a1.id, meta={"tool_call_id": "c1", "name": "list_files"}
    )
    a1b = store.add_message(conversation.id, "assistant", "a1", t1.id)
    q2 = store.add_message(conversation.id, "user", "q2", a1b.id)
    a2 = store.add_message(
        conversation.id, "assistant", "half an answer", q2.id, meta={"status": "cancelled"}
    )
    store.add_message(conversation.id, "user", "q2 other", a1b.id)
    return conversation.id, [q1.id, a1.id, t1.id, a1b.id, q2.id, a2.id], a2.id


def test_the_copy_holds_the_path_and_notes_its_origin(services: Services) -> None:
    source_id, _, leaf = seed(services)
    copy = branch_to_conversation(services.store, leaf)
    records = services.store.list_messages(copy.id)
    assert [r.content for r in records] == ["q1", "", "a.py", "a1", "q2", "half an answer"]
    assert records[1].tool_calls[0]["id"] == "c1"
    assert records[2].tool_call_id == "c1"
    assert records[-1].status is MessageStatus.CANCELLED
    assert copy.meta["branched_from"] == {
        "conversation_id": source_id, "message_id": leaf, "title": "Refactor",
    }  # fmt: skip
    assert copy.meta["project_root"] == "/p"
    assert copy.title == "Refactor (branch)"
    assert len(services.store.list_messages(source_id)) == 7  # the original keeps every branch


async def test_the_palette_copies_the_selected_branch_and_opens_it(services: Services) -> None:
    source_id, path_ids, _ = seed(services)
    async with new_app(services, conversation_id=source_id).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        screen.selected_id = path_ids[3]  # the answer a1: the copy ends there
        await palette_run(pilot, "Branch as new conversation")
        await settle(pilot)
        opened = screen.state.conversation
        assert opened is not None
        assert opened.id != source_id
        assert [item.content for item in screen.messages.items][-1] == "a1"
        assert opened.meta["branched_from"]["message_id"] == path_ids[3]
        assert any("Copied 4 messages" in n.message for n in pilot.app._notifications)
