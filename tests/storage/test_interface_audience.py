"""The contract of :class:`storage.store.ConversationStore`, part three: the viewer filter.

In a shared space (a conversation with ``participants``) a participant's view reads only what
they may read: shared records, their own words, what was sent privately to them. The filter
is part of each query (tree rows, paths, search, exports), so a participant's view never
loads another person's private record. Runs once per backend in ``STORE_FACTORIES``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from storage.models import MessageRecord, MessageStatus
from storage.store import ConversationStore
from storage.tree_index import TreeIndex

SAM_SECRET = "I am secretly worried about the gambling debt"
PRIVATE_ANSWER = "Thank you for trusting me with the debt, Sam"
ALEX_SHARED = "Let us talk about the household budget together"
ALEX_PRIVATE = "Between us, I resent the holiday spending"


@dataclass(frozen=True)
class Space:
    conversation_id: str
    sam_secret: MessageRecord
    private_call: MessageRecord
    private_delivery: MessageRecord
    alex_shared: MessageRecord
    shared_call: MessageRecord
    shared_delivery: MessageRecord
    alex_private: MessageRecord


def _tool_round(
    store: ConversationStore, conversation_id: str, parent: str, name: str, args: dict[str, str]
) -> tuple[MessageRecord, MessageRecord]:
    """A delivery: the mediator's tool call (its own working) and the result, which carries the
    audience the tool stored."""
    call_id = f"call-{name}-{parent[:6]}"
    call = store.add_message(
        conversation_id,
        "assistant",
        "",
        parent,
        {"tool_calls": [{"id": call_id, "name": name, "args": args}]},
    )
    audience = args.get("recipient", "shared")
    result = store.add_message(
        conversation_id,
        "tool",
        "Delivered.",
        call.id,
        {"tool_call_id": call_id, "name": name, "visibility": audience, "recipient": audience},
    )
    return call, result


def _space(store: ConversationStore) -> Space:
    """Sam speaks privately, the mediator answers Sam privately, Alex speaks to everyone, the
    mediator posts to everyone, Alex adds a private word: one path."""
    conversation = store.create_conversation(
        "mediator", "Shared space with Alex and Sam", meta={"participants": ["Alex", "Sam"]}
    )
    cid = conversation.id
    secret = store.add_message(
        cid, "user", SAM_SECRET, None, {"sender": "Sam", "visibility": "Sam"}
    )
    private_call, private_delivery = _tool_round(
        store, cid, secret.id, "reply_privately", {"recipient": "Sam", "content": PRIVATE_ANSWER}
    )
    shared = store.add_message(
        cid, "user", ALEX_SHARED, private_delivery.id, {"sender": "Alex", "visibility": "shared"}
    )
    shared_call, shared_delivery = _tool_round(
        store, cid, shared.id, "post_to_shared", {"content": "Welcome, both of you."}
    )
    alex_private = store.add_message(
        cid, "user", ALEX_PRIVATE, shared_delivery.id, {"sender": "Alex", "visibility": "Alex"}
    )
    store.set_active_leaf(cid, alex_private.id)
    return Space(
        cid, secret, private_call, private_delivery, shared, shared_call, shared_delivery,
        alex_private,
    )  # fmt: skip


def _tree(store: ConversationStore, conversation_id: str, viewer: str | None) -> TreeIndex:
    return TreeIndex.from_rows(store.message_rows(conversation_id, viewer))


def test_a_participants_tree_holds_only_what_they_may_read(backend: ConversationStore) -> None:
    s = _space(backend)
    alex = _tree(backend, s.conversation_id, "Alex")
    assert set(alex) == {s.alex_shared.id, s.shared_delivery.id, s.alex_private.id}
    sam = _tree(backend, s.conversation_id, "Sam")
    assert set(sam) == {s.sam_secret.id, s.private_delivery.id, s.alex_shared.id,
                        s.shared_delivery.id}  # fmt: skip
    everyone = _tree(backend, s.conversation_id, "shared")
    assert set(everyone) == {s.alex_shared.id, s.shared_delivery.id}
    assert len(_tree(backend, s.conversation_id, None)) == 7


def test_a_participants_tree_hangs_each_record_under_its_nearest_readable_ancestor(
    backend: ConversationStore,
) -> None:
    s = _space(backend)
    alex = _tree(backend, s.conversation_id, "Alex")
    assert alex.children(None) == [s.alex_shared.id]
    assert alex.path_to(s.alex_private.id) == [
        s.alex_shared.id, s.shared_delivery.id, s.alex_private.id,
    ]  # fmt: skip
    assert all(SAM_SECRET not in alex.get(i).content for i in alex)


def test_names_of_viewers_compare_without_case_or_extra_spaces(backend: ConversationStore) -> None:
    s = _space(backend)
    assert set(_tree(backend, s.conversation_id, "  sAM ")) == set(
        _tree(backend, s.conversation_id, "Sam")
    )


def test_a_path_for_a_viewer_leaves_out_what_they_may_not_read(backend: ConversationStore) -> None:
    s = _space(backend)
    path = backend.path_to_root(s.alex_private.id, "Alex")
    assert [r.id for r in path] == [s.alex_shared.id, s.shared_delivery.id, s.alex_private.id]
    assert backend.path_to_root(s.private_delivery.id, "Alex") == []
    assert len(backend.path_to_root(s.alex_private.id)) == 7


def test_a_reply_still_streaming_is_read_by_nobody_but_the_facilitator(
    backend: ConversationStore,
) -> None:
    """Until a reply is complete its audience is not settled, whatever its meta says so far:
    no participant's tree or path holds it, then everyone it was meant for reads it."""
    s = _space(backend)
    reply = backend.add_message(
        s.conversation_id, "assistant", "Half a thought for every", s.alex_private.id,
        {"visibility": "shared", "status": "streaming"},
    )  # fmt: skip
    for viewer in ("Alex", "Sam", "shared"):
        assert reply.id not in _tree(backend, s.conversation_id, viewer)
        assert reply.id not in [r.id for r in backend.path_to_root(reply.id, viewer)]
    assert reply.id in _tree(backend, s.conversation_id, None)

    backend.update_message(reply.id, content="Half a thought for everyone.",
                           status=MessageStatus.COMPLETE)  # fmt: skip
    for viewer in ("Alex", "Sam", "shared"):
        assert reply.id in _tree(backend, s.conversation_id, viewer)


def test_search_for_a_viewer_never_finds_another_participants_private_words(
    backend: ConversationStore,
) -> None:
    s = _space(backend)
    other = backend.create_conversation("ide-helper", "Code")
    backend.add_message(other.id, "user", "the gambling module is slow", None)
    backend.add_message(other.id, "assistant", "The gambling module loops twice.", None)
    assert {h.message_id for h in backend.search("gambling", viewer=None)} >= {s.sam_secret.id}
    for_alex = backend.search("gambling", viewer="Alex")
    assert {h.conversation_id for h in for_alex} == {other.id}  # a one-user conversation is his
    assert len(for_alex) == 2
    assert backend.search("trusting", viewer="Alex") == []  # the private reply's tool call
    assert s.sam_secret.id in {h.message_id for h in backend.search("gambling", viewer="sam")}
    assert backend.search("resent holiday", viewer="Sam") == []
    assert [h.message_id for h in backend.search("resent holiday", viewer="Alex")] == [
        s.alex_private.id
    ]


def test_a_markdown_export_for_a_viewer_holds_only_what_they_may_read(
    backend: ConversationStore,
) -> None:
    s = _space(backend)
    full = backend.export_markdown(s.conversation_id, s.alex_private.id)
    assert SAM_SECRET in full
    assert PRIVATE_ANSWER in full
    for leaf in (s.alex_private.id, None):
        alex = backend.export_markdown(s.conversation_id, leaf, viewer="Alex")
        assert SAM_SECRET not in alex
        assert PRIVATE_ANSWER not in alex
        assert ALEX_SHARED in alex
        assert ALEX_PRIVATE in alex
    sam = backend.export_markdown(s.conversation_id, s.alex_private.id, viewer="Sam")
    assert SAM_SECRET in sam
    assert ALEX_SHARED in sam
    assert ALEX_PRIVATE not in sam


def test_a_tree_export_for_a_viewer_holds_only_what_they_may_read(
    backend: ConversationStore, tmp_path: Path
) -> None:
    s = _space(backend)
    folder = backend.export_jsonl(s.conversation_id, tmp_path / "alex", viewer="Alex")
    text = (folder / "messages.jsonl").read_text(encoding="utf-8")
    assert SAM_SECRET not in text
    assert PRIVATE_ANSWER not in text
    assert ALEX_PRIVATE in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["id"] for line in lines] == [
        s.alex_shared.id, s.shared_delivery.id, s.alex_private.id,
    ]  # fmt: skip
    assert lines[0]["parent_id"] is None
    imported = backend.import_jsonl(folder)
    assert len(backend.list_messages(imported.id)) == 3
