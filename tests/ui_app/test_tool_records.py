"""Tool output in the chat keeps its lines: a fenced block, cut short with a marker.

A ``read_file`` result is numbered lines; drawn as Markdown they were reflowed into one
paragraph. These check the rows the chat state builds (through the view's own Markdown
splitter) and, in the running app, the lines on screen.
"""

from __future__ import annotations

from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle
from weaver_tui.core.chat_state import ChatState
from weaver_tui.core.chat_state.rows import CHAT_LINES, tool_output_markdown
from weaver_tui.core.services import Services
from weaver_tui.widgets.message_view.blocks import code_of, split_blocks

NUMBERED = "\n".join(f"{n:>4}  line {n} of the file" for n in range(1, 31))
"""What ``read_file`` returns: 30 numbered lines."""
FENCED = "\n".join(
    ["   1  # Notes", "   2  ```python", "   3  print('inside')", "   4  ```", "   5  after"]
)
"""Output that holds Markdown fences of its own."""


def _tool_conversation(store: ConversationStore, output: str) -> tuple[str, str]:
    conversation = store.create_conversation("ide-helper", "Tools")
    user = store.add_message(conversation.id, "user", "show me the file", None)
    call = {"id": "call-1", "name": "read_file", "args": {"path": "notes.md"}}
    asked = store.add_message(conversation.id, "assistant", "", user.id, {"tool_calls": [call]})
    tool = store.add_message(
        conversation.id, "tool", output, asked.id, {"tool_call_id": "call-1", "name": "read_file"}
    )
    return conversation.id, tool.id


def test_numbered_output_is_one_code_block_cut_to_the_chat_limit() -> None:
    blocks, _ = split_blocks(tool_output_markdown(NUMBERED))
    assert [block.kind for block in blocks] == ["fence", "paragraph_open"]
    assert code_of(blocks[0]).split("\n") == NUMBERED.split("\n")[:CHAT_LINES]
    assert blocks[1].source == f"_… {30 - CHAT_LINES} more lines_"


def test_fences_inside_the_output_cannot_close_the_block() -> None:
    blocks, _ = split_blocks(tool_output_markdown(FENCED))
    assert [block.kind for block in blocks] == ["fence"]
    assert code_of(blocks[0]) == FENCED
    longest = tool_output_markdown("a ````` b")
    assert longest.startswith("``````text\n")
    assert longest.endswith("\n``````")


def test_short_and_empty_output() -> None:
    assert tool_output_markdown("ok\n") == "```text\nok\n```"
    assert tool_output_markdown("  \n") == "_(no output)_"
    one_more = tool_output_markdown("\n".join(str(n) for n in range(CHAT_LINES + 1)))
    assert one_more.endswith("_… 1 more line_")


def test_the_tool_row_is_fenced_and_keeps_its_badge(tmp_path: Path) -> None:
    store = SqliteConversationStore(tmp_path / "weaver.db")
    conversation_id, tool_id = _tool_conversation(store, NUMBERED)
    state = ChatState(store, "ide-helper")
    state.open(conversation_id)
    row = state.item(tool_id)
    assert row.badge == "read_file"
    assert row.content == tool_output_markdown(NUMBERED)
    store.close()


async def test_read_file_output_keeps_its_lines_on_screen(services: Services) -> None:
    conversation_id, _ = _tool_conversation(services.store, NUMBERED)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        lines = chat(pilot.app).messages.text_lines()
    text = "\n".join(lines)
    for n in (1, 2, 3, CHAT_LINES):
        # each numbered line on a line of its own, not run together into a paragraph
        assert sum(f"{n:>4}  line {n} of the file" in line for line in lines) == 1, text
    assert not any("line 1 of the file" in line and "line 2 of" in line for line in lines)
    assert "line 21 of the file" not in text
    assert any(f"… {30 - CHAT_LINES} more lines" in line for line in lines), text
