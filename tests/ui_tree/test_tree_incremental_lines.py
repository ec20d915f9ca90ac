"""Branch switches rebuild the tree's line list from the fork on, and get the same lines."""

from __future__ import annotations

import random

from tests.ui_tree.conftest import TREE_SIZE, TreeHost, other_branch_leaf
from tests.ui_tree.records import big_conversation
from weaver_tui.widgets.conversation_tree import ConversationTree


def line_shape(tree: ConversationTree) -> list[tuple[object, bool, int, int]]:
    """Every line as (node identity, last, depth, line number the node thinks it has)."""
    return [
        (id(line.node), line.last, len(line.path), line.node._line) for line in tree._tree_lines
    ]


def full_shape(tree: ConversationTree) -> list[tuple[object, bool, int, int]]:
    """What Textual's own full build gives for the same nodes (forced)."""
    tree._rebuild_all = True
    tree._clear_line_cache()
    return line_shape(tree)


async def test_switches_near_the_bottom_keep_the_lines_above_the_fork() -> None:
    records, leaf = big_conversation(path_length=300, total=900, seed=3)
    host = TreeHost(records, leaf)
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        await pilot.pause()
        index = tree._index
        path = index.path_to(leaf)
        forks = [m for m in path[:-1] if len(index.children(m)) > 1]
        assert forks, "the generated tree has forks on its path"
        rng = random.Random(11)
        reused = 0
        for fork in rng.sample(forks, min(6, len(forks))) + forks[-2:]:
            before = list(tree._tree_lines)
            target = other_branch_leaf(tree, fork)
            tree.set_active_path(target)
            await pilot.pause()
            incremental = line_shape(tree)
            fork_line = tree._line_nodes[fork].line
            kept = tree._tree_lines[:fork_line]
            # the lines above the fork are the very same line objects as before
            reused += all(a is b for a, b in zip(kept, before, strict=False))
            assert incremental == full_shape(tree)
            assert tree.cursor_node is not None
            assert tree.cursor_node.line == tree.cursor_line
        assert reused >= 4, "most switches kept the lines above their fork"
        # back to the first branch, then a user expanding a side branch (not described: full)
        tree.set_active_path(leaf)
        await pilot.pause()
        assert line_shape(tree) == full_shape(tree)
        stub = next(n for n in tree._continuation.values() if n.allow_expand and n.data)
        stub.toggle()
        await pilot.pause()
        assert line_shape(tree) == full_shape(tree)
