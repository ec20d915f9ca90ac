"""The user's MCP servers in a profile's turn: their tools beside the profile's own, answers
made safe, approval before a call runs (asked, remembered, refused), failures as one line.
The tickets server is reached over streamable HTTP (one server for the worker's tests), or
over stdio where its process is what is tested (its stderr, its death)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.graph.approval import APPROVED_KEY, approval_value
from agents.mcp_servers import McpServerConfig
from agents.mcp_servers.toolbox import OFF_KEY
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.user_message import NewMessage
from storage.sqlite_store import SqliteConversationStore
from tests.mcp_servers.conftest import SharedTickets, ran
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply, ToolCall


async def _send(runtime: AgentRuntime, model: Any, text: str, **kw: Any) -> list[Any]:
    conversation_id = kw.pop("conversation_id", None)
    profile = kw.pop("profile", "ide-helper")
    message = NewMessage(profile=profile, text=text, conversation_id=conversation_id,
                         at_active_leaf=conversation_id is not None)  # fmt: skip
    return [e async for e in runtime.send(message, model=model, **kw)]


def _finished(events: list[Any]) -> ev.RunFinished:
    last = events[-1]
    assert isinstance(last, ev.RunFinished), events
    return last


def _tool_names(body: dict[str, Any] | None) -> set[str]:
    assert body is not None
    return {tool["function"]["name"] for tool in body.get("tools") or []}


def _tool_results(body: dict[str, Any] | None) -> list[str]:
    assert body is not None
    return [str(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def _runtime(store: Any, checkpointer: Any, *servers: McpServerConfig) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, mcp_servers=servers)


def _lookup(ticket: str = "42") -> Reply:
    return Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": ticket})])


async def test_a_servers_tools_join_the_profiles_own_and_answers_are_made_printable(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(_lookup(), Reply("The printer is on fire."))
    runtime = _runtime(store, checkpointer, tickets_http(approve="always"))
    try:
        events = await _send(runtime, openai_model(), "what is ticket 42?")
    finally:
        await runtime.aclose()
    assert _finished(events).status == "complete"
    first, second = fake_openai.chat_requests[0].body, fake_openai.chat_requests[1].body
    assert {"lookup_ticket", "close_ticket", "read_file", "search_code"} <= _tool_names(first)
    (answer,) = _tool_results(second)
    assert "Ticket 42: the printer is on fire." in answer
    assert not [c for c in answer if (c < " " and c not in "\n\t") or "\x7f" <= c < "\xa0"]
    assert ran(tickets_http.log) == ["lookup_ticket 42"]


async def test_a_long_answer_is_cut_to_the_tool_result_limit(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("ticket_history", {"ticket_id": "7"})]),
                       Reply("Long."))  # fmt: skip
    runtime = AgentRuntime(store, checkpointer, tool_result_chars=5_000,
                           mcp_servers=[tickets_http(approve="always")])  # fmt: skip
    try:
        await _send(runtime, openai_model(), "history of 7")
    finally:
        await runtime.aclose()
    (answer,) = _tool_results(fake_openai.chat_requests[1].body)
    assert len(answer) < 6_000
    assert "[cut: the result had" in answer


async def test_ask_pauses_before_the_call_and_deny_never_runs_it(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(_lookup(), Reply("I was not allowed to look."))
    runtime = _runtime(store, checkpointer, tickets_http())
    model = openai_model()
    try:
        events = await _send(runtime, model, "what is ticket 42?")
        finished = _finished(events)
        assert finished.paused
        assert ran(tickets_http.log) == []
        paused = store.get_message(finished.leaf_id)
        question = paused.meta["pending_interrupt"]["values"][0]
        assert question["tool"] == "lookup_ticket"
        assert question["server"] == "tickets"
        resumed = [e async for e in runtime.resume_turn(
            conversation_id=paused.conversation_id, record_id=paused.id,
            value=approval_value("deny"), model=model)]  # fmt: skip
    finally:
        await runtime.aclose()
    assert _finished(resumed).status == "complete"
    assert not _finished(resumed).paused
    assert ran(tickets_http.log) == []
    (refusal,) = _tool_results(fake_openai.chat_requests[1].body)
    assert "not run" in refusal
    assert "denied" in refusal


async def test_once_runs_the_call_and_a_paused_question_survives_a_restart(
    store: SqliteConversationStore,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    fake_openai.script(_lookup(), Reply("On fire."))
    model = openai_model()
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "cp.db")) as saver:
        first = _runtime(store, saver, tickets_http())
        events = await _send(first, model, "what is ticket 42?")
        await first.aclose()
    paused = store.get_message(_finished(events).leaf_id)
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "cp.db")) as saver:
        again = _runtime(store, saver, tickets_http())
        try:
            resumed = [e async for e in again.resume_turn(
                conversation_id=paused.conversation_id, record_id=paused.id,
                value=approval_value("once"), model=model)]  # fmt: skip
        finally:
            await again.aclose()
    assert _finished(resumed).status == "complete"
    assert ran(tickets_http.log) == ["lookup_ticket 42"]
    assert "on fire" in _tool_results(fake_openai.chat_requests[1].body)[0]
    assert APPROVED_KEY not in store.get_conversation(paused.conversation_id).meta


async def test_always_is_remembered_for_the_conversation_only(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(_lookup("1"), Reply("One."), _lookup("2"), Reply("Two."),
                       _lookup("3"), Reply("Three."))  # fmt: skip
    runtime = _runtime(store, checkpointer, tickets_http())
    model = openai_model()
    try:
        paused = store.get_message(_finished(await _send(runtime, model, "ticket 1?")).leaf_id)
        conversation_id = paused.conversation_id
        async for _ in runtime.resume_turn(conversation_id=conversation_id, record_id=paused.id,
                                           value=approval_value("always"), model=model):  # fmt: skip
            pass
        again = await _send(runtime, model, "ticket 2?", conversation_id=conversation_id)
        assert not _finished(again).paused
        other = await _send(runtime, model, "ticket 3?")
        assert _finished(other).paused
    finally:
        await runtime.aclose()
    assert ran(tickets_http.log) == ["lookup_ticket 1", "lookup_ticket 2"]
    meta = store.get_conversation(conversation_id).meta
    [approved] = meta[APPROVED_KEY]
    assert approved.startswith("tickets/lookup_ticket@")


async def test_always_approves_the_tool_as_it_was_listed_not_a_changed_one(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    """An answer given when the server listed the tool otherwise (another description or
    schema, after ``tools/list_changed``), or for its name alone, approves nothing now."""
    fake_openai.script(_lookup("1"), Reply("One."))
    runtime = _runtime(store, checkpointer, tickets_http())
    conversation = store.create_conversation(profile="ide-helper", title="t")
    store.update_conversation_meta(
        conversation.id,
        **{APPROVED_KEY: ["tickets/lookup_ticket", "tickets/lookup_ticket@0123456789abcdef"]},
    )
    try:
        events = await _send(runtime, openai_model(), "ticket 1?", conversation_id=conversation.id)
        assert _finished(events).paused
    finally:
        await runtime.aclose()
    assert ran(tickets_http.log) == []


async def test_never_and_headless_refusal_never_run_the_call(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(_lookup("1"), Reply("No."), _lookup("2"), Reply("No."),
                       _lookup("3"), Reply("Yes."))  # fmt: skip
    model = openai_model()
    never = _runtime(store, checkpointer, tickets_http(approve="never"))
    try:
        assert not _finished(await _send(never, model, "ticket 1?")).paused
    finally:
        await never.aclose()
    asking = _runtime(store, checkpointer, tickets_http())
    try:
        refused = await _send(asking, model, "ticket 2?", tool_approval="refuse")
        approved = await _send(asking, model, "ticket 3?", tool_approval="approve")
    finally:
        await asking.aclose()
    assert not _finished(refused).paused
    assert not _finished(approved).paused
    lines = [e.text for e in refused if isinstance(e, ev.NodeStatus) and e.state == "error"]
    assert any("lookup_ticket" in line and "--approve" in line for line in lines)
    assert ran(tickets_http.log) == ["lookup_ticket 3"]
    assert "never allows it" in _tool_results(fake_openai.chat_requests[1].body)[0]


async def test_profiles_get_only_the_servers_given_to_them_and_switches_are_per_conversation(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets_http: SharedTickets,
) -> None:
    fake_openai.script(Reply("a"), Reply("b"), Reply("c"))
    model = openai_model()
    runtime = _runtime(store, checkpointer, tickets_http(approve="always"),
                       tickets_http(name="elsewhere", profiles=("mediator",)))  # fmt: skip
    try:
        first = await _send(runtime, model, "hello")
        conversation_id = first[0].conversation.id
        store.update_conversation_meta(conversation_id, **{OFF_KEY: ["tickets/close_ticket"]})
        await _send(runtime, model, "again", conversation_id=conversation_id)
        store.update_conversation_meta(conversation_id, **{OFF_KEY: ["tickets"]})
        await _send(runtime, model, "once more", conversation_id=conversation_id)
    finally:
        await runtime.aclose()
    names = [_tool_names(r.body) for r in fake_openai.chat_requests]
    assert "lookup_ticket" in names[0]
    assert "close_ticket" in names[0]
    assert "lookup_ticket" in names[1]
    assert "close_ticket" not in names[1]
    assert "lookup_ticket" not in names[2]
    assert "read_file" in names[2]
    assert runtime.mcp.statuses()[1].state == "not started"  # mediator's server never started


async def test_a_server_that_cannot_start_is_one_status_line_and_the_turn_goes_on(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    fake_openai.script(Reply("Fine without it."))
    broken = McpServerConfig(name="broken", command=str(tmp_path / "missing"))
    runtime = _runtime(store, checkpointer, broken)
    try:
        events = await _send(runtime, openai_model(), "hello")
        (status,) = runtime.mcp.statuses()
    finally:
        await runtime.aclose()
    assert _finished(events).status == "complete"
    (line,) = [e for e in events if isinstance(e, ev.NodeStatus) and e.node == "mcp"]
    assert line.state == "error"
    assert "'broken' could not be started" in line.text
    assert "\n" not in line.text
    assert "Traceback" not in line.text
    assert status.state == "failed"
    assert status.problem == line.text


async def test_a_server_that_dies_is_a_status_and_is_started_again_next_turn(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets: Callable[..., McpServerConfig],
    tickets_log: Path,
) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("stop_server", {})]), Reply("It died."),
                       _lookup(), Reply("Back."))  # fmt: skip
    runtime = _runtime(store, checkpointer, tickets(approve="always"))
    model = openai_model()
    try:
        died = await _send(runtime, model, "stop it")
        assert _finished(died).status == "complete"
        (status,) = runtime.mcp.statuses()
        assert status.state == "stopped"
        assert "'tickets' stopped" in (status.problem or "")
        back = await _send(runtime, model, "ticket 42?")
        assert _finished(back).status == "complete"
    finally:
        await runtime.aclose()
    assert ran(tickets_log) == ["stop_server", "lookup_ticket 42"]
    assert "on fire" in _tool_results(fake_openai.chat_requests[3].body)[0]


async def test_a_servers_stderr_goes_to_the_log(
    tickets: Callable[..., McpServerConfig], caplog: pytest.LogCaptureFixture
) -> None:
    from agents.mcp_servers import open_mcp_tools
    from tests.mcp_servers.tickets_server import STDERR_LINE

    caplog.set_level(logging.INFO, logger="agents.mcp_servers.stderr_log")
    toolset = await open_mcp_tools([tickets()])
    await toolset.aclose()
    lines = [getattr(r, "line", "") for r in caplog.records if r.msg == "mcp server stderr"]
    assert STDERR_LINE in lines


async def test_open_mcp_tools_returns_the_tools_and_the_failures(
    tickets_http: SharedTickets, tmp_path: Path
) -> None:
    from agents.mcp_servers import open_mcp_tools

    toolset = await open_mcp_tools([tickets_http(tools=("lookup_ticket",)),
                                    McpServerConfig(name="gone", command=str(tmp_path / "x"))])  # fmt: skip
    try:
        assert [t.name for t in toolset.tools] == ["lookup_ticket"]
        assert "42" in await toolset.tools[0].ainvoke({"ticket_id": "42"})
        (problem,) = toolset.problems
        assert "'gone' could not be started" in problem
    finally:
        await toolset.aclose()


async def test_tools_list_changed_is_followed_and_the_new_tool_is_not_yet_approved(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tickets: Callable[..., McpServerConfig],
    tickets_log: Path,
) -> None:
    """A server that adds a tool and says ``tools/list_changed``: the next turn offers the new
    tool, and the conversation's earlier "always" (for another tool) does not approve it."""
    fake_openai.script(_lookup("1"), Reply("One."),
                       Reply(tool_calls=[ToolCall("grow_tools", {})]), Reply("Grown."),
                       Reply(tool_calls=[ToolCall("escalate_ticket", {"ticket_id": "1"})]),
                       Reply("Escalated."))  # fmt: skip
    model = openai_model()
    runtime = _runtime(store, checkpointer, tickets(approve="ask"))
    try:
        paused = store.get_message(_finished(await _send(runtime, model, "ticket 1?")).leaf_id)
        conversation_id = paused.conversation_id
        async for _ in runtime.resume_turn(conversation_id=conversation_id, record_id=paused.id,
                                           value=approval_value("always"), model=model):  # fmt: skip
            pass
        await _send(runtime, model, "grow", conversation_id=conversation_id,
                    tool_approval="approve")  # fmt: skip
        escalated = await _send(runtime, model, "escalate 1", conversation_id=conversation_id)
    finally:
        await runtime.aclose()
    assert "escalate_ticket" in _tool_names(fake_openai.chat_requests[-1].body)
    assert _finished(escalated).paused
    assert ran(tickets_log) == ["lookup_ticket 1", "grow_tools"]
