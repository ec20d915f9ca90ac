"""Text the app loads into an editor for the user to change never drives the terminal: a message
put in the composer by "Edit message" (an imported or a provider's text) and a file's
instructions offered in the instructions dialog are shown (and so kept) printable, whatever
they hold: generated text with escape sequences, C1 controls, bidi overrides and lone
surrogates, imported into a real SQLite store, in the real app."""

from __future__ import annotations

import html
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from textual.widgets import TextArea

from storage.printable import printable
from tests.storage.test_printable_class import hostile, unsafe_in
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle
from tests.ui_app.test_control_sequences import controls_in
from weaver_tui.core.services import Services


def _import(services: Services, folder: Path, text: str) -> str:
    folder.mkdir(exist_ok=True)
    meta = {"id": "c-hostile", "title": "hostile", "profile": "ide-helper",
            "created_at": "2025-11-14T12:00:00Z", "updated_at": "2025-11-14T12:05:00Z",
            "meta": {"instructions": f"Answer {text} in French."}}  # fmt: skip
    rows = [("m1", "user", f"Question {text}", None), ("m2", "assistant", f"Reply {text}", "m1")]
    lines = [
        json.dumps({"id": i, "conversation_id": "c-hostile", "role": role, "content": content,
                    "parent_id": parent, "depth": depth, "version": 1,
                    "created_at": f"2025-11-14T12:0{depth}:00Z", "meta": {}})
        for depth, (i, role, content, parent) in enumerate(rows)
    ]  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(meta))
    (folder / "messages.jsonl").write_text("\n".join(lines) + "\n")
    return services.store.import_jsonl(folder).id


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=hostile)
async def test_an_edited_message_and_offered_instructions_are_printable(
    services: Services, tmp_path: Path, text: str
) -> None:
    conversation_id = _import(services, tmp_path / "export", text)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(pilot.app)
        reply = screen.state.leaf_id
        assert reply is not None
        screen.compose_mode.edit(reply)
        await settle(pilot)
        assert unsafe_in(screen.composer.text) == []
        edited = pilot.app.export_screenshot()
        screen.action_set_instructions()
        await settle(pilot)
        offered = pilot.app.screen.query_one("#instructions-text", TextArea).text
        instructions = pilot.app.export_screenshot()
    assert offered == printable(f"Answer {text} in French.")
    for svg in (edited, instructions):
        assert controls_in(svg) == []
        assert unsafe_in(html.unescape(svg).replace("\xa0", " ")) == []
