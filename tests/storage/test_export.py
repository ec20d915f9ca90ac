"""Export as Markdown and as a folder (meta.json, messages.jsonl); import it back without loss."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from storage.models import Conversation, MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError
from storage.tree_index import TreeIndex
from tests.storage.builders import add_tool_round, add_turn

SECRET = "sk-abcdefghijklmnopqrstuvwxyz123456"


def _rich_tree(store: SqliteConversationStore) -> tuple[Conversation, dict[str, str]]:
    conv = store.create_conversation(
        "ide-helper", "Export me", {"project_root": "/repo", "api_key": SECRET}
    )
    user, v1 = add_turn(store, conv.id, None, "What is in a.py?", "Let me look.")
    last_tool = add_tool_round(
        store, conv.id, v1.id, [("c1", "read_file", {"path": "a.py"}, "x = 1\n```\ny = 2")]
    )
    answer = store.add_message(
        conv.id,
        "assistant",
        "It sets **x** and y.",
        last_tool.id,
        {
            "provider": "openai",
            "model": "gpt-x",
            "usage": {"input_tokens": 5},
            "Authorization": "Bearer abcdefghijklmnopqrstuv",
        },
    )
    cancelled = store.add_message(
        conv.id, "assistant", "Half a rep", user.id, {"status": "cancelled"}
    )
    failed = store.add_message(
        conv.id, "assistant", "", user.id, {"status": "error", "error": "The server said 500."}
    )
    store.set_active_leaf(conv.id, answer.id)
    return store.get_conversation(conv.id), {
        "user": user.id, "answer": answer.id, "cancelled": cancelled.id, "failed": failed.id,
    }  # fmt: skip


def test_markdown_of_the_active_path(store: SqliteConversationStore) -> None:
    conv, _ids = _rich_tree(store)
    text = store.export_markdown(conv.id)
    assert text.startswith("# Export me\n")
    assert "## User\n\nWhat is in a.py?" in text
    assert "## Assistant (offline · offline, version 1 of 3)" in text
    assert '**Tool call** `read_file`\n\n```json\n{\n  "path": "a.py"\n}\n```' in text
    assert "## Tool: read_file\n\n````text\nx = 1\n```\ny = 2\n````" in text  # longer fence
    assert "## Assistant (openai · gpt-x)\n\nIt sets **x** and y." in text
    assert "Half a rep" not in text  # another branch
    assert SECRET not in text


def test_markdown_of_a_given_leaf_marks_cancelled_and_error(store: SqliteConversationStore) -> None:
    conv, ids = _rich_tree(store)
    cancelled = store.export_markdown(conv.id, ids["cancelled"])
    assert "## Assistant (version 2 of 3, **cancelled**)\n\nHalf a rep" in cancelled
    failed = store.export_markdown(conv.id, ids["failed"])
    assert "(version 3 of 3, **error**)" in failed
    assert "> **Error:** The server said 500." in failed
    with pytest.raises(StorageError):
        store.export_markdown(conv.id, "not-a-message")


def test_jsonl_layout_follows_seed_001_and_holds_no_secret(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    conv, _ = _rich_tree(store)
    folder = store.export_jsonl(conv.id, tmp_path / "out")
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["id"] == conv.id
    assert meta["agent_type"] == "ide-helper"
    assert meta["meta"] == {"project_root": "/repo", "active_leaf": conv.meta["active_leaf"]}
    lines = (folder / "messages.jsonl").read_text().splitlines()
    assert len(lines) == len(store.list_messages(conv.id))
    first = json.loads(lines[0])
    assert set(first) == {
        "id", "conversation_id", "role", "content", "parent_id", "depth", "version", "created_at", "meta",
    }  # fmt: skip
    assert first["created_at"].endswith("Z")
    everything = (folder / "meta.json").read_text() + "\n".join(lines)
    assert SECRET not in everything
    assert "Bearer" not in everything
    assert '"input_tokens": 5' in everything  # usage counts are not secrets


def test_round_trip_into_a_fresh_database_is_lossless(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    conv, ids = _rich_tree(store)
    store.update_conversation_meta(conv.id, api_key=None)
    conv = store.get_conversation(conv.id)
    folder = store.export_jsonl(conv.id, tmp_path / "out")
    with SqliteConversationStore(tmp_path / "other.sqlite") as other:
        imported = other.import_jsonl(folder)
        # Lossless content; of the conversation's settings only what the allowlist keeps,
        # and the importer's own marks (the project root is never trusted).
        marks = {"imported_from": conv.id, "imported_at": imported.meta["imported_at"]}
        assert imported == replace(conv, meta={"active_leaf": conv.meta["active_leaf"], **marks})
        assert other.list_messages(conv.id) == [
            r if r.id != ids["answer"] else _without_auth(r) for r in store.list_messages(conv.id)
        ]
        assert other.branch_choices(conv.id) == store.branch_choices(conv.id)
        assert other.active_leaf(conv.id) == other.get_message(ids["answer"])
        assert [h.message_id for h in other.search("read_file")]


def _without_auth(record: MessageRecord) -> MessageRecord:
    return replace(record, meta={k: v for k, v in record.meta.items() if k != "Authorization"})


def test_importing_into_the_same_database_renumbers_and_keeps_structure(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    conv, ids = _rich_tree(store)
    folder = store.export_jsonl(conv.id, tmp_path / "out")
    copy = store.import_jsonl(folder / "messages.jsonl")  # naming a file of the folder works too
    assert copy.id != conv.id
    assert copy.title == conv.title
    old, new = store.tree_index(conv.id), store.tree_index(copy.id)
    assert not set(old) & set(new)

    def shape(index: TreeIndex, leaf: str) -> list[tuple[str, str, int, int]]:
        return [(r.role, r.content, r.depth, r.version) for r in index.records(index.path_to(leaf))]

    assert new.active_leaf_id is not None
    assert shape(new, new.active_leaf_id) == shape(old, ids["answer"])
    assert sorted(len(new.children(r)) for r in new) == sorted(len(old.children(r)) for r in old)


@pytest.mark.parametrize(
    ("meta_text", "lines", "message"),
    [
        ("{not json", [], "meta.json line 1: invalid JSON"),
        ('{"title": "x"}', [], "field 'profile'"),
        (None, ['{"id": "m1"}'], "has no meta.json"),
        ("ok", ['{"id": "m1", "role": "user", "content": "x", "parent_id": null, "depth": 0, '
                '"version": 1, "created_at": "2025-11-14T12:00:00Z", "meta": {}}', "{oops"],
         "messages.jsonl line 2: invalid JSON"),
        ("ok", ['{"id": "m1", "role": "wizard", "content": "x"}'], "line 1: role 'wizard'"),
        ("ok", ['{"id": "m1", "role": "user", "content": "x", "parent_id": "ghost", "depth": 1, '
                '"version": 1, "created_at": "2025-11-14T12:00:00Z", "meta": {}}'],
         "line 1: parent ghost is not in the file"),
        ("ok", ['{"id": "m1", "role": "user", "content": "x", "parent_id": null, "depth": 0, '
                '"version": "1", "created_at": "2025-11-14T12:00:00Z", "meta": {}}'],
         "line 1: field 'version'"),
        ("ok", ['{"id": "m1", "role": "user", "content": "x", "parent_id": null, "depth": 0, '
                '"version": 1, "created_at": "yesterday", "meta": {}}'], "line 1: field 'created_at'"),
    ],
)  # fmt: skip
def test_malformed_imports_name_the_file_and_line(
    store: SqliteConversationStore,
    tmp_path: Path,
    meta_text: str | None,
    lines: list[str],
    message: str,
) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    if meta_text == "ok":
        meta_text = json.dumps({"id": "c1", "title": "t", "agent_type": "ide-helper",
                                "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z"})  # fmt: skip
    if meta_text is not None:
        (folder / "meta.json").write_text(meta_text)
    (folder / "messages.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(StorageError, match=message.replace("(", r"\(")) as caught:
        store.import_jsonl(folder)
    assert "\n" not in str(caught.value)
    assert store.list_conversations() == []  # nothing half-imported


def test_seed_001_example_imports(store: SqliteConversationStore, tmp_path: Path) -> None:
    folder = tmp_path / "seed"
    folder.mkdir()
    (folder / "meta.json").write_text(json.dumps({
        "id": "c-123", "title": "IDE 辅助会话", "agent_type": "ide-helper",
        "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z",
        "meta": {"projectRoot": "/Users/you/project"},
    }, ensure_ascii=False))  # fmt: skip
    rows = [("m1", "system", None, 0), ("m2", "user", "m1", 1), ("m3", "assistant", "m2", 2)]
    (folder / "messages.jsonl").write_text("".join(
        json.dumps({"id": i, "conversation_id": "c-123", "role": role, "content": f"{role} text",
                    "parent_id": parent, "depth": depth, "version": 1,
                    "created_at": "2025-11-14T12:01:00Z", "meta": {}}) + "\n"
        for i, role, parent, depth in rows
    ))  # fmt: skip
    conv = store.import_jsonl(folder)
    assert conv.id == "c-123"
    assert conv.profile == "ide-helper"
    leaf = store.active_leaf(conv.id)
    assert leaf is not None
    assert leaf.id == "m3"
    assert leaf.status is MessageStatus.COMPLETE
    assert [r.id for r in store.path_to_root("m3")] == ["m1", "m2", "m3"]


def test_who_said_a_message_survives_export_and_import(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    conv = store.create_conversation("mediator", "A space", {"participants": ["Alex", "Sam"]})
    said = store.add_message(conv.id, "user", "Hello both", None, {"sender": "Alex"})
    folder = store.export_jsonl(conv.id, tmp_path / "out")
    with SqliteConversationStore(tmp_path / "other.sqlite") as other:
        other.import_jsonl(folder)
        assert other.get_message(said.id).sender == "Alex"


def test_an_attached_file_is_exported_without_a_key_it_holds(
    store: SqliteConversationStore,
) -> None:
    conversation = store.create_conversation("researcher", "keys")
    attached = {"name": ".env", "size": 60, "kind": "text", "text": f"OPENAI_API_KEY={SECRET}\n"}
    store.add_message(conversation.id, "user", "why?", None, meta={"attachments": [attached]})
    markdown = store.export_markdown(conversation.id)
    assert "📎 *.env*" in markdown
    assert "OPENAI_API_KEY=" in markdown
    assert SECRET not in markdown
