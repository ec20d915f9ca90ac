"""Any text a store is given is written whole and read back encodable: a lone surrogate (what a
provider's ``\\udXXX`` escape, an imported file or a non-UTF-8 file name gives) in a message's
content, its meta, a tool call's name or arguments, or an imported record never fails the write;
it is kept as U+FFFD (:func:`storage.codec.storable_text`), everything else as given."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore

LONE = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\udcff"])
text_with_lone = st.lists(LONE | st.text(max_size=10), min_size=1, max_size=8).map("".join)


def whole(text: str) -> str:
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=text_with_lone)
def test_any_text_is_stored_and_read_back_encodable(tmp_path: Path, text: str) -> None:
    call = {"id": "call-1", "name": f"read{text}", "args": {"path": text}}
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper", text)
        user = store.add_message(conversation.id, "user", text, None, {"note": text})
        reply = store.add_message(
            conversation.id, "assistant", "", user.id, {"status": MessageStatus.STREAMING}
        )
        store.update_message(reply.id, content=text)
        store.update_message(reply.id, content=text, meta={"tool_calls": [call], "error": text})
        tool = store.add_message(conversation.id, "tool", text, reply.id, {"name": text})
        for record in store.list_messages(conversation.id):
            json.dumps(record.meta, ensure_ascii=False).encode("utf-8")
            record.content.encode("utf-8")
        assert store.get_message(user.id).content == whole(text)
        assert store.get_message(user.id).meta["note"] == whole(text)
        assert store.get_message(reply.id).meta["tool_calls"][0]["args"]["path"] == whole(text)
        assert store.get_message(tool.id).meta["name"] == whole(text)
        store.get_conversation(conversation.id).title.encode("utf-8")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=text_with_lone)
def test_an_imported_record_with_lone_surrogates_is_imported(tmp_path: Path, text: str) -> None:
    folder = tmp_path / "export"
    folder.mkdir(exist_ok=True)
    meta = {"id": "c-1", "title": text, "profile": "ide-helper",
            "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z"}  # fmt: skip
    message = {"id": "m1", "conversation_id": "c-1", "role": "user", "content": text,
               "parent_id": None, "depth": 0, "version": 1,
               "created_at": "2025-11-14T12:01:00Z", "meta": {"note": text}}  # fmt: skip
    # json.dumps writes a lone surrogate as its \udXXX escape: the file is valid UTF-8
    (folder / "meta.json").write_text(json.dumps(meta))
    (folder / "messages.jsonl").write_text(json.dumps(message) + "\n")
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        imported = store.import_jsonl(folder)
        (record,) = store.list_messages(imported.id)
    assert record.content == whole(json.loads(json.dumps(text)))  # an escaped pair is one char
