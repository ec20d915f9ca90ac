"""The diff an editor shows for a proposed patch is the change an accept makes, byte for
byte: from the text the patch was made from to its new text, line endings kept (a CRLF file
was shown with its old text read as LF, so every line looked changed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acp.agent_process import AcpAgent
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")

CRLF_PY = 'def greet(name):\r\n    return f"Hello, {name}!"\r\n'
EDIT = {"path": "app.py", "start_line": 2, "end_line": 2, "new_content": '    return "Hi"'}


async def test_a_crlf_file_is_shown_with_its_own_line_endings(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    agent.client.answer = "accept"
    app = tmp_path / "app.py"
    app.write_bytes(CRLF_PY.encode())
    fake_openai.script(
        Reply(content="Proposing.", tool_calls=[ToolCall("propose_edit", EDIT, id="c_edit")]),
        Reply("Done."),
    )
    session = await agent.start(tmp_path)
    await agent.ask(session, "Say Hi")
    [asked] = agent.client.permission_requests
    [shown] = asked.content
    written = app.read_bytes().decode()
    assert shown.old_text == CRLF_PY
    assert shown.new_text == written
    assert written == 'def greet(name):\r\n    return "Hi"\r\n'
    completed = [
        u
        for u in agent.client.of_kind("tool_call_update")
        if u.tool_call_id == "c_edit" and u.content and u.content[0].type == "diff"
    ]
    assert completed[-1].content[0].old_text == CRLF_PY
