"""Records arriving while a reply streams: only the changed branch is laid out again."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.conversation_tree.labels import ACTIVE_MARK


def child_of(
    parent: MessageRecord, new_id: str, role: str, content: str, version: int = 1, **meta: object
) -> MessageRecord:
    return MessageRecord(
        id=new_id,
        conversation_id=parent.conversation_id,
        role=role,  # type: ignore[arg-type]
        content=content,
        parent_id=parent.id,
        depth=parent.depth + 1,
        version=version,
        created_at=parent.created_at + timedelta(minutes=5),
        meta=dict(meta),
    )


def line_nodes(tree: ConversationTree) -> dict[str, object]:
    """Identity of every laid-out line, to tell which lines were rebuilt."""
    return {
        node.data: node
        for y in range(tree.last_line + 1)
        if (node := tree.get_node_at_line(y)) is not None and node.data is not None
    }


async def test_a_new_reply_is_appended_and_nothing_else_is_rebuilt(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        before = line_nodes(tree)
        question = child_of(r["a4"], "n1", "user", "One more question")
        tree.add_record(question)
        reply = child_of(question, "n2", "assistant", "", status="streaming")
        tree.add_record(reply)
        await pilot.pause()
        after = line_nodes(tree)
        assert all(after[key] is node for key, node in before.items())
        assert tree.active_leaf_id == "n2"
        assert tree.label_text("n2").startswith(ACTIVE_MARK)
        assert "streaming" in tree.label_text("n2")
        last = tree.get_node_at_line(tree.last_line)
        assert last is not None
        assert last.data == "n2"


async def test_a_regenerated_reply_becomes_a_new_version_below_the_fork_only(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        before = line_nodes(tree)
        again = child_of(r["u2"], "n3", "assistant", "A third try", version=3)
        tree.add_record(again)
        await pilot.pause()
        after = line_nodes(tree)
        for key in ("u1", "u1b", "a1", "u2"):
            assert after[r[key].id] is before[r[key].id], key
        assert "v3/3" in tree.label_text("n3")
        assert "v2/3" in tree.label_text(r["a2b"].id)
        assert tree.active_leaf_id == "n3"
        assert not tree.is_shown(r["u3"].id)  # the old reply's turn is now a side branch


async def test_a_record_added_without_activating_keeps_the_active_path(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.add_record(child_of(r["a1b"], "n4", "user", "hidden follow-up"), make_active=False)
        await pilot.pause()
        assert tree.active_leaf_id == r["a4"].id
        assert tree.label_text(r["u1b"].id).endswith("+2")


async def test_update_record_redraws_its_line(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.update_record(replace(r["a4"], content="Rewritten answer", meta={"status": "error"}))
        await pilot.pause()
        label = tree.label_text(r["a4"].id)
        assert "Rewritten answer" in label
        assert "✗ error" in label


async def test_follow_keeps_the_cursor_on_the_streaming_reply(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        question = child_of(r["a4"], "n1", "user", "next")
        tree.add_record(question)
        tree.follow("n1")
        reply = child_of(question, "n2", "assistant", "")
        tree.add_record(reply)
        tree.follow("n2")
        await pilot.pause()
        assert tree.selected_message_id == "n2"
        # the user walks away: following stops moving the cursor
        await pilot.press("left", "left")
        tree.add_record(child_of(reply, "n5", "tool", "out", tool_call_id="x"))
        tree.follow("n5")
        await pilot.pause()
        assert tree.selected_message_id == r["a4"].id


async def test_remove_branch_drops_its_lines(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.remove_branch(r["a2b"].id)
        await pilot.pause()
        assert not tree.is_shown(r["u3"].id)
        assert "/" not in tree.label_text(r["a2"].id)  # a single version again
        assert tree.selected_message_id == r["u2"].id


async def test_an_opened_side_branch_stays_open_when_the_path_moves(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.focus()
        tree.move_cursor(tree.get_node_at_line(5))  # a2, the cancelled first try
        assert tree.selected_message_id == r["a2"].id
        tree.add_record(child_of(r["a2"], "n6", "user", "retry from here"), make_active=False)
        await pilot.press("space")
        await pilot.pause()
        assert tree.is_shown("n6")
        # a third version at the same fork lays out everything below u2 again
        tree.add_record(child_of(r["u2"], "n7", "assistant", "third try", version=3))
        await pilot.pause()
        assert tree.active_leaf_id == "n7"
        assert tree.is_shown("n6")


async def test_a_record_whose_parent_is_unknown_is_ignored(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        stray = replace(child_of(r["a4"], "n8", "user", "stray"), parent_id="nowhere")
        host.conversation_tree.add_record(stray)
        await pilot.pause()
        assert not host.conversation_tree.is_shown("n8")
        assert host.conversation_tree.active_leaf_id == r["a4"].id
