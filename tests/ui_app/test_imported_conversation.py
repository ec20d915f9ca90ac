"""An imported conversation says so in the header, and the instructions its file carried are
offered for review in "Set instructions", never applied until the user saves them."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import TextArea

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.instructions import InstructionsScreen

INSTRUCTIONS = "Answer like a pirate."


def _import(services: Services, tmp_path: Path) -> str:
    folder = tmp_path / "export"
    folder.mkdir()
    head = {
        "id": "c-imported", "profile": "ide-helper", "title": "From a friend",
        "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z",
        "meta": {"instructions": INSTRUCTIONS},
    }  # fmt: skip
    line: dict[str, object] = {"id": "m1", "role": "user", "content": "hi", "parent_id": None, "depth": 0,
            "version": 1, "created_at": "2025-11-14T12:00:00Z", "meta": {}}  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(head))
    (folder / "messages.jsonl").write_text(json.dumps(line) + "\n")
    return services.store.import_jsonl(folder).id


async def test_the_header_says_imported_and_instructions_are_offered(
    services: Services, tmp_path: Path
) -> None:
    conversation_id = _import(services, tmp_path)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        shown = [text for text, _ in screen.header.shown()]
        assert any("imported" in text for text in shown)
        assert not any("✎" in text for text in shown)  # no instructions in force
        await palette_run(pilot, "Set instructions")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, InstructionsScreen))
        assert pilot.app.screen.query_one(TextArea).text == INSTRUCTIONS
        assert "instructions" not in services.store.get_conversation(conversation_id).meta
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, InstructionsScreen))
        meta = services.store.get_conversation(conversation_id).meta
        assert meta["instructions"] == INSTRUCTIONS
