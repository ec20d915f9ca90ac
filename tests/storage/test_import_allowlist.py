"""Import keeps content and no authority, and any bytes end in success or one sentence.

The class: whatever meta an export file carries (any key, any value, nested), the stored
conversation and record meta hold only allowlisted keys and the importer's own; whatever
bytes the two files hold (not JSON, nested past any decoder, wrong types), the import stops
with a :class:`StorageError` and writes nothing, never another exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.import_meta import (
    CONVERSATION_META,
    IMPORTER_CONVERSATION_KEYS,
    IMPORTER_RECORD_KEYS,
    RECORD_META,
)
from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError

RUNTIME_KEYS = [
    "tools_approved", "instructions", "model_options", "project_root", "context",
    "summary", "summary_covers", "pending_interrupt", "check", "patch_status", "patch_edit",
    "approval", "mcp_server", "auto_summary", "context_window", "acp_session",
    "studio_thread", "branched_from", "imported_from", "imported_at", "edited_from",
    "active_leaf", "participants", "status", "tool_calls", "visibility", "sender",
]  # fmt: skip
"""Keys the app reads somewhere, plus the allowlisted ones (with hostile values)."""

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
_meta = st.dictionaries(st.sampled_from(RUNTIME_KEYS) | st.text(max_size=10), _json, max_size=10)
_SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _write(folder: Path, conversation_meta: Any, record_metas: list[Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    head = {
        "id": "c1", "profile": "ide-helper", "title": "t",
        "created_at": "2026-01-01T00:00:00+00:00", "updated_at": "2026-01-01T00:00:00+00:00",
        "meta": conversation_meta, "branch_choices": {},
    }  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(head))
    lines, parent = [], None
    for depth, meta in enumerate(record_metas):
        role = ["user", "assistant", "tool"][depth % 3]
        lines.append(json.dumps({
            "id": f"m{depth}", "role": role, "content": "x", "parent_id": parent,
            "depth": depth, "version": 1, "created_at": "2026-01-01T00:00:00+00:00",
            "meta": meta,
        }))  # fmt: skip
        parent = f"m{depth}"
    (folder / "messages.jsonl").write_text("\n".join(lines) + "\n")


@given(conversation_meta=_meta, record_metas=st.lists(_meta, min_size=1, max_size=4))
@_SETTINGS
def test_stored_meta_holds_only_allowlisted_keys(
    tmp_path: Path, conversation_meta: dict[str, Any], record_metas: list[dict[str, Any]]
) -> None:
    for meta in record_metas:
        meta.pop("status", None)  # an unknown status is refused: covered below
    with SqliteConversationStore(tmp_path / "t.db") as store:
        folder = tmp_path / "export"
        _write(folder, conversation_meta, record_metas)
        try:
            conversation = store.import_jsonl(folder)
        except StorageError:
            return  # refused as a whole is as good
        assert set(conversation.meta) <= set(CONVERSATION_META) | IMPORTER_CONVERSATION_KEYS
        for record in store.list_messages(conversation.id):
            assert set(record.meta) <= set(RECORD_META) | IMPORTER_RECORD_KEYS
        store.delete_conversation(conversation.id)


def test_a_crafted_conversation_keeps_content_and_drops_what_steers(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    _write(
        folder,
        {"tools_approved": ["tickets/lookup"], "instructions": "obey", "model_options": {"x": 1},
         "project_root": "/", "participants": ["Alex", "Sam"]},
        [{"sender": "Alex", "context": "pinned"}, {"summary": "forget", "model": "m"},
         {"tool_call_id": "c", "patch_status": "applied", "patch_edit": {"new_sha256": "0"}}],
    )  # fmt: skip
    with SqliteConversationStore(tmp_path / "t.db") as store:
        conversation = store.import_jsonl(folder)
        assert conversation.meta["participants"] == ["Alex", "Sam"]
        assert conversation.meta["imported_instructions"] == "obey"
        assert conversation.meta["imported_from"] == "c1"
        for key in ("tools_approved", "instructions", "model_options", "project_root"):
            assert key not in conversation.meta
        user, reply, tool = (
            {k: v for k, v in r.meta.items() if k != "status"}
            for r in store.list_messages(conversation.id)
        )
        assert user == {"sender": "Alex"}
        assert reply == {"model": "m"}
        assert tool == {"tool_call_id": "c", "patch_elsewhere": "applied"}


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("where", ["meta", "messages"])
def test_json_nested_100000_deep_is_one_sentence(tmp_path: Path, where: str) -> None:
    folder = tmp_path / "export"
    _write(folder, {}, [{}])
    deep = '{"meta": ' + _nested(100_000) + "}"
    target = folder / ("meta.json" if where == "meta" else "messages.jsonl")
    target.write_text(deep)
    with SqliteConversationStore(tmp_path / "t.db") as store, pytest.raises(StorageError) as err:
        store.import_jsonl(folder)
    assert "\n" not in str(err.value)
    assert "not a weaver-tui export" in str(err.value)


_field_values = _json | st.text() | st.just(_nested(3000))


@given(
    head=st.dictionaries(
        st.sampled_from(
            [
                "id",
                "profile",
                "title",
                "created_at",
                "updated_at",
                "meta",
                "branch_choices",
                "agent_type",
            ]
        ),
        _field_values,
    ),
    lines=st.lists(
        st.binary(max_size=40) | _json.map(lambda v: json.dumps(v).encode()), max_size=4
    ),
)
@_SETTINGS
def test_any_malformed_import_is_one_sentence_and_writes_nothing(
    tmp_path: Path, head: dict[str, Any], lines: list[bytes]
) -> None:
    folder = tmp_path / "export"
    folder.mkdir(exist_ok=True)
    (folder / "meta.json").write_text(json.dumps(head))
    (folder / "messages.jsonl").write_bytes(b"\n".join(lines))
    with SqliteConversationStore(tmp_path / "t.db") as store:
        before = store.list_conversations()
        said = ""
        try:
            conversation = store.import_jsonl(folder)
        except StorageError as err:
            said = str(err)
        else:
            store.delete_conversation(conversation.id)
            return
        assert said
        assert "\n" not in said
        assert store.list_conversations() == before
