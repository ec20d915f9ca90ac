"""A branch switch redraws only the tree lines from its fork down, and what is drawn is the
same as a tree drawn from scratch (no stale line kept from before the switch)."""

from __future__ import annotations

from typing import Any

from tests.ui_tree.conftest import TREE_SIZE, TreeHost, other_branch_leaf
from tests.ui_tree.records import big_conversation
from weaver_tui.widgets.conversation_tree import ConversationTree


def drawn(tree: ConversationTree) -> list[list[tuple[str, Any]]]:
    """Every visible line as its (text, style) segments."""
    height = tree.scrollable_content_region.height
    return [
        [(segment.text, segment.style) for segment in tree.render_line(y)] for y in range(height)
    ]


def from_scratch(tree: ConversationTree) -> list[list[tuple[str, Any]]]:
    tree._line_cache.clear()
    return drawn(tree)


async def test_switches_keep_the_lines_above_the_fork_and_draw_the_same() -> None:
    records, leaf = big_conversation(path_length=120, total=400, seed=5)
    host = TreeHost(records, leaf)
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        await pilot.pause()
        index = tree._index
        path = index.path_to(leaf)
        forks = [m for m in path[-40:-1] if len(index.children(m)) > 1]
        assert len(forks) >= 2, "the generated path has forks near its bottom"
        kept_somewhere = False
        for fork in [forks[-1], forks[0], forks[-1]]:
            target = other_branch_leaf(tree, fork)
            before = drawn(tree)
            cached = dict.fromkeys(tree._line_cache.keys())
            tree.set_active_path(target)
            await pilot.pause()
            after = drawn(tree)
            fork_y = tree._line_nodes[fork].line - round(tree.scroll_y)
            # lines drawn above the fork before the switch were not drawn again
            kept = [key for key in tree._line_cache.keys() if key in cached]  # noqa: SIM118
            kept_somewhere |= bool(kept) and all(
                isinstance(key[0], int) and key[0] < fork_y + tree.scroll_y for key in kept
            )
            assert after == from_scratch(tree)
            assert before != after
        assert kept_somewhere


async def test_a_switch_between_two_last_replies_redraws_both_version_lines() -> None:
    """The two version lines keep their line numbers across the switch: only their look (the
    active one is bold and marked) tells them apart, so a line kept by number would be stale."""
    from tests.ui_tree.records import RecordFactory

    factory = RecordFactory()
    parent = None
    for n in range(20):
        parent = factory.add("user" if n % 2 == 0 else "assistant", f"message {n}", parent)
    question = factory.add("user", "the last question", parent)
    first = factory.add("assistant", "first answer", question)
    second = factory.add("assistant", "second answer", question)
    host = TreeHost(factory.records, second.id)
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        await pilot.pause()
        for target in (first.id, second.id, first.id):
            before = drawn(tree)
            lines = {mid: tree._line_nodes[mid].line for mid in (first.id, second.id)}
            tree.set_active_path(target)
            await pilot.pause()
            assert {mid: tree._line_nodes[mid].line for mid in lines} == lines
            after = drawn(tree)
            assert after != before
            assert after == from_scratch(tree)
