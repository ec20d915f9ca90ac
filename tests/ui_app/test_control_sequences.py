"""Stored text never drives the terminal: a reply, a title, a tool's output or an imported
conversation holding OSC 52 (clipboard), OSC 0 (window title), OSC 8 (hyperlink), cursor moves
or C1 controls reaches the screen printable, on every surface that shows it.

Each test renders the real app (an imported conversation in a real SQLite store) and reads the
screen as Textual exports it: what the terminal would be sent as text holds no control
character but newline and tab.
"""

from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.screens.rename import RenameScreen
from weaver_tui.widgets.tool_pane import ToolStatusPane

CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4K\x07"  # OSC 52: "rm -rf ~\n" into the clipboard
HOSTILE = (
    f"Budget{CLIPBOARD} plan\x1b]0;pwned\x07 \x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\"
    " up\x1b[2A\x1b[2J\x9b31m red\x9d0;c1 title\x9c done"
)
REPLY = (
    f"Here is the plan {HOSTILE}\n\n"
    f"```bash\necho hi{CLIPBOARD}\x1b[1A\x9b2J\n```\n\n"
    f"See [the notes](http://a.example/\x1b]52;c;eA==\x07) {HOSTILE}\n"
)


def controls_in(text: str) -> list[str]:
    """The control characters in ``text`` (newline and tab are layout, not controls)."""
    return sorted(
        {hex(ord(c)) for c in text if (c < " " and c not in "\n\t") or "\x7f" <= c < "\xa0"}
    )


def screen_text(pilot: Pilot[Any]) -> str:
    svg = pilot.app.export_screenshot()
    assert controls_in(svg) == [], "the screen carries control characters to the terminal"
    return html.unescape(svg).replace("\xa0", " ")


def _import_hostile(services: Services, tmp_path: Path) -> str:
    """An exported conversation whose title, messages, tool call and result hold escapes."""
    folder = tmp_path / "hostile-export"
    folder.mkdir()
    meta = {
        "id": "c-hostile",
        "title": HOSTILE,
        "profile": "ide-helper",
        "created_at": "2025-11-14T12:00:00Z",
        "updated_at": "2025-11-14T12:05:00Z",
    }
    call = {"id": "call-1", "name": "read_file", "args": {"path": f"notes{CLIPBOARD}.md"}}
    rows = [
        ("m1", "user", HOSTILE, None, {}),
        ("m2", "assistant", "", "m1", {"tool_calls": [call]}),
        ("m3", "tool", f"   1  {HOSTILE}", "m2", {"tool_call_id": "call-1", "name": "read_file"}),
        ("m4", "assistant", REPLY, "m3",
         {"reasoning": f"thinking {HOSTILE}", "error": f"failed {HOSTILE}", "status": "error"}),
    ]  # fmt: skip
    lines = [
        json.dumps({"id": i, "conversation_id": "c-hostile", "role": role, "content": content,
                    "parent_id": parent, "depth": depth, "version": 1,
                    "created_at": f"2025-11-14T12:0{depth}:00Z", "meta": meta_})
        for depth, (i, role, content, parent, meta_) in enumerate(rows)
    ]  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(meta))
    (folder / "messages.jsonl").write_text("\n".join(lines) + "\n")
    return services.store.import_jsonl(folder).id


async def test_an_imported_conversation_shows_printable_on_every_pane(
    services: Services, tmp_path: Path
) -> None:
    conversation_id = _import_hostile(services, tmp_path)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        screen.messages.action_toggle_thinking("m4")  # the reasoning, unfolded
        await settle(pilot)
        assert screen.tree.display
        assert screen.header.display
        text = screen_text(pilot)
        for shown in ("Budget", "plan", "echo", "notes", "failed", "thinking"):
            assert shown in text, f"{shown!r} is not on screen"
        lines = "\n".join(screen.messages.text_lines())
        assert controls_in(lines) == []
        assert "Here is the plan Budget plan" in lines
        tree_lines = [screen.tree.label_text(i) for i in ("m1", "m3", "m4")]
        assert all(controls_in(line) == [] for line in tree_lines), tree_lines
        assert any("Budget plan" in line for line in tree_lines), tree_lines


async def test_titles_from_before_they_were_cleaned_show_printable(
    services: Services, tmp_path: Path
) -> None:
    conversation_id = _import_hostile(services, tmp_path)
    with sqlite3.connect(services.settings.storage.data_dir / "weaver.db") as conn:
        conn.execute("UPDATE conversations SET title = ?", (HOSTILE,))  # an older row, raw
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        screen.header.title = f"header {HOSTILE}"  # the header keeps what it is given printable
        screen.header.project = f"folder{CLIPBOARD}"
        await pilot.pause()
        text = screen_text(pilot)
        assert "header Budget" in text


async def test_tool_rows_and_their_whole_output_show_printable(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        pane = pilot.app.screen.query_one(ToolStatusPane)
        pane.tool_started("c1", f"search{CLIPBOARD}", {"query": HOSTILE})
        pane.tool_finished("c1", f"search{CLIPBOARD}", f"{HOSTILE}\nsecond {HOSTILE}", None, 5.0)
        pane.stage("critic", f"checking {HOSTILE}", "running")
        await settle(pilot)
        assert "search" in screen_text(pilot)
        pane.rows[0].action_open_output()
        await wait_until(pilot, lambda: pilot.app.screen is not chat(pilot.app))
        await settle(pilot)
        assert "second Budget" in screen_text(pilot)


async def test_notifications_and_dialogs_show_printable(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        pilot.app.notify(f"Deleted {HOSTILE}", title=f"Title {CLIPBOARD}")
        await settle(pilot)
        # what the toast draws (a headless test run does not mount toasts)
        shown = [n.title + n.message for n in pilot.app._notifications]
        assert any("Deleted Budget" in text for text in shown), shown
        assert all(controls_in(text) == [] for text in shown), shown
        for dialog in (ConfirmScreen(f"Delete {HOSTILE}?"), RenameScreen(HOSTILE)):
            pilot.app.push_screen(dialog)
            await wait_until(pilot, lambda d=dialog: pilot.app.screen is d)  # type: ignore[misc]
            await settle(pilot)
            assert "Budget" in screen_text(pilot)
            dialog.dismiss(None)
            await settle(pilot)
