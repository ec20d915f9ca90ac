"""Walking and branching from the keyboard: each key moves or posts the right request."""

from __future__ import annotations

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree import ConversationTree


async def test_left_goes_to_parent_and_right_comes_back(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        await pilot.press("left", "left", "left")
        assert tree.selected_message_id == r["u3"].id
        await pilot.press("left")
        assert tree.selected_message_id == r["a2b"].id
        await pilot.press("left")
        assert tree.selected_message_id == r["u2"].id
        await pilot.press("right")  # back to the child we came from, not the first
        assert tree.selected_message_id == r["a2b"].id


async def test_right_follows_the_active_path_then_the_first_child(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        tree.set_active_path(r["a1"].id)
        tree.move_cursor(tree.get_node_at_line(1))  # u1, the first root version
        await pilot.pause()
        assert tree.selected_message_id == r["u1"].id
        await pilot.press("right", "right")
        assert tree.selected_message_id == r["u2"].id
        await pilot.press("right")  # u2 is off the active path: its first version
        assert tree.selected_message_id == r["a2"].id


async def test_brackets_flip_between_sibling_versions(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        await pilot.press("left", "left", "left", "left")
        assert tree.selected_message_id == r["a2b"].id
        await pilot.press("left_square_bracket")
        assert tree.selected_message_id == r["a2"].id
        await pilot.press("left_square_bracket")  # already the first version: stays
        assert tree.selected_message_id == r["a2"].id
        await pilot.press("right_square_bracket")
        assert tree.selected_message_id == r["a2b"].id
        # each step that moved asks the owner to show that version (the chat switches to it)
        flips = [m for m in host.requests if isinstance(m, ConversationTree.VersionFlipRequested)]
        assert [(m.message_id, m.delta) for m in flips] == [(r["a2b"].id, -1), (r["a2"].id, 1)]


async def test_moving_into_a_collapsed_branch_expands_it(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        tree.move_cursor(tree.get_node_at_line(1))
        await pilot.press("right_square_bracket")
        assert tree.selected_message_id == r["u1b"].id
        assert not tree.is_shown(r["a1b"].id)
        await pilot.press("right")
        assert tree.selected_message_id == r["a1b"].id
        assert tree.is_shown(r["a1b"].id)


async def test_space_expands_and_collapses_a_side_branch(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        tree.move_cursor(tree.get_node_at_line(2))
        assert tree.selected_message_id == r["u1b"].id
        await pilot.press("space")
        await pilot.pause()
        assert tree.is_shown(r["a1b"].id)
        await pilot.press("space")
        await pilot.pause()
        assert not tree.is_shown(r["a1b"].id)


async def test_enter_f_and_delete_post_requests_with_the_selected_id(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        host.conversation_tree.focus()
        await pilot.press("left")  # t1
        await pilot.press("enter", "f", "delete")
        await pilot.pause()
        kinds = [type(message) for message in host.requests]
        assert kinds == [
            ConversationTree.CheckoutRequested,
            ConversationTree.ForkRequested,
            ConversationTree.DeleteRequested,
        ]
        assert {message.message_id for message in host.requests} == {r["t1"].id}
        assert all(message.control is host.conversation_tree for message in host.requests)


async def test_edit_asks_for_any_message_the_chat_decides(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        host.conversation_tree.focus()
        await pilot.press("e")  # on the assistant leaf: the chat edits a reply too
        await pilot.press("left", "left", "left", "e")  # u3
        await pilot.pause()
        assert [type(m) for m in host.requests] == [ConversationTree.EditRequested] * 2
        assert host.requests[1].message_id == r["u3"].id
        assert not host._notifications


async def test_regenerate_names_the_reply_and_its_user_message(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        host.conversation_tree.focus()
        await pilot.press("r")  # the final answer of the u3 turn
        await pilot.press("left", "left", "left", "r")  # u3 itself: regenerate its reply
        await pilot.press("left", "r")  # u2's reply a2b
        await pilot.pause()
        pairs = [(m.message_id, m.user_message_id) for m in host.requests]
        assert pairs == [
            (r["a4"].id, r["u3"].id),
            (r["u3"].id, r["u3"].id),
            (r["a2b"].id, r["u2"].id),
        ]


async def test_regenerate_refuses_a_tool_result(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    async with host.run_test(size=TREE_SIZE) as pilot:
        host.conversation_tree.focus()
        await pilot.press("left", "r")
        await pilot.pause()
        assert host.requests == []
        assert any("regenerated" in n.message for n in host._notifications)
