"""Laying out a big tree measures every line but keeps only what it draws: the labels of the
lines in view and the records they show; every other line keeps its width only."""

from __future__ import annotations

from textual.app import App, ComposeResult

from storage.codec import dump_meta, time_to_text
from storage.models import MessageRecord
from storage.rows import MessageRow
from storage.tree_index import TreeIndex
from tests.ui_tree.conftest import TREE_SIZE
from tests.ui_tree.records import big_conversation
from weaver_tui.widgets.conversation_tree import ConversationTree


def as_row(record: MessageRecord) -> MessageRow:
    """The record as the store hands it out, undecoded."""
    meta = dict(record.meta)
    status = str(meta.pop("status", "complete"))
    return MessageRow(
        record.id,
        record.conversation_id,
        record.role,
        record.content,
        record.parent_id,
        record.depth,
        record.version,
        status,
        time_to_text(record.created_at),
        dump_meta(meta),
    )


class IndexHost(App[None]):
    def __init__(self, index: TreeIndex, leaf: str) -> None:
        super().__init__()
        self.index, self.leaf = index, leaf

    def compose(self) -> ComposeResult:
        yield ConversationTree(id="tree")

    def on_mount(self) -> None:
        self.query_one(ConversationTree).load_index(self.index, self.leaf)


async def test_a_big_tree_keeps_the_drawn_lines_labels_and_records_only() -> None:
    records, leaf = big_conversation(path_length=300, total=1200, seed=3)
    lazy = TreeIndex.from_rows([as_row(record) for record in records])
    lazy_host = IndexHost(lazy, leaf)
    async with lazy_host.run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = lazy_host.query_one(ConversationTree)
        lines = len(tree._tree_lines)
        height = tree.scrollable_content_region.height
        assert lines > 300
        assert len(tree._widths) > 300  # every line was measured
        assert len(tree._labels) <= height  # only the drawn ones were built and kept
        # the active path's records (the chat shows them) and the drawn lines' ones
        assert lazy.decoded_count <= len(lazy.path_to(leaf)) + 10 * height
        lazy_width = tree.virtual_size.width
    eager = IndexHost(TreeIndex(records), leaf)
    async with eager.run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        assert eager.query_one(ConversationTree).virtual_size.width == lazy_width
