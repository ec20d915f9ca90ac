"""The tree's six requests share one base: an owner handles them all in one handler."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree import ConversationTree


class OneHandlerHost(App[None]):
    """Keeps every request of the tree through a single handler of their base class."""

    def __init__(self, records: list[MessageRecord], leaf: str) -> None:
        super().__init__()
        self._records, self._leaf = records, leaf
        self.requests: list[ConversationTree.Request] = []

    def compose(self) -> ComposeResult:
        yield ConversationTree(self._records, self._leaf)

    @on(ConversationTree.Request)
    def _keep(self, request: ConversationTree.Request) -> None:
        self.requests.append(request)


async def test_one_handler_of_the_base_receives_all_six_requests(
    branched: tuple[RecordFactory, dict[str, MessageRecord]],
) -> None:
    factory, r = branched
    host = OneHandlerHost(factory.records, r["a4"].id)
    async with host.run_test(size=TREE_SIZE) as pilot:
        tree = host.query_one(ConversationTree)
        tree.focus()
        await pilot.press("left", "left", "left")  # u3
        await pilot.press("enter", "f", "e", "r", "delete")
        await pilot.press("left", "left_square_bracket")  # a2b -> its v1, a2
        await pilot.pause()
        kinds = [type(request) for request in host.requests]
        assert kinds == [
            ConversationTree.CheckoutRequested,
            ConversationTree.ForkRequested,
            ConversationTree.EditRequested,
            ConversationTree.RegenerateRequested,
            ConversationTree.DeleteRequested,
            ConversationTree.VersionFlipRequested,
        ]
        ids = [request.message_id for request in host.requests]
        assert ids == [r["u3"].id] * 5 + [r["a2b"].id]
        assert all(request.tree is tree and request.control is tree for request in host.requests)


def test_each_request_keeps_its_own_handler_name() -> None:
    names = {
        ConversationTree.CheckoutRequested: "on_conversation_tree_checkout_requested",
        ConversationTree.ForkRequested: "on_conversation_tree_fork_requested",
        ConversationTree.EditRequested: "on_conversation_tree_edit_requested",
        ConversationTree.RegenerateRequested: "on_conversation_tree_regenerate_requested",
        ConversationTree.DeleteRequested: "on_conversation_tree_delete_requested",
        ConversationTree.VersionFlipRequested: "on_conversation_tree_version_flip_requested",
    }
    for kind, handler in names.items():
        assert issubclass(kind, ConversationTree.Request)
        assert kind.handler_name == handler
