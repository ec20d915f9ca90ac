"""Runs of consecutive forks (an edited question, then a regenerated reply, and so on) stay
one indent deep: each fork after the first gets a group line at the chain's level."""

from __future__ import annotations

import random

from storage.models import MessageRecord, Role
from tests.ui_tree.conftest import TREE_SIZE, TreeHost, other_branch_leaf, tree_host
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree import ConversationTree


def every_message_forks(length: int) -> tuple[list[MessageRecord], str]:
    """A path of ``length`` messages, each with an older sibling version."""
    f = RecordFactory()
    parent: MessageRecord | None = None
    for n in range(length):
        role: Role = "user" if n % 2 == 0 else "assistant"
        f.add(role, f"older {n}", parent)
        parent = f.add(role, f"newer {n}", parent)
    assert parent is not None
    return f.records, parent.id


def mostly_forks(length: int, sides: int, seed: int) -> tuple[list[MessageRecord], str]:
    """A path with ``sides`` one-message side versions hung off random path messages."""
    rng = random.Random(seed)
    f = RecordFactory()
    path: list[MessageRecord] = []
    parent: MessageRecord | None = None
    for n in range(length):
        parent = f.add("user" if n % 2 == 0 else "assistant", f"path {n}", parent)
        path.append(parent)
    for n in range(sides):
        above = rng.choice(path[:-1])
        f.add("assistant" if above.role == "user" else "user", f"side {n}", above)
    return f.records, path[-1].id


def outline(tree: ConversationTree) -> list[tuple[str, int, bool]]:
    """Every line as (its text, its depth, expanded), for comparing two layouts."""
    rows = []
    for line in tree._tree_lines:
        node = line.node
        text = "".join(part for part, _ in tree._label(node).parts)
        rows.append((text, len(line.path), node.is_expanded))
    return rows


async def test_a_run_of_forks_stays_one_indent_deep() -> None:
    records, leaf = every_message_forks(12)
    async with TreeHost(records, leaf).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        depths = {len(line.path) for line in tree._tree_lines}
        assert depths == {1, 2}, "group lines at the top, versions one level under them"
        groups = [text for text, depth, _ in outline(tree) if depth == 1]
        assert groups == [
            "⑂ 2 first-message versions",
            "⑂ 2 reply versions",
            "⑂ 2 message versions",
        ] + ["⑂ 2 reply versions", "⑂ 2 message versions"] * 4 + ["⑂ 2 reply versions"]
        assert tree.is_shown(leaf)
        assert tree.selected_message_id == leaf
        # the versions still read as versions, and the group line is not a message
        assert "v2/2" in tree.label_text(leaf).split()
        tree.move_cursor(tree._line_nodes[leaf].parent)
        assert tree.selected_message_id is None


async def test_a_fork_on_the_chain_still_holds_its_own_versions() -> None:
    f = RecordFactory()
    question = f.add("user", "question")
    f.add("assistant", "first reply", question)
    second = f.add("assistant", "second reply", question)
    follow_up = f.add("user", "follow-up", second)
    async with TreeHost(f.records, follow_up.id).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        assert [(text.split()[1], depth) for text, depth, _ in outline(tree)] == [
            ("question", 1),
            ("v1/2", 2),
            ("v2/2", 2),
            ("follow-up", 1),
        ]


async def test_switching_inside_fork_runs_lays_out_what_a_fresh_load_does() -> None:
    records, leaf = mostly_forks(length=80, sides=200, seed=5)
    rng = random.Random(2)
    switched: list[tuple[str, list[tuple[str, int, bool]]]] = []
    async with TreeHost(records, leaf).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        index = tree._index
        forks = [m for m in index.path_to(leaf)[:-1] if len(index.children(m)) > 1]
        for fork in rng.sample(forks, 8):
            target = other_branch_leaf(tree, fork)
            tree.set_active_path(target)
            await pilot.pause()
            assert tree.selected_message_id is not None
            switched.append((target, outline(tree)))
        tree.set_active_path(leaf)
        await pilot.pause()
        switched.append((leaf, outline(tree)))
    for target, lines in switched:
        async with TreeHost(records, target).run_test(size=TREE_SIZE) as pilot:
            await pilot.pause()
            assert outline(tree_host(pilot).conversation_tree) == lines, target


async def test_enter_on_a_group_line_closes_and_opens_it() -> None:
    records, leaf = every_message_forks(4)
    async with TreeHost(records, leaf).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        tree.focus()
        group = tree._line_nodes[leaf].parent
        assert group is not None
        tree.move_cursor(group)
        await pilot.press("enter")
        assert not group.is_expanded
        assert not tree.is_shown(leaf)
        assert tree_host(pilot).requests == []  # no checkout asked for
        await pilot.press("enter")
        assert group.is_expanded
        assert tree.is_shown(leaf)
