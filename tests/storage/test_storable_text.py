"""Any text a store is given is written whole and read back encodable: a lone surrogate (what a
provider's ``\\udXXX`` escape, an imported file or a non-UTF-8 file name gives) in a message's
content, its meta, a tool call's name or arguments, or an imported record never fails the write;
it is kept as U+FFFD (:func:`storage.codec.storable_text`), the two halves of a pair that came
apart as the one character they encode, everything else as given."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.models import MessageStatus
from storage.printable import printable, whole_text
from storage.sqlite_store import SqliteConversationStore

LONE = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\udcff"])
text_with_lone = st.lists(LONE | st.text(max_size=10), min_size=1, max_size=8).map("".join)


def whole(text: str) -> str:
    """``text`` as whole Unicode, worked out code point by code point: a high surrogate right
    before a low one is the character the pair encodes, any other surrogate U+FFFD."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        after = text[index + 1] if index + 1 < len(text) else ""
        if "\ud800" <= char <= "\udbff" and "\udc00" <= after <= "\udfff":
            out.append(chr(0x10000 + ((ord(char) - 0xD800) << 10) + ord(after) - 0xDC00))
            index += 2
            continue
        out.append("\ufffd" if "\ud800" <= char <= "\udfff" else char)
        index += 1
    return "".join(out)


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


@settings(max_examples=200, deadline=None)
@given(text=st.text(), cut=st.integers(0, 200))
def test_a_character_split_across_two_json_strings_is_whole_again(text: str, cut: int) -> None:
    """A server that splits its text by UTF-16 code units can cut an emoji's pair in two
    chunks: each decodes to a lone surrogate, and the joined reply is whole again."""
    units = text.encode("utf-16-le")
    at = (cut % (len(units) // 2 + 1)) * 2
    halves = [units[:at].decode("utf-16-le", "surrogatepass"),
              units[at:].decode("utf-16-le", "surrogatepass")]  # fmt: skip
    joined = json.loads(json.dumps(halves[0])) + json.loads(json.dumps(halves[1]))
    assert whole_text(joined) == text
    assert printable(joined) == printable(text)
