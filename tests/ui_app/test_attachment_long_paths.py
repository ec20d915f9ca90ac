"""An ``@`` word no file system could hold (a name past 255 bytes, a path past PATH_MAX) is text,
not a file: the message is sent as typed, Tab completes nothing, and nothing fails."""

from __future__ import annotations

from pathlib import Path

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.services import Services

LONG_WORDS = ("@" + "n" * 300, "@" + "/d" * 2100)


async def test_an_impossible_at_path_is_sent_as_text_and_completes_to_nothing(
    services: Services, tmp_path: Path
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    async with new_app(services, profile="ide-helper", project_root=root).run_test(
        size=SIZE
    ) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        for word in LONG_WORDS:
            screen.composer.focus()
            screen.composer.load_text(f"look at {word}")
            screen.composer.move_cursor(screen.composer.document.end)
            await pilot.press("tab")
            assert screen.composer.text == f"look at {word}"
            await send(pilot, f"look at {word}")
        sent = [item.content for item in screen.messages.items if item.role == "user"]
        assert sent == [f"look at {word}" for word in LONG_WORDS]
        assert not pilot.app._exception
