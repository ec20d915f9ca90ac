"""The contract of :class:`storage.store.ConversationStore`, part one: conversations, messages,
versions, rows and errors.

Every test here runs once per backend in ``STORE_FACTORIES`` (``tests/storage/conftest.py``)
and sees the store only through the protocol: the SQLite file and a real PostgreSQL server the
suite starts (:mod:`tests.support.postgres_server`); another backend is proven by adding its
factory there. Part two (:mod:`tests.storage.test_interface_tree`) covers paths,
branches, search and interchange. What only SQLite has (migrations, file damage, locking
between processes) is tested in the other files of this folder.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.models import MessageStatus
from storage.store import ConversationStore, NotFoundError, StorageError
from storage.tree_index import TreeIndex
from tests.storage.builders import add_turn, assert_sentence


def test_every_protocol_method_exists_with_the_same_parameters(
    backend: ConversationStore,
) -> None:
    names = [n for n, v in vars(ConversationStore).items() if callable(v) and not n.startswith("_")]
    assert len(names) >= 20
    for name in names:
        wanted = inspect.signature(getattr(ConversationStore, name))
        actual = inspect.signature(getattr(type(backend), name))
        assert list(actual.parameters) == list(wanted.parameters), name
        for param, spec in wanted.parameters.items():
            assert actual.parameters[param].kind == spec.kind, (name, param)
            assert actual.parameters[param].default == spec.default, (name, param)


# -- conversations ---------------------------------------------------------------------------


def test_a_created_conversation_reads_back_equal_with_its_meta(backend: ConversationStore) -> None:
    created = backend.create_conversation("mediator", "Budget talk", {"participants": ["A", "B"]})
    assert backend.get_conversation(created.id) == created
    assert created.created_at.tzinfo is not None
    assert created.updated_at == created.created_at
    assert created.meta == {"participants": ["A", "B"]}
    assert backend.create_conversation("ide-helper").title == "New conversation"


def test_conversations_list_newest_change_first_and_filter_by_profile(
    backend: ConversationStore,
) -> None:
    first = backend.create_conversation("ide-helper", "first")
    second = backend.create_conversation("mediator", "second")
    third = backend.create_conversation("ide-helper", "third")
    assert [c.id for c in backend.list_conversations()] == [third.id, second.id, first.id]
    backend.add_message(first.id, "user", "bump", None)
    assert backend.list_conversations()[0].id == first.id
    assert [c.id for c in backend.list_conversations("ide-helper")] == [first.id, third.id]
    assert backend.list_conversations("nobody") == []


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    profiles=st.lists(st.sampled_from(["ide-helper", "mediator"]), max_size=12),
    limit=st.none() | st.integers(min_value=0, max_value=14),
    offset=st.integers(min_value=0, max_value=14),
    profile=st.none() | st.sampled_from(["ide-helper", "mediator", "nobody"]),
)
def test_a_page_of_the_list_is_that_slice_of_the_whole_list_and_the_count_is_its_length(
    open_store: Callable[[], ConversationStore],
    profiles: list[str],
    limit: int | None,
    offset: int,
    profile: str | None,
) -> None:
    backend = open_store()
    for number, owner in enumerate(profiles):
        backend.create_conversation(owner, f"conversation {number}")
    whole = [c.id for c in backend.list_conversations(profile)]
    page = [c.id for c in backend.list_conversations(profile, limit=limit, offset=offset)]
    assert page == whole[offset : None if limit is None else offset + limit]
    assert backend.count_conversations(profile) == len(whole)


def test_renaming_changes_the_title_and_moves_updated_at_forward(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper", "Old")
    renamed = backend.rename_conversation(conversation.id, "New")
    assert renamed.title == "New"
    assert renamed.updated_at >= conversation.updated_at
    assert backend.get_conversation(conversation.id) == renamed


def test_meta_updates_merge_keys_and_none_removes_a_key(backend: ConversationStore) -> None:
    conversation = backend.create_conversation("ide-helper", "x", {"keep": 1})
    backend.update_conversation_meta(conversation.id, project_root="/tmp/x", theme="dark")
    updated = backend.update_conversation_meta(conversation.id, theme=None, extra=[1, 2])
    assert updated.meta == {"keep": 1, "project_root": "/tmp/x", "extra": [1, 2]}
    assert backend.get_conversation(conversation.id).meta == updated.meta


def test_deleting_a_conversation_deletes_its_messages_and_leaves_the_others(
    backend: ConversationStore,
) -> None:
    doomed = backend.create_conversation("ide-helper", "doomed")
    kept = backend.create_conversation("ide-helper", "kept")
    _, doomed_reply = add_turn(backend, doomed.id, None, "zebra question", "zebra answer")
    add_turn(backend, kept.id, None, "other question", "other answer")
    backend.delete_conversation(doomed.id)
    assert [c.id for c in backend.list_conversations()] == [kept.id]
    assert backend.list_messages(doomed.id) == []
    assert backend.message_rows(doomed.id) == []
    assert backend.search("zebra") == []
    with pytest.raises(NotFoundError):
        backend.get_message(doomed_reply.id)
    assert len(backend.list_messages(kept.id)) == 2


# -- messages and versions -------------------------------------------------------------------


def test_add_message_computes_depth_and_version_and_makes_it_the_active_leaf(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    user = backend.add_message(conversation.id, "user", "hello", None)
    reply = backend.add_message(conversation.id, "assistant", "hi", user.id, {"model": "m"})
    assert (user.depth, user.version, reply.depth, reply.version) == (0, 1, 1, 1)
    assert (reply.conversation_id, reply.parent_id, reply.role) == (
        conversation.id,
        user.id,
        "assistant",
    )
    assert reply.meta == {"model": "m", "status": "complete"}
    assert reply.status is MessageStatus.COMPLETE
    assert reply.created_at.tzinfo is not None
    assert backend.get_message(reply.id) == reply
    assert backend.active_leaf(conversation.id) == reply


def test_siblings_are_numbered_from_one_and_a_deleted_version_is_never_reused(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    user, first = add_turn(backend, conversation.id, None, "q", "one")
    second = backend.add_message(conversation.id, "assistant", "two", user.id)
    third = backend.add_message(conversation.id, "assistant", "three", user.id)
    assert [r.version for r in (first, second, third)] == [1, 2, 3]
    edited = backend.add_message(conversation.id, "user", "q edited", None)
    assert edited.version == 2  # the roots are siblings too
    backend.delete_branch(third.id)
    assert backend.add_message(conversation.id, "assistant", "four", user.id).version == 3
    backend.delete_branch(second.id)
    assert backend.add_message(conversation.id, "assistant", "five", user.id).version == 4


def test_children_and_siblings_come_in_version_order(backend: ConversationStore) -> None:
    conversation = backend.create_conversation("ide-helper")
    user, first = add_turn(backend, conversation.id, None, "q", "one")
    second = backend.add_message(conversation.id, "assistant", "two", user.id)
    edited = backend.add_message(conversation.id, "user", "q edited", None)
    assert backend.children(user.id, conversation.id) == [first, second]
    assert backend.siblings(second.id) == [first, second]
    assert backend.children(None, conversation.id) == [user, edited]
    assert backend.siblings(edited.id) == [user, edited]
    assert backend.children(second.id, conversation.id) == []
    other = backend.create_conversation("ide-helper")
    assert backend.children(None, other.id) == []


def test_update_message_replaces_content_sets_status_and_merges_meta(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    user = backend.add_message(conversation.id, "user", "q", None)
    reply = backend.add_message(
        conversation.id, "assistant", "", user.id, {"status": "streaming", "model": "m"}
    )
    assert reply.status is MessageStatus.STREAMING
    for text in ("Hel", "Hello", "Hello there"):
        flushed = backend.update_message(reply.id, content=text)
    assert flushed.content == "Hello there"
    assert flushed.status is MessageStatus.STREAMING
    done = backend.update_message(
        reply.id, status=MessageStatus.COMPLETE, meta={"latency_ms": 12, "model": None}
    )
    assert done.meta == {"latency_ms": 12, "status": "complete"}
    assert done.content == "Hello there"
    assert backend.get_message(reply.id) == done
    failed = backend.update_message(reply.id, meta={"status": "error", "error": "Boom."})
    assert failed.status is MessageStatus.ERROR
    assert failed.meta["error"] == "Boom."
    assert (failed.id, failed.parent_id, failed.version) == (reply.id, user.id, reply.version)


def test_list_messages_gives_every_branch_by_depth_then_creation(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    system = backend.add_message(conversation.id, "system", "be brief", None)
    user, first = add_turn(backend, conversation.id, system.id, "q", "one")
    second = backend.add_message(conversation.id, "assistant", "two", user.id)
    _, deep = add_turn(backend, conversation.id, first.id, "q2", "deep")
    listed = backend.list_messages(conversation.id)
    assert [r.depth for r in listed] == sorted(r.depth for r in listed)
    assert listed[:4] == [system, user, first, second]
    assert listed[-1] == deep
    assert backend.list_messages("no-such-conversation") == []


def test_message_rows_decode_to_the_listed_records_and_index_like_the_store(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    user, first = add_turn(backend, conversation.id, None, "q", "one")
    second = backend.add_message(conversation.id, "assistant", "two", user.id, {"status": "error"})
    add_turn(backend, conversation.id, second.id, "q2", "deep")
    backend.add_message(conversation.id, "user", "q edited", None)
    other = backend.create_conversation("ide-helper")
    backend.add_message(other.id, "user", "elsewhere", None)

    rows = backend.message_rows(conversation.id)
    records = backend.list_messages(conversation.id)
    assert sorted((row.record() for row in rows), key=lambda r: r.id) == sorted(
        records, key=lambda r: r.id
    )
    by_id = {row.id: row for row in rows}
    assert by_id[second.id].parent_id == user.id
    assert by_id[second.id].status == "error"
    assert by_id[first.id].version == 1
    assert by_id[second.id].version == 2

    index = TreeIndex.from_rows(rows)
    assert index.decoded_count == 0
    assert index.records(index.children(None)) == backend.children(None, conversation.id)
    for record in records:
        assert index.records(index.path_to(record.id)) == backend.path_to_root(record.id)
        assert index.records(index.siblings(record.id)) == backend.siblings(record.id)
        assert index.records(index.children(record.id)) == backend.children(
            record.id, conversation.id
        )
    assert backend.message_rows("no-such-conversation") == []


# -- errors ------------------------------------------------------------------------------------


def test_unknown_ids_raise_not_found_with_a_sentence_naming_the_id(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    record = backend.add_message(conversation.id, "user", "hi", None)
    for call in (
        lambda: backend.get_conversation("nope"),
        lambda: backend.rename_conversation("nope", "x"),
        lambda: backend.update_conversation_meta("nope", a=1),
        lambda: backend.delete_conversation("nope"),
        lambda: backend.add_message("nope", "user", "hi", None),
        lambda: backend.add_message(conversation.id, "user", "hi", "nope"),
        lambda: backend.get_message("nope"),
        lambda: backend.update_message("nope", content="x"),
        lambda: backend.update_message("nope", meta={"a": 1}),
        lambda: backend.siblings("nope"),
        lambda: backend.path_to_root("nope"),
        lambda: backend.path_tail("nope", 5),
        lambda: backend.context_window("nope"),
        lambda: backend.latest_leaf("nope"),
        lambda: backend.set_active_leaf(conversation.id, "nope"),
        lambda: backend.set_active_leaf("nope", record.id),
        lambda: backend.active_leaf("nope"),
        lambda: backend.delete_branch("nope"),
        lambda: backend.export_markdown("nope"),
    ):
        with pytest.raises(NotFoundError) as caught:
            call()
        assert_sentence(caught, "nope")


def test_a_parent_from_another_conversation_is_not_found_there(
    backend: ConversationStore,
) -> None:
    one = backend.create_conversation("ide-helper")
    two = backend.create_conversation("ide-helper")
    root = backend.add_message(one.id, "user", "hi", None)
    with pytest.raises(NotFoundError) as caught:
        backend.add_message(two.id, "assistant", "x", root.id)
    assert_sentence(caught, root.id)
    with pytest.raises(NotFoundError):
        backend.set_active_leaf(two.id, root.id)
    assert backend.list_messages(two.id) == []


def test_an_unknown_role_or_status_is_refused_with_a_sentence_listing_the_allowed(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    with pytest.raises(StorageError) as caught:
        backend.add_message(conversation.id, "wizard", "hi", None)  # type: ignore[arg-type]
    assert_sentence(caught, "'wizard'", "assistant")
    with pytest.raises(StorageError) as caught:
        backend.add_message(conversation.id, "user", "hi", None, {"status": "done"})
    assert_sentence(caught, "'done'", "streaming")
    record = backend.add_message(conversation.id, "user", "hi", None)
    with pytest.raises(StorageError) as caught:
        backend.update_message(record.id, meta={"status": "bogus"})
    assert_sentence(caught, "'bogus'")
    assert backend.list_messages(conversation.id) == [record]


def test_threads_share_one_store_without_errors_or_repeated_versions(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    root = backend.add_message(conversation.id, "user", "root", None)
    errors: list[BaseException] = []

    def worker(tag: int) -> None:
        try:
            for i in range(40):
                reply = backend.add_message(
                    conversation.id, "assistant", "", root.id, {"status": "streaming"}
                )
                backend.update_message(
                    reply.id, content=f"t{tag} r{i}", status=MessageStatus.COMPLETE
                )
                backend.search(f"t{tag}")
                TreeIndex.from_rows(backend.message_rows(conversation.id))
        except BaseException as err:  # pragma: no cover  # noqa: BLE001 (reported below)
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    versions = sorted(r.version for r in backend.children(root.id, conversation.id))
    assert versions == list(range(1, 161))
