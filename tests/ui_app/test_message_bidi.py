"""A message cannot be drawn in an order other than it reads: a bidi override in it shows as
``<U+202E>`` in the message view, and a joiner an emoji needs stays."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle
from weaver_tui.core.services import Services


async def test_a_bidi_override_in_a_message_shows(services: Services, tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    meta = {"id": "c-bidi", "title": "bidi", "profile": "ide-helper",
            "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z"}  # fmt: skip
    message: dict[str, object] = {"id": "m1", "conversation_id": "c-bidi", "role": "user",
               "content": "pay to \u202eredro\u2066 ok 👩\u200d💻", "parent_id": None, "depth": 0,
               "version": 1, "created_at": "2025-11-14T12:00:00Z", "meta": {}}  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(meta))
    (folder / "messages.jsonl").write_text(json.dumps(message) + "\n")
    conversation_id = services.store.import_jsonl(folder).id
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        lines = "\n".join(chat(pilot.app).messages.text_lines())
    assert "<U+202E>redro<U+2066>" in lines
    assert "\u202e" not in lines
    assert "👩\u200d💻" in lines
