"""ide-helper's patch review over ACP: a permission request with the diff, answered either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acp.agent_process import AcpAgent, AgentFactory, server_env, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")

APP_PY = 'def greet(name):\n    return f"Hello, {name}!"\n'
EDIT = {
    "path": "app.py",
    "start_line": 2,
    "end_line": 2,
    "new_content": '    return f"Hi, {name}!"',
}


def script_a_patch(fake_openai: FakeOpenAI, tmp_path: Path, after: str) -> Path:
    app = tmp_path / "app.py"
    app.write_text(APP_PY, encoding="utf-8")
    fake_openai.script(
        Reply(content="Proposing.", tool_calls=[ToolCall("propose_edit", EDIT, id="c_edit")]),
        Reply(after),
    )
    return app


def tool_result_the_model_read(fake_openai: FakeOpenAI) -> str:
    body = fake_openai.chat_requests[-1].body
    assert body is not None
    messages = body["messages"]
    [result] = [m for m in messages if m["role"] == "tool" and m["tool_call_id"] == "c_edit"]
    return str(result["content"])


async def test_an_accepted_patch_is_applied_and_reported_as_a_diff(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    agent.client.answer = "accept"
    app = script_a_patch(fake_openai, tmp_path, "Done: it says Hi now.")
    session = await agent.start(tmp_path)
    response = await agent.ask(session, "Say Hi instead of Hello")

    assert response.stop_reason == "end_turn"
    [asked] = agent.client.permission_requests
    assert asked.tool_call_id == "c_edit"
    assert asked.kind == "edit"
    [proposed] = asked.content
    assert proposed.type == "diff"
    assert proposed.path == str(app.resolve())
    assert proposed.old_text == APP_PY
    assert proposed.new_text == APP_PY.replace("Hello", "Hi")
    assert app.read_text(encoding="utf-8") == APP_PY.replace("Hello", "Hi")
    diffs = [
        u
        for u in agent.client.of_kind("tool_call_update")
        if u.tool_call_id == "c_edit" and u.content and u.content[0].type == "diff"
    ]
    assert diffs
    assert diffs[-1].status == "completed"
    assert diffs[-1].content[0].old_text == APP_PY
    assert diffs[-1].content[0].new_text == APP_PY.replace("Hello", "Hi")
    assert tool_result_the_model_read(fake_openai).startswith("Applied patch p-")
    assert agent.client.agent_text().endswith("Done: it says Hi now.")


async def test_a_rejected_patch_leaves_the_file_and_the_model_hears_it(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    agent.client.answer = "reject"
    app = script_a_patch(fake_openai, tmp_path, "Understood, nothing changed.")
    session = await agent.start(tmp_path)
    response = await agent.ask(session, "Say Hi instead of Hello")

    assert response.stop_reason == "end_turn"
    assert len(agent.client.permission_requests) == 1
    assert app.read_text(encoding="utf-8") == APP_PY
    assert "reject" in tool_result_the_model_read(fake_openai).lower()
    diffs = [
        u
        for u in agent.client.of_kind("tool_call_update")
        if u.content and u.content[0].type == "diff"
    ]
    assert diffs == [], "nothing was applied, so no edit is reported"
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
        [tool] = [r for r in branch if r.role == "tool"]
        assert tool.meta["patch_status"] == "rejected"


async def test_a_cancelled_permission_request_leaves_the_patch_pending(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    from agents.patch_review.review import find_pending_review

    agent = ide_helper_agent
    agent.client.answer = None
    app = script_a_patch(fake_openai, tmp_path, "unused")
    session = await agent.start(tmp_path)
    response = await agent.ask(session, "Say Hi instead of Hello")

    assert response.stop_reason == "cancelled"
    assert app.read_text(encoding="utf-8") == APP_PY
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        assert find_pending_review(store, conversation.id) is not None


async def test_a_tool_needing_approval_asks_permission_and_runs_once_allowed(
    acp_agent: AgentFactory, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    import json
    import sys

    from tests.mcp_servers.conftest import SERVER_SCRIPT, ran

    log = tmp_path / "tickets.log"
    server = {
        "command": sys.executable,
        "args": [str(SERVER_SCRIPT)],
        "env": {"TICKETS_LOG": str(log)},
    }
    (tmp_path / "config.yaml").write_text(json.dumps({"mcp_servers": {"tickets": server}}))
    fake_openai.script(
        Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "42"}, id="c_t")]),
        Reply("Ticket 42 is open."),
    )
    async with acp_agent(
        "--profile", "ide-helper", env=server_env(fake_openai), answer="once"
    ) as agent:
        session = await agent.start(tmp_path)
        response = await agent.ask(session, "Look up ticket 42")

    assert response.stop_reason == "end_turn", agent.stderr_text()
    [asked] = agent.client.permission_requests
    assert asked.tool_call_id == "c_t"
    assert "lookup_ticket" in asked.title
    assert ran(log)
    assert agent.client.agent_text().endswith("Ticket 42 is open.")
