"""The SQLite store implements every method of the agreed interface, and is safe across threads."""

from __future__ import annotations

import inspect
import threading

from storage.models import Conversation, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore


def test_every_protocol_method_exists_with_the_same_parameters() -> None:
    names = [n for n, v in vars(ConversationStore).items() if callable(v) and not n.startswith("_")]
    assert len(names) >= 20
    for name in names:
        wanted = inspect.signature(getattr(ConversationStore, name))
        actual = inspect.signature(getattr(SqliteConversationStore, name))
        assert list(actual.parameters) == list(wanted.parameters), name
        for param, spec in wanted.parameters.items():
            assert actual.parameters[param].kind == spec.kind, (name, param)
            assert actual.parameters[param].default == spec.default, (name, param)


def test_threads_share_one_store_without_errors(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "root", None)
    errors: list[BaseException] = []

    def worker(tag: int) -> None:
        try:
            for i in range(40):
                reply = store.add_message(
                    conversation.id, "assistant", "", root.id, {"status": "streaming"}
                )
                store.update_message(
                    reply.id, content=f"t{tag} r{i}", status=MessageStatus.COMPLETE
                )
                store.search(f"t{tag}")
                store.tree_index(conversation.id)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    versions = sorted(r.version for r in store.children(root.id, conversation.id))
    assert versions == list(range(1, 161))
