"""What the branched tree looks like (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from collections.abc import Callable

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost, tree_host
from tests.ui_tree.records import RecordFactory


def test_branched_tree_with_versions(
    snap_compare: Callable[..., bool], branched: tuple[RecordFactory, dict[str, MessageRecord]]
) -> None:
    factory, r = branched
    app = TreeHost(factory.records, r["a4"].id)

    async def focus_tree(pilot) -> None:  # type: ignore[no-untyped-def]
        tree_host(pilot).conversation_tree.focus()
        await pilot.press("left", "left", "left", "left")  # onto v2/2 of the regenerated reply

    assert snap_compare(app, terminal_size=TREE_SIZE, run_before=focus_tree)
