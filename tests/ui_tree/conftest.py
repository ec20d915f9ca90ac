"""A small host app for the conversation tree, and the records it shows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot

from storage.models import MessageRecord
from tests.ui_tree.records import RecordFactory, branched_conversation
from weaver_tui.widgets.conversation_tree import ConversationTree

TREE_SIZE = (100, 30)


class TreeHost(App[None]):
    """Shows one ConversationTree and keeps every request it posts."""

    def __init__(self, records: Iterable[MessageRecord], active_leaf_id: str | None) -> None:
        super().__init__()
        self._records = list(records)
        self._active_leaf_id = active_leaf_id
        # ConversationTree's request messages, each read by its own fields
        self.requests: list[Any] = []

    def compose(self) -> ComposeResult:
        yield ConversationTree(self._records, self._active_leaf_id, id="tree")

    def on_conversation_tree_checkout_requested(self, message: Message) -> None:
        self.requests.append(message)

    def on_conversation_tree_version_flip_requested(self, message: Message) -> None:
        self.requests.append(message)

    def on_conversation_tree_fork_requested(self, message: Message) -> None:
        self.requests.append(message)

    def on_conversation_tree_edit_requested(self, message: Message) -> None:
        self.requests.append(message)

    def on_conversation_tree_regenerate_requested(self, message: Message) -> None:
        self.requests.append(message)

    def on_conversation_tree_delete_requested(self, message: Message) -> None:
        self.requests.append(message)

    @property
    def conversation_tree(self) -> ConversationTree:
        return self.query_one(ConversationTree)


def tree_host(pilot: Pilot[None]) -> TreeHost:
    """The pilot's app as the TreeHost it is."""
    app = pilot.app
    assert isinstance(app, TreeHost)
    return app


@pytest.fixture
def branched() -> tuple[RecordFactory, dict[str, MessageRecord]]:
    return branched_conversation()


@pytest.fixture
def host(branched: tuple[RecordFactory, dict[str, MessageRecord]]) -> TreeHost:
    factory, r = branched
    return TreeHost(factory.records, r["a4"].id)


def other_branch_leaf(tree: ConversationTree, fork: str) -> str:
    """The newest leaf under a child of ``fork`` that is not on the active path (a switch)."""
    index = tree._index
    target = next(k for k in index.children(fork) if k not in tree._active)
    while index.children(target):
        target = index.children(target)[-1]
    return target
