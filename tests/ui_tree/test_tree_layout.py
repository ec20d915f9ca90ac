"""The tree shows every version, marks the active path, and keeps side branches collapsed."""

from __future__ import annotations

from textual._compositor import LayoutUpdate

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost, tree_host
from tests.ui_tree.records import RecordFactory, big_conversation
from weaver_tui.widgets.conversation_tree.labels import ACTIVE_MARK, PRIVATE_MARK


async def test_sibling_versions_show_their_position(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE):
        tree = host.conversation_tree
        assert "v1/2" in tree.label_text(r["a2"].id)
        assert "v2/2" in tree.label_text(r["a2b"].id)
        assert "v1/2" in tree.label_text(r["u1"].id)
        assert "v2/2" in tree.label_text(r["u1b"].id)
        assert "/" not in tree.label_text(r["u3"].id)


async def test_active_path_is_marked_and_the_rest_is_not(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE):
        tree = host.conversation_tree
        for key in ("u1", "a1", "u2", "a2b", "u3", "a3", "t1", "a4"):
            assert tree.label_text(r[key].id).startswith(ACTIVE_MARK), key
        for key in ("a2", "u1b"):
            assert not tree.label_text(r[key].id).startswith(ACTIVE_MARK), key
        assert tree.active_leaf_id == r["a4"].id
        assert tree.selected_message_id == r["a4"].id


async def test_labels_show_role_content_status_and_tool_calls(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE):
        tree = host.conversation_tree
        assert "● Show me an example" in tree.label_text(r["u2"].id)
        assert "with two lines" not in tree.label_text(r["u2"].id)
        assert "cancelled" in tree.label_text(r["a2"].id)
        assert "→ search(" in tree.label_text(r["a3"].id)
        assert "⚙ search: found 3 results" in tree.label_text(r["t1"].id)


async def test_side_branch_is_collapsed_with_its_size(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE):
        tree = host.conversation_tree
        assert tree.is_shown(r["u1b"].id)
        assert not tree.is_shown(r["a1b"].id)
        assert tree.label_text(r["u1b"].id).endswith("+1")


async def test_private_mediator_message_shows_its_recipient() -> None:
    f = RecordFactory()
    question = f.add("user", "I worry about money", sender="Alex")
    private = f.add("assistant", "Thank you for telling me.", question, visibility="Alex")
    shared = f.add("assistant", "Let us talk together.", private, visibility="shared")
    async with TreeHost(f.records, shared.id).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        assert tree.label_text(private.id).startswith(f"{ACTIVE_MARK}◆ {PRIVATE_MARK}Alex Thank")
        assert PRIVATE_MARK not in tree.label_text(shared.id)
    # the recipient is seen in a pane as narrow as the app's (28 columns)
    async with TreeHost(f.records, shared.id).run_test(size=(28, 10)) as pilot:
        await pilot.pause()
        update = pilot.app.screen._compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)
        screen_text = "\n".join(strip.text for line in update.strips for strip in line)
        assert f"{PRIVATE_MARK}Alex" in screen_text


async def test_set_active_path_moves_the_main_line_to_the_other_version(
    host: TreeHost, branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    _, r = branched
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.conversation_tree
        tree.set_active_path(r["a2"].id)
        await pilot.pause()
        assert tree.active_leaf_id == r["a2"].id
        assert tree.label_text(r["a2"].id).startswith(ACTIVE_MARK)
        assert not tree.label_text(r["a2b"].id).startswith(ACTIVE_MARK)
        # the old continuation now lives inside the collapsed v2 branch
        assert not tree.is_shown(r["u3"].id)
        assert tree.label_text(r["a2b"].id).endswith("+4")


async def test_ten_thousand_records_load_with_the_active_path_laid_out() -> None:
    records, leaf = big_conversation(path_length=2000, total=10_000)
    async with TreeHost(records, leaf).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        path = []
        current: str | None = leaf
        by_id = {record.id: record for record in records}
        while current is not None:
            path.append(current)
            current = by_id[current].parent_id
        assert len(path) == 2000
        assert all(tree.is_shown(message_id) for message_id in path)
        assert tree.selected_message_id == leaf
        # side branches stay collapsed: far fewer lines than records
        assert tree.last_line + 1 < 4000
        assert tree.scroll_offset.y > 0  # scrolled down to the leaf


async def test_a_lines_marks_come_before_its_text_so_a_narrow_pane_never_cuts_them() -> None:
    f = RecordFactory()
    question = f.add("user", "Rename load_config in src/app.py")
    call = f.add("assistant", "", question)
    long_result = "Applied patch p-4fb9f6aa to src/app.py: " + "a change that goes on " * 8
    applied = f.add("tool", long_result, call, patch_status="applied")
    reverted = f.add("tool", long_result, applied, patch_status="reverted")
    stopped = f.add("assistant", "A long reply that goes on " * 6, reverted, status="cancelled")
    async with TreeHost(f.records, stopped.id).run_test(size=(32, 12)) as pilot:
        await pilot.pause()
        update = pilot.app.screen._compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)
        screen_text = "\n".join(strip.text for line in update.strips for strip in line)
        for mark in ("✎ applied", "↶ reverted", "⊘ cancelled"):
            assert mark in screen_text, screen_text
